import FBRuntime

/// An alert: a title, a message and one to three buttons in a box in the
/// middle of a dimmed screen. Tapping a button dismisses the alert and
/// calls `onChoose` with the button's index (in `buttonTitles` order).
///
/// `present(in:animated:)` adds the alert over a host layer (the screen's
/// root), filling its bounds: every touch on the host then lands on the
/// alert (its dimming or its box), so nothing under it can be touched
/// until it is dismissed. The box (`boxLayer`, `surface`, rounded) is
/// `width` points wide (at most the host's width less `padding` each
/// side), the title in `text` (bold, `bodySize`), the message in
/// `secondaryText` (regular, `captionSize`, wrapped), the buttons side by
/// side at the bottom, the last one `.filled` (the default action), the
/// others `.plain`.
///
/// Animation: presenting fades the dimming in and the box in while it
/// scales from `presentationScale` to 1 (CA style); dismissing fades both
/// out, then removes the alert from the tree in the transaction's
/// completion block. Implicit animations of `opacity` and an explicit one
/// of `transform.scale`, over `transitionDuration`, on the render thread.
///
/// Touch: `attach(to:)` once (the buttons).
public final class Alert: Control {
    public let boxLayer = Layer(name: "alert box")
    public let titleLayer = TextLayer(name: "alert title")
    public let messageLayer = TextLayer(name: "alert message")
    /// One per title of `buttonTitles`, in order.
    public private(set) var buttons: [Button] = []
    public let dimmingLayer: Layer = DimmingLayer()

    /// The buttons' titles: one to three (more are dropped, none gets "OK").
    public let buttonTitles: [String]

    /// Called with the alert and the index of the button tapped, after the
    /// alert started to dismiss.
    public var onChoose: ((Alert, Int) -> Void)?

    /// The box's width, points.
    public var width = 280.0 { didSet { setNeedsLayout() } }
    public var transitionDuration = 0.2
    public var dimmedOpacity = 0.4
    /// The box's scale when presenting begins.
    public var presentationScale = 1.2

    public private(set) var isPresented = false
    /// Presented over a tree, take its theme (`Theme.of(host:)`), so one
    /// made before a theme switch matches the screen (default). Off, it
    /// keeps the theme it was given.
    public var adoptsHostTheme = true
    private var generation = 0

    public init(title: String, message: String = "", buttonTitles: [String] = ["OK"], theme: Theme = .light) {
        let titles = buttonTitles.isEmpty ? ["OK"] : Array(buttonTitles.prefix(3))
        self.buttonTitles = titles
        super.init(name: "alert")
        self.theme = theme
        anchorPoint = .zero
        titleLayer.alignmentMode = .center
        titleLayer.isWrapped = true
        messageLayer.alignmentMode = .center
        messageLayer.isWrapped = true
        titleLayer.string = title
        messageLayer.string = message
        try? addSublayer(dimmingLayer)
        try? addSublayer(boxLayer)
        try? boxLayer.addSublayer(titleLayer)
        try? boxLayer.addSublayer(messageLayer)
        for (i, t) in titles.enumerated() {
            let button = Button(title: t, style: i == titles.count - 1 ? .filled : .plain, theme: theme)
            button.name = "alert button"
            button.onTap = { b in b.navigationAncestor(Alert.self)?.choose(b) }
            buttons.append(button)
            try? boxLayer.addSublayer(button)
        }
        applyFonts()
        updateAppearance()
    }

    public override func attach(to router: TouchRouter) {
        for button in buttons { button.attach(to: router) }
    }

    private func choose(_ button: Button) {
        guard isPresented, let index = buttons.firstIndex(where: { $0 === button }) else { return }
        dismiss(animated: true)
        onChoose?(self, index)
    }

