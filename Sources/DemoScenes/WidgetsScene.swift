import Controls
import FBRuntime
import Raster

/// An appliance's settings screen in the spirit of LVGL's widgets demo,
/// made of the Controls module only: a header with a title and a light/dark
/// switch, a segmented control choosing one of two pages, and the pages —
///
/// - **Status**: a wash cycle's progress ring with its percentage, a water
///   tank's progress bar, a line chart (temperature) and a bar chart
///   (energy per day);
/// - **Settings**: Wi-Fi and eco switches, brightness and volume sliders
///   with their values, a temperature stepper and a picker wheel of modes.
///
/// **Layout.** Nothing is placed by hand: the root, the header, the cards
/// and their rows are `StackLayout`s, the pages a `PageStackLayout`, and
/// every length comes from one `Theme` scaled to the panel
/// (`WidgetsScene.scale(width:height:)`), so one tree fits any panel from
/// 480×272 to 1920×1080 points.
///
/// **Theme.** The dark switch gives the whole tree `Theme.dark` or
/// `Theme.light` (scaled) with `Theme.apply(to:duration:)`: the colours
/// animate over `themeDuration`. The panels and labels are controls too
/// (`WidgetsPanel`, `WidgetsLabel`), so they follow.
///
/// **At rest** (as built, before `startAnimations`) the scene shows the
/// Status page, light, laid out, with no animation: the first frame does
/// not depend on when it is drawn. `startAnimations` runs the wash cycle
/// from its resting 72 % to 100 % (an explicit animation of the ring's
/// `strokeEnd` that starts where the rest frame is); the run loop's turns
/// update the percentage and, every `chartStep` seconds, move the line
/// chart to the next sample window (an implicit path animation).
public final class WidgetsScene: DemoScene {
    public var root: Layer { background }
    private let background: WidgetsPanel
    /// Key navigation over the controls (made on first use: its ring joins
    /// the tree only once a control has the focus).
    public private(set) lazy var focus: FocusEngine? = FocusEngine(root: background, theme: theme)
    /// Panel points per point of the built-in theme (0.3…2.5).
    public let scale: Double
    /// The theme the controls have now (light at rest).
    public private(set) var theme: Theme
    private let lightTheme: Theme, darkTheme: Theme
    public var isDark: Bool { darkSwitch.isOn }
    /// Seconds the colours take to change with the dark switch.
    public static let themeDuration = 0.3

    // Header and tabs.
    let header: WidgetsPanel
    public let darkSwitch: Switch
    public let tabs: SegmentedControl
    /// The pages, in the order of `tabs`: Status, Settings.
    public let pages: [Layer]
    public static let pageTitles = ["Status", "Settings"]
    /// The page shown (an index into `pages`).
    public private(set) var page = 0

    // Status.
    public let cycleRing: ProgressRing
    let cycleLabel: WidgetsLabel
    public let tankBar: ProgressBar
    public let lineChart: LineChart
    public let barChart: BarChart
    /// The wash cycle's progress at rest, and its duration once started.
    public static let restingCycle = 0.72
    public static let cycleDuration = 20.0
    /// Seconds between the line chart's samples.
    public static let chartStep = 2.0
    static let chartSamples = 12

    // Settings.
    public let wifiSwitch: Switch
    public let ecoSwitch: Switch
    public let brightnessSlider: Slider
    public let volumeSlider: Slider
    let brightnessLabel: WidgetsLabel
    let volumeLabel: WidgetsLabel
    public let temperatureStepper: Stepper
    let temperatureLabel: WidgetsLabel
    public let modeWheel: PickerWheel
    public static let modes = ["Auto", "Heat", "Cool", "Dry", "Fan"]

    /// Every control a finger can change, attached by `installGestures`.
    public var interactiveControls: [Control] {
        [darkSwitch, tabs, wifiSwitch, ecoSwitch, brightnessSlider, volumeSlider, temperatureStepper, modeWheel]
    }

    private var started = false
    private var startTime: MediaTime = 0
    private var chartStepShown = 0
    private var cyclePercentShown = -1

    /// The theme scale for a `width` × `height` panel: the built-in metrics
    /// are made for about 640×420 points; clamped to 0.3…2.5.
    public static func scale(width: Double, height: Double) -> Double {
        let s = Swift.min(width / 640, height / 420)
        return s.isFinite ? Swift.min(Swift.max(s, 0.3), 2.5) : 1
    }

