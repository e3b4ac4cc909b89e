import Raster

/// Per-frame figures the compositor reports (the statistics of the layer
/// issue grow from here).
public struct FrameStatistics: Equatable, Sendable {
    public var layersDrawn = 0
    public var pixelsWritten = 0
    public init() {}
}

/// Turns a layer tree into pixels.
///
/// This first compositor handles layers whose geometry is a translation
/// (position, anchorPoint, bounds origin), background colours and opacity
/// multiplied down the tree; transforms, contents, borders, shadows, masks,
/// group opacity and damage tracking come with the layer issue. Layer
/// coordinates are points; `scale` pixels per point.
public final class Compositor {
    public var scale: Double
    public var kernels: KernelFamily
    public private(set) var statistics = FrameStatistics()

    public init(scale: Double = 1, kernels: KernelFamily = .simd) {
        self.scale = scale
        self.kernels = kernels
    }

    /// Renders `root` as it appears at `time` (animations applied) into
    /// `target`, clearing it to `clearColor` first.
    public func render(_ root: Layer, at time: MediaTime, into target: PixelView<ARGB8888>,
                       clearColor: PremultipliedColor = .black) {
        statistics = FrameStatistics()
        let canvas = Canvas(target, family: kernels)
        canvas.fill(target.bounds, color: clearColor)
        if !clearColor.isOpaque {   // fill is source-over: make the clear exact
            var y = 0
            while y < target.height { target.row(y).update(repeating: clearColor.argb, count: target.width); y += 1 }
        }
        statistics.pixelsWritten += target.width * target.height
        draw(root, originX: 0, originY: 0, opacity: 1, time: time, canvas: canvas, depth: 0)
    }

    /// Nesting deeper than this is not drawn (a documented clamp that keeps
    /// a pathological tree from exhausting the stack).
    public static let maximumDepth = 512

    private func draw(_ layer: Layer, originX: Double, originY: Double, opacity: Double,
                      time: MediaTime, canvas: Canvas, depth: Int) {
        guard !layer.isHidden, depth < Compositor.maximumDepth else { return }
        let p = PresentationValues(layer, at: time)
        let layerOpacity = opacity * clampUnit(p.opacity)
        guard layerOpacity > 0 else { return }
        // The layer's bounds rectangle in the superlayer space, then on screen.
        let x = originX + p.position.x - p.anchorPoint.x * p.bounds.width
        let y = originY + p.position.y - p.anchorPoint.y * p.bounds.height
        guard x.isFinite, y.isFinite, p.bounds.isFinite else { return }
        if let color = p.backgroundColor {
            let rect = pixelRect(x: x, y: y, width: p.bounds.width, height: p.bounds.height)
            var c = color
            c.alpha = clampUnit(c.alpha) * layerOpacity
            let premultiplied = c.premultiplied
            canvas.fill(rect, color: premultiplied)
            let visible = rect.intersection(canvas.clip)
            statistics.pixelsWritten += visible.area
        }
        statistics.layersDrawn += 1
        // Sublayers live in the layer's bounds space: its origin is the
        // point shown at the top-left corner.
        let childOriginX = x - p.bounds.origin.x, childOriginY = y - p.bounds.origin.y
        for sublayer in layer.sublayers {
            draw(sublayer, originX: childOriginX, originY: childOriginY, opacity: layerOpacity,
                 time: time, canvas: canvas, depth: depth + 1)
        }
    }

    /// Points to whole pixels: edges rounded to the nearest pixel boundary,
    /// coordinates clamped to ±2^30 so huge geometry cannot overflow `Int`.
    private func pixelRect(x: Double, y: Double, width: Double, height: Double) -> IntRect {
        let limit = 1_073_741_824.0
        func px(_ v: Double) -> Int { Int(Swift.max(-limit, Swift.min(limit, (v * scale).rounded()))) }
        let x0 = px(x), y0 = px(y), x1 = px(x + width), y1 = px(y + height)
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// 0…1, NaN → 0.
@inline(__always) func clampUnit(_ v: Double) -> Double {
    v > 0 ? (v < 1 ? v : 1) : 0
}

/// The presentation values of one layer at one time: the model values with
/// its running animations applied, later animations overriding earlier ones.
struct PresentationValues {
    var bounds: Rect
    var position: Point
    var anchorPoint: Point
    var opacity: Double
    var backgroundColor: Color?

    init(_ layer: Layer, at time: MediaTime) {
        bounds = layer.bounds
        position = layer.position
        anchorPoint = layer.anchorPoint
        opacity = layer.opacity
        backgroundColor = layer.backgroundColor
        for (_, animation) in layer.animations {
            guard let value = animation.value(at: time) else { continue }
            switch (animation.key, value) {
            case let (.position, .point(p)): position = p
            case let (.bounds, .rect(r)): bounds = r
            case let (.opacity, .scalar(o)): opacity = o
            case let (.backgroundColor, .color(c)): backgroundColor = c
            default: break   // a value of the wrong kind for its key is ignored
            }
        }
    }
}
