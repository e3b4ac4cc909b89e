// The `jpeg` target: the bytes through ImageFile.load, which sniffs PNG or
// JPEG, decoded twice — fitted into 17×13 (libjpeg's DCT scaling and the
// streamed AreaDownsampler; PNG rows through libpng's row API) and, for
// images of at most 1 Mpx, at full size. Any result must be a well-formed
// premultiplied image of the size asked for; an error is fine.
import ImageIO
import Raster

func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard let fitted = try? ImageFile.load(bytes: bytes, options: ImageDecodeOptions(fittingIn: 17, 13)) else { return }
    checkDecoded(fitted)
    precondition(fitted.width <= 17 && fitted.height <= 13, "fitted image too big")
    guard fitted.sourceWidth * fitted.sourceHeight <= 1 << 20,
          let full = try? ImageFile.load(bytes: bytes) else { return }
    checkDecoded(full)
    precondition(full.width == full.sourceWidth && full.height == full.sourceHeight, "full-size decode of another size")
}

private func checkDecoded(_ image: DecodedImage) {
    precondition(image.width > 0 && image.height > 0)
    for y in 0..<image.height {
        let row = image.surface.view.row(y)
        for x in 0..<image.width {
            let p = row[x], a = p >> 24
            precondition((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a, "not premultiplied")
            precondition(!image.isOpaque || a == 255, "isOpaque but a pixel is translucent")
        }
    }
}
