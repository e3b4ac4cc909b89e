/// The vector compositing loop, bit-identical to `ScalarKernels.composite`.
///
/// Shape (tiny-skia `lowp`, pixman fast paths): 16-pixel chunks, then one
/// padded partial chunk for the tail; per chunk the coverage is classified
/// once (two 64-bit loads of the mask) so fully transparent chunks are
/// skipped, fully covered chunks skip the coverage arithmetic, and a fully
/// covered opaque source under `src`/`srcOver` is a plain store. These
/// shortcuts are exact: coverage 0 and 255 give the same bits as the general
/// path (see `ScalarKernels.coveredPixel`).
///
/// Code generation (aarch64 Embedded `-Osize`, source-over colour through a
/// mask): the chunk body is NEON `mla.4s`/`ushr`/`bic`/`ushll`, with no
/// stack traffic except one reloaded constant per chunk; the `-Osize`
/// machine outliner still puts a few `bl OUTLINED_FUNCTION_n` (two-
/// instruction stubs) inside the loop. The partial tail goes through the
/// stack (lane inserts). Rejected: `SIMD32<UInt16>` lanes with scalar
/// operands (to multiply pairs with `mul.8h`) lower to per-lane loops there.
///
/// The generic loops use the `Pixels16` pair layout; the hot source-over
/// kernels (`srcOverSolid`, `srcOver`, `srcOverAlpha`, `srcOverSolidMask`)
/// use `PixelPairs8`, about twice as fast (see there). Measured on the
/// x86-64 host, 1920×1080, ms: multiply (generic vector loop) 3.9,
/// softLight (scalar) 25.
extension SIMDKernels {
    /// Composites `count` pixels of `source` onto `dst` with `Op` under
    /// `coverage` (see `ScalarKernels.composite`).
    ///
    /// - Complexity: O(`count`); no allocation.
    @inlinable
    public static func composite<Op: VectorCompositeFormula, S: SpanSource, C: SpanCoverage>(
        _ op: Op.Type, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int, source: S, coverage: C
    ) {
        var i = 0
        while i &+ 16 <= count {
            let p = dst + i
            switch coverage.classify(i) {
            case .none:
                break
            case .full:
                if S.isOpaque && Op.opaqueSourceReplaces {
                    store16(source.chunk(i), p)
                } else {
                    store16(blendChunk(Op.self, source.chunk(i), load16(p)), p)
                }
            case .partial:
                store16(covered(Op.self, source.chunk(i), load16(p), coverage.chunk(i)), p)
            }
            i &+= 16
        }
        if i < count {
            let n = count &- i, p = dst + i
            let s = source.partialChunk(i, n), d = loadPartial16(p, n)
            let r = C.isAlwaysFull ? blendChunk(Op.self, s, d) : covered(Op.self, s, d, coverage.partialChunk(i, n))
            storePartial16(r, p, n)
        }
    }

    /// `Op` under per-lane coverage `c`, as `ScalarKernels.coveredPixel`.
    @inlinable @inline(__always)
    public static func covered<Op: VectorCompositeFormula>(_ op: Op.Type, _ s: Pixels16, _ d: Pixels16, _ c: Pixels16) -> Pixels16 {
        switch Op.coverageModel {
        case .scalesSource: return blendChunk(Op.self, scale(s, c), d)
        case .lerps: return lerp(d, blendChunk(Op.self, s, d), c)
        }
    }

    /// `Op.blend(s, d)`: inline for the operators that say so
    /// (`VectorCompositeFormula.inlinesIntoLoops`), otherwise through the
    /// operator's one out-of-line copy.
    @inlinable @inline(__always)
    public static func blendChunk<Op: VectorCompositeFormula>(_ op: Op.Type, _ s: Pixels16, _ d: Pixels16) -> Pixels16 {
        Op.inlinesIntoLoops ? Op.blend(s, d) : blendOutOfLine(op, s, d)
    }

    /// `Op.blend(s, d)`, never inlined: one copy per operator.
    @inlinable @inline(never)
    public static func blendOutOfLine<Op: VectorCompositeFormula>(_ op: Op.Type, _ s: Pixels16, _ d: Pixels16) -> Pixels16 {
        Op.blend(s, d)
    }

    // MARK: Named mask loops (the rasterizer's per-row entry points)

