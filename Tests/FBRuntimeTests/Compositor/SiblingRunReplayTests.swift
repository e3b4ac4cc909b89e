@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// The survey's replay of runs of unchanged sublayers
/// (`Compositor.surveySublayerRuns`, `SiblingRunMemo`) against its
/// reference, the same compositor with the replay off: the same frames bit
/// for bit, the same damage and statistics, while rows of a long list
/// change, hide, animate, move in z, come and go and the list scrolls; and
/// a frame in which one row of a long list changed surveys that row, not
/// the list.
final class SiblingRunReplayTests: XCTestCase {
    typealias SeededRandom = DamageTests.SeededRandom
    private var savedMinimum = 0

    override func setUp() {
        savedMinimum = Layer.changedSublayersMinimum
    }

    override func tearDown() {
        Layer.changedSublayersMinimum = savedMinimum
    }

    func firstDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> (x: Int, y: Int)? {
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { return (x, y) }
        }
        return nil
    }

    /// A list (clipped, scrolled by its bounds origin) of `count` rows,
    /// each a background with a dot in it.
    func makeList(rows count: Int, width: Double) throws -> (root: Layer, list: Layer) {
        let root = solidLayer("root", 0, 0, width, 200, 0x101418)
        let list = solidLayer("list", 10, 10, width - 20, 180, 0x20242A)
        list.masksToBounds = true
        try root.addSublayer(list)
        for i in 0..<count {
            let row = solidLayer("row\(i)", 0, Double(i) * 12, width - 20, 11, i % 2 == 0 ? 0x30343A : 0x2A2E33)
            let dot = solidLayer("dot\(i)", 4, 2, 7, 7, 0x80C0FF)
            dot.cornerRadius = 3.5
            try row.addSublayer(dot)
            try list.addSublayer(row)
        }
        return (root, list)
    }

    func testRunsOfUnchangedSublayersEqualTheReferenceUnderRandomEdits() throws {
        Layer.changedSublayersMinimum = 8
        for seed in 1...4 as ClosedRange<UInt64> {
            var rng = SeededRandom(state: seed)
            let (root, list) = try makeList(rows: 40, width: 160)
            let replaying = Compositor()
            let reference = Compositor()
            reference.replaysUnchangedSubtrees = false
            let a = Surface<ARGB8888>(width: 160, height: 200)!, b = Surface<ARGB8888>(width: 160, height: 200)!
            var time: MediaTime = 0
            var replayed = 0
            var framesOfRuns = 0
            var log = ""
            for step in 0..<150 {
                let rows = list.sublayers
                let row = rows[rng.int(rows.count)]
                let edit = rng.int(17)
                switch edit {
                case 0, 1, 2: row.backgroundColor = Color(rgb: UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF)
                case 3: row.isHidden.toggle()
                case 4: row.sublayers.first?.backgroundColor = Color(rgb: UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF)
                case 5:
                    row.add(BasicAnimation(key: .positionX, from: .scalar(0), to: .scalar(8), duration: 0.2),
                            forKey: "nudge", at: time)
                case 6: row.removeAllAnimations()
                case 7: row.zPosition = rng.chance(0.7) ? 0 : rng.double(-1, 1)
                case 8:
                    let n = solidLayer("new\(step)", 0, Double(rng.int(40)) * 12, 140, 11, 0x406080)
                    try list.insertSublayer(n, at: rng.int(rows.count + 1))
                case 9: if rows.count > 10 { row.removeFromSuperlayer() }
                case 10: list.bounds.origin.y = Double(rng.int(300))                  // scroll
                case 11: row.opacity = rng.chance(0.5) ? 1 : 0.5
                case 12: row.position.y += Double(rng.int(5) - 2)
                case 13: row.sublayers.first?.isHidden.toggle()
                case 14: for r in rows where r.zPosition != 0 { r.zPosition = 0 }     // back in drawing order
                default: break           // an idle frame: the whole list replays
                }
                log = "seed \(seed), step \(step): edit \(edit) on \(row.name)"
                time += 1.0 / 30
                replaying.render(root, at: time, into: a.view, clearColor: .black)
                reference.render(root, at: time, into: b.view, clearColor: .black)
                replayed += replaying.statistics.unitsReplayed
                // Fewer layers met than the list has rows: runs of rows replayed.
                if replaying.statistics.layersSurveyed < list.sublayers.count { framesOfRuns += 1 }
                if let d = firstDifference(a.view, b.view) {
                    XCTFail("\(log): the replay differs from the reference at (\(d.x), \(d.y))")
                    return
                }
                XCTAssertEqual(replaying.damage, reference.damage, log)
                let s = replaying.statistics, r = reference.statistics
                XCTAssertEqual([s.layersDrawn, s.layersCulled, s.pixelsDamaged, s.layersOccluded, s.animationEvaluations],
                               [r.layersDrawn, r.layersCulled, r.pixelsDamaged, r.layersOccluded, r.animationEvaluations], log)
                if step % 10 == 0 {
                    let fresh = Compositor()
                    fresh.replaysUnchangedSubtrees = false
                    let c = Surface<ARGB8888>(width: 160, height: 200)!
                    fresh.render(root, at: time, into: c.view, clearColor: .black)
                    if let d = firstDifference(a.view, c.view) {
                        XCTFail("\(log): differs from a full render at (\(d.x), \(d.y))")
                        return
                    }
                }
            }
            XCTAssertGreaterThan(replayed, 0, "seed \(seed): the replay was exercised")
            XCTAssertGreaterThan(framesOfRuns, 30, "seed \(seed): runs of rows were replayed")
        }
    }

    /// Renders `frames` frames of `root` (200×200) with a replaying
    /// compositor and the reference, `edit(frame)` before each: the pixels
    /// and damage must be equal; `check` gets the frame and both
    /// compositors' statistics. Returns the replaying renders' allocations
    /// from frame 10 on.
    func playAgainstReference(_ root: Layer, frames: Int, edit: (Int) -> Void,
                              check: (Int, FrameStatistics, FrameStatistics) -> Void) -> Int {
        let replaying = Compositor()
        let reference = Compositor()
        reference.replaysUnchangedSubtrees = false
        let a = Surface<ARGB8888>(width: 200, height: 200)!, b = Surface<ARGB8888>(width: 200, height: 200)!
        var allocations = 0
        for frame in 0..<frames {
            edit(frame)
            let time = Double(frame) / 60
            fbr_malloc_counter_begin()
            replaying.render(root, at: time, into: a.view, clearColor: .black)
            let counted = Int(fbr_malloc_counter_end())
            reference.render(root, at: time, into: b.view, clearColor: .black)
            XCTAssertNil(firstDifference(a.view, b.view), "frame \(frame)")
            XCTAssertEqual(replaying.damage, reference.damage, "frame \(frame)")
            check(frame, replaying.statistics, reference.statistics)
            if frame >= 10 { allocations += counted }
        }
        return allocations
    }

    /// One row of 2,000 changes per frame: the survey meets the root, the
    /// list and that row (and its dot), not the other rows; the frames
    /// equal the reference's, and a frame allocates nothing.
    func testAFrameWithOneChangedRowSurveysThatRowAndAllocatesNothing() throws {
        let (root, list) = try makeList(rows: 2_000, width: 200)
        let allocations = playAgainstReference(root, frames: 40, edit: { i in
            list.sublayers[3 + i % 10].backgroundColor = Color(rgb: UInt32(0x406080 + (i % 16) * 0x010203))
        }, check: { i, replaying, reference in
            XCTAssertGreaterThan(reference.layersSurveyed, 2_000)
            if i >= 2 {
                XCTAssertLessThanOrEqual(replaying.layersSurveyed, 4, "frame \(i)")
                XCTAssertGreaterThan(replaying.unitsReplayed, 10, "frame \(i)")
            }
        })
        XCTAssertNoAllocations(allocations)
    }

    /// Many rows at once: 20 animated (surveyed every frame) and 6 changed
    /// per frame among 300; the frames equal the reference's and, once
    /// warm, allocate nothing (the list of rows to survey keeps its
    /// storage; no sort buffer).
    func testManyAnimatedAndChangedRowsAllocateNothing() throws {
        let (root, list) = try makeList(rows: 300, width: 200)
        for i in stride(from: 1, to: 300, by: 15) {
            var a = BasicAnimation(key: .positionX, from: .scalar(0), to: .scalar(6), duration: 0.5)
            a.repeatCount = .infinity
            a.autoreverses = true
            list.sublayers[i].add(a, forKey: "sway", at: 0)
        }
        let allocations = playAgainstReference(root, frames: 40, edit: { frame in
            for k in 0..<6 {
                list.sublayers[(frame * 37 + k * 53) % 300].backgroundColor = Color(rgb: UInt32(0x203040 + (frame + k) % 7 * 0x080808))
            }
        }, check: { frame, replaying, _ in
            if frame >= 2 { XCTAssertLessThan(replaying.layersSurveyed, 100, "frame \(frame): runs of rows replayed") }
        })
        XCTAssertNoAllocations(allocations)
    }
}
