/// The reference compositing loop for every operator, source and coverage,
/// one pixel at a time. It is also the production kernel for the operators
/// without a vector form (`BlendOperator.hasVectorKernel`).
extension ScalarKernels {
    /// Composites `count` pixels of `source` onto `dst` with operator `Op`
    /// under `coverage`:
    /// `D' = op(S·c, D)` or `D' = lerp(D, op(S, D), c)` per `Op.coverageModel`.
    /// Pixels with coverage 0 are not touched.
    ///
    /// - Complexity: O(`count`); no allocation.
    @inlinable
    public static func composite<Op: CompositeFormula, S: SpanSource, C: SpanCoverage>(
        _ op: Op.Type, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, source: S, coverage: C
    ) {
        var i = 0
        while i < count {
            if C.isAlwaysFull {
                dst[i] = Op.blend(source.pixel(i), dst[i])
            } else {
                let c = coverage.value(i)
                if c != 0 { dst[i] = coveredPixel(Op.self, source.pixel(i), dst[i], coverage: c) }
            }
            i &+= 1
        }
    }

    /// One pixel of `Op` under coverage `c` (0–255). `c == 255` gives exactly
    /// `Op.blend(s, d)`; `c == 0` gives exactly `d`.
    @inlinable @inline(__always)
    public static func coveredPixel<Op: CompositeFormula>(_ op: Op.Type, _ s: UInt32, _ d: UInt32, coverage c: UInt32) -> UInt32 {
        switch Op.coverageModel {
        case .scalesSource: return Op.blend(scalePixel(s, c), d)
        case .lerps: return lerpPixel(d, Op.blend(s, d), c)
        }
    }

    // MARK: Named mask loops (the rasterizer's per-row entry points)

    /// Source-over of one colour through an A8 coverage row:
    /// `Dca' = Sca·m + Dca·(1 − Sa·m)`.
    @inlinable
    public static func srcOverSolidMask(_ dst: UnsafeMutablePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int, color: UInt32) {
        composite(CompositeFormulas.SrcOver.self, dst, count, source: SolidSource(color), coverage: MaskCoverage(mask))
    }

    /// As `srcOverSolidMask` with coverage `div255(m·alpha)`.
    @inlinable
    public static func srcOverSolidMask(_ dst: UnsafeMutablePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int, color: UInt32, alpha: UInt32) {
        composite(CompositeFormulas.SrcOver.self, dst, count, source: SolidSource(color), coverage: MaskAlphaCoverage(mask, alpha: alpha))
    }

    /// Source-over of an image row through an A8 coverage row.
    @inlinable
    public static func srcOverMask(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int) {
        composite(CompositeFormulas.SrcOver.self, dst, count, source: ImageSource(src), coverage: MaskCoverage(mask))
    }

    /// As `srcOverMask` with coverage `div255(m·alpha)`.
    @inlinable
    public static func srcOverMask(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int, alpha: UInt32) {
        composite(CompositeFormulas.SrcOver.self, dst, count, source: ImageSource(src), coverage: MaskAlphaCoverage(mask, alpha: alpha))
    }

    // MARK: Per-pixel helpers

    /// Porter–Duff with per-pixel factors `fa`, `fb` (0–255):
    /// `div255(s·fa + d·fb)` per channel, alpha included. The sum must stay
    /// within `0...65025` (true for every Porter–Duff operator on valid pixels).
    @inlinable @inline(__always)
    public static func porterDuffPixel(_ s: UInt32, _ d: UInt32, sourceFactor fa: UInt32, destinationFactor fb: UInt32) -> UInt32 {
        let a = div255((s &>> 24) &* fa &+ (d &>> 24) &* fb)
        let r = div255(((s &>> 16) & 0xFF) &* fa &+ ((d &>> 16) & 0xFF) &* fb)
        let g = div255(((s &>> 8) & 0xFF) &* fa &+ ((d &>> 8) & 0xFF) &* fb)
        let b = div255((s & 0xFF) &* fa &+ (d & 0xFF) &* fb)
        return (a &<< 24) | (r &<< 16) | (g &<< 8) | b
    }

    /// `div255(d·(255 − c) + x·c)` per channel: `d` moved towards `x` by `c/255`.
    @inlinable @inline(__always)
    public static func lerpPixel(_ d: UInt32, _ x: UInt32, _ c: UInt32) -> UInt32 {
        porterDuffPixel(x, d, sourceFactor: c, destinationFactor: 255 &- c)
    }

    /// Clamps both 16-bit halves (each at most 510) to 255.
    @inlinable @inline(__always)
    public static func saturatingPairs(_ x: UInt32) -> UInt32 {
        (x | (((x &>> 8) & 0x0001_0001) &* 0xFF)) & 0x00FF_00FF
    }
}
