/// One box-filter pass over a line: `out[x] = Σ in[x − before ... x + after] / size`,
/// reading 0 outside the line, rounded as
/// `(sum · reciprocal + 2²¹) >> 22` with `reciprocal = round(2²² / size)`.
///
/// The reciprocal replaces a division per pixel and is shared by the scalar
/// and SIMD passes, so they agree bit for bit. With `size ≤ 4099` (see
/// `BlurPlan.maxRadius`) the product stays below 2³² and the quotient is
/// within 0.13 of a level of the exact `sum / size` before rounding; a
/// constant line of 255 stays 255. Example: `size = 3`, `reciprocal =
/// 1398101`, `sum = 765` → `(765·1398101 + 2097152) >> 22 = 255`.
public struct BoxWindow: Equatable, Sendable {
    /// Pixels before and after the output pixel inside the window.
    public let before: Int
    public let after: Int
    public let reciprocal: UInt32

    @inlinable public var size: Int { before &+ after &+ 1 }

    @inlinable public init(before: Int, after: Int) {
        self.before = before; self.after = after
        let size = UInt32(before &+ after &+ 1)
        reciprocal = ((1 &<< 22) &+ size / 2) / size
    }

    /// The box value for a window sum.
    @inlinable @inline(__always) public func average(_ sum: UInt32) -> UInt32 {
        (sum &* reciprocal &+ (1 &<< 21)) &>> 22
    }
}

/// How a Gaussian blur of a given radius is approximated: three centred box
/// passes per direction whose sizes are chosen so their combined variance
/// matches σ² (Kovesi, "Fast almost-Gaussian filtering", 2010): `m` boxes
/// of odd size `wl` and `3 − m` of size `wl + 2`, with
/// `wl` the largest odd integer ≤ √(4σ² + 1) and
/// `m = round((12σ² − 3wl² − 12wl − 9) / (−4wl − 4))`.
///
/// Why not the SVG `feGaussianBlur` size `d = ⌊σ·3·√(2π)/4 + 0.5⌋` (Skia,
/// Firefox): its three boxes have variance `3·(d² − 1)/12 ≈ 0.8·σ²`, and
/// against a sampled Gaussian on a hard edge it was 10 levels off at
/// σ = 5; the variance-matched boxes stay within 3 (see `BlurTests`).
///
/// Radius → sigma: `radius` is a Core Animation `shadowRadius` (or a CSS
/// blur radius) and means `σ = radius / 2`, the CSS Backgrounds rule ("a
/// Gaussian blur with a standard deviation equal to half the blur radius");
/// `CALayer.shadowRadius` renders close to that.
///
/// Bad radii: NaN, negative and zero mean no blur, as do radii so small
/// that every box has size 1 (below about 1.2); radii above `maxRadius`
/// (including infinity) are clamped to it.
public struct BlurPlan: Equatable, Sendable {
    /// Largest radius honoured, in pixels: boxes of at most 4099 pixels,
    /// which keeps the fixed-point window average within 0.13 of a level
    /// (`BoxWindow`) and its products below 2³².
    public static let maxRadius: Double = 4096

    /// The radius after sanitising, in pixels.
    public let radius: Double
    /// `radius / 2`.
    public let sigma: Double
    /// The three passes applied along each direction, in order (stored
    /// inline so making a plan allocates nothing). Meaningless when
    /// `isIdentity`.
    public let first: BoxWindow, second: BoxWindow, third: BoxWindow
    /// No pixel changes.
    public let isIdentity: Bool

    /// The three passes, or empty for no blur (allocates; for tests and logs).
    public var passes: [BoxWindow] { isIdentity ? [] : [first, second, third] }

    public init(radius: Double) {
        var r = radius
        if !(r > 0) { r = 0 }                        // NaN, negative, zero
        if r > BlurPlan.maxRadius { r = BlurPlan.maxRadius }
        self.radius = r
        sigma = r / 2
        // Float steps kept separate (one rounding each); `Int(_:)` truncates,
        // which is floor for these non-negative values and needs no libm
        // (`rounded(.down)` calls `floor`, absent from the board build).
        // ⌊√(4σ² + 1)⌋ = ⌊√⌊r² + 1⌋⌋ in integers (`squareRoot()` on Double
        // is a libm call in unoptimised builds).
        let variance12 = 12 * sigma * sigma
        var wl = Int(squareRootFloor(UInt32(r * r + 1)))
        if wl & 1 == 0 { wl -= 1 }
        if wl < 1 { wl = 1 }
        let wlD = Double(wl)
        var m = (variance12 - 3 * wlD * wlD - 12 * wlD - 9) / (-4 * wlD - 4)
        if !(m > 0) { m = 0 }
        if m > 3 { m = 3 }
        let small = Int(m + 0.5)
        let narrow = BoxWindow(before: wl / 2, after: wl / 2), wide = BoxWindow(before: wl / 2 + 1, after: wl / 2 + 1)
        first = small > 0 ? narrow : wide
        second = small > 1 ? narrow : wide
        third = small > 2 ? narrow : wide
        isIdentity = third.size == 1
    }
}
