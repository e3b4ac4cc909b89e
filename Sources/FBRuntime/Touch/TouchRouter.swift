/// Delivers touches to layers: each touch-down is hit-tested on the
/// presentation tree at the event's time (where the layers are on screen
/// then, animations applied: `Layer.hitTest(_:at:)`) and goes to the model
/// layer found; the touch stays with that layer — it is *captured* —
/// through its moves, up or cancel, wherever the finger goes.
///
/// A touch also goes to the gesture recognizers attached to its layer and
/// to the layer's superlayers (UIKit's rule: a pan on a list sees the
/// touches that began on a row). A touch-down that hits nothing is not
/// delivered, and nor is anything else of that touch.
///
/// Bad input is dropped, never a trap: a down at a non-finite location, a
/// move, up or cancel of an unknown touch, more than `maximumTouches` at
/// once. A second down for a touch that is already down cancels the first.
///
/// Why here: routing needs the layer tree and its presentation values, so
/// it lives in FBRuntime; it takes device-neutral `TouchEvent`s so
/// FBRuntime does not depend on libinput (the Input module).
///
/// Threading: the app thread — the thread that owns the model tree. With
/// a `RenderLoop` drawing the tree, call `handle` and `advance` inside
/// `RenderLoop.update` (the hit test reads the tree under the scene lock,
/// and recognisers' actions may change it).
public final class TouchRouter {
    /// The tree touches are tested against; its superlayer space is the
    /// UI space of `TouchEvent.location`.
    public var root: Layer
    /// Called for every delivered touch event with the layer that captured it.
    public var onTouch: ((Layer, TouchEvent) -> Void)?
    /// Simultaneous touches followed; more are ignored.
    public static let maximumTouches = 16

    private struct Capture {
        var touch: Touch
        var layer: Layer
    }
    private var captures: [Capture] = []
    private var recognizers: [GestureRecognizer] = []

    public init(root: Layer) {
        self.root = root
        captures.reserveCapacity(Self.maximumTouches)
    }

    /// Touches down now.
    public var activeTouches: [Touch] { captures.map { $0.touch } }

    /// The layer that captured touch `id`, if it is down.
    public func capturingLayer(of id: Int32) -> Layer? {
        captures.first { $0.touch.id == id }?.layer
    }

    /// Attaches `recognizer` to `layer`: it sees the touches that begin on
    /// `layer` or its sublayers.
    public func add(_ recognizer: GestureRecognizer, to layer: Layer) {
        recognizer.layer = layer
        if !recognizers.contains(where: { $0 === recognizer }) { recognizers.append(recognizer) }
    }

    public func remove(_ recognizer: GestureRecognizer) {
        recognizers.removeAll { $0 === recognizer }
        recognizer.layer = nil
    }

    /// Removes every recognizer attached to `subtree` or a layer under it
    /// (a page that goes away for good; the router otherwise keeps its
    /// recognizers, and what their actions capture, as long as it lives).
    /// Returns how many were removed.
    @discardableResult
    public func removeAll(in subtree: Layer) -> Int {
        var removed = 0
        recognizers.removeAll { r in
            var layer = r.layer
            while let l = layer, l !== subtree { layer = l.superlayer }
            guard layer != nil else { return false }
            r.layer = nil
            removed += 1
            return true
        }
        return removed
    }

    /// The earliest time a recognizer wants `advance(to:)` (a long press
    /// or a tap timeout): the app's poll loop waits at most until then.
    public var nextDeadline: MediaTime? {
        var earliest: MediaTime?
        for r in recognizers {
            if let d = r.deadline, d < (earliest ?? .infinity) { earliest = d }
        }
        return earliest
    }

    /// Lets recognizers see the passing of time (media time, seconds).
    public func advance(to time: MediaTime) {
        guard time.isFinite else { return }
        for r in recognizers { r.timeAdvanced(to: time) }
        settle()
    }

    /// Routes one event; returns the layer it was delivered to, nil when it
    /// was dropped.
    @discardableResult
    public func handle(_ event: TouchEvent) -> Layer? {
        guard event.timestamp.isFinite else { return nil }
        advance(to: event.timestamp)   // timeouts that expired before this event come first
        let index = captures.firstIndex { $0.touch.id == event.id }
        let layer: Layer
        switch event.phase {
        case .began:
            if index != nil {
                _ = handle(TouchEvent(id: event.id, phase: .cancelled, location: event.location, timestamp: event.timestamp))
            }
            guard event.location.isFinite, captures.count < Self.maximumTouches,
                  let hit = root.hitTest(event.location, at: event.timestamp) else { return nil }
            if captures.isEmpty { for r in recognizers { r.resetIfFinished() } }
            let touch = Touch(id: event.id, startLocation: event.location, location: event.location,
                              startTimestamp: event.timestamp, timestamp: event.timestamp)
            captures.append(Capture(touch: touch, layer: hit))
            layer = hit
            onTouch?(hit, event)
            for r in recognizers where r.layer.map({ isAncestor($0, of: hit) }) ?? false { r.begin(touch) }
        case .moved:
            guard let i = index, event.location.isFinite else { return nil }
            captures[i].touch.location = event.location
            captures[i].touch.timestamp = event.timestamp
            let touch = captures[i].touch
            layer = captures[i].layer
            onTouch?(layer, event)
            for r in recognizers where r.follows(touch.id) { r.move(touch) }
        case .ended, .cancelled:
            guard let i = index else { return nil }
            var touch = captures[i].touch
            touch.timestamp = event.timestamp
            layer = captures[i].layer
            captures.remove(at: i)
            onTouch?(layer, TouchEvent(id: event.id, phase: event.phase, location: touch.location, timestamp: event.timestamp))
            for r in recognizers where r.follows(touch.id) { r.end(touch, cancelled: event.phase == .cancelled) }
        }
        settle()
        return layer
    }

    /// Cancels every touch down (the display went away, the app is
    /// switching screens).
    public func cancelAll(at time: MediaTime) {
        while let c = captures.last {
            _ = handle(TouchEvent(id: c.touch.id, phase: .cancelled, location: c.touch.location, timestamp: time))
        }
    }

    /// Resolves held transitions until nothing changes (a chain of
    /// failure requirements settles in at most `recognizers.count` rounds).
    private func settle() {
        var rounds = 0
        while rounds <= recognizers.count {
            var changed = false
            for r in recognizers where r.resolveHeldState() { changed = true }
            if !changed { break }
            rounds += 1
        }
    }

    private func isAncestor(_ candidate: Layer, of layer: Layer) -> Bool {
        var l: Layer? = layer
        var depth = 0
        while let current = l, depth <= Compositor.maximumDepth {
            if current === candidate { return true }
            l = current.superlayer
            depth += 1
        }
        return false
    }
}
