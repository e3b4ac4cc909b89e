@testable import Controls
import FBRuntime
import Raster
import XCTest

/// What the navigation tests share: a page layer of one colour with a
/// button on it, and presented scalars.
enum NavigationFixtures {
    /// A page of `color` with a 140×44 button titled `title` at (20, 20)
    /// in its bounds.
    static func page(_ color: UInt32, button title: String, theme: Theme) -> (Layer, Button) {
        let page = Layer(name: "page")
        page.anchorPoint = .zero
        page.backgroundColor = Color(rgb: color)
        let button = Button(title: title, theme: theme)
        button.frame = Rect(x: 20, y: 20, width: 140, height: 44)
        try! page.addSublayer(button)
        return (page, button)
    }
}

func presentedScalar(_ layer: Layer, _ key: AnimatableKey, at time: MediaTime) -> Double? {
    guard case let .scalar(v)? = layer.presentationValue(for: key, at: time) else { return nil }
    return v
}

/// NavigationStack: push, pop and pop-to-root change the stack, the bar and
/// what is in the tree; the slide is an animation of the screens'
/// positions (checked half way); the back button pops through the router;
/// touches mid-transition land where the screens are on screen; screens
/// out of the tree get no touches; the theme reaches them.
final class NavigationStackTests: XCTestCase {
    private var scene: ControlScene!
    private var rootButton: Button!
    private var detailButton: Button!

    override func tearDown() { scene?.finish(); scene = nil }

    /// A 320×240 stack (bar 44 points, content 320×196 at y 44) with a root
    /// screen "Settings"; returns it and a detail screen "Wi-Fi" not pushed
    /// yet. Both screens' buttons are attached to the router.
    private func makeStack(dark: Bool = false) -> (NavigationStack, NavigationScreen, NavigationScreen) {
        let theme = Theme.testing(dark: dark)
        scene = ControlScene(width: 320, height: 240, background: theme.colors.background)
        let (rootPage, rb) = NavigationFixtures.page(0xE8F0E8, button: "Network", theme: theme)
        let (detailPage, db) = NavigationFixtures.page(0xE8E8F4, button: "Join", theme: theme)
        rootButton = rb
        detailButton = db
        let root = NavigationScreen(title: "Settings", layer: rootPage)
        let detail = NavigationScreen(title: "Wi-Fi", layer: detailPage)
        let stack = NavigationStack(root: root, theme: theme)
        scene.add(stack, frame: Rect(x: 0, y: 0, width: 320, height: 240))
        rb.attach(to: scene.router)
        db.attach(to: scene.router)
        return (stack, root, detail)
    }

    func testStartsWithTheRootScreenAloneUnderTheBar() {
        let (stack, root, _) = makeStack()
        XCTAssertEqual(stack.screens.count, 1)
        XCTAssertTrue(stack.topScreen === root)
        XCTAssertEqual(stack.barLayer.frame, Rect(x: 0, y: 0, width: 320, height: 44))
        XCTAssertEqual(stack.contentLayer.frame, Rect(x: 0, y: 44, width: 320, height: 196))
        XCTAssertEqual(stack.titleLayer.string, "Settings")
        XCTAssertTrue(stack.backButton.isHidden, "nothing to go back to")
        XCTAssertTrue(root.layer.superlayer === stack.contentLayer)
        XCTAssertEqual(root.layer.frame, Rect(x: 0, y: 0, width: 320, height: 196))
        XCTAssertTrue(stack.dimmingLayer.isHidden)
        XCTAssertNil(stack.pop(), "the root stays")
    }

