import FBRuntime

/// The axes a scroll view may move along.
public struct ScrollAxes: OptionSet, Equatable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let horizontal = ScrollAxes(rawValue: 1)
    public static let vertical = ScrollAxes(rawValue: 2)
    public static let both: ScrollAxes = [.horizontal, .vertical]
}

/// A layer that shows a window onto larger content and lets a finger move
/// it (UIScrollView over CAScrollLayer's model): the content is the
/// layer's sublayers, laid out in its bounds space, and **`bounds.origin`
/// is the content offset** — the point of the content at the view's
/// top-left corner. Scrolling changes nothing but `bounds.origin`, so it
/// costs one property per frame whatever the content.
///
/// A pan moves the content with the finger (rubber-banded past the ends
/// when `bounces`); released, it goes on with momentum — exponential
/// deceleration from the pan's velocity (`ScrollAxisMotion`) — and a
/// fling into an end bounces back with a critically damped spring.
/// `isPagingEnabled` lands on multiples of the view's size,
/// `snapInterval` on multiples of an interval. Indicators fade in while
/// the content moves and out `indicatorFadeDelay` seconds after it rests.
///
/// **Who moves it after the finger lets go.** Each motion is a closed form
/// of time. The model `bounds.origin` is set at once to where the motion
/// comes to rest (`contentOffset`), and the way there is handed to the
/// render thread as a keyframe animation of `boundsOrigin` sampled from
/// the same curve (every 1/60 s; the piecewise-linear error is below ½
/// point for a 5,000 points/s fling), with the indicators' positions and
/// their fade-out. So a blocked app thread does not freeze a fling: the
/// render thread finishes it, as the demos' springs do. The app side
/// follows the same curve through `advance(to:)` — called by the scroll
/// recogniser's deadline once per `frameInterval` while a motion runs — for
/// what only it can do: `ListView` reuses cells for the offset on screen
/// (`visibleContentOffset(at:)`), and `onScroll` is told. A blocked app
/// thread therefore delays new list rows, not the motion.
///
/// Coordinates: everything is in points; `contentOffset`, `contentSize`
/// and sublayer frames in the view's bounds space (the content's), touch
/// locations in display space as the router gives them. A new view has
/// `anchorPoint` (0, 0), so its `position` is its top-left corner in the
/// superlayer, and `masksToBounds` on.
///
/// Invariants: at rest (no finger, no motion) `contentOffset` is within
/// `minimumContentOffset…maximumContentOffset` on the scrollable axes
/// unless the app set it outside itself; a motion always ends exactly on
/// its target.
///
/// Threading: the app thread, like the layer tree and the router.
open class ScrollView: Layer {
    /// The size of the content, points. The offset ranges over it plus
    /// `contentInset` minus the view's size.
    public var contentSize: Size = .zero { didSet { layOutIndicators(at: visibleContentOffset) } }
    /// Room around the content, points: the offset may go to
    /// `-contentInset.top` at the top (pull to refresh uses it).
    public var contentInset: EdgeInsets = .zero
    /// The axes a finger may scroll (default both; an axis scrolls only if
    /// the content is larger than the view or it always bounces).
    public var scrollAxes: ScrollAxes = .both
    /// Scroll along an axis even when the content fits (a list that is
    /// short still rubber-bands).
    public var alwaysBouncesHorizontally = false
    public var alwaysBouncesVertically = false
    /// Rubber band past the ends while dragging and a bounce when a fling
    /// hits one; without it the offset stops at the ends.
    public var bounces = true
    /// A fling lands on a multiple of the view's size, at most one page
    /// from where the drag began.
    public var isPagingEnabled = false
    /// A fling lands on a multiple of this interval, per axis (points; 0:
    /// no snapping on that axis). Ignored when paging.
    public var snapInterval: Size = .zero
    /// The deceleration's time constant τ, seconds: a release at `v` goes
    /// on `v·τ` points. The default is UIKit's normal rate (0.998 of the
    /// velocity kept per millisecond); 0.1 is UIKit's fast rate.
    public var decelerationTimeConstant = ScrollAxisMotion.normalDecelerationTimeConstant
    /// The bounce and spring-back's angular frequency ω, radians per
    /// second (critically damped: ~4.7/ω seconds to settle).
    public var springFrequency = ScrollAxisMotion.defaultSpringFrequency
    /// The farthest past an end a fling's bounce goes, as a fraction of the
    /// view's size on that axis.
    public var maximumOvershootFraction = ScrollAxisMotion.defaultMaximumOvershootFraction
    /// Seconds between app-side updates while a motion runs (`advance`).
    public var frameInterval = 1.0 / 60
    /// Called on the app thread whenever the offset on screen changes
    /// because of the finger, a motion step or `scroll(to:animated:)`; the
    /// view is the argument (capture nothing that owns it).
    public var onScroll: ((ScrollView) -> Void)?