    public init(width: Double, height: Double) {
        scale = WidgetsScene.scale(width: width, height: height)
        let themes = WidgetsScene.demoThemes(scale: scale)
        lightTheme = themes.light
        darkTheme = themes.dark
        let t = lightTheme
        theme = t
        let m = t.metrics

        background = WidgetsPanel("root", role: .background, theme: t)
        background.bounds = Rect(x: 0, y: 0, width: width, height: height)
        background.position = Point(x: width / 2, y: height / 2)
        background.layoutManager = StackLayout(direction: .column, crossAlignment: .stretch)

        // Header: the title, then "Dark" and its switch at the right.
        header = WidgetsPanel("header", role: .header, theme: t)
        let headerInset = (m.spacing * 0.75).rounded()
        header.layoutManager = StackLayout(gap: m.spacing,
                                           padding: EdgeInsets(top: headerInset, left: m.padding, bottom: headerInset, right: m.padding),
                                           crossAlignment: .center)
        let title = WidgetsLabel("Washer", style: .title, theme: t)
        title.layoutItem = LayoutItem(grow: 1, shrink: 1, basis: 0)
        darkSwitch = Switch(isOn: false, theme: t)
        WidgetsScene.add([title, WidgetsLabel("Dark", style: .caption, theme: t), darkSwitch], to: header)

        // Body: the tabs over the pages.
        let body = Layer(name: "body")
        body.layoutManager = StackLayout(direction: .column, gap: m.spacing, padding: EdgeInsets(all: m.spacing), crossAlignment: .stretch)
        body.layoutItem = LayoutItem(grow: 1, basis: 0)
        tabs = SegmentedControl(titles: WidgetsScene.pageTitles, selectedIndex: 0, theme: t)
        let pageStack = Layer(name: "pages")
        pageStack.layoutManager = PageStackLayout()
        pageStack.layoutItem = LayoutItem(grow: 1, basis: 0)

        // Status: the cycle card (a third of the width), the charts card.
        cycleRing = ProgressRing(progress: WidgetsScene.restingCycle, theme: t)
        cycleLabel = WidgetsLabel(WidgetsScene.percentText(WidgetsScene.restingCycle), style: .title, theme: t)
        tankBar = ProgressBar(progress: 0.45, theme: t)
        tankBar.layoutItem = LayoutItem(alignSelf: .stretch)
        lineChart = LineChart(values: WidgetsScene.temperatures(step: 0), minimumValue: 20, maximumValue: 80, theme: t)
        lineChart.gridLineCount = 4
        lineChart.lineLayer.lineWidth = Swift.max(1, (2 * scale).rounded())
        lineChart.layoutItem = LayoutItem(grow: 1, basis: 0)
        barChart = BarChart(values: [6.2, 4.8, 7.5, 5.1, 3.9, 6.8, 5.6], maximumValue: 8, theme: t)
        barChart.barGap = (6 * scale).rounded()
        barChart.layoutItem = LayoutItem(grow: 1, basis: 0)
        let cycleCard = WidgetsScene.card("cycle", column: [
            WidgetsLabel("Wash cycle", style: .caption, theme: t), cycleRing, cycleLabel,
            WidgetsLabel("Water tank", style: .caption, theme: t), tankBar,
        ], crossAlignment: .center, mainAlignment: .spaceEvenly, theme: t)
        cycleCard.layoutItem = LayoutItem(basis: ((width - 3 * m.spacing) * 0.34).rounded())
        let chartsCard = WidgetsScene.card("charts", column: [
            WidgetsLabel("Water temperature, °C", style: .caption, theme: t), lineChart,
            WidgetsLabel("Energy per day, kWh", style: .caption, theme: t), barChart,
        ], crossAlignment: .stretch, theme: t)
        chartsCard.layoutItem = LayoutItem(grow: 1, basis: 0)
        let status = WidgetsScene.page("status", [cycleCard, chartsCard], theme: t)

        // Settings: switches and sliders on the left, the stepper and the
        // wheel on the right.
        wifiSwitch = Switch(isOn: true, theme: t)
        ecoSwitch = Switch(isOn: false, theme: t)
        brightnessSlider = Slider(value: 70, minimumValue: 0, maximumValue: 100, theme: t)
        volumeSlider = Slider(value: 40, minimumValue: 0, maximumValue: 100, theme: t)
        brightnessLabel = WidgetsLabel(WidgetsScene.percentText(0.7), style: .value, alignment: .right, theme: t)
        volumeLabel = WidgetsLabel(WidgetsScene.percentText(0.4), style: .value, alignment: .right, theme: t)
        temperatureStepper = Stepper(value: 40, minimumValue: 20, maximumValue: 90, theme: t)
        temperatureStepper.stepValue = 10
        temperatureLabel = WidgetsLabel("40 °C", style: .value, alignment: .right, theme: t)
        modeWheel = PickerWheel(items: WidgetsScene.modes, selectedIndex: 1, theme: t)
        modeWheel.rowHeight = (36 * scale).rounded()
        modeWheel.visibleRows = 3
        let nameWidth = (100 * scale).rounded(), valueWidth = (52 * scale).rounded()
        func name(_ s: String, grow: Bool) -> WidgetsLabel {
            let l = WidgetsLabel(s, style: .body, theme: t)
            l.layoutItem = grow ? LayoutItem(grow: 1, shrink: 1, basis: 0) : LayoutItem(basis: nameWidth)
            return l
        }
        for slider in [brightnessSlider, volumeSlider] { slider.layoutItem = LayoutItem(grow: 1, basis: 0) }
        for value in [brightnessLabel, volumeLabel, temperatureLabel] { value.layoutItem = LayoutItem(basis: valueWidth) }
        modeWheel.layoutItem = LayoutItem(grow: 1.5, basis: 0)
        let switchesCard = WidgetsScene.card("switches", column: [
            WidgetsScene.row("wifi", [name("Wi-Fi", grow: true), wifiSwitch], gap: m.spacing),
            WidgetsScene.row("eco", [name("Eco mode", grow: true), ecoSwitch], gap: m.spacing),
            WidgetsScene.row("brightness", [name("Brightness", grow: false), brightnessSlider, brightnessLabel], gap: m.spacing),
            WidgetsScene.row("volume", [name("Volume", grow: false), volumeSlider, volumeLabel], gap: m.spacing),
        ], crossAlignment: .stretch, mainAlignment: .spaceEvenly, theme: t)
        switchesCard.layoutItem = LayoutItem(grow: 1, basis: 0)
        let programCard = WidgetsScene.card("program", column: [
            WidgetsScene.row("temperature", [name("Temperature", grow: true), temperatureLabel, temperatureStepper], gap: m.spacing),
            WidgetsScene.row("mode", [name("Mode", grow: true), modeWheel], gap: m.spacing),
        ], crossAlignment: .stretch, mainAlignment: .spaceEvenly, theme: t)
        programCard.layoutItem = LayoutItem(grow: 1, basis: 0)
        let settings = WidgetsScene.page("settings", [switchesCard, programCard], theme: t)

        pages = [status, settings]
        for p in pages { try? pageStack.addSublayer(p) }
        settings.isHidden = true
        WidgetsScene.add([tabs, pageStack], to: body)
        WidgetsScene.add([header, body], to: background)

        // Lay the tree out now, so the first frame (and every frame at rest)
        // shows it in place and nothing moves when it is first displayed.
        Transaction.withoutActions { background.layoutIfNeeded() }

        tabs.onValueChanged = { [unowned(unsafe) self] tabs in self.showPage(tabs.selectedIndex ?? 0) }
        darkSwitch.onValueChanged = { [unowned(unsafe) self] s in self.setDark(s.isOn) }
        brightnessSlider.onValueChanged = { [unowned(unsafe) self] s in self.brightnessLabel.string = WidgetsScene.percentText(s.value / 100) }
        volumeSlider.onValueChanged = { [unowned(unsafe) self] s in self.volumeLabel.string = WidgetsScene.percentText(s.value / 100) }
        temperatureStepper.onValueChanged = { [unowned(unsafe) self] s in
            self.temperatureLabel.string = "\(Int(s.value.rounded())) °C"
        }
    }

