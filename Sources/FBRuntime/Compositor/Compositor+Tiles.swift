import Raster

// TiledLayer in the compositor: the survey picks the level, asks for the
// visible tiles, shows the ones that arrived and damages the areas of the
// tiles that arrived or are fading; the draw shows what the cache holds.
// Both run out of line (`@inline(never)`): the recursion through sublayers
// must not carry their frames (deep trees in debug builds).

/// The tiles of one level that meet a visible rectangle.
struct TileGrid {
    let level: Int
    /// Pixels per point of the level.
    let scale: Double
    /// A tile's size, points.
    let tileWidth: Double, tileHeight: Double
    /// Inclusive ranges of columns and rows.
    let column0: Int, column1: Int, row0: Int, row1: Int

    var count: Int { (column1 - column0 + 1) * (row1 - row0 + 1) }

    func rect(column: Int, row: Int) -> Rect {
        Rect(x: Double(column) * tileWidth, y: Double(row) * tileHeight, width: tileWidth, height: tileHeight)
    }

    /// The grid of `layer`'s tiles meeting `visible` (bounds space) at the
    /// level `magnification` (target pixels per point) needs; coarser while
    /// more than `TiledLayer.maximumTilesPerFrame` would meet it, and cut
    /// to that many at the coarsest level.
    /// `level`: the level the survey chose (the draw of a damaged part
    /// under perspective must not choose another one from that part alone).
    init?(_ layer: TiledLayer, visible: Rect, magnification: Double, level chosen: Int? = nil) {
        let (finest, coarsest) = layer.levelRange
        let cs = layer.clampedContentsScale
        let px = layer.clampedTilePixels
        var level = TiledLayer.level(forMagnification: magnification, contentsScale: cs, finest: finest, coarsest: coarsest)
        if let chosen, chosen <= finest, chosen >= coarsest { level = chosen }
        let limit = 1e15      // tile indices stay far from Int's range
        while true {
            let scale = cs * powerOfTwo(level)
            let tw = Double(px.width) / scale, th = Double(px.height) / scale
            let c0 = (visible.minX / tw).rounded(.down), c1 = (visible.maxX / tw).rounded(.up) - 1
            let r0 = (visible.minY / th).rounded(.down), r1 = (visible.maxY / th).rounded(.up) - 1
            guard c0.isFinite, c1.isFinite, r0.isFinite, r1.isFinite,
                  Swift.abs(c0) < limit, Swift.abs(c1) < limit, Swift.abs(r0) < limit, Swift.abs(r1) < limit else { return nil }
            var column1 = Swift.max(Int(c0), Int(c1)), row1 = Swift.max(Int(r0), Int(r1))
            let columns = column1 - Int(c0) + 1, rows = row1 - Int(r0) + 1
            let maximum = TiledLayer.maximumTilesPerFrame
            if columns > maximum / rows || columns * rows > maximum {
                if level > coarsest { level -= 1; continue }
                column1 = Int(c0) + Swift.min(columns, maximum) - 1
                row1 = Int(r0) + Swift.max(1, Swift.min(rows, maximum / Swift.min(columns, maximum))) - 1
            }
            self.level = level; self.scale = scale; tileWidth = tw; tileHeight = th
            column0 = Int(c0); self.column1 = column1; row0 = Int(r0); self.row1 = row1
            return
        }
    }
}

/// `a ÷ 2^k` rounded down (k ≥ 0), for the coarser tile holding a finer one.
@inline(__always) func floorShift(_ a: Int, _ k: Int) -> Int { k >= 62 ? (a < 0 ? -1 : 0) : a >> k }

extension Compositor {
    /// The part of `bounds` (bounds space) whose image under `map` may meet
    /// `clip` (target pixels): the clip's corners mapped back, boxed, cut
    /// by the bounds. Conservative under perspective: the whole bounds when
    /// a corner of the clip has no preimage in front of the eye. `nil` when
    /// nothing can be visible (an empty clip, a singular map).
    static func visibleTileArea(bounds b: Rect, map: ProjectiveTransform, clip: IntRect) -> Rect? {
        guard !clip.isEmpty, b.isFinite, b.width > 0, b.height > 0, let inverse = map.inverted() else { return nil }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        var everything = false
        var k = 0
        while k < 4 {
            let cx = Double(k == 1 || k == 2 ? clip.x + clip.width : clip.x)
            let cy = Double(k >= 2 ? clip.y + clip.height : clip.y)
            k += 1
            guard let p = inverse.apply(x: cx, y: cy), p.x.isFinite, p.y.isFinite else { everything = true; break }
            x0 = Swift.min(x0, p.x); y0 = Swift.min(y0, p.y); x1 = Swift.max(x1, p.x); y1 = Swift.max(y1, p.y)
        }
        if everything { return b }
        let ix0 = Swift.max(x0, b.minX), iy0 = Swift.max(y0, b.minY)
        let ix1 = Swift.min(x1, b.maxX), iy1 = Swift.min(y1, b.maxY)
        guard ix1 > ix0, iy1 > iy0 else { return nil }
        return Rect(x: ix0, y: iy0, width: ix1 - ix0, height: iy1 - iy0)
    }

