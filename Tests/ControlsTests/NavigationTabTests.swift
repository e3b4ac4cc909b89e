@testable import Controls
import FBRuntime
import Raster
import XCTest

/// TabBar and TabView: a tap on a tab through the router selects it (the
/// accent moves there) and cross-fades the pages; only the selected page is
/// in the tree at rest; a drag off the tab selects nothing.
final class NavigationTabTests: XCTestCase {
    private var scene: ControlScene!
    override func tearDown() { scene?.finish(); scene = nil }

    /// A 320×240 tab view with three tabs (bar at y 196…240, tabs 106⅔
    /// points wide).
    private func makeTabs() -> (TabView, [Layer]) {
        let theme = Theme.testing()
        scene = ControlScene(width: 320, height: 240, background: theme.colors.background)
        let view = TabView(theme: theme)
        var pages: [Layer] = []
        for (title, color) in [("Home", 0xF4E8E8 as UInt32), ("Programs", 0xE8F4E8), ("Settings", 0xE8E8F4)] {
            let (page, _) = NavigationFixtures.page(color, button: title, theme: theme)
            view.addTab(title: title, page: page)
            pages.append(page)
        }
        scene.add(view, frame: Rect(x: 0, y: 0, width: 320, height: 240))
        return (view, pages)
    }

    func testTheFirstTabIsSelectedAndAloneInTheTree() {
        let (view, pages) = makeTabs()
        XCTAssertEqual(view.selectedIndex, 0)
        XCTAssertEqual(view.tabBar.titles, ["Home", "Programs", "Settings"])
        XCTAssertEqual(view.tabBar.frame, Rect(x: 0, y: 196, width: 320, height: 44))
        XCTAssertEqual(view.pagesLayer.frame, Rect(x: 0, y: 0, width: 320, height: 196))
        XCTAssertTrue(pages[0].superlayer === view.pagesLayer)
        XCTAssertNil(pages[1].superlayer)
        XCTAssertNil(pages[2].superlayer)
        XCTAssertEqual(pages[0].frame, Rect(x: 0, y: 0, width: 320, height: 196))
        let accent = view.theme.colors.accent
        XCTAssertEqual(view.tabBar.titleLayers[0].foregroundColor, accent)
        XCTAssertEqual(view.tabBar.titleLayers[1].foregroundColor, view.theme.colors.secondaryText)
        XCTAssertEqual(view.tabBar.indicatorLayer.backgroundColor, accent)
        XCTAssertEqual(view.tabBar.indicatorLayer.frame, Rect(x: 0, y: 0, width: 320.0 / 3, height: 3))
    }

    func testTapOnATabSwitchesWithACrossFade() {
        let (view, pages) = makeTabs()
        var changes: [Int?] = []
        view.onSelectionChanged = { changes.append($0.selectedIndex) }
        scene.tap(267, 218)
        XCTAssertEqual(view.selectedIndex, 2)
        XCTAssertEqual(changes, [2])
        XCTAssertEqual(view.tabBar.titleLayers[2].foregroundColor, view.theme.colors.accent)
        XCTAssertEqual(view.tabBar.titleLayers[0].foregroundColor, view.theme.colors.secondaryText)
        XCTAssertEqual(view.tabBar.indicatorLayer.position.x, 640.0 / 3, accuracy: 1e-9)
        // Both pages in the tree while they cross-fade, the new one in front.
        XCTAssertTrue(pages[0].superlayer === view.pagesLayer)
        XCTAssertTrue(view.pagesLayer.sublayers.last === pages[2])
        scene.clock.advance(by: 0.125)   // half of 0.25 s, ease in ease out
        XCTAssertEqual(presentedScalar(pages[2], .opacity, at: scene.now) ?? .nan, 0.5, accuracy: 0.01)
        XCTAssertEqual(presentedScalar(pages[0], .opacity, at: scene.now) ?? .nan, 0.5, accuracy: 0.01)
        scene.advance(by: 1)
        XCTAssertNil(pages[0].superlayer, "the old page leaves the tree")
        XCTAssertEqual(pages[0].opacity, 1, "ready to come back")
        XCTAssertEqual(view.pagesLayer.sublayers.map(ObjectIdentifier.init), [ObjectIdentifier(pages[2])])
        // A tap on the selected tab changes nothing.
        scene.tap(267, 218)
        XCTAssertEqual(changes, [2])
        // Back to the first.
        scene.tap(40, 218)
        scene.advance(by: 1)
        XCTAssertEqual(changes, [2, 0])
        XCTAssertNil(pages[2].superlayer)
        XCTAssertTrue(pages[0].superlayer === view.pagesLayer)
    }

    func testADragOffTheTabSelectsNothing() {
        let (view, _) = makeTabs()
        var changes = 0
        view.onSelectionChanged = { _ in changes += 1 }
        scene.drag(from: Point(x: 150, y: 218), to: Point(x: 280, y: 218))
        XCTAssertEqual(view.selectedIndex, 0)
        XCTAssertEqual(changes, 0)
    }

    func testThemeReachesTheBarAndThePagesOutOfTheTree() {
        let (view, pages) = makeTabs()
        let dark = Theme.testing(dark: true)
        dark.apply(to: scene.root, duration: 0)
        XCTAssertEqual(view.backgroundColor, dark.colors.background)
        XCTAssertEqual(view.tabBar.backgroundColor, dark.colors.surface)
        XCTAssertEqual(view.tabBar.titleLayers[0].foregroundColor, dark.colors.accent)
        XCTAssertEqual(view.tabBar.titleLayers[1].foregroundColor, dark.colors.secondaryText)
        let hidden = pages[2].sublayers.first as? Button
        XCTAssertNil(pages[2].superlayer)
        XCTAssertEqual(hidden?.backgroundColor, dark.colors.accent, "a page out of the tree: through the view")
    }

    func testAPageOutOfTheTreeGetsNoTouches() {
        let (view, pages) = makeTabs()
        let first = pages[0].sublayers.first as! Button
        let second = pages[1].sublayers.first as! Button
        second.attach(to: scene.router)
        first.attach(to: scene.router)
        var taps: [String] = []
        first.onTap = { taps.append($0.title) }
        second.onTap = { taps.append($0.title) }
        scene.tap(90, 42)
        XCTAssertEqual(taps, ["Home"])
        view.select(1, animated: false)
        scene.tap(90, 42)
        XCTAssertEqual(taps, ["Home", "Programs"])
    }

    func testSelectFromCodeCallsNoHandler() {
        let (view, pages) = makeTabs()
        var changes = 0
        view.onSelectionChanged = { _ in changes += 1 }
        view.select(1, animated: false)
        XCTAssertEqual(view.selectedIndex, 1)
        XCTAssertTrue(pages[1].superlayer === view.pagesLayer)
        XCTAssertNil(pages[0].superlayer)
        XCTAssertEqual(changes, 0)
    }
}
