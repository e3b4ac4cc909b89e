import CPosix
import FBRuntimeKMS
import FBRuntimeTesting
import XCTest

/// fbcheck's injected commit failures (`CommitFaultInjection`, in
/// FBRuntimeTesting): they count down and fail as the kernel would.
final class CommitFaultInjectionTests: XCTestCase {
    func testCommitFaultInjectionCountsDown() {
        let faults = CommitFaultInjection()
        XCTAssertNoThrow(try faults.check("flip"))
        faults.arm(failures: 2, errno: ENOSPC)
        for _ in 0..<2 {
            XCTAssertThrowsError(try faults.check("flip")) { error in
                XCTAssertEqual((error as? KMSError)?.errno, ENOSPC)
                XCTAssertEqual((error as? KMSError)?.kind, .callFailed)
            }
        }
        XCTAssertNoThrow(try faults.check("flip"))
        XCTAssertEqual(faults.injected, 2)
        faults.arm(failures: 1, errno: EBUSY)
        XCTAssertThrowsError(try faults.check("flip")) { XCTAssertEqual(($0 as? KMSError)?.kind, .busy) }
        XCTAssertEqual(CommitFaultInjection.errno(named: "EINVAL"), EINVAL)
        XCTAssertNil(CommitFaultInjection.errno(named: "EWHATEVER"))
    }
}