    /// Target pixels per point the layer is shown at over `area`: the
    /// largest magnification at its corners and centre (constant for an
    /// affine map).
    static func tileMagnification(_ map: ProjectiveTransform, over area: Rect) -> Double {
        if map.isAffine { return map.magnification(at: area.origin) }
        var m = map.magnification(at: area.center)
        m = Swift.max(m, map.magnification(at: Point(x: area.minX, y: area.minY)))
        m = Swift.max(m, map.magnification(at: Point(x: area.maxX, y: area.minY)))
        m = Swift.max(m, map.magnification(at: Point(x: area.minX, y: area.maxY)))
        m = Swift.max(m, map.magnification(at: Point(x: area.maxX, y: area.maxY)))
        return m
    }

    /// The survey's part for a tiled layer drawn as (or inside) a unit:
    /// shows the tiles that arrived, marks the visible ones (requesting
    /// those missing or invalidated), cancels requests gone off screen,
    /// and damages the area of every tile whose alpha changed.
    @inline(never)
    func surveyTiles(_ r: ResolvedLayer, clip: IntRect) {
        let layer = unsafeDowncast(r.layer, to: TiledLayer.self)
        let cache = layer.cache
        let t = r.localTime
        let fade = layer.clampedFadeDuration
        let px = layer.clampedTilePixels
        let map = r.toTarget
        cache.state.lock.lock()
        defer { cache.state.lock.unlock() }
        cache.beginSurveyLocked(at: t, pixelWidth: px.width, pixelHeight: px.height, contentsScale: layer.clampedContentsScale)
        cache.publishLocked(at: t, fadeDuration: fade)
        if let visible = Compositor.visibleTileArea(bounds: r.bounds, map: map, clip: clip),
           let grid = TileGrid(layer, visible: visible, magnification: Compositor.tileMagnification(map, over: visible)) {
            cache.setLevelLocked(grid.level)
            let coarsest = layer.levelRange.coarsest
            var row = grid.row0
            while row <= grid.row1 {
                var column = grid.column0
                while column <= grid.column1 {
                    let key = TileKey(level: grid.level, column: column, row: row)
                    let e = cache.wantLocked(key, rect: grid.rect(column: column, row: row), scale: grid.scale, request: true)
                    if e?.surface == nil || e!.alpha(at: t, fade: fade) < 1 {
                        markFallback(cache, key, coarsest: coarsest)
                    }
                    column += 1
                }
                row += 1
            }
        } else {
            cache.setLevelLocked(nil)
        }
        cache.sweepLocked()
        let bounds = r.bounds
        cache.forEachShownLocked { e in
            let a = e.alpha(at: t, fade: fade)
            guard a != e.surveyedAlpha else { return }
            e.surveyedAlpha = a
            let area = TiledArea(e.tile.rect, bounds)
            guard let rect = area.rect else { return }
            let box = projectedBox(rect, map).enclosingIntRect.insetBy(-1).intersection(clip)
            if !box.isEmpty { tracker.invalidate(box) }
        }
    }

    /// Marks the nearest coarser tile that is shown as on screen (it is
    /// drawn in place of `key`).
    private func markFallback(_ cache: TileCache, _ key: TileKey, coarsest: Int) {
        var level = key.level - 1, k = 1
        while level >= coarsest {
            if let e = cache.entryLocked(TileKey(level: level, column: floorShift(key.column, k), row: floorShift(key.row, k))),
               e.surface != nil {
                e.lastUsed = cache.useClock
                return
            }
            level -= 1; k += 1
        }
    }

    /// Draws a tiled layer's tiles (its own content): for each tile of the
    /// level in use meeting the canvas clip, the coarser fallback where it
    /// is missing or fading in, then the tile at its fade alpha.
    @inline(never)
    func drawTiles(of layer: TiledLayer, _ d: OwnContentDrawing) {
        let cache = layer.cache
        let t = d.localTime
        let fade = layer.clampedFadeDuration
        let map = d.map
        let bounds = d.bounds
        guard let visible = Compositor.visibleTileArea(bounds: bounds, map: map, clip: d.canvas.clip) else { return }
        let coarsest = layer.levelRange.coarsest
        cache.state.lock.lock()
        defer { cache.state.lock.unlock() }
        // Inside an offscreen image the survey did not reach the layer:
        // ask here (the same tiles, cut by the damage).
        let request = !cache.wasSurveyedLocked(at: t)
        guard let grid = TileGrid(layer, visible: visible, magnification: Compositor.tileMagnification(map, over: visible),
                                  level: request ? nil : cache.levelLocked) else { return }
        if request {
            let px = layer.clampedTilePixels
            cache.configureLocked(pixelWidth: px.width, pixelHeight: px.height, contentsScale: layer.clampedContentsScale)
            cache.setLevelLocked(grid.level)
        }
        var row = grid.row0
        while row <= grid.row1 {
            var column = grid.column0
            while column <= grid.column1 {
                let key = TileKey(level: grid.level, column: column, row: row)
                let rect = grid.rect(column: column, row: row)
                let e = request ? cache.wantLocked(key, rect: rect, scale: grid.scale, request: true) : cache.entryLocked(key)
                let area = TiledArea(rect, bounds)
                column += 1
                guard let shown = area.rect else { continue }
                var alpha = 0.0
                if let e, e.surface != nil { alpha = e.alpha(at: t, fade: fade) }
                if alpha < 1 { drawFallback(cache, key, area: shown, coarsest: coarsest, t: t, fade: fade, d) }
                if alpha > 0, let e, let s = e.surface {
                    drawTileImage(s, tile: e.tile, area: shown, alpha: alpha, d)
                }
            }
            row += 1
        }
    }

