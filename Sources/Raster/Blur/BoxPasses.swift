/// The box passes of the blur, on bytes: an A8 image is one byte per pixel,
/// a premultiplied ARGB8888 image four independent byte channels per pixel.
/// Every channel is filtered by the same linear integer arithmetic, so
/// colour ≤ alpha survives (a sum of colours never exceeds the sum of
/// alphas, and the rounding is monotonic).
public enum BoxPasses {
    // MARK: Scalar reference

    /// One box pass along a line of `count` bytes `stride` apart (`src` and
    /// `dst` must not overlap).
    @inlinable
    public static func line(_ src: UnsafePointer<UInt8>, _ srcStride: Int,
                            _ dst: UnsafeMutablePointer<UInt8>, _ dstStride: Int, _ count: Int, _ box: BoxWindow) {
        var sum: UInt32 = 0
        var y = 0
        let head = Swift.min(box.after, count)
        while y < head { sum &+= UInt32(src[y &* srcStride]); y &+= 1 }
        y = 0
        while y < count {
            if y &+ box.after < count { sum &+= UInt32(src[(y &+ box.after) &* srcStride]) }
            dst[y &* dstStride] = UInt8(truncatingIfNeeded: box.average(sum))
            if y &- box.before >= 0 { sum &-= UInt32(src[(y &- box.before) &* srcStride]) }
            y &+= 1
        }
    }

    /// The three passes of `plan` along one line, in place, through the two
    /// scratch lines `a` and `b` (`count` bytes each).
    @inlinable
    public static func lineAllPasses(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int, _ count: Int, _ plan: BlurPlan,
                                     _ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>) {
        line(p, stride, a, 1, count, plan.first)
        line(a, 1, b, 1, count, plan.second)
        line(b, 1, p, stride, count, plan.third)
    }

    // MARK: 16 columns at once

    /// One box pass down 16 adjacent byte columns: lane `k` filters column
    /// `k`, with the same arithmetic as `line`. Rows are `srcStride` and
    /// `dstStride` bytes apart; 16 bytes are read and written per row.
    @inlinable
    public static func columns16(_ src: UnsafePointer<UInt8>, _ srcStride: Int,
                                 _ dst: UnsafeMutablePointer<UInt8>, _ dstStride: Int, _ count: Int, _ box: BoxWindow) {
        var sum = SIMD16<UInt32>()
        var y = 0
        let head = Swift.min(box.after, count)
        while y < head { sum &+= loadBytes16(src + y &* srcStride); y &+= 1 }
        let reciprocal = SIMD16<UInt32>(repeating: box.reciprocal), half = SIMD16<UInt32>(repeating: 1 &<< 21)
        y = 0
        while y < count {
            if y &+ box.after < count { sum &+= loadBytes16(src + (y &+ box.after) &* srcStride) }
            let average = (sum &* reciprocal &+ half) &>> 22
            UnsafeMutableRawPointer(dst + y &* dstStride).storeBytes(of: narrow16(average), as: SIMD16<UInt8>.self)
            if y &- box.before >= 0 { sum &-= loadBytes16(src + (y &- box.before) &* srcStride) }
            y &+= 1
        }
    }

    /// The three passes of `plan` down every byte column of a `widthBytes` ×
    /// `rows` block, in place, 16 columns at a time. `scratch` holds at
    /// least `3 · 16 · rows` bytes. The last, narrower group of columns is
    /// copied into zero-padded scratch so nothing outside the block is read
    /// or written.
    @inlinable
    public static func allColumns(_ base: UnsafeMutablePointer<UInt8>, widthBytes: Int, rows: Int, rowStride: Int,
                                  _ plan: BlurPlan, scratch: UnsafeMutablePointer<UInt8>) {
        let a = scratch, b = scratch + 16 &* rows, c = scratch + 32 &* rows
        var x = 0
        while x &+ 16 <= widthBytes {
            columns16(base + x, rowStride, a, 16, rows, plan.first)
            columns16(a, 16, b, 16, rows, plan.second)
            columns16(b, 16, base + x, rowStride, rows, plan.third)
            x &+= 16
        }
        let n = widthBytes &- x
        if n > 0 {
            c.initialize(repeating: 0, count: 16 &* rows)
            var y = 0
            while y < rows { (c + y &* 16).update(from: base + (y &* rowStride &+ x), count: n); y &+= 1 }
            columns16(c, 16, a, 16, rows, plan.first)
            columns16(a, 16, b, 16, rows, plan.second)
            columns16(b, 16, c, 16, rows, plan.third)
            y = 0
            while y < rows { (base + (y &* rowStride &+ x)).update(from: c + y &* 16, count: n); y &+= 1 }
        }
    }

    /// `dst[x·dstStride + y] = src[y·srcStride + x]` for a `width` × `height`
    /// block of elements, in 16 × 16 tiles to stay in cache.
    @inlinable
    public static func transpose<T>(_ src: UnsafePointer<T>, srcStride: Int, _ dst: UnsafeMutablePointer<T>, dstStride: Int,
                                    width: Int, height: Int) {
        var y0 = 0
        while y0 < height {
            let y1 = Swift.min(y0 &+ 16, height)
            var x0 = 0
            while x0 < width {
                let x1 = Swift.min(x0 &+ 16, width)
                var y = y0
                while y < y1 {
                    var x = x0
                    while x < x1 { dst[x &* dstStride &+ y] = src[y &* srcStride &+ x]; x &+= 1 }
                    y &+= 1
                }
                x0 = x1
            }
            y0 = y1
        }
    }
}

@inlinable @inline(__always)
func loadBytes16(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt32> {
    widen16(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
}
