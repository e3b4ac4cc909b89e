import FBRuntime

extension ListView {
    /// The row swiped open, if any.
    public var swipedOpenRow: ListIndexPath? { openCell?.indexPath }

    /// How far the open row is slid, points (0: closed).
    public var swipeRevealDistance: Double { swipeReveal }

    /// The swipe began on the row under `location` (display space): opens
    /// its buttons behind the content. False when the row has no actions.
    func beginSwipe(at location: Point) -> Bool {
        let p = convert(location, from: nil)
        guard let indexPath = indexPathForRow(at: p), let cell = cellForRow(at: indexPath) else { return false }
        if cell === openCell { return true }
        closeSwipedRow(animated: true)
        guard let actions = swipeActions?(self, indexPath), !actions.isEmpty else { return false }
        openCell = cell
        openActions = actions
        swipeReveal = 0
        withoutImplicitAnimations {
            cell.removeActionButtons()   // an earlier swipe's, faded out
            let h = cell.bounds.height, w = cell.bounds.width
            for (i, action) in actions.enumerated() {
                let button = Layer(name: "swipe action")
                button.anchorPoint = .zero
                button.frame = Rect(x: w - Double(actions.count - i) * swipeActionWidth, y: 0,
                                    width: swipeActionWidth, height: h)
                button.backgroundColor = action.color
                let label = TextLayer()
                label.string = action.title
                if let font = swipeActionFont { label.font = font }
                label.fontSize = swipeActionFontSize
                label.alignmentMode = .center
                label.foregroundColor = swipeActionTitleColor
                label.anchorPoint = .zero
                let lineHeight = Swift.max(20, swipeActionFontSize * 1.3)
                label.frame = Rect(x: 0, y: (h - lineHeight) / 2, width: swipeActionWidth, height: lineHeight)
                try? button.addSublayer(label)
                try? cell.insertSublayer(button, below: cell.contentLayer)
                cell.actionButtons.append(button)
            }
        }
        return true
    }

    /// The open row slid left by `reveal` points (from 0 to a little past
    /// its buttons' width, rubber-banded beyond).
    func setSwipeReveal(_ reveal: Double, animated: Bool) {
        guard let cell = openCell else { return }
        let full = Double(openActions.count) * swipeActionWidth
        let shown = rubberBandedOffset(reveal, minimum: 0, maximum: full, dimension: cell.bounds.width)
        swipeReveal = shown
        let frame = Rect(x: -shown, y: 0, width: cell.bounds.width, height: cell.bounds.height)
        if animated {
            cell.contentLayer.frame = frame   // implicit animation in a displayed tree
        } else {
            withoutImplicitAnimations { cell.contentLayer.frame = frame }
        }
    }

    /// The finger let go of a swipe moving at `velocity` (display points
    /// per second, negative to the left): open fully past half the
    /// buttons' width (or on a fast flick left), else close.
    func endSwipe(velocity: Double) {
        let full = Double(openActions.count) * swipeActionWidth
        if velocity < -400 || (velocity < 400 && swipeReveal > full / 2) {
            setSwipeReveal(full, animated: true)
        } else {
            closeSwipedRow(animated: true)
        }
    }

    /// Slides the open row back. Animated, its buttons fade out as it
    /// slides (they stay, transparent, until the cell is swiped again or
    /// reused); not animated, they go at once.
    public func closeSwipedRow(animated: Bool) {
        guard let cell = openCell else { return }
        setSwipeReveal(0, animated: animated)
        if animated {
            for button in cell.actionButtons { button.opacity = 0 }   // implicit fade in a displayed tree
        } else {
            withoutImplicitAnimations { cell.removeActionButtons() }
        }
        openCell = nil
        openActions.removeAll()
        swipeReveal = 0
    }

    /// A tap at `location` (display space): on an open row's button, runs
    /// its action and closes the row; elsewhere with a row open, closes
    /// it; else selects the row under it — unless the tap landed on moving
    /// content, which it only stops.
    func handleTap(at location: Point) {
        let p = convert(location, from: nil)
        if let cell = openCell {
            let indexPath = cell.indexPath
            let q = cell.convert(location, from: nil)
            let full = Double(openActions.count) * swipeActionWidth
            let left = cell.bounds.width - swipeReveal
            if q.x >= left, q.x < cell.bounds.width, q.y >= 0, q.y < cell.bounds.height, swipeReveal >= full / 2 {
                // Buttons sit at the cell's right edge, each swipeActionWidth wide.
                let index = Int((q.x - (cell.bounds.width - full)) / swipeActionWidth)
                let action = openActions[Swift.min(Swift.max(index, 0), openActions.count - 1)]
                closeSwipedRow(animated: true)
                action.handler(self, indexPath)
            } else {
                closeSwipedRow(animated: true)
            }
            return
        }
        guard !touchCaughtMotion else { return }   // the tap stopped a fling: no selection
        if let indexPath = indexPathForRow(at: p) { onSelectRow?(self, indexPath) }
    }
}

extension ListCell {
    func removeActionButtons() {
        for button in actionButtons { button.removeFromSuperlayer() }
        actionButtons.removeAll()
    }
}

/// A horizontal drag on a `ListView`'s row that reveals its swipe actions.
/// Begins when the finger's first `minimumDistance` points go more
/// sideways than up or down (the list's vertical scroll fails then), on a
/// row with actions; follows the finger; let go, the row opens fully or
/// closes (`ListView.endSwipe`).
final class ListSwipeRecognizer: GestureRecognizer {
    var minimumDistance = 10.0
    private var primary: Int32?
    private var startReveal = 0.0
    private var origin = Point.zero
    private var lastX = 0.0, lastTime = 0.0, velocityX = 0.0

    init() { super.init(action: nil) }

    override func touchBegan(_ touch: Touch) {
        guard primary == nil else { return }
        primary = touch.id
        lastX = touch.location.x; lastTime = touch.timestamp; velocityX = 0
    }

    override func touchMoved(_ touch: Touch) {
        guard touch.id == primary, let list = layer as? ListView else { return }
        let dt = touch.timestamp - lastTime
        if dt > 0 { velocityX = (touch.location.x - lastX) / dt }
        lastX = touch.location.x; lastTime = touch.timestamp
        if state == .possible {
            let dx = touch.location.x - touch.startLocation.x, dy = touch.location.y - touch.startLocation.y
            guard dx * dx + dy * dy >= minimumDistance * minimumDistance else { return }
            guard Swift.abs(dx) > Swift.abs(dy), list.beginSwipe(at: touch.startLocation) else {
                setState(.failed); return
            }
            origin = touch.location
            startReveal = list.swipeRevealDistance
            setState(.began)
        } else {
            list.setSwipeReveal(startReveal - (touch.location.x - origin.x), animated: false)
            setState(.changed)
        }
    }

    override func touchEnded(_ touch: Touch) {
        guard touch.id == primary else { return }
        if state == .possible { setState(.failed); return }
        (layer as? ListView)?.endSwipe(velocity: velocityX)
        setState(.ended)
    }

    override func touchCancelled(_ touch: Touch) {
        guard touch.id == primary else { return }
        if state != .possible { (layer as? ListView)?.closeSwipedRow(animated: true) }
        super.touchCancelled(touch)
    }

    override func reset() { primary = nil; velocityX = 0 }
}
