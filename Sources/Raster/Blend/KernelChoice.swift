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
