import Raster

// A group whose image shadow comes from far away: two small passes instead
// of one spanning both places.

extension Compositor {
    /// `drawGroup` for an image shadow cast from far off the clip (an
    /// offset many times the clip's size): the image is needed in two
    /// places, around the clip (where it is composited) and around the clip
    /// moved back by the shadow's offset (where the shadow that falls into
    /// the clip comes from), and one pass over both spans everything in
    /// between. When that pass would be more than twice the two places
    /// together, the layer is rendered twice instead: a pass over the
    /// shadow's source that draws only the shadow, then one over the clip
    /// that draws only the image. Each pixel gets what the single pass
    /// gives it (the passes differ by whole-pixel shifts, and the shadow
    /// reads the image only inside its source either way).
    ///
    /// The animation fuzzer found the single pass at 796×9,538 pixels, a
    /// 256-pixel blur over all of it, for a 24×24 target (and up to
    /// `RasterLimits.maxPixels`); now that case is two passes of about
    /// 796×796 and 24×24.
    ///
    /// - Returns: false when one pass is not much larger (nothing drawn:
    ///   the caller makes it).
    /// `filterMargin` (target pixels): what the layer's filters spread its
    /// image; both parts are grown by it.
    func drawGroupSplit(_ r: ResolvedLayer, shadow: ShadowPlan, _ g: ImageShadowGeometry, filterMargin: Int = 0, bounds: IntRect,
                        region: IntRect, opacity: Double, canvas: Canvas, depth: Int) -> Bool {
        let imagePart = bounds.intersection(canvas.clip.insetBy(-filterMargin))
        let shadowPart = bounds.intersection(canvas.clip.insetBy(-g.margin - filterMargin).offsetBy(-g.dx, -g.dy))
        guard region.area > 2 * (imagePart.area + shadowPart.area) else { return false }
        if !shadowPart.isEmpty {
            drawGroupPass(r, region: shadowPart, shadow: shadow, g, image: false, opacity: opacity, canvas: canvas, depth: depth)
        }
        if !imagePart.isEmpty {
            drawGroupPass(r, region: imagePart, shadow: nil, nil, image: true, opacity: opacity, canvas: canvas, depth: depth)
        }
        return true
    }
}
