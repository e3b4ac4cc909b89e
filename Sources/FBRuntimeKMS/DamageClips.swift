import CDRM
import FBRuntime
import Raster

/// The damage rectangles of one commit as the kernel's `drm_mode_rect`s
/// (the FB_DAMAGE_CLIPS blob's payload), in fixed storage allocated once:
/// filling it per frame allocates nothing.
///
/// Coordinates are framebuffer pixels, as FB_DAMAGE_CLIPS wants them:
/// `x1, y1` inclusive, `x2, y2` exclusive. Every rectangle added is clipped
/// to the framebuffer (`bounds`); empty ones are dropped. When the storage
/// is full, a further rectangle is merged into the last one (their
/// bounding box), so the clips always cover at least what was added — a
/// clip may over-report damage, never under-report it.
///
/// Threading: one thread (the presenter's).
public final class DamageClips {
    /// Most rectangles kept apart: a DamageList's (`maximumCount`), the
    /// buffer's stale area, and room to spare.
    public static let capacity = DamageList.maximumCount + 8
    /// The framebuffer, in pixels: rectangles are clipped to it.
    public let bounds: IntRect
    public private(set) var count = 0
    private let storage: UnsafeMutablePointer<drm_mode_rect>

    /// - Parameter width, height: the framebuffer's size in pixels (clamped
    ///   to 0…Int32.max).
    public init(width: Int, height: Int) {
        bounds = IntRect(x: 0, y: 0, width: min(max(0, width), Int(Int32.max)), height: min(max(0, height), Int(Int32.max)))
        storage = UnsafeMutablePointer<drm_mode_rect>.allocate(capacity: DamageClips.capacity)
        storage.initialize(repeating: drm_mode_rect(), count: DamageClips.capacity)
    }

    deinit { storage.deallocate() }

    public var isEmpty: Bool { count == 0 }

    public func removeAll() { count = 0 }

    /// Adds `rect` (framebuffer pixels), clipped to `bounds`.
    public func add(_ rect: IntRect) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        if count == DamageClips.capacity {
            let last = self[count - 1].union(r)
            storage[count - 1] = DamageClips.kernelRect(last)
        } else {
            storage[count] = DamageClips.kernelRect(r)
            count += 1
        }
    }

    /// Rectangle `i` as an IntRect (x, y, width, height).
    public subscript(i: Int) -> IntRect {
        precondition(i >= 0 && i < count, "DamageClips: index out of range")
        let k = storage[i]
        return IntRect(x: Int(k.x1), y: Int(k.y1), width: Int(k.x2) - Int(k.x1), height: Int(k.y2) - Int(k.y1))
    }

    /// The smallest rectangle holding every clip (`.zero` if none).
    public var boundingBox: IntRect {
        var box = IntRect.zero
        var i = 0
        while i < count { box = box.union(self[i]); i += 1 }
        return box
    }

    /// The pixels the clips name, overlaps counted once per clip: what a
    /// driver that transfers each clip moves at most.
    /// - Complexity: O(`count`).
    public var totalArea: Int {
        var sum = 0
        var i = 0
        while i < count { sum += self[i].area; i += 1 }
        return sum
    }

    /// The `drm_mode_rect`s, valid until the next change.
    public var kernelRects: UnsafeBufferPointer<drm_mode_rect> { UnsafeBufferPointer(start: storage, count: count) }

    private static func kernelRect(_ r: IntRect) -> drm_mode_rect {
        drm_mode_rect(x1: Int32(r.x), y1: Int32(r.y), x2: Int32(r.x + r.width), y2: Int32(r.y + r.height))
    }
}
