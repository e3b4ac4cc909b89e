import Raster

/// Draws an `SVGDrawing` through FBRuntime's Raster API only: `Path` (SVG's
/// arcs through `Path.ellipticalArc`), `Canvas.fill(_:color:)` and
/// `fill(_:paint:)`, `Canvas.stroke` with a `StrokeStyle` (dashes and
/// phase), `GradientPaint` (straight-colour interpolation, its default)
/// and group opacity as a transparent surface composited once with
/// `Canvas.draw(_:x:y:alpha:)`. Curves and strokes are flattened to
/// `tolerance` (device pixels).
enum SVGRasterReplay {
    static func render(_ drawing: SVGDrawing, tolerance: Double = FlattenLimits.defaultTolerance) -> Surface<ARGB8888> {
        let r = PathRasterizer()
        r.tolerance = tolerance
        var layers = [Surface<ARGB8888>(width: drawing.width, height: drawing.height)!]
        var opacities: [Double] = []
        for op in drawing.operations {
            let canvas = Canvas(layers[layers.count - 1].view)
            switch op {
            case let .fill(data, paint, rule, transform):
                let path = self.path(data)
                shade(paint, transform: transform,
                      color: { canvas.fill(path, color: $0, rule: rule, transform: transform, using: r) },
                      gradient: { canvas.fill(path, paint: $0, rule: rule, transform: transform, alpha: $1, using: r) })
            case let .stroke(data, paint, style, transform):
                let path = self.path(data)
                let stroke = StrokeStyle(width: style.width, cap: style.cap, join: style.join, miterLimit: style.miterLimit,
                                         dash: style.dash, dashPhase: style.dashOffset)
                shade(paint, transform: transform,
                      color: { canvas.stroke(path, color: $0, style: stroke, transform: transform, using: r) },
                      gradient: { canvas.stroke(path, paint: $0, style: stroke, transform: transform, alpha: $1, using: r) })
            case .beginGroup(let opacity):
                layers.append(Surface<ARGB8888>(width: drawing.width, height: drawing.height)!)
                opacities.append(opacity)
            case .endGroup:
                let group = layers.removeLast()
                withExtendedLifetime(group) {
                    Canvas(layers[layers.count - 1].view).draw(group.view, x: 0, y: 0, alpha: unitToByte(opacities.removeLast()))
                }
            }
        }
        return layers[0]
    }

    static func path(_ data: SVGPathData) -> Path {
        var p = Path()
        for s in data.segments {
            switch s {
            case .move(let q): p.move(to: q)
            case .line(let q): p.line(to: q)
            case let .quad(c, q): p.quad(to: q, control: c)
            case let .cubic(c1, c2, q): p.cubic(to: q, control1: c1, control2: c2)
            case let .arc(rx, ry, rotation, large, sweep, q):
                p.ellipticalArc(to: q, radiusX: rx, radiusY: ry, xAxisRotation: rotation * .pi / 180, largeArc: large, sweep: sweep)
            case .close: p.close()
            }
        }
        return p
    }

    /// Draws with `paint` through the Canvas call for its kind: `color`
    /// with the opacity in the colour's alpha, or `gradient` (in device
    /// pixels) with the opacity as the global alpha.
    static func shade(_ paint: SVGPaint, transform: AffineTransform, color: (PremultipliedColor) -> Void,
                      gradient: (GradientPaint, UInt8) -> Void) {
        switch paint.kind {
        case .color(let c):
            color(PremultipliedColor(red: c.red, green: c.green, blue: c.blue, alpha: paint.opacity))
        case .gradient(let g):
            gradient(self.gradient(g, transform: transform), unitToByte(paint.opacity))
        }
    }

    /// The gradient in device pixels: gradient space → user space
    /// (`gradientTransform`) → canvas (`transform`).
    static func gradient(_ g: SVGGradient, transform: AffineTransform) -> GradientPaint {
        let stops = g.stops.map {
            GradientStop(red: $0.color.red, green: $0.color.green, blue: $0.color.blue, alpha: $0.opacity, at: $0.offset)
        }
        let t = g.transform.concatenating(transform)
        switch g.geometry {
        case let .linear(x1, y1, x2, y2):
            return GradientPaint.linear(x0: x1, y0: y1, x1: x2, y1: y2, stops: stops, spread: g.spread, transform: t)
        case let .radial(cx, cy, r, fx, fy):
            return GradientPaint.radial(cx: cx, cy: cy, radius: r, fx: fx, fy: fy, stops: stops, spread: g.spread, transform: t)
        }
    }
}
