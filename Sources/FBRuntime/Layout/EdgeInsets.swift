/// Distances inward from the four edges of a rectangle, points (a stack's
/// padding). Named by coordinates: `top` is the minY edge (the top on
/// screen unless the layer is geometry-flipped), `left` the minX edge.
public struct EdgeInsets: Equatable, Sendable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// The same inset on all four edges.
    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
    public static let zero = EdgeInsets()

    /// `rect` made smaller by the insets (each clamped as a length; the
    /// result never has a negative size: it collapses at the middle).
    public func inset(_ rect: Rect) -> Rect {
        let l = LayoutLimits.clampLength(left), r = LayoutLimits.clampLength(right)
        let t = LayoutLimits.clampLength(top), b = LayoutLimits.clampLength(bottom)
        let w = Swift.max(0, rect.width - l - r), h = Swift.max(0, rect.height - t - b)
        let x = rect.width - l - r >= 0 ? rect.minX + l : rect.minX + rect.width / 2
        let y = rect.height - t - b >= 0 ? rect.minY + t : rect.minY + rect.height / 2
        return Rect(x: x, y: y, width: w, height: h)
    }
}
