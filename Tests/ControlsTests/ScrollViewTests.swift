import FBRuntime
import Foundation
import XCTest
@testable import Controls

/// The scroll view's motions with a manual clock: the oracle is the
/// closed form written out here with libm's exp (deceleration
/// x₀ + v·τ·(1 − e^(−t/τ))), and the finger sequences go through a real
/// `TouchRouter`.
final class ScrollViewTests: ScrollTestCase {
    func testScrollMathAgreesWithLibm() {
        for x in [-30.0, -7.25, -1, -0.1, 0, 1e-9, 0.3, 1, 2.5, 12, 200] {
            XCTAssertEqual(ScrollMath.exp(x), Foundation.exp(x), accuracy: Foundation.exp(x) * 1e-14, "exp(\(x))")
        }
        for x in [1e-12, 0.001, 0.25, 0.7, 1, 1.5, 2, 10, 4242.5, 1e30] {
            XCTAssertEqual(ScrollMath.log(x), Foundation.log(x), accuracy: 1e-13 * Swift.max(1, Swift.abs(Foundation.log(x))), "log(\(x))")
        }
        XCTAssertTrue(ScrollMath.log(-1).isNaN)
        XCTAssertEqual(ScrollMath.exp(-800), 0)
    }

    /// A fling of 1,000 points/s: the offset follows the exponential
    /// deceleration and rests at release + v·τ rounded to a whole point
    /// (the velocity adjusted to land there), on the app side and on
    /// the render side (the keyframes), and the app ticks end with it.
    func testFlingDeceleratesExponentiallyToRest() {
        let view = makeVerticalScrollView(contentHeight: 10_000)
        let router = TouchRouter(root: root)
        view.attach(to: router)
        // 100 points up in 0.1 s: the drag begins at the first 10-point
        // move, so the release offset is 90; the finger's velocity is
        // −1,000 points/s, the content's +1,000.
        drag(router, from: Point(x: 200, y: 250), to: Point(x: 200, y: 150))
        let release = clock.now
        let tau = view.decelerationTimeConstant
        let rest = (90 + 1000 * tau).rounded()   // 589.5 → 590
        let v = (rest - 90) / tau
        XCTAssertEqual(v, 1000, accuracy: 1.0 / tau, "within ½ pt / τ of the release's")
        XCTAssertTrue(view.isDecelerating)
        XCTAssertEqual(view.contentOffset.y, rest, accuracy: 1e-6, "the model offset is where it comes to rest")
        XCTAssertEqual(view.visibleContentOffset(at: release).y, 90, accuracy: 1e-9)
        var previous = 90.0
        for s in [0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0] {
            let expected = 90 + v * tau * (1 - Foundation.exp(-s / tau))
            let y = view.visibleContentOffset(at: release + s).y
            XCTAssertEqual(y, expected, accuracy: 1e-9, "app side at +\(s) s")
            XCTAssertGreaterThan(y, previous)
            previous = y
            guard case let .point(p)? = view.presentationValue(for: .boundsOrigin, at: release + s) else {
                return XCTFail("no bounds origin on screen")
            }
            XCTAssertEqual(p.y, expected, accuracy: 0.5, "render side (keyframes) at +\(s) s")
            XCTAssertEqual(p.x, 0)
        }
        let end = try! XCTUnwrap(view.motionEndTime)
        // Decelerates until the remaining distance v·τ·e^(−t/τ) is a
        // quarter point, t = τ·ln(v·τ / 0.25) ≈ 3.8 s; a short spring with
        // the velocity there (0.5 points/s) ends it on the rest.
        XCTAssertEqual(view.motionY.decelerationDuration, tau * Foundation.log(v * tau / 0.25), accuracy: 1e-9)
        XCTAssertLessThan(end - release - view.motionY.decelerationDuration, 0.4)
        XCTAssertEqual(view.visibleContentOffset(at: end).y, rest, accuracy: 1e-9)
        // The app side follows, one tick per frame, and stops at the end.
        let ticks = runUntilIdle(router)
        XCTAssertEqual(Double(ticks), (end - release) * 60, accuracy: 3)
        XCTAssertFalse(view.isDecelerating)
        XCTAssertEqual(view.visibleContentOffset.y, rest, accuracy: 1e-9)
        XCTAssertNil(router.nextDeadline, "no ticks at rest")
    }

