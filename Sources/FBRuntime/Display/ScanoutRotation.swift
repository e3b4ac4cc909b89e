import Raster

/// Software rotation of the output, applied by a presenter while it copies
/// a frame's damage to scan-out (`RotatedCopy`): the compositor renders the
/// UI upright at the frame size (the panel's width and height swapped for
/// 90/270), and each copy turns it onto the panel.
///
/// Coordinates: frame = UI pixels (`frameWidth` × `frameHeight`); panel =
/// the mode's pixels (`panelWidth` × `panelHeight`). The mapping is
/// `DisplayOrientation.uiToPanel` at scale 1, the one touch inverts.
public struct ScanoutRotation: Equatable, Sendable {
    public let rotation: DisplayRotation
    public let panelWidth: Int
    public let panelHeight: Int

    public init(_ rotation: DisplayRotation, panelWidth: Int, panelHeight: Int) {
        self.rotation = rotation
        self.panelWidth = max(panelWidth, 0)
        self.panelHeight = max(panelHeight, 0)
    }

    public var turn: QuarterTurn { QuarterTurn(rawValue: rotation.rawValue) ?? .none }

    /// The size the UI is rendered at, pixels.
    public var frameWidth: Int { turn.swapsAxes ? panelHeight : panelWidth }
    public var frameHeight: Int { turn.swapsAxes ? panelWidth : panelHeight }

    /// `rect` (frame pixels) on the panel: where the damage lands.
    public func panelRect(_ rect: IntRect) -> IntRect {
        RotatedCopy.destinationRect(rect, turn: turn, destinationWidth: panelWidth, destinationHeight: panelHeight)
    }

    /// Copies `area` of `frame` (frame pixels) turned into `panel`.
    public func copy(_ frame: PixelView<ARGB8888>, _ area: IntRect, into panel: PixelView<XRGB8888>) {
        RotatedCopy.copy(frame, into: panel, rect: area, turn: turn)
    }

    /// The same into RGB565, dithered at panel positions.
    public func copy(_ frame: PixelView<ARGB8888>, _ area: IntRect, into panel: PixelView<RGB565>) {
        RotatedCopy.copyDithered(frame, into: panel, rect: area, turn: turn)
    }
}
