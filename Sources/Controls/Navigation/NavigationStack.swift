import FBRuntime

/// A stack of screens under a top bar, as a navigation controller: `push`
/// slides a screen in from the right over the current one, which moves a
/// third of the way left and dims; `pop` is the reverse. The bar shows the
/// top screen's title, a back button (`backButton`, a `Button`; it pops)
/// when there is a screen to go back to, and the top screen's trailing
/// button.
///
/// Geometry: the stack fills its bounds; the bar is `barHeight` points at
/// the top, the screens fill the rest (`contentLayer`, which clips them).
/// The stack sets each screen layer's anchor point to its top-left corner,
/// its bounds to the content area and its `position` (content space,
/// points): 0 on screen, `width` off to the right, `-parallax × width`
/// under the screen above it.
///
/// Only what is on screen is in the tree: at rest the top screen alone;
/// during a transition the screen coming in and the one going out (with
/// `dimmingLayer` between them). The others are removed, so they are not
/// drawn and their controls get no touches.
///
/// Animation: the motion is implicit animations of the screens' `position`
/// and the dimming layer's `opacity` in one transaction of
/// `transitionDuration` seconds (ease in, ease out), run on the render
/// thread; the screen that went away leaves the tree in the transaction's
/// completion block. Touches are hit-tested on the presentation tree, so a
/// touch mid-transition lands on what is on screen. A push or pop during a
/// transition starts from where the screens are on screen. `isTransitioning`
/// is true until the last transition's completion.
///
/// Theme: the bar is `surface` with a `separator` line, the title in `text`
/// (`bold` font, `bodySize`), the back button `.plain` (`accent`). A theme
/// change (`Theme.apply`) reaches the screens in the tree through the tree
/// and the others through the stack.
public final class NavigationStack: Control {
    /// The screens, bottom (the root) first; the last one is on screen.
    public private(set) var screens: [NavigationScreen]

    public var topScreen: NavigationScreen { screens[screens.count - 1] }

    /// The top bar: `surface`, with the title, back and trailing buttons.
    public let barLayer = Layer(name: "navigation bar")
    public let titleLayer = TextLayer(name: "navigation title")
    /// Pops the top screen when tapped; hidden on the root screen.
    public let backButton: Button
    /// Holds the screen layers on screen, under the bar; clips them.
    public let contentLayer = Layer(name: "navigation content")
    /// Dims the screen going under (push) or coming back (pop).
    public let dimmingLayer: Layer = DimmingLayer()
    private let separatorLayer = Layer(name: "navigation separator")

    /// Seconds a push or pop takes.
    public var transitionDuration = 0.35
    /// How far the screen under the top one sits to the left, as a fraction
    /// of the width.
    public var parallax = 0.3
    /// The dimming layer's opacity over a screen that is fully under another.
    public var dimmedOpacity = 0.15

    /// A push or pop is animating (until its completion block runs).
    public private(set) var isTransitioning = false

    /// A finger is dragging the top screen back (the interactive pop).
    public internal(set) var isSwiping = false
    /// How far from the content's left edge a back swipe may start, points
    /// (0 turns it off).
    public var backSwipeEdge = 20.0
    /// A back swipe lifted moving right faster than this pops however far
    /// it went, points per second.
    public var backSwipeVelocity = 500.0

    /// Counts transitions; a completion block of one that another replaced
    /// does nothing.
    private var generation = 0

    /// The bar's height, points: the theme's `controlHeight`.
    public var barHeight: Double { theme.metrics.controlHeight }

    public init(root: NavigationScreen, theme: Theme = .light) {
        screens = [root]
        backButton = Button(title: "\u{2039} Back", style: .plain, theme: theme)
        super.init(name: "navigation stack")
        self.theme = theme
        backButton.name = "navigation back"
        backButton.onTap = { button in button.navigationAncestor(NavigationStack.self)?.pop(animated: true) }
        contentLayer.anchorPoint = .zero
        contentLayer.masksToBounds = true
        barLayer.anchorPoint = .zero
        separatorLayer.anchorPoint = .zero
        titleLayer.alignmentMode = .center
        titleLayer.truncationMode = .end
        try? addSublayer(contentLayer)
        try? addSublayer(barLayer)
        try? barLayer.addSublayer(titleLayer)
        try? barLayer.addSublayer(backButton)
        try? barLayer.addSublayer(separatorLayer)
        try? contentLayer.addSublayer(dimmingLayer)
        prepareScreenLayer(root)
        try? contentLayer.addSublayer(root.layer)
        applyFonts()
        updateBar(animated: false)
        updateAppearance()
    }

    /// Attaches the back button and the back swipe (a recognizer on
    /// `contentLayer`) to `router`; the stack takes no other touches. The
    /// screens' controls are the app's to attach.
    public override func attach(to router: TouchRouter) {
        backButton.attach(to: router)
        router.add(BackSwipeRecognizer(), to: contentLayer)
    }

