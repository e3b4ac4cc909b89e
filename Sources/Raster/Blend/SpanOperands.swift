/// Where the source pixels of a span come from. The span loops are generic
/// over it and specialised at compile time, so a solid colour costs a
/// register and an image a load; nothing is decided per pixel.
public protocol SpanSource {
    /// Every pixel has alpha 255 (declared by the caller, not checked), so
    /// operators with `opaqueSourceReplaces` may store it directly.
    static var isOpaque: Bool { get }
    /// Pixel `i` of the span (premultiplied ARGB).
    func pixel(_ i: Int) -> UInt32
    /// Pixels `i ..< i + 16`.
    func chunk(_ i: Int) -> Pixels16
    /// Pixels `i ..< i + count` (`count < 16`), zero beyond; reads nothing past them.
    func partialChunk(_ i: Int, _ count: Int) -> Pixels16
}

/// One premultiplied colour for the whole span.
public struct SolidSource: SpanSource {
    public let color: UInt32
    public let splat: Pixels16
    @inlinable public init(_ color: UInt32) { self.color = color; splat = Pixels16(repeating: color) }
    @inlinable public static var isOpaque: Bool { false }
    @inlinable @inline(__always) public func pixel(_ i: Int) -> UInt32 { color }
    @inlinable @inline(__always) public func chunk(_ i: Int) -> Pixels16 { splat }
    @inlinable @inline(__always) public func partialChunk(_ i: Int, _ count: Int) -> Pixels16 { splat }
}

/// A row of premultiplied ARGB8888 pixels, aligned with the destination span.
public struct ImageSource: SpanSource {
    public let pixels: UnsafePointer<UInt32>
    @inlinable public init(_ pixels: UnsafePointer<UInt32>) { self.pixels = pixels }
    @inlinable public static var isOpaque: Bool { false }
    @inlinable @inline(__always) public func pixel(_ i: Int) -> UInt32 { pixels[i] }
    @inlinable @inline(__always) public func chunk(_ i: Int) -> Pixels16 { load16(pixels + i) }
    @inlinable @inline(__always) public func partialChunk(_ i: Int, _ count: Int) -> Pixels16 { loadPartial16(pixels + i, count) }
}

/// `Base` with the promise that every pixel is opaque.
public struct OpaqueSource<Base: SpanSource>: SpanSource {
    public let base: Base
    @inlinable public init(_ base: Base) { self.base = base }
    @inlinable public static var isOpaque: Bool { true }
    @inlinable @inline(__always) public func pixel(_ i: Int) -> UInt32 { base.pixel(i) }
    @inlinable @inline(__always) public func chunk(_ i: Int) -> Pixels16 { base.chunk(i) }
    @inlinable @inline(__always) public func partialChunk(_ i: Int, _ count: Int) -> Pixels16 { base.partialChunk(i, count) }
}

/// Per-pixel coverage of a span, 0–255 (see `CoverageModel` for how an
/// operator applies it). One type per LVGL-style case, so each gets its own
/// loop: none, global alpha, mask, mask times global alpha.
public protocol SpanCoverage {
    /// Coverage is 255 everywhere; loops skip the coverage arithmetic.
    static var isAlwaysFull: Bool { get }
    func value(_ i: Int) -> UInt32
    /// Whether pixels `i ..< i + 16` can be skipped or need no coverage.
    func classify(_ i: Int) -> ChunkCoverage
    func chunk(_ i: Int) -> Pixels16
    /// Coverage of pixels `i ..< i + count` (`count < 16`), zero beyond.
    func partialChunk(_ i: Int, _ count: Int) -> Pixels16
}

/// Coverage 255: an opaque draw without a mask.
public struct FullCoverage: SpanCoverage {
    @inlinable public init() {}
    @inlinable public static var isAlwaysFull: Bool { true }
    @inlinable @inline(__always) public func value(_ i: Int) -> UInt32 { 255 }
    @inlinable @inline(__always) public func classify(_ i: Int) -> ChunkCoverage { .full }
    @inlinable @inline(__always) public func chunk(_ i: Int) -> Pixels16 { Pixels16(repeating: 255) }
    @inlinable @inline(__always) public func partialChunk(_ i: Int, _ count: Int) -> Pixels16 { Pixels16(repeating: 255) }
}

/// One coverage value for the whole span: a global alpha (layer opacity).
public struct ConstantCoverage: SpanCoverage {
    public let alpha: UInt32
    public let splat: Pixels16
    @inlinable public init(_ alpha: UInt32) { self.alpha = alpha; splat = Pixels16(repeating: alpha) }
    @inlinable public static var isAlwaysFull: Bool { false }
    @inlinable @inline(__always) public func value(_ i: Int) -> UInt32 { alpha }
    @inlinable @inline(__always) public func classify(_ i: Int) -> ChunkCoverage {
        alpha == 0 ? .none : (alpha == 255 ? .full : .partial)
    }
    @inlinable @inline(__always) public func chunk(_ i: Int) -> Pixels16 { splat }
    @inlinable @inline(__always) public func partialChunk(_ i: Int, _ count: Int) -> Pixels16 { splat }
}

/// An A8 coverage mask aligned with the destination span (one byte per
/// pixel), e.g. a row of the path rasterizer's coverage.
public struct MaskCoverage: SpanCoverage {
    public let mask: UnsafePointer<UInt8>
    @inlinable public init(_ mask: UnsafePointer<UInt8>) { self.mask = mask }
    @inlinable public static var isAlwaysFull: Bool { false }
    @inlinable @inline(__always) public func value(_ i: Int) -> UInt32 { UInt32(mask[i]) }
    @inlinable @inline(__always) public func classify(_ i: Int) -> ChunkCoverage { classifyMask16(mask + i) }
    @inlinable @inline(__always) public func chunk(_ i: Int) -> Pixels16 { loadMask16(mask + i) }
    @inlinable @inline(__always) public func partialChunk(_ i: Int, _ count: Int) -> Pixels16 { loadPartialMask16(mask + i, count) }
}

/// A mask times a global alpha: `c = div255(m·alpha)`. With `alpha = 255`
/// this equals `MaskCoverage` exactly (`div255(m·255) = m`).
public struct MaskAlphaCoverage: SpanCoverage {
    public let mask: UnsafePointer<UInt8>
    public let alpha: UInt32
    public let splat: Pixels16
    @inlinable public init(_ mask: UnsafePointer<UInt8>, alpha: UInt32) {
        self.mask = mask; self.alpha = alpha; splat = Pixels16(repeating: alpha)
    }
    @inlinable public static var isAlwaysFull: Bool { false }
    @inlinable @inline(__always) public func value(_ i: Int) -> UInt32 { div255(UInt32(mask[i]) &* alpha) }
    @inlinable @inline(__always) public func classify(_ i: Int) -> ChunkCoverage {
        // Never `.full` (alpha < 255 when this type is chosen).
        classifyMask16(mask + i) == .none ? .none : .partial
    }
    @inlinable @inline(__always) public func chunk(_ i: Int) -> Pixels16 { div255Pairs(loadMask16(mask + i) &* splat) }
    @inlinable @inline(__always) public func partialChunk(_ i: Int, _ count: Int) -> Pixels16 {
        div255Pairs(loadPartialMask16(mask + i, count) &* splat)
    }
}
