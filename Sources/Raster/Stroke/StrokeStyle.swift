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
/// - The outline is limited to about `maxOutlinePoints` points, whatever
///   the width, dashes or geometry: see there.
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

    /// Most dashes a pattern may cut the path into; past it the stroke is
    /// solid (see above).
    public static let maxDashCount = 100_000

    /// The work limit of one stroke: the most points its outline holds
    /// (2¹⁶ = 65,536, 1 MiB of points; filling that many edges takes a few
    /// tens of milliseconds on a board). Ordinary strokes are well below it
    /// (a dashed border around a 1920×1080 screen at a 2-pixel period is
    /// about 12,000 points; a 5,000-point polyline with round joins about
    /// 30,000). Without it, a stroke wide enough to need a thousand points
    /// for every round join inside a curve, or tens of thousands of dashes
    /// with round caps, gave millions of points and took seconds (found by
    /// the stroke fuzzer).
    ///
    /// Once the outline being built reaches the limit, round joins, caps
    /// and dots are drawn as one chord each (as a bevel or butt would be),
    /// and the pieces (dashes, subpaths) not yet begun are left out: the
    /// stroke is drawn cut off there. The outline then holds at most this
    /// many points plus those of the one piece under way (a bounded
    /// multiple of its flattened points). As every dash drawn takes at
    /// least 4 points, the path is cut into at most `maxOutlinePoints / 4`
    /// dashes (16,384): the later ones could not be drawn.
    public static let maxOutlinePoints = 65_536

    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 10,
                dash: [Double] = [], dashPhase: Double = 0, start: Double = 0, end: Double = 1) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dash = dash; self.dashPhase = dashPhase; self.start = start; self.end = end
    }
}
