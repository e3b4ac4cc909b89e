import Raster

/// Debug overlays the compositor paints over what it draws, switchable at
/// run time (`Compositor.debugOverlays`), the analog of Core Animation's
/// `CA_COLOR_OPAQUE` and Instruments' colour options. Programs read them
/// from the environment (`FBR_DEBUG=blended,offscreen,misaligned`, see
/// `parse(_:)`); the core library itself never reads the environment.
///
/// Each overlay tints the pixels a draw touched, with the draw's own
/// coverage (an image's alpha, a shape's anti-aliased edge), at 50%
/// (source-over), so the scene stays recognisable. Tints are not counted in
/// `FrameStatistics`. Overlaid frames are for looking at, not for speed:
/// a tinted draw is drawn twice.
public struct DebugOverlays: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Blended layers: each draw onto the frame (not into an offscreen
    /// surface; the pass's result counts as one draw) is tinted green when
    /// it replaced the destination (opaque source, full alpha, a copy or
    /// source-over) and red when it blended with it (translucency,
    /// anti-aliased or rounded edges, masks, operators).
    public static let blended = DebugOverlays(rawValue: 1 << 0)
    /// Offscreen passes: the result of each pass is tinted yellow where it
    /// is composited, a darker yellow for each pass nested inside another:
    /// group opacity, a mask layer and a shadow cast by the layer image (all
    /// three the group's pass: its composite is tinted, the shadow is not),
    /// rounded or transformed clips, nine-part images under a transform.
    public static let offscreen = DebugOverlays(rawValue: 1 << 1)
    /// Misaligned images: layer contents drawn at their own size but off the
    /// pixel grid (a fractional position, a rotation) are tinted magenta;
    /// contents drawn scaled, yellow. Contents on whole pixels at 1:1 are
    /// left alone. Nine-part contents (`contentsCenter`) are not judged
    /// (they are stretched by design).
    public static let misaligned = DebugOverlays(rawValue: 1 << 2)
    /// Flash redrawn regions: each damage rectangle the frame redrew is
    /// tinted yellow for that frame (and redrawn untinted the next, unless
    /// it changes again), so what stays still shows no tint.
    public static let redrawn = DebugOverlays(rawValue: 1 << 3)

    /// The names `parse` accepts, with their options.
    public static let names: [(name: String, overlays: DebugOverlays)] = [
        ("blended", .blended), ("offscreen", .offscreen), ("misaligned", .misaligned), ("redrawn", .redrawn),
        ("all", [.blended, .offscreen, .misaligned, .redrawn]),
    ]

    /// Parses a list of overlay names separated by commas, spaces or
    /// colons (`"blended,offscreen"`), case-sensitive; `unknown` lists the
    /// names that are not overlays (ignored).
    public static func parse(_ text: String) -> (overlays: DebugOverlays, unknown: [String]) {
        var overlays: DebugOverlays = []
        var unknown: [String] = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == ":" }) {
            let name = String(part)
            if let match = names.first(where: { $0.name == name }) {
                overlays.formUnion(match.overlays)
            } else {
                unknown.append(name)
            }
        }
        return (overlays, unknown)
    }
}

/// The tints, premultiplied, 50% alpha.
enum OverlayTint {
    static let opaque = Color(red: 0, green: 1, blue: 0, alpha: 0.5).premultiplied
    static let blended = Color(red: 1, green: 0, blue: 0, alpha: 0.5).premultiplied
    static let misaligned = Color(red: 1, green: 0, blue: 1, alpha: 0.5).premultiplied
    static let scaled = Color(red: 1, green: 1, blue: 0, alpha: 0.5).premultiplied

    /// Yellow for a pass at nesting `depth` (1 = directly onto the frame or
    /// a surface that is not itself a pass): each level is 30% darker.
    static func offscreen(depth: Int) -> PremultipliedColor {
        var k = 1.0
        var d = 1
        while d < depth && d < 8 { k *= 0.7; d += 1 }
        return Color(red: k, green: 0.85 * k, blue: 0, alpha: 0.5).premultiplied
    }
}