    func testPushSlidesTheScreenInAndTheOldOneLeftThenLeavesTheTree() {
        let (stack, root, detail) = makeStack()
        scene.loop.runTurn { stack.push(detail) }
        XCTAssertEqual(stack.screens.count, 2)
        XCTAssertTrue(stack.topScreen === detail)
        XCTAssertTrue(stack.isTransitioning)
        XCTAssertEqual(stack.titleLayer.string, "Wi-Fi")
        XCTAssertFalse(stack.backButton.isHidden)
        // During the slide: both screens, the dimming between them.
        XCTAssertEqual(stack.contentLayer.sublayers.map { ObjectIdentifier($0) },
                       [root.layer, stack.dimmingLayer, detail.layer].map { ObjectIdentifier($0) })
        XCTAssertEqual(detail.layer.position, .zero, "the model is where it ends")
        XCTAssertEqual(root.layer.position, Point(x: -96, y: 0))
        // Half way (0.35 s, ease in ease out: progress ½ at half time).
        scene.clock.advance(by: 0.175)
        let t = scene.now
        let incoming = presentedPoint(detail.layer, .position, at: t)
        let outgoing = presentedPoint(root.layer, .position, at: t)
        XCTAssertEqual(incoming?.x ?? .nan, 160, accuracy: 0.5)
        XCTAssertEqual(incoming?.y ?? .nan, 0, accuracy: 1e-9)
        XCTAssertEqual(outgoing?.x ?? .nan, -48, accuracy: 0.5)
        XCTAssertEqual(presentedScalar(stack.dimmingLayer, .opacity, at: t) ?? .nan, 0.075, accuracy: 0.002)
        // At rest: the old screen is out of the tree.
        scene.advance(by: 1)
        XCTAssertFalse(stack.isTransitioning)
        XCTAssertNil(root.layer.superlayer)
        XCTAssertTrue(detail.layer.superlayer === stack.contentLayer)
        XCTAssertEqual(detail.layer.position, .zero)
        XCTAssertTrue(stack.dimmingLayer.isHidden)
        XCTAssertEqual(stack.contentLayer.sublayers.filter { !$0.isHidden }.count, 1)
    }

    func testPopSlidesTheScreenOutAndBringsTheOldOneBack() {
        let (stack, root, detail) = makeStack()
        stack.push(detail, animated: false)
        XCTAssertNil(root.layer.superlayer, "without animation the old screen goes at once")
        var popped: NavigationScreen?
        scene.loop.runTurn { popped = stack.pop() }
        XCTAssertTrue(popped === detail)
        XCTAssertEqual(stack.screens.count, 1)
        XCTAssertEqual(stack.titleLayer.string, "Settings")
        XCTAssertTrue(stack.backButton.isHidden)
        XCTAssertTrue(root.layer.superlayer === stack.contentLayer, "back in the tree, under the one leaving")
        XCTAssertEqual(stack.contentLayer.sublayers.first.map(ObjectIdentifier.init), ObjectIdentifier(root.layer))
        scene.clock.advance(by: 0.175)
        let t = scene.now
        XCTAssertEqual(presentedPoint(detail.layer, .position, at: t)?.x ?? .nan, 160, accuracy: 0.5)
        XCTAssertEqual(presentedPoint(root.layer, .position, at: t)?.x ?? .nan, -48, accuracy: 0.5)
        XCTAssertEqual(presentedScalar(stack.dimmingLayer, .opacity, at: t) ?? .nan, 0.075, accuracy: 0.002)
        scene.advance(by: 1)
        XCTAssertNil(detail.layer.superlayer)
        XCTAssertEqual(root.layer.position, .zero)
        XCTAssertFalse(stack.isTransitioning)
    }

    func testPopToRootLeavesOnlyTheRoot() {
        let (stack, root, detail) = makeStack()
        let third = NavigationScreen(title: "Advanced")
        stack.push(detail, animated: false)
        stack.push(third, animated: false)
        XCTAssertEqual(stack.screens.count, 3)
        XCTAssertEqual(stack.titleLayer.string, "Advanced")
        scene.loop.runTurn { XCTAssertEqual(stack.popToRoot().count, 2) }
        XCTAssertEqual(stack.screens.count, 1)
        XCTAssertTrue(stack.topScreen === root)
        XCTAssertNil(detail.layer.superlayer, "the screen in between never shows")
        scene.advance(by: 1)
        XCTAssertNil(third.layer.superlayer)
        XCTAssertEqual(stack.contentLayer.sublayers.filter { !$0.isHidden }.map(ObjectIdentifier.init), [ObjectIdentifier(root.layer)])
        XCTAssertTrue(stack.popToRoot().isEmpty)
    }

