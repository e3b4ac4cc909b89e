/// A compositing operator: how a source colour `S` combines with the
/// destination `D` it is drawn on. All colours are premultiplied; in the
/// formulas `Sca`/`Dca` are a colour channel, `Sa`/`Da` the alpha, all in
/// 0…1. Blend2D's and the W3C's names and formulas.
///
/// The first thirteen are the Porter–Duff operators plus `plus`; the rest are
/// the blend modes of W3C *Compositing and Blending Level 1* (separable,
/// then the four non-separable ones: hue, saturation, colour, luminosity),
/// each composited with source-over:
///
///     Dca' = Sca·(1 − Da) + Dca·(1 − Sa) + Sa·Da·B(Sca/Sa, Dca/Da)
///     Da'  = Sa + Da − Sa·Da
///
/// The exact integer formula of each operator is written beside its type in
/// `CompositeFormulas`.
///
/// Coverage (an A8 mask, a global alpha, or both multiplied) applies as a
/// linear interpolation between the destination and the operator's result:
/// `D' = lerp(D, op(S, D), c)` (Blend2D, Skia). For the Porter–Duff
/// operators that leave the destination unchanged under a transparent
/// source this is the same as scaling the source by `c`, which is how those
/// kernels compute it (see `CoverageModel`); `plus` scales the source too,
/// so it saturates at `min(1, S·c + D)` as in pixman and Skia.
public enum BlendOperator: UInt8, CaseIterable, Sendable {
    // Porter–Duff
    case clear, src, dst, srcOver, dstOver, srcIn, dstIn, srcOut, dstOut, srcAtop, dstAtop, xor
    /// Saturating addition.
    case plus
    // W3C separable blend modes (with source-over)
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference, exclusion
    // W3C non-separable blend modes (with source-over): B mixes the three
    // colour channels (hue, saturation and luminosity of one colour with
    // the rest of the other's).
    case hue, saturation, color, luminosity

    /// Whether a vector (`SIMDKernels`) kernel exists. `colorDodge`,
    /// `colorBurn` and `softLight` need a per-channel division (and a square
    /// root), which has no exact vector form on NEON or SSE, and the
    /// non-separable modes sort and clip the channels of each pixel; they
    /// run the scalar kernels in both families, chosen once per draw.
    @inlinable public var hasVectorKernel: Bool {
        switch self {
        case .colorDodge, .colorBurn, .softLight, .hue, .saturation, .color, .luminosity: return false
        default: return true
        }
    }

    /// How coverage applies (see the type's discussion).
    @inlinable public var coverageModel: CoverageModel {
        switch self {
        case .dst, .srcOver, .dstOver, .dstOut, .srcAtop, .xor, .plus: return .scalesSource
        default: return .lerps
        }
    }

    /// Whether a fully transparent source leaves the destination unchanged,
    /// so such a draw can be skipped: `op(0, D) == D`.
    @inlinable public var transparentSourceIsNoOp: Bool {
        switch self {
        case .clear, .src, .srcIn, .dstIn, .srcOut, .dstAtop: return false
        default: return true
        }
    }

    /// Whether this is one of the W3C blend modes.
    @inlinable public var isBlendMode: Bool { rawValue >= BlendOperator.multiply.rawValue }

    /// Whether this is one of the W3C non-separable blend modes.
    @inlinable public var isNonSeparable: Bool { rawValue >= BlendOperator.hue.rawValue }
}

/// How a kernel applies a coverage value `c` (0–255) to an operator.
public enum CoverageModel: Sendable {
    /// `D' = op(S·c, D)`: `srcOver`, `dstOver`, `dstOut`, `srcAtop`, `xor`,
    /// `plus` (what pixman and Skia do). Equal to the lerp in real numbers for
    /// the linear ones; cheaper, and within 1.5 levels of it in 8 bits.
    case scalesSource
    /// `D' = D·(1 − c) + op(S, D)·c`: the operators that change the
    /// destination where the source is transparent, and the blend modes. The
    /// blend modes would also allow scaling the source, but rounding `S·c`
    /// to 8 bits moves `Sca/Sa` and steep modes (colorBurn) then err by
    /// several levels; interpolating the result keeps them within one.
    case lerps
}
