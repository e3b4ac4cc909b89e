import AppShell
import FBRuntime

/// A line of text at `frame` (its superlayer's coordinates, points).
func makeLabel(_ text: String, size: Double, color: Color = Theme.text, frame: Rect,
               alignment: TextAlignment = .left) -> TextLayer {
    let label = TextLayer()
    label.string = text
    label.fontSize = size
    label.foregroundColor = color
    label.alignmentMode = alignment
    label.frame = frame
    return label
}

/// A rounded button with a centred title. Tapping it briefly darkens it
/// (tap feedback) and calls `action`; a disabled button ignores taps and
/// is dimmed.
final class Button {
    let layer = Layer(name: "button")
    let title: TextLayer
    private let color: Color
    var isEnabled = true { didSet { layer.opacity = isEnabled ? 1 : 0.4 } }

    init(_ text: String, frame: Rect, color: Color = Theme.accent, on screen: Screen, action: @escaping () -> Void) {
        self.color = color
        layer.frame = frame
        layer.cornerRadius = frame.height / 2
        layer.backgroundColor = color
        title = makeLabel(text, size: Theme.bodySize, frame: Rect(x: 0, y: (frame.height - 24) / 2, width: frame.width, height: 26),
                          alignment: .center)
        try? layer.addSublayer(title)
        screen.onTap(layer, name: "button \(text)") {
            guard self.isEnabled else { return }
            self.flash()
            action()
        }
    }

    /// The tap feedback: the button dims and comes back.
    private func flash() {
        try? layer.add(BasicAnimation(key: .opacity, from: .scalar(0.55), to: .scalar(1), duration: 0.3), forKey: "tap")
    }
}

/// An on/off switch: a track with a knob that slides (implicitly animated)
/// when it changes.
final class Toggle {
    let layer = Layer(name: "toggle")
    private let knob = Layer(name: "knob")
    var isOn: Bool { didSet { update() } }

    init(isOn: Bool, origin: Point, on screen: Screen, changed: @escaping (Bool) -> Void) {
        self.isOn = isOn
        layer.frame = Rect(x: origin.x, y: origin.y, width: 52, height: 30)
        layer.cornerRadius = 15
        knob.bounds = Rect(x: 0, y: 0, width: 26, height: 26)
        knob.cornerRadius = 13
        knob.backgroundColor = .white
        try? layer.addSublayer(knob)
        Transaction.withoutActions { update() }
        screen.onTap(layer, name: "toggle") {
            self.isOn.toggle()
            changed(self.isOn)
        }
    }

    private func update() {
        layer.backgroundColor = isOn ? Theme.accent : Theme.off
        knob.position = Point(x: isOn ? 37 : 15, y: 15)
    }
}

/// A row of a list: an optional icon, a title, a detail line, a chevron,
/// and a separator under it. `frame` in the list's coordinates.
func makeRow(title: String, detail: String?, icon: LayerContents?, frame: Rect, chevron: Bool = true) -> Layer {
    let row = Layer(name: "row \(title)")
    row.frame = frame
    row.backgroundColor = Theme.surface
    var x = Theme.margin
    if let icon {
        let image = Layer(name: "icon")
        image.frame = Rect(x: x, y: (frame.height - 36) / 2, width: 36, height: 36)
        image.contents = icon
        image.contentsGravity = .resizeAspect
        try? row.addSublayer(image)
        x += 48
    }
    let top = detail == nil ? (frame.height - 24) / 2 : 4.0
    try? row.addSublayer(makeLabel(title, size: Theme.bodySize, frame: Rect(x: x, y: top, width: frame.width - x - 40, height: 24)))
    if let detail {
        try? row.addSublayer(makeLabel(detail, size: Theme.detailSize, color: Theme.secondaryText,
                                       frame: Rect(x: x, y: 27, width: frame.width - x - 40, height: 18)))
    }
    if chevron {
        try? row.addSublayer(makeLabel("›", size: 26, color: Theme.secondaryText,
                                       frame: Rect(x: frame.width - 32, y: (frame.height - 34) / 2, width: 20, height: 32)))
    }
    let separator = Layer(name: "separator")
    separator.frame = Rect(x: x, y: frame.height - 1, width: frame.width - x, height: 1)
    separator.backgroundColor = Theme.background
    try? row.addSublayer(separator)
    return row
}

/// A page's header: a title, and a back button when `back` is given.
func makeHeader(_ title: String, width: Double, on screen: Screen, back: (() -> Void)?) -> Layer {
    let header = Layer(name: "header")
    header.frame = Rect(x: 0, y: 0, width: width, height: Theme.headerHeight)
    try? header.addSublayer(makeLabel(title, size: Theme.titleSize, frame: Rect(x: 0, y: 13, width: width, height: 32),
                                      alignment: .center))
    if let back {
        let button = makeLabel("‹ Back", size: Theme.bodySize, color: Theme.accent, frame: Rect(x: 8, y: 8, width: 80, height: 40))
        button.name = "back"
        try? header.addSublayer(button)
        screen.onTap(button, name: "back") { back() }
    }
    return header
}