    // MARK: Push and pop

    /// Puts `screen` on top: it slides in from the right (animated, in a
    /// displayed tree) while the current top screen moves left and dims,
    /// then leaves the tree. A screen already in the stack is ignored.
    public func push(_ screen: NavigationScreen, animated: Bool = true) {
        guard !screens.contains(where: { $0 === screen }) else { return }
        if isSwiping { backSwipeEnded(completes: false) }
        layoutIfNeeded()
        let under = topScreen
        screens.append(screen)
        let w = contentLayer.bounds.width
        let animate = animated && isInDisplayedTree
        Transaction.withoutActions {
            prepareScreenLayer(screen)
            screen.layer.removeFromSuperlayer()
            screen.layer.position = Point(x: animate ? w : 0, y: 0)
            try? contentLayer.addSublayer(screen.layer)
            placeDimming(below: screen.layer, startingDimmed: false)
        }
        runTransition(animated: animate) { stack in
            screen.layer.position = .zero
            under.layer.position = Point(x: -stack.parallax * w, y: 0)
            stack.dimmingLayer.opacity = stack.dimmedOpacity
        }
    }

    /// Takes the top screen off: it slides out to the right while the one
    /// under it comes back from the left, undimming. Returns the screen
    /// removed; nil on the root screen (which stays).
    @discardableResult
    public func pop(animated: Bool = true) -> NavigationScreen? {
        guard screens.count > 1 else { return nil }
        isSwiping = false
        let top = screens.removeLast()
        reveal(topScreen, removing: top, animated: animated)
        return top
    }

    /// Pops every screen above the root in one transition (the top one
    /// slides out, the root comes back). Returns the screens removed, in
    /// stack order.
    @discardableResult
    public func popToRoot(animated: Bool = true) -> [NavigationScreen] {
        guard screens.count > 1 else { return [] }
        isSwiping = false
        let removed = Array(screens[1...])
        screens.removeSubrange(1...)
        reveal(screens[0], removing: removed[removed.count - 1], animated: animated)
        return removed
    }

    private func reveal(_ below: NavigationScreen, removing top: NavigationScreen, animated: Bool) {
        layoutIfNeeded()
        let w = contentLayer.bounds.width
        let animate = animated && isInDisplayedTree
        Transaction.withoutActions {
            // Screens caught mid-transition that are neither of the two go.
            for layer in contentLayer.sublayers where layer !== below.layer && layer !== top.layer && layer !== dimmingLayer {
                layer.removeFromSuperlayer()
            }
            if below.layer.superlayer !== contentLayer {
                prepareScreenLayer(below)
                below.layer.position = Point(x: animate ? -parallax * w : 0, y: 0)
                try? contentLayer.insertSublayer(below.layer, at: 0)
            }
            placeDimming(below: top.layer, startingDimmed: true)
        }
        runTransition(animated: animate) { stack in
            below.layer.position = .zero
            top.layer.position = Point(x: w, y: 0)
            stack.dimmingLayer.opacity = 0
        }
    }

    /// Puts the dimming layer just under `layer`, shown; at the dimmed
    /// opacity if it was at rest and `startingDimmed` (a pop), else from
    /// where it is.
    func placeDimming(below layer: Layer, startingDimmed: Bool) {
        let wasResting = dimmingLayer.isHidden
        dimmingLayer.removeFromSuperlayer()
        try? contentLayer.insertSublayer(dimmingLayer, below: layer)
        dimmingLayer.bounds = Rect(x: 0, y: 0, width: contentLayer.bounds.width, height: contentLayer.bounds.height)
        dimmingLayer.position = .zero
        if wasResting { dimmingLayer.opacity = startingDimmed ? dimmedOpacity : 0 }
        dimmingLayer.isHidden = false
    }

    /// Runs `changes` as the transition (animated or not), updates the bar
    /// (unless told not to: a back swipe put back) and settles the tree at
    /// the end.
    func runTransition(animated: Bool, updatesBar: Bool = true, changes: (NavigationStack) -> Void) {
        generation &+= 1
        let g = generation
        isTransitioning = animated
        NavigationAnimation.run(animated: animated, in: self, duration: transitionDuration, changes: {
            changes(self)
            if updatesBar { updateBar(animated: animated) }
        }, completion: { self.transitionDidEnd(g) })
    }

    private func transitionDidEnd(_ g: Int) {
        guard g == generation else { return }
        isTransitioning = false
        Transaction.withoutActions {
            let top = topScreen.layer
            for layer in contentLayer.sublayers where layer !== top && layer !== dimmingLayer {
                layer.removeFromSuperlayer()
            }
            dimmingLayer.opacity = 0
            dimmingLayer.isHidden = true
            top.position = .zero
        }
    }

