import FBRuntime
import Foundation
import ImageIO
import ImageLoading
import Raster
import TestSupport
import XCTest

/// Decoding off the app thread (issue 8): `load` returns at once while a
/// worker decodes, the completion runs on the thread that turns the run
/// loop, errors arrive as errors, pending requests can be cancelled, the
/// queue is bounded. The decoder is held at a gate so each step is checked
/// while the decode is provably still running; no test measures time.
final class ImageLoadQueueTests: XCTestCase {
    static let images = repositoryRoot.appendingPathComponent("Tests/Images")
    func image(_ name: String) -> String { Self.images.appendingPathComponent(name).path }

    /// A gate the test decoder waits at, and what the decoder saw.
    final class Gate: @unchecked Sendable {
        let condition = Condition()
        var open = false
        var started: [String] = []
        var decodeThreads: [pthread_t] = []

        func release() { condition.lock.withLock { open = true; condition.broadcast() } }

        /// The decoder: note the request, wait for the gate, then decode for real.
        func decode(_ request: ImageLoadRequest) -> Result<DecodedImage, ImageError> {
            condition.lock.withLock {
                started.append((request.path as NSString).lastPathComponent)
                decodeThreads.append(pthread_self())
                condition.broadcast()
                _ = condition.wait(untilNanoseconds: System.monotonicNanoseconds() + 30_000_000_000) { self.open }
            }
            do throws(ImageError) { return .success(try ImageFile.load(path: request.path, options: request.options)) }
            catch { return .failure(error) }
        }

        /// Waits (bounded) until `count` decodes have started.
        func waitForStarts(_ count: Int) -> Bool {
            condition.lock.withLock {
                condition.wait(untilNanoseconds: System.monotonicNanoseconds() + 30_000_000_000) { self.started.count >= count }
            }
        }
    }

    /// Turns `loop` until `done()` or a bounded number of turns (each turn
    /// after a short sleep, for the worker to post).
    func turn(_ loop: AppRunLoop, until done: () -> Bool) {
        var turns = 0
        while !done() && turns < 3000 {
            if !loop.hasPostedBlocks { usleep(2000) }
            loop.runTurn()
            turns += 1
        }
    }

    func testLoadReturnsAtOnceAndCompletesOnTheAppThreadsTurn() throws {
        let loop = AppRunLoop(clock: ManualClock())
        let gate = Gate()
        let queue = try ImageLoadQueue(runLoop: loop, decode: { gate.decode($0) })
        defer { gate.release(); queue.close() }
        let layer = Layer()
        var results: [Result<DecodedImage, ImageError>] = []
        var completionThreads: [pthread_t] = []
        let request = try XCTUnwrap(queue.load(path: image("photo-64x48.jpg")) { result in
            results.append(result)
            completionThreads.append(pthread_self())
            if case .success(let image) = result { layer.contents = LayerContents(image.surface, isOpaque: image.isOpaque) }
        })
        // load returned while the decode is held at the gate on a worker.
        XCTAssertTrue(gate.waitForStarts(1))
        XCTAssertTrue(results.isEmpty)
        XCTAssertFalse(request.isDelivered)
        XCTAssertEqual(gate.decodeThreads.count, 1)
        XCTAssertEqual(pthread_equal(gate.decodeThreads[0], pthread_self()), 0, "decoded on a worker, not the app thread")
        loop.runTurn()
        XCTAssertTrue(results.isEmpty, "no result before the decode ends")
        gate.release()
        // Nothing runs between turns: the result waits for one.
        turn(loop) { !results.isEmpty }
        XCTAssertEqual(results.count, 1)
        XCTAssertNotEqual(pthread_equal(completionThreads[0], pthread_self()), 0, "completion on the thread that turns the loop")
        guard case .success(let decoded) = results[0] else { return XCTFail("\(results[0])") }
        XCTAssertEqual(decoded.width, 64)
        XCTAssertTrue(request.isDelivered)
        XCTAssertEqual(layer.contents?.width, 64)
        XCTAssertEqual(layer.contents?.isOpaque, true)
        // Exactly once: more turns deliver nothing more.
        loop.runTurn()
        XCTAssertEqual(results.count, 1)
    }

