/// Which family of span kernels a canvas uses. `simd` is the production
/// path; `reference` runs the scalar kernels, for tests and for the
/// cross-architecture check, and must give bit-identical pixels.
public enum KernelFamily: Sendable {
    case simd
    case reference
}

/// A span kernel that writes one colour over `count` pixels.
public typealias SolidSpanKernel = (UnsafeMutablePointer<UInt32>, Int, UInt32) -> Void
/// A span kernel that composites `count` source pixels onto the destination
/// with a global alpha (0–255; kernels chosen for 255 ignore it).
public typealias ImageSpanKernel = (UnsafeMutablePointer<UInt32>, UnsafePointer<UInt32>, Int, UInt32) -> Void

/// Kernel lookup, done once per draw call from the operation and its flags
/// (pixman's `_pixman_implementation_lookup_composite`): the loops over rows
/// call the chosen function and never branch on a per-pixel basis.
public enum KernelTable {
    /// The kernel that fills with `color` (premultiplied), or `nil` when the
    /// draw has no visible effect (a fully transparent colour).
    public static func solid(color: UInt32, family: KernelFamily) -> SolidSpanKernel? {
        let alpha = color &>> 24
        if alpha == 0 { return nil }                                  // early-out: nothing to draw
        switch (family, alpha == 255) {
        case (.simd, true): return { d, n, c in SIMDKernels.fill(d, n, color: c) }
        case (.simd, false): return { d, n, c in SIMDKernels.srcOverSolid(d, n, color: c) }
        case (.reference, true): return { d, n, c in ScalarKernels.fill(d, n, color: c) }
        case (.reference, false): return { d, n, c in ScalarKernels.srcOverSolid(d, n, color: c) }
        }
    }

    /// The kernel that composites an image with global alpha `alpha` using
    /// source-over, or `nil` when `alpha == 0`. `sourceIsOpaque` (every source
    /// pixel has alpha 255) with full alpha turns the blend into a copy.
    public static func image(alpha: UInt32, sourceIsOpaque: Bool, family: KernelFamily) -> ImageSpanKernel? {
        if alpha == 0 { return nil }
        switch (family, alpha == 255, sourceIsOpaque) {
        case (.simd, true, true): return { d, s, n, _ in SIMDKernels.copy(d, s, n) }
        case (.simd, true, false): return { d, s, n, _ in SIMDKernels.srcOver(d, s, n) }
        case (.simd, false, _): return { d, s, n, a in SIMDKernels.srcOverAlpha(d, s, n, alpha: a) }
        case (.reference, true, true): return { d, s, n, _ in ScalarKernels.copy(d, s, n) }
        case (.reference, true, false): return { d, s, n, _ in ScalarKernels.srcOver(d, s, n) }
        case (.reference, false, _): return { d, s, n, a in ScalarKernels.srcOverAlpha(d, s, n, alpha: a) }
        }
    }
}

// MARK: Any operator

/// Fills `count` pixels with `color` (premultiplied) under operator and
/// global alpha `alpha` (0–255).
public typealias SolidCompositeKernel = (_ dst: UnsafeMutablePointer<UInt32>, _ count: Int, _ color: UInt32, _ alpha: UInt32) -> Void
/// Composites `color` through `count` A8 coverage values with global alpha
/// `alpha`: the path rasterizer's per-row call.
public typealias SolidMaskKernel = (_ dst: UnsafeMutablePointer<UInt32>, _ mask: UnsafePointer<UInt8>, _ count: Int, _ color: UInt32, _ alpha: UInt32) -> Void
/// Composites `count` source pixels through `count` A8 coverage values with
/// global alpha `alpha`.
public typealias ImageMaskKernel = (_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, _ mask: UnsafePointer<UInt8>, _ count: Int, _ alpha: UInt32) -> Void

