/// What the survey resolved for each unit of a frame, by unit index, in
/// one buffer that is kept (and grown, never shrunk) from frame to frame.
///
/// A `ResolvedLayer` is about 1 KB. Kept in an `[ResolvedLayer?]`, every
/// read for the draw of a damage rectangle copied it several times
/// (optional payload, then the argument); here the draw reads a slot in
/// place through `pointer(at:)`, and only the survey writes one copy per
/// unit. Slots are set or unset; an unset slot holds no value (units
/// recorded another way: transitions, rendering contexts, replicators).
///
/// Render-thread state of one `Compositor`; not thread-safe.
final class ResolvedUnits {
    private var storage: UnsafeMutablePointer<Compositor.ResolvedLayer>
    private var capacity: Int
    /// Whether each slot `0 ..< count` holds a value.
    private var isSet: [Bool] = []

    init() {
        capacity = 0
        storage = UnsafeMutablePointer<Compositor.ResolvedLayer>.allocate(capacity: 0)
    }

    deinit {
        removeAll()
        storage.deallocate()
    }

    /// Slots in use (set or unset).
    var count: Int { isSet.count }

    /// Unsets every slot, keeping the storage.
    func removeAll() {
        var i = 0
        while i < isSet.count {
            if isSet[i] { (storage + i).deinitialize(count: 1) }
            i += 1
        }
        isSet.removeAll(keepingCapacity: true)
    }

    /// Stores `r` in slot `i`, unsetting none of the others; slots between
    /// the last one in use and `i` are added unset.
    func set(_ r: Compositor.ResolvedLayer, at i: Int) {
        precondition(i >= 0, "ResolvedUnits.set: negative slot")
        if i >= capacity { grow(toHold: i + 1) }
        while isSet.count <= i { isSet.append(false) }
        if isSet[i] {
            (storage + i).pointee = r
        } else {
            (storage + i).initialize(to: r)
            isSet[i] = true
        }
    }

    /// Slot `i`'s value in place, or `nil` when it is unset or out of range.
    /// Valid until the next `set` or `removeAll`.
    func pointer(at i: Int) -> UnsafeMutablePointer<Compositor.ResolvedLayer>? {
        i >= 0 && i < isSet.count && isSet[i] ? storage + i : nil
    }

    private func grow(toHold n: Int) {
        let newCapacity = Swift.max(n, capacity * 2, 16)
        let fresh = UnsafeMutablePointer<Compositor.ResolvedLayer>.allocate(capacity: newCapacity)
        var i = 0
        while i < isSet.count {
            if isSet[i] { (fresh + i).moveInitialize(from: storage + i, count: 1) }
            i += 1
        }
        storage.deallocate()
        storage = fresh
        capacity = newCapacity
    }
}
