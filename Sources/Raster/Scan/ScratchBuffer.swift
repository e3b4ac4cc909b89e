/// A growable buffer of trivial values owned by a long-lived object (the
/// rasterizer): it allocates only when asked for more than it has ever held,
/// so steady-state drawing does not allocate. Not copyable in spirit: the
/// owner calls `release()` once, in its `deinit`.
@usableFromInline
struct ScratchBuffer<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    @usableFromInline var count = 0

    init() {
        base = .allocate(capacity: 1)
        capacity = 1
    }

    /// Makes room for `n` elements, discarding the contents when it has to
    /// grow. Fresh memory is filled with `fill`.
    mutating func reserve(_ n: Int, fill: Element) {
        if n > capacity {
            base.deallocate()
            capacity = max(n, capacity * 2)
            base = .allocate(capacity: capacity)
            base.initialize(repeating: fill, count: capacity)
        }
    }

    /// Appends `e`, growing (and keeping the contents) when full.
    @inline(__always)
    mutating func append(_ e: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: e)
        count &+= 1
    }

    mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    func release() { base.deallocate() }
}