extension KernelTable {
    /// The kernel for a solid-colour draw with `op` and global `alpha`, or
    /// `nil` when the draw changes nothing (`alpha == 0`, `op == .dst`, or a
    /// transparent colour with an operator for which that is a no-op).
    ///
    /// Lookup order (the fallback chain): the dedicated fills and source-over
    /// loops, then the operator's generic vector loop (family `.simd` and
    /// `op.hasVectorKernel`), then the operator's generic scalar loop. The
    /// colour and alpha passed to the kernel must be the ones given here.
    public static func solid(_ op: BlendOperator, color: UInt32, alpha: UInt32, family: KernelFamily) -> SolidCompositeKernel? {
        let alpha = Swift.min(alpha, 255)
        if alpha == 0 || op == .dst || (color &>> 24 == 0 && op.transparentSourceIsNoOp) { return nil }
        let opaque = color &>> 24 == 255
        if family == .simd {
            switch (op, alpha == 255) {
            case (.clear, true): return { d, n, _, _ in SIMDKernels.fill(d, n, color: 0) }
            case (.src, true): return { d, n, c, _ in SIMDKernels.fill(d, n, color: c) }
            case (.srcOver, true): return opaque ? { d, n, c, _ in SIMDKernels.fill(d, n, color: c) }
                                                 : { d, n, c, _ in SIMDKernels.srcOverSolid(d, n, color: c) }
            case (.srcOver, false): return { d, n, c, a in SIMDKernels.srcOverSolid(d, n, color: ScalarKernels.scalePixel(c, a)) }
            default: break
            }
        }
        return KernelMemo.solid[KernelMemo.index(op, family, fullAlpha: alpha == 255, opaque: false)].kernel
    }

    /// The kernel for an image draw with `op` and global `alpha` (see
    /// `solid(_:color:alpha:family:)` for `nil` and the lookup order).
    /// `sourceIsOpaque` declares every source pixel opaque; `sourceHasRuns`
    /// says the source spans are mostly runs of opaque or of transparent
    /// pixels (what a paint shades: an image and its transparent edges),
    /// for which source-over checks each 8 pixels (`srcOverRuns`).
    public static func image(_ op: BlendOperator, alpha: UInt32, sourceIsOpaque: Bool, sourceHasRuns: Bool = false,
                             family: KernelFamily) -> ImageSpanKernel? {
        let alpha = Swift.min(alpha, 255)
        if alpha == 0 || op == .dst { return nil }
        if family == .simd {
            switch (op, alpha == 255) {
            case (.src, true): return { d, s, n, _ in SIMDKernels.copy(d, s, n) }
            case (.srcOver, true) where sourceHasRuns && !sourceIsOpaque:
                return { d, s, n, _ in SIMDKernels.srcOverRuns(d, s, n) }
            case (.srcOver, _): return image(alpha: alpha, sourceIsOpaque: sourceIsOpaque, family: family)
            default: break
            }
        }
        return KernelMemo.image[KernelMemo.index(op, family, fullAlpha: alpha == 255, opaque: sourceIsOpaque)].kernel
    }

    /// The kernel that composites a colour through an A8 coverage row with
    /// `op` and global `alpha` (see `solid(_:color:alpha:family:)`).
    public static func solidMask(_ op: BlendOperator, color: UInt32, alpha: UInt32, family: KernelFamily) -> SolidMaskKernel? {
        let alpha = Swift.min(alpha, 255)
        if alpha == 0 || op == .dst || (color &>> 24 == 0 && op.transparentSourceIsNoOp) { return nil }
        if family == .simd && op == .srcOver {
            return alpha == 255 ? { d, m, n, c, _ in SIMDKernels.srcOverSolidMask(d, mask: m, n, color: c) }
                                : { d, m, n, c, a in SIMDKernels.srcOverSolidMask(d, mask: m, n, color: c, alpha: a) }
        }
        return KernelMemo.solidMask[KernelMemo.index(op, family, fullAlpha: alpha == 255, opaque: color &>> 24 == 255)].kernel
    }