    /// A finger on a moving view catches the content where it is then.
    func testTouchDownCatchesTheMotion() {
        let view = makeVerticalScrollView(contentHeight: 10_000)
        let router = TouchRouter(root: root)
        view.attach(to: router)
        drag(router, from: Point(x: 200, y: 250), to: Point(x: 200, y: 150))
        let onScreen = view.visibleContentOffset(at: clock.now + 0.3).y
        clock.advance(by: 0.3)
        router.handle(TouchEvent(id: 2, phase: .began, location: Point(x: 200, y: 200), timestamp: clock.now))
        XCTAssertFalse(view.isDecelerating)
        XCTAssertEqual(view.contentOffset.y, onScreen, accuracy: 1e-9)
        XCTAssertNil(view.animation(forKey: ScrollView.motionAnimationKey))
        router.handle(TouchEvent(id: 2, phase: .ended, location: Point(x: 200, y: 200), timestamp: clock.now + 0.05))
        XCTAssertEqual(view.contentOffset.y, onScreen, accuracy: 1e-9, "lifted without a drag: stays")
    }

    /// Dragging past the top: the offset follows the rubber band, never
    /// more than the view's height past the edge, and springs back to the
    /// edge exactly, without crossing it.
    func testRubberBandIsBoundedAndSpringsBack() {
        let view = makeVerticalScrollView(contentHeight: 1000)
        let router = TouchRouter(root: root)
        view.attach(to: router)
        // 500 points down (beyond the 200-point view) and held still.
        drag(router, from: Point(x: 200, y: 110), to: Point(x: 200, y: 610), steps: 50, seconds: 0.5, hold: 0.2, lift: false)
        let shown = view.contentOffset.y
        // Raw offset −490 (the drag began 10 points in): shown as
        // −(1 − 1/(490·0.55/200 + 1))·200, on a whole point.
        let expected: Double = (-(1 - 1 / (490 * 0.55 / 200 + 1)) * 200).rounded()
        XCTAssertEqual(shown, expected, accuracy: 1e-9)
        XCTAssertGreaterThan(shown, -200)
        XCTAssertEqual(rubberBandedOffset(-1e9, minimum: 0, maximum: 800, dimension: 200), -200, accuracy: 1e-4)
        let band: Double = (1 - 1 / (50 * 0.55 / 200 + 1)) * 200
        XCTAssertEqual(rubberBandedOffset(850, minimum: 0, maximum: 800, dimension: 200), 800 + band, accuracy: 1e-9)
        XCTAssertEqual(rubberBandedOffset(300, minimum: 0, maximum: 800, dimension: 200), 300)
        router.handle(TouchEvent(id: 1, phase: .ended, location: Point(x: 200, y: 610), timestamp: clock.now))
        let release = clock.now
        XCTAssertEqual(view.contentOffset.y, 0, "rests on the edge")
        let end = try! XCTUnwrap(view.motionEndTime)
        var previous = shown
        var t = release
        while t < end {
            t += 1.0 / 60
            let y = view.visibleContentOffset(at: t).y
            XCTAssertGreaterThanOrEqual(y, previous - 1e-9, "moves back monotonically")
            XCTAssertLessThanOrEqual(y, 1e-9, "never past the edge")
            previous = y
        }
        XCTAssertLessThan(end - release, 1.5, "a critically damped spring at ω = 12 settles in about a second")
        runUntilIdle(router)
        XCTAssertEqual(view.visibleContentOffset.y, 0)
    }

