/// The per-pixel formula of a compositing operator, as a type with static
/// requirements so the span loops are specialised per operator at compile
/// time and never switch on the operator per pixel.
///
/// `blend` maps a premultiplied source pixel and destination pixel to the
/// result (no coverage). Inputs must be valid premultiplied pixels (each
/// colour channel at most its alpha); every formula then keeps its
/// intermediate sums in `0...65025`, rounds once with `div255`, and returns a
/// valid premultiplied pixel. Invalid inputs give unspecified pixels (never a
/// memory error).
public protocol CompositeFormula {
    static var coverageModel: CoverageModel { get }
    /// `op(S, D) == S` whenever `Sa == 1`, so a fully covered opaque source
    /// may simply be stored.
    static var opaqueSourceReplaces: Bool { get }
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32
}

/// A formula that also has a 16-pixel form, bit-identical to the scalar one.
public protocol VectorCompositeFormula: CompositeFormula {
    static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16
    /// Whether the span loops inline `blend` (the operators every frame
    /// uses: clear, src, source-over). The others call one out-of-line copy
    /// of it per operator (`SIMDKernels.blendChunk`): a call per 16 pixels
    /// instead of a copy of the formula in each of the operator's dozen
    /// loops (sources × coverages × the full, partial and tail paths),
    /// which is what kept the board binary over its size budget.
    static var inlinesIntoLoops: Bool { get }
}

extension VectorCompositeFormula {
    @inlinable public static var inlinesIntoLoops: Bool { false }
}

/// One caseless enum per operator (see `BlendOperator`). Notation in the
/// comments: `s`, `d` a colour channel and `sa`, `da` the alphas as 8-bit
/// integers; `fa`/`fb` the Porter–Duff factors applied as
/// `div255(s·fa + d·fb)` per channel, alpha included.
public enum CompositeFormulas {
    // MARK: Porter–Duff

    /// `Dca' = 0`, `Da' = 0`.
    public enum Clear: VectorCompositeFormula {
        @inlinable public static var inlinesIntoLoops: Bool { true }
        @inlinable public static var coverageModel: CoverageModel { .lerps }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 { 0 }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 { Pixels16() }
    }

    /// `Dca' = Sca`, `Da' = Sa`.
    public enum Src: VectorCompositeFormula {
        @inlinable public static var inlinesIntoLoops: Bool { true }
        @inlinable public static var coverageModel: CoverageModel { .lerps }
        @inlinable public static var opaqueSourceReplaces: Bool { true }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 { s }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 { s }
    }