    /// The kernel that composites an image row through an A8 coverage row
    /// with `op` and global `alpha` (see `solid(_:color:alpha:family:)`).
    public static func imageMask(_ op: BlendOperator, alpha: UInt32, sourceIsOpaque: Bool, family: KernelFamily) -> ImageMaskKernel? {
        let alpha = Swift.min(alpha, 255)
        if alpha == 0 || op == .dst { return nil }
        if family == .simd && op == .srcOver {
            // The visitor's closures, written for the concrete operator: the
            // generic ones capture the operator's metadata, a heap
            // allocation per draw wherever they are not specialised.
            typealias Op = CompositeFormulas.SrcOver
            switch (alpha == 255, sourceIsOpaque && Op.opaqueSourceReplaces) {
            case (true, true):
                return { d, s, m, n, _ in SIMDKernels.composite(Op.self, d, n, source: OpaqueSource(ImageSource(s)), coverage: MaskCoverage(m)) }
            case (true, false):
                return { d, s, m, n, _ in SIMDKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: MaskCoverage(m)) }
            case (false, _):
                return { d, s, m, n, a in SIMDKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: MaskAlphaCoverage(m, alpha: a)) }
            }
        }
        return KernelMemo.imageMask[KernelMemo.index(op, family, fullAlpha: alpha == 255, opaque: sourceIsOpaque)].kernel
    }
}

// MARK: The kernels each operator's visitor makes, made once

/// Every generic kernel the pickers make, built once for all operators,
/// families, alpha and opacity cases (about 200 closures a kind). Asking
/// `op.visit(picker)` at each draw builds a closure that captures the
/// formula's metadata — a heap allocation per draw for any operator
/// without a dedicated loop; the tables make the choice a lookup. Built on
/// first use by Swift's thread-safe global initialisation, then read-only.
enum KernelMemo {
    static func index(_ op: BlendOperator, _ family: KernelFamily, fullAlpha: Bool, opaque: Bool) -> Int {
        ((Int(op.rawValue) &* 2 &+ (family == .simd ? 1 : 0)) &* 2 &+ (fullAlpha ? 1 : 0)) &* 2 &+ (opaque ? 1 : 0)
    }

    static func build<Entry>(_ make: (BlendOperator, KernelFamily, Bool, Bool) -> Entry) -> [Entry] {
        var table: [Entry] = []
        table.reserveCapacity(BlendOperator.allCases.count * 8)
        for op in BlendOperator.allCases {
            for family in [KernelFamily.reference, .simd] {
                for fullAlpha in [false, true] {
                    for opaque in [false, true] {
                        assert(table.count == index(op, family, fullAlpha: fullAlpha, opaque: opaque))
                        table.append(make(op, family, fullAlpha, opaque))
                    }
                }
            }
        }
        return table
    }

    // The kernels sit in concrete structs: a function stored directly in a
    // generic container is kept at its most general abstraction, and taking
    // it out would wrap it in a reabstraction thunk — an allocation per
    // lookup, the very thing the tables avoid.
    struct Solid { let kernel: SolidCompositeKernel? }
    struct Image { let kernel: ImageSpanKernel? }
    struct SolidMask { let kernel: SolidMaskKernel? }
    struct ImageMask { let kernel: ImageMaskKernel? }

    nonisolated(unsafe) static let solid: [Solid] = build { op, family, fullAlpha, _ in
        Solid(kernel: op.visit(SolidPicker(family: family, fullAlpha: fullAlpha)))
    }
    nonisolated(unsafe) static let image: [Image] = build { op, family, fullAlpha, opaque in
        Image(kernel: op.visit(ImagePicker(family: family, fullAlpha: fullAlpha, opaque: opaque)))
    }
    nonisolated(unsafe) static let solidMask: [SolidMask] = build { op, family, fullAlpha, opaque in
        SolidMask(kernel: op.visit(SolidMaskPicker(family: family, fullAlpha: fullAlpha, opaque: opaque)))
    }
    nonisolated(unsafe) static let imageMask: [ImageMask] = build { op, family, fullAlpha, opaque in
        ImageMask(kernel: op.visit(ImageMaskPicker(family: family, fullAlpha: fullAlpha, opaque: opaque)))
    }
}

