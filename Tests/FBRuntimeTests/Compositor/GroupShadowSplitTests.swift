import FBRuntime
import Raster
import XCTest

/// A layer whose image shadow falls into the target from far away (an
/// offset of 2,000 pixels): the compositor renders it in two small passes
/// (`drawGroupSplit`) instead of one spanning both places. The oracle is
/// the same scene rendered into a target tall enough to hold both places,
/// where one pass is not much larger than its parts and is kept: its top
/// rows must equal the small target's every pixel.
final class GroupShadowSplitTests: XCTestCase {
    func scene(shadowOffset: Double) -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 24, height: 2_100)
        root.position = Point(x: 12, y: 1_050)
        root.backgroundColor = Color(red: 0.9, green: 0.9, blue: 0.9)
        // A tall, transparent layer: a red square at its top, a blue disc
        // 2,000 pixels lower whose shadow is cast up into the top.
        let tall = ShapeLayer()
        tall.bounds = Rect(x: 0, y: 0, width: 24, height: 2_100)
        tall.position = Point(x: 12, y: 1_050)
        tall.path = Path(circleCenter: PathPoint(x: 12, y: 2_010), radius: 6)
        tall.fillColor = Color(red: 0.1, green: 0.2, blue: 0.9)
        tall.shadowOpacity = 1
        tall.shadowRadius = 3
        tall.shadowOffset = Size(width: 0, height: shadowOffset)
        let square = Layer(name: "square")
        square.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
        square.position = Point(x: 5, y: 5)
        square.backgroundColor = Color(red: 0.9, green: 0.1, blue: 0.1)
        try! tall.addSublayer(square)
        try! root.addSublayer(tall)
        return root
    }

    func testFarShadowIsTwoSmallPassesWithTheSamePixels() throws {
        let small = try XCTUnwrap(Surface<ARGB8888>(width: 24, height: 24))
        let tallTarget = try XCTUnwrap(Surface<ARGB8888>(width: 24, height: 2_100))
        let root = scene(shadowOffset: -2_000)
        let split = Compositor(scale: 1)
        split.render(root, at: 0, into: small.view)
        XCTAssertEqual(split.statistics.offscreenPasses, 3, "shadow pass and its blur, then the image pass")
        let whole = Compositor(scale: 1)
        whole.render(root, at: 0, into: tallTarget.view)
        XCTAssertEqual(whole.statistics.offscreenPasses, 2, "one pass and its blur")
        var differing = 0
        for y in 0..<24 { for x in 0..<24 where small.view[x, y] != tallTarget.view[x, y] { differing += 1 } }
        XCTAssertEqual(differing, 0, "pixels that differ from the single pass")
        // Not a vacuous comparison: the square is drawn, and the disc's
        // shadow darkens the background under (12, 10).
        XCTAssertEqual(Int(small.view[4, 4] >> 16 & 0xFF), 230, accuracy: 2, "red square")
        let background = Int(tallTarget.view[20, 500] & 0xFF)
        XCTAssertGreaterThan(background, 200)
        XCTAssertLessThan(Int(small.view[12, 10] & 0xFF), background / 2, "the shadow from 2,000 pixels below")
    }

    /// A near shadow (the usual case) keeps the single pass.
    func testNearShadowKeepsOnePass() throws {
        let small = try XCTUnwrap(Surface<ARGB8888>(width: 24, height: 24))
        let compositor = Compositor(scale: 1)
        compositor.render(scene(shadowOffset: 4), at: 0, into: small.view)
        XCTAssertEqual(compositor.statistics.offscreenPasses, 2)
    }
}
