import FBRuntime
import ImageIO

/// One image asked of an `ImageLoadQueue`. Keep it to cancel the request.
public final class ImageLoadRequest: @unchecked Sendable {
    /// The file asked for.
    public let path: String
    public let options: ImageDecodeOptions
    /// Stops a decode in progress (checked once per row).
    let cancellation: DecodeCancellation
    let completion: (Result<DecodedImage, ImageError>) -> Void
    /// App-thread state: the completion ran.
    var delivered = false
    /// Set by `cancel()` (app thread) before the completion ran.
    var cancelled = false
    /// Strong: a request kept for `cancel()` keeps its queue alive (the
    /// queue holds its requests only while they wait).
    let queue: ImageLoadQueue

    init(path: String, options: ImageDecodeOptions, queue: ImageLoadQueue,
         completion: @escaping (Result<DecodedImage, ImageError>) -> Void) {
        self.path = path
        let cancellation = DecodeCancellation()
        var options = options
        options.cancellation = cancellation
        self.options = options
        self.cancellation = cancellation
        self.queue = queue
        self.completion = completion
    }

    /// Cancels the request (app thread): a pending one is taken off the
    /// queue and never decoded, a running decode stops at its next row, a
    /// finished one is not delivered. The completion then runs once, on the
    /// next turn, with an error whose `isCancellation` is true. Does nothing
    /// after the completion ran.
    public func cancel() { queue.cancel(self) }

    /// Whether the completion ran (app thread).
    public var isDelivered: Bool { delivered }
}

/// Decodes image files on worker threads and delivers each result on the
/// app thread, at the start of a run-loop turn (`AppRunLoop.post`), where
/// the completion can set `layer.contents`:
///
/// ```swift
/// let queue = try ImageLoadQueue()
/// _ = queue.load(path: "photo.jpg", options: ImageDecodeOptions(fittingIn: 320, 240)) { result in
///     if case .success(let image) = result {
///         layer.contents = LayerContents(image.surface, isOpaque: image.isOpaque)
///     }
/// }
/// ```
///
/// Nothing here runs on the render thread: decoding happens on the queue's
/// workers, delivery on whichever thread runs the app's turns.
///
/// Bounded: at most `capacity` requests wait (not counting the ones being
/// decoded); `load` returns `nil` when the queue is full, at once, and the
/// app may retry later (back-pressure instead of an unbounded backlog of
/// pixel memory). Requests are decoded in the order asked.
///
/// Threading: `load`, `cancel` and `close` on the app thread (the thread
/// that runs `runLoop`'s turns).
public final class ImageLoadQueue: @unchecked Sendable {
    /// The run loop results are delivered on.
    public let runLoop: AppRunLoop
    /// Largest number of requests waiting to be decoded.
    public let capacity: Int

    private let state = Condition()
    private var pending: [ImageLoadRequest] = []
    private var closing = false
    private var workers: [Thread] = []
    private let decode: (ImageLoadRequest) -> Result<DecodedImage, ImageError>

    /// A queue with `workerCount` decoding threads (at least 1) delivering
    /// to `runLoop`. `decode` is what a worker runs per request (tests
    /// replace it); by default `ImageFile.load(path:options:)`.
    /// - Throws: `SystemError` when a thread cannot be started.
    public init(runLoop: AppRunLoop = AppRunLoop.current, workerCount: Int = 1, capacity: Int = 32,
                decode: ((ImageLoadRequest) -> Result<DecodedImage, ImageError>)? = nil) throws(SystemError) {
        self.runLoop = runLoop
        self.capacity = Swift.max(1, capacity)
        self.decode = decode ?? { request in
            do throws(ImageError) { return .success(try ImageFile.load(path: request.path, options: request.options)) }
            catch { return .failure(error) }
        }
        for _ in 0..<Swift.max(1, workerCount) {
            let worker: Thread
            do throws(SystemError) {
                worker = try Thread { [unowned(unsafe) self] in self.work() }
            } catch {
                close()
                throw error
            }
            workers.append(worker)
        }
    }

    deinit { close() }

    /// Asks for the image at `path`; returns at once with the request, or
    /// `nil` when `capacity` requests already wait (the completion is then
    /// never called). `completion` runs exactly once, on the app thread
    /// during a turn of `runLoop`, with the image or the error (a missing,
    /// corrupt or too large file; cancellation; a closed queue).
    public func load(path: String, options: ImageDecodeOptions = ImageDecodeOptions(),
                     completion: @escaping (Result<DecodedImage, ImageError>) -> Void) -> ImageLoadRequest? {
        let request = ImageLoadRequest(path: path, options: options, queue: self, completion: completion)
        // 0: queued, 1: full, 2: closed.
        let outcome: Int = state.lock.withLock {
            if closing { return 2 }
            guard pending.count < capacity else { return 1 }
            pending.append(request)
            state.signal()
            return 0
        }
        if outcome == 2 {
            deliver(request, .failure(ImageError("\(path): the image load queue is closed")))
            return request
        }
        return outcome == 0 ? request : nil
    }

    /// Requests waiting to be decoded (any thread).
    public var pendingCount: Int { state.lock.withLock { pending.count } }

    /// Stops the workers after the decodes in progress and joins them;
    /// waiting requests are delivered as cancelled. Called by `deinit`.
    public func close() {
        let dropped: [ImageLoadRequest] = state.lock.withLock {
            closing = true
            let p = pending
            pending = []
            state.broadcast()
            return p
        }
        for r in dropped {
            r.cancellation.cancel()
            deliver(r, .failure(ImageError("\(r.path): cancelled")))
        }
        let threads = workers
        workers = []
        for t in threads { t.join() }
    }

    func cancel(_ request: ImageLoadRequest) {
        guard !request.delivered, !request.cancelled else { return }
        request.cancelled = true
        request.cancellation.cancel()
        let removed: Bool = state.lock.withLock {
            var i = 0
            while i < pending.count {
                if pending[i] === request { pending.remove(at: i); return true }
                i += 1
            }
            return false
        }
        // A running or finished decode delivers through its own post; a
        // pending one never reaches a worker, so deliver its cancellation.
        if removed { deliver(request, .failure(ImageError("\(request.path): cancelled"))) }
    }

    private func work() {
        while true {
            let next: ImageLoadRequest? = state.lock.withLock {
                while pending.isEmpty && !closing {
                    state.wait(untilNanoseconds: System.monotonicNanoseconds() + 1_000_000_000)
                }
                if pending.isEmpty { return nil }
                return pending.removeFirst()
            }
            guard let request = next else { return }
            let result: Result<DecodedImage, ImageError> = request.cancellation.isCancelled
                ? .failure(ImageError("\(request.path): cancelled")) : decode(request)
            deliver(request, result)
        }
    }

    /// Posts the completion to the app thread; a request cancelled before
    /// it runs gets a cancellation error instead of its image.
    private func deliver(_ request: ImageLoadRequest, _ result: Result<DecodedImage, ImageError>) {
        runLoop.post {
            guard !request.delivered else { return }
            request.delivered = true
            if request.cancelled, case .success = result {
                request.completion(.failure(ImageError("\(request.path): cancelled")))
            } else {
                request.completion(result)
            }
        }
    }
}
