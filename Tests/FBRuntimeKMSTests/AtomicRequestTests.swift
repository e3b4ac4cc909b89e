import XCTest
@testable import FBRuntime
@testable import FBRuntimeKMS
import CPosix

/// The fixed-storage atomic request: the ioctl's layout (properties grouped
/// per object, in order) and its overflow rule (the first property that does
/// not fit is an error reported once, at commit, before any ioctl).
final class AtomicRequestTests: XCTestCase {
    func testPropertiesAreGroupedPerObjectInOrder() {
        var seed: UInt64 = 0xA70_41C
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let request = AtomicRequest()
        for round in 0..<300 {
            request.reset()
            // Oracle: runs of the same object, built with plain arrays.
            var expected: [(object: UInt32, properties: [(id: UInt32, value: UInt64)])] = []
            var total = 0
            for _ in 0..<(1 + next(AtomicRequest.objectCapacity)) {
                var object = UInt32(30 + next(4))
                if let last = expected.last?.object, last == object { object += 10 }   // a new run
                var props: [(id: UInt32, value: UInt64)] = []
                for _ in 0..<(1 + next(5)) where total < AtomicRequest.propertyCapacity {
                    let p = (id: UInt32(next(100)), value: UInt64(next(1 << 20)) << 16)
                    props.append(p)
                    request.add(object, p.id, p.value)
                    total += 1
                }
                if !props.isEmpty { expected.append((object, props)) }
            }
            let got = request.groups
            XCTAssertEqual(got.map { $0.object }, expected.map { $0.object }, "round \(round)")
            for (g, e) in zip(got, expected) {
                XCTAssertEqual(g.properties.map { $0.id }, e.properties.map { $0.id }, "round \(round)")
                XCTAssertEqual(g.properties.map { $0.value }, e.properties.map { $0.value }, "round \(round)")
            }
        }
    }

    func testOverflowIsReportedAtCommitWithoutAnIoctl() {
        let request = AtomicRequest()
        for i in 0..<(AtomicRequest.propertyCapacity + 3) { request.add(7, UInt32(i), 1) }
        XCTAssertEqual(request.groups.first?.properties.count, AtomicRequest.propertyCapacity)
        do {
            try request.commit(fd: -1, flags: 0, userData: nil, what: "test")
            XCTFail("an overflowed request committed")
        } catch {
            XCTAssertEqual(error.kind, .callFailed)
            XCTAssertEqual(error.errno, 0, "no ioctl was made")
        }
        // Too many objects, likewise; a reset clears the error.
        request.reset()
        for o in 0..<(AtomicRequest.objectCapacity + 1) { request.add(UInt32(o + 1), 1, 1) }
        XCTAssertThrowsError(try request.commit(fd: -1, flags: 0, userData: nil, what: "test"))
        request.reset()
        request.add(1, 2, 3)
        do {
            try request.commit(fd: -1, flags: 0, userData: nil, what: "test")
            XCTFail("an ioctl on fd -1 succeeded")
        } catch {
            XCTAssertEqual(error.errno, EBADF, "a request that fits reaches the ioctl")
        }
    }
}