    /// A fast fling into the end: decelerates to the edge, goes past it by
    /// at most the overshoot limit and comes back to rest on it.
    func testFlingIntoTheEndOvershootsBoundedAndRestsOnTheEdge() {
        let view = makeVerticalScrollView(contentHeight: 600)   // maximum offset 400
        let router = TouchRouter(root: root)
        view.attach(to: router)
        drag(router, from: Point(x: 200, y: 290), to: Point(x: 200, y: 110), steps: 6, seconds: 0.06)   // 3,000 points/s
        let release = clock.now
        XCTAssertEqual(view.contentOffset.y, 400)
        let end = try! XCTUnwrap(view.motionEndTime)
        var highest = 0.0
        var t = release
        while t <= end { highest = Swift.max(highest, view.visibleContentOffset(at: t).y); t += 1.0 / 240 }
        XCTAssertGreaterThan(highest, 400, "it bounces")
        XCTAssertLessThanOrEqual(highest, 400 + 0.15 * 200 + 1e-6, "by at most 15 % of the view")
        XCTAssertEqual(view.visibleContentOffset(at: end).y, 400)
        guard case let .point(p)? = view.presentationValue(for: .boundsOrigin, at: end + 0.01) else { return XCTFail() }
        XCTAssertEqual(p.y, 400, "the render side ends on the model value")
    }

    /// Paging: a slow drag under half a page stays, over half moves one
    /// page, a fast flick moves one page at most; always exactly on a page.
    func testPagingLandsOnPageBoundaries() {
        let view = ScrollView()
        view.bounds = Rect(x: 0, y: 0, width: 300, height: 200)
        view.contentSize = Size(width: 1500, height: 200)
        view.isPagingEnabled = true
        view.scrollAxes = .horizontal
        try! root.addSublayer(view)
        let router = TouchRouter(root: root)
        view.attach(to: router)

        drag(router, from: Point(x: 250, y: 100), to: Point(x: 150, y: 100), seconds: 0.5, hold: 0.2)
        XCTAssertEqual(view.contentOffset.x, 0, "90 points: back to page 0")
        runUntilIdle(router)
        drag(router, from: Point(x: 250, y: 100), to: Point(x: 50, y: 100), seconds: 0.5, hold: 0.2)
        XCTAssertEqual(view.contentOffset.x, 300, "190 points: page 1")
        runUntilIdle(router)
        XCTAssertEqual(view.visibleContentOffset.x, 300)
        // A flick of 100 points in 0.03 s (≈ 3,300 points/s) would project
        // pages ahead: one page only.
        drag(router, from: Point(x: 250, y: 100), to: Point(x: 150, y: 100), steps: 3, seconds: 0.03)
        XCTAssertEqual(view.contentOffset.x, 600)
        let end = try! XCTUnwrap(view.motionEndTime)
        XCTAssertEqual(view.visibleContentOffset(at: end).x, 600)
        runUntilIdle(router)
        // At the last page a flick further stays on it.
        view.contentOffset = Point(x: 1200, y: 0)
        drag(router, from: Point(x: 250, y: 100), to: Point(x: 150, y: 100), steps: 3, seconds: 0.03)
        XCTAssertEqual(view.contentOffset.x, 1200)
    }

    /// A motion caught by a finger and let go without a drag settles on
    /// the page nearest to where it was caught (not to where an earlier
    /// drag began).
    func testPagingCaughtMidMotionSettlesOnTheNearestPage() {
        let view = ScrollView()
        view.bounds = Rect(x: 0, y: 0, width: 300, height: 200)
        view.contentSize = Size(width: 1500, height: 200)
        view.isPagingEnabled = true
        view.scrollAxes = .horizontal
        try! root.addSublayer(view)
        let router = TouchRouter(root: root)
        view.attach(to: router)
        drag(router, from: Point(x: 250, y: 100), to: Point(x: 200, y: 100), seconds: 0.5, hold: 0.2)
        runUntilIdle(router)
        XCTAssertEqual(view.contentOffset.x, 0, "an earlier drag from page 0")
        view.scroll(to: Point(x: 1200, y: 0), animated: true)
        var t = clock.now
        while view.visibleContentOffset(at: t).x < 1100 { t += 1.0 / 120 }
        clock.set(t)
        tap(router, at: Point(x: 150, y: 100))
        XCTAssertEqual(view.contentOffset.x, 1200, "caught past 1,050: the nearest page is the last")
        runUntilIdle(router)
        XCTAssertEqual(view.visibleContentOffset.x, 1200)
    }

