import Controls
import FBRuntime
import Raster

/// LVGL's layout of scene 15 (the widgets demo's Profile tab), as
/// `Benchmarks/lvgl/lvgl_widgets.py` writes it (`layout()`): one box per
/// object, screen pixels, the tab scrolled to 0, and the motion's
/// parameters. The screen is laid out by LVGL's grids on Montserrat's
/// metrics; reading LVGL's result, rather than redoing its grid rules
/// here, keeps both engines' boxes identical.
struct WidgetsLayout {
    var boxes: [String: Rect] = [:]
    /// The Profile tab's scroll range, pixels, and the duration of each
    /// way, ms (a range of 0 or less, LVGL's scroll bottom when the tab is
    /// shorter than the screen: it does not scroll).
    var scrollRange = 0, scrollMS = 0
    /// The tab's scrollbar at scroll 0 and, when it scrolls, at the range.
    var scrollbars: [Rect] = []
    var sliderMS = 2000, switch1MS = 1000, switch2MS = 1500

    /// Parses the text of `widgets-layout-WxH.txt`; nil when a line is
    /// malformed.
    init?(text: String) {
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let key = words.first else { continue }
            let numbers = words.dropFirst().compactMap { Int($0) }
            guard numbers.count == words.count - 1 else { return nil }
            func rect(_ n: ArraySlice<Int>) -> Rect? {
                guard n.count == 4 else { return nil }
                let v = Array(n)
                return Rect(x: Double(v[0]), y: Double(v[1]), width: Double(v[2]), height: Double(v[3]))
            }
            switch key {
            case "scroll":
                guard numbers.count == 2 else { return nil }
                scrollRange = numbers[0]; scrollMS = numbers[1]
            case "scrollbar":
                guard let r = rect(numbers.dropFirst()) else { return nil }
                scrollbars.append(r)
            case "slider_ms", "switch1_ms", "switch2_ms":
                guard numbers.count == 1 else { return nil }
                switch key {
                case "slider_ms": sliderMS = numbers[0]
                case "switch1_ms": switch1MS = numbers[0]
                default: switch2MS = numbers[0]
                }
            default:
                guard let r = rect(numbers[...]) else { return nil }
                boxes[String(key)] = r
            }
        }
        guard boxes["tab"] != nil else { return nil }
    }

    func box(_ key: String) -> Rect { boxes[key] ?? Rect(x: 0, y: 0, width: 0, height: 0) }
}

extension SceneBuilder {
    /// LVGL's default light theme as the widgets demo sets it up (primary
    /// #2196F3, montserrat 16 / 24, here DejaVu Sans at those sizes), in
    /// Controls' terms. Colours read from LVGL's frame: text #212121,
    /// muted text the same at 50 %, borders #E0E0E0, placeholders
    /// #BDBDBD, a disabled button #80BAE9 with #EFEFEF text.
    func widgetsTheme() -> Theme {
        var t = Theme.light
        t.colors.accent = SceneBuilder.primary
        t.colors.accentHighlighted = Color(rgb: 0x1976D2)
        t.colors.onAccent = .white
        t.colors.background = SceneBuilder.screenColor
        t.colors.surface = .white
        t.colors.knob = .white
        t.colors.track = SceneBuilder.cardBorder
        t.colors.text = SceneBuilder.cardText
        t.colors.secondaryText = Color(rgb: 0xBDBDBD)
        t.colors.separator = SceneBuilder.cardBorder
        t.colors.disabled = Color(rgb: 0x80BAE9)
        t.colors.disabledText = Color(rgb: 0xEFEFEF)
        t.fonts = Theme.Fonts(regular: font, bold: font, bodySize: 16, titleSize: 24, captionSize: 14)
        t.metrics.cornerRadius = 13        // LVGL's buttons: LV_DPX(16)
        t.metrics.padding = 24             // a text field's text 12 px in
        t.metrics.switchSize = Size(width: 52, height: 30)
        t.metrics.trackHeight = 13
        t.metrics.thumbSize = 25
        return t
    }

