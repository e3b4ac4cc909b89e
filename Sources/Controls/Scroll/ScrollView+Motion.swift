import FBRuntime

extension ScrollView {
    // MARK: The finger (called by ScrollPanRecognizer)

    /// A finger landed at media time `time`: the content stops where it is
    /// on screen then (the finger catches it) — a motion under way, or an
    /// animation of `bounds.origin` the app added itself (an attract-mode
    /// drift: `BasicAnimation`, `KeyframeAnimation` or `SpringAnimation` of
    /// `bounds`, `bounds.origin` or one of its coordinates), which is
    /// removed. Returns whether it caught anything.
    @discardableResult
    func catchMotion(at time: MediaTime) -> Bool {
        let offset: Point
        if isMoving {
            offset = visibleContentOffset(at: time)
            stopMotion()
        } else {
            guard let onScreen = removeAppOffsetAnimations(at: time) else { return false }
            offset = onScreen
        }
        setModelOffset(offset)
        dragStartOffset = offset   // a lift without a drag pages from here
        visibleOffsetDidChange(offset)
        showIndicators()
        return true
    }

    /// Removes the app's own animations of the offset (not the view's
    /// motion) and returns the offset they showed at `time`; nil when
    /// there were none. An animation of the whole `bounds` counts only
    /// while it moves the origin: a size change animated by layout (an
    /// implicit `bounds` action) is no motion of the content, and a tap
    /// on a list that was just laid out must reach its rows.
    private func removeAppOffsetAnimations(at time: MediaTime) -> Point? {
        var originKeys: [String] = [], boundsKeys: [String] = []
        for (key, animation) in animations where key != ScrollView.motionAnimationKey {
            let animated: AnimatableKey?
            switch animation {
            case let .basic(a): animated = a.key
            case let .keyframe(a): animated = a.key
            case let .spring(a): animated = a.key
            default: animated = nil
            }
            switch animated {
            case .boundsOrigin?, .boundsOriginX?, .boundsOriginY?: originKeys.append(key)
            case .bounds?: boundsKeys.append(key)
            default: break
            }
        }
        guard !originKeys.isEmpty || !boundsKeys.isEmpty else { return nil }
        var onScreen = contentOffset
        if case let .point(p)? = presentationValue(for: .boundsOrigin, at: time), p.isFinite { onScreen = p }
        if originKeys.isEmpty && onScreen == contentOffset { return nil }
        for key in originKeys { removeAnimation(forKey: key) }
        if onScreen != contentOffset { for key in boundsKeys { removeAnimation(forKey: key) } }
        return onScreen
    }

    /// The drag began: it moves the content from where it is on screen.
    func beginDrag(at time: MediaTime) {
        let offset = visibleContentOffset(at: time)
        stopMotion()
        setModelOffset(offset)
        dragStartOffset = offset
        isTracking = true
        showIndicators()
    }

    /// The finger is `translation` (display points, along the view's axes)
    /// from where it landed: the content follows it, rubber-banded past
    /// the ends (or stopped at them without `bounces`), on whole points
    /// (whole pixels at integer scales, as UIKit's scroll views keep their
    /// offset on pixels: a drag that caught a fling at a fractional offset
    /// would otherwise draw its text at a new fraction, every glyph's mask
    /// made anew; the content lags the finger by at most half a point).
    func drag(translation: Point) {
        let lo = minimumContentOffset, hi = maximumContentOffset
        var offset = dragStartOffset
        if canScroll(.horizontal) {
            let raw = dragStartOffset.x - translation.x
            offset.x = (bounces ? rubberBandedOffset(raw, minimum: lo.x, maximum: hi.x, dimension: bounds.width)
                                : Swift.min(Swift.max(raw, lo.x), hi.x)).rounded()
        }
        if canScroll(.vertical) {
            let raw = dragStartOffset.y - translation.y
            offset.y = (bounces ? rubberBandedOffset(raw, minimum: lo.y, maximum: hi.y, dimension: bounds.height)
                                : Swift.min(Swift.max(raw, lo.y), hi.y)).rounded()
        }
        withoutImplicitAnimations {
            setModelOffset(offset)
            visibleOffsetDidChange(offset)
        }
    }

    /// The finger let go at media time `time` moving the content at
    /// `velocity` (points of offset per second: the opposite of the
    /// finger's). Starts the motion: deceleration, a page, a snap or a
    /// spring back.
    func endDrag(velocity: Point, at time: MediaTime) {
        willEndDrag(at: time)
        isTracking = false
        let from = contentOffset
        let vx = canScroll(.horizontal) ? velocity.x : 0, vy = canScroll(.vertical) ? velocity.y : 0
        let mx = releaseMotion(from: from.x, velocity: vx, start: dragStartOffset.x, axis: .horizontal, at: time)
        let my = releaseMotion(from: from.y, velocity: vy, start: dragStartOffset.y, axis: .vertical, at: time)
        start(x: mx, y: my, at: time)
    }