    static let boldFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// `Theme.light` and `Theme.dark` scaled to `scale` panel points per
    /// point, sharing the demos' fonts (DejaVu Sans, its bold where
    /// present): the themes of the scenes made of controls (widgets,
    /// settings, list).
    static func demoThemes(scale: Double) -> (light: Theme, dark: Theme) {
        let regular = try? Font(path: OrbitScene.fontPath)
        let bold = (try? Font(path: boldFontPath)) ?? regular
        return (Theme.light.scaled(by: scale, regular: regular, bold: bold), Theme.dark.scaled(by: scale, regular: regular, bold: bold))
    }

    // MARK: Building

    private static func add(_ layers: [Layer], to parent: Layer) {
        for l in layers { try? parent.addSublayer(l) }
    }

    /// A card: a `surface` panel stacking `items` in a column.
    private static func card(_ name: String, column items: [Layer], crossAlignment: StackLayout.CrossAlignment,
                             mainAlignment: StackLayout.MainAlignment = .start, theme: Theme) -> WidgetsPanel {
        let m = theme.metrics
        let card = WidgetsPanel(name, role: .card, theme: theme)
        card.layoutManager = StackLayout(direction: .column, gap: (m.spacing * 0.75).rounded(), padding: EdgeInsets(all: m.spacing),
                                         mainAlignment: mainAlignment, crossAlignment: crossAlignment)
        add(items, to: card)
        return card
    }