    /// `Dca' = Dca`, `Da' = Da` (never drawn: `KernelTable` returns `nil`).
    public enum Dst: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .scalesSource }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 { d }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 { d }
    }

    /// `Dca' = Sca + Dca·(1 − Sa)`, `Da' = Sa + Da·(1 − Sa)`;
    /// computed `s + div255(d·(255 − sa))`, which equals `div255(s·255 + d·(255 − sa))`.
    public enum SrcOver: VectorCompositeFormula {
        @inlinable public static var inlinesIntoLoops: Bool { true }
        @inlinable public static var coverageModel: CoverageModel { .scalesSource }
        @inlinable public static var opaqueSourceReplaces: Bool { true }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.overPixel(s, d, inverseAlpha: 255 &- (s &>> 24))
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.over(s, d, 255 &- (s &>> 24))
        }
    }

    /// `Dca' = Dca + Sca·(1 − Da)`, `Da' = Da + Sa·(1 − Da)`.
    public enum DstOver: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .scalesSource }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.overPixel(d, s, inverseAlpha: 255 &- (d &>> 24))
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.over(d, s, 255 &- (d &>> 24))
        }
    }

    /// `Dca' = Sca·Da`, `Da' = Sa·Da`.
    public enum SrcIn: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .lerps }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.scalePixel(s, d &>> 24)
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.scale(s, d &>> 24)
        }
    }

    /// `Dca' = Dca·Sa`, `Da' = Da·Sa`.
    public enum DstIn: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .lerps }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.scalePixel(d, s &>> 24)
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.scale(d, s &>> 24)
        }
    }

    /// `Dca' = Sca·(1 − Da)`, `Da' = Sa·(1 − Da)`.
    public enum SrcOut: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .lerps }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.scalePixel(s, 255 &- (d &>> 24))
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.scale(s, 255 &- (d &>> 24))
        }
    }

    /// `Dca' = Dca·(1 − Sa)`, `Da' = Da·(1 − Sa)`.
    public enum DstOut: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .scalesSource }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.scalePixel(d, 255 &- (s &>> 24))
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.scale(d, 255 &- (s &>> 24))
        }
    }

    /// `Dca' = Sca·Da + Dca·(1 − Sa)`, `Da' = Da`;
    /// `div255(s·da + d·(255 − sa))`.
    public enum SrcAtop: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .scalesSource }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.porterDuffPixel(s, d, sourceFactor: d &>> 24, destinationFactor: 255 &- (s &>> 24))
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.porterDuff(s, d, sourceFactor: d &>> 24, destinationFactor: 255 &- (s &>> 24))
        }
    }

    /// `Dca' = Dca·Sa + Sca·(1 − Da)`, `Da' = Sa`;
    /// `div255(s·(255 − da) + d·sa)`.
    public enum DstAtop: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .lerps }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.porterDuffPixel(s, d, sourceFactor: 255 &- (d &>> 24), destinationFactor: s &>> 24)
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.porterDuff(s, d, sourceFactor: 255 &- (d &>> 24), destinationFactor: s &>> 24)
        }
    }

    /// `Dca' = Sca·(1 − Da) + Dca·(1 − Sa)`, `Da' = Sa + Da − 2·Sa·Da`;
    /// `div255(s·(255 − da) + d·(255 − sa))` (at most 65025 for valid pixels).
    public enum Xor: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .scalesSource }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            ScalarKernels.porterDuffPixel(s, d, sourceFactor: 255 &- (d &>> 24), destinationFactor: 255 &- (s &>> 24))
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.porterDuff(s, d, sourceFactor: 255 &- (d &>> 24), destinationFactor: 255 &- (s &>> 24))
        }
    }

    /// `Dca' = min(1, Sca + Dca)`, `Da' = min(1, Sa + Da)`: exact, no rounding.
    /// Saturating per channel keeps colour ≤ alpha.
    public enum Plus: VectorCompositeFormula {
        @inlinable public static var coverageModel: CoverageModel { .scalesSource }
        @inlinable public static var opaqueSourceReplaces: Bool { false }
        @inlinable @inline(__always) public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
            // Saturate both 16-bit halves of each pair at once: a sum above
            // 255 sets bit 8 of its half, which widens to 0xFF.
            ScalarKernels.saturatingPairs((s & 0x00FF_00FF) &+ (d & 0x00FF_00FF))
                | (ScalarKernels.saturatingPairs(((s &>> 8) & 0x00FF_00FF) &+ ((d &>> 8) & 0x00FF_00FF)) &<< 8)
        }
        @inlinable @inline(__always) public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
            SIMDKernels.saturatingPairs((s & 0x00FF_00FF) &+ (d & 0x00FF_00FF))
                | (SIMDKernels.saturatingPairs(((s &>> 8) & 0x00FF_00FF) &+ ((d &>> 8) & 0x00FF_00FF)) &<< 8)
        }
    }
}

// MARK: Separable blend modes

/// A W3C separable blend mode composited with source-over. With 8-bit
/// channels the result per colour channel is
///
///     out = div255(s·(255 − da) + d·(255 − sa) + X),   X = sa·da·B(s/sa, d/da)
///
/// and alpha is `sa + da − div255(sa·da)`, which is the same formula with
/// `B = 1`. `term` returns `X`, an integer in `0...sa·da`, so the sum stays
/// within `0...65025`. For the modes with a polynomial `B` (`multiply`,
/// `screen`, `overlay`, `darken`, `lighten`, `hardLight`, `difference`,
/// `exclusion`) `X` is exact and the only rounding is the final `div255`.
public protocol SeparableBlendMode: CompositeFormula {
    /// `X = sa·da·B(sc/sa, dc/da)`; see the protocol discussion.
    static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32
}

