import FBRuntime

/// An on-screen keyboard: key caps in four rows for each of its `layouts`
/// (three rows of characters, shift and backspace around the third; the
/// layout switch, space and return below), typing into the text control it
/// is given (`target`: a `TextField` or `TextArea`).
///
/// **Use.** Add it to the screen's root (it places itself along the
/// bottom of its superlayer), `attachKeys(to: router)`, and give fields
/// `keyboard = theKeyboard`: a field that begins editing shows the
/// keyboard and becomes its target; ending editing hides it. Keys are
/// `KeyCap` controls, tracked through the router like any control (a key
/// acts when the finger lifts on it).
///
/// **Keys.** A character key inserts its label into the target (shifted
/// while `isShifted`; shift is one-shot: it turns off after a character),
/// backspace deletes backward, space inserts " ", return calls the
/// target's `insertReturn()` (a field submits, an area breaks the line),
/// the layout switch (labelled with the next
/// layout's `name`) shows the next layout. `onKey` hears every key.
///
/// **Showing.** `show()` and `hide()` slide it in from and out to below
/// its superlayer's bottom edge (`position`, over 0.25 s, ease out).
/// `shownFrame` is where it is when shown, and `revealOffset(for:)` how far
/// a screen must move a layer up to keep it above the keyboard: the
/// screen moves its content (this helper only measures). `onShowOrHide`
/// is called when it starts showing or hiding, and when another control
/// becomes the target while it is shown.
public final class Keyboard: Control {
    public let layouts: [KeyboardLayout]
    /// The layout shown, an index into `layouts`.
    public private(set) var layoutIndex = 0
    /// The next character key inserts its shifted label.
    public var isShifted = false { didSet { if isShifted != oldValue { updateKeyTitles() } } }
    /// The field or area keys type into; held while it edits (see `TextInputControl.keyboard`).
    public private(set) var target: TextInputControl?
    /// Shown, or sliding in.
    public private(set) var isVisible = false

    public var onKey: ((Keyboard, KeyboardKey) -> Void)?
    public var onShowOrHide: ((Keyboard) -> Void)?

    /// Key height and the gap around keys, points.
    public var keyHeight: Double = 40 { didSet { invalidatePreferredSize(); setNeedsLayout() } }
    public var keyGap: Double = 6 { didSet { invalidatePreferredSize(); setNeedsLayout() } }

    /// One layer of key caps per layout; only `layoutIndex`'s is shown.
    public private(set) var pages: [Layer] = []
    /// `pages[i]`'s keys, row by row.
    public private(set) var keys: [[[KeyCap]]] = []

    public init(layouts: [KeyboardLayout] = [.englishQWERTY, .russianJCUKEN], theme: Theme = .light) {
        self.layouts = layouts.isEmpty ? [.englishQWERTY] : layouts
        super.init(name: "keyboard")
        self.theme = theme
        anchorPoint = .zero
        for (i, layout) in self.layouts.enumerated() {
            let page = Layer(name: "page")
            page.anchorPoint = .zero
            page.isHidden = i != 0
            var rows: [[KeyCap]] = []
            for (r, row) in layout.rows.enumerated() where r < 3 {
                var caps: [KeyCap] = []
                if r == 2 { caps.append(KeyCap(.shift, title: "⇧", theme: theme)) }
                for (k, label) in row.enumerated() {
                    caps.append(KeyCap(.character(label, shifted: layout.shiftedRows[r][k]), title: label, theme: theme))
                }
                if r == 2 { caps.append(KeyCap(.backspace, title: "⌫", theme: theme)) }
                rows.append(caps)
            }
            let next = self.layouts[(i + 1) % self.layouts.count].name
            rows.append([KeyCap(.nextLayout, title: next, theme: theme), KeyCap(.space, title: "space", theme: theme),
                         KeyCap(.enter, title: "return", theme: theme)])
            for cap in rows.joined() { try? page.addSublayer(cap) }
            try? addSublayer(page)
            pages.append(page)
            keys.append(rows)
        }
        updateAppearance()
    }

    /// The shown layout's keys.
    public var visibleKeys: [[KeyCap]] { keys[layoutIndex] }

    /// The shown key cap for `key` (the first), e.g. to find where to tap.
    public func keyCap(for key: KeyboardKey) -> KeyCap? {
        for row in keys[layoutIndex] { for cap in row where cap.key == key { return cap } }
        return nil
    }

    /// The shown key cap labelled `label` unshifted.
    public func keyCap(label: String) -> KeyCap? {
        for row in keys[layoutIndex] {
            for cap in row { if case let .character(l, _) = cap.key, l == label { return cap } }
        }
        return nil
    }

    /// Attaches every key of every layout to `router` (once).
    public func attachKeys(to router: TouchRouter) {
        for page in keys { for cap in page.joined() { cap.attach(to: router) } }
    }

    /// Touches on the gaps between keys are not the keyboard's to track.
    public override func beginTracking(at point: Point) -> Bool { false }

    /// Four rows of `keyHeight` with `keyGap` around them; 320 points wide
    /// (`show()` gives it the superlayer's width).
    public override var preferredSize: Size {
        Size(width: 320, height: 4 * keyHeight + 5 * keyGap)
    }

    // MARK: Keys

    /// Does what `key` does (a key cap calls it when tapped).
    public func press(_ key: KeyboardKey) {
        switch key {
        case let .character(lower, upper):
            target?.insertText(isShifted ? upper : lower)
            isShifted = false
        case .shift: isShifted.toggle()
        case .backspace: target?.deleteBackward()
        case .space: target?.insertText(" ")
        case .enter: target?.insertReturn()
        case .nextLayout: showLayout((layoutIndex + 1) % layouts.count)
        }
        onKey?(self, key)
    }