    /// A row of a card: its items side by side, centred vertically.
    private static func row(_ name: String, _ items: [Layer], gap: Double) -> Layer {
        let row = Layer(name: name)
        row.layoutManager = StackLayout(gap: gap, crossAlignment: .center)
        add(items, to: row)
        return row
    }

    /// A page: its cards side by side, as tall as the page.
    private static func page(_ name: String, _ cards: [Layer], theme: Theme) -> Layer {
        let page = Layer(name: name)
        page.layoutManager = StackLayout(gap: theme.metrics.spacing, crossAlignment: .stretch)
        add(cards, to: page)
        return page
    }

    /// "72 %" for 0.72 (whole percent, rounded; without printing a Double,
    /// which Embedded Swift cannot).
    static func percentText(_ fraction: Double) -> String {
        let f = fraction.isFinite ? Swift.min(Swift.max(fraction, 0), 1) : 0
        return "\(Int((f * 100).rounded())) %"
    }

    /// The line chart's samples for step `step` (°C): a deterministic
    /// stand-in for a sensor, 30…70 °C, shifted one sample per step.
    public static func temperatures(step: Int) -> [Double] {
        var values: [Double] = []
        values.reserveCapacity(chartSamples)
        for i in 0..<chartSamples {
            let x = Double(i + step)
            let (s1, _) = FloatMath.sinCos(0.55 * x)
            let (s2, _) = FloatMath.sinCos(1.3 * x + 1)
            values.append(50 + 14 * s1 + 5 * s2)
        }
        return values
    }

    // MARK: Interaction

    /// Shows page `index` (the tabs' handler); the page fades in over the
    /// theme's animation duration.
    public func showPage(_ index: Int) {
        guard pages.indices.contains(index), index != page else { return }
        page = index
        let now = AppRunLoop.current.now
        Transaction.withoutActions {
            for (i, p) in pages.enumerated() { p.isHidden = i != index }
        }
        var fade = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1), duration: theme.metrics.animationDuration)
        fade.timingFunction = .easeOut
        pages[index].add(fade, forKey: "fade", at: now)
    }

    /// Gives every control the dark or the light theme, the colours
    /// animating over `themeDuration` (the dark switch's handler).
    public func setDark(_ dark: Bool) {
        theme = dark ? darkTheme : lightTheme
        theme.apply(to: root, duration: WidgetsScene.themeDuration)
    }

    public func installGestures(in router: TouchRouter) -> Bool {
        for control in interactiveControls { control.attach(to: router) }
        return true
    }

    // MARK: Animation

    public func startAnimations(at time: MediaTime) {
        started = true
        startTime = time
        chartStepShown = 0
        // The cycle runs on from where the rest frame shows it.
        Transaction.withoutActions { cycleRing.progress = 1 }
        var run = BasicAnimation(key: .strokeEnd, from: .scalar(WidgetsScene.restingCycle), to: .scalar(1),
                                 duration: WidgetsScene.cycleDuration)
        run.timingFunction = .linear
        cycleRing.arcLayer.add(run, forKey: "cycle", at: time)
    }

    /// The cycle's progress at `time` once started (linear, as the ring's
    /// animation), 0…1.
    public func cycleProgress(at time: MediaTime) -> Double {
        guard started else { return WidgetsScene.restingCycle }
        let f = (time - startTime) / WidgetsScene.cycleDuration
        guard f.isFinite else { return WidgetsScene.restingCycle }
        let r = WidgetsScene.restingCycle
        return Swift.min(Swift.max(r + (1 - r) * f, r), 1)
    }

    /// Updates the percentage under the ring (when its whole percent
    /// changes) and, every `chartStep` seconds while the Status page shows,
    /// moves the line chart one sample on.
    public func turn(at time: MediaTime) {
        guard started else { return }
        let percent = Int((cycleProgress(at: time) * 100).rounded())
        if percent != cyclePercentShown {
            cyclePercentShown = percent
            Transaction.withoutActions { cycleLabel.string = "\(percent) %" }
        }
        let t = time - startTime
        let step = t.isFinite && t > 0 ? Int(Swift.min(t / WidgetsScene.chartStep, 1e9)) : 0
        guard page == 0, step > chartStepShown else { return }
        chartStepShown = step
        lineChart.setValues(WidgetsScene.temperatures(step: step), animated: true, duration: 0.6)
    }
}