extension SeparableBlendMode {
    @inlinable public static var coverageModel: CoverageModel { .lerps }
    @inlinable public static var opaqueSourceReplaces: Bool { false }

    @inlinable @inline(__always)
    public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s &>> 24, da = d &>> 24
        let isa = 255 &- sa, ida = 255 &- da
        let a = sa &+ da &- div255(sa &* da)
        let sr = (s &>> 16) & 0xFF, dr = (d &>> 16) & 0xFF
        let sg = (s &>> 8) & 0xFF, dg = (d &>> 8) & 0xFF
        let sb = s & 0xFF, db = d & 0xFF
        let r = div255(sr &* ida &+ dr &* isa &+ term(sr, dr, sa, da))
        let g = div255(sg &* ida &+ dg &* isa &+ term(sg, dg, sa, da))
        let b = div255(sb &* ida &+ db &* isa &+ term(sb, db, sa, da))
        return (a &<< 24) | (r &<< 16) | (g &<< 8) | b
    }
}

/// A separable blend mode whose `X` has an exact 16-lane form. The lanes are
/// planar (one channel of 16 pixels per `Pixels16`, values in 32-bit lanes)
/// because the products `s·d` multiply two varying channels, which the
/// two-channels-per-lane layout cannot do.
public protocol VectorSeparableBlendMode: SeparableBlendMode, VectorCompositeFormula {
    static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16
}

extension VectorSeparableBlendMode {
    @inlinable @inline(__always)
    public static func blend(_ s: Pixels16, _ d: Pixels16) -> Pixels16 {
        let sa = s &>> 24, da = d &>> 24
        let isa = 255 &- sa, ida = 255 &- da
        // div255Pairs on a lane whose upper half is zero is div255 of the lane.
        let a = sa &+ da &- div255Pairs(sa &* da)
        let sr = (s &>> 16) & 0xFF, dr = (d &>> 16) & 0xFF
        let sg = (s &>> 8) & 0xFF, dg = (d &>> 8) & 0xFF
        let sb = s & 0xFF, db = d & 0xFF
        let r = div255Pairs(sr &* ida &+ dr &* isa &+ term(sr, dr, sa, da))
        let g = div255Pairs(sg &* ida &+ dg &* isa &+ term(sg, dg, sa, da))
        let b = div255Pairs(sb &* ida &+ db &* isa &+ term(sb, db, sa, da))
        return (a &<< 24) | (r &<< 16) | (g &<< 8) | b
    }
}

/// All ones in lanes where `a > b`, zero elsewhere; lanes below 2³¹. Spelled
/// with a subtraction and a shift rather than `.>` and `replacing(with:where:)`
/// so it lowers to three plain vector instructions on both architectures.
@inlinable @inline(__always)
func lanesGreater(_ a: Pixels16, _ b: Pixels16) -> Pixels16 {
    0 &- ((b &- a) &>> 31)
}

/// `x` where `mask` is all ones, `y` where it is zero.
@inlinable @inline(__always)
func select(_ mask: Pixels16, _ x: Pixels16, _ y: Pixels16) -> Pixels16 {
    (x & mask) | (y & ~mask)
}

