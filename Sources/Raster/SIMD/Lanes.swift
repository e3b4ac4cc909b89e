/// Loads and stores of 16-pixel chunks. Unaligned by design: rows of mapped
/// buffers and sub-rectangles start anywhere.
public typealias Pixels16 = SIMD16<UInt32>

@inlinable @inline(__always)
func load16(_ p: UnsafePointer<UInt32>) -> Pixels16 {
    UnsafeRawPointer(p).loadUnaligned(as: Pixels16.self)
}

@inlinable @inline(__always)
func store16(_ v: Pixels16, _ p: UnsafeMutablePointer<UInt32>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: Pixels16.self)
}

/// Loads the first `count` (< 16) pixels of a chunk, zero-filling the rest,
/// so the tail of a span runs through the same arithmetic as full chunks.
@inlinable @inline(__always)
func loadPartial16(_ p: UnsafePointer<UInt32>, _ count: Int) -> Pixels16 {
    var v = Pixels16()
    var i = 0
    while i < count { v[i] = p[i]; i &+= 1 }
    return v
}

@inlinable @inline(__always)
func storePartial16(_ v: Pixels16, _ p: UnsafeMutablePointer<UInt32>, _ count: Int) {
    var i = 0
    while i < count { p[i] = v[i]; i &+= 1 }
}

// MARK: Coverage masks (A8)

/// Widens 16 coverage bytes to one 0–255 value per 32-bit lane, the layout
/// the pixel chunks use, so a coverage value multiplies a channel pair.
@inlinable @inline(__always)
func loadMask16(_ p: UnsafePointer<UInt8>) -> Pixels16 {
    widen16(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
}

/// Zero-extends 16 bytes to 32-bit lanes.
///
/// Spelled lane by lane on purpose: LLVM folds this into two `ushll`/`ushll2`
/// steps on arm64 and inlines it, whereas
/// `SIMD16<UInt32>(truncatingIfNeeded:)` is a generic stdlib loop that the
/// `-Osize` board build kept out of line, a call per chunk that forced
/// every live vector register to be spilled around it (seen in the
/// disassembly of the source-over mask loop).
@inlinable @inline(__always)
func widen16(_ b: SIMD16<UInt8>) -> Pixels16 {
    Pixels16(UInt32(b[0]), UInt32(b[1]), UInt32(b[2]), UInt32(b[3]), UInt32(b[4]), UInt32(b[5]), UInt32(b[6]), UInt32(b[7]),
             UInt32(b[8]), UInt32(b[9]), UInt32(b[10]), UInt32(b[11]), UInt32(b[12]), UInt32(b[13]), UInt32(b[14]), UInt32(b[15]))
}

/// The low byte of each 32-bit lane (see `widen16` for why lane by lane;
/// this folds into `xtn`/`uzp1` on arm64).
@inlinable @inline(__always)
func narrow16(_ v: Pixels16) -> SIMD16<UInt8> {
    SIMD16<UInt8>(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]), UInt8(truncatingIfNeeded: v[3]),
                  UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]), UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]),
                  UInt8(truncatingIfNeeded: v[8]), UInt8(truncatingIfNeeded: v[9]), UInt8(truncatingIfNeeded: v[10]), UInt8(truncatingIfNeeded: v[11]),
                  UInt8(truncatingIfNeeded: v[12]), UInt8(truncatingIfNeeded: v[13]), UInt8(truncatingIfNeeded: v[14]), UInt8(truncatingIfNeeded: v[15]))
}

/// The first `count` (< 16) coverage bytes widened, the rest zero.
@inlinable @inline(__always)
func loadPartialMask16(_ p: UnsafePointer<UInt8>, _ count: Int) -> Pixels16 {
    var v = Pixels16()
    var i = 0
    while i < count { v[i] = UInt32(p[i]); i &+= 1 }
    return v
}

/// How 16 coverage bytes can be handled: skipped, composited without
/// coverage, or composited with per-pixel coverage.
public enum ChunkCoverage: Sendable {
    /// Every byte is 0: the destination stays as it is.
    case none
    /// Every byte is 255: coverage is the identity.
    case full
    case partial
}

