import Raster

/// A drawing read from one SVG file of the oracle corpus (`SVGReader`):
/// what the two replays, `SVGRasterReplay` (FBRuntime's Raster API) and
/// `SVGCairoReplay` (cairo's C API), each draw, in order, onto a
/// transparent canvas of `width` × `height` pixels. Every coordinate is
/// absolute and in the user space of its operation's `transform` (user
/// space to canvas pixels); SVG's shorthands (relative, H, V, S, T, basic
/// shapes) are already resolved, so both replays see the same geometry and
/// only librsvg reads the file's own spelling.
struct SVGDrawing {
    var width: Int
    var height: Int
    var operations: [Operation] = []

    enum Operation {
        case fill(SVGPathData, paint: SVGPaint, rule: FillRule, transform: AffineTransform)
        case stroke(SVGPathData, paint: SVGPaint, style: SVGStrokeStyle, transform: AffineTransform)
        /// Drawing until the matching `endGroup` goes to a transparent
        /// layer, composited once with `opacity` (SVG's group opacity).
        case beginGroup(opacity: Double)
        case endGroup
    }
}

/// A path in absolute user-space coordinates. Arcs stay arcs (SVG's `A`
/// parameters) so that each replay converts them its own way.
struct SVGPathData {
    enum Segment: Equatable {
        case move(PathPoint)
        case line(PathPoint)
        case quad(control: PathPoint, to: PathPoint)
        case cubic(control1: PathPoint, control2: PathPoint, to: PathPoint)
        /// SVG's elliptical arc from the current point; `rotation` in degrees.
        case arc(rx: Double, ry: Double, rotation: Double, largeArc: Bool, sweep: Bool, to: PathPoint)
        case close
    }

    var segments: [Segment] = []
}

/// Straight (unpremultiplied) sRGB channels in 0…1.
struct SVGColor: Equatable {
    var red: Double, green: Double, blue: Double
}

/// A fill or stroke paint with its `fill-opacity` or `stroke-opacity`.
struct SVGPaint {
    enum Kind {
        case color(SVGColor)
        case gradient(SVGGradient)
    }

    var kind: Kind
    var opacity: Double
}

/// A `linearGradient` or `radialGradient` in user space
/// (`gradientUnits="userSpaceOnUse"`, the only units the reader takes).
struct SVGGradient {
    enum Geometry {
        case linear(x1: Double, y1: Double, x2: Double, y2: Double)
        /// The circle (cx, cy, r) is t = 1; the focal point (fx, fy) is t = 0.
        case radial(cx: Double, cy: Double, r: Double, fx: Double, fy: Double)
    }

    struct Stop {
        /// In 0…1, never below the previous stop's (SVG's clamping).
        var offset: Double
        var color: SVGColor
        var opacity: Double
    }

    var geometry: Geometry
    var stops: [Stop]
    var spread: GradientSpread
    /// `gradientTransform`: gradient space to the user space of the shape.
    var transform: AffineTransform
}

/// `stroke-width`, `-linecap`, `-linejoin`, `-miterlimit`, `-dasharray`
/// and `-dashoffset`, in user space.
struct SVGStrokeStyle {
    var width: Double
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double
    /// Empty for a solid stroke; an odd count is already doubled (SVG).
    var dash: [Double]
    var dashOffset: Double
}
