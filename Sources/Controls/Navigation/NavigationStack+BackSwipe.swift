import FBRuntime

// The interactive back swipe: a finger that lands within `backSwipeEdge`
// of the content's left edge and moves right drags the top screen with it,
// the screen under it coming back from the left; lifted past half the
// width, or moving right faster than `backSwipeVelocity`, it pops (the
// rest of the way animated from where the finger left the screens);
// otherwise the screens slide back.

extension NavigationStack {
    /// The finger moved right enough to be a back swipe: the screen under
    /// the top one comes into the tree, parked and dimmed. False when there
    /// is none, or a transition is running.
    func backSwipeBegan() -> Bool {
        guard screens.count > 1, !isTransitioning else { return false }
        layoutIfNeeded()
        let under = screens[screens.count - 2], top = topScreen
        isSwiping = true
        Transaction.withoutActions {
            if under.layer.superlayer !== contentLayer {
                prepareScreenLayer(under)
                try? contentLayer.insertSublayer(under.layer, at: 0)
            }
            placeDimming(below: top.layer, startingDimmed: true)
        }
        backSwipeChanged(translation: 0)
        return true
    }

    /// The finger is `translation` points right of where it landed: the
    /// screens follow it, without animation.
    func backSwipeChanged(translation: Double) {
        guard isSwiping else { return }
        let w = contentLayer.bounds.width
        let f = w > 0 ? max(0, min(1, translation / w)) : 0
        let under = screens[screens.count - 2], top = topScreen
        Transaction.withoutActions {
            top.layer.position = Point(x: f * w, y: 0)
            under.layer.position = Point(x: -parallax * w * (1 - f), y: 0)
            dimmingLayer.opacity = dimmedOpacity * (1 - f)
        }
    }

    /// The finger lifted (or the touch was cancelled: `completes` false):
    /// pops if `completes`, else puts the screens back, animated from where
    /// they are.
    func backSwipeEnded(completes: Bool) {
        guard isSwiping else { return }
        isSwiping = false
        if completes {
            pop(animated: true)
        } else {
            let w = contentLayer.bounds.width
            let under = screens[screens.count - 2], top = topScreen
            runTransition(animated: true, updatesBar: false) { stack in
                top.layer.position = .zero
                under.layer.position = Point(x: -stack.parallax * w, y: 0)
                stack.dimmingLayer.opacity = stack.dimmedOpacity
            }
        }
    }
}

/// Recognises the back swipe on a stack's content layer and drives the
/// stack's `backSwipe…` hooks. It keeps no reference to the stack but the
/// router's `layer` (the content layer), so they make no cycle.
final class BackSwipeRecognizer: GestureRecognizer {
    private var tracked: Int32?
    private var startX = 0.0, startY = 0.0
    /// The last two samples of the finger: x, points, at media time.
    private var lastX = 0.0, lastTime: MediaTime = 0
    private var velocityX = 0.0

    private var stack: NavigationStack? { layer?.navigationStack }

    override func touchBegan(_ touch: Touch) {
        guard tracked == nil, state == .possible, let stack else { return }
        let local = stack.contentLayer.convert(touch.location, from: nil)
        guard local.isFinite, local.x >= 0, local.x <= stack.backSwipeEdge, stack.screens.count > 1, !stack.isTransitioning else {
            setState(.failed)
            return
        }
        tracked = touch.id
        startX = touch.location.x; startY = touch.location.y
        lastX = startX; lastTime = touch.timestamp; velocityX = 0
    }

    override func touchMoved(_ touch: Touch) {
        guard touch.id == tracked, let stack else { return }
        let x = touch.location.x, dx = x - startX, dy = touch.location.y - startY
        let dt = touch.timestamp - lastTime
        if dt > 0 { velocityX = (x - lastX) / dt; lastX = x; lastTime = touch.timestamp }
        if state == .possible {
            let slop = 10.0
            if dx >= slop && dx > abs(dy) {
                guard stack.backSwipeBegan() else { setState(.failed); return }
                setState(.began)
                stack.backSwipeChanged(translation: dx)
            } else if abs(dy) >= slop || dx <= -slop {
                setState(.failed)
            }
        } else {
            stack.backSwipeChanged(translation: dx)
            setState(.changed)
        }
    }

    override func touchEnded(_ touch: Touch) {
        guard touch.id == tracked, let stack else { return }
        tracked = nil
        guard state == .began || state == .changed else { setState(.failed); return }
        let w = stack.contentLayer.bounds.width
        let dx = touch.location.x - startX
        stack.backSwipeEnded(completes: dx > w / 2 || velocityX > stack.backSwipeVelocity)
        setState(.ended)
    }

    override func touchCancelled(_ touch: Touch) {
        guard touch.id == tracked else { return }
        tracked = nil
        if state == .began || state == .changed { stack?.backSwipeEnded(completes: false) }
        super.touchCancelled(touch)
    }

    override func reset() { tracked = nil }
}
