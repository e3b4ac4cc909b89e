import DemoScenes
import FBRuntime
import Glibc
import XCTest

/// The demo scenes' photo loading: a photo decoded off the app thread,
/// fitted to its layer's size in pixels, shown on a later turn.
final class PhotoLoaderTests: XCTestCase {
    let images = String(#filePath.dropLast("Tests/InputTests/PhotoLoaderTests.swift".count)) + "Tests/Images/"

    func testPhotoIsFittedToItsLayerAndShownOnATurn() throws {
        let loop = AppRunLoop(clock: ManualClock())
        let photos = try PhotoLoader(runLoop: loop)
        let tile = Layer()
        tile.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
        var errors: [String] = []
        XCTAssertNotNil(photos.show(images + "large-480x360.jpg", in: tile, scale: 2) { errors.append($0) })
        let missing = Layer()
        missing.bounds = tile.bounds
        XCTAssertNotNil(photos.show(images + "no-such-photo.jpg", in: missing) { errors.append($0) })
        XCTAssertNil(tile.contents, "not before a turn")
        var turns = 0
        while (tile.contents == nil || errors.isEmpty) && turns < 3000 {
            usleep(2000)
            loop.runTurn()
            turns += 1
        }
        // 480×360 fitted into 80×80 pixels (40 points at 2 pixels per point).
        XCTAssertEqual(tile.contents?.width, 80)
        XCTAssertEqual(tile.contents?.height, 60)
        XCTAssertEqual(tile.contents?.isOpaque, true)
        XCTAssertEqual(tile.contentsScale, 2)
        XCTAssertNil(missing.contents)
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first?.contains("no-such-photo.jpg") == true, "\(errors)")
        photos.queue.close()
    }
}
