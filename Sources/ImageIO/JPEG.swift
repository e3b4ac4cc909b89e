import CJPEG
import Raster

/// JPEG files through libjpeg-turbo. Every libjpeg call runs inside one C
/// function of the CJPEG shim that owns the setjmp its error handler
/// longjmps to, so an error never unwinds Swift frames.
///
/// Output is premultiplied ARGB8888 with alpha 255 (JPEG has no alpha, so
/// a decoded JPEG is always opaque and composites as a copy). Greyscale
/// spreads to R = G = B; CMYK and YCCK (Adobe's, stored inverted when an
/// Adobe APP14 marker is present) become RGB by `channel = (255 − ink)·(255 − k)/255`
/// without a colour profile. Corrupt or truncated data is an error: the
/// warnings libjpeg would paper over with grey are refused. Arithmetic-coded
/// files (SOF9–SOF15, rare; web browsers refuse them too) are an error:
/// libjpeg decodes their missing data as zeros without a warning, so a tiny
/// damaged file would cost a decode of its whole declared size.
public enum JPEG {
    /// The size a JPEG declares, read from its header only.
    public static func size(bytes: UnsafeRawBufferPointer) throws(ImageError) -> (width: Int, height: Int) {
        let r = try header(bytes, what: "JPEG in memory")
        return (Int(r.width), Int(r.height))
    }

    /// Decodes a JPEG held in memory; see `ImageFile.load(bytes:options:what:)`.
    public static func read(bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions = ImageDecodeOptions()) throws(ImageError) -> DecodedImage {
        try decode(bytes: bytes, options: options, what: "JPEG in memory")
    }

    /// The DCT scale denominator (1, 2, 4 or 8) to decode a `w × h` JPEG at
    /// for a `tw × th` result: the largest whose output,
    /// `ceil(w / d) × ceil(h / d)` as libjpeg computes it, is still at least
    /// the target on both sides, so the area filter only ever shrinks.
    public static func scaleDenominator(width w: Int, height h: Int, targetWidth tw: Int, targetHeight th: Int) -> Int {
        var d = 8
        while d > 1 {
            if (w + d - 1) / d >= tw && (h + d - 1) / d >= th { return d }
            d /= 2
        }
        return 1
    }

    static func header(_ bytes: UnsafeRawBufferPointer, what: String) throws(ImageError) -> fbr_jpeg_result {
        var result = fbr_jpeg_result()
        let status = fbr_jpeg_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, 1, 1,
                                     UInt32(ImageDecodeLimits.maxSourceDimension), UInt64(ImageDecodeLimits.maxSourcePixels),
                                     ImageDecodeLimits.maxDecoderMemory, nil, nil, &result)
        guard status == Int32(FBR_JPEG_OK) else { throw error(&result, what: what) }
        return result
    }

    static func decode(bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions, what: String) throws(ImageError) -> DecodedImage {
        let head = try header(bytes, what: what)
        let w = Int(head.width), h = Int(head.height)
        guard let target = options.targetSize(sourceWidth: w, sourceHeight: h) else {
            throw ImageError("JPEG \(what): \(w)×\(h) is over RasterLimits at full size; decode it fitted to a smaller size")
        }
        let d = scaleDenominator(width: w, height: h, targetWidth: target.width, targetHeight: target.height)
        let dw = (w + d - 1) / d, dh = (h + d - 1) / d
        guard let sink = RowSink(decodedWidth: dw, decodedHeight: dh, width: target.width, height: target.height,
                                 premultiply: false, cancellation: options.cancellation) else {
            throw ImageError("JPEG \(what): cannot allocate \(target.width)×\(target.height)")
        }
        var result = fbr_jpeg_result()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let status = fbr_jpeg_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, 0, Int32(d),
                                     UInt32(ImageDecodeLimits.maxSourceDimension), UInt64(ImageDecodeLimits.maxSourcePixels),
                                     ImageDecodeLimits.maxDecoderMemory, { context, y, row, width in
            guard let context, let row else { return 1 }
            let sink = Unmanaged<RowSink>.fromOpaque(context).takeUnretainedValue()
            return sink.take(UnsafeMutablePointer(mutating: row), y: Int(y), count: Int(width)) ? 0 : 1
        }, context, &result)
        withExtendedLifetime(sink) {}
        if sink.wrongWidth { throw ImageError("JPEG \(what): decoder rows do not match the expected \(dw)×\(dh)") }
        guard status == Int32(FBR_JPEG_OK) else { throw error(&result, what: what) }
        guard sink.rows == dh else { throw ImageError("JPEG \(what): \(sink.rows) of \(dh) rows decoded") }
        return DecodedImage(surface: sink.output, isOpaque: true, format: .jpeg, sourceWidth: w, sourceHeight: h)
    }

    static func error(_ result: inout fbr_jpeg_result, what: String) -> ImageError {
        ImageError.decoder("JPEG", what: what, message: &result.message,
                           tooLarge: result.status == Int32(FBR_JPEG_TOO_LARGE), cancelled: result.status == Int32(FBR_JPEG_CANCELLED))
    }
}