    /// Where a release on one axis goes (see `endDrag`): the shared
    /// `ScrollAxisMotion.release`, with a target when paging or snapping.
    func releaseMotion(from offset: Double, velocity v: Double, start: Double, axis: ScrollAxes,
                       at time: MediaTime) -> ScrollAxisMotion {
        let horizontal = axis == .horizontal
        let lo = horizontal ? minimumContentOffset.x : minimumContentOffset.y
        let hi = horizontal ? maximumContentOffset.x : maximumContentOffset.y
        let size = horizontal ? bounds.width : bounds.height
        let tau = decelerationTimeConstant > 0 ? decelerationTimeConstant : ScrollAxisMotion.normalDecelerationTimeConstant
        let lands = isPagingEnabled || (horizontal ? snapInterval.width : snapInterval.height) > 0
        let target = lands ? landingOffset(from: offset, velocity: v, dragStart: start, axis: axis) : nil
        return .release(from: offset, velocity: v, target: target, minimum: lo, maximum: hi, timeConstant: tau,
                        springFrequency: springFrequency, maximumOvershoot: bounces ? size * maximumOvershootFraction : 0,
                        at: time)
    }

    /// Where a paging or snapping release on `axis` lands, points: the
    /// free deceleration's rest rounded to the nearest page (at most one
    /// page from `dragStart`'s) or snap interval, within the offset range.
    public func landingOffset(from offset: Double, velocity v: Double, dragStart: Double, axis: ScrollAxes) -> Double {
        let horizontal = axis == .horizontal
        let lo = horizontal ? minimumContentOffset.x : minimumContentOffset.y
        let hi = horizontal ? maximumContentOffset.x : maximumContentOffset.y
        let projected = ScrollAxisMotion.projectedRest(from: offset, velocity: v, timeConstant: decelerationTimeConstant)
        guard isPagingEnabled else {
            return ScrollAxisMotion.snapped(projected, interval: horizontal ? snapInterval.width : snapInterval.height,
                                            minimum: lo, maximum: hi)
        }
        let page = Swift.max(horizontal ? bounds.width : bounds.height, 1)
        let startPage = (dragStart / page).rounded()
        let p = Swift.min(Swift.max((projected / page).rounded(), startPage - 1), startPage + 1)
        return ScrollAxisMotion.snapped(p * page, interval: 0, minimum: lo, maximum: hi)
    }

    /// The drag was cancelled: back within range from where it is.
    func cancelDrag(at time: MediaTime) {
        endDrag(velocity: .zero, at: time)
    }

    // MARK: Motions

    /// Runs a motion per axis from media time `time`: the model offset goes
    /// to the motions' targets, the render thread gets the way there as
    /// keyframes (view and indicators), the indicators' fade-out is
    /// scheduled for after the end. A motion of no length just sets the
    /// offset.
    func start(x: ScrollAxisMotion, y: ScrollAxisMotion, at time: MediaTime) {
        stopMotion()
        let target = Point(x: x.target, y: y.target)
        let duration = Swift.max(x.duration, y.duration)
        setModelOffset(target)
        guard duration > 0 else {
            visibleOffsetDidChange(target)
            layOutIndicators(at: target)
            scheduleIndicatorFade(after: time)
            return
        }
        motionX = x
        motionY = y
        isMoving = true
        lastAdvance = time
        showIndicators()
        addMotionKeyframes(duration: duration, at: time)
        layOutIndicators(at: target)   // the model values: where they rest
        scheduleIndicatorFade(after: time + duration)
        visibleOffsetDidChange(visibleContentOffset(at: time))
    }

    /// Stops a motion under way where the model says (the caller sets the
    /// model offset first when it wants another).
    func stopMotion() {
        guard isMoving else { return }
        isMoving = false
        removeAnimation(forKey: ScrollView.motionAnimationKey)
        horizontalIndicator.removeAnimation(forKey: ScrollView.motionAnimationKey)
        verticalIndicator.removeAnimation(forKey: ScrollView.motionAnimationKey)
    }

    /// The motion sampled every 1/60 s for the render thread: the
    /// view's `boundsOrigin`, and each indicator's `position`.
    private func addMotionKeyframes(duration: Double, at time: MediaTime) {
        let steps = Swift.min(Swift.max(Int((duration * 60).rounded(.up)), 1), 600)
        var values: [AnimatableValue] = []
        values.reserveCapacity(steps + 1)
        for i in 0...steps {
            let t = time + duration * Double(i) / Double(steps)
            values.append(.point(Point(x: motionX.value(at: t), y: motionY.value(at: t))))
        }
        var origin = KeyframeAnimation(key: .boundsOrigin, values: values, duration: duration)
        origin.calculationMode = .linear
        add(origin, forKey: ScrollView.motionAnimationKey, at: time)
        guard showsScrollIndicators else { return }
        for vertical in [false, true] {
            let indicator = vertical ? verticalIndicator : horizontalIndicator
            guard !indicator.isHidden else { continue }
            values.removeAll(keepingCapacity: false)
            values.reserveCapacity(steps + 1)
            for i in 0...steps {
                let t = time + duration * Double(i) / Double(steps)
                let offset = Point(x: motionX.value(at: t), y: motionY.value(at: t))
                values.append(.point(indicatorFrame(vertical: vertical, at: offset).origin))
            }
            var move = KeyframeAnimation(key: .position, values: values, duration: duration)
            move.calculationMode = .linear
            indicator.add(move, forKey: ScrollView.motionAnimationKey, at: time)
        }
    }

