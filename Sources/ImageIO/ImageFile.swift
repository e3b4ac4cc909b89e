import CPosix
import Raster
import Synchronization

/// The file formats `ImageFile` reads, told apart by their signature.
public enum ImageFormat: Sendable, Equatable {
    /// `89 50 4E 47 0D 0A 1A 0A`.
    case png
    /// `FF D8 FF` (SOI followed by any marker).
    case jpeg

    /// The format whose signature starts `bytes`, or `nil`.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47,
           bytes[4] == 0x0D, bytes[5] == 0x0A, bytes[6] == 0x1A, bytes[7] == 0x0A { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        return nil
    }
}

/// A decoded image, ready to be a layer's contents:
/// `LayerContents(image.surface, isOpaque: image.isOpaque)`.
public struct DecodedImage {
    /// Premultiplied ARGB8888, at the decoded (possibly downsampled) size.
    public let surface: Surface<ARGB8888>
    /// Every pixel has alpha 255: always true for JPEG, true for a PNG
    /// without an alpha channel or tRNS chunk, or whose alpha is all 255.
    /// Pass it on, so the compositor copies the image instead of blending it.
    public let isOpaque: Bool
    public let format: ImageFormat
    /// The size declared in the file, in pixels (before downsampling).
    public let sourceWidth: Int
    public let sourceHeight: Int

    public var width: Int { surface.width }
    public var height: Int { surface.height }
}

/// Limits on what a decode accepts, checked against the size a file
/// declares before any pixel memory is allocated. A file over them is an
/// `ImageError`, never an allocation attempt.
public enum ImageDecodeLimits {
    /// Largest declared width or height, in pixels. JPEG's own maximum is
    /// 65,500; a 100,000-pixel side is refused.
    public static let maxSourceDimension = 65_535
    /// Largest declared pixel count (256 Mpx). A source this big can only be
    /// decoded downsampled (`ImageDecodeOptions(fittingIn:)`): it is streamed
    /// through `AreaDownsampler` and never held whole.
    public static let maxSourcePixels = 256 * 1024 * 1024
    /// Largest file read by `ImageFile.load(path:)`, in bytes (256 MiB).
    public static let maxFileBytes = 256 * 1024 * 1024
    /// libjpeg's memory cap for one decode (progressive files keep every
    /// DCT coefficient: about 2 bytes per pixel and component), in bytes.
    public static let maxDecoderMemory = 512 * 1024 * 1024
}

/// Asks a running decode to stop; it then throws an `ImageError` whose
/// `isCancellation` is true. Any thread may call `cancel()`.
public final class DecodeCancellation: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func cancel() { flag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// How to decode an image file.
public struct ImageDecodeOptions {
    /// The largest size wanted, in pixels: a larger image is downsampled at
    /// decode time to fit inside `maxWidth × maxHeight`, keeping its aspect
    /// ratio (sizes round as `AreaDownsampler.fittedSize` says); a smaller
    /// one is decoded at its own size, never enlarged. `nil`: full size,
    /// which must then be within `RasterLimits`.
    public var maxWidth: Int?
    public var maxHeight: Int?
    /// Checked once per decoded row.
    public var cancellation: DecodeCancellation?

    /// Full size.
    public init() {}

    /// Fit inside `width × height` pixels (each at least 1).
    public init(fittingIn width: Int, _ height: Int) {
        maxWidth = Swift.max(1, width)
        maxHeight = Swift.max(1, height)
    }