    /// Snapping to 50 points: the rest is the free deceleration's rest
    /// rounded to a multiple of 50, reached exactly.
    func testSnappingLandsOnTheInterval() {
        let view = makeVerticalScrollView(contentHeight: 10_000)
        view.snapInterval = Size(width: 0, height: 50)
        let router = TouchRouter(root: root)
        view.attach(to: router)
        drag(router, from: Point(x: 200, y: 250), to: Point(x: 200, y: 150))
        let free = 90 + 1000 * view.decelerationTimeConstant   // 589.5
        XCTAssertEqual(view.contentOffset.y, 600)
        XCTAssertEqual(view.contentOffset.y, (free / 50).rounded() * 50)
        let end = try! XCTUnwrap(view.motionEndTime)
        XCTAssertEqual(view.visibleContentOffset(at: end).y, 600)
        XCTAssertEqual(view.visibleContentOffset(at: end - 0.5).y, 600, accuracy: 5, "eases into it")
        XCTAssertEqual(view.landingOffset(from: 0, velocity: -5000, dragStart: 0, axis: .vertical), 0, "clamped to the range")
    }

    /// A snapping fling whose free rest is past the end lands on the end
    /// the way a free fling does: decelerating into it and bouncing by at
    /// most the overshoot limit, not a spring thrown at it with the whole
    /// release velocity.
    func testSnappingFlingIntoTheEndBouncesBounded() {
        let view = makeVerticalScrollView(contentHeight: 600)   // maximum offset 400
        view.snapInterval = Size(width: 0, height: 150)         // 400 is not a multiple: the end is a rest too
        let router = TouchRouter(root: root)
        view.attach(to: router)
        drag(router, from: Point(x: 200, y: 290), to: Point(x: 200, y: 110), steps: 6, seconds: 0.06)   // 3,000 points/s
        XCTAssertEqual(view.contentOffset.y, 400)
        let release = clock.now, end = try! XCTUnwrap(view.motionEndTime)
        var highest = 0.0
        var t = release
        while t <= end { highest = Swift.max(highest, view.visibleContentOffset(at: t).y); t += 1.0 / 240 }
        XCTAssertGreaterThan(highest, 400, "it bounces")
        XCTAssertLessThanOrEqual(highest, 400 + 0.15 * 200 + 1e-6, "by at most 15 % of the view")
        XCTAssertEqual(view.visibleContentOffset(at: end).y, 400)
        // The shared release, as a scene without a scroll view calls it.
        let m = ScrollAxisMotion.release(from: 100, velocity: 3000, target: 400, minimum: 0, maximum: 400, timeConstant: 0.4995,
                                         springFrequency: 12, maximumOvershoot: 30, at: 0)
        XCTAssertEqual(m, .deceleration(from: 100, velocity: 3000, timeConstant: 0.4995, minimum: 0, maximum: 400, at: 0,
                                        springFrequency: 12, maximumOvershoot: 30))
        XCTAssertEqual(ScrollAxisMotion.snapped(1290, interval: 150, minimum: 0, maximum: 400), 400)
        XCTAssertEqual(ScrollAxisMotion.snapped(230, interval: 150, minimum: 0, maximum: 400), 300)
        XCTAssertEqual(ScrollAxisMotion.snapped(.nan, interval: 150, minimum: 0, maximum: 400), 0)
    }

    /// Let go while rubber-banded past the end and still moving outwards
    /// fast: the content goes on past where it was let go by at most about
    /// the overshoot limit, then springs back onto the edge.
    func testReleasePastTheEndMovingOutIsBounded() {
        let m = ScrollAxisMotion.deceleration(from: 450, velocity: 5000, timeConstant: 0.4995, minimum: 0, maximum: 400, at: 0,
                                              springFrequency: 12, maximumOvershoot: 30)
        var highest = 0.0
        var t = 0.0
        while t <= m.duration { highest = Swift.max(highest, m.value(at: t)); t += 1.0 / 240 }
        XCTAssertGreaterThan(highest, 450)
        XCTAssertLessThanOrEqual(highest, 450 + 30 + 1e-6)
        XCTAssertEqual(m.value(at: m.endTime), 400)
    }

