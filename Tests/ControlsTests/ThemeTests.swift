@testable import Controls
import FBRuntime
import TestSupport
import XCTest

/// Theme: the two built-in themes and switching a displayed tree's theme at
/// run time, animated and not.
final class ThemeTests: XCTestCase {
    private var scene: ControlScene!

    override func tearDown() { scene?.finish(); scene = nil }

    func testLightAndDarkDifferWhereTheyShould() {
        let light = Theme.light, dark = Theme.dark
        XCTAssertNotEqual(light.colors.background, dark.colors.background)
        XCTAssertNotEqual(light.colors.text, dark.colors.text)
        XCTAssertNotEqual(light.colors.accent, light.colors.accentHighlighted)
        // Text reads on its background: light text on dark, dark on light.
        func luminance(_ c: Color) -> Double { 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue }
        XCTAssertGreaterThan(luminance(light.colors.background) - luminance(light.colors.text), 0.5)
        XCTAssertGreaterThan(luminance(dark.colors.text) - luminance(dark.colors.background), 0.5)
        XCTAssertGreaterThan(light.metrics.controlHeight, 0)
        XCTAssertGreaterThan(light.metrics.touchSlop, 0)
    }

    /// Two buttons, one nested in a plain layer: `apply` reaches both, and
    /// the colours animate from the old theme's over the duration given.
    func testApplyAnimatesEveryControlOfTheTree() {
        let light = Theme.testing(), dark = Theme.testing(dark: true)
        scene = ControlScene(width: 200, height: 120)
        let a = Button(title: "A", theme: light), b = Button(title: "B", style: .plain, theme: light)
        let group = Layer(name: "group")
        scene.add(a, frame: Rect(x: 10, y: 10, width: 80, height: 44))
        Transaction.withoutActions {
            group.frame = Rect(x: 0, y: 60, width: 200, height: 60)
            try! group.addSublayer(b)
            b.frame = Rect(x: 10, y: 0, width: 80, height: 44)
            try! scene.root.addSublayer(group)
        }
        scene.loop.runTurn { dark.apply(to: scene.root, duration: 0.5) }
        XCTAssertEqual(a.theme.colors.accent, dark.colors.accent)
        XCTAssertEqual(b.theme.colors.accent, dark.colors.accent, "the nested control too")
        XCTAssertEqual(a.backgroundColor, dark.colors.accent, "the model is the new theme's at once")
        XCTAssertEqual(b.titleLayer.foregroundColor, dark.colors.accent)
        guard case let .basic(fade)? = a.animation(forKey: "backgroundColor") else { return XCTFail("no animation") }
        XCTAssertEqual(fade.duration, 0.5)
        assertColor(presentedColor(a, .backgroundColor, at: scene.now), light.colors.accent)
        scene.advance(by: 0.25)
        let mid = presentedColor(a, .backgroundColor, at: scene.now)!
        XCTAssertGreaterThan(mid.red, light.colors.accent.red)
        XCTAssertLessThan(mid.red, dark.colors.accent.red)
        scene.advance(by: 0.3)
        assertColor(presentedColor(a, .backgroundColor, at: scene.now), dark.colors.accent)
        guard case let .color(title)? = b.titleLayer.presentationValue(for: .foregroundColor, at: scene.now) else {
            return XCTFail("no title colour")
        }
        assertColor(title, dark.colors.accent)
    }

    func testApplyWithoutDurationChangesAtOnce() {
        scene = ControlScene()
        let a = Button(title: "A", theme: .testing())
        scene.add(a, frame: Rect(x: 10, y: 10, width: 80, height: 44))
        scene.loop.runTurn { Theme.testing(dark: true).apply(to: scene.root, duration: 0) }
        XCTAssertTrue(a.animations.isEmpty)
        assertColor(presentedColor(a, .backgroundColor, at: scene.now), Theme.dark.colors.accent)
    }

    func testANewThemeReMeasures() {
        var big = Theme.testing()
        big.fonts.bodySize = 30
        big.metrics.controlHeight = 60
        let a = Button(title: "Start", theme: .testing())
        let before = a.preferredSize
        a.theme = big
        XCTAssertEqual(a.titleLayer.fontSize, 30)
        XCTAssertEqual(a.preferredSize.height, 60)
        XCTAssertGreaterThan(a.preferredSize.width, before.width)
    }

