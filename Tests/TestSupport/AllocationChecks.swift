import XCTest

/// Heap allocation counts (the MallocCounter hook) are asserted on the
/// optimised build of the tests only: that is what ships, and what the
/// runtime promises (no allocation per frame in steady state) is a promise
/// about it. An unoptimised build allocates where the optimised one does not
/// (`for … in` iterators, array literals, unspecialised generics), so
/// asserting there would make the code contort itself for the debug build.
/// `scripts/test` builds the tests a second time with optimisation
/// (`-c release -enable-testing`) and runs every test whose name mentions
/// allocation (`--filter Allocat`) there; the debug run goes through the
/// same scenes and checks everything else they check.
public enum AllocationChecks {
    /// True in the optimised build of the tests, where counts are asserted.
    public static var areAsserted: Bool {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }
}

/// Asserts that every count of `counts` (heap allocations per frame or per
/// step) is 0, on the optimised build (`AllocationChecks`).
public func XCTAssertNoAllocations(_ counts: [UInt64], _ message: @autoclosure () -> String = "",
                                   file: StaticString = #filePath, line: UInt = #line) {
    guard AllocationChecks.areAsserted else { return }
    XCTAssertEqual(counts, [UInt64](repeating: 0, count: counts.count), message(), file: file, line: line)
}

/// Asserts that `count` heap allocations is 0, on the optimised build
/// (`AllocationChecks`).
public func XCTAssertNoAllocations<Count: BinaryInteger>(_ count: Count, _ message: @autoclosure () -> String = "",
                                                         file: StaticString = #filePath, line: UInt = #line) {
    guard AllocationChecks.areAsserted else { return }
    XCTAssertEqual(count, 0, message(), file: file, line: line)
}