    /// A finger catches content moved by the app's own animation of the
    /// offset (an attract-mode drift) where it is on screen, and the
    /// animation is gone; lifted without a drag, it snaps.
    func testTouchDownCatchesAnAppAnimationOfTheOffset() {
        let view = makeVerticalScrollView(contentHeight: 2000)
        view.snapInterval = Size(width: 0, height: 100)
        let router = TouchRouter(root: root)
        view.attach(to: router)
        var drift = BasicAnimation(key: .boundsOriginY, from: .scalar(0), to: .scalar(1000), duration: 10)
        drift.repeatCount = .infinity
        view.add(drift, forKey: "drift", at: clock.now)
        clock.set(clock.now + 3.33)   // linear: 333 points down
        router.handle(TouchEvent(id: 1, phase: .began, location: Point(x: 200, y: 200), timestamp: clock.now))
        XCTAssertNil(view.animation(forKey: "drift"))
        XCTAssertTrue(view.touchCaughtMotion)
        XCTAssertEqual(view.contentOffset.y, 333, accuracy: 1e-6, "caught where it was on screen")
        router.handle(TouchEvent(id: 1, phase: .ended, location: Point(x: 200, y: 200), timestamp: clock.now + 0.05))
        XCTAssertEqual(view.contentOffset.y, 300, "and lands on the nearest snap")
        // A view with no such animation catches nothing.
        let still = makeVerticalScrollView(contentHeight: 2000)
        XCTAssertFalse(still.catchMotion(at: clock.now))
        // Nor does a view whose size animates (layout's implicit `bounds`
        // action) with its origin still: that is no motion of the
        // content, and a tap must reach it. The size animation stays.
        let resized = makeVerticalScrollView(contentHeight: 2000)
        var grow = BasicAnimation(key: .bounds, from: .rect(resized.bounds),
                                  to: .rect(Rect(x: 0, y: 0, width: resized.bounds.width, height: resized.bounds.height + 40)),
                                  duration: 0.25)
        grow.fillMode = .both
        resized.add(grow, forKey: "bounds", at: clock.now)
        XCTAssertFalse(resized.catchMotion(at: clock.now + 0.1))
        XCTAssertNotNil(resized.animation(forKey: "bounds"))
    }

    /// Indicators: shown while moving, kept `indicatorFadeDelay` after the
    /// rest, then faded out linearly over `indicatorFadeDuration`.
    func testIndicatorOpacityOverTime() {
        let view = makeVerticalScrollView(contentHeight: 2000)
        let router = TouchRouter(root: root)
        view.attach(to: router)
        XCTAssertEqual(view.indicatorOpacity(vertical: true, at: clock.now), 0, "hidden at rest")
        drag(router, from: Point(x: 200, y: 250), to: Point(x: 200, y: 150), lift: false)
        XCTAssertEqual(view.indicatorOpacity(vertical: true, at: clock.now), 1, "shown while dragging")
        router.handle(TouchEvent(id: 1, phase: .ended, location: Point(x: 200, y: 150), timestamp: clock.now))
        let end = try! XCTUnwrap(view.motionEndTime)
        XCTAssertEqual(view.indicatorOpacity(vertical: true, at: clock.now + 0.5), 1)
        XCTAssertEqual(view.indicatorOpacity(vertical: true, at: end + 0.49), 1)
        XCTAssertEqual(view.indicatorOpacity(vertical: true, at: end + 0.5 + 0.15), 0.5, accuracy: 0.01)
        XCTAssertEqual(view.indicatorOpacity(vertical: true, at: end + 0.5 + 0.3 + 0.01), 0)
        XCTAssertFalse(view.verticalIndicator.isHidden)
        XCTAssertTrue(view.horizontalIndicator.isHidden, "the content fits horizontally")
        // At rest the indicator is 200/2000 of the track long, along the
        // right edge, at the offset's share of the track.
        runUntilIdle(router)
        let y = view.contentOffset.y
        let track = 200 - 2 * 2.0 - 3
        let frame = view.verticalIndicator.frame
        XCTAssertEqual(frame.height, track * 200 / 2000, accuracy: 1e-9)
        XCTAssertEqual(frame.minX, 300 - 2 - 3)
        XCTAssertEqual(frame.minY, y + 2 + (y / 1800) * (track - frame.height), accuracy: 1e-9)
        // On the render side the indicator rides with the content.
        guard case let .point(p)? = view.verticalIndicator.presentationValue(for: .position, at: end + 1) else { return XCTFail() }
        XCTAssertEqual(p.y, frame.minY, accuracy: 1e-9)
    }

