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