    /// The output size for a source of `w × h`, or `nil` when the full
    /// size is asked for and exceeds `RasterLimits`.
    func targetSize(sourceWidth w: Int, sourceHeight h: Int) -> (width: Int, height: Int)? {
        if maxWidth == nil && maxHeight == nil {
            guard w <= RasterLimits.maxDimension, h <= RasterLimits.maxDimension, w * h <= RasterLimits.maxPixels
            else { return nil }
            return (w, h)
        }
        var mw = Swift.min(maxWidth ?? w, RasterLimits.maxDimension)
        var mh = Swift.min(maxHeight ?? h, RasterLimits.maxDimension)
        // Keep the output within the pixel limit too.
        while mw * mh > RasterLimits.maxPixels { mw /= 2; mh /= 2 }
        return AreaDownsampler.fittedSize(sourceWidth: w, sourceHeight: h, maxWidth: mw, maxHeight: mh)
    }
}

extension ImageError {
    /// True when the decode stopped because its `DecodeCancellation` was
    /// cancelled (or its request was cancelled before it ran).
    public var isCancellation: Bool { description.hasSuffix(ImageError.cancelledSuffix) }
    static let cancelledSuffix = ": cancelled"
}

/// Image files by content: PNG (libpng) or JPEG (libjpeg-turbo), picked by
/// the file's signature, not its name.
public enum ImageFile {
    /// Reads and decodes the file at `path` (see `load(bytes:options:what:)`).
    public static func load(path: String, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageError) -> DecodedImage {
        let bytes = try readFile(path)
        let result = bytes.withUnsafeBytes { (raw) -> Result<DecodedImage, ImageError> in
            do throws(ImageError) { return .success(try load(bytes: raw, options: options, what: path)) }
            catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads the file at `path` shrunk to fit in `width × height` pixels
    /// (keeping its aspect ratio, never enlarged): the call for photos
    /// shown at a known size. JPEG shrinks in libjpeg's DCT first (1/2,
    /// 1/4, 1/8), then both formats go through an exact area filter,
    /// streamed row by row, so the full-size image is never held.
    public static func load(path: String, fittingIn width: Int, _ height: Int) throws(ImageError) -> DecodedImage {
        try load(path: path, options: ImageDecodeOptions(fittingIn: width, height))
    }

    /// Decodes an image held in memory. `what` names it in error messages.
    /// - Throws: `ImageError` for an unknown signature, a corrupt or
    ///   truncated file, a declared size over `ImageDecodeLimits`, a full-size
    ///   decode over `RasterLimits`, or cancellation.
    public static func load(bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions = ImageDecodeOptions(),
                            what: String = "image in memory") throws(ImageError) -> DecodedImage {
        switch ImageFormat.sniff(bytes) {
        case .png: return try PNG.decode(bytes: bytes, options: options, what: what)
        case .jpeg: return try JPEG.decode(bytes: bytes, options: options, what: what)
        case nil: throw ImageError("\(what): not a PNG or JPEG file (unknown signature)")
        }
    }

    /// The whole file, at most `ImageDecodeLimits.maxFileBytes`.
    static func readFile(_ path: String) throws(ImageError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw ImageError("\(path): cannot open (\(String(cString: strerror(fbr_errno()))))")
        }
        defer { fclose(file) }
        guard fseek(file, 0, SEEK_END) == 0 else { throw ImageError("\(path): cannot seek (not a regular file?)") }
        let size = ftell(file)
        guard size >= 0 else { throw ImageError("\(path): cannot tell its size") }
        guard size <= ImageDecodeLimits.maxFileBytes else {
            throw ImageError("\(path): \(size) bytes is over ImageDecodeLimits.maxFileBytes")
        }
        rewind(file)
        var bytes = [UInt8](repeating: 0, count: size)
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
        guard read == size else { throw ImageError("\(path): short read (\(read) of \(size) bytes)") }
        return bytes
    }
}

/// Where decoded rows go: straight into a surface when the decoder's
/// output is the target size, else through an `AreaDownsampler`. Handed to
/// C as an opaque pointer for the row callbacks.
final class RowSink {
    let width: Int
    let height: Int
    let direct: Surface<ARGB8888>?
    let downsampler: AreaDownsampler?
    let cancellation: DecodeCancellation?
    /// Premultiply each row first (PNG rows are straight alpha).
    let premultiply: Bool
    var rows = 0
    var wrongWidth = false

    /// Rows of `decodedWidth × decodedHeight` into an image of
    /// `width × height`; `nil` when the surfaces cannot be allocated.
    init?(decodedWidth: Int, decodedHeight: Int, width: Int, height: Int, premultiply: Bool,
          cancellation: DecodeCancellation?) {
        self.width = decodedWidth
        self.height = decodedHeight
        self.premultiply = premultiply
        self.cancellation = cancellation
        if decodedWidth == width && decodedHeight == height {
            guard let s = Surface<ARGB8888>(width: width, height: height) else { return nil }
            direct = s
            downsampler = nil
        } else {
            guard let d = AreaDownsampler(sourceWidth: decodedWidth, sourceHeight: decodedHeight, width: width, height: height)
            else { return nil }
            direct = nil
            downsampler = d
        }
    }

    var output: Surface<ARGB8888> { direct ?? downsampler!.output }

    /// Takes row `y`; returns false to stop the decode.
    func take(_ row: UnsafeMutablePointer<UInt32>, y: Int, count: Int) -> Bool {
        if cancellation?.isCancelled == true { return false }
        guard count == width, y == rows, y < height else { wrongWidth = true; return false }
        if premultiply {
            var x = 0
            while x < count { row[x] = PNG.premultiply(row[x]); x &+= 1 }
        }
        if let direct {
            direct.view.row(y).update(from: row, count: count)
        } else {
            downsampler!.push(UnsafePointer(row))
        }
        rows &+= 1
        return true
    }
}