    /// A vertical scroll view inside a horizontal one: the dominant axis
    /// of the first movement picks which one scrolls, in either order of
    /// attaching.
    func testNestedScrollViewsResolveByDirection() {
        for innerFirst in [true, false] {
            let outer = ScrollView(name: "pager")
            outer.bounds = Rect(x: 0, y: 0, width: 300, height: 200)
            outer.contentSize = Size(width: 900, height: 200)
            outer.scrollAxes = .horizontal
            let inner = ScrollView(name: "list")
            inner.bounds = Rect(x: 0, y: 0, width: 300, height: 200)
            inner.contentSize = Size(width: 300, height: 1000)
            inner.scrollAxes = .vertical
            try! outer.addContentSublayer(inner)
            let scene = Layer(name: "scene")
            scene.anchorPoint = .zero
            scene.bounds = Rect(x: 0, y: 0, width: 300, height: 200)
            try! scene.addSublayer(outer)
            let router = TouchRouter(root: scene)
            if innerFirst { inner.attach(to: router); outer.attach(to: router) } else { outer.attach(to: router); inner.attach(to: router) }

            // Mostly up (dy −100, dx −30): the list scrolls, the pager not.
            drag(router, from: Point(x: 150, y: 150), to: Point(x: 120, y: 50), seconds: 0.5, hold: 0.2)
            XCTAssertEqual(inner.contentOffset.y, 90, accuracy: 1e-9, "inner follows the finger from where the drag began (\(innerFirst))")
            XCTAssertEqual(outer.contentOffset.x, 0, "outer stays (\(innerFirst))")
            runUntilIdle(router)
            let listOffset = inner.contentOffset.y
            // Mostly sideways: the pager scrolls, the list not.
            drag(router, from: Point(x: 250, y: 100), to: Point(x: 100, y: 130), seconds: 0.5, hold: 0.2)
            XCTAssertGreaterThan(outer.contentOffset.x, 100, "outer follows (\(innerFirst))")
            XCTAssertEqual(inner.contentOffset.y, listOffset, "inner stays (\(innerFirst))")
            runUntilIdle(router)
        }
    }

    /// `scroll(to:animated:)`: a spring from where it is to the clamped
    /// target, ending exactly there; unanimated it is there at once.
    func testScrollToAnimated() {
        let view = makeVerticalScrollView(contentHeight: 1000)
        let t0 = clock.now
        view.scroll(to: Point(x: 0, y: 500), animated: true)
        XCTAssertEqual(view.contentOffset.y, 500)
        let end = try! XCTUnwrap(view.motionEndTime)
        let mid = view.visibleContentOffset(at: t0 + 0.1).y
        // Critically damped from 0 at rest: 500·(1 − (1 + ω·t)·e^(−ω·t)).
        XCTAssertEqual(mid, 500 * (1 - (1 + 1.2) * Foundation.exp(-1.2)), accuracy: 1e-9)
        XCTAssertEqual(view.visibleContentOffset(at: end).y, 500)
        view.scroll(to: Point(x: 0, y: 5000), animated: false)
        XCTAssertEqual(view.contentOffset.y, 800, "clamped to the content")
        XCTAssertFalse(view.isDecelerating)
    }
}
