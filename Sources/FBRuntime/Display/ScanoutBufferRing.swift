import Raster

/// Where one scan-out buffer is in its cycle (wlroots `drm.c`, Slint's
/// KMS backend). A buffer goes
///
///     free → rendering → queued → onScreen → free
///
/// and only the page-flip event that puts the next buffer on screen frees
/// the one that was there: until then the display may still be reading it.
public enum ScanoutBufferState: Equatable, Sendable {
    /// Nobody reads it: the next frame may be copied into it.
    case free
    /// The frame's damage is being copied into it.
    case rendering
    /// A flip to it is queued; the display has not switched yet.
    case queued
    /// The display scans out of it.
    case onScreen
}

/// Whether a flip is in flight (Slint's `PageFlipState`). Never two: a
/// second flip is not queued while one is waited for.
public enum PageFlipState: Equatable, Sendable {
    case idle
    case waitingForFlip
}

/// The scan-out buffers of one display and the rules they follow: the one
/// buffer ring of every presenter (`KMSPresenter`, `FBDevPresenter`,
/// `SimulatedPresenter`), each of which adds only how a buffer is written
/// and how a flip is made.
///
/// It keeps each buffer's state (`ScanoutBufferState`), whether a flip is
/// pending (`PageFlipState`), and each buffer's **stale area**: the
/// bounding box of what later frames changed since the buffer last took a
/// frame (its "buffer age", as EGL_EXT_buffer_age and wlroots' damage
/// ring use it). A frame is copied into a free buffer as its damage plus
/// that stale area, so a buffer that skipped frames still ends up equal to
/// the whole frame.
///
/// Two kinds of ring:
/// - **flipping** (`count` ≥ 2): a frame goes into a free buffer; the
///   buffer on screen is never written.
/// - **in place** (`count` 1, fbdev without panning, the simulator): the
///   one buffer is written where it is shown (tearing is possible; there
///   is nothing to flip to). Its cycle is the same, from `onScreen`
///   straight to `rendering`.
///
/// Invariants (checked by `checkInvariants()`, debug builds, after every
/// transition): at most one buffer rendering and one on screen; exactly
/// one buffer queued while a flip is pending, none otherwise.
///
/// Sizes are the frame's, in pixels (a presenter that rotates while
/// copying keeps the ring in frame coordinates). Not thread-safe: the
/// render thread's.
public struct ScanoutBufferRing: Sendable {
    /// Each buffer's state, by index.
    public private(set) var states: [ScanoutBufferState]
    public private(set) var flipState = PageFlipState.idle
    /// The area of the frame, `(0, 0, width, height)`.
    public let bounds: IntRect
    /// What each buffer missed since it last took a frame, in frame pixels.
    private var staleAreas: [IntRect]
    private var queuedIndex: Int?

    /// `count` buffers (1: in place), all free and wholly stale (their
    /// memory holds nothing of a frame yet).
    public init(count: Int, width: Int, height: Int) {
        precondition(count >= 1, "ScanoutBufferRing: at least one buffer")
        bounds = IntRect(x: 0, y: 0, width: max(0, width), height: max(0, height))
        states = Array(repeating: .free, count: count)
        staleAreas = Array(repeating: bounds, count: count)
    }

    public var count: Int { states.count }
    public var isInPlace: Bool { states.count == 1 }
    public var isFlipPending: Bool { flipState == .waitingForFlip }
    /// The buffer a prepared frame waits in, until `queued`, `shown` or
    /// `commitFailed`.
    public var renderingIndex: Int? { firstBuffer(in: .rendering) }
    /// The buffer the display scans out of (nil before the first frame).
    public var onScreenIndex: Int? { firstBuffer(in: .onScreen) }
    /// The buffer a pending flip goes to.
    public var pendingIndex: Int? { queuedIndex }

    /// The area buffer `index` missed since it last took a frame.
    public func staleArea(of index: Int) -> IntRect { staleAreas[index] }

    /// How many buffers are in `state`.
    public func buffers(in state: ScanoutBufferState) -> Int {
        var n = 0
        for i in states.indices where states[i] == state { n += 1 }
        return n
    }

    /// The first buffer in `state`.
    public func firstBuffer(in state: ScanoutBufferState) -> Int? {
        for i in states.indices where states[i] == state { return i }
        return nil
    }

    // MARK: Transitions

