/// Exact area (box) downsampling of premultiplied ARGB8888, fed one source
/// row at a time, so a decoder can shrink an image it never holds whole
/// (the 2010 image-browser lesson: never keep a giant texture).
///
/// **The filter.** Output pixel (i, j) is the mean of the source over the
/// rectangle it covers, `[i·sw/dw, (i+1)·sw/dw) × [j·sh/dh, (j+1)·sh/dh)` in
/// source pixels, each source pixel weighted by the area of it inside that
/// rectangle. Everything is integer: in units of `1/dw` of a source pixel
/// horizontally (and `1/dh` vertically) every boundary is a whole number, a
/// source pixel's weight into an output pixel is its overlap in those units,
/// and the weights of one output pixel add up to `sw·sh`. The result is
/// `(Σ weight·channel + sw·sh/2) / (sw·sh)`: the exact mean rounded to
/// nearest, halves up. Averaging premultiplied channels keeps them
/// premultiplied (each colour sum is at most the alpha sum), and an opaque
/// source gives an opaque result.
///
/// **Cost.** Each source pixel adds into at most two output columns and
/// each source row into at most two output rows (`dw ≤ sw`, `dh ≤ sh`), so
/// about 8 multiply-adds per source channel; memory is two rows of
/// `4·dw` counters besides the output. This scalar loop is the reference;
/// there is no vector version yet (decoding dominates: libjpeg's IDCT costs
/// several times more per pixel).
///
/// - Invariant: `1 ≤ width ≤ sourceWidth`, `1 ≤ height ≤ sourceHeight`,
///   both within `RasterLimits` for the output and `AreaDownsampler.maxSourceDimension`
///   for the source (the integer sums cannot overflow under these bounds).
public final class AreaDownsampler {
    /// Largest source width or height accepted: keeps `255·sw` within
    /// UInt32 and `255·sw·sh` within UInt64.
    public static let maxSourceDimension = 1 << 20

    public let sourceWidth: Int
    public let sourceHeight: Int
    public let width: Int
    public let height: Int
    /// The result; complete once `isComplete`.
    public let output: Surface<ARGB8888>

    /// Per source column: the first output column it adds into, and its
    /// weight there (the rest, `width − weight`, goes into the next one).
    private let firstColumn: UnsafeMutablePointer<Int32>
    private let firstWeight: UnsafeMutablePointer<UInt32>
    /// One source row's horizontal sums, 4 channels per output column
    /// (A, R, G, B), at most `255·sw` each.
    private let rowSums: UnsafeMutablePointer<UInt32>
    /// The open output row's sums, at most `255·sw·sh` each.
    private let accumulator: UnsafeMutablePointer<UInt64>
    private var sourceRow = 0
    private var outputRow = 0

    /// A downsampler from `sourceWidth × sourceHeight` to `width × height`,
    /// or `nil` when the sizes break the invariant (upscaling, zero,
    /// negative, or over the limits).
    public init?(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        guard width >= 1, height >= 1, width <= sourceWidth, height <= sourceHeight,
              sourceWidth <= AreaDownsampler.maxSourceDimension, sourceHeight <= AreaDownsampler.maxSourceDimension,
              let output = Surface<ARGB8888>(width: width, height: height) else { return nil }
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        self.output = output
        firstColumn = .allocate(capacity: sourceWidth)
        firstWeight = .allocate(capacity: sourceWidth)
        rowSums = .allocate(capacity: 4 * width + 4)
        accumulator = .allocate(capacity: 4 * width + 4)
        accumulator.initialize(repeating: 0, count: 4 * width + 4)
        rowSums.initialize(repeating: 0, count: 4 * width + 4)
        // Source column x spans [x·dw, (x+1)·dw); output column i spans
        // [i·sw, (i+1)·sw). dw ≤ sw, so x meets one or two output columns.
        let sw = sourceWidth, dw = width
        var x = 0
        while x < sw {
            let start = x &* dw, end = start &+ dw
            let i = start / sw
            let boundary = (i &+ 1) &* sw
            firstColumn[x] = Int32(truncatingIfNeeded: i)
            firstWeight[x] = UInt32(truncatingIfNeeded: end <= boundary ? dw : boundary &- start)
            x &+= 1
        }
    }

    deinit {
        firstColumn.deallocate()
        firstWeight.deallocate()
        rowSums.deallocate()
        accumulator.deallocate()
    }

    /// True once every source row was pushed: `output` holds the image.
    public var isComplete: Bool { sourceRow >= sourceHeight }