    /// Adds the alert over `host` (filling its bounds) with a scale and a
    /// fade. Ignored while presented.
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
                dimmingLayer.opacity = 0
                boxLayer.opacity = 0
            }
        }
        NavigationAnimation.run(animated: animate, in: self, duration: transitionDuration, timing: .easeOut, changes: {
            dimmingLayer.opacity = dimmedOpacity
            boxLayer.opacity = 1
            if animate {
                var scale = BasicAnimation(key: .transformScale, from: .scalar(presentationScale), to: .scalar(1),
                                           duration: transitionDuration)
                scale.timingFunction = .easeOut
                try? boxLayer.add(scale, forKey: "alert.scale")
            }
        }, completion: {})
    }

    /// Fades the alert out, then removes it from the tree. Ignored when not
    /// presented.
    public func dismiss(animated: Bool = true) {
        guard isPresented else { return }
        isPresented = false
        generation &+= 1
        let g = generation
        NavigationAnimation.run(animated: animated, in: self, duration: transitionDuration, timing: .easeIn, changes: {
            dimmingLayer.opacity = 0
            boxLayer.opacity = 0
        }, completion: {
            guard g == self.generation else { return }
            Transaction.withoutActions {
                self.removeFromSuperlayer()
                self.boxLayer.opacity = 1
            }
        })
    }

    /// The box's height for its width, points.
    private func boxHeight(width w: Double) -> Double {
        let m = theme.metrics
        let text = max(0, w - 2 * m.padding)
        let title = measure(titleLayer, width: text)
        let message = messageLayer.string.isEmpty ? 0 : measure(messageLayer, width: text) + m.spacing
        return (m.padding + title + message + m.padding + m.controlHeight + m.spacing).rounded(.up)
    }

    private func measure(_ layer: TextLayer, width: Double) -> Double {
        if layer.bounds.width != width {
            layer.bounds = Rect(x: 0, y: 0, width: width, height: layer.bounds.height)
        }
        return layer.preferredSize.height.rounded(.up)
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let m = theme.metrics
        let dim = Rect(x: 0, y: 0, width: b.width, height: b.height)
        if dimmingLayer.frame != dim { dimmingLayer.frame = dim }
        let w = max(0, min(width, b.width - 2 * m.padding))
        let h = boxHeight(width: w)
        let box = Rect(x: ((b.width - w) / 2).rounded(), y: ((b.height - h) / 2).rounded(), width: w, height: h)
        if boxLayer.frame != box { boxLayer.frame = box }
        if boxLayer.cornerRadius != m.cornerRadius * 1.4 { boxLayer.cornerRadius = m.cornerRadius * 1.4 }
        let text = max(0, w - 2 * m.padding)
        let th = measure(titleLayer, width: text)
        let title = Rect(x: m.padding, y: m.padding, width: text, height: th)
        if titleLayer.frame != title { titleLayer.frame = title }
        let mh = messageLayer.string.isEmpty ? 0 : measure(messageLayer, width: text)
        let message = Rect(x: m.padding, y: title.maxY + m.spacing, width: text, height: mh)
        if messageLayer.frame != message { messageLayer.frame = message }
        let n = Double(buttons.count)
        let bw = ((text - m.spacing * (n - 1)) / n).rounded(.down)
        for (i, button) in buttons.enumerated() {
            let f = Rect(x: m.padding + Double(i) * (bw + m.spacing), y: h - m.spacing - m.controlHeight,
                         width: bw, height: m.controlHeight)
            if button.frame != f { button.frame = f }
        }
    }

    public override func themeDidChange() {
        applyFonts()
        for button in buttons { button.theme = theme }
        super.themeDidChange()
    }

    public override func updateAppearance() {
        let c = theme.colors
        if boxLayer.backgroundColor != c.surface { boxLayer.backgroundColor = c.surface }
        if titleLayer.foregroundColor != c.text { titleLayer.foregroundColor = c.text }
        if messageLayer.foregroundColor != c.secondaryText { messageLayer.foregroundColor = c.secondaryText }
    }

    private func applyFonts() {
        let f = theme.fonts
        let bold = f.bold ?? f.regular ?? TextLayer.defaultFont
        let regular = f.regular ?? TextLayer.defaultFont
        if titleLayer.font !== bold { titleLayer.font = bold }
        if titleLayer.fontSize != f.bodySize { titleLayer.fontSize = f.bodySize }
        if messageLayer.font !== regular { messageLayer.font = regular }
        if messageLayer.fontSize != f.captionSize { messageLayer.fontSize = f.captionSize }
    }
}