    // Indicators.
    /// Show the indicators while scrolling.
    public var showsScrollIndicators = true
    public var indicatorColor = Color(red: 0, green: 0, blue: 0, alpha: 0.45) {
        didSet { for i in [horizontalIndicator, verticalIndicator] { i.backgroundColor = indicatorColor } }
    }
    /// Thickness of an indicator and its distance from the view's edges, points.
    public var indicatorThickness = 3.0
    public var indicatorInset = 2.0
    /// The shortest an indicator gets (rubber-banded or for huge content), points.
    public var indicatorMinimumLength = 12.0
    /// Seconds the indicators stay after the content comes to rest, and
    /// the seconds their fade-out takes.
    public var indicatorFadeDelay = 0.5
    public var indicatorFadeDuration = 0.3
    /// The indicators, sublayers of the view placed in content space over
    /// the content (insert content below them: `addContentSublayer`).
    public let horizontalIndicator = Layer(name: "horizontal scroll indicator")
    public let verticalIndicator = Layer(name: "vertical scroll indicator")

    /// A finger is dragging the content.
    public final internal(set) var isTracking = false
    /// The app-side offset as of the last change or `advance(to:)`: what
    /// is on screen at that time, points.
    public final internal(set) var visibleContentOffset: Point = .zero

    /// The touch down now (or the last one) landed on moving content and
    /// stopped it: a tap that only catches a fling selects nothing.
    public final internal(set) var touchCaughtMotion = false

    // `final` for the internal members: in Embedded Swift an internal
    // non-final member of an open class gets a dead-method stub in every
    // client module that uses the class (the browser demo), a duplicate
    // symbol at the aarch64 link.
    final var motionX = ScrollAxisMotion.resting(at: 0)
    final var motionY = ScrollAxisMotion.resting(at: 0)
    final var isMoving = false
    final var dragStartOffset: Point = .zero
    final var lastAdvance: MediaTime = 0

    /// Animation keys the view uses on itself and its indicators.
    public static let motionAnimationKey = "scroll"
    public static let indicatorFadeKey = "scroll indicator fade"

    public override init(name: String = "scroll view") {
        super.init(name: name)
        masksToBounds = true
        anchorPoint = .zero
        for i in [horizontalIndicator, verticalIndicator] {
            i.backgroundColor = indicatorColor
            i.cornerRadius = indicatorThickness / 2
            i.anchorPoint = .zero
            i.opacity = 0
            try? addSublayer(i)
        }
    }

    // MARK: Offsets

    /// The content offset, points, in the view's bounds space: the model
    /// value, where the content is at rest or will come to rest when a
    /// motion under way ends. Setting it stops any motion and moves the
    /// content there without animation (not clamped).
    public var contentOffset: Point {
        get { bounds.origin }
        set { setContentOffset(newValue, animated: false) }
    }

    /// The smallest offset: the content's top-left corner inset by
    /// `contentInset`, points.
    public var minimumContentOffset: Point { Point(x: -contentInset.left, y: -contentInset.top) }
    /// The largest offset: the content's far edges (plus inset) at the
    /// view's far edges, never below the minimum, points.
    public var maximumContentOffset: Point {
        let lo = minimumContentOffset
        return Point(x: Swift.max(lo.x, contentSize.width + contentInset.right - bounds.width),
                     y: Swift.max(lo.y, contentSize.height + contentInset.bottom - bounds.height))
    }

    /// Whether a finger can scroll along `axis` (one axis): it is in
    /// `scrollAxes` and the content is larger than the view on it, or the
    /// view always bounces on it.
    public func canScroll(_ axis: ScrollAxes) -> Bool {
        guard scrollAxes.contains(axis) else { return false }
        if axis == .horizontal {
            return alwaysBouncesHorizontally || maximumContentOffset.x > minimumContentOffset.x
        }
        return alwaysBouncesVertically || maximumContentOffset.y > minimumContentOffset.y
    }