    func testBackButtonPopsThroughTheRouter() {
        let (stack, _, detail) = makeStack()
        stack.push(detail, animated: false)
        scene.advance(by: 0.1)
        let back = stack.backButton.frame
        XCTAssertGreaterThan(back.width, 40)
        let id = scene.newTouch()
        let hit = scene.send(id, .began, back.midX, back.midY)
        XCTAssertTrue(hit === stack.backButton || hit?.superlayer === stack.backButton)
        scene.clock.advance(by: 0.08)
        scene.send(id, .ended, back.midX, back.midY)
        XCTAssertEqual(stack.screens.count, 1)
        XCTAssertEqual(stack.titleLayer.string, "Settings")
    }

    func testTitleAndTrailingButtonFollowTheTopScreen() {
        let (stack, root, detail) = makeStack()
        let edit = Button(title: "Edit", style: .plain)
        detail.trailingButton = edit
        stack.push(detail, animated: false)
        XCTAssertTrue(edit.superlayer === stack.barLayer)
        XCTAssertEqual(edit.frame.maxX, 320)
        XCTAssertEqual(edit.theme.colors.accent, stack.theme.colors.accent, "the stack gives it its theme")
        detail.title = "Networks"
        XCTAssertEqual(stack.titleLayer.string, "Networks", "a title change of the top screen shows")
        root.title = "Home"
        XCTAssertEqual(stack.titleLayer.string, "Networks")
        stack.pop(animated: false)
        XCTAssertNil(edit.superlayer)
        XCTAssertEqual(stack.titleLayer.string, "Home")
    }

    func testTouchesMidTransitionLandWhereTheScreensAreOnScreen() {
        let (stack, _, detail) = makeStack()
        var taps = 0
        detailButton.onTap = { _ in taps += 1 }
        scene.loop.runTurn { stack.push(detail) }
        scene.clock.advance(by: 0.175)
        // The detail's button: model (20…160, 64…108) in the scene; on
        // screen 160 points to the right.
        let id = scene.newTouch()
        let hit = scene.send(id, .began, 240, 86)
        XCTAssertTrue(hit === detailButton || hit?.superlayer === detailButton, "hit where it is on screen")
        XCTAssertTrue(detailButton.isTracking)
        XCTAssertTrue(detailButton.isHighlighted)
        scene.send(id, .cancelled, 240, 86)
        // Where the model says it is: the dimmed old screen, not the button.
        let other = scene.send(scene.newTouch(), .began, 60, 86)
        XCTAssertTrue(other === stack.dimmingLayer)
        XCTAssertEqual(taps, 0)
    }

    func testScreensOutOfTheTreeGetNoTouches() {
        let (stack, _, detail) = makeStack()
        var rootTaps = 0, detailTaps = 0
        rootButton.onTap = { _ in rootTaps += 1 }
        detailButton.onTap = { _ in detailTaps += 1 }
        scene.tap(80, 86)
        XCTAssertEqual(rootTaps, 1, "the root's button works while it is on top")
        scene.loop.runTurn { stack.push(detail) }
        scene.advance(by: 1)
        scene.tap(80, 86)
        XCTAssertEqual(rootTaps, 1, "the root's button is out of the tree")
        XCTAssertEqual(detailTaps, 1)
        XCTAssertTrue(detailButton.navigationStack === stack, "a handler finds the stack through the tree")
        XCTAssertNil(rootButton.navigationStack, "out of the tree, on no stack")
    }