    // MARK: Indicators

    /// The frame of an indicator (in content space, points) for the
    /// content at `offset`: along the far edge, its length the visible
    /// share of the content, shortened while rubber-banded.
    public func indicatorFrame(vertical: Bool, at offset: Point) -> Rect {
        let lo = vertical ? minimumContentOffset.y : minimumContentOffset.x
        let hi = vertical ? maximumContentOffset.y : maximumContentOffset.x
        let o = vertical ? offset.y : offset.x
        let size = vertical ? bounds.height : bounds.width
        let content = Swift.max((vertical ? contentSize.height : contentSize.width), 1)
        let track = Swift.max(size - 2 * indicatorInset - indicatorThickness, 0)
        var length = Swift.min(track, track * size / content)
        let excess = o < lo ? lo - o : (o > hi ? o - hi : 0)
        length = Swift.max(length - excess, Swift.min(indicatorMinimumLength, track))
        let fraction = hi > lo ? Swift.min(Swift.max((o - lo) / (hi - lo), 0), 1) : 0
        let along = indicatorInset + fraction * (track - length)
        if vertical {
            return Rect(x: offset.x + bounds.width - indicatorInset - indicatorThickness, y: offset.y + along,
                        width: indicatorThickness, height: length)
        }
        return Rect(x: offset.x + along, y: offset.y + bounds.height - indicatorInset - indicatorThickness,
                    width: length, height: indicatorThickness)
    }

    /// Places the indicators for the content at `offset` (model values,
    /// without animation); hides the one of an axis that cannot scroll.
    func layOutIndicators(at offset: Point) {
        withoutImplicitAnimations {
            // Anchor points are (0, 0): a frame is position and bounds size
            // (compared directly; the frame getter allocates).
            func place(_ indicator: Layer, _ frame: Rect) {
                let size = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
                if indicator.position != frame.origin { indicator.position = frame.origin }
                if indicator.bounds != size { indicator.bounds = size }
                if indicator.cornerRadius != indicatorThickness / 2 { indicator.cornerRadius = indicatorThickness / 2 }
            }
            place(verticalIndicator, indicatorFrame(vertical: true, at: offset))
            place(horizontalIndicator, indicatorFrame(vertical: false, at: offset))
            let showV = showsScrollIndicators && canScroll(.vertical) && contentSize.height > bounds.height
            let showH = showsScrollIndicators && canScroll(.horizontal) && contentSize.width > bounds.width
            if verticalIndicator.isHidden == showV { verticalIndicator.isHidden = !showV }
            if horizontalIndicator.isHidden == showH { horizontalIndicator.isHidden = !showH }
        }
    }

    /// Indicators fully visible now (a fade under way is dropped).
    func showIndicators() {
        withoutImplicitAnimations {
            for indicator in [horizontalIndicator, verticalIndicator] {
                indicator.removeAnimation(forKey: ScrollView.indicatorFadeKey)
                if indicator.opacity != 1 { indicator.opacity = 1 }
            }
        }
    }

    /// The indicators stay until `indicatorFadeDelay` after media time
    /// `rest`, then fade out over `indicatorFadeDuration`: an animation
    /// the render thread runs (the model opacity is 0 at once; the
    /// animation fills backwards so it shows 1 until it begins).
    func scheduleIndicatorFade(after rest: MediaTime) {
        withoutImplicitAnimations {
            for indicator in [horizontalIndicator, verticalIndicator] {
                guard indicator.opacity != 0 || indicator.animation(forKey: ScrollView.indicatorFadeKey) != nil else { continue }
                var fade = BasicAnimation(key: .opacity, from: .scalar(1), to: .scalar(0),
                                          duration: Swift.max(indicatorFadeDuration, 0.001))
                fade.timing.beginTime = indicator.convertTime(rest + indicatorFadeDelay, from: nil)
                fade.timing.fillMode = .backwards
                indicator.opacity = 0
                indicator.add(fade, forKey: ScrollView.indicatorFadeKey, at: rest)
            }
        }
    }

    /// The indicator's opacity on screen at media time `time` (its fade
    /// evaluated there).
    public func indicatorOpacity(vertical: Bool, at time: MediaTime) -> Double {
        let indicator = vertical ? verticalIndicator : horizontalIndicator
        if case let .scalar(o)? = indicator.presentationValue(for: .opacity, at: time) { return o }
        return indicator.opacity
    }
}