    /// Sizes a screen's layer to the content area.
    func prepareScreenLayer(_ screen: NavigationScreen) {
        screen.layer.anchorPoint = .zero
        let b = contentLayer.bounds
        let size = Rect(x: 0, y: 0, width: b.width, height: b.height)
        if screen.layer.bounds != size { screen.layer.bounds = size }
    }

    // MARK: The bar

    /// A screen on the stack changed its title or trailing button.
    func screenDidChange(_ screen: NavigationScreen) {
        guard screen === topScreen else { return }
        updateBar(animated: false)
    }

    /// Shows the top screen's title and trailing button and the back button
    /// if there is a screen under it; `animated` fades the new title and
    /// button in (an explicit opacity animation in the current transaction).
    private func updateBar(animated: Bool) {
        let top = topScreen
        if titleLayer.string != top.title { titleLayer.string = top.title }
        let showsBack = screens.count > 1
        Transaction.withoutActions {
            if backButton.isHidden == showsBack { backButton.isHidden = !showsBack }
            for layer in barLayer.sublayers where layer is Button && layer !== backButton && layer !== top.trailingButton {
                layer.removeFromSuperlayer()
            }
            if let trailing = top.trailingButton, trailing.superlayer !== barLayer {
                trailing.removeFromSuperlayer()
                trailing.theme = theme
                try? barLayer.addSublayer(trailing)
            }
            layoutBar()
        }
        guard animated else { return }
        let fade = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: transitionDuration)
        try? titleLayer.add(fade, forKey: "navigation.fade")
        if showsBack { try? backButton.add(fade, forKey: "navigation.fade") }
        if let trailing = top.trailingButton { try? trailing.add(fade, forKey: "navigation.fade") }
    }

    private func layoutBar() {
        let w = bounds.width, h = barHeight
        let m = theme.metrics
        let back = backButton.isHidden ? 0 : min(backButton.preferredSize.width, w / 3)
        let trailing = topScreen.trailingButton
        let trailingWidth = trailing.map { min($0.preferredSize.width, w / 3) } ?? 0
        let side = max(back, trailingWidth) + m.spacing
        let barFrame = Rect(x: 0, y: 0, width: w, height: h)
        if barLayer.frame != barFrame { barLayer.frame = barFrame }
        let separator = Rect(x: 0, y: h - 1, width: w, height: 1)
        if separatorLayer.frame != separator { separatorLayer.frame = separator }
        let titleHeight = titleLayer.preferredSize.height
        let title = Rect(x: side, y: ((h - titleHeight) / 2).rounded(), width: max(0, w - 2 * side), height: titleHeight)
        if titleLayer.frame != title { titleLayer.frame = title }
        let backFrame = Rect(x: 0, y: 0, width: back, height: h)
        if !backButton.isHidden && backButton.frame != backFrame { backButton.frame = backFrame }
        if let trailing {
            let f = Rect(x: w - trailingWidth, y: 0, width: trailingWidth, height: h)
            if trailing.frame != f { trailing.frame = f }
        }
    }

    // MARK: Layout and theme

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let content = Rect(x: 0, y: barHeight, width: b.width, height: max(0, b.height - barHeight))
        if contentLayer.frame != content { contentLayer.frame = content }
        layoutBar()
        let size = Rect(x: 0, y: 0, width: content.width, height: content.height)
        for layer in contentLayer.sublayers where layer.bounds != size {
            layer.bounds = size
        }
    }

    public override func themeDidChange() {
        applyFonts()
        backButton.theme = theme
        for screen in screens {
            theme.applyOffscreen(to: screen.layer)
            if let trailing = screen.trailingButton, !trailing.isInDisplayedTree { trailing.theme = theme }
        }
        super.themeDidChange()
    }

    public override func updateAppearance() {
        let c = theme.colors
        if backgroundColor != c.background { backgroundColor = c.background }
        if barLayer.backgroundColor != c.surface { barLayer.backgroundColor = c.surface }
        if separatorLayer.backgroundColor != c.separator { separatorLayer.backgroundColor = c.separator }
        if titleLayer.foregroundColor != c.text { titleLayer.foregroundColor = c.text }
    }

    private func applyFonts() {
        let font = theme.fonts.bold ?? theme.fonts.regular ?? TextLayer.defaultFont
        if titleLayer.font !== font { titleLayer.font = font }
        if titleLayer.fontSize != theme.fonts.bodySize { titleLayer.fontSize = theme.fonts.bodySize }
    }
}

extension Layer {
    /// The `NavigationStack` showing this layer (the nearest one above it),
    /// nil when there is none (the layer is on no screen of a stack, or its
    /// screen is out of the tree). For handlers, which receive their
    /// control and need not capture anything:
    /// `button.navigationStack?.push(next)`. O(depth).
    public var navigationStack: NavigationStack? { navigationAncestor(NavigationStack.self) }
}