/// Classifies 16 mask bytes with two 64-bit compares; cheaper on both
/// architectures than a 16-lane vector reduction (Swift's `any()`/`all()`
/// on 16 lanes expand badly on arm64, see STYLE.md).
///
/// The bytes are loaded as one vector and split into two 64-bit lanes (not
/// loaded as two `UInt64`s): `loadMask16` then reuses the same vector load.
/// With scalar loads LLVM rebuilt the widened mask from the two
/// general-purpose registers, some forty lane moves per chunk on arm64.
@inlinable @inline(__always)
func classifyMask16(_ p: UnsafePointer<UInt8>) -> ChunkCoverage {
    let v = unsafeBitCast(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self), to: SIMD2<UInt64>.self)
    let a = v[0], b = v[1]
    if a | b == 0 { return .none }
    if a & b == ~0 { return .full }
    return .partial
}

/// Classifies eight premultiplied pixels: every alpha 255 (`.full`), every
/// pixel 0 (`.none`), or anything else; one 64-bit AND and one OR over
/// the four pixel pairs (no lane reduction, see `classifyMask16`).
@inlinable @inline(__always)
func classifyAlpha8(_ p: PixelPairs8) -> ChunkCoverage {
    let q = unsafeBitCast(p, to: SIMD4<UInt64>.self)
    let both = q.lowHalf & q.highHalf, either = q.lowHalf | q.highHalf
    let alphas: UInt64 = 0xFF00_0000_FF00_0000
    if (both[0] & both[1]) & alphas == alphas { return .full }
    return either[0] | either[1] == 0 ? .none : .partial
}

// MARK: Eight pixels as 16-bit channel pairs

/// Eight pixels viewed as sixteen 16-bit lanes, each holding two channels
/// (`g·256 + b` and `a·256 + r` on little-endian machines; the kernels
/// treat both lanes of a pixel alike, so the order does not matter).
/// `lane & 0xFF` and `lane >> 8` split a pixel into its two channel pairs,
/// a product with an 8-bit factor fits a lane, and `div255` on
/// `SIMD16<UInt16>` rounds exactly as the scalar `div255`.
///
/// Why a second layout: a multiply here is one `mul.8h`/`mla.8h` on NEON
/// (`pmullw` on SSE2) for eight channels, against `mul.4s` for four in the
/// `Pixels16` pair layout, and x86-64's baseline SSE2 has no 32-bit lane
/// multiply at all (Swift emulates it with `pmuludq` and shuffles).
/// Measured on the x86-64 host, 1920×1080, ms (pixman 0.42 SSE2 in
/// brackets): 50 % colour over 1.23 → 0.70 [0.69], image over 1.60 → 0.95
/// [1.24], image over at 50 % alpha 2.77 → 1.60 [1.73].
/// Swift's 64-byte vector types (`SIMD32<UInt16>`, or `unsafeBitCast` of a
/// `SIMD16<UInt32>`) lower to per-lane loops in the `-Osize` Embedded build;
/// these 32-byte ones lower to straight NEON.
public typealias PixelPairs8 = SIMD16<UInt16>

@inlinable @inline(__always)
func loadPairs8(_ p: UnsafePointer<UInt32>) -> PixelPairs8 {
    UnsafeRawPointer(p).loadUnaligned(as: PixelPairs8.self)
}

@inlinable @inline(__always)
func storePairs8(_ v: PixelPairs8, _ p: UnsafeMutablePointer<UInt32>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: PixelPairs8.self)
}

/// `255 − alpha` of each of eight pixels, in both 16-bit lanes of the pixel.
@inlinable @inline(__always)
func inverseAlphaPairs8(_ p: PixelPairs8) -> PixelPairs8 {
    let ia = 255 &- (unsafeBitCast(p, to: SIMD8<UInt32>.self) &>> 24)
    return unsafeBitCast(ia | (ia &<< 16), to: PixelPairs8.self)
}