// MARK: Operator → formula type

/// Receives the formula type of a `BlendOperator`: `vector` for operators
/// with a vector form, `scalar` for the rest. The one switch over operators
/// lives in `BlendOperator.visit`, so adding an operator is one line there.
protocol FormulaVisitor {
    associatedtype Result
    func vector<Op: VectorCompositeFormula>(_ op: Op.Type) -> Result
    func scalar<Op: CompositeFormula>(_ op: Op.Type) -> Result
}

extension BlendOperator {
    func visit<V: FormulaVisitor>(_ v: V) -> V.Result {
        typealias F = CompositeFormulas
        switch self {
        case .clear: return v.vector(F.Clear.self)
        case .src: return v.vector(F.Src.self)
        case .dst: return v.vector(F.Dst.self)
        case .srcOver: return v.vector(F.SrcOver.self)
        case .dstOver: return v.vector(F.DstOver.self)
        case .srcIn: return v.vector(F.SrcIn.self)
        case .dstIn: return v.vector(F.DstIn.self)
        case .srcOut: return v.vector(F.SrcOut.self)
        case .dstOut: return v.vector(F.DstOut.self)
        case .srcAtop: return v.vector(F.SrcAtop.self)
        case .dstAtop: return v.vector(F.DstAtop.self)
        case .xor: return v.vector(F.Xor.self)
        case .plus: return v.vector(F.Plus.self)
        case .multiply: return v.vector(F.Multiply.self)
        case .screen: return v.vector(F.Screen.self)
        case .overlay: return v.vector(F.Overlay.self)
        case .darken: return v.vector(F.Darken.self)
        case .lighten: return v.vector(F.Lighten.self)
        case .colorDodge: return v.scalar(F.ColorDodge.self)
        case .colorBurn: return v.scalar(F.ColorBurn.self)
        case .hardLight: return v.vector(F.HardLight.self)
        case .softLight: return v.scalar(F.SoftLight.self)
        case .difference: return v.vector(F.Difference.self)
        case .exclusion: return v.vector(F.Exclusion.self)
        case .hue: return v.scalar(F.Hue.self)
        case .saturation: return v.scalar(F.Saturation.self)
        case .color: return v.scalar(F.Color.self)
        case .luminosity: return v.scalar(F.Luminosity.self)
        }
    }
}

// The pickers choose the source and coverage types, which fixes the loop.
// A global alpha on a solid colour with a source-scaling operator is folded
// into the colour (`scalePixel` once per span, the same bits as scaling per
// pixel); with a mask it multiplies the mask (`MaskAlphaCoverage`), because
// scaling twice would round twice.

struct SolidPicker: FormulaVisitor {
    let family: KernelFamily
    let fullAlpha: Bool

    func vector<Op: VectorCompositeFormula>(_ op: Op.Type) -> SolidCompositeKernel {
        guard family == .simd else { return scalar(op) }
        if fullAlpha { return { d, n, c, _ in SIMDKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: FullCoverage()) } }
        switch Op.coverageModel {
        case .scalesSource:
            return { d, n, c, a in SIMDKernels.composite(Op.self, d, n, source: SolidSource(ScalarKernels.scalePixel(c, a)), coverage: FullCoverage()) }
        case .lerps:
            return { d, n, c, a in SIMDKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: ConstantCoverage(a)) }
        }
    }

    func scalar<Op: CompositeFormula>(_ op: Op.Type) -> SolidCompositeKernel {
        if fullAlpha { return { d, n, c, _ in ScalarKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: FullCoverage()) } }
        switch Op.coverageModel {
        case .scalesSource:
            return { d, n, c, a in ScalarKernels.composite(Op.self, d, n, source: SolidSource(ScalarKernels.scalePixel(c, a)), coverage: FullCoverage()) }
        case .lerps:
            return { d, n, c, a in ScalarKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: ConstantCoverage(a)) }
        }
    }
}

