@testable import Controls
import FBRuntime
import Raster
import XCTest

/// Sheet and Alert: presenting slides or scales them in (checked half
/// way), a tap on the dimming or the close button dismisses a sheet, an
/// alert's buttons call the handler with their index, and nothing under
/// either can be touched while it is up.
final class NavigationModalTests: XCTestCase {
    private var scene: ControlScene!
    private var under: Button!
    private var underTaps = 0
    override func tearDown() { scene?.finish(); scene = nil }

    /// A 320×240 scene with a button (its centre at (160, 120)) attached.
    private func makeScene(dark: Bool = false) -> Theme {
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 320, height: 240, background: theme.colors.background)
        under = Button(title: "Start", theme: theme)
        underTaps = 0
        under.onTap = { [unowned self] _ in self.underTaps += 1 }
        scene.add(under, frame: Rect(x: 60, y: 98, width: 200, height: 44))
        return theme
    }

    // MARK: Sheet

    func testSheetSlidesUpAndATapOnTheDimmingDismissesIt() {
        let theme = makeScene()
        let sheet = Sheet(title: "Program", theme: theme)
        sheet.attach(to: scene.router)
        var dismissed = 0
        sheet.onDismiss = { _ in dismissed += 1 }
        scene.loop.runTurn { sheet.present(in: scene.root) }
        XCTAssertTrue(sheet.isPresented)
        XCTAssertTrue(sheet.superlayer === scene.root)
        XCTAssertEqual(sheet.frame, Rect(x: 0, y: 0, width: 320, height: 240))
        XCTAssertEqual(sheet.panelFrame, Rect(x: 0, y: 96, width: 320, height: 144))
        XCTAssertEqual(sheet.panelLayer.position, Point(x: 0, y: 96))
        // Half way through 0.3 s (ease out: 1 − (1 − t)² is not it exactly;
        // the panel is between its start and its end, past the middle).
        scene.clock.advance(by: 0.15)
        let y = presentedPoint(sheet.panelLayer, .position, at: scene.now)?.y ?? .nan
        XCTAssertGreaterThan(y, 96)
        XCTAssertLessThan(y, 168, "more than half way up with an ease out")
        let dim = presentedScalar(sheet.dimmingLayer, .opacity, at: scene.now) ?? .nan
        XCTAssertGreaterThan(dim, 0.2)
        XCTAssertLessThan(dim, 0.4)
        scene.advance(by: 1)
        // The button under it is covered.
        scene.tap(160, 120)
        XCTAssertEqual(underTaps, 0)
        XCTAssertTrue(sheet.isPresented, "the panel is not the dimming")
        // A tap on the dimming.
        scene.tap(160, 40)
        XCTAssertFalse(sheet.isPresented)
        XCTAssertTrue(sheet.superlayer === scene.root, "still there while it slides down")
        scene.advance(by: 1)
        XCTAssertNil(sheet.superlayer)
        XCTAssertEqual(dismissed, 1)
        scene.tap(160, 120)
        XCTAssertEqual(underTaps, 1, "the button works again")
    }

    func testSheetCloseButtonDismisses() {
        let theme = makeScene()
        let sheet = Sheet(title: "Program", theme: theme)
        sheet.attach(to: scene.router)
        sheet.present(in: scene.root, animated: false)
        XCTAssertEqual(sheet.dimmingLayer.opacity, sheet.dimmedOpacity)
        let close = sheet.closeButton.frame
        let panel = sheet.panelFrame
        scene.tap(panel.minX + close.midX, panel.minY + close.midY)
        scene.advance(by: 1)
        XCTAssertFalse(sheet.isPresented)
        XCTAssertNil(sheet.superlayer)
    }

    func testThemeReachesAPresentedSheetAndAlert() {
        let theme = makeScene()
        let sheet = Sheet(title: "Program", theme: theme)
        sheet.present(in: scene.root, animated: false)
        let alert = Alert(title: "Done", theme: theme)
        alert.present(in: scene.root, animated: false)
        let dark = Theme.testing(dark: true)
        dark.apply(to: scene.root, duration: 0)
        XCTAssertEqual(sheet.panelLayer.backgroundColor, dark.colors.surface)
        XCTAssertEqual(sheet.titleLayer.foregroundColor, dark.colors.text)
        XCTAssertEqual(sheet.closeButton.titleLayer.foregroundColor, dark.colors.accent)
        XCTAssertEqual(alert.boxLayer.backgroundColor, dark.colors.surface)
        XCTAssertEqual(alert.titleLayer.foregroundColor, dark.colors.text)
        XCTAssertEqual(alert.buttons[0].backgroundColor, dark.colors.accent)
    }

    // MARK: Alert

    func testAlertButtonCallsTheHandlerWithItsIndexAndBlocksTouchesBelow() {
        let theme = makeScene()
        let alert = Alert(title: "Stop the wash?", message: "The door unlocks when the drum is empty.",
                          buttonTitles: ["Cancel", "Stop"], theme: theme)
        alert.attach(to: scene.router)
        var chosen: [Int] = []
        alert.onChoose = { a, i in
            XCTAssertFalse(a.isPresented)
            chosen.append(i)
        }
        scene.loop.runTurn { alert.present(in: scene.root) }
        XCTAssertEqual(alert.buttons.map(\.title), ["Cancel", "Stop"])
        XCTAssertEqual(alert.buttons[1].style, .filled)
        XCTAssertEqual(alert.buttons[0].style, .plain)
        // Half way through the scale and fade (0.2 s, ease out).
        scene.clock.advance(by: 0.1)
        let scale = presentedScalar(alert.boxLayer, .transformScale, at: scene.now) ?? .nan
        XCTAssertGreaterThan(scale, 1)
        XCTAssertLessThan(scale, 1.1)
        let opacity = presentedScalar(alert.boxLayer, .opacity, at: scene.now) ?? .nan
        XCTAssertGreaterThan(opacity, 0.5)
        XCTAssertLessThan(opacity, 1)
        scene.advance(by: 1)
        XCTAssertEqual(alert.boxLayer.opacity, 1)
        // Touches below are blocked: on the box and on the dimming.
        let box = alert.boxLayer.frame
        scene.tap(box.midX, box.minY + 10)
        scene.tap(160, 10)
        scene.tap(62, 120)
        XCTAssertEqual(underTaps, 0)
        XCTAssertTrue(alert.isPresented)
        XCTAssertTrue(chosen.isEmpty)
        // The second button.
        let stop = alert.buttons[1].frame
        scene.tap(box.minX + stop.midX, box.minY + stop.midY)
        XCTAssertEqual(chosen, [1])
        scene.advance(by: 1)
        XCTAssertNil(alert.superlayer)
        scene.tap(160, 120)
        XCTAssertEqual(underTaps, 1, "touches reach the screen again")
    }

    func testAlertFirstButtonIsIndexZeroAndButtonsAreCappedAtThree() {
        let theme = makeScene()
        let alert = Alert(title: "Filter", buttonTitles: ["A", "B", "C", "D"], theme: theme)
        XCTAssertEqual(alert.buttons.count, 3)
        alert.attach(to: scene.router)
        var chosen: [Int] = []
        alert.onChoose = { _, i in chosen.append(i) }
        alert.present(in: scene.root, animated: false)
        let box = alert.boxLayer.frame
        let first = alert.buttons[0].frame
        XCTAssertEqual(first.minX, theme.metrics.padding)
        XCTAssertLessThanOrEqual(alert.buttons[2].frame.maxX, box.width - theme.metrics.padding)
        scene.tap(box.minX + first.midX, box.minY + first.midY)
        XCTAssertEqual(chosen, [0])
        // A second tap while it fades out chooses nothing more.
        scene.tap(box.minX + first.midX, box.minY + first.midY)
        XCTAssertEqual(chosen, [0])
    }
}
