import FBRuntime

/// A modal sheet: a panel that slides up from the bottom over a dimmed
/// screen. A tap on the dimmed part or on `closeButton` dismisses it.
///
/// `present(in:animated:)` adds the sheet over a host layer (the screen's
/// root), filling the host's bounds; the panel (`panelLayer`, `surface`,
/// top corners rounded by `cornerRadius`) is `heightFraction` of the host's
/// height at the bottom, with a header row (`titleLayer`, `closeButton`)
/// over `contentLayer`, where the app puts the sheet's content. While the
/// sheet is presented it covers the host, so touches never reach the
/// layers under it (they land on the dimming or the panel).
///
/// Animation: presenting slides the panel up from below the host's bottom
/// edge while the dimming fades to `dimmedOpacity`; dismissing is the
/// reverse and removes the sheet from the tree in the transaction's
/// completion block, then calls `onDismiss`. Both over
/// `transitionDuration`, as implicit animations (render thread).
///
/// Touch: `attach(to:)` once (the dimming's tap recognizer and the close
/// button); the content's controls are the app's to attach.
public final class Sheet: Control {
    /// The panel that slides up.
    public let panelLayer = Layer(name: "sheet panel")
    /// Where the app puts the sheet's content (panel bounds under the
    /// header; the sheet sizes it).
    public let contentLayer = Layer(name: "sheet content")
    public let titleLayer = TextLayer(name: "sheet title")
    /// Dismisses the sheet when tapped.
    public let closeButton: Button
    /// Covers the host; a tap on it dismisses the sheet.
    public let dimmingLayer: Layer = DimmingLayer()

    public var title: String {
        get { titleLayer.string }
        set { titleLayer.string = newValue; setNeedsLayout() }
    }

    /// The panel's height as a fraction of the host's (0…1).
    public var heightFraction = 0.6 { didSet { setNeedsLayout() } }
    public var transitionDuration = 0.3
    public var dimmedOpacity = 0.4

    /// Presented (from `present` until `dismiss`; the sheet leaves the tree
    /// when the dismissal's animation ends).
    public private(set) var isPresented = false
    /// Presented over a tree, take its theme (`Theme.of(host:)`), so one
    /// made before a theme switch matches the screen (default). Off, it
    /// keeps the theme it was given.
    public var adoptsHostTheme = true

    /// Called when a dismissal has finished, with the sheet.
    public var onDismiss: ((Sheet) -> Void)?

    private var generation = 0

    public init(title: String = "", theme: Theme = .light) {
        closeButton = Button(title: "Close", style: .plain, theme: theme)
        super.init(name: "sheet")
        self.theme = theme
        anchorPoint = .zero
        panelLayer.anchorPoint = .zero
        contentLayer.anchorPoint = .zero
        panelLayer.maskedCorners = [.minXMinY, .maxXMinY]
        titleLayer.truncationMode = .end
        closeButton.name = "sheet close"
        closeButton.onTap = { button in button.navigationAncestor(Sheet.self)?.dismiss(animated: true) }
        try? addSublayer(dimmingLayer)
        try? addSublayer(panelLayer)
        try? panelLayer.addSublayer(titleLayer)
        try? panelLayer.addSublayer(closeButton)
        try? panelLayer.addSublayer(contentLayer)
        titleLayer.string = title
        applyFonts()
        updateAppearance()
    }

    public override func attach(to router: TouchRouter) {
        let tap = TapGestureRecognizer { recognizer in
            recognizer.layer?.navigationAncestor(Sheet.self)?.dismiss(animated: true)
        }
        router.add(tap, to: dimmingLayer)
        closeButton.attach(to: router)
    }

    /// The panel's frame in the sheet's bounds when presented, points.
    public var panelFrame: Rect {
        let b = bounds
        let h = (b.height * max(0, min(1, heightFraction.isNaN ? 0.6 : heightFraction))).rounded()
        return Rect(x: 0, y: b.height - h, width: b.width, height: h)
    }

    /// Adds the sheet over `host` (filling its bounds) and slides the panel
    /// up. Ignored while presented.
    public func present(in host: Layer, animated: Bool = true) {
        guard !isPresented else { return }
        isPresented = true
        generation &+= 1
        Transaction.withoutActions {
            if adoptsHostTheme, let t = Theme.of(host: host) { theme = t }   // the screen's look now (a switch since it was made)
            removeFromSuperlayer()
            frame = host.bounds
            try? host.addSublayer(self)
            layoutIfNeeded()
            dimmingLayer.isHidden = false
        }
        let animate = animated && isInDisplayedTree
        if animate {
            Transaction.withoutActions {
                panelLayer.position = Point(x: 0, y: bounds.height)
                dimmingLayer.opacity = 0
            }
        }
        NavigationAnimation.run(animated: animate, in: self, duration: transitionDuration, timing: .easeOut, changes: {
            panelLayer.position = panelFrame.origin
            dimmingLayer.opacity = dimmedOpacity
        }, completion: {})
    }

    /// Slides the panel down and fades the dimming, then removes the sheet
    /// from the tree and calls `onDismiss`. Ignored when not presented.
    public func dismiss(animated: Bool = true) {
        guard isPresented else { return }
        isPresented = false
        generation &+= 1
        let g = generation
        NavigationAnimation.run(animated: animated, in: self, duration: transitionDuration, timing: .easeIn, changes: {
            panelLayer.position = Point(x: 0, y: bounds.height)
            dimmingLayer.opacity = 0
        }, completion: {
            guard g == self.generation else { return }
            Transaction.withoutActions { self.removeFromSuperlayer() }
            self.onDismiss?(self)
        })
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let dim = Rect(x: 0, y: 0, width: b.width, height: b.height)
        if dimmingLayer.frame != dim { dimmingLayer.frame = dim }
        let panel = panelFrame
        let size = Rect(x: 0, y: 0, width: panel.width, height: panel.height)
        if panelLayer.bounds != size { panelLayer.bounds = size }
        if isPresented && panelLayer.animations.isEmpty && panelLayer.position != panel.origin { panelLayer.position = panel.origin }
        let m = theme.metrics
        let header = m.controlHeight
        let close = closeButton.preferredSize.width
        let closeFrame = Rect(x: panel.width - close, y: 0, width: close, height: header)
        if closeButton.frame != closeFrame { closeButton.frame = closeFrame }
        let th = titleLayer.preferredSize.height
        let titleFrame = Rect(x: m.padding, y: ((header - th) / 2).rounded(), width: max(0, panel.width - close - m.padding), height: th)
        if titleLayer.frame != titleFrame { titleLayer.frame = titleFrame }
        let content = Rect(x: 0, y: header, width: panel.width, height: max(0, panel.height - header))
        if contentLayer.frame != content { contentLayer.frame = content }
        if panelLayer.cornerRadius != m.cornerRadius * 1.5 { panelLayer.cornerRadius = m.cornerRadius * 1.5 }
    }

    public override func themeDidChange() {
        applyFonts()
        closeButton.theme = theme
        super.themeDidChange()
    }

    public override func updateAppearance() {
        let c = theme.colors
        if panelLayer.backgroundColor != c.surface { panelLayer.backgroundColor = c.surface }
        if titleLayer.foregroundColor != c.text { titleLayer.foregroundColor = c.text }
    }

    private func applyFonts() {
        let font = theme.fonts.bold ?? theme.fonts.regular ?? TextLayer.defaultFont
        if titleLayer.font !== font { titleLayer.font = font }
        if titleLayer.fontSize != theme.fonts.bodySize { titleLayer.fontSize = theme.fonts.bodySize }
    }
}