    func testBackSwipeFromTheLeftEdgeDragsTheScreenAndPopsPastHalfWay() {
        let (stack, root, detail) = makeStack()
        stack.push(detail, animated: false)
        // 80 points right of where it landed (x 5): the screens follow.
        let id = scene.drag(from: Point(x: 5, y: 150), to: Point(x: 85, y: 150), steps: 8, lift: false)
        XCTAssertTrue(stack.isSwiping)
        XCTAssertTrue(root.layer.superlayer === stack.contentLayer, "the screen under comes into the tree")
        XCTAssertEqual(detail.layer.position, Point(x: 80, y: 0))
        XCTAssertEqual(root.layer.position.x, -96 * (1 - 0.25), accuracy: 1e-9)
        XCTAssertEqual(stack.dimmingLayer.opacity, 0.15 * 0.75, accuracy: 1e-9)
        XCTAssertEqual(stack.screens.count, 2, "nothing popped while the finger is down")
        // On to 220 and lift: past half the width, it pops.
        for x in stride(from: 105.0, through: 225, by: 20) {
            scene.clock.advance(by: 1.0 / 60)
            scene.send(id, .moved, x, 150)
        }
        scene.clock.advance(by: 1.0 / 60)
        scene.send(id, .ended, 225, 150)
        XCTAssertFalse(stack.isSwiping)
        XCTAssertEqual(stack.screens.count, 1)
        XCTAssertEqual(stack.titleLayer.string, "Settings")
        // The rest of the way animates from where the finger left it.
        XCTAssertEqual(presentedPoint(detail.layer, .position, at: scene.now)?.x ?? .nan, 220, accuracy: 0.5)
        scene.advance(by: 1)
        XCTAssertNil(detail.layer.superlayer)
        XCTAssertEqual(root.layer.position, .zero)
    }

    func testBackSwipeLiftedSlowlyBeforeHalfWayPutsTheScreensBack() {
        let (stack, root, detail) = makeStack()
        stack.push(detail, animated: false)
        let id = scene.drag(from: Point(x: 5, y: 150), to: Point(x: 105, y: 150), steps: 10, lift: false)
        scene.clock.advance(by: 0.2)
        scene.send(id, .moved, 105, 150)             // held: no speed left
        scene.clock.advance(by: 0.05)
        scene.send(id, .ended, 105, 150)
        XCTAssertEqual(stack.screens.count, 2)
        XCTAssertTrue(stack.topScreen === detail)
        XCTAssertEqual(presentedPoint(detail.layer, .position, at: scene.now)?.x ?? .nan, 100, accuracy: 0.5)
        scene.advance(by: 1)
        XCTAssertEqual(detail.layer.position, .zero)
        XCTAssertNil(root.layer.superlayer, "back out of the tree")
        XCTAssertEqual(stack.titleLayer.string, "Wi-Fi")
    }

    func testASwipeAwayFromTheEdgeOrOnTheRootDoesNothing() {
        let (stack, root, detail) = makeStack()
        scene.drag(from: Point(x: 5, y: 150), to: Point(x: 200, y: 150))
        XCTAssertFalse(stack.isSwiping)
        XCTAssertEqual(stack.screens.count, 1, "nothing to go back to")
        stack.push(detail, animated: false)
        scene.drag(from: Point(x: 60, y: 150), to: Point(x: 260, y: 150))
        XCTAssertEqual(stack.screens.count, 2, "not from the edge")
        XCTAssertNil(root.layer.superlayer)
    }

    func testThemeReachesTheBarAndTheScreensOutOfTheTree() {
        let (stack, _, detail) = makeStack()
        stack.push(detail, animated: false)
        let dark = Theme.testing(dark: true)
        dark.apply(to: scene.root, duration: 0)
        XCTAssertEqual(stack.barLayer.backgroundColor, dark.colors.surface)
        XCTAssertEqual(stack.titleLayer.foregroundColor, dark.colors.text)
        XCTAssertEqual(stack.backButton.theme.colors.accent, dark.colors.accent)
        XCTAssertEqual(detailButton.theme.colors.accent, dark.colors.accent, "on screen: through the tree")
        XCTAssertEqual(rootButton.theme.colors.accent, dark.colors.accent, "out of the tree: through the stack")
        XCTAssertEqual(rootButton.backgroundColor, dark.colors.accent)
    }
}

extension Rect {
    /// The centre's x and y, points (tests only).
    var midX: Double { (minX + maxX) / 2 }
    var midY: Double { (minY + maxY) / 2 }
}
