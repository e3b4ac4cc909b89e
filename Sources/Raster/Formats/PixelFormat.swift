/// A pixel format as a type with static requirements, so kernels are
/// specialised per format at compile time and never switch on a format per
/// pixel (Slint's `TargetPixel`).
///
/// Every format converts to and from premultiplied ARGB8888, the format
/// composition happens in.
public protocol PixelFormat {
    /// The in-memory unit of one pixel.
    associatedtype Storage: FixedWidthInteger & SIMDScalar
    /// Bytes per pixel.
    static var bytesPerPixel: Int { get }
    /// The runtime tag of this format, for kernel lookup tables and logs.
    static var kind: PixelFormatKind { get }
    /// Converts premultiplied ARGB8888 to this format (alpha is dropped by
    /// opaque formats).
    static func fromPremultipliedARGB(_ argb: UInt32) -> Storage
    /// Converts a pixel of this format to premultiplied ARGB8888.
    static func toPremultipliedARGB(_ pixel: Storage) -> UInt32
}

/// Runtime names of the pixel formats; kernels are looked up by these once
/// per draw.
public enum PixelFormatKind: UInt8, Sendable {
    case argb8888Premultiplied
    case xrgb8888
    case rgb565
    case a8
}

/// Premultiplied ARGB, 8 bits per channel, `0xAARRGGBB` in a native-endian
/// `UInt32` (B, G, R, A in memory on little-endian machines, which is DRM's
/// `ARGB8888`). Invariant: each colour channel is at most the alpha.
public enum ARGB8888: PixelFormat {
    public typealias Storage = UInt32
    public static var bytesPerPixel: Int { 4 }
    public static var kind: PixelFormatKind { .argb8888Premultiplied }
    @inlinable public static func fromPremultipliedARGB(_ argb: UInt32) -> UInt32 { argb }
    @inlinable public static func toPremultipliedARGB(_ pixel: UInt32) -> UInt32 { pixel }
}

/// Opaque RGB in a `UInt32` with an unused top byte (DRM `XRGB8888`).
/// Converting to it composites over black, i.e. drops the alpha of a
/// premultiplied colour; the unused byte is written as `0xFF` so scan-out
/// hardware that reads it as alpha still shows the pixel.
public enum XRGB8888: PixelFormat {
    public typealias Storage = UInt32
    public static var bytesPerPixel: Int { 4 }
    public static var kind: PixelFormatKind { .xrgb8888 }
    @inlinable public static func fromPremultipliedARGB(_ argb: UInt32) -> UInt32 { argb | 0xFF00_0000 }
    @inlinable public static func toPremultipliedARGB(_ pixel: UInt32) -> UInt32 { pixel | 0xFF00_0000 }
}

/// Opaque RGB, 5-6-5 bits in a `UInt16` (DRM `RGB565`).
///
/// Narrowing rounds to nearest: `r5 = (r8 * 31 + 127) / 255` computed as
/// `div255(r8 * 31)`, and likewise with 63 for green, so 0 → 0 and 255 → max
/// and every 8-bit value maps to the nearest representable level. Widening
/// replicates the top bits (`r8 = r5 << 3 | r5 >> 2`), the exact inverse on
/// the representable levels.
public enum RGB565: PixelFormat {
    public typealias Storage = UInt16
    public static var bytesPerPixel: Int { 2 }
    public static var kind: PixelFormatKind { .rgb565 }
    @inlinable public static func fromPremultipliedARGB(_ argb: UInt32) -> UInt16 {
        let r = div255(((argb &>> 16) & 0xFF) &* 31)
        let g = div255(((argb &>> 8) & 0xFF) &* 63)
        let b = div255((argb & 0xFF) &* 31)
        return UInt16(truncatingIfNeeded: (r &<< 11) | (g &<< 5) | b)
    }
    @inlinable public static func toPremultipliedARGB(_ pixel: UInt16) -> UInt32 {
        let p = UInt32(pixel)
        let r5 = (p &>> 11) & 0x1F, g6 = (p &>> 5) & 0x3F, b5 = p & 0x1F
        let r = (r5 &<< 3) | (r5 &>> 2), g = (g6 &<< 2) | (g6 &>> 4), b = (b5 &<< 3) | (b5 &>> 2)
        return 0xFF00_0000 | (r &<< 16) | (g &<< 8) | b
    }
}

/// 8-bit alpha only: a coverage mask. As a colour it is black at that alpha
/// (premultiplied, so the colour channels are zero).
public enum A8: PixelFormat {
    public typealias Storage = UInt8
    public static var bytesPerPixel: Int { 1 }
    public static var kind: PixelFormatKind { .a8 }
    @inlinable public static func fromPremultipliedARGB(_ argb: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: argb &>> 24) }
    @inlinable public static func toPremultipliedARGB(_ pixel: UInt8) -> UInt32 { UInt32(pixel) &<< 24 }
}
