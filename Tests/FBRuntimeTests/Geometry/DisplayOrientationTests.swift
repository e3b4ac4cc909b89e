import XCTest
@testable import FBRuntime
import Raster

/// One orientation for screen and touch. The oracle: turning the UI a
/// quarter clockwise moves each of its corners to the next panel corner
/// clockwise; calibration is libinput's matrix on 0…1 coordinates, worked
/// out by hand below.
final class DisplayOrientationTests: XCTestCase {
    private let w = 800.0, h = 480.0

    /// Panel corners in clockwise order: top-left, top-right, bottom-right, bottom-left.
    private var panelCorners: [Point] { [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)] }

    private func apply(_ t: Raster.AffineTransform, _ p: Point) -> Point {
        Point(x: t.a * p.x + t.c * p.y + t.tx, y: t.b * p.x + t.d * p.y + t.ty)
    }

    private func assertClose(_ a: Point, _ b: Point, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, b.x, accuracy: 1e-9, message, file: file, line: line)
        XCTAssertEqual(a.y, b.y, accuracy: 1e-9, message, file: file, line: line)
    }

    func testEveryRotationTakesUICornersToTheNextPanelCornersClockwise() {
        for (quarters, rotation) in [DisplayRotation.none, .clockwise90, .clockwise180, .clockwise270].enumerated() {
            let o = DisplayOrientation(rotation: rotation, panelWidth: w, panelHeight: h)
            let turned = quarters % 2 == 1
            XCTAssertEqual(o.uiSize, Size(width: turned ? h : w, height: turned ? w : h), "\(rotation)")
            let ui = o.uiSize
            let uiCorners = [Point(x: 0, y: 0), Point(x: ui.width, y: 0), Point(x: ui.width, y: ui.height), Point(x: 0, y: ui.height)]
            for (i, corner) in uiCorners.enumerated() {
                let panel = panelCorners[(i + quarters) % 4]
                assertClose(apply(o.uiToPanel, corner), panel, "\(rotation): UI corner \(i)")
                assertClose(apply(o.panelToUI, panel), corner, "\(rotation): panel corner back to UI corner \(i)")
                assertClose(o.uiPoint(touchX: panel.x, touchY: panel.y), corner, "\(rotation): a touch on that panel corner")
            }
            // The middle of the panel is the middle of the UI.
            assertClose(o.uiPoint(touchX: w / 2, touchY: h / 2), Point(x: ui.width / 2, y: ui.height / 2), "\(rotation): centre")
        }
    }

    func testScaleDividesIntoPoints() {
        let o = DisplayOrientation(rotation: .clockwise90, panelWidth: w, panelHeight: h, scale: 2)
        XCTAssertEqual(o.uiSize, Size(width: h / 2, height: w / 2))
        // Panel top-right is the UI's top-left; panel bottom-left its bottom-right.
        assertClose(o.uiPoint(touchX: w, touchY: 0), Point(x: 0, y: 0), "top-right")
        assertClose(o.uiPoint(touchX: 0, touchY: h), Point(x: h / 2, y: w / 2), "bottom-left")
    }

    func testCalibrationActsInNormalisedDeviceCoordinatesBeforeRotation() {
        // Mirrors x: x' = −x + 1 (a touch panel mounted the wrong way round).
        let mirror = [-1.0, 0, 1, 0, 1, 0]
        let o0 = DisplayOrientation(rotation: .none, calibration: mirror, panelWidth: w, panelHeight: h)
        assertClose(o0.uiPoint(touchX: 100, touchY: 30), Point(x: w - 100, y: 30), "mirrored")
        // Then turned: the raw top-left is calibrated to the panel's
        // top-right, which a 90° clockwise UI shows as its top-left.
        let o90 = DisplayOrientation(rotation: .clockwise90, calibration: mirror, panelWidth: w, panelHeight: h)
        assertClose(o90.uiPoint(touchX: 0, touchY: 0), Point(x: 0, y: 0), "mirrored, turned")
        // Half-size and centred: 0…1 → 0.25…0.75.
        let shrink = [0.5, 0, 0.25, 0, 0.5, 0.25]
        let o = DisplayOrientation(rotation: .none, calibration: shrink, panelWidth: w, panelHeight: h)
        assertClose(o.uiPoint(touchX: 0, touchY: 0), Point(x: w / 4, y: h / 4), "corner to a quarter in")
        assertClose(o.uiPoint(touchX: w, touchY: h), Point(x: w * 3 / 4, y: h * 3 / 4), "far corner")
        // A shear that mixes the axes: x' = x + 0.1·y (normalised).
        let shear = [1.0, 0.1, 0, 0, 1, 0]
        let os = DisplayOrientation(rotation: .none, calibration: shear, panelWidth: w, panelHeight: h)
        assertClose(os.uiPoint(touchX: 0, touchY: h), Point(x: 0.1 * w, y: h), "sheared bottom-left")
    }

    func testTouchAndScreenAgreeForRandomPoints() {
        var rng = SplitMix64(seed: 7)
        for rotation in DisplayRotation.allCases {
            let o = DisplayOrientation(rotation: rotation, panelWidth: w, panelHeight: h, scale: 1.5)
            for _ in 0..<100 {
                let p = Point(x: Double(rng.next() % 10_000) / 10_000 * o.uiSize.width,
                              y: Double(rng.next() % 10_000) / 10_000 * o.uiSize.height)
                let panel = apply(o.uiToPanel, p)
                assertClose(o.uiPoint(touchX: panel.x, touchY: panel.y), p, "\(rotation): drawn at the panel point, touched there")
            }
        }
    }

    func testBadInputIsClampedNotATrap() {
        XCTAssertEqual(DisplayRotation(degrees: 90), .clockwise90)
        XCTAssertEqual(DisplayRotation(degrees: -90), .clockwise270)
        XCTAssertEqual(DisplayRotation(degrees: 450), .clockwise90)
        XCTAssertEqual(DisplayRotation(degrees: Int.min), DisplayRotation(degrees: Int.min % 360))
        let o = DisplayOrientation(rotation: .clockwise180, calibration: [.nan, 0, 0, 0, 1, 0],
                                   panelWidth: .nan, panelHeight: -5, scale: 0)
        XCTAssertEqual(o.calibration, [1, 0, 0, 0, 1, 0])
        XCTAssertEqual(o.uiSize, Size(width: 1, height: 1))
        XCTAssertTrue(o.touchToUI.isFinite)
        XCTAssertFalse(o.uiPoint(touchX: .infinity, touchY: 0).isFinite)
        let short = DisplayOrientation(calibration: [1, 2], panelWidth: 10, panelHeight: 10)
        XCTAssertEqual(short.calibration, [1, 0, 0, 0, 1, 0])
    }

    func testBoardFileSettingsCarryOver() throws {
        let board = try BoardConfig.parse(Array("name = t\nrotation = 270\ncalibration = -1 0 1 0 1 0\n".utf8), file: "t.conf")
        let o = DisplayOrientation(board: board, panelWidth: 800, panelHeight: 480)
        XCTAssertEqual(o.rotation, .clockwise270)
        XCTAssertEqual(o.calibration, [-1, 0, 1, 0, 1, 0])
    }
}
