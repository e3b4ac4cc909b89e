import Raster
import Synchronization

/// Hands out `LayerContents.serial` values: unique for the process's life,
/// so a new contents object at a freed one's address is still new.
private let contentsSerials = Atomic<UInt64>(0)

/// A layer's contents image (CALayer's `contents`, a CGImage there): a
/// premultiplied ARGB8888 surface and whether every pixel of it is opaque.
///
/// Ownership: the surface is shared, not copied. Change its pixels only
/// between frames, and call `contentsDidChange()` after: the compositor
/// redraws a layer only when something it knows of changed (damage
/// tracking), reads the pixels while it renders, and keeps the mip chain
/// of trilinear draws (built at the first one) until told they changed.
public final class LayerContents {
    public let image: Surface<ARGB8888>
    /// Declares every pixel's alpha 255, so an untransformed draw can copy
    /// instead of blend. A wrong `true` shows garbage behind translucent
    /// pixels, as CA's `isOpaque` does.
    public let isOpaque: Bool
    /// The mip chain of `image` for trilinear minification; built by the
    /// first trilinear draw, dropped by `contentsDidChange()`.
    private var mipMaps: MipMaps?

    /// The cached mip chain, built now if there is none. Painters on
    /// several threads may ask at once (`Compositor.paintThreads`): one
    /// lock for all contents, held while a chain is built (once per image).
    var mipMapsForDrawing: MipMaps {
        LayerContents.mipMapLock.withLock {
            if let m = mipMaps { return m }
            let m = MipMaps(image.view)
            mipMaps = m
            return m
        }
    }
    private static let mipMapLock = Lock()

    /// Identifies this object and the version of its pixels: new for every
    /// `LayerContents` and after each `contentsDidChange()`, never reused.
    public private(set) var serial: UInt64

    public init(_ image: Surface<ARGB8888>, isOpaque: Bool = false) {
        self.image = image
        self.isOpaque = isOpaque
        serial = contentsSerials.add(1, ordering: .relaxed).newValue
    }

    /// The last serial handed out: it moves whenever any contents object
    /// is made or `contentsDidChange()` is called, which the compositor
    /// takes as "some image may have changed" (no subtree is replayed
    /// from the last frame's survey then).
    static var latestSerial: UInt64 { contentsSerials.load(ordering: .relaxed) }

    /// Tells the compositor that the image's pixels changed: every layer
    /// showing it is redrawn next frame, and the mip chain is rebuilt at
    /// the next trilinear draw.
    public func contentsDidChange() {
        serial = contentsSerials.add(1, ordering: .relaxed).newValue
        mipMaps = nil
    }

    /// Size in pixels.
    public var width: Int { image.width }
    public var height: Int { image.height }
}

/// Where the contents image goes in the bounds, and whether it is scaled
/// (CALayer's `contentsGravity`).
///
/// **Edge names.** Core Animation names the edges in its unflipped, y-up
/// geometry: `kCAGravityTop` is the maxY edge. On iOS, whose layers are
/// y-down, the literal constant therefore puts the image at the *bottom* of
/// the screen (a well-known surprise). FBRuntime's spaces are y-down and we
/// name edges by where they appear on screen for a layer that is not
/// transformed: `.top` is the minY edge, the top of the screen — the same
/// picture as `kCAGravityTop` on macOS. `isGeometryFlipped` does not change
/// it (the layer's own contents are never drawn flipped).
///
/// The non-scaling gravities place the image at its natural size:
/// `width / contentsScale` by `height / contentsScale` points (the
/// `contentsRect` part of it), which may overhang the bounds (not clipped
/// unless `masksToBounds`).
public enum ContentsGravity: Sendable {
    case center, top, bottom, left, right
    case topLeft, topRight, bottomLeft, bottomRight
    /// Stretched to fill the bounds (CA's default).
    case resize
    /// Scaled uniformly to fit inside the bounds, centred.
    case resizeAspect
    /// Scaled uniformly to cover the bounds, centred (overhangs them).
    case resizeAspectFill
    /// Repeated at its natural size (`contentsRect`'s part, `contentsScale`
    /// texels a point) from the bounds' top-left corner, filling the bounds
    /// and cut at their right and bottom edges: a wallpaper or pattern from
    /// one small image, without a layer per tile. Not in Core Animation
    /// (UIKit's pattern colours do this). On whole pixels at 1:1 each tile
    /// is a row copy; otherwise each tile is resampled like any contents.
    case tile
}

/// How contents are resampled when scaled (`kCAFilterNearest`,
/// `kCAFilterLinear`, `kCAFilterTrilinear`).
public enum ContentsFilter: Sendable {
    case nearest
    case linear
    /// Mip-mapped; only differs from `linear` when minifying.
    case trilinear

    var imageFilter: ImageFilter {
        switch self {
        case .nearest: return .nearest
        case .linear: return .bilinear
        case .trilinear: return .trilinear
        }
    }
}

/// Which corners `cornerRadius` rounds (CACornerMask). In FBRuntime's y-down
/// spaces minY is the top edge, so `minXMinY` is the top-left corner on
/// screen — the same corner as `layerMinXMinYCorner` on iOS.
public struct CornerMask: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let minXMinY = CornerMask(rawValue: 1)
    public static let maxXMinY = CornerMask(rawValue: 2)
    public static let minXMaxY = CornerMask(rawValue: 4)
    public static let maxXMaxY = CornerMask(rawValue: 8)
    public static let all: CornerMask = [.minXMinY, .maxXMinY, .minXMaxY, .maxXMaxY]
}

/// Which edges of a layer are anti-aliased (CAEdgeAntialiasingMask). The
/// raw values are CA's; in FBRuntime's y-down spaces the top edge is the
/// bounds' minY edge.
public struct EdgeAntialiasingMask: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The minX edge.
    public static let left = EdgeAntialiasingMask(rawValue: 1)
    /// The maxX edge.
    public static let right = EdgeAntialiasingMask(rawValue: 2)
    /// The maxY edge.
    public static let bottom = EdgeAntialiasingMask(rawValue: 4)
    /// The minY edge.
    public static let top = EdgeAntialiasingMask(rawValue: 8)
    public static let all: EdgeAntialiasingMask = [.left, .right, .bottom, .top]
}
