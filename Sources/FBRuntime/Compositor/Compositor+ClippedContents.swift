import Raster

// A `masksToBounds` layer whose only inside is its contents image is drawn
// straight through the coverage of its rounded (or transformed) bounds:
// each coverage span of the rasterizer is shaded and composited at once,
// instead of resampling into an offscreen surface, rasterising the whole
// coverage mask and compositing the surface through it (the clip pass).
// The result is the clip pass's within rounding: there the image is
// rounded to 8 bits at `alpha` before the coverage multiplies it, here the
// kernel multiplies alpha and coverage first.

extension Compositor {
    /// Whether the `masksToBounds` clip of `r` can be applied to its
    /// contents directly (see above): contents and nothing else inside (no
    /// own drawing, no sublayers or replicas), no nine-part stretch, an
    /// operator for which a transparent source changes nothing (the clip
    /// pass composites transparent pixels around the image), and no debug
    /// overlays (they tint offscreen passes and misaligned contents).
    func canClipContentsDirectly(_ r: ResolvedLayer, operator op: BlendOperator) -> Bool {
        let layer = r.layer
        guard layer.contents != nil, !layer.drawsOwnContent, layer.sublayers.isEmpty,
              op.transparentSourceIsNoOp, debugOverlays.isEmpty else { return false }
        let cc = r.p.contentsCenter
        if layer.contentsGravity == .resize, cc.isFinite, cc != Rect(x: 0, y: 0, width: 1, height: 1) { return false }
        return true
    }

    /// Shades `paint` where `path` (mapped by `map` into target pixels)
    /// covers `rect`, composited with `op` at `alpha` times the coverage.
    /// `sampleRect`: as for `fillShape`.
    /// - Complexity: O(pixels covered); no heap allocation for an affine
    ///   map (the span is a stack temporary; a projective map flattens the
    ///   path into a new one).
    /// `hard`: the spans are cut along these edges (Compositor+Edges.swift).
    func fillPaint<P: Paint>(_ rect: IntRect, paint: P, through path: Path, map: ProjectiveTransform, sampleRect: Rect,
                             operator op: BlendOperator, alpha: UInt8, canvas: Canvas, hard: CentreEdges = CentreEdges()) {
        var clip = rect.intersection(canvas.clip)
        if let bounds = paint.paintedBounds { clip = clip.intersection(bounds) }
        guard !clip.isEmpty, alpha > 0,
              let kernel = KernelTable.imageMask(op, alpha: UInt32(alpha), sourceIsOpaque: paint.isOpaque,
                                                 family: kernels),
              let fullKernel = KernelTable.image(op, alpha: UInt32(alpha), sourceIsOpaque: paint.isOpaque,
                                                 sourceHasRuns: true, family: kernels) else { return }
        let target = canvas.target
        let family = kernels
        let affine = map.isAffine
        let devicePath = affine ? path : pathProjector.project(path, map, sampleRect: sampleRect)
        var written = 0
        let chunk = Canvas.paintChunk
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: chunk) { buffer in
            let scratch = buffer.baseAddress!
            rasterizer.fill(devicePath, transform: affine ? map.affinePart : .identity, rule: .nonZero, clip: clip) {
                y, spanX, spanCoverage, spanCount in
                let (lo, hi) = hard.isEmpty ? (spanX, spanX + spanCount) : cutSpan(hard, y: y, x: spanX, count: spanCount)
                guard lo < hi else { return }
                let x = lo, count = hi - lo, coverage = spanCoverage + (lo - spanX)
                let row = target.row(y)
                var done = 0
                while done < count {
                    let n = Swift.min(chunk, count - done)
                    paint.shade(x: x + done, y: y, count: n, into: scratch, family: family)
                    // Runs of full coverage (the inside of the shape) take
                    // the plain image kernel: a copy for an opaque image.
                    let c = coverage + done
                    var i = 0
                    while i < n {
                        var j = i + 1
                        if c[i] == 255 {
                            while j < n && c[j] == 255 { j += 1 }
                            fullKernel(row + x + done + i, UnsafePointer(scratch + i), j - i, UInt32(alpha))
                        } else {
                            while j < n && c[j] != 255 { j += 1 }
                            kernel(row + x + done + i, UnsafePointer(scratch + i), c + i, j - i, UInt32(alpha))
                        }
                        i = j
                    }
                    done += n
                }
                written += count
            }
        }
        statistics.pixelsWritten += written
        statistics.pixelsBlended += written
    }
}
