import XCTest
@testable import Input

/// The path backend without a device (the VM's touchprobe covers real
/// ones): bad nodes are errors, not crashes, and an empty context works.
final class InputSeatTests: XCTestCase {
    func testMissingOrWrongNodesThrow() {
        XCTAssertThrowsError(try InputSeat(devicePaths: ["/nonexistent/event0"]))
    }

    func testAnEmptyPathContextDispatchesNothing() throws {
        let seat = try InputSeat(devicePaths: [])
        XCTAssertTrue(seat.isPathBackend)
        XCTAssertGreaterThanOrEqual(seat.fd, 0)
        XCTAssertEqual(seat.dispatch(width: 640, height: 480), [])
        XCTAssertThrowsError(try seat.addDevice(path: "/nonexistent/event0"))
        XCTAssertEqual(seat.dispatch(width: 640, height: 480), [])
    }
}
