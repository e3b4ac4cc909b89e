@testable import FBRuntime
import XCTest

/// Autoresizing masks: the superlayer's change of size shared evenly among
/// the flexible parts, applied when the superlayer's size is set.
final class AutoresizingTests: LayoutTestCase {
    func testFlexibleMarginsAndSizes() {
        let parent = frameLayer("parent", 0, 0, 100, 100)
        let a = frameLayer("a", 10, 10, 30, 30), b = frameLayer("b", 10, 10, 30, 30)
        let c = frameLayer("c", 10, 10, 30, 30), fixed = frameLayer("fixed", 10, 10, 30, 30)
        for l in [a, b, c, fixed] { try! parent.addSublayer(l) }
        a.autoresizingMask = [.flexibleWidth, .flexibleMaxXMargin, .flexibleMinYMargin]
        b.autoresizingMask = .flexibleSize
        c.autoresizingMask = [.flexibleMinXMargin, .flexibleWidth, .flexibleMaxXMargin, .flexibleMaxYMargin]
        parent.bounds.size = Size(width: 160, height: 120)
        assertFrame(a, 10, 30, 60, 30)
        assertFrame(b, 10, 10, 90, 50)
        assertFrame(c, 30, 10, 50, 30)
        assertFrame(fixed, 10, 10, 30, 30)
        // Smaller than before: sizes stop at 0.
        parent.bounds.size = Size(width: 0, height: 0)
        assertFrame(b, 10, 10, 0, 0)
        // NaN: ignored.
        parent.bounds.size = Size(width: .nan, height: 10)
        XCTAssertTrue(b.frame.isFinite)
    }
}