/// What the overlays need to know while a frame is drawn.
struct DebugOverlayState {
    /// The frame's first pixel: draws onto the frame are told apart from
    /// draws into offscreen surfaces by it.
    var frameBase: UnsafeMutablePointer<UInt32>?
    /// Offscreen passes open around the current draw.
    var offscreenDepth = 0
}

/// `base`'s coverage in one colour: each pixel becomes `tint` scaled by
/// the pixel's alpha (how the overlays follow an image's shape).
struct TintPaint<Base: Paint>: Paint {
    let base: Base
    let tint: PremultipliedColor
    var isOpaque: Bool { false }
    var paintedBounds: IntRect? { base.paintedBounds }

    func shade(x: Int, y: Int, count: Int, into span: UnsafeMutablePointer<UInt32>, family: KernelFamily) {
        base.shade(x: x, y: y, count: count, into: span, family: family)
        var i = 0
        while i < count {
            span[i] = tint.scaled(by: UInt8(truncatingIfNeeded: span[i] &>> 24)).argb
            i &+= 1
        }
    }
}

extension Compositor {
    /// True when `canvas` draws onto the frame being rendered.
    func isFrame(_ canvas: Canvas) -> Bool {
        overlayState.frameBase == canvas.target.base
    }

    /// The blended-layers tint for a draw onto `canvas` that `blended` or not.
    func blendedTint(_ canvas: Canvas, blended: Bool) -> PremultipliedColor? {
        guard debugOverlays.contains(.blended), isFrame(canvas) else { return nil }
        return blended ? OverlayTint.blended : OverlayTint.opaque
    }

    /// The misaligned-images tint for contents drawn through `texelToTarget`
    /// (texels → target pixels), or `nil` when the image is on the grid.
    func misalignedTint(_ texelToTarget: ProjectiveTransform) -> PremultipliedColor? {
        guard debugOverlays.contains(.misaligned) else { return nil }
        let m = texelToTarget
        guard m.isAffine else { return OverlayTint.scaled }      // perspective scales across the image
        func near(_ a: Double, _ b: Double) -> Bool { Swift.abs(a - b) <= 1e-6 }
        // One texel must be one pixel: unit columns (a rotation is not a scale).
        let sx = (m.m00 * m.m00 + m.m10 * m.m10).squareRoot(), sy = (m.m01 * m.m01 + m.m11 * m.m11).squareRoot()
        if !near(sx, 1) || !near(sy, 1) { return OverlayTint.scaled }
        let onGrid = m.m01 == 0 && m.m10 == 0 && near(m.m02, m.m02.rounded()) && near(m.m12, m.m12.rounded())
        return onGrid ? nil : OverlayTint.misaligned
    }

    /// Paints `tint` over the draw `paint` made on `rect` of `canvas`.
    func tint<P: Paint>(_ rect: IntRect, paint: P, with tint: PremultipliedColor, alpha: UInt8, canvas: Canvas) {
        canvas.fill(rect, paint: TintPaint(base: paint, tint: tint), operator: .srcOver, alpha: alpha)
    }

    /// Paints `tint` over the composite of `image` (through `mask`) at
    /// (`x`, `y`).
    func tintComposite(_ image: PixelView<ARGB8888>, x: Int, y: Int, mask: PixelView<A8>?, tint: PremultipliedColor,
                       alpha: UInt8, canvas: Canvas) {
        let rect = IntRect(x: x, y: y, width: image.width, height: image.height)
        if let mask {
            canvas.fill(mask: mask, x: x, y: y, color: tint, alpha: alpha)
        } else {
            let placed = ImagePaint(image: image, transform: AffineTransform(translationX: Double(x), y: Double(y)),
                                    filter: .nearest, edge: .transparent)
            canvas.fill(rect, paint: TintPaint(base: placed, tint: tint), operator: .srcOver, alpha: alpha)
        }
    }

    /// The offscreen tint of a pass's result composited onto `canvas`.
    func offscreenTint(_ image: PixelView<ARGB8888>, x: Int, y: Int, mask: PixelView<A8>?, alpha: UInt8, canvas: Canvas) {
        guard debugOverlays.contains(.offscreen) else { return }
        tintComposite(image, x: x, y: y, mask: mask, tint: OverlayTint.offscreen(depth: overlayState.offscreenDepth),
                      alpha: alpha, canvas: canvas)
    }
}
