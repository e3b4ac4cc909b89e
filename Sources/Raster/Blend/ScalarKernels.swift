/// The reference kernels: one pixel at a time, written to be obviously
/// right. Every SIMD kernel in `SIMDKernels` must produce bit-identical
/// output (tests compare them on seeded random spans).
///
/// All colours are premultiplied ARGB8888; `div255` is the only rounding.
public enum ScalarKernels {
    /// `Dca' = Sca` for every pixel: an opaque (or `src`-operator) fill.
    @inlinable
    public static func fill(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, color: UInt32) {
        var i = 0
        while i < count { dst[i] = color; i &+= 1 }
    }

    /// Source-over of one premultiplied colour:
    /// `Dca' = Sca + Dca·(1 − Sa)`, per channel including alpha.
    @inlinable
    public static func srcOverSolid(_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, color: UInt32) {
        let ia = 255 &- (color &>> 24)
        var i = 0
        while i < count {
            dst[i] = overPixel(color, dst[i], inverseAlpha: ia)
            i &+= 1
        }
    }

    /// `Dca' = Sca + Dca·(1 − Sa)` with `Sca` from a source span.
    @inlinable
    public static func srcOver(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i < count {
            let s = src[i]
            dst[i] = overPixel(s, dst[i], inverseAlpha: 255 &- (s &>> 24))
            i &+= 1
        }
    }

    /// Source-over with a global alpha `g` (0–255):
    /// `Sca'' = Sca·g`, then `Dca' = Sca'' + Dca·(1 − Sa'')`.
    @inlinable
    public static func srcOverAlpha(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int, alpha: UInt32) {
        var i = 0
        while i < count {
            let s = scalePixel(src[i], alpha)
            dst[i] = overPixel(s, dst[i], inverseAlpha: 255 &- (s &>> 24))
            i &+= 1
        }
    }

    /// `Dca' = Sca`: a copy.
    @inlinable
    public static func copy(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i < count { dst[i] = src[i]; i &+= 1 }
    }

    /// Premultiplied ARGB to RGB565 (see `RGB565` for the rounding).
    @inlinable
    public static func toRGB565(_ dst: UnsafeMutablePointer<UInt16>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i < count { dst[i] = RGB565.fromPremultipliedARGB(src[i]); i &+= 1 }
    }

    /// Premultiplied ARGB to XRGB8888 (see `XRGB8888`).
    @inlinable
    public static func toXRGB8888(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ count: Int) {
        var i = 0
        while i < count { dst[i] = XRGB8888.fromPremultipliedARGB(src[i]); i &+= 1 }
    }

    // MARK: Per-pixel helpers

    /// Each channel of `p` times `g / 255`, rounded by `div255`.
    @inlinable @inline(__always)
    public static func scalePixel(_ p: UInt32, _ g: UInt32) -> UInt32 {
        let a = div255((p &>> 24) &* g), r = div255(((p &>> 16) & 0xFF) &* g)
        let gg = div255(((p &>> 8) & 0xFF) &* g), b = div255((p & 0xFF) &* g)
        return (a &<< 24) | (r &<< 16) | (gg &<< 8) | b
    }

    /// `s + d·ia/255` per channel; `s` premultiplied, `ia = 255 − Sa`.
    @inlinable @inline(__always)
    public static func overPixel(_ s: UInt32, _ d: UInt32, inverseAlpha ia: UInt32) -> UInt32 {
        let a = (s &>> 24) &+ div255((d &>> 24) &* ia)
        let r = ((s &>> 16) & 0xFF) &+ div255(((d &>> 16) & 0xFF) &* ia)
        let g = ((s &>> 8) & 0xFF) &+ div255(((d &>> 8) & 0xFF) &* ia)
        let b = (s & 0xFF) &+ div255((d & 0xFF) &* ia)
        return (a &<< 24) | (r &<< 16) | (g &<< 8) | b
    }
}
