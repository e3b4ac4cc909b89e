import CPNG
import Raster

extension PNG {
    /// Decodes a PNG held in memory; see `ImageFile.load(bytes:options:what:)`.
    ///
    /// Full size goes through libpng's simplified API (`read(bytes:)`, which
    /// also converts gamma to sRGB). Downsampled, a non-interlaced file is
    /// read row by row into `AreaDownsampler` and never held whole (no gamma
    /// conversion on that path: PNGs are sRGB in practice); an interlaced one
    /// completes its rows only in the last pass, so it is decoded whole
    /// (within `RasterLimits`) and then downsampled.
    public static func read(bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(ImageError) -> DecodedImage {
        try decode(bytes: bytes, options: options, what: "PNG in memory")
    }

    static func decode(bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions, what: String) throws(ImageError) -> DecodedImage {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var head = fbr_png_rows_result()
        let status = fbr_png_decode_rows(base, bytes.count, 1, UInt32(ImageDecodeLimits.maxSourceDimension),
                                         UInt64(ImageDecodeLimits.maxSourcePixels), nil, nil, &head)
        guard status == Int32(FBR_PNG_OK) else { throw rowsError(&head, what: what) }
        let w = Int(head.width), h = Int(head.height)
        guard let target = options.targetSize(sourceWidth: w, sourceHeight: h) else {
            throw ImageError("PNG \(what): \(w)×\(h) is over RasterLimits at full size; decode it fitted to a smaller size")
        }
        if options.cancellation?.isCancelled == true { throw ImageError("PNG \(what)\(ImageError.cancelledSuffix)") }
        if (target.width == w && target.height == h) || head.interlaced != 0 {
            let whole = try finishRead(bytes, what: what)
            let surface: Surface<ARGB8888>
            if target.width == w && target.height == h {
                surface = whole
            } else {
                guard let s = AreaDownsampler.downsample(whole.view, width: target.width, height: target.height) else {
                    throw ImageError("PNG \(what): cannot allocate \(target.width)×\(target.height)")
                }
                surface = s
            }
            return DecodedImage(surface: surface, isOpaque: head.has_alpha == 0 || isOpaque(surface.view), format: .png,
                                sourceWidth: w, sourceHeight: h)
        }
        guard let sink = RowSink(decodedWidth: w, decodedHeight: h, width: target.width, height: target.height,
                                 premultiply: head.has_alpha != 0, cancellation: options.cancellation) else {
            throw ImageError("PNG \(what): cannot allocate \(target.width)×\(target.height)")
        }
        var result = fbr_png_rows_result()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let decoded = fbr_png_decode_rows(base, bytes.count, 0, UInt32(ImageDecodeLimits.maxSourceDimension),
                                          UInt64(ImageDecodeLimits.maxSourcePixels), { context, y, row, width in
            guard let context, let row else { return 1 }
            let sink = Unmanaged<RowSink>.fromOpaque(context).takeUnretainedValue()
            return sink.take(row, y: Int(y), count: Int(width)) ? 0 : 1
        }, context, &result)
        withExtendedLifetime(sink) {}
        if sink.wrongWidth { throw ImageError("PNG \(what): decoder rows do not match the expected \(w)×\(h)") }
        guard decoded == Int32(FBR_PNG_OK) else { throw rowsError(&result, what: what) }
        guard sink.rows == h else { throw ImageError("PNG \(what): \(sink.rows) of \(h) rows decoded") }
        let surface = sink.output
        return DecodedImage(surface: surface, isOpaque: head.has_alpha == 0 || isOpaque(surface.view), format: .png,
                            sourceWidth: w, sourceHeight: h)
    }

    private static func finishRead(_ bytes: UnsafeRawBufferPointer, what: String) throws(ImageError) -> Surface<ARGB8888> {
        var image = png_image()
        image.version = fbr_png_version()
        let began = png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
        return try finishRead(&image, began: began, what: what)
    }

    private static func rowsError(_ result: inout fbr_png_rows_result, what: String) -> ImageError {
        ImageError.decoder("PNG", what: what, message: &result.message,
                           tooLarge: result.status == Int32(FBR_PNG_TOO_LARGE), cancelled: result.status == Int32(FBR_PNG_CANCELLED))
    }
}