struct ImagePicker: FormulaVisitor {
    let family: KernelFamily
    let fullAlpha: Bool
    let opaque: Bool

    func vector<Op: VectorCompositeFormula>(_ op: Op.Type) -> ImageSpanKernel {
        guard family == .simd else { return scalar(op) }
        switch (fullAlpha, opaque && Op.opaqueSourceReplaces) {
        case (true, true): return { d, s, n, _ in SIMDKernels.composite(Op.self, d, n, source: OpaqueSource(ImageSource(s)), coverage: FullCoverage()) }
        case (true, false): return { d, s, n, _ in SIMDKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: FullCoverage()) }
        case (false, _): return { d, s, n, a in SIMDKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: ConstantCoverage(a)) }
        }
    }

    func scalar<Op: CompositeFormula>(_ op: Op.Type) -> ImageSpanKernel {
        if fullAlpha { return { d, s, n, _ in ScalarKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: FullCoverage()) } }
        return { d, s, n, a in ScalarKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: ConstantCoverage(a)) }
    }
}

struct SolidMaskPicker: FormulaVisitor {
    let family: KernelFamily
    let fullAlpha: Bool
    let opaque: Bool

    func vector<Op: VectorCompositeFormula>(_ op: Op.Type) -> SolidMaskKernel {
        guard family == .simd else { return scalar(op) }
        switch (fullAlpha, opaque && Op.opaqueSourceReplaces) {
        case (true, true):
            return { d, m, n, c, _ in SIMDKernels.composite(Op.self, d, n, source: OpaqueSource(SolidSource(c)), coverage: MaskCoverage(m)) }
        case (true, false):
            return { d, m, n, c, _ in SIMDKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: MaskCoverage(m)) }
        case (false, _):
            return { d, m, n, c, a in SIMDKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: MaskAlphaCoverage(m, alpha: a)) }
        }
    }

    func scalar<Op: CompositeFormula>(_ op: Op.Type) -> SolidMaskKernel {
        if fullAlpha { return { d, m, n, c, _ in ScalarKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: MaskCoverage(m)) } }
        return { d, m, n, c, a in ScalarKernels.composite(Op.self, d, n, source: SolidSource(c), coverage: MaskAlphaCoverage(m, alpha: a)) }
    }
}

struct ImageMaskPicker: FormulaVisitor {
    let family: KernelFamily
    let fullAlpha: Bool
    let opaque: Bool

    // Inlined into `visit`, where `Op` is concrete: otherwise the optimizer
    // left `vector` generic here and each returned closure captured `Op`'s
    // metadata, a heap allocation per draw.
    @inline(__always)
    func vector<Op: VectorCompositeFormula>(_ op: Op.Type) -> ImageMaskKernel {
        guard family == .simd else { return scalar(op) }
        switch (fullAlpha, opaque && Op.opaqueSourceReplaces) {
        case (true, true):
            return { d, s, m, n, _ in SIMDKernels.composite(Op.self, d, n, source: OpaqueSource(ImageSource(s)), coverage: MaskCoverage(m)) }
        case (true, false):
            return { d, s, m, n, _ in SIMDKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: MaskCoverage(m)) }
        case (false, _):
            return { d, s, m, n, a in SIMDKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: MaskAlphaCoverage(m, alpha: a)) }
        }
    }

    @inline(__always)
    func scalar<Op: CompositeFormula>(_ op: Op.Type) -> ImageMaskKernel {
        if fullAlpha { return { d, s, m, n, _ in ScalarKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: MaskCoverage(m)) } }
        return { d, s, m, n, a in ScalarKernels.composite(Op.self, d, n, source: ImageSource(s), coverage: MaskAlphaCoverage(m, alpha: a)) }
    }
}
