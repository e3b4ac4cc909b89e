/// Another paint's colours multiplied by a tint, channel by channel:
/// premultiplied (r, g, b, a) becomes (r·tr, g·tg, b·tb, a·ta) with the
/// factors in 0…255 (255 = unchanged), rounded by `div255`. With the
/// factors of a straight colour c — (c.r·c.a, c.g·c.a, c.b·c.a, c.a) — this
/// tints the straight colour by c and fades it by c.a (particle colours,
/// replicator instance colours).
public struct TintedPaint<Inner: Paint>: Paint {
    public let inner: Inner
    public let red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32

    public init(_ inner: Inner, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.inner = inner
        self.red = UInt32(red); self.green = UInt32(green); self.blue = UInt32(blue); self.alpha = UInt32(alpha)
    }

    @inlinable public var isOpaque: Bool { inner.isOpaque && alpha == 255 }
    @inlinable public var paintedBounds: IntRect? { inner.paintedBounds }
    @inlinable public var isRowInvariant: Bool { inner.isRowInvariant }

    @inlinable
    public func shade(x: Int, y: Int, count: Int, into span: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        inner.shade(x: x, y: y, count: count, into: span, family: family)
        var i = 0
        while i < count {
            span[i] = tinted(span[i], red: red, green: green, blue: blue, alpha: alpha)
            i &+= 1
        }
    }
}

/// A premultiplied pixel multiplied channel by channel by factors in
/// 0…255 (255 = unchanged), rounded by `div255` — `TintedPaint`'s rule,
/// for code that tints pixels in place.
@inlinable @inline(__always)
public func tinted(_ p: UInt32, red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) -> UInt32 {
    if p == 0 { return 0 }
    return div255((p >> 24) &* alpha) << 24 | div255(((p >> 16) & 0xFF) &* red) << 16
        | div255(((p >> 8) & 0xFF) &* green) << 8 | div255((p & 0xFF) &* blue)
}
