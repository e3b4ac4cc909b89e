import Controls
import FBRuntime

// The building blocks of the widgets, settings and list scenes besides the
// Controls themselves: a themed panel and a themed label (Control subclasses, so that
// `Theme.apply(to:duration:)` recolours them with the controls, animated),
// the layout of stacked pages, and the theme scaled to the panel.

/// A background or card behind controls, coloured from its theme: the
/// screen's `background`, a `surface` header, a raised `surface` card with
/// the theme's corner radius, or a `separator` hairline between a card's
/// rows. Not interactive. Lay its sublayers out with a
/// `layoutManager` (its `preferredSize` is the manager's).
final class WidgetsPanel: Control {
    enum Role: Equatable { case background, header, card, separator }
    let role: Role

    init(_ name: String, role: Role, theme: Theme) {
        self.role = role
        super.init(name: name)
        self.theme = theme
        updateAppearance()
    }

    override func beginTracking(at point: Point) -> Bool { false }

    override func updateAppearance() {
        let c = theme.colors
        let fill: Color
        switch role {
        case .background: fill = c.background
        case .header, .card: fill = c.surface
        case .separator: fill = c.separator
        }
        if backgroundColor != fill { backgroundColor = fill }
        let radius = role == .card ? theme.metrics.cornerRadius : 0
        if cornerRadius != radius { cornerRadius = radius }
    }
}

/// One line of text coloured and sized from its theme: a title (bold,
/// `titleSize`, `text`), a body line (`bodySize`, `text`), a caption
/// (`captionSize`, `secondaryText`) or a value (`bodySize`, `accent`). Its
/// `preferredSize` is its text's; the text is centred vertically in the
/// bounds it is given. Not interactive.
final class WidgetsLabel: Control {
    enum Style: Equatable { case title, body, caption, value }
    var style: Style {
        didSet {
            guard style != oldValue else { return }
            applyFont()
            updateAppearance()
            invalidatePreferredSize()
        }
    }
    let textLayer = TextLayer(name: "text")

    init(_ string: String, style: Style, alignment: TextAlignment = .left, theme: Theme) {
        self.style = style
        super.init(name: "label")
        self.theme = theme
        textLayer.string = string
        textLayer.alignmentMode = alignment
        textLayer.truncationMode = .end
        try? addSublayer(textLayer)
        applyFont()
        updateAppearance()
        bounds = Rect(origin: .zero, size: preferredSize)
        placeText()
    }

    var string: String {
        get { textLayer.string }
        set {
            guard newValue != textLayer.string else { return }
            textLayer.string = newValue
            invalidatePreferredSize()   // the stack holding the label sizes it to its text
        }
    }

    override var preferredSize: Size { textLayer.preferredSize }

    override func beginTracking(at point: Point) -> Bool { false }

    override func layoutSublayers() {
        super.layoutSublayers()
        placeText()
    }

    override func themeDidChange() {
        applyFont()
        super.themeDidChange()
    }

    override func updateAppearance() {
        let c = theme.colors
        let color: Color
        switch style {
        case .title, .body: color = c.text
        case .caption: color = c.secondaryText
        case .value: color = c.accent
        }
        if textLayer.foregroundColor != color { textLayer.foregroundColor = color }
    }

    private func applyFont() {
        let f = theme.fonts
        let font = (style == .title ? f.bold ?? f.regular : f.regular) ?? TextLayer.defaultFont
        let size: Double
        switch style {
        case .title: size = f.titleSize
        case .body, .value: size = f.bodySize
        case .caption: size = f.captionSize
        }
        if textLayer.font !== font { textLayer.font = font }
        if textLayer.fontSize != size { textLayer.fontSize = size }
    }

    private func placeText() {
        let b = bounds
        let height = Swift.min(textLayer.preferredSize.height, b.height)
        let frame = Rect(x: b.minX, y: b.minY + ((b.height - height) / 2).rounded(), width: b.width, height: height)
        if textLayer.frame != frame { textLayer.frame = frame }
    }
}

/// Pages on top of each other: every sublayer gets the whole bounds,
/// hidden or not, so a page is laid out before it is first shown (and a
/// page switch is only a change of `isHidden`).
final class PageStackLayout: LayoutManager {
    func layoutSublayers(of layer: Layer) {
        let b = layer.bounds
        for page in layer.sublayers where page.frame != b { page.frame = b }
    }
}

extension Theme {
    /// This theme for a panel `scale` times the size the built-in metrics
    /// are made for (lengths rounded to whole points, font sizes not), with
    /// `regular` and `bold` fonts.
    func scaled(by scale: Double, regular: Font?, bold: Font?) -> Theme {
        var t = self
        func len(_ v: Double) -> Double { Swift.max(1, (v * scale).rounded()) }
        t.fonts.regular = regular
        t.fonts.bold = bold
        t.fonts.bodySize *= scale
        t.fonts.titleSize *= scale
        t.fonts.captionSize *= scale
        t.metrics.cornerRadius = len(t.metrics.cornerRadius)
        t.metrics.controlHeight = len(t.metrics.controlHeight)
        t.metrics.padding = len(t.metrics.padding)
        t.metrics.spacing = len(t.metrics.spacing)
        t.metrics.touchSlop = len(t.metrics.touchSlop)
        t.metrics.trackHeight = len(t.metrics.trackHeight)
        t.metrics.thumbSize = len(t.metrics.thumbSize)
        t.metrics.switchSize = Size(width: len(t.metrics.switchSize.width), height: len(t.metrics.switchSize.height))
        t.metrics.ringLineWidth = len(t.metrics.ringLineWidth)
        return t
    }
}
