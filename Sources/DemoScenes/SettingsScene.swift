import Controls
import FBRuntime
import Raster

/// An appliance's settings screen made of the Controls module only: a
/// `NavigationStack` whose root screen is a grouped list — cards of rows
/// under captions —
///
/// - **Network**: Wi-Fi, a `Switch` (the network's name beside it while on);
/// - **Display**: brightness, a `Slider` with its value; appearance, a
///   `SegmentedControl` Light/Dark that gives the whole tree the light or
///   dark theme with an animation (`Theme.apply(to:duration:)`);
/// - **Sound**: volume, a `Stepper` with its value;
/// - **General**: language, a row that pushes a screen with a
///   `PickerWheel` of languages; the stack's back button (or a back swipe)
///   pops it, and the row shows the language chosen.
///
/// **Layout.** Nothing is placed by hand: the screens, cards and rows are
/// `StackLayout`s, and every length comes from one `Theme` scaled to the
/// panel (`SettingsScene.scale(width:height:)`: the built-in metrics fit
/// the screen in 520×400 points), so one tree fits any panel from 480×272 to
/// 1920×1080 points.
///
/// **At rest** (as built) the root screen shows, light, laid out, with no
/// animation. The scene has no animations of its own: it changes only
/// when touched.
public final class SettingsScene: DemoScene {
    public var root: Layer { stack }
    /// Key navigation over the shown screen's controls (made on first use:
    /// its ring joins the tree only once a control has the focus).
    public private(set) lazy var focus: FocusEngine? = FocusEngine(root: stack, theme: theme)
    /// The navigation stack, filling the screen (root space = display
    /// space, points).
    public let stack: NavigationStack
    /// Panel points per point of the built-in theme (0.3…2.5).
    public let scale: Double
    /// The theme the controls have now (light at rest).
    public private(set) var theme: Theme
    private let lightTheme: Theme, darkTheme: Theme
    /// Seconds the colours take to change with the appearance control.
    public static let themeDuration = 0.3

    public let settingsScreen: NavigationScreen
    public let wifiSwitch: Switch
    let wifiName: WidgetsLabel
    public let brightnessSlider: Slider
    let brightnessLabel: WidgetsLabel
    public let appearance: SegmentedControl
    public let volumeStepper: Stepper
    let volumeLabel: WidgetsLabel
    let languageRow: SettingsLinkRow
    let languageScreen: SettingsChoiceScreen

    public static let networkName = "Home-5G"
    public static let appearanceTitles = ["Light", "Dark"]
    public static let languages = ["English", "Deutsch", "Français", "Español", "Italiano", "Nederlands", "Polski", "Svenska"]

    /// The language chosen (an index into `languages`).
    public var languageIndex: Int { languageScreen.wheel.selectedIndex }
    /// The language row's value as shown.
    public var languageShown: String { languageRow.value }
    /// The language screen is on top of the stack.
    public var isShowingLanguages: Bool { stack.topScreen === languageScreen }
    public var isDark: Bool { appearance.selectedIndex == 1 }
    /// The row that pushes the language screen and that screen's wheel.
    public var languageControl: Control { languageRow }
    public var languageWheel: PickerWheel { languageScreen.wheel }

    /// Every control a finger can change, attached by `installGestures`
    /// (the stack attaches its back button and back swipe itself).
    public var interactiveControls: [Control] {
        [wifiSwitch, brightnessSlider, appearance, volumeStepper, languageRow, languageScreen.wheel]
    }

    /// The theme scale for a `width` × `height` panel: the root screen
    /// needs about 520×400 points at the built-in metrics (bar, four
    /// captions, five rows); clamped to 0.3…2.5.
    public static func scale(width: Double, height: Double) -> Double {
        let s = Swift.min(width / 520, height / 400)
        return s.isFinite ? Swift.min(Swift.max(s, 0.3), 2.5) : 1
    }