    /// Shows layout `index` (clamped).
    public func showLayout(_ index: Int) {
        let i = min(max(index, 0), layouts.count - 1)
        guard i != layoutIndex else { return }
        Transaction.withoutActions {
            pages[layoutIndex].isHidden = true
            layoutIndex = i
            pages[i].isHidden = false
        }
        updateKeyTitles()
    }

    private func updateKeyTitles() {
        Transaction.withoutActions {
            for cap in keys[layoutIndex].joined() {
                switch cap.key {
                case let .character(lower, upper): cap.title = isShifted ? upper : lower
                case .shift: cap.isLatched = isShifted
                default: break
                }
            }
        }
    }

    // MARK: Target

    /// `field` began editing: it becomes the target (the previous one ends
    /// editing) and the keyboard shows.
    public func beginInput(for field: TextInputControl) {
        if target !== field {
            let old = target
            target = field
            old?.endEditing()
            // Already shown: the screen may have to move another field.
            if isVisible { onShowOrHide?(self); return }
        }
        show()
    }

    /// `field` ended editing: if it is the target, the keyboard lets it go
    /// and hides.
    public func endInput(for field: TextInputControl) {
        guard target === field else { return }
        target = nil
        hide()
    }

    // MARK: Showing

    public func show(animated: Bool = true) { slide(visible: true, animated: animated) }
    public func hide(animated: Bool = true) { slide(visible: false, animated: animated) }

    /// Where the keyboard is when shown, in its superlayer's space; nil
    /// without a superlayer.
    public var shownFrame: Rect? {
        guard let s = superlayer else { return nil }
        let b = s.bounds, h = preferredSize.height
        return Rect(x: b.minX, y: b.maxY - h, width: b.width, height: h)
    }

    /// How far (points, ≥ 0) `layer` must move up for its bottom to be
    /// `margin` above the shown keyboard; 0 while the keyboard is hidden.
    /// `layer` is measured by its model geometry, converted through the
    /// common tree.
    public func revealOffset(for layer: Layer, margin: Double = 8) -> Double {
        guard isVisible, let s = superlayer, let frame = shownFrame else { return 0 }
        let b = layer.bounds
        let bottom = s.convert(Point(x: b.minX, y: b.maxY), from: layer).y
        guard bottom.isFinite else { return 0 }
        return max(0, bottom + margin - frame.minY)
    }

    private func slide(visible: Bool, animated: Bool) {
        guard visible != isVisible || superlayer == nil else { return }
        isVisible = visible
        if let s = superlayer, let frame = shownFrame {
            let y = visible ? frame.minY : s.bounds.maxY
            Transaction.withoutActions {
                if bounds.size != frame.size { bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height) }
                layoutIfNeeded()
            }
            let target = Point(x: frame.minX, y: y)
            if animated {
                Transaction.begin()
                Transaction.animationDuration = 0.25
                Transaction.animationTimingFunction = .easeOut
                position = target
                Transaction.commit()
            } else {
                Transaction.withoutActions { position = target }
            }
        }
        onShowOrHide?(self)
    }

    /// Places the keyboard below its superlayer's bottom edge, hidden,
    /// without animation (call after adding it).
    public func placeHidden() {
        isVisible = false
        guard let s = superlayer, let frame = shownFrame else { return }
        Transaction.withoutActions {
            bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
            position = Point(x: frame.minX, y: s.bounds.maxY)
            layoutIfNeeded()
        }
    }

    // MARK: Look

    public override func updateAppearance() {
        if backgroundColor != theme.colors.background { backgroundColor = theme.colors.background }
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let gap = keyGap, h = keyHeight
        for (p, page) in pages.enumerated() {
            if page.frame != b { page.frame = b }
            let rows = keys[p]
            guard rows.count == 4 else { continue }
            // Unit key width: the widest of the three character rows
            // (the third with shift and backspace, 1.5 units each).
            let n0 = rows[0].count, n1 = rows[1].count, n2 = rows[2].count - 2
            let columns = Double(max(n0, n1, n2 + 3, 1))
            let u = max(0, (b.width - gap * (columns + 1)) / columns)
            func y(_ r: Int) -> Double { gap + Double(r) * (h + gap) }
            for r in 0..<2 {
                let n = Double(rows[r].count)
                var x = ((b.width - n * u - (n - 1) * gap) / 2)
                for cap in rows[r] { place(cap, Rect(x: x, y: y(r), width: u, height: h)); x += u + gap }
            }
            let wide = 1.5 * u + gap / 2
            place(rows[2][0], Rect(x: gap, y: y(2), width: wide, height: h))
            place(rows[2][rows[2].count - 1], Rect(x: b.width - gap - wide, y: y(2), width: wide, height: h))
            let n = Double(n2)
            var x = (b.width - n * u - (n - 1) * gap) / 2
            for cap in rows[2][1..<(rows[2].count - 1)] { place(cap, Rect(x: x, y: y(2), width: u, height: h)); x += u + gap }
            let enter = 2.5 * u + gap
            place(rows[3][0], Rect(x: gap, y: y(3), width: wide, height: h))
            place(rows[3][2], Rect(x: b.width - gap - enter, y: y(3), width: enter, height: h))
            let spaceX = gap + wide + gap
            place(rows[3][1], Rect(x: spaceX, y: y(3), width: max(0, b.width - gap - enter - gap - spaceX), height: h))
        }
    }

    private func place(_ cap: KeyCap, _ frame: Rect) {
        let f = Rect(x: frame.minX.rounded(), y: frame.minY.rounded(), width: frame.width.rounded(), height: frame.height)
        if cap.frame != f { cap.frame = f }
    }
}