    /// Every control in one column laid out by a `StackLayout`, in the
    /// light theme, half way through the switch to dark, and dark.
    func testGoldenPanelSwitchesThemeAnimated() {
        let light = Theme.testing(), dark = Theme.testing(dark: true)
        scene = ControlScene(width: 280, height: 470, background: light.colors.background)
        let panel = Layer(name: "panel")
        panel.layoutManager = StackLayout(direction: .column, gap: 10, padding: EdgeInsets(all: 12), crossAlignment: .start)
        let slider = Slider(value: 0.3, theme: light)
        let controls: [Control] = [
            Button(title: "Brew", theme: light), Switch(isOn: true, theme: light), slider,
            Stepper(value: 3, minimumValue: 0, maximumValue: 10, theme: light),
            SegmentedControl(titles: ["S", "M", "L"], selectedIndex: 1, theme: light),
            ProgressBar(progress: 0.6, theme: light), ProgressRing(progress: 0.75, theme: light),
            LineChart(values: [0.2, 0.5, 0.3, 0.8], theme: light),
        ]
        controls.last!.layoutItem = LayoutItem(basis: 60)
        Transaction.withoutActions {
            panel.frame = scene.root.bounds
            for c in controls { try! panel.addSublayer(c) }
            try! scene.root.addSublayer(panel)
            scene.root.layoutIfNeeded()
        }
        for c in controls { c.attach(to: scene.router) }
        scene.root.isDisplayRoot = true
        XCTAssertEqual(slider.frame, Rect(x: 12, y: 12 + 44 + 10 + 32 + 10, width: 200, height: 44), "its preferred size in the column")
        scene.assertGolden("controls-panel-light")
        scene.loop.runTurn {
            Transaction.animationDuration = 1          // the screen's own colour, with the controls'
            Transaction.animationTimingFunction = .linear
            dark.apply(to: scene.root, duration: 1)
            scene.root.backgroundColor = dark.colors.background
        }
        scene.clock.advance(by: 0.5)
        let mid = scene.render()
        let result = compareWithGolden(mid.view, name: "controls-panel-half-way")
        XCTAssertTrue(result.passed, result.message)
        scene.assertGolden("controls-panel-dark")
    }

    /// `apply` reaches the focus ring in the tree, and a sheet and an alert
    /// made before the switch, not in the tree then, take the tree's theme
    /// when presented over it; one presented before the switch is in the
    /// tree and changes with it; one told to keep its own does.
    func testApplyReachesTheFocusRingAndSheetsAndAlertsShownLater() {
        let light = Theme.testing(), dark = Theme.testing(dark: true)
        scene = ControlScene(width: 240, height: 160)
        let a = Button(title: "A", theme: light)
        scene.add(a, frame: Rect(x: 10, y: 10, width: 80, height: 44))
        let focus = FocusEngine(root: scene.root, theme: light)
        scene.loop.runTurn { _ = focus.focus(a, animated: false) }
        XCTAssertTrue(focus.ring.superlayer === scene.root, "the ring is in the tree")
        XCTAssertEqual(focus.ring.borderColor, light.colors.accent)
        let early = Sheet(title: "Early", theme: light)
        scene.loop.runTurn { early.present(in: scene.root, animated: false) }
        let sheet = Sheet(title: "Later", theme: light), alert = Alert(title: "Later", theme: light)
        XCTAssertNotEqual(light.colors.surface, dark.colors.surface)

        scene.loop.runTurn { dark.apply(to: scene.root, duration: 0) }
        XCTAssertEqual(focus.ring.borderColor, dark.colors.accent, "the focus ring")
        XCTAssertEqual(focus.theme.colors.accent, dark.colors.accent)
        XCTAssertEqual(early.theme.colors.surface, dark.colors.surface, "a sheet in the tree")
        XCTAssertEqual(sheet.theme.colors.surface, light.colors.surface, "not in the tree yet")

        scene.loop.runTurn {
            early.dismiss(animated: false)
            sheet.present(in: scene.root, animated: false)
        }
        XCTAssertEqual(sheet.theme.colors.surface, dark.colors.surface, "a sheet shown after the switch")
        XCTAssertEqual(sheet.panelLayer.backgroundColor, dark.colors.surface)
        scene.loop.runTurn {
            sheet.dismiss(animated: false)
            alert.present(in: scene.root, animated: false)
        }
        XCTAssertEqual(alert.theme.colors.surface, dark.colors.surface, "an alert shown after the switch")
        XCTAssertEqual(alert.boxLayer.backgroundColor, dark.colors.surface)
        let own = Alert(title: "Own", theme: light)
        own.adoptsHostTheme = false
        scene.loop.runTurn {
            alert.dismiss(animated: false)
            own.present(in: scene.root, animated: false)
        }
        XCTAssertEqual(own.theme.colors.surface, light.colors.surface, "an alert keeping its own theme")
        XCTAssertNil(Theme.of(host: Layer(name: "bare")), "no control: no theme")
    }
}