extension CompositeFormulas {
    /// `B = Cs·Cb`; `X = s·d`.
    public enum Multiply: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 { sc &* dc }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 { sc &* dc }
    }

    /// `B = Cs + Cb − Cs·Cb`; `X = s·da + d·sa − s·d`.
    public enum Screen: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            sc &* da &+ dc &* sa &- sc &* dc
        }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 {
            sc &* da &+ dc &* sa &- sc &* dc
        }
    }

    /// `B = HardLight(Cb, Cs)`; `X = 2·s·d` if `2·d ≤ da`,
    /// else `sa·da − 2·(da − d)·(sa − s)`.
    public enum Overlay: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            2 &* dc <= da ? 2 &* sc &* dc : sa &* da &- 2 &* (da &- dc) &* (sa &- sc)
        }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 {
            select(lanesGreater(2 &* dc, da), sa &* da &- 2 &* (da &- dc) &* (sa &- sc), 2 &* sc &* dc)
        }
    }

    /// `B = min(Cs, Cb)`; `X = min(s·da, d·sa)`.
    public enum Darken: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            Swift.min(sc &* da, dc &* sa)
        }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 {
            pointwiseMin(sc &* da, dc &* sa)
        }
    }

    /// `B = max(Cs, Cb)`; `X = max(s·da, d·sa)`.
    public enum Lighten: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            Swift.max(sc &* da, dc &* sa)
        }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 {
            pointwiseMax(sc &* da, dc &* sa)
        }
    }

    /// `B = 2·Cs·Cb` if `Cs ≤ ½`, else `Screen(Cb, 2·Cs − 1)`; `X = 2·s·d` if
    /// `2·s ≤ sa`, else `sa·da − 2·(da − d)·(sa − s)`.
    public enum HardLight: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            2 &* sc <= sa ? 2 &* sc &* dc : sa &* da &- 2 &* (da &- dc) &* (sa &- sc)
        }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 {
            select(lanesGreater(2 &* sc, sa), sa &* da &- 2 &* (da &- dc) &* (sa &- sc), 2 &* sc &* dc)
        }
    }

    /// `B = |Cs − Cb|`; `X = |s·da − d·sa|`.
    public enum Difference: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            let x = sc &* da, y = dc &* sa
            return x > y ? x &- y : y &- x
        }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 {
            let x = sc &* da, y = dc &* sa
            return pointwiseMax(x, y) &- pointwiseMin(x, y)
        }
    }

    /// `B = Cs + Cb − 2·Cs·Cb`; `X = s·da + d·sa − 2·s·d`.
    public enum Exclusion: VectorSeparableBlendMode {
        @inlinable @inline(__always) public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            sc &* da &+ dc &* sa &- 2 &* sc &* dc
        }
        @inlinable @inline(__always) public static func term(_ sc: Pixels16, _ dc: Pixels16, _ sa: Pixels16, _ da: Pixels16) -> Pixels16 {
            sc &* da &+ dc &* sa &- 2 &* sc &* dc
        }
    }

    // The three modes below divide per channel (and softLight takes a square
    // root); they are scalar only. X is computed with 64-bit integers and
    // rounded once, so it is within ½ of the exact `sa·da·B` (in units of
    // 1/255², i.e. 1/510 of an output level) except softLight's square
    // root, which is taken to 8 fractional bits (within 1/256 of a level).

    /// `B = 0` if `Cb = 0`; `1` if `Cs = 1`; else `min(1, Cb/(1 − Cs))`.
    /// `X = 0`; `sa·da`; else `min(sa·da, d·sa²/(sa − s))` rounded.
    public enum ColorDodge: SeparableBlendMode {
        @inlinable public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            if dc == 0 { return 0 }
            let full = sa &* da
            if sc >= sa { return full }
            let q = divideRounded(UInt64(dc) &* UInt64(sa) &* UInt64(sa), UInt64(sa &- sc))
            return q >= UInt64(full) ? full : UInt32(truncatingIfNeeded: q)
        }
    }

    /// `B = 1` if `Cb = 1`; `0` if `Cs = 0`; else `1 − min(1, (1 − Cb)/Cs)`.
    /// `X = sa·da`; `0`; else `sa·da − min(sa·da, sa²·(da − d)/s)` rounded.
    public enum ColorBurn: SeparableBlendMode {
        @inlinable public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            let full = sa &* da
            if dc >= da { return full }
            if sc == 0 { return 0 }
            let q = divideRounded(UInt64(sa) &* UInt64(sa) &* UInt64(da &- dc), UInt64(sc))
            return q >= UInt64(full) ? 0 : full &- UInt32(truncatingIfNeeded: q)
        }
    }

    /// W3C soft light:
    /// `B = Cb − (1 − 2·Cs)·Cb·(1 − Cb)` if `Cs ≤ ½`, else
    /// `B = Cb + (2·Cs − 1)·(D(Cb) − Cb)` with
    /// `D(x) = ((16·x − 12)·x + 4)·x` for `x ≤ ¼`, `√x` otherwise.
    /// In premultiplied integers:
    /// `X = sa·d − (sa − 2s)·d·(da − d)/da` if `2s ≤ sa`;
    /// `X = sa·d + (2s − sa)·d·(16d² − 12d·da + 3da²)/da²` if `4d ≤ da`;
    /// `X = sa·d + (2s − sa)·(√(d·da) − d)` otherwise.
    public enum SoftLight: SeparableBlendMode {
        @inlinable public static func term(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
            if da == 0 { return 0 }
            let s = UInt64(sc), d = UInt64(dc), a = UInt64(sa), b = UInt64(da)
            let base = a &* d
            let x: UInt64
            if 2 &* s <= a {
                let cut = divideRounded((a &- 2 &* s) &* d &* (b &- d), b)
                x = base > cut ? base &- cut : 0
            } else if 4 &* d <= b {
                x = base &+ divideRounded((2 &* s &- a) &* d &* (16 &* d &* d &+ 3 &* b &* b &- 12 &* d &* b), b &* b)
            } else {
                // √(d·da) with 8 fractional bits; d·da·2¹⁶ < 2³².
                let root = UInt64(squareRootFloor(UInt32(truncatingIfNeeded: (d &* b) &<< 16)))
                let gap = root > d &<< 8 ? root &- (d &<< 8) : 0
                x = base &+ (((2 &* s &- a) &* gap &+ 128) &>> 8)
            }
            let full = a &* b
            return UInt32(truncatingIfNeeded: x > full ? full : x)
        }
    }
}