    private func drawFallback(_ cache: TileCache, _ key: TileKey, area: Rect, coarsest: Int, t: MediaTime, fade: Double,
                              _ d: OwnContentDrawing) {
        var level = key.level - 1, k = 1
        while level >= coarsest {
            if let e = cache.entryLocked(TileKey(level: level, column: floorShift(key.column, k), row: floorShift(key.row, k))),
               let s = e.surface {
                drawTileImage(s, tile: e.tile, area: area, alpha: e.alpha(at: t, fade: fade), d)
                return
            }
            level -= 1; k += 1
        }
    }

    /// Draws the part `area` (bounds space, inside the tile) of a tile's
    /// drawing. Under an axis-aligned map the area is snapped to whole
    /// target pixels, so neighbouring tiles share their edges exactly (no
    /// seam, no pixel drawn twice); otherwise its projection is shaded with
    /// transparent edges (a faint seam may show between tiles).
    private func drawTileImage(_ s: Surface<ARGB8888>, tile: Tile, area: Rect, alpha: Double, _ d: OwnContentDrawing) {
        let a = unitToByte(alpha * d.opacity)
        guard a > 0 else { return }
        let scale = tile.scale
        let place = AffineTransform(a: 1 / scale, b: 0, c: 0, d: 1 / scale, tx: tile.rect.minX, ty: tile.rect.minY)
        let texelToTarget = ProjectiveTransform(place).concatenating(d.map)
        let unit = PaintRect(x: (area.minX - tile.rect.minX) / tile.rect.width, y: (area.minY - tile.rect.minY) / tile.rect.height,
                             width: area.width / tile.rect.width, height: area.height / tile.rect.height)
        let m = d.map
        if m.isAxisAligned {
            let xa = (m.m00 * area.minX + m.m02).rounded(), xb = (m.m00 * area.maxX + m.m02).rounded()
            let ya = (m.m11 * area.minY + m.m12).rounded(), yb = (m.m11 * area.maxY + m.m12).rounded()
            let limit = 1_073_741_824.0
            guard Swift.abs(xa) < limit, Swift.abs(xb) < limit, Swift.abs(ya) < limit, Swift.abs(yb) < limit else { return }
            let box = IntRect(x: Int(Swift.min(xa, xb)), y: Int(Swift.min(ya, yb)),
                              width: Int(Swift.abs(xb - xa)), height: Int(Swift.abs(yb - ya)))
            let paint = ImagePaint(image: s.view, transform: texelToTarget.affinePart, filter: .bilinear, edge: .clamp,
                                   contentsRect: unit)
            fillPaint(box, paint: paint, operator: d.operator, alpha: a, canvas: d.canvas)
        } else if texelToTarget.isAffine {
            let box = projectedBox(area, m).enclosingIntRect
            let paint = ImagePaint(image: s.view, transform: texelToTarget.affinePart, filter: .bilinear, edge: .transparent,
                                   contentsRect: unit)
            fillPaint(box, paint: paint, operator: d.operator, alpha: a, canvas: d.canvas)
        } else {
            let box = projectedBox(area, m).enclosingIntRect
            let paint = ImagePaint(image: s.view, projective: texelToTarget, filter: .bilinear, edge: .transparent,
                                   contentsRect: unit)
            fillPaint(box, paint: paint, operator: d.operator, alpha: a, canvas: d.canvas)
        }
    }
}

/// A tile's rectangle cut by the layer's bounds (`nil`: they do not meet).
struct TiledArea {
    let rect: Rect?
    init(_ tile: Rect, _ bounds: Rect) {
        let x0 = Swift.max(tile.minX, bounds.minX), y0 = Swift.max(tile.minY, bounds.minY)
        let x1 = Swift.min(tile.maxX, bounds.maxX), y1 = Swift.min(tile.maxY, bounds.maxY)
        rect = x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