    public init(width: Double, height: Double) {
        scale = SettingsScene.scale(width: width, height: height)
        let themes = WidgetsScene.demoThemes(scale: scale)
        lightTheme = themes.light
        darkTheme = themes.dark
        let t = lightTheme
        theme = t
        let m = t.metrics
        let nameWidth = (120 * scale).rounded(), valueWidth = (56 * scale).rounded()

        func label(_ s: String, _ style: WidgetsLabel.Style, alignment: TextAlignment = .left, basis: Double? = nil,
                   grow: Bool = false) -> WidgetsLabel {
            let l = WidgetsLabel(s, style: style, alignment: alignment, theme: t)
            if grow { l.layoutItem = LayoutItem(grow: 1, shrink: 1, basis: 0) } else if let basis { l.layoutItem = LayoutItem(basis: basis) }
            return l
        }

        wifiSwitch = Switch(isOn: true, theme: t)
        wifiName = label(SettingsScene.networkName, .caption, alignment: .right)
        brightnessSlider = Slider(value: 70, minimumValue: 0, maximumValue: 100, theme: t)
        brightnessSlider.layoutItem = LayoutItem(grow: 1, basis: 0)
        brightnessLabel = label(WidgetsScene.percentText(0.7), .value, alignment: .right, basis: valueWidth)
        appearance = SegmentedControl(titles: SettingsScene.appearanceTitles, selectedIndex: 0, theme: t)
        volumeStepper = Stepper(value: 5, minimumValue: 0, maximumValue: 10, theme: t)
        volumeLabel = label("5", .value, alignment: .right, basis: valueWidth)
        languageRow = SettingsLinkRow("Language", value: SettingsScene.languages[0], theme: t)
        languageScreen = SettingsChoiceScreen(title: "Language", caption: "The language of the panel's text",
                                              items: SettingsScene.languages, selectedIndex: 0, width: width, theme: t)

        let page = WidgetsPanel("settings screen", role: .background, theme: t)
        page.layoutManager = StackLayout(direction: .column, gap: (m.spacing / 2).rounded(),
                                         padding: EdgeInsets(top: m.spacing, left: m.padding, bottom: m.spacing, right: m.padding),
                                         crossAlignment: .stretch)
        let groups: [(String, [Layer])] = [
            ("NETWORK", [SettingsScene.row([label("Wi-Fi", .body, grow: true), wifiName, wifiSwitch], theme: t)]),
            ("DISPLAY", [SettingsScene.row([label("Brightness", .body, basis: nameWidth), brightnessSlider, brightnessLabel], theme: t),
                         SettingsScene.row([label("Appearance", .body, grow: true), appearance], theme: t)]),
            ("SOUND", [SettingsScene.row([label("Volume", .body, grow: true), volumeLabel, volumeStepper], theme: t)]),
            ("GENERAL", [languageRow]),
        ]
        for (i, (caption, rows)) in groups.enumerated() {
            let c = label(caption, .caption)
            c.name = "caption " + caption
            try? page.addSublayer(c)
            let card = WidgetsPanel("card " + caption, role: .card, theme: t)
            card.masksToBounds = true   // a highlighted row keeps the card's corners
            card.layoutManager = StackLayout(direction: .column, crossAlignment: .stretch)
            for (k, row) in rows.enumerated() {
                if k > 0 {
                    let line = WidgetsPanel("separator", role: .separator, theme: t)
                    line.layoutItem = LayoutItem(basis: 1)
                    try? card.addSublayer(line)
                }
                row.layoutItem = LayoutItem(basis: m.controlHeight)
                try? card.addSublayer(row)
            }
            try? page.addSublayer(card)
            // A little more room above the next group's caption.
            if i < groups.count - 1 {
                let gap = Layer(name: "group gap")
                gap.layoutItem = LayoutItem(basis: (m.spacing / 2).rounded())
                try? page.addSublayer(gap)
            }
        }

        settingsScreen = NavigationScreen(title: "Settings", layer: page)
        stack = NavigationStack(root: settingsScreen, theme: t)
        stack.bounds = Rect(x: 0, y: 0, width: width, height: height)
        stack.position = Point(x: width / 2, y: height / 2)

        // Laid out now, so the first frame shows the screen in place and
        // nothing moves when it is first displayed; the language screen
        // too, in the bounds the stack will give it (so where its rows
        // will be is known before it is pushed).
        Transaction.withoutActions {
            stack.layoutIfNeeded()
            let pushed = languageScreen.layer
            pushed.anchorPoint = .zero
            pushed.bounds = Rect(x: 0, y: 0, width: width, height: Swift.max(0, height - stack.barHeight))
            pushed.layoutIfNeeded()
        }

        wifiSwitch.onValueChanged = { [unowned(unsafe) self] s in self.wifiName.string = s.isOn ? SettingsScene.networkName : "Off" }
        brightnessSlider.onValueChanged = { [unowned(unsafe) self] s in
            self.brightnessLabel.string = WidgetsScene.percentText(s.value / 100)
        }
        volumeStepper.onValueChanged = { [unowned(unsafe) self] s in self.volumeLabel.string = "\(Int(s.value.rounded()))" }
        appearance.onValueChanged = { [unowned(unsafe) self] c in self.setDark(c.selectedIndex == 1) }
        languageRow.onTap = { [unowned(unsafe) self] _ in self.showLanguages() }
        languageScreen.wheel.onValueChanged = { [unowned(unsafe) self] wheel in
            let i = wheel.selectedIndex
            if SettingsScene.languages.indices.contains(i) { self.languageRow.value = SettingsScene.languages[i] }
        }
    }