    /// Where the content is on screen at media time `time`, points: the
    /// motion under way evaluated there, else `contentOffset`.
    public func visibleContentOffset(at time: MediaTime) -> Point {
        guard isMoving else { return contentOffset }
        return Point(x: motionX.value(at: time), y: motionY.value(at: time))
    }

    /// A motion (fling, bounce, page, `scroll(to:animated:)`) is under way.
    public var isDecelerating: Bool { isMoving }

    /// When the motion under way comes to rest, media time; nil at rest.
    public var motionEndTime: MediaTime? { isMoving ? Swift.max(motionX.endTime, motionY.endTime) : nil }

    /// Moves the content so `offset` is at the view's top-left corner,
    /// clamped to the offset range: at once, or with a critically damped
    /// spring from where it is on screen (and how fast it moves there).
    /// `time` is the media time it starts (default: the run loop's now).
    public func scroll(to offset: Point, animated: Bool, at time: MediaTime? = nil) {
        let t = time ?? AppRunLoop.current.now
        let clamped = clampedOffset(offset)
        guard animated else { setContentOffset(clamped, animated: false); return }
        let from = visibleContentOffset(at: t)
        let vx = isMoving ? motionX.velocity(at: t) : 0, vy = isMoving ? motionY.velocity(at: t) : 0
        start(x: .spring(from: from.x, velocity: vx, to: clamped.x, at: t, frequency: springFrequency),
              y: .spring(from: from.y, velocity: vy, to: clamped.y, at: t, frequency: springFrequency), at: t)
    }

    /// `offset` within the offset range on both axes.
    public func clampedOffset(_ offset: Point) -> Point {
        let lo = minimumContentOffset, hi = maximumContentOffset
        return Point(x: Swift.min(Swift.max(offset.x.isFinite ? offset.x : lo.x, lo.x), hi.x),
                     y: Swift.min(Swift.max(offset.y.isFinite ? offset.y : lo.y, lo.y), hi.y))
    }

    final func setContentOffset(_ offset: Point, animated: Bool) {
        stopMotion()
        setModelOffset(offset)
        visibleOffsetDidChange(offset)
    }

    final func setModelOffset(_ offset: Point) {
        guard bounds.origin != offset else { return }
        withoutImplicitAnimations { bounds.origin = offset }
    }

    /// Lets the app side follow a motion to media time `time`: updates
    /// `visibleContentOffset`, tells `onScroll` (and a subclass, through
    /// `visibleOffsetDidChange`), and ends the motion once it rests. The
    /// scroll recogniser calls it once per `frameInterval` while a motion
    /// runs; call it yourself for a view without one.
    public func advance(to time: MediaTime) {
        guard isMoving, time.isFinite else { return }
        lastAdvance = time
        let offset = visibleContentOffset(at: time)
        if time >= motionEndTime ?? time { isMoving = false }
        // No transaction of its own: what a step changes (list cells) does
        // not animate implicitly, and a transaction per frame allocates.
        visibleOffsetDidChange(offset)
    }

    /// When `advance(to:)` is next wanted (media time), nil when no motion
    /// runs.
    public var nextAdvanceTime: MediaTime? {
        guard let end = motionEndTime else { return nil }
        return Swift.min(lastAdvance + frameInterval, end)
    }

    /// The offset on screen changed to `offset` (app side). Subclasses
    /// extend it (call super); the default updates the indicators and calls
    /// `onScroll`.
    open func visibleOffsetDidChange(_ offset: Point) {
        visibleContentOffset = offset
        if !isMoving { layOutIndicators(at: offset) }
        onScroll?(self)
    }

    /// Attaches a `ScrollPanRecognizer` for this view to `router` and
    /// returns it (to tune, or to remove with `router.remove`). Subclasses
    /// add their own recognisers (call super).
    @discardableResult
    open func attach(to router: TouchRouter) -> ScrollPanRecognizer {
        let pan = ScrollPanRecognizer()
        router.add(pan, to: self)
        return pan
    }

    /// The finger is about to let go at media time `time` (app side),
    /// before the release motion is chosen: a subclass may change the
    /// offset range here (pull to refresh holds its spinner in view by
    /// `contentInset`). The default does nothing.
    open func willEndDrag(at time: MediaTime) {}

    /// Adds `layer` to the content, below the indicators.
    public func addContentSublayer(_ layer: Layer) throws(LayerTreeError) {
        try insertSublayer(layer, below: horizontalIndicator)
    }
}
