/// How the open ends of a stroke are drawn.
public enum LineCap: Sendable {
    /// Square, ending exactly at the end point.
    case butt
    /// A half disc of the stroke's width around the end point.
    case round
    /// Square, reaching half the width past the end point.
    case square
}

/// How a stroke turns at a corner of the path.
public enum LineJoin: Sendable {
    /// The outer edges extended until they meet, unless that point is
    /// farther than `miterLimit × width / 2` from the corner: then `bevel`.
    case miter
    /// An arc of the stroke's half width around the corner.
    case round
    /// The outer corners joined by a straight line.
    case bevel
}

/// The parameters of a stroke (CoreGraphics' and Core Animation's
/// `CAShapeLayer` set), in the path's own coordinate space.
///
/// Documented results for degenerate values:
/// - `width` ≤ 0, NaN or infinite: the stroke is empty (nothing is drawn),
///   as Core Animation draws nothing for `lineWidth` 0.
/// - `miterLimit` below 1 or NaN acts as 1 (every miter becomes a bevel).
/// - `dash`: empty, or with any negative or non-finite entry, or summing to
///   0 (e.g. all zeros): no dashing, the stroke is solid (Skia's rule). An
///   odd count is repeated to make it even (SVG). A dash of length 0 draws
///   a dot with round or square caps and nothing with butt caps. A pattern
///   that would cut the path into more than `maxDashCount` pieces is also
///   ignored (solid) rather than producing an unbounded outline.
/// - `dashPhase` NaN or infinite acts as 0; one so large against the
///   pattern's period that no fraction of a period is left (|phase ÷
///   period| ≳ 2⁵²) also starts the pattern at its beginning.
/// - `start`/`end` are clamped to 0…1 (NaN: 0 for start, 1 for end); a
///   stroke with `start >= end` is empty.
public struct StrokeStyle: Equatable, Sendable {
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    /// The longest miter allowed, as a multiple of the width (CoreGraphics'
    /// default is 10).
    public var miterLimit: Double
    /// Alternating on and off lengths, starting with on.
    public var dash: [Double]
    /// How far into the dash pattern the stroke starts.
    public var dashPhase: Double
    /// The part of the path stroked, as fractions of its total length
    /// (Core Animation's `strokeStart` and `strokeEnd`), measured over all
    /// subpaths in order.
    public var start: Double
    public var end: Double

    public static let maxDashCount = 100_000

    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dash: [Double] = [], dashPhase: Double = 0, start: Double = 0, end: Double = 1) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dash = dash; self.dashPhase = dashPhase; self.start = start; self.end = end
    }
}
