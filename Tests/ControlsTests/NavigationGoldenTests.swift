@testable import Controls
import FBRuntime
import Raster
import XCTest

/// Goldens (`Tests/Goldens/controls-nav-*.png`, rewritten with
/// `FBR_UPDATE_GOLDENS=1`): a pushed screen at rest, the tab view with its
/// bar, a sheet and an alert, each after its animation has finished.
final class NavigationGoldenTests: XCTestCase {
    private var scene: ControlScene!
    override func tearDown() { scene?.finish(); scene = nil }

    private func makeScene() -> Theme {
        let theme = Theme.testing()
        scene = ControlScene(width: 320, height: 240, background: theme.colors.background)
        return theme
    }

    func testGoldenPushedScreen() {
        let theme = makeScene()
        let (rootPage, _) = NavigationFixtures.page(0xE8F0E8, button: "Network", theme: theme)
        let (detailPage, _) = NavigationFixtures.page(0xE8E8F4, button: "Join", theme: theme)
        let stack = NavigationStack(root: NavigationScreen(title: "Settings", layer: rootPage), theme: theme)
        scene.add(stack, frame: Rect(x: 0, y: 0, width: 320, height: 240))
        let edit = Button(title: "Edit", style: .plain, theme: theme)
        scene.loop.runTurn { stack.push(NavigationScreen(title: "Wi-Fi", layer: detailPage, trailingButton: edit)) }
        scene.assertGolden("controls-nav-pushed")
    }

    func testGoldenTabBar() {
        let theme = makeScene()
        let view = TabView(theme: theme)
        for (title, color) in [("Home", 0xF4E8E8 as UInt32), ("Programs", 0xE8F4E8), ("Settings", 0xE8E8F4)] {
            view.addTab(title: title, page: NavigationFixtures.page(color, button: title, theme: theme).0)
        }
        scene.add(view, frame: Rect(x: 0, y: 0, width: 320, height: 240))
        scene.tap(160, 218)
        XCTAssertEqual(view.selectedIndex, 1)
        scene.assertGolden("controls-nav-tabs")
    }

    func testGoldenSheet() {
        let theme = makeScene()
        let button = Button(title: "Start", theme: theme)
        scene.add(button, frame: Rect(x: 60, y: 40, width: 200, height: 44))
        let sheet = Sheet(title: "Program", theme: theme)
        let option = Switch(isOn: true, theme: theme)
        option.frame = Rect(x: 16, y: 8, width: 52, height: 32)
        try! sheet.contentLayer.addSublayer(option)
        scene.loop.runTurn { sheet.present(in: scene.root) }
        scene.assertGolden("controls-nav-sheet")
    }

    func testGoldenAlert() {
        let theme = makeScene()
        let button = Button(title: "Start", theme: theme)
        scene.add(button, frame: Rect(x: 60, y: 98, width: 200, height: 44))
        let alert = Alert(title: "Stop the wash?", message: "The door unlocks when the drum is empty.",
                          buttonTitles: ["Cancel", "Stop"], theme: theme)
        scene.loop.runTurn { alert.present(in: scene.root) }
        scene.assertGolden("controls-nav-alert")
    }
}
