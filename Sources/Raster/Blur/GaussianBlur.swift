/// Gaussian blur of A8 coverage and premultiplied ARGB8888 images, in
/// place, approximated by three box passes per direction (`BlurPlan`).
///
/// Edges: pixels outside the view count as transparent (0), so content near
/// the border fades out and nothing outside the view is read or written. A
/// caller that wants the whole blurred shape (a shadow) pads the image by
/// about `1.5 · radius` on every side first.
///
/// Both families give bit-identical pixels. `.reference` filters every row,
/// then every column, one byte channel at a time. `.simd` runs the same
/// passes down 16 byte columns at once; for the horizontal passes it
/// transposes the image into scratch, filters down the columns there, and
/// transposes back.
///
/// Ownership: the object owns its scratch memory and grows it to the largest
/// image seen (about one image's bytes plus `48 · max(width, height)`);
/// keep one per thread and reuse it. Not thread-safe.
public final class GaussianBlur {
    private var scratch: UnsafeMutablePointer<UInt8>?
    /// Bytes of scratch memory currently held.
    public private(set) var scratchCapacity = 0

    public init() {}

    deinit { scratch?.deallocate() }

    /// Blurs `view` in place with `radius` (see `BlurPlan`).
    ///
    /// - Complexity: O(width · height) for any radius; allocates only when
    ///   the image is larger than any blurred before with this object.
    public func blur(_ view: PixelView<A8>, radius: Double, family: KernelFamily = .simd) {
        run(view.base, width: view.width, height: view.height, rowStride: view.rowStride, plan: BlurPlan(radius: radius),
            family: family, as: UInt8.self)
    }

    /// Blurs the premultiplied `view` in place with `radius` (see `BlurPlan`).
    /// Colour ≤ alpha is preserved.
    public func blur(_ view: PixelView<ARGB8888>, radius: Double, family: KernelFamily = .simd) {
        run(UnsafeMutableRawPointer(view.base).assumingMemoryBound(to: UInt8.self), width: view.width, height: view.height,
            rowStride: view.rowStride &* 4, plan: BlurPlan(radius: radius), family: family, as: UInt32.self)
    }

    /// `rowStride` in bytes; `Pixel` is the unit moved by the transposes.
    private func run<Pixel: FixedWidthInteger>(_ base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rowStride: Int,
                                               plan: BlurPlan, family: KernelFamily, as: Pixel.Type) {
        guard width > 0, height > 0, !plan.isIdentity else { return }
        let channels = MemoryLayout<Pixel>.size
        let lines = Swift.max(width, height)
        switch family {
        case .reference:
            let tmp = reserve(2 &* lines)
            var y = 0
            while y < height {
                var ch = 0
                while ch < channels {
                    BoxPasses.lineAllPasses(base + (y &* rowStride &+ ch), channels, width, plan, tmp, tmp + lines)
                    ch &+= 1
                }
                y &+= 1
            }
            var x = 0
            while x < width &* channels {
                BoxPasses.lineAllPasses(base + x, rowStride, height, plan, tmp, tmp + lines)
                x &+= 1
            }
        case .simd:
            let imageBytes = width &* height &* channels
            let pixelStride = rowStride / channels
            let viewPixels = pixelStride &* (height &- 1) &+ width
            let memory = reserve(imageBytes &+ 48 &* lines)
            let columnScratch = memory + imageBytes
            // Horizontal passes: rows become columns of the transposed copy.
            memory.withMemoryRebound(to: Pixel.self, capacity: width &* height) { t in
                base.withMemoryRebound(to: Pixel.self, capacity: viewPixels) { image in
                    BoxPasses.transpose(UnsafePointer(image), srcStride: pixelStride, t, dstStride: height, width: width, height: height)
                }
            }
            BoxPasses.allColumns(memory, widthBytes: height &* channels, rows: width, rowStride: height &* channels, plan, scratch: columnScratch)
            memory.withMemoryRebound(to: Pixel.self, capacity: width &* height) { t in
                base.withMemoryRebound(to: Pixel.self, capacity: viewPixels) { image in
                    BoxPasses.transpose(UnsafePointer(t), srcStride: height, image, dstStride: pixelStride, width: height, height: width)
                }
            }
            BoxPasses.allColumns(base, widthBytes: width &* channels, rows: height, rowStride: rowStride, plan, scratch: columnScratch)
        }
    }

    /// Scratch of at least `bytes` bytes, reusing the current block when it is
    /// large enough.
    private func reserve(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
        if let scratch, scratchCapacity >= bytes { return scratch }
        scratch?.deallocate()
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes)
        scratch = fresh
        scratchCapacity = bytes
        return fresh
    }
}