    /// Source-over of one colour through an A8 coverage row:
    /// `Dca' = Sca·m + Dca·(1 − Sa·m)`. Eight pixels per step in 16-bit
    /// lanes (`PixelPairs8`); steps whose eight coverage bytes are all 0 are
    /// skipped, and all 255 with an opaque colour are a plain store.
    @inlinable
    public static func srcOverSolidMask(_ dst: UnsafeMutablePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int, color: UInt32) {
        srcOverSolidMask8(dst, mask: mask, count, color: color, alpha: 255)
    }

    /// As `srcOverSolidMask` with coverage `div255(m·alpha)`.
    @inlinable
    public static func srcOverSolidMask(_ dst: UnsafeMutablePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int, color: UInt32, alpha: UInt32) {
        srcOverSolidMask8(dst, mask: mask, count, color: color, alpha: alpha)
    }

    @inlinable @inline(__always)
    static func srcOverSolidMask8(_ dst: UnsafeMutablePointer<UInt32>, mask: UnsafePointer<UInt8>, _ count: Int, color: UInt32, alpha: UInt32) {
        let s = unsafeBitCast(SIMD8<UInt32>(repeating: color), to: PixelPairs8.self)
        let g = PixelPairs8(repeating: UInt16(truncatingIfNeeded: alpha))
        let storeWhenFull = alpha == 255 && color &>> 24 == 255
        // Fully covered chunks at full alpha (the interior of a shape) blend
        // the unscaled colour: `scale8` by 255 is the identity, so skipping
        // it gives the same bits.
        let iaFull = PixelPairs8(repeating: UInt16(truncatingIfNeeded: 255 &- (color &>> 24)))
        var i = 0
        while i &+ 8 <= count {
            let m = UnsafeRawPointer(mask + i).loadUnaligned(as: UInt64.self)
            if m != 0 {
                if m == ~0 && storeWhenFull {
                    storePairs8(s, dst + i)
                } else if m == ~0 && alpha == 255 {
                    storePairs8(over8(s, loadPairs8(dst + i), iaFull), dst + i)
                } else {
                    var c = coveragePairs8(m)
                    if alpha != 255 { c = div255(c &* g) }
                    let sc = scale8(s, c)
                    storePairs8(over8(sc, loadPairs8(dst + i), inverseAlphaPairs8(sc)), dst + i)
                }
            }
            i &+= 8
        }
        while i < count {
            let c = alpha == 255 ? UInt32(mask[i]) : div255(UInt32(mask[i]) &* alpha)
            if c != 0 { dst[i] = ScalarKernels.coveredPixel(CompositeFormulas.SrcOver.self, color, dst[i], coverage: c) }
            i &+= 1
        }
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

    // MARK: Lane helpers

    /// Eight coverage bytes (packed in a `UInt64`, byte `k` for pixel `k`)
    /// spread to both 16-bit lanes of each pixel. Lane by lane, as `widen16`.
    @inlinable @inline(__always)
    static func coveragePairs8(_ m: UInt64) -> PixelPairs8 {
        let b = unsafeBitCast(m, to: SIMD8<UInt8>.self)
        let w = SIMD8<UInt32>(UInt32(b[0]), UInt32(b[1]), UInt32(b[2]), UInt32(b[3]),
                              UInt32(b[4]), UInt32(b[5]), UInt32(b[6]), UInt32(b[7]))
        return unsafeBitCast(w | (w &<< 16), to: PixelPairs8.self)
    }

    /// `div255(s·fa + d·fb)` per channel with per-lane factors, as
    /// `ScalarKernels.porterDuffPixel`.
    @inlinable @inline(__always)
    static func porterDuff(_ s: Pixels16, _ d: Pixels16, sourceFactor fa: Pixels16, destinationFactor fb: Pixels16) -> Pixels16 {
        let rb = div255Pairs((s & 0x00FF_00FF) &* fa &+ (d & 0x00FF_00FF) &* fb)
        let ag = div255Pairs(((s &>> 8) & 0x00FF_00FF) &* fa &+ ((d &>> 8) & 0x00FF_00FF) &* fb)
        return rb | (ag &<< 8)
    }

    /// `div255(d·(255 − c) + x·c)` per channel.
    @inlinable @inline(__always)
    static func lerp(_ d: Pixels16, _ x: Pixels16, _ c: Pixels16) -> Pixels16 {
        porterDuff(x, d, sourceFactor: c, destinationFactor: 255 &- c)
    }

    /// Clamps both 16-bit halves of every lane (each at most 510) to 255.
    @inlinable @inline(__always)
    static func saturatingPairs(_ x: Pixels16) -> Pixels16 {
        (x | (((x &>> 8) & 0x0001_0001) &* 0xFF)) & 0x00FF_00FF
    }
}
