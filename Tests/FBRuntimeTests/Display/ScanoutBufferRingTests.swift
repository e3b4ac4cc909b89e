import XCTest
@testable import FBRuntime
import FBRuntimeTestSupport
import Raster

/// The buffer ring every presenter shares: its state machine, and a model
/// test that a buffer prepared from its damage plus its stale area always
/// ends up equal to the whole frame, whatever frames it skipped, failed or
/// lost.
final class ScanoutBufferRingTests: XCTestCase {
    func testFlippingRingCyclesFreeRenderingQueuedOnScreen() {
        var ring = ScanoutBufferRing(count: 2, width: 8, height: 4)
        XCTAssertEqual(ring.states, [.free, .free])
        var copied: [IntRect] = []
        let first = ring.prepare(damage: IntRect(x: 0, y: 0, width: 2, height: 2)) { _, area in copied.append(area) }
        // Nothing of a frame in the buffer yet: the whole frame is copied.
        XCTAssertEqual(copied, [ring.bounds])
        XCTAssertEqual(ring.states[first], .rendering)
        ring.shown()
        XCTAssertEqual(ring.onScreenIndex, first)

        copied = []
        let second = ring.prepare(damage: IntRect(x: 1, y: 1, width: 2, height: 1)) { _, area in copied.append(area) }
        XCTAssertNotEqual(second, first, "the buffer on screen is never written")
        XCTAssertEqual(copied, [ring.bounds], "the second buffer never held a frame")
        ring.queued()
        XCTAssertTrue(ring.isFlipPending)
        XCTAssertEqual(ring.states[first], .onScreen, "the old buffer is read until the flip")
        XCTAssertEqual(ring.states[second], .queued)
        ring.flipCompleted()
        XCTAssertEqual(ring.states[first], .free)
        XCTAssertEqual(ring.states[second], .onScreen)

        // The first buffer missed the second frame's damage: it gets that
        // back with its own damage, as one rectangle.
        copied = []
        let third = ring.prepare(damage: IntRect(x: 5, y: 2, width: 1, height: 1)) { _, area in copied.append(area) }
        XCTAssertEqual(third, first)
        XCTAssertEqual(copied, [IntRect(x: 1, y: 1, width: 5, height: 2)])
    }

    func testPiecesAreCopiedApartWhenTheStaleAreaDoesNotCoverThem() {
        var ring = ScanoutBufferRing(count: 2, width: 100, height: 100)
        ring.prepare(damage: ring.bounds) { _, _ in }
        ring.shown()
        ring.prepare(damage: ring.bounds) { _, _ in }
        ring.queued()
        ring.flipCompleted()
        ring.prepare(damage: .zero) { _, _ in }     // the first buffer catches up
        ring.queued()
        ring.flipCompleted()
        // Both buffers hold the frame; a frame of two far-apart pieces.
        var pieces = DamageList()
        pieces.add(IntRect(x: 0, y: 0, width: 4, height: 4), within: ring.bounds)
        pieces.add(IntRect(x: 90, y: 90, width: 4, height: 4), within: ring.bounds)
        var copied: [IntRect] = []
        ring.prepare(damage: pieces.boundingBox, pieces: pieces) { _, area in copied.append(area) }
        XCTAssertEqual(copied, pieces.rects, "each piece, not their 94×94 bounding box")
        XCTAssertEqual(ring.staleArea(of: ring.onScreenIndex!), pieces.boundingBox,
                       "the other buffer learns the bounding box")
    }

    func testFailedCommitFreesTheBufferAndKeepsWhatItHolds() {
        var ring = ScanoutBufferRing(count: 3, width: 10, height: 10)
        let index = ring.prepare(damage: ring.bounds) { _, _ in }
        ring.commitFailed()
        XCTAssertEqual(ring.states, [.free, .free, .free])
        XCTAssertEqual(ring.staleArea(of: index), .zero, "it holds the frame that was not shown")
        XCTAssertEqual(ring.renderingIndex, nil)
    }

    func testInPlaceRingWritesTheBufferItShows() {
        var ring = ScanoutBufferRing(count: 1, width: 10, height: 10)
        XCTAssertTrue(ring.isInPlace)
        ring.prepare(damage: ring.bounds) { _, _ in }
        ring.shown()
        var copied: [IntRect] = []
        let index = ring.prepare(damage: IntRect(x: 2, y: 2, width: 3, height: 3)) { _, area in copied.append(area) }
        XCTAssertEqual(index, 0)
        XCTAssertEqual(copied, [IntRect(x: 2, y: 2, width: 3, height: 3)], "only the damage: it missed nothing")
        ring.queued()
        ring.flipCompleted()
        XCTAssertEqual(ring.states, [.onScreen])
        ring.invalidateAll()
        copied = []
        ring.prepare(damage: .zero) { _, area in copied.append(area) }
        XCTAssertEqual(copied, [ring.bounds], "after invalidateAll the whole frame")
    }