/// `n / d` rounded to nearest (halves up); `d > 0`.
@inlinable @inline(__always)
func divideRounded(_ n: UInt64, _ d: UInt64) -> UInt64 {
    (n &+ (d &>> 1)) / d
}

/// `⌊√v⌋`, digit by digit (no floating point, so every architecture agrees).
///
/// Examples: `squareRootFloor(0) == 0`, `squareRootFloor(15) == 3`,
/// `squareRootFloor(16) == 4`, `squareRootFloor(UInt32.max) == 65535`.
@inlinable
public func squareRootFloor(_ v: UInt32) -> UInt32 {
    var rest = v, root: UInt32 = 0, bit: UInt32 = 1 &<< 30
    while bit > rest { bit &>>= 2 }
    while bit != 0 {
        if rest >= root &+ bit {
            rest &-= root &+ bit
            root = (root &>> 1) &+ bit
        } else {
            root &>>= 1
        }
        bit &>>= 2
    }
    return root
}

/// A W3C non-separable blend mode composited with source-over: as
/// `SeparableBlendMode`, `out = div255(s·(255 − da) + d·(255 − sa) + X)` per
/// colour channel with alpha `sa + da − div255(sa·da)`, but `B` maps the
/// whole colour, `X = sa·da·B(Cs, Cb)` with `Cs = s/sa`, `Cb = d/da` the
/// unpremultiplied colours. `B` is evaluated in `Double` (the W3C
/// functions `Lum`, `Sat`, `SetLum`, `SetSat`, `ClipColor`) and `X` rounded
/// once to an integer in `0...sa·da`: within ½ of 1/255² of exact, so the
/// result is the correctly rounded one but where `B` itself rounds
/// differently (`BlendFormulaTests`: ≤ 0.51 levels).
public protocol NonSeparableBlendMode: CompositeFormula {
    /// `B(Cs, Cb)`, channels in 0…1 (red, green, blue).
    static func mix(_ cs: SIMD3<Double>, _ cb: SIMD3<Double>) -> SIMD3<Double>
}

extension NonSeparableBlendMode {
    @inlinable public static var coverageModel: CoverageModel { .lerps }
    @inlinable public static var opaqueSourceReplaces: Bool { false }

