import CPNG
import Raster

/// Why an image could not be read or written.
public struct ImageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// The error a C decoder shim reported (`format`: "PNG", "JPEG"):
    /// `message` is its NUL-terminated fixed-size C array; `tooLarge` adds
    /// the decode limits, `cancelled` the cancellation suffix.
    static func decoder<Message>(_ format: String, what: String, message: inout Message,
                                 tooLarge: Bool, cancelled: Bool) -> ImageError {
        let text = withUnsafeBytes(of: &message) { raw in
            var s = ""
            for byte in raw {
                if byte == 0 { break }
                s.append(Character(Unicode.Scalar(byte)))
            }
            return s
        }
        if cancelled { return ImageError("\(format) \(what)\(ImageError.cancelledSuffix)") }
        if tooLarge {
            return ImageError("\(format) \(what): \(text) (ImageDecodeLimits: at most \(ImageDecodeLimits.maxSourceDimension) per side, \(ImageDecodeLimits.maxSourcePixels) pixels)")
        }
        return ImageError("\(format) \(what): \(text)")
    }
}

/// PNG files through libpng's simplified API.
///
/// Pixels cross this boundary as premultiplied ARGB8888 (`ARGB8888`); PNG
/// stores straight (non-premultiplied) sRGB, so reading premultiplies with
/// `div255` and writing un-premultiplies rounding to nearest.
public enum PNG {
    /// Writes `view` to the file at `path`, replacing it.
    public static func write(_ view: PixelView<ARGB8888>, to path: String) throws(ImageError) {
        guard view.width > 0, view.height > 0 else { throw ImageError("PNG.write: empty image") }
        let rowBytes = view.width * 4
        let straight = UnsafeMutablePointer<UInt32>.allocate(capacity: view.width * view.height)
        defer { straight.deallocate() }
        for y in 0..<view.height {
            let src = view.row(y), dst = straight + y * view.width
            for x in 0..<view.width { dst[x] = unpremultiply(src[x]) }
        }
        var image = png_image()
        image.version = fbr_png_version()
        image.width = UInt32(view.width)
        image.height = UInt32(view.height)
        image.format = fbr_png_format_bgra()
        let ok = path.withCString { p in
            png_image_write_to_file(&image, p, 0, straight, Int32(rowBytes), nil)
        }
        if ok == 0 {
            let message = messageOf(&image)
            png_image_free(&image)
            throw ImageError("PNG.write \(path): \(message)")
        }
    }

    /// Reads the PNG file at `path` as premultiplied ARGB8888. Files larger
    /// than `RasterLimits` are refused before any pixel memory is allocated.
    public static func read(from path: String) throws(ImageError) -> Surface<ARGB8888> {
        var image = png_image()
        image.version = fbr_png_version()
        let began = path.withCString { png_image_begin_read_from_file(&image, $0) }
        return try finishRead(&image, began: began, what: path)
    }

    /// Reads the PNG file at `path` and says whether every pixel is opaque
    /// (a file without alpha, or whose alpha is 255 everywhere): pass it on
    /// as `LayerContents(surface, isOpaque:)` so the image composites by
    /// copying instead of blending.
    public static func readImage(from path: String) throws(ImageError) -> (surface: Surface<ARGB8888>, isOpaque: Bool) {
        let surface = try read(from: path)
        return (surface, isOpaque(surface.view))
    }

    /// True when every pixel of `view` has alpha 255.
    public static func isOpaque(_ view: PixelView<ARGB8888>) -> Bool {
        var y = 0
        while y < view.height {
            let row = view.row(y)
            var x = 0
            var all: UInt32 = 0xFF00_0000
            while x < view.width { all &= row[x]; x &+= 1 }
            if all & 0xFF00_0000 != 0xFF00_0000 { return false }
            y += 1
        }
        return true
    }

    /// Reads a PNG held in memory; see `read(from:)`.
    public static func read(bytes: UnsafeRawBufferPointer) throws(ImageError) -> Surface<ARGB8888> {
        var image = png_image()
        image.version = fbr_png_version()
        let began = png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
        return try finishRead(&image, began: began, what: "PNG in memory")
    }

    static func finishRead(_ image: inout png_image, began: Int32, what: String) throws(ImageError) -> Surface<ARGB8888> {
        guard began != 0 else {
            let message = messageOf(&image)
            png_image_free(&image)
            throw ImageError("PNG.read \(what): \(message)")
        }
        let width = Int(image.width), height = Int(image.height)
        guard width <= RasterLimits.maxDimension, height <= RasterLimits.maxDimension,
              width * height <= RasterLimits.maxPixels,
              let surface = Surface<ARGB8888>(width: width, height: height) else {
            png_image_free(&image)
            throw ImageError("PNG.read \(what): \(width)×\(height) exceeds the limits in RasterLimits")
        }
        image.format = fbr_png_format_bgra()
        let ok = png_image_finish_read(&image, nil, surface.pixels, Int32(surface.rowStride * 4), nil)
        guard ok != 0 else {
            let message = messageOf(&image)
            png_image_free(&image)
            throw ImageError("PNG.read \(what): \(message)")
        }
        for y in 0..<height {
            let row = surface.view.row(y)
            for x in 0..<width { row[x] = premultiply(row[x]) }
        }
        return surface
    }

    private static func messageOf(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            var s = ""
            for byte in raw {
                if byte == 0 { break }
                s.append(Character(Unicode.Scalar(byte)))
            }
            return s
        }
    }

    /// Straight ARGB to premultiplied: `c' = div255(c · a)`.
    @inlinable static func premultiply(_ p: UInt32) -> UInt32 {
        let a = p &>> 24
        if a == 255 { return p }
        return (a &<< 24) | (div255(((p &>> 16) & 0xFF) &* a) &<< 16)
            | (div255(((p &>> 8) & 0xFF) &* a) &<< 8) | div255((p & 0xFF) &* a)
    }

    /// Premultiplied ARGB to straight: `c = round(c' · 255 / a)`, clamped to
    /// 255 for inputs that break the premultiplied invariant.
    @inlinable static func unpremultiply(_ p: UInt32) -> UInt32 {
        let a = p &>> 24
        if a == 255 { return p }
        if a == 0 { return 0 }
        func channel(_ c: UInt32) -> UInt32 { Swift.min(255, (c &* 255 &+ a / 2) / a) }
        return (a &<< 24) | (channel((p &>> 16) & 0xFF) &<< 16) | (channel((p &>> 8) & 0xFF) &<< 8) | channel(p & 0xFF)
    }
}
