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
/// This first compositor handles background colours and opacity multiplied
/// down the tree, for layers whose full map to the display (position,
/// anchorPoint, bounds origin, transform, sublayerTransform, flips — see
/// `LayerGeometry`) keeps rectangles axis-aligned: translations and scales.
/// Rotated, sheared and perspective layers, contents, borders, shadows,
/// masks, group opacity and damage tracking come with the layer issue.
/// Layer coordinates are points; `scale` pixels per point.
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
        draw(root, parentToDisplay: .identity, parentSublayerSpace: .identity, opacity: 1,
             time: time, canvas: canvas, depth: 0)
    }

    /// Nesting deeper than this is not drawn (a documented clamp that keeps
    /// a pathological tree from exhausting the stack).
    public static let maximumDepth = 512

    /// `parentToDisplay` maps the superlayer's bounds space to the display
    /// (flattened, points); `parentSublayerSpace` is the superlayer's
    /// sublayerTransform about its anchor, which must join this layer's 4×4
    /// before it is flattened (a perspective acts on the layer's z).
    private func draw(_ layer: Layer, parentToDisplay: ProjectiveTransform, parentSublayerSpace: Transform3D,
                      opacity: Double, time: MediaTime, canvas: Canvas, depth: Int) {
        guard !layer.isHidden, depth < Compositor.maximumDepth else { return }
        let p = PresentationValues(layer, at: time)
        let layerOpacity = opacity * clampUnit(p.opacity)
        guard layerOpacity > 0 else { return }
        let geometry = p.geometry
        var toSuperlayer = geometry.toSuperlayer
        if !parentSublayerSpace.isIdentity { toSuperlayer = toSuperlayer.concatenating(parentSublayerSpace) }
        let toDisplay = toSuperlayer.flattened.concatenating(parentToDisplay)
        guard toDisplay.isFinite, geometry.bounds.isFinite else { return }
        if let color = p.backgroundColor {
            // TODO(compositor issue): rotated, sheared and perspective layers
            // need the bounds quad filled through `toDisplay` (a path fill
            // or a projective span walk); until then only axis-aligned maps
            // are drawn and the background of any other layer is skipped.
            if toDisplay.isAffine && toDisplay.m01 == 0 && toDisplay.m10 == 0 {
                let b = geometry.bounds
                let x0 = toDisplay.m00 * b.minX + toDisplay.m02, x1 = toDisplay.m00 * b.maxX + toDisplay.m02
                let y0 = toDisplay.m11 * b.minY + toDisplay.m12, y1 = toDisplay.m11 * b.maxY + toDisplay.m12
                let rect = pixelRect(x: Swift.min(x0, x1), y: Swift.min(y0, y1),
                                     width: Swift.abs(x1 - x0), height: Swift.abs(y1 - y0))
                var c = color
                c.alpha = clampUnit(c.alpha) * layerOpacity
                let premultiplied = c.premultiplied
                canvas.fill(rect, color: premultiplied)
                let visible = rect.intersection(canvas.clip)
                statistics.pixelsWritten += visible.area
            }
        }
        statistics.layersDrawn += 1
        let sublayerSpace = geometry.sublayerSpace
        for sublayer in layer.sublayers {
            draw(sublayer, parentToDisplay: toDisplay, parentSublayerSpace: sublayerSpace, opacity: layerOpacity,
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
    /// The model's geometry with the animated bounds, position and anchor
    /// point. (Animating transform, zPosition and the rest comes with the
    /// animation issue's key paths.)
    var geometry: LayerGeometry {
        var g = modelGeometry
        g.bounds = bounds; g.position = position; g.anchorPoint = anchorPoint
        return g
    }
    private var modelGeometry: LayerGeometry
    var opacity: Double
    var backgroundColor: Color?

    init(_ layer: Layer, at time: MediaTime) {
        modelGeometry = layer.geometry
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