    @inlinable
    public static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s &>> 24, da = d &>> 24
        let isa = 255 &- sa, ida = 255 &- da
        let a = sa &+ da &- div255(sa &* da)
        let sc = SIMD3<UInt32>((s &>> 16) & 0xFF, (s &>> 8) & 0xFF, s & 0xFF)
        let dc = SIMD3<UInt32>((d &>> 16) & 0xFF, (d &>> 8) & 0xFF, d & 0xFF)
        var x = SIMD3<UInt32>(repeating: 0)
        let full = sa &* da
        if full > 0 {
            let cs = SIMD3<Double>(Double(sc.x), Double(sc.y), Double(sc.z)) / Double(sa)
            let cb = SIMD3<Double>(Double(dc.x), Double(dc.y), Double(dc.z)) / Double(da)
            let b = mix(cs, cb) * Double(full)
            @inline(__always) func rounded(_ v: Double) -> UInt32 {
                let r = (v + 0.5).rounded(.down)
                return r <= 0 || !(r == r) ? 0 : (r >= Double(full) ? full : UInt32(r))
            }
            x = SIMD3(rounded(b.x), rounded(b.y), rounded(b.z))
        }
        let out = (sc &* ida &+ dc &* isa &+ x)
        return (a &<< 24) | (div255(out.x) &<< 16) | (div255(out.y) &<< 8) | div255(out.z)
    }
}

/// The W3C helper functions of the non-separable modes (Compositing and
/// Blending Level 1, §5.8), on colours with channels in 0…1.
public enum NonSeparable {
    /// `Lum(C) = 0.3·R + 0.59·G + 0.11·B`.
    @inlinable public static func lum(_ c: SIMD3<Double>) -> Double { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    /// `Sat(C) = max(C) − min(C)`.
    @inlinable public static func sat(_ c: SIMD3<Double>) -> Double { c.max() - c.min() }

    /// `ClipColor`: brings a colour whose channels left 0…1 back, keeping
    /// its luminosity.
    @inlinable public static func clipColor(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let l = lum(c), n = c.min(), x = c.max()
        var out = c
        if n < 0 && l - n > 0 { out = SIMD3(repeating: l) + (out - SIMD3(repeating: l)) * (l / (l - n)) }
        if x > 1 && x - l > 0 { out = SIMD3(repeating: l) + (out - SIMD3(repeating: l)) * ((1 - l) / (x - l)) }
        return out.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
    }

    /// `SetLum(C, l)`: `C` moved to luminosity `l`, clipped.
    @inlinable public static func setLum(_ c: SIMD3<Double>, _ l: Double) -> SIMD3<Double> {
        clipColor(c + SIMD3(repeating: l - lum(c)))
    }

    /// `SetSat(C, s)`: the largest channel becomes `s`, the smallest 0, the
    /// middle one in proportion (all 0 for a grey).
    @inlinable public static func setSat(_ c: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
        let hi = c.max(), lo = c.min()
        guard hi > lo else { return SIMD3(repeating: 0) }
        let k = s / (hi - lo)
        return (c - SIMD3(repeating: lo)) * k
    }
}

extension CompositeFormulas {
    /// `B = SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb))`: the source's hue.
    public enum Hue: NonSeparableBlendMode {
        @inlinable public static func mix(_ cs: SIMD3<Double>, _ cb: SIMD3<Double>) -> SIMD3<Double> {
            NonSeparable.setLum(NonSeparable.setSat(cs, NonSeparable.sat(cb)), NonSeparable.lum(cb))
        }
    }

    /// `B = SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb))`: the source's saturation.
    public enum Saturation: NonSeparableBlendMode {
        @inlinable public static func mix(_ cs: SIMD3<Double>, _ cb: SIMD3<Double>) -> SIMD3<Double> {
            NonSeparable.setLum(NonSeparable.setSat(cb, NonSeparable.sat(cs)), NonSeparable.lum(cb))
        }
    }

    /// `B = SetLum(Cs, Lum(Cb))`: the source's hue and saturation.
    public enum Color: NonSeparableBlendMode {
        @inlinable public static func mix(_ cs: SIMD3<Double>, _ cb: SIMD3<Double>) -> SIMD3<Double> {
            NonSeparable.setLum(cs, NonSeparable.lum(cb))
        }
    }

    /// `B = SetLum(Cb, Lum(Cs))`: the source's luminosity.
    public enum Luminosity: NonSeparableBlendMode {
        @inlinable public static func mix(_ cs: SIMD3<Double>, _ cb: SIMD3<Double>) -> SIMD3<Double> {
            NonSeparable.setLum(cb, NonSeparable.lum(cs))
        }
    }
}