    /// A row of a card: its items side by side, centred vertically, the
    /// card's padding at both ends.
    private static func row(_ items: [Layer], theme: Theme) -> Layer {
        let m = theme.metrics
        let row = Layer(name: "row")
        row.layoutManager = StackLayout(gap: m.spacing, padding: EdgeInsets(top: 0, left: m.padding, bottom: 0, right: m.padding),
                                        crossAlignment: .center)
        for l in items { try? row.addSublayer(l) }
        return row
    }

    // MARK: Where things are

    /// The centre of `layer`'s bounds in the root's space (the display's,
    /// points) as laid out now.
    public func centre(of layer: Layer) -> Point {
        let b = layer.bounds
        return layer.convert(Point(x: b.minX + b.width / 2, y: b.minY + b.height / 2), to: root)
    }

    /// The centre of the appearance control's segment `index`, root space.
    public func appearanceSegment(_ index: Int) -> Point {
        let b = appearance.bounds, n = Double(Swift.max(1, appearance.titles.count))
        return appearance.convert(Point(x: b.minX + b.width * (Double(index) + 0.5) / n, y: b.minY + b.height / 2), to: root)
    }

    /// The centre of the bar's back button while a screen is pushed, root
    /// space (the stack sizes it to its title, at most a third of the
    /// width, as high as the bar).
    public var backButtonCentre: Point {
        let w = Swift.min(stack.backButton.preferredSize.width, stack.bounds.width / 3)
        return Point(x: (w / 2).rounded(), y: (stack.barHeight / 2).rounded())
    }

    /// Where the language wheel's row `rows` below the selection band is
    /// once the language screen is pushed and at rest, root space.
    public func languageWheelPoint(rowsBelowBand rows: Int) -> Point {
        let wheel = languageScreen.wheel, b = wheel.bounds
        let inScreen = wheel.convert(Point(x: b.minX + b.width / 2, y: b.minY + b.height / 2 + Double(rows) * wheel.rowHeight),
                                     to: languageScreen.layer)
        return Point(x: inScreen.x, y: inScreen.y + stack.barHeight)
    }

    // MARK: Interaction

    /// Pushes the language screen (the language row's handler), in the
    /// theme the tree has now.
    public func showLanguages() {
        guard !isShowingLanguages else { return }
        if languageScreen.layer.superlayer == nil { theme.apply(to: languageScreen.layer, duration: 0) }
        stack.push(languageScreen, animated: true)
    }

    /// Gives every control the dark or the light theme, the colours
    /// animating over `themeDuration` (the appearance control's handler).
    public func setDark(_ dark: Bool) {
        theme = dark ? darkTheme : lightTheme
        theme.apply(to: root, duration: SettingsScene.themeDuration)
    }

    public func installGestures(in router: TouchRouter) -> Bool {
        stack.attach(to: router)
        for control in interactiveControls { control.attach(to: router) }
        return true
    }

    public func startAnimations(at time: MediaTime) {}

    /// The navigation bar's back button is at the top left; its right end
    /// is empty (no trailing button).
    public var hostButtonCorner: DemoCorner { .topRight }
}
