import Raster

/// How the UI is turned on the panel: clockwise, in quarter turns. With 90
/// the UI's top edge lies along the panel's right edge (a landscape panel
/// shows a portrait UI).
public enum DisplayRotation: Int, Equatable, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// The rotation for `degrees` (the board file's `rotation`): 0, 90, 180
    /// or 270, else (any other value, negative ones included) the nearest
    /// quarter turn modulo 360 — never a crash.
    public init(degrees: Int) {
        let quarter = ((degrees % 360 + 360) % 360 + 45) / 90 % 4
        self = [.none, .clockwise90, .clockwise180, .clockwise270][quarter]
    }
}

/// The one orientation transform shared by the screen and touch, so a
/// finger lands on what is drawn under it in every rotation.
///
/// Three coordinate spaces:
/// - **panel**: the display mode's pixels as scanned out, origin at the
///   panel's own top-left, `panelWidth` × `panelHeight`. libinput's
///   `get_x_transformed`/`get_y_transformed` (scaled to the mode size) are
///   in this space, before calibration.
/// - **normalised device** coordinates: panel divided by its size, 0…1 —
///   where libinput's calibration matrix acts.
/// - **UI**: what the layer tree is laid out in, points, origin at the
///   top-left as the user sees it, `uiSize` (the panel turned by
///   `rotation`, divided by `scale`).
///
/// The display side (software rotation of the output, the render-loop
/// issue) uses `uiToPanel`; touch uses `touchToUI`, which applies the
/// calibration and then the inverse of the same rotation.
///
/// Bad input never traps: a panel size that is not finite or below one
/// pixel counts as one pixel, a scale that is not finite and positive as
/// 1, a calibration with a non-finite entry as the identity.
public struct DisplayOrientation: Equatable, Sendable {
    public let rotation: DisplayRotation
    /// libinput's calibration matrix `[a b c; d e f]`, row-major: a device
    /// point (x, y), normalised to 0…1, maps to (a·x + b·y + c, d·x + e·y + f).
    public let calibration: [Double]
    /// The mode size, pixels.
    public let panelWidth: Double
    public let panelHeight: Double
    /// Pixels per point.
    public let scale: Double
    /// The UI's size, points: the panel's, turned by `rotation`, over `scale`.
    public let uiSize: Size
    /// UI points → panel pixels: where the renderer puts a UI point.
    public let uiToPanel: AffineTransform
    /// Panel pixels → UI points (the inverse of `uiToPanel`), no calibration.
    public let panelToUI: AffineTransform
    /// libinput's transformed touch coordinates (panel pixels, before
    /// calibration) → UI points: calibration, then `panelToUI`.
    public let touchToUI: AffineTransform

    public init(rotation: DisplayRotation = .none, calibration: [Double] = [1, 0, 0, 0, 1, 0],
                panelWidth: Double, panelHeight: Double, scale: Double = 1) {
        let w = panelWidth.isFinite ? max(panelWidth, 1) : 1
        let h = panelHeight.isFinite ? max(panelHeight, 1) : 1
        let s = scale.isFinite && scale > 0 ? scale : 1
        let m = calibration.count == 6 && calibration.allSatisfy({ $0.isFinite }) ? calibration : [1, 0, 0, 0, 1, 0]
        self.rotation = rotation
        self.calibration = m
        self.panelWidth = w
        self.panelHeight = h
        self.scale = s

        // UI pixels → panel pixels, by rotation (W, H: the panel's size):
        //   0:   (u, v) → (u, v)
        //   90:  (u, v) → (W − v, u)       UI top-left → panel top-right
        //   180: (u, v) → (W − u, H − v)
        //   270: (u, v) → (v, H − u)       UI top-left → panel bottom-left
        // In AffineTransform's terms x' = a·u + c·v + tx, y' = b·u + d·v + ty.
        let rotate: AffineTransform
        switch rotation {
        case .none: rotate = .identity
        case .clockwise90: rotate = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: w, ty: 0)
        case .clockwise180: rotate = AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .clockwise270: rotate = AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: h)
        }
        let quarter = rotation == .clockwise90 || rotation == .clockwise270
        uiSize = Size(width: (quarter ? h : w) / s, height: (quarter ? w : h) / s)
        uiToPanel = AffineTransform(scaleX: s, y: s).concatenating(rotate)
        // The inverse of a quarter turn and a scale: exact, never singular.
        let unrotate: AffineTransform
        switch rotation {
        case .none: unrotate = .identity
        case .clockwise90: unrotate = AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        case .clockwise180: unrotate = AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .clockwise270: unrotate = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        }
        panelToUI = unrotate.concatenating(AffineTransform(scaleX: 1 / s, y: 1 / s))
        // Calibration in normalised coordinates, conjugated into pixels:
        // pixels → 0…1, the matrix, 0…1 → pixels.
        let calibrate = AffineTransform(scaleX: 1 / w, y: 1 / h)
            .concatenating(AffineTransform(a: m[0], b: m[3], c: m[1], d: m[4], tx: m[2], ty: m[5]))
            .concatenating(AffineTransform(scaleX: w, y: h))
        touchToUI = calibrate.concatenating(panelToUI)
    }

    /// The orientation a board file asks for, on a mode of the given size.
    public init(board: BoardConfig, panelWidth: Int, panelHeight: Int, scale: Double = 1) {
        self.init(rotation: DisplayRotation(degrees: board.rotation), calibration: board.calibration,
                  panelWidth: Double(panelWidth), panelHeight: Double(panelHeight), scale: scale)
    }

    /// Where a touch at libinput's transformed coordinates (`x`, `y`: panel
    /// pixels, uncalibrated) lands in the UI, points. Non-finite in, NaN
    /// out (the router drops such touches).
    public func uiPoint(touchX x: Double, touchY y: Double) -> Point {
        guard x.isFinite, y.isFinite else { return Point(x: .nan, y: .nan) }
        return Point(x: touchToUI.a * x + touchToUI.c * y + touchToUI.tx,
                     y: touchToUI.b * x + touchToUI.d * y + touchToUI.ty)
    }
}