    /// Adds the next source row (`sourceWidth` premultiplied pixels, top
    /// to bottom). Rows past the last are ignored.
    public func push(_ row: UnsafePointer<UInt32>) {
        guard sourceRow < sourceHeight else { return }
        let dw = width, dh = height, sh = sourceHeight
        // Horizontal sums of this row.
        rowSums.update(repeating: 0, count: 4 &* dw)
        var x = 0
        while x < sourceWidth {
            let p = row[x]
            let i = Int(firstColumn[x]) &* 4
            let w0 = firstWeight[x], w1 = UInt32(truncatingIfNeeded: dw) &- w0
            let a = p &>> 24, r = (p &>> 16) & 0xFF, g = (p &>> 8) & 0xFF, b = p & 0xFF
            rowSums[i] &+= a &* w0
            rowSums[i &+ 1] &+= r &* w0
            rowSums[i &+ 2] &+= g &* w0
            rowSums[i &+ 3] &+= b &* w0
            if w1 != 0 {   // only when i + 1 < width: the last column's end is exactly sw·dw
                rowSums[i &+ 4] &+= a &* w1
                rowSums[i &+ 5] &+= r &* w1
                rowSums[i &+ 6] &+= g &* w1
                rowSums[i &+ 7] &+= b &* w1
            }
            x &+= 1
        }
        // Source row y spans [y·dh, (y+1)·dh); output row j spans
        // [j·sh, (j+1)·sh).
        let start = sourceRow &* dh, end = start &+ dh
        let boundary = (outputRow &+ 1) &* sh
        let v0 = Swift.min(end, boundary) &- start
        accumulate(UInt64(v0))
        if end >= boundary {
            emitRow()
            let v1 = end &- boundary
            if v1 > 0 { accumulate(UInt64(v1)) }
        }
        sourceRow &+= 1
    }

    private func accumulate(_ weight: UInt64) {
        var k = 0
        let n = 4 &* width
        while k < n {
            accumulator[k] &+= UInt64(rowSums[k]) &* weight
            k &+= 1
        }
    }

    private func emitRow() {
        guard outputRow < height else { return }
        let total = UInt64(sourceWidth) &* UInt64(sourceHeight)
        let half = total / 2
        let out = output.view.row(outputRow)
        var i = 0
        while i < width {
            let k = i &* 4
            let a = (accumulator[k] &+ half) / total, r = (accumulator[k &+ 1] &+ half) / total
            let g = (accumulator[k &+ 2] &+ half) / total, b = (accumulator[k &+ 3] &+ half) / total
            out[i] = UInt32(truncatingIfNeeded: a &<< 24 | r &<< 16 | g &<< 8 | b)
            accumulator[k] = 0
            accumulator[k &+ 1] = 0
            accumulator[k &+ 2] = 0
            accumulator[k &+ 3] = 0
            i &+= 1
        }
        outputRow &+= 1
    }

    /// Downsamples a whole image (see the type for the filter), or `nil`
    /// when the sizes break the invariant.
    public static func downsample(_ source: PixelView<ARGB8888>, width: Int, height: Int) -> Surface<ARGB8888>? {
        guard let d = AreaDownsampler(sourceWidth: source.width, sourceHeight: source.height, width: width, height: height)
        else { return nil }
        var y = 0
        while y < source.height {
            d.push(UnsafePointer(source.row(y)))
            y &+= 1
        }
        return d.output
    }

    /// The size an image of `sourceWidth × sourceHeight` pixels is shrunk
    /// to so that it fits in `maxWidth × maxHeight` pixels, keeping its
    /// aspect ratio; never enlarged.
    ///
    /// Rounding: with `s = min(maxWidth / sourceWidth, maxHeight / sourceHeight)`
    /// (below 1), each side is `sourceSide · s` rounded to nearest (halves
    /// up), then clamped to `1…max`. The side that limits `s` comes out
    /// exactly at its maximum; the other keeps the ratio to within half a
    /// pixel. Example: 4000×3000 into 1024×1024 gives 1024×768; 1000×10 into
    /// 64×64 gives 64×1 (0.64 rounds to 1). Maxima below 1 count as 1.
    public static func fittedSize(sourceWidth: Int, sourceHeight: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        let mw = Swift.max(1, maxWidth), mh = Swift.max(1, maxHeight)
        guard sourceWidth > 0, sourceHeight > 0 else { return (0, 0) }
        if sourceWidth <= mw && sourceHeight <= mh { return (sourceWidth, sourceHeight) }
        // Compare mw/sw with mh/sh without dividing: mw·sh vs mh·sw.
        if mw &* sourceHeight <= mh &* sourceWidth {
            // Width limits: w = mw, h = round(sh·mw/sw).
            let h = (sourceHeight &* mw &* 2 &+ sourceWidth) / (2 &* sourceWidth)
            return (mw, Swift.min(mh, Swift.max(1, h)))
        } else {
            let w = (sourceWidth &* mh &* 2 &+ sourceHeight) / (2 &* sourceHeight)
            return (Swift.min(mw, Swift.max(1, w)), mh)
        }
    }
}
