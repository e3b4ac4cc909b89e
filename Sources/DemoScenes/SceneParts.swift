import FBRuntime
import Raster

/// Small builders the lock, coverflow, cube and fireworks scenes share:
/// frames, labels and a soft round particle image.
enum SceneParts {
    /// A plain layer with `frame` (in its superlayer's space, points).
    static func layer(_ name: String, frame: Rect, color: Color? = nil, corner: Double = 0) -> Layer {
        let l = Layer(name: name)
        place(l, frame: frame)
        l.backgroundColor = color
        l.cornerRadius = corner
        return l
    }

    /// Sets `layer`'s bounds and position so it covers `frame` (anchor in
    /// the centre).
    static func place(_ layer: Layer, frame: Rect) {
        layer.bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        layer.position = Point(x: frame.minX + frame.width / 2, y: frame.minY + frame.height / 2)
    }

    /// A one-line label centred in `frame`; nil without a font (the scenes
    /// then show no text, as in the VM guests, which carry no fonts).
    static func label(_ text: String, font: Font?, size: Double, color: Color, frame: Rect,
                      alignment: TextAlignment = .center) -> TextLayer? {
        guard let font else { return nil }
        let t = TextLayer(name: "label")
        t.font = font
        t.string = text
        t.fontSize = size
        t.foregroundColor = color
        t.alignmentMode = alignment
        place(t, frame: frame)
        return t
    }

    /// A `side` × `side` white disc whose alpha falls off smoothly from the
    /// centre (premultiplied ARGB), for particles: tinted by the cell's
    /// colour when drawn.
    static func softDot(side: Int) -> LayerContents {
        let n = Swift.max(side, 2)
        let s = Surface<ARGB8888>(width: n, height: n)!
        let c = Double(n - 1) / 2
        for y in 0..<n {
            let row = s.view.row(y)
            for x in 0..<n {
                let dx = (Double(x) - c) / (c + 0.5), dy = (Double(y) - c) / (c + 0.5)
                let d = Swift.min(1, (dx * dx + dy * dy).squareRoot())
                let a = (1 - d) * (1 - d)
                let v = UInt32((a * 255).rounded())
                row[x] = v << 24 | v << 16 | v << 8 | v
            }
        }
        return LayerContents(s)
    }
}

extension Rect {
    /// The rectangle `dx`, `dy` points smaller on each side.
    func insetBy(_ dx: Double, _ dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: Swift.max(0, width - 2 * dx), height: Swift.max(0, height - 2 * dy))
    }
}
