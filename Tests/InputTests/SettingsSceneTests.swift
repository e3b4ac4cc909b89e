import Controls
@testable import DemoScenes
import DemoTouchScripts
import FBRuntime
import Raster
import XCTest

/// The settings demo: its layout from the boards' smallest panel to the
/// largest (every control on screen, none over another), goldens at rest,
/// pushed and after its board touch script, and its interaction through
/// the real `TouchRouter` with the scene's own gestures on a manual clock.
final class SettingsSceneTests: XCTestCase {
    static let sizes: [(Double, Double)] = [(480, 272), (640, 480), (1920, 1080), (800, 480), (1024, 600), (480, 800), (320, 240)]

    private func make(_ w: Double = 640, _ h: Double = 480) -> (SceneDriver, SettingsScene) {
        let driver = SceneDriver { SettingsScene(width: w, height: h) }
        return (driver, driver.scene as! SettingsScene)
    }

    private func colour(_ layer: Layer, at t: MediaTime) -> Color? {
        guard case let .color(c)? = layer.presentationValue(for: .backgroundColor, at: t) else { return nil }
        return c
    }

    // MARK: Layout

    func testEveryControlIsOnScreenAndNoneOverlapsAnotherFrom480x272To1920x1080() throws {
        for (w, h) in Self.sizes {
            let (d, scene) = make(w, h)
            defer { d.finish() }
            XCTAssertEqual(scene.root.bounds, Rect(x: 0, y: 0, width: w, height: h))
            let onRoot = scene.interactiveControls.filter { $0 !== scene.languageWheel }
            var frames: [(String, Rect)] = []
            for c in onRoot {
                XCTAssertTrue(c.isInDisplayedTree, c.name)
                frames.append((c.name, rootFrame(of: c, in: scene.root)))
            }
            // The wheel where it will be once pushed: under the bar.
            let wheel = scene.languageWheel
            let wheelFrame = rootFrame(of: wheel, in: scene.languageWheel.superlayer!.superlayer!)
            frames.append(("wheel", Rect(x: wheelFrame.minX, y: wheelFrame.minY + scene.stack.barHeight,
                                         width: wheelFrame.width, height: wheelFrame.height)))
            for (name, f) in frames {
                let what = "\(name) at \(Int(w))x\(Int(h)): \(f)"
                XCTAssertGreaterThan(f.width, 0, what)
                XCTAssertGreaterThan(f.height, 0, what)
                XCTAssertTrue(f.minX >= -1e-9 && f.minY >= scene.stack.barHeight - 1e-9 && f.maxX <= w + 1e-9 && f.maxY <= h + 1e-9,
                              "off screen or under the bar: " + what)
            }
            for c in onRoot where !(c is SettingsLinkRow) {
                XCTAssertGreaterThanOrEqual(rootFrame(of: c, in: scene.root).height, c.preferredSize.height - 1e-9,
                                            "\(c.name) squeezed at \(Int(w))x\(Int(h))")
            }
            for i in 0..<frames.count - 1 {   // the wheel is on another screen
                for j in (i + 1)..<(frames.count - 1) {
                    let a = frames[i].1, b = frames[j].1
                    let ox = Swift.min(a.maxX, b.maxX) - Swift.max(a.minX, b.minX)
                    let oy = Swift.min(a.maxY, b.maxY) - Swift.max(a.minY, b.minY)
                    XCTAssertFalse(ox > 1e-6 && oy > 1e-6, "\(frames[i].0) \(a) overlaps \(frames[j].0) \(b) at \(Int(w))x\(Int(h))")
                }
            }
        }
    }

    func testTheSceneIsLaidOutAndStillWhenFirstDisplayed() throws {
        let (d, scene) = make(480, 272)
        defer { d.finish() }
        d.loop.runTurn {}
        var moving: [String] = []
        func walk(_ layer: Layer) {
            if !layer.animations.isEmpty || layer.needsLayout { moving.append(layer.name) }
            for s in layer.sublayers { walk(s) }
        }
        walk(scene.root)
        XCTAssertEqual(moving, [], "nothing moves or waits for layout at rest")
        XCTAssertTrue(scene.stack.topScreen === scene.settingsScreen)
        XCTAssertFalse(scene.isDark)
        XCTAssertEqual(scene.hostButtonCorner, .topRight, "fbdemo's button stays off the bar's back button")
    }

    // MARK: Goldens

    /// `Tests/Goldens/demo-settings-{rest,language,touched}.png` at
    /// 480×272: at rest; the language screen pushed; after the board touch
    /// script (dark, Wi-Fi off, Deutsch, back on the settings screen).
    func testGoldens() throws {
        let (d, scene) = make(480, 272)
        defer { d.finish() }
        d.assertGolden("demo-settings-rest")
        d.tap(scene.centre(of: scene.languageControl))
        d.run(1)
        XCTAssertTrue(scene.isShowingLanguages)
        d.assertGolden("demo-settings-language")

        let (d2, scene2) = make(480, 272)
        defer { d2.finish() }
        d2.playTouchScript()
        XCTAssertTrue(scene2.isDark)
        d2.assertGolden("demo-settings-touched")
    }

    // MARK: Interaction

    func testTapTogglesTheWiFiSwitch() throws {
        let (d, scene) = make()
        defer { d.finish() }
        XCTAssertTrue(scene.wifiSwitch.isOn)
        d.tap(scene.centre(of: scene.wifiSwitch))
        XCTAssertFalse(scene.wifiSwitch.isOn)
        XCTAssertEqual(scene.wifiName.string, "Off")
        d.run(0.5)
        d.tap(scene.centre(of: scene.wifiSwitch))
        XCTAssertTrue(scene.wifiSwitch.isOn)
        XCTAssertEqual(scene.wifiName.string, SettingsScene.networkName)
    }

