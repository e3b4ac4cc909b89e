import Raster
import XCTest
@testable import FBRuntimeKMS

/// FB_DAMAGE_CLIPS storage (`DamageClips`): every damaged pixel on the
/// framebuffer is in a clip, and below capacity the clips are the input.
final class DamageClipsTests: XCTestCase {
    func testDamageClipsCoverEveryAddedPixelInsideTheFramebuffer() {
        var seed: UInt64 = 0x5EED
        func next(_ range: ClosedRange<Int>) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
        }
        let w = 97, h = 61
        let clips = DamageClips(width: w, height: h)
        for round in 0..<200 {
            clips.removeAll()
            let n = next(0...24)
            var added = [Bool](repeating: false, count: w * h)
            var inputs: [IntRect] = []
            for _ in 0..<n {
                let r = IntRect(x: next(-40...120), y: next(-40...80), width: next(-5...90), height: next(-5...70))
                inputs.append(r)
                clips.add(r)
                // Oracle: the pixels of the rectangle that lie on the framebuffer.
                for y in 0..<h where y >= r.y && y < r.y + r.height {
                    for x in 0..<w where x >= r.x && x < r.x + r.width { added[y * w + x] = true }
                }
            }
            XCTAssertLessThanOrEqual(clips.count, DamageClips.capacity)
            var covered = [Bool](repeating: false, count: w * h)
            for i in 0..<clips.count {
                let c = clips[i]
                let k = clips.kernelRects[i]
                XCTAssertTrue(c.x >= 0 && c.y >= 0 && c.x + c.width <= w && c.y + c.height <= h && !c.isEmpty, "round \(round): clip \(c) off the framebuffer")
                XCTAssertEqual([Int(k.x1), Int(k.y1), Int(k.x2), Int(k.y2)], [c.x, c.y, c.x + c.width, c.y + c.height], "x2, y2 exclusive")
                for y in c.y..<(c.y + c.height) { for x in c.x..<(c.x + c.width) { covered[y * w + x] = true } }
            }
            for p in 0..<(w * h) where added[p] { XCTAssertTrue(covered[p], "round \(round): pixel \(p % w),\(p / w) not in a clip") }
            // Below capacity nothing is merged: the clips are exactly the
            // non-empty inputs cut to the framebuffer.
            let nonEmpty = inputs.map { $0.intersection(IntRect(x: 0, y: 0, width: w, height: h)) }.filter { !$0.isEmpty }
            if nonEmpty.count <= DamageClips.capacity {
                XCTAssertEqual((0..<clips.count).map { clips[$0] }, nonEmpty, "round \(round)")
                XCTAssertEqual(clips.totalArea, nonEmpty.reduce(0) { $0 + $1.area }, "round \(round)")
            }
        }
    }
}
