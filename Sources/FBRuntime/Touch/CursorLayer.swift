import Raster

/// The optional pointer cursor (issue on touch: pointer devices act as one
/// touch "and can show an optional cursor layer"): an arrow whose tip is
/// the layer's position, drawn above everything (`zPosition`
/// `CursorLayer.zPosition`), hidden until the pointer first moves. Add it
/// to the root and feed it the pointer's location in UI points
/// (`TouchEventMapper.cursorLocation(_:)` gives it from libinput's events).
/// Moves never animate (a cursor must follow the hand at once).
public final class CursorLayer: ShapeLayer {
    /// Above any layer an app is likely to use.
    public static let cursorZPosition = 1_000_000.0

    /// `size`: the arrow's height in points.
    public init(size: Double = 20) {
        super.init(name: "cursor")
        let s = size.isFinite && size > 0 ? size : 20
        bounds = Rect(x: 0, y: 0, width: s * 0.7, height: s)
        anchorPoint = .zero
        zPosition = CursorLayer.cursorZPosition
        var arrow = Path()
        arrow.move(to: PathPoint(x: 0, y: 0))
        arrow.line(to: PathPoint(x: 0, y: s * 0.8))
        arrow.line(to: PathPoint(x: s * 0.22, y: s * 0.62))
        arrow.line(to: PathPoint(x: s * 0.38, y: s))
        arrow.line(to: PathPoint(x: s * 0.5, y: s * 0.94))
        arrow.line(to: PathPoint(x: s * 0.34, y: s * 0.58))
        arrow.line(to: PathPoint(x: s * 0.6, y: s * 0.58))
        arrow.close()
        path = arrow
        fillColor = .white
        strokeColor = .black
        lineWidth = 1
        isHidden = true
    }

    /// Puts the tip at `point` (the root's space, points) and shows the
    /// cursor; non-finite points are ignored. No action runs.
    public func move(to point: Point) {
        guard point.isFinite else { return }
        Transaction.withoutActions {
            position = point
            isHidden = false
        }
    }

    /// Never hit: touches and clicks go to what is under the arrow.
    public override func contains(_ point: Point) -> Bool { false }

    /// Hides the cursor (the pointer went away). No action runs.
    public func hide() { Transaction.withoutActions { isHidden = true } }
}
