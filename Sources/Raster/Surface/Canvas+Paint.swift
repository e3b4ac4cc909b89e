/// Drawing with paints (gradients, image patterns).
extension Canvas {
    /// Fills `rect` with `paint` composited by `op` (source-over by default)
    /// at global `alpha` (0–255): each row of the clipped rectangle is
    /// shaded into a scratch span, then composited with the
    /// `KernelTable.image` kernel chosen once for the draw (a copy when the
    /// paint is opaque, `alpha` is 255 and the operator allows; otherwise,
    /// for source-over at full alpha, `srcOverRuns`, which copies or skips
    /// the opaque and transparent runs a paint's spans mostly are). For
    /// operators where a transparent source changes nothing (source-over
    /// and its kin), pixels outside the paint's `paintedBounds` are
    /// skipped; for the others (`src`, `clear`, …) they are composited too.
    ///
    /// A paint whose rows are all alike (`isRowInvariant`) is shaded once
    /// per piece and the span composited onto every row.
    ///
    /// Rows are shaded in pieces of at most `paintChunk` pixels so the span
    /// stays in L1 cache and on the stack; paints see the same (x, count)
    /// pieces with either kernel family.
    /// - Complexity: O(area); no heap allocation (the scratch span is a stack
    ///   temporary).
    public func fill<P: Paint>(_ rect: IntRect, paint: P, operator op: BlendOperator = .srcOver, alpha: UInt8 = 255) {
        var r = rect.intersection(clip)
        if !paint.isOpaque && op.transparentSourceIsNoOp, let bounds = paint.paintedBounds { r = r.intersection(bounds) }
        guard !r.isEmpty,
              let kernel = KernelTable.image(op, alpha: UInt32(alpha), sourceIsOpaque: paint.isOpaque, sourceHasRuns: true,
                                             family: family) else { return }
        let chunk = Swift.min(r.width, Canvas.paintChunk)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: chunk) { buffer in
            let scratch = buffer.baseAddress!
            if paint.isRowInvariant {
                // Every row is the same: shade each piece once (pixman
                // reuses the scanline of a horizontal gradient the same way).
                var x = r.x
                while x < r.maxX {
                    let n = Swift.min(chunk, r.maxX - x)
                    paint.shade(x: x, y: r.y, count: n, into: scratch, family: family)
                    var y = r.y
                    while y < r.maxY {
                        kernel(target.row(y) + x, UnsafePointer(scratch), n, UInt32(alpha))
                        y &+= 1
                    }
                    x += n
                }
                return
            }
            var y = r.y
            while y < r.maxY {
                let row = target.row(y)
                var x = r.x
                while x < r.maxX {
                    let n = Swift.min(chunk, r.maxX - x)
                    paint.shade(x: x, y: y, count: n, into: scratch, family: family)
                    kernel(row + x, UnsafePointer(scratch), n, UInt32(alpha))
                    x += n
                }
                y &+= 1
            }
        }
    }

    /// The longest piece of a row a paint shades at once. 256 pixels are
    /// 1 KiB, the most `withUnsafeTemporaryAllocation` puts on the stack:
    /// a longer span fell back to the heap (an allocation per wide draw,
    /// which the zero-allocation frame of issue 4 cannot have).
    public static let paintChunk = 256
}
