import FBRuntime

extension ListView {
    /// Dots in the spinner.
    static let spinnerDots = 8

    /// The spinner: `spinnerDots` dots on a circle of radius 10 points,
    /// fading round it, centred `refreshHeight / 2` above the content.
    func makeSpinner() {
        refreshSpinner.bounds = Rect(x: 0, y: 0, width: 28, height: 28)
        refreshSpinner.opacity = 0
        for i in 0..<ListView.spinnerDots {
            let angle = Double(i) / Double(ListView.spinnerDots) * 2 * 3.141_592_653_589_793
            let dot = Layer(name: "spinner dot")
            dot.bounds = Rect(x: 0, y: 0, width: 5, height: 5)
            dot.cornerRadius = 2.5
            dot.backgroundColor = spinnerColor
            dot.opacity = 0.25 + 0.75 * Double(i) / Double(ListView.spinnerDots - 1)
            dot.position = Point(x: 14 + 10 * sine(angle + 3.141_592_653_589_793 / 2), y: 14 - 10 * sine(angle))
            try? refreshSpinner.addSublayer(dot)
        }
        try? addContentSublayer(refreshSpinner)
    }

    /// sin x for the spinner's dot positions (a few, once): Taylor series
    /// after reduction to −π…π, good to 1e-9.
    private func sine(_ x: Double) -> Double {
        let twoPi = 2 * 3.141_592_653_589_793
        var r = x - (x / twoPi).rounded() * twoPi
        if r > twoPi / 4 { r = twoPi / 2 - r } else if r < -twoPi / 4 { r = -twoPi / 2 - r }
        var term = r, sum = r
        for n in 1...8 {
            term *= -r * r / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }

    /// How far the top is pulled down past its rest at `offset`, points.
    public func pullDistance(at offset: Point) -> Double {
        Swift.max(0, -contentInset.top - offset.y)
    }

    /// While a finger pulls: the spinner fades in with the pull (fully in
    /// at `refreshThreshold`) and `isPulledPastThreshold` follows; without
    /// a finger and not refreshing it is hidden.
    func updatePull(at offset: Point) {
        guard onRefresh != nil else { return }
        let centre = Point(x: bounds.width / 2, y: -refreshHeight / 2)
        var opacity = refreshSpinner.opacity
        if !isRefreshing {
            let pull = pullDistance(at: offset)
            isPulledPastThreshold = isTracking && pull >= refreshThreshold
            // Only a finger's pull shows it: a bounce back past the top does not.
            opacity = isTracking ? Swift.min(1, pull / Swift.max(refreshThreshold, 1)) : 0
        }
        // A transaction only when something changes (a fling changes nothing here).
        guard refreshSpinner.position != centre || refreshSpinner.opacity != opacity else { return }
        withoutImplicitAnimations {
            refreshSpinner.position = centre
            refreshSpinner.opacity = opacity
        }
    }

    /// Starts a refresh as if pulled: the top keeps `refreshHeight` points
    /// of room for the spinner, which turns (an animation on the render
    /// thread), and `onRefresh` is called.
    public func beginRefreshing(at time: MediaTime? = nil) {
        guard !isRefreshing else { return }
        let t = time ?? AppRunLoop.current.now
        isRefreshing = true
        var inset = contentInset
        inset.top = refreshHeight
        contentInset = inset
        withoutImplicitAnimations { refreshSpinner.opacity = 1 }
        var spin = BasicAnimation(key: .transformRotationZ, from: .scalar(0), to: .scalar(2 * 3.141_592_653_589_793), duration: 0.9)
        spin.timing.repeatCount = .infinity
        refreshSpinner.add(spin, forKey: ListView.spinnerAnimationKey, at: t)
        if !isTracking && !isDecelerating { scroll(to: Point(x: contentOffset.x, y: -refreshHeight), animated: true, at: t) }
        onRefresh?(self)
    }

    /// Ends the refresh: the spinner stops and hides, the top goes back to
    /// its rest (animated, unless a finger holds the content).
    public func endRefreshing(at time: MediaTime? = nil) {
        guard isRefreshing else { return }
        let t = time ?? AppRunLoop.current.now
        isRefreshing = false
        var inset = contentInset
        inset.top = 0
        contentInset = inset
        refreshSpinner.removeAnimation(forKey: ListView.spinnerAnimationKey)
        withoutImplicitAnimations { refreshSpinner.opacity = 0 }
        if !isTracking {
            let offset = visibleContentOffset(at: t)
            if offset.y < minimumContentOffset.y { scroll(to: clampedOffset(offset), animated: true, at: t) }
        }
    }
}
