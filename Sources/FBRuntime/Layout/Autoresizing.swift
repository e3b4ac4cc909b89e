/// How a layer follows a change of its superlayer's size (CA's
/// `CAAutoresizingMask`), for `Layer.autoresizingMask`.
///
/// Named by coordinates, as CA names them: the minX margin lies between
/// the superlayer's minX edge and the layer's, the minY margin between the
/// minY edges. CA's spaces have y up, so its minY margin is the bottom one;
/// FBRuntime's have y down (unless `isGeometryFlipped`), so here the minY
/// margin is the top one on screen. The raw values are CA's.
public struct AutoresizingMask: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The margin between the superlayer's minX edge and the layer's is
    /// flexible.
    public static let flexibleMinXMargin = AutoresizingMask(rawValue: 1 << 0)
    public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
    public static let flexibleMaxXMargin = AutoresizingMask(rawValue: 1 << 2)
    public static let flexibleMinYMargin = AutoresizingMask(rawValue: 1 << 3)
    public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    public static let flexibleMaxYMargin = AutoresizingMask(rawValue: 1 << 5)
    /// Width and height flexible: the layer keeps its margins.
    public static let flexibleSize: AutoresizingMask = [.flexibleWidth, .flexibleHeight]
}

extension Layer {
    /// How the layer is resized when its superlayer's bounds size changes
    /// (CA's `autoresizingMask`); empty (CA's `kCALayerNotSizable`, the
    /// default): it is not. Applied at once, when the superlayer's size is
    /// set (as CA does in `setBounds:`), before any layout manager of the
    /// superlayer runs at the commit — a manager that places this layer
    /// overrides it.
    public var autoresizingMask: AutoresizingMask {
        get { layoutState.autoresizingMask }
        set { layoutState.autoresizingMask = newValue }
    }

    /// Tells the sublayers with an `autoresizingMask` that this layer's
    /// bounds size changed from `oldSize` (CA's
    /// `resizeSublayers(withOldSize:)`); the bounds setter calls it.
    public func resizeSublayers(withOldSize oldSize: Size) {
        for sublayer in sublayers where !sublayer.layoutState.autoresizingMask.isEmpty {
            sublayer.resize(withOldSuperlayerSize: oldSize)
        }
    }

    /// Resizes the layer for its superlayer's change of size from
    /// `oldSize` (CA's `resize(withOldSuperlayerSize:)`): on each axis the
    /// change is shared evenly among the flexible parts the mask names (a
    /// margin, the size, the other margin), as AppKit documents it; with
    /// none flexible on an axis the frame does not move on it. Sets the
    /// `frame` (position and size, as its setter does), in points, sizes
    /// never below 0. A change that is not finite (NaN or infinite sizes)
    /// is ignored.
    public func resize(withOldSuperlayerSize oldSize: Size) {
        let mask = layoutState.autoresizingMask
        guard !mask.isEmpty, let parent = superlayer else { return }
        let new = parent.bounds.size
        var f = frame
        guard f.isFinite else { return }
        func share(_ delta: Double, _ low: Bool, _ size: Bool, _ high: Bool) -> (origin: Double, size: Double) {
            let parts = (low ? 1.0 : 0) + (size ? 1 : 0) + (high ? 1 : 0)
            guard parts > 0, delta.isFinite, delta != 0 else { return (0, 0) }
            let each = delta / parts
            return (low ? each : 0, size ? each : 0)
        }
        let dx = share(Swift.abs(new.width) - Swift.abs(oldSize.width), mask.contains(.flexibleMinXMargin),
                       mask.contains(.flexibleWidth), mask.contains(.flexibleMaxXMargin))
        let dy = share(Swift.abs(new.height) - Swift.abs(oldSize.height), mask.contains(.flexibleMinYMargin),
                       mask.contains(.flexibleHeight), mask.contains(.flexibleMaxYMargin))
        guard dx.origin != 0 || dx.size != 0 || dy.origin != 0 || dy.size != 0 else { return }
        f = Rect(x: f.minX + dx.origin, y: f.minY + dy.origin, width: Swift.max(0, f.width + dx.size), height: Swift.max(0, f.height + dy.size))
        frame = LayoutLimits.clamp(f)
    }
}
