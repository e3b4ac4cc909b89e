import FBRuntime

/// The drag of a `ScrollView`: a pan that decides, on the finger's first
/// `minimumDistance` points, whether this view takes the touch.
///
/// **Nested scroll views are resolved by direction.** When the finger has
/// moved `minimumDistance` from where it landed, the axis it moved most
/// along (the dominant axis of the first movement) is `axis`. The
/// recogniser fails if its view cannot scroll along that axis, or if a
/// scroll view inside it, under the point where the finger landed, can
/// (the innermost scroll view that can move along the axis wins). So a
/// vertical list inside a horizontal pager scrolls the list for an upward
/// drag and turns the page for a sideways one, whatever order the
/// recognisers were added in.
///
/// It also drives the view's time-based side: a finger landing on a
/// moving view catches the content (`ScrollView.catchMotion`), and while a
/// motion runs its `deadline` asks the router for `advance(to:)` once per
/// `ScrollView.frameInterval`, which calls `ScrollView.advance(to:)`.
///
/// The view is found as the recogniser's `layer` (set by
/// `TouchRouter.add`): the view does not hold its recogniser, so there is
/// no reference cycle (the router owns the recogniser, the recogniser the
/// view).
public final class ScrollPanRecognizer: GestureRecognizer {
    /// Points the finger moves before the drag begins and the axis is chosen.
    public var minimumDistance = 10.0
    /// Display points from where the drag began (past `minimumDistance`,
    /// so the content does not jump when it starts following).
    public private(set) var translation = Point.zero
    /// The finger's velocity over the last 0.1 s, display points per second.
    public private(set) var velocity = Point.zero
    /// The dominant axis of the first movement (empty until decided).
    public private(set) var axis: ScrollAxes = []

    private var primary: Int32?
    private var origin = Point.zero
    private var caught = false
    // The last eight samples of the primary finger (a ring, allocated once),
    // as PanGestureRecognizer keeps them.
    private var sampleTimes = [Double](repeating: 0, count: 8)
    private var sampleXs = [Double](repeating: 0, count: 8)
    private var sampleYs = [Double](repeating: 0, count: 8)
    private var sampleCount = 0, nextSample = 0

    /// Seconds of samples the velocity is measured over.
    public static let velocityWindow = 0.1

    public init() { super.init(action: nil) }

    var scrollView: ScrollView? { layer as? ScrollView }

    public override func touchBegan(_ touch: Touch) {
        guard primary == nil else { return }
        primary = touch.id
        sampleCount = 0; nextSample = 0
        addSample(touch)
        caught = scrollView?.catchMotion(at: touch.timestamp) ?? false
        scrollView?.touchCaughtMotion = caught
    }

    public override func touchMoved(_ touch: Touch) {
        guard touch.id == primary, let view = scrollView else { return }
        addSample(touch)
        if state == .possible {
            let dx = touch.location.x - touch.startLocation.x, dy = touch.location.y - touch.startLocation.y
            guard dx * dx + dy * dy >= minimumDistance * minimumDistance else { return }
            axis = Swift.abs(dx) >= Swift.abs(dy) ? .horizontal : .vertical
            if !view.canScroll(axis) || view.hasInnerScrollView(at: touch.startLocation, scrolling: axis) {
                setState(.failed)
                return
            }
            origin = touch.location
            translation = .zero
            view.beginDrag(at: touch.timestamp)
            setState(.began)
        } else {
            translation = Point(x: touch.location.x - origin.x, y: touch.location.y - origin.y)
            view.drag(translation: translationInView(view))
            setState(.changed)
        }
    }

    public override func touchEnded(_ touch: Touch) {
        guard touch.id == primary else { return }
        if state == .possible {
            // A finger that caught a motion and lifted without dragging:
            // the content settles from where it was caught.
            if caught, let view = scrollView { view.endDrag(velocity: .zero, at: touch.timestamp) }
            setState(.failed)
            return
        }
        if let view = scrollView {
            let v = vectorInView(view, velocity)
            view.endDrag(velocity: Point(x: -v.x, y: -v.y), at: touch.timestamp)
        }
        setState(.ended)
    }

    public override func touchCancelled(_ touch: Touch) {
        guard touch.id == primary else { return }
        if state != .possible || caught { scrollView?.cancelDrag(at: touch.timestamp) }
        super.touchCancelled(touch)
    }

    public override var deadline: MediaTime? { scrollView?.nextAdvanceTime }

    public override func timeAdvanced(to time: MediaTime) {
        guard let view = scrollView, let next = view.nextAdvanceTime, time >= next else { return }
        view.advance(to: time)
    }

    public override func reset() {
        primary = nil; caught = false
        translation = .zero; velocity = .zero; axis = []
        sampleCount = 0; nextSample = 0
    }

    /// The translation in the view's bounds space: display points turned
    /// by the view's transforms (scale, rotation), without the offset.
    private func translationInView(_ view: ScrollView) -> Point { vectorInView(view, translation) }

    private func vectorInView(_ view: ScrollView, _ v: Point) -> Point {
        let a = view.convert(Point.zero, from: nil), b = view.convert(v, from: nil)
        let d = Point(x: b.x - a.x, y: b.y - a.y)
        return d.isFinite ? d : v
    }

    private func addSample(_ touch: Touch) {
        let newest = (nextSample + 7) & 7
        if sampleCount > 0, sampleTimes[newest] == touch.timestamp {
            sampleXs[newest] = touch.location.x; sampleYs[newest] = touch.location.y
        } else {
            sampleTimes[nextSample] = touch.timestamp
            sampleXs[nextSample] = touch.location.x; sampleYs[nextSample] = touch.location.y
            nextSample = (nextSample + 1) & 7
            sampleCount = Swift.min(sampleCount + 1, 8)
        }
        velocity = recentVelocity()
    }

    /// Change over the samples of the last `velocityWindow` seconds (the
    /// one before them when only the newest is that recent).
    private func recentVelocity() -> Point {
        guard sampleCount >= 2 else { return .zero }
        let newest = (nextSample + 7) & 7
        let t1 = sampleTimes[newest]
        var oldest = newest
        for k in 1..<sampleCount {
            let i = (newest - k + 8) & 7
            if t1 - sampleTimes[i] > Self.velocityWindow { break }
            oldest = i
        }
        if oldest == newest { oldest = (newest + 7) & 7 }
        let dt = t1 - sampleTimes[oldest]
        guard dt > 0, dt.isFinite else { return .zero }
        return Point(x: (sampleXs[newest] - sampleXs[oldest]) / dt, y: (sampleYs[newest] - sampleYs[oldest]) / dt)
    }
}

extension ScrollView {
    /// Whether a scroll view inside this one, under `location` (display
    /// space, points), can scroll along `axis`. Walks only the sublayers
    /// under the point (model geometry).
    public func hasInnerScrollView(at location: Point, scrolling axis: ScrollAxes) -> Bool {
        ScrollView.findInner(in: self, at: location, axis: axis, depth: 0)
    }

    private static func findInner(in layer: Layer, at location: Point, axis: ScrollAxes, depth: Int) -> Bool {
        guard depth < 64 else { return false }
        for sub in layer.sublayers where !sub.isHidden {
            let p = sub.convert(location, from: nil)
            let b = sub.bounds
            guard p.isFinite, p.x >= b.minX, p.x < b.maxX, p.y >= b.minY, p.y < b.maxY else { continue }
            if let inner = sub as? ScrollView, inner.canScroll(axis) { return true }
            if findInner(in: sub, at: location, axis: axis, depth: depth + 1) { return true }
        }
        return false
    }
}