    func testDragMovesTheBrightnessSliderAndItsValue() throws {
        let (d, scene) = make()
        defer { d.finish() }
        let slider = scene.brightnessSlider
        XCTAssertEqual(slider.value, 70)
        let thumb = slider.convert(Point(x: slider.thumbCenterX(for: 70), y: slider.bounds.height / 2), to: scene.root)
        let to = slider.convert(Point(x: slider.thumbCenterX(for: 30), y: slider.bounds.height / 2), to: scene.root)
        d.drag(from: thumb, to: to, moves: 10)
        XCTAssertEqual(slider.value, 30, accuracy: 0.5)
        XCTAssertEqual(scene.brightnessLabel.string, "30 %")
    }

    func testStepperStepsTheVolume() throws {
        let (d, scene) = make()
        defer { d.finish() }
        let f = rootFrame(of: scene.volumeStepper, in: scene.root)
        d.tap(Point(x: f.maxX - f.width / 4, y: f.minY + f.height / 2))   // "+"
        XCTAssertEqual(scene.volumeStepper.value, 6)
        XCTAssertEqual(scene.volumeLabel.string, "6")
        d.tap(Point(x: f.minX + f.width / 4, y: f.minY + f.height / 2))   // "−"
        d.tap(Point(x: f.minX + f.width / 4, y: f.minY + f.height / 2))
        XCTAssertEqual(scene.volumeStepper.value, 4)
    }

    func testDarkSegmentFadesTheWholeTreeIncludingTheScreenPushedLater() throws {
        let (d, scene) = make()
        defer { d.finish() }
        let light = Theme.light.colors, dark = Theme.dark.colors
        d.tap(scene.appearanceSegment(1))
        XCTAssertTrue(scene.isDark)
        let halfway = try XCTUnwrap(colour(scene.stack, at: d.now + SettingsScene.themeDuration / 2))
        XCTAssertLessThan(halfway.red, light.background.red - 0.1, "on its way from light")
        XCTAssertGreaterThan(halfway.red, dark.background.red + 0.1, "not yet dark")
        d.run(0.5)
        XCTAssertEqual(scene.stack.backgroundColor, dark.background)
        XCTAssertEqual(scene.wifiSwitch.theme.colors.background, dark.background)
        d.tap(scene.centre(of: scene.languageControl))
        d.run(1)
        XCTAssertTrue(scene.isShowingLanguages)
        XCTAssertEqual(scene.languageWheel.theme.colors.background, dark.background, "the pushed screen is dark too")
        XCTAssertEqual(scene.languageWheel.superlayer?.backgroundColor, dark.surface)
    }

    func testLanguageRowPushesTheWheelAndBackPops() throws {
        let (d, scene) = make()
        defer { d.finish() }
        let wifi = scene.centre(of: scene.wifiSwitch)
        d.tap(scene.centre(of: scene.languageControl))
        XCTAssertTrue(scene.isShowingLanguages)
        XCTAssertTrue(scene.stack.isTransitioning)
        d.run(1)
        XCTAssertFalse(scene.stack.isTransitioning)
        XCTAssertNil(scene.settingsScreen.layer.superlayer, "the settings screen left the tree")
        XCTAssertEqual(rootFrame(of: scene.languageWheel, in: scene.root).minY,
                       scene.languageWheelPoint(rowsBelowBand: 0).y - scene.languageWheel.bounds.height / 2, accuracy: 1e-6,
                       "the wheel is where the scene said it would be")
        // The settings screen is out of the tree: a tap where the Wi-Fi
        // switch was does nothing to it.
        d.tap(wifi)
        XCTAssertTrue(scene.wifiSwitch.isOn)
        // A tap on the row under the band turns the wheel to it.
        d.tap(scene.languageWheelPoint(rowsBelowBand: 1))
        d.run(1)
        XCTAssertEqual(scene.languageIndex, 1)
        XCTAssertEqual(scene.languageShown, "Deutsch")
        // Back pops; the settings screen's controls take touches again.
        d.tap(scene.backButtonCentre)
        XCTAssertFalse(scene.isShowingLanguages)
        d.run(1)
        XCTAssertTrue(scene.settingsScreen.layer.isInDisplayedTree)
        XCTAssertFalse(scene.languageWheel.isInDisplayedTree)
        d.tap(wifi)
        XCTAssertFalse(scene.wifiSwitch.isOn)
        // And the row pushes again.
        d.tap(scene.centre(of: scene.languageControl))
        d.run(1)
        XCTAssertTrue(scene.isShowingLanguages)
        XCTAssertEqual(scene.languageIndex, 1)
    }

    func testTouchScriptEndsDarkWiFiOffDeutschOnTheSettingsScreen() throws {
        for (w, h) in [(640.0, 480.0), (480.0, 272.0), (1920.0, 1080.0)] {
            let (d, scene) = make(w, h)
            defer { d.finish() }
            d.playTouchScript()
            XCTAssertTrue(scene.isDark, "\(w)x\(h)")
            XCTAssertFalse(scene.wifiSwitch.isOn, "\(w)x\(h)")
            XCTAssertEqual(scene.languageShown, "Deutsch", "\(w)x\(h)")
            XCTAssertFalse(scene.isShowingLanguages, "\(w)x\(h)")
            XCTAssertFalse(scene.stack.isTransitioning, "\(w)x\(h): at rest")
        }
    }
}