    /// Takes a buffer for the next frame (free → rendering; in place, the
    /// one buffer whatever it showed) and hands `copy` each area of the
    /// frame to write into it: its stale area and the damage, clipped to
    /// the frame. With `pieces` (the damage as disjoint rectangles, their
    /// bounding box `damage`) of more than one rectangle not already in the
    /// stale area, the stale area and then each piece; else their union
    /// in one rectangle. Empty areas are not handed. The other buffers
    /// learn the damage as stale. Returns the buffer's index.
    ///
    /// Precondition: no flip pending, no frame rendering, a free buffer
    /// (always true of a ring of 2 or more with no flip pending).
    @discardableResult
    public mutating func prepare(damage: IntRect, pieces: DamageList? = nil,
                                 copy: (_ buffer: Int, _ area: IntRect) -> Void) -> Int {
        precondition(flipState == .idle, "ScanoutBufferRing: a flip is pending; wait for it before preparing a frame")
        precondition(renderingIndex == nil, "ScanoutBufferRing: a prepared frame is not committed yet")
        let index: Int
        if isInPlace {
            index = 0
        } else {
            guard let free = firstBuffer(in: .free) else {
                preconditionFailure("ScanoutBufferRing: no free buffer while no flip is pending")
            }
            index = free
        }
        let damage = damage.intersection(bounds)
        states[index] = .rendering
        let stale = staleAreas[index]
        if let pieces, pieces.rects.count > 1, !stale.contains(damage) {
            if !stale.isEmpty { copy(index, stale) }
            for r in pieces.rects {
                let piece = r.intersection(bounds)
                if !piece.isEmpty { copy(index, piece) }
            }
        } else {
            let area = damage.isEmpty ? stale : (stale.isEmpty ? damage : stale.union(damage))
            if !area.isEmpty { copy(index, area) }
        }
        staleAreas[index] = .zero
        if !damage.isEmpty {
            for i in staleAreas.indices where i != index {
                staleAreas[i] = staleAreas[i].isEmpty ? damage : staleAreas[i].union(damage)
            }
        }
        checkInvariants()
        return index
    }

    /// The prepared buffer is shown at once (a modeset, a first frame, an
    /// in-place write with nothing to wait for): rendering → onScreen, and
    /// the buffer that was on screen is free.
    public mutating func shown() {
        guard let index = renderingIndex else { preconditionFailure("ScanoutBufferRing: shown without a prepared frame") }
        for i in states.indices where states[i] == .onScreen { states[i] = .free }
        states[index] = .onScreen
        checkInvariants()
    }

    /// A flip to the prepared buffer is queued: rendering → queued, a flip
    /// pending until `flipCompleted()`.
    public mutating func queued() {
        guard let index = renderingIndex else { preconditionFailure("ScanoutBufferRing: queued without a prepared frame") }
        states[index] = .queued
        queuedIndex = index
        flipState = .waitingForFlip
        checkInvariants()
    }

    /// The pending flip happened: the buffer that was on screen is free,
    /// the queued one is on screen.
    public mutating func flipCompleted() {
        precondition(flipState == .waitingForFlip, "ScanoutBufferRing: no flip to complete")
        for i in states.indices where states[i] == .onScreen { states[i] = .free }
        if let q = queuedIndex { states[q] = .onScreen }
        queuedIndex = nil
        flipState = .idle
        checkInvariants()
    }

    /// The prepared frame was not shown (EBUSY, a lost display): its buffer
    /// is free again. It holds the frame now, so only later damage is new
    /// to it. (In place, the buffer is written already: it is on screen.)
    public mutating func commitFailed() {
        guard let index = renderingIndex else { preconditionFailure("ScanoutBufferRing: no prepared frame to drop") }
        states[index] = isInPlace ? .onScreen : .free
        checkInvariants()
    }

    /// What the buffers hold is unknown (a modeset after the display was
    /// lost, another process drew on it): every buffer takes the whole
    /// frame next time it is prepared.
    public mutating func invalidateAll() {
        for i in staleAreas.indices { staleAreas[i] = bounds }
    }

    /// The invariants of the type's notes (swift-collections'
    /// `_checkInvariants` idea); debug builds only.
    public func checkInvariants() {
        assert(buffers(in: .rendering) <= 1, "ScanoutBufferRing: two buffers rendering")
        assert(buffers(in: .onScreen) <= 1, "ScanoutBufferRing: two buffers on screen")
        assert(buffers(in: .queued) == (flipState == .waitingForFlip ? 1 : 0),
               "ScanoutBufferRing: queued buffers and PageFlipState disagree")
        assert(queuedIndex == nil || states[queuedIndex!] == .queued, "ScanoutBufferRing: the pending index is stale")
    }
}

/// The frame a presenter that writes at commit time (the simulator's
/// window, `SimulatedPresenter`) was given by `prepare`, until its commit
/// copies it through a `ScanoutBufferRing`. The frame's memory belongs to
/// the caller and stays valid until the next render.
public struct HeldFrame {
    private var frame: PixelView<ARGB8888>?
    /// The damage, clipped to the frame, and its disjoint pieces if given.
    public private(set) var damage = IntRect.zero
    public private(set) var pieces: DamageList?

    public init() {}

    public var isHeld: Bool { frame != nil }

    /// Keeps `frame` and its damage (`pieces`: the damage as disjoint
    /// rectangles, `damage` their bounding box).
    public mutating func hold(_ frame: PixelView<ARGB8888>, damage: IntRect, pieces: DamageList?) {
        self.frame = frame
        self.damage = damage.intersection(IntRect(x: 0, y: 0, width: frame.width, height: frame.height))
        self.pieces = pieces
    }

    /// The held frame, no longer held (nil if none was).
    public mutating func take() -> PixelView<ARGB8888>? {
        defer { frame = nil }
        return frame
    }
}
