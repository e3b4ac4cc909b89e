import Raster

/// How a transition brings in the new image of a layer (CATransition's
/// `type`).
public enum TransitionType: Equatable, Sendable {
    /// Cross-fade: `before · (1 − p) + after · p`, per premultiplied channel.
    case fade
    /// The new image slides in over the old one, which stays put.
    case moveIn
    /// The new image pushes the old one out: both move together.
    case push
    /// The old image slides out, uncovering the new one, which stays put.
    case reveal
}

/// The direction of a transition's motion (CATransition's `subtype`):
/// `fromLeft` moves from the left edge towards the right (the incoming image
/// enters at the left; the outgoing one leaves at the right), and so on.
/// Directions are in the layer's own bounds space (y down), so they turn and
/// scale with the layer. `fade` ignores it.
public enum TransitionSubtype: Equatable, Sendable {
    case fromLeft, fromRight, fromTop, fromBottom

    /// The unit motion in bounds space (y down).
    var direction: (x: Int, y: Int) {
        switch self {
        case .fromLeft: return (1, 0)
        case .fromRight: return (-1, 0)
        case .fromTop: return (0, 1)
        case .fromBottom: return (0, -1)
        }
    }
}

/// The image of a layer's subtree as it was on screen when a transition was
/// added: rendered once, in the layer's own bounds space, and kept by the
/// transition (it is never re-rendered while the transition runs).
///
/// Texel (0, 0) is the bounds' origin; one texel is `1 / density` points.
/// `surface` is `nil` when the layer showed nothing (hidden, empty bounds).
/// Immutable once made; shared by copies of the transition (the render
/// thread only reads it), hence `@unchecked Sendable`.
public final class TransitionImage: @unchecked Sendable {
    public let surface: Surface<ARGB8888>?
    /// Texels per point.
    public let density: Double
    /// A unique number per image (damage tracking tells images apart by it).
    public let serial: UInt64

    init(surface: Surface<ARGB8888>?, density: Double) {
        self.surface = surface
        self.density = density
        TransitionImage.nextSerial &+= 1
        serial = TransitionImage.nextSerial
    }

    /// Only the app thread makes images (see `Layer.add`).
    nonisolated(unsafe) private static var nextSerial: UInt64 = 0
}

/// Animates a change of a layer's subtree from the image it showed before
/// to what it shows now (CATransition).
///
/// **Semantics.** Adding a transition to a layer (typically in the same
/// transaction that changes its subtree: contents, sublayers, hidden, any
/// property of a sublayer) renders the layer's *before image* at that
/// moment — the layer image (background, contents, sublayers, border; not
/// its own shadow, mask or opacity) in its own bounds space at
/// `contentsScale` pixels per point. While the transition runs, the
/// compositor draws, instead of the layer image, the before image and the
/// live layer image (rendered offscreen each frame at the same density)
/// combined by `type` at the eased progress, clipped to the layer's bounds,
/// through the layer's map, faded by its opacity. When it ends the live
/// layer shows alone. A hidden layer with a running transition is drawn
/// (its after image is empty): hiding fades the layer out.
///
/// Because FBRuntime has no render tree yet that still holds the previous
/// commit, "before" means *when `add` is called*: changes made earlier in
/// the same transaction are already in the before image, so add the
/// transition first, then change the subtree. A second transition added
/// under the same key in the same, still uncommitted transaction keeps the
/// first one's before image (the default fades of `contents` and
/// `isHidden` rely on it). See `Layer.add(_:forKey:at:)`.
///
/// **Motion.** For `moveIn`, `push` and `reveal` the images move by
/// `progress ×` the layer's width (or height, for vertical subtypes), in
/// whole pixels of the image (so both stay sharp; at 60 Hz a step is at
/// most half a pixel late). Add it under `Transition.key` ("transition",
/// CA's `kCATransition`).
///
/// **Bad input.** Timing is `MediaTiming`'s, with its clamps (a NaN or
/// non-positive duration takes the default 0.25 s); `startProgress` and
/// `endProgress` are clamped to 0…1 (NaN → 0 and 1); the before image is
/// limited to `maximumImageSide` texels a side (the density is lowered).
public struct Transition: MediaTimed, Sendable {
    public var type: TransitionType
    public var subtype: TransitionSubtype
    public var timing = MediaTiming()
    public var timingFunction: TimingFunction = .linear
    /// Where in the transition the animation starts and ends, 0…1 (CA's
    /// `startProgress` and `endProgress`).
    public var startProgress = 0.0
    public var endProgress = 1.0
    public var isRemovedOnCompletion = true
    /// Told on the app thread when the transition starts and stops.
    public var delegate: (any AnimationDelegate)? {
        get { delegateReference?.object }
        set { delegateReference = newValue.map(AnimationDelegateReference.init) }
    }
    var delegateReference: AnimationDelegateReference?
    /// Set when the transition is added (`Layer.add`); an image given here
    /// is used as it is.
    public var beforeImage: TransitionImage?

    /// CA's key for transitions (`kCATransition`).
    public static let key = "transition"
    /// Largest side of a before image, texels.
    public static let maximumImageSide = 4096

    public init(type: TransitionType = .fade, subtype: TransitionSubtype = .fromLeft, duration: Double = 0.25) {
        self.type = type
        self.subtype = subtype
        timing.duration = duration
    }


    /// The eased progress 0…1 at the parent's time `t` (the layer's local
    /// time), or `nil` when the transition has no effect then.
    public func progress(at t: MediaTime) -> Double? {
        guard let state = timing.state(atParentTime: t, default: BasicAnimation.defaultDuration) else { return nil }
        let a = clampUnit(startProgress), b = endProgress.isNaN ? 1 : clampUnit(endProgress)
        let eased = timingFunction.value(at: state.progress)
        return clampUnit(a + (b - a) * (eased.isFinite ? eased : 0))
    }
}

extension Transition {
    /// Before images rendered so far in this process (each transition added
    /// renders one, once; see `Layer.add`). App thread only. For tests and
    /// tools.
    nonisolated(unsafe) public static var imagesRendered = 0
}