    func testErrorsArriveAsErrors() throws {
        let loop = AppRunLoop(clock: ManualClock())
        let queue = try ImageLoadQueue(runLoop: loop, workerCount: 2)
        defer { queue.close() }
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("fbr-queue-junk-\(getpid()).jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: junk)
        var messages: [String: String] = [:]
        for path in [image("no-such-file.jpg"), junk.path] {
            _ = try XCTUnwrap(queue.load(path: path) { result in
                switch result {
                case .success: messages[path] = "decoded?"
                case .failure(let e): messages[path] = e.description
                }
            })
        }
        turn(loop) { messages.count == 2 }
        XCTAssertTrue(messages[image("no-such-file.jpg")]?.contains("cannot open") == true, "\(messages)")
        XCTAssertTrue(messages[junk.path]?.contains("JPEG") == true, "\(messages)")
    }

    func testCancellingAPendingRequestAndABoundedQueue() throws {
        let loop = AppRunLoop(clock: ManualClock())
        let gate = Gate()
        let queue = try ImageLoadQueue(runLoop: loop, workerCount: 1, capacity: 2, decode: { gate.decode($0) })
        defer { gate.release(); queue.close() }
        var outcomes: [String: String] = [:]
        func ask(_ name: String) -> ImageLoadRequest? {
            queue.load(path: image(name), options: ImageDecodeOptions(fittingIn: 16, 16)) { result in
                switch result {
                case .success(let i): outcomes[name] = "\(i.width)x\(i.height)"
                case .failure(let e): outcomes[name] = e.isCancellation ? "cancelled" : e.description
                }
            }
        }
        _ = try XCTUnwrap(ask("photo-64x48.jpg"))
        XCTAssertTrue(gate.waitForStarts(1))                    // the worker holds the first
        let second = try XCTUnwrap(ask("gray-40x30.jpg"))
        _ = try XCTUnwrap(ask("cmyk-40x30.jpg"))
        XCTAssertEqual(queue.pendingCount, 2)
        XCTAssertNil(ask("progressive-64x48.jpg"), "full: refused at once")
        second.cancel()
        XCTAssertEqual(queue.pendingCount, 1)
        gate.release()
        turn(loop) { outcomes.count == 3 }
        XCTAssertEqual(outcomes["photo-64x48.jpg"], "16x12")
        XCTAssertEqual(outcomes["gray-40x30.jpg"], "cancelled")
        XCTAssertEqual(outcomes["cmyk-40x30.jpg"], "16x12")
        XCTAssertNil(outcomes["progressive-64x48.jpg"])
        XCTAssertEqual(gate.started, ["photo-64x48.jpg", "cmyk-40x30.jpg"], "the cancelled request was never decoded")
        second.cancel()                                         // after delivery: nothing
        loop.runTurn()
        XCTAssertEqual(outcomes.count, 3)
    }

    func testCancellingARunningDecode() throws {
        let loop = AppRunLoop(clock: ManualClock())
        let gate = Gate()
        let queue = try ImageLoadQueue(runLoop: loop, decode: { gate.decode($0) })
        defer { gate.release(); queue.close() }
        var outcome: String?
        let request = try XCTUnwrap(queue.load(path: image("large-480x360.jpg")) { result in
            switch result {
            case .success: outcome = "decoded"
            case .failure(let e): outcome = e.isCancellation ? "cancelled" : e.description
            }
        })
        XCTAssertTrue(gate.waitForStarts(1))
        request.cancel()                      // the decoder sees it at its first row
        gate.release()
        turn(loop) { outcome != nil }
        XCTAssertEqual(outcome, "cancelled")
    }
}