    /// The model test: frames are grids of generation numbers, changed in
    /// random rectangles (one or several pieces); each is prepared into the
    /// ring's buffers by copying the areas the ring hands out, then shown,
    /// flipped, refused (EBUSY) or lost (invalidateAll, as after a modeset).
    /// After every frame shown, the buffer on screen equals the frame, and
    /// no copy ever went to the buffer on screen or the one queued (2 and 3
    /// buffers), or the buffer on screen is the only one (in place).
    func testBuffersAlwaysEndUpEqualToTheFrame() {
        for count in 1...3 {
            let w = 24, h = 16
            var rng = SplitMix64(seed: UInt64(40 + count))
            var ring = ScanoutBufferRing(count: count, width: w, height: h)
            var frame = [Int](repeating: 0, count: w * h)
            var buffers = [[Int]](repeating: [Int](repeating: -1, count: w * h), count: count)
            var generation = 0
            var started = false
            for step in 0..<600 {
                generation += 1
                var pieces = DamageList()
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    let x = Int.random(in: 0..<w, using: &rng), y = Int.random(in: 0..<h, using: &rng)
                    let r = IntRect(x: x, y: y, width: Int.random(in: 1...8, using: &rng), height: Int.random(in: 1...6, using: &rng))
                    pieces.add(r, within: ring.bounds)
                }
                for r in pieces.rects {
                    for y in r.y..<r.maxY { for x in r.x..<r.maxX { frame[y * w + x] = generation } }
                }
                if Int.random(in: 0..<40, using: &rng) == 0 { ring.invalidateAll() }
                let protected = count > 1 ? [ring.onScreenIndex, ring.pendingIndex] : []
                let usePieces = Bool.random(using: &rng)
                let index = ring.prepare(damage: pieces.boundingBox, pieces: usePieces ? pieces : nil) { b, area in
                    XCTAssertFalse(protected.contains(b), "step \(step): a copy into a buffer the display reads")
                    for y in area.y..<area.maxY { for x in area.x..<area.maxX { buffers[b][y * w + x] = frame[y * w + x] } }
                }
                if started && Int.random(in: 0..<8, using: &rng) == 0 {
                    ring.commitFailed()          // EBUSY: dropped, shown next time
                    continue
                }
                if !started { ring.shown() } else { ring.queued(); ring.flipCompleted() }
                started = true
                XCTAssertEqual(ring.onScreenIndex, index)
                XCTAssertEqual(buffers[index], frame, "\(count) buffers, step \(step): the screen differs from the frame")
            }
        }
    }

    /// `SimulatedPresenter` with two buffers: the screen is always the
    /// whole frame although only damage is copied, and the buffer on screen
    /// is not written by the next frame's commit.
    func testSimulatedPresenterWithTwoBuffersShowsWholeFrames() throws {
        let w = 32, h = 20
        let presenter = try XCTUnwrap(SimulatedPresenter(width: w, height: h, bufferCount: 2))
        let frame = try XCTUnwrap(Surface<ARGB8888>(width: w, height: h))
        var rng = SplitMix64(seed: 9)
        func change(_ r: IntRect) {
            for y in r.y..<r.maxY { for x in r.x..<r.maxX { frame.view[x, y] = rng.premultipliedColor().argb } }
        }
        func screenMatchesFrame() -> Bool {
            for y in 0..<h { for x in 0..<w where presenter.screen.view[x, y] & 0xFF_FFFF != frame.view[x, y] & 0xFF_FFFF { return false } }
            return true
        }
        change(frame.view.bounds)
        _ = try presenter.present(frame.view, damage: frame.view.bounds)
        XCTAssertTrue(screenMatchesFrame())
        for step in 0..<30 {
            let r = IntRect(x: (step * 7) % (w - 4), y: (step * 3) % (h - 4), width: 4, height: 4)
            change(r)
            let onScreen = try XCTUnwrap(presenter.ring.onScreenIndex)
            let before = Array(UnsafeBufferPointer(start: presenter.buffers[onScreen].pixels, count: presenter.buffers[onScreen].rowStride * h))
            XCTAssertEqual(try presenter.present(frame.view, damage: r), .flipQueued)
            let after = Array(UnsafeBufferPointer(start: presenter.buffers[onScreen].pixels, count: presenter.buffers[onScreen].rowStride * h))
            XCTAssertEqual(before, after, "step \(step): the buffer on screen was written")
            XCTAssertEqual(presenter.ring.pendingIndex, 1 - onScreen)
            XCTAssertTrue(screenMatchesFrame(), "step \(step)")
            _ = try presenter.waitForFlip(timeoutNanoseconds: 1_000_000_000)
            XCTAssertEqual(presenter.ring.onScreenIndex, 1 - onScreen)
        }
    }
}