    /// Scene 15, "Widgets demo": the widgets demo's Profile tab
    /// (`Benchmarks/lvgl/lvgl_widgets.py` says what it is and where it
    /// departs from LVGL's demo) made of Controls: a `TabBar`, `Button`s,
    /// `TextField`s, a `Slider` and `Switch`es, on white cards, at the
    /// boxes LVGL laid out (`layout`). Each frame, as the LVGL side: the
    /// tab scrolls with the slideshow (when it can), the slider's value
    /// ramps 0…100…0 and the switches toggle.
    func widgetsDemo(_ layout: WidgetsLayout) -> BenchmarkScene {
        let root = makeRoot()
        let theme = widgetsTheme()
        let muted = Color(red: SceneBuilder.cardText.red, green: SceneBuilder.cardText.green,
                          blue: SceneBuilder.cardText.blue, alpha: 0.5)
        func place(_ layer: Layer, _ key: String, in origin: Point = .zero) {
            let r = layout.box(key)
            layer.frame = Rect(x: r.minX - origin.x, y: r.minY - origin.y, width: r.width, height: r.height)
        }
        func at(_ key: String, _ origin: Point) -> Point {
            let r = layout.box(key)
            return Point(x: r.minX - origin.x, y: r.minY - origin.y)
        }

        // The tab bar: white, the title at its left, the tabs on its right
        // half, the selected one tinted (LVGL's checked tab button).
        let barBox = layout.box("tab_bar")
        let bar = box("tab bar", Point(x: barBox.minX, y: barBox.minY), Int(barBox.width), Int(barBox.height))
        bar.backgroundColor = .white
        try! root.addSublayer(bar)
        let barOrigin = Point(x: barBox.minX, y: barBox.minY)
        try! bar.addSublayer(text("LVGL v9.5.0", size: 24, color: SceneBuilder.cardText, at: at("title", barOrigin)))
        try! bar.addSublayer(text("Widgets demo", size: 16, color: muted, at: at("subtitle", barOrigin)))
        let tint = Layer(name: "selected tab")
        place(tint, "tab_button_0", in: barOrigin)
        tint.backgroundColor = Color(rgb: 0xD1E9FB)
        try! bar.addSublayer(tint)
        var barTheme = theme
        barTheme.colors.surface = .clear
        barTheme.colors.separator = .white
        barTheme.colors.secondaryText = SceneBuilder.cardText
        let tabs = TabBar(titles: ["Profile", "Analytics", "Shop"], selectedIndex: 0, theme: barTheme)
        tabs.indicatorHeight = 4
        let first = layout.box("tab_button_0"), last = layout.box("tab_button_2")
        tabs.frame = Rect(x: first.minX - barOrigin.x, y: 0, width: last.maxX - first.minX, height: barBox.height)
        try! bar.addSublayer(tabs)

        // The Profile tab: a clipped page scrolled through its bounds.
        let tabBox = layout.box("tab")
        let page = box("profile tab", Point(x: tabBox.minX, y: tabBox.minY), Int(tabBox.width), Int(tabBox.height))
        page.masksToBounds = true
        try! root.addSublayer(page)
        let pageOrigin = Point(x: tabBox.minX, y: tabBox.minY)

        func panel(_ key: String) -> (Layer, Point) {
            let r = layout.box(key)
            let p = card(key, r, origin: pageOrigin)
            try! page.addSublayer(p)
            return (p, Point(x: r.minX, y: r.minY))
        }
        func label(_ string: String, _ key: String, in parent: (Layer, Point), size: Int = 16, color: Color = SceneBuilder.cardText) {
            try! parent.0.addSublayer(text(string, size: size, color: color, at: at(key, parent.1)))
        }

        let panel1 = panel("panel1")
        try! panel1.0.addSublayer(image(assets.avatar, at: at("avatar", panel1.1)))
        label("Elena Smith", "name", in: panel1, size: 24)
        let description = layout.box("description")
        try! panel1.0.addSublayer(text("This is a short description of me. Take a look at my profile!", size: 16, color: muted,
                                       at: at("description", panel1.1), wrapWidth: Int(description.width)))
        label("\u{2709}", "email_icon", in: panel1, size: 24, color: SceneBuilder.primary)
        label("elena@smith.com", "email", in: panel1)
        label("\u{260E}", "call_icon", in: panel1, size: 24, color: SceneBuilder.primary)
        label("+79 246 123 4567", "call", in: panel1)
        let logOut = Button(title: "Log out", theme: theme)
        let invite = Button(title: "Invite", theme: theme)
        invite.isEnabled = false
        for (button, key) in [(logOut, "log_out"), (invite, "invite")] {
            place(button, key, in: panel1.1)
            raise(button)
            try! panel1.0.addSublayer(button)
        }

        var fieldTheme = theme
        fieldTheme.metrics.cornerRadius = 10
        let panel2 = panel("panel2")
        label("Your profile", "panel2_title", in: panel2, size: 24)
        for (title, key) in [("User name", "user_name_label"), ("Password", "password_label"), ("Gender", "gender_label"),
                             ("Birthday", "birthday_label")] {
            label(title, key, in: panel2, color: muted)
        }
        for (text, placeholder, key) in [("", "Your name", "user_name"), ("", "Min. 8 chars.", "password"),
                                         ("Male", "", "gender"), ("", "", "birthday")] {
            let field = TextField(text: text, placeholder: placeholder, theme: fieldTheme)
            place(field, key, in: panel2.1)
            try! panel2.0.addSublayer(field)
        }
        // The drop-down's arrow.
        let gender = layout.box("gender")
        let arrow = self.text("\u{25BE}", size: 16, color: SceneBuilder.cardText, at: .zero)
        arrow.position = Point(x: gender.maxX - panel2.1.x - 12 - arrow.bounds.width,
                               y: (gender.minY + gender.height / 2) - panel2.1.y - (arrow.bounds.height / 2).rounded())
        try! panel2.0.addSublayer(arrow)

        let panel3 = panel("panel3")
        label("Your skills", "panel3_title", in: panel3, size: 24)
        for (title, key) in [("Experience", "experience_label"), ("Team player", "team_player_label"),
                             ("Hard-working", "hard_working_label")] {
            label(title, key, in: panel3, color: muted)
        }
        // LVGL's slider box is its bar; the knob (25 px) reaches past both
        // ends, so the control is a knob wider and as tall as the knob.
        var sliderTheme = theme
        sliderTheme.colors.track = Color(rgb: 0xD1E9FB)
        sliderTheme.colors.knob = SceneBuilder.primary
        sliderTheme.colors.separator = SceneBuilder.primary
        let slider = Slider(value: 0, minimumValue: 0, maximumValue: 100, theme: sliderTheme)
        let bar1 = layout.box("slider"), knob = sliderTheme.metrics.thumbSize
        slider.frame = Rect(x: bar1.minX - panel3.1.x - knob / 2, y: (bar1.minY + bar1.height / 2) - panel3.1.y - knob / 2,
                            width: bar1.width + knob, height: knob)
        try! panel3.0.addSublayer(slider)
        let switch1 = Switch(isOn: false, theme: theme), switch2 = Switch(isOn: false, theme: theme)
        place(switch1, "switch1", in: panel3.1)
        place(switch2, "switch2", in: panel3.1)
        try! panel3.0.addSublayer(switch1)
        try! panel3.0.addSublayer(switch2)

        // The keyboard the demo makes for the text fields, hidden.
        let keyboard = Keyboard(layouts: [.englishQWERTY], theme: theme)
        keyboard.isHidden = true
        try! root.addSublayer(keyboard)

        // The tab's scrollbar (LVGL shows it while the tab can scroll).
        let scrollbar = Layer(name: "scrollbar")
        if let r = layout.scrollbars.first, layout.scrollRange > 0 {
            scrollbar.anchorPoint = .zero
            scrollbar.frame = r
            scrollbar.cornerRadius = r.width / 2
            scrollbar.backgroundColor = Color(rgb: 0xD1D1D1)
            try! root.addSublayer(scrollbar)
        }

        // The floating colour changer: a white circle, the round primary
        // button over it with a white drop (LVGL's tint symbol).
        let changer = layout.box("color_changer")
        let circle = box("color changer", Point(x: changer.minX, y: changer.minY), Int(changer.width), Int(changer.height))
        circle.backgroundColor = .white
        circle.cornerRadius = changer.width / 2
        try! root.addSublayer(circle)
        let buttonBox = layout.box("color_button")
        let colorButton = box("color button", Point(x: buttonBox.minX, y: buttonBox.minY), Int(buttonBox.width), Int(buttonBox.height))
        colorButton.backgroundColor = SceneBuilder.primary
        colorButton.cornerRadius = buttonBox.width / 2
        let drop = ShapeLayer(name: "tint")
        drop.anchorPoint = .zero
        drop.bounds = Rect(x: 0, y: 0, width: buttonBox.width, height: buttonBox.height)
        var dropPath = Path()
        let cx = buttonBox.width / 2, cy = buttonBox.height / 2 + 2
        dropPath.move(to: PathPoint(cx, cy - 10))
        dropPath.line(to: PathPoint(cx + 5.2, cy - 3))
        dropPath.arc(center: PathPoint(cx, cy + 1), radius: 6.5, startAngle: -0.9, endAngle: Double.pi + 0.9, clockwise: true)
        dropPath.close()
        drop.path = dropPath
        drop.fillColor = .white
        try! colorButton.addSublayer(drop)
        try! root.addSublayer(colorButton)

        root.layoutIfNeeded()
        let scene = BenchmarkScene(root: root)
        let (w, h) = (tabBox.width, tabBox.height)
        let range = layout.scrollRange, scrollMS = layout.scrollMS
        let bar0 = layout.scrollbars.first, barEnd = layout.scrollbars.last
        let sliderMS = layout.sliderMS, periods = (layout.switch1MS, layout.switch2MS)
        scene.update = { i in
            if range > 0, let bar0, let barEnd {
                let v = triangle(i, scrollMS, scrollMS, range)
                let b = Rect(x: 0, y: Double(v), width: w, height: h)
                if page.bounds != b {
                    page.bounds = b
                    // The bar moves linearly between its two ends.
                    let y = bar0.minY + ((barEnd.minY - bar0.minY) * Double(v) / Double(range)).rounded()
                    scrollbar.position = Point(x: bar0.minX, y: y)
                }
            }
            slider.value = Double(triangle(i, sliderMS, sliderMS, 100))
            let tick = i * 1000 / 60
            switch1.isOn = (tick / periods.0) % 2 == 1
            switch2.isOn = (tick / periods.1) % 2 == 1
            root.layoutIfNeeded()
        }
        return scene
    }

    /// A white card of LVGL's default theme (radius 10, 2 px #E0E0E0
    /// border), at `r` (screen pixels) less `origin`.
    private func card(_ name: String, _ r: Rect, origin: Point) -> Layer {
        let card = box(name, Point(x: r.minX - origin.x, y: r.minY - origin.y), Int(r.width), Int(r.height))
        card.backgroundColor = .white
        card.cornerRadius = 10
        card.borderWidth = 2
        card.borderColor = SceneBuilder.cardBorder
        return card
    }

    /// LVGL's theme button shadow (as `card`'s "Connect" button).
    private func raise(_ button: Button) {
        button.shadowColor = Color(rgb: 0x9E9E9E)
        button.shadowOpacity = 0.5
        button.shadowRadius = 1
        button.shadowOffset = Size(width: 0, height: 2)
        button.shadowPath = Path(roundedRect: 0, 0, button.bounds.width, button.bounds.height, radii: CornerRadii(13))
    }
}
