import AppShell
import DemoScenes
import FBRuntime

/// Sizes scale with the screen: one unit is 1/480 of its smaller side, at
/// most 2 (a 1080p panel gets text twice the size of a 640×480 one's).
private func unit(_ width: Double, _ height: Double) -> Double {
    Swift.min(Swift.max(Swift.min(width, height), 1) / 480, 2)
}

/// A line of text at `frame` (its superlayer's space, points).
private func label(_ text: String, size: Double, rgb: UInt32, frame: Rect, alignment: TextAlignment = .left) -> TextLayer {
    let label = TextLayer(name: "label")
    label.string = text
    label.fontSize = size
    label.foregroundColor = Color(rgb: rgb)
    label.alignmentMode = alignment
    label.frame = frame
    return label
}

/// The first screen without `--scene`: a title and the demos of
/// `DemoCatalog`, one row each (its name and the line saying what it
/// shows), filling the screen's height; a tap on a row opens its demo.
final class Chooser {
    let layer = Layer(name: "chooser")
    private var rows: [(name: String, layer: Layer)] = []

    init(width w: Double, height h: Double) {
        let u = unit(w, h)
        layer.frame = Rect(x: 0, y: 0, width: w, height: h)
        layer.backgroundColor = Color(rgb: 0x141A24)
        let margin = (16 * u).rounded(), header = (52 * u).rounded()
        try? layer.addSublayer(label("FBRuntime demos", size: 22 * u, rgb: 0xE8EEF7,
                                     frame: Rect(x: margin, y: (header - 24 * u) / 2, width: w - 2 * margin, height: 28 * u)))
        let entries = DemoCatalog.entries
        let rowHeight = ((h - header - margin / 2) / Double(entries.count)).rounded(.down)
        let nameWidth = (120 * u).rounded()
        for (i, entry) in entries.enumerated() {
            let row = Layer(name: "row " + entry.name)
            row.frame = Rect(x: 0, y: header + Double(i) * rowHeight, width: w, height: rowHeight)
            row.backgroundColor = Color(rgb: i % 2 == 0 ? 0x1B2433 : 0x172030)
            let nameSize = 17 * u, summarySize = 13 * u
            try? row.addSublayer(label(entry.name, size: nameSize, rgb: 0xF2A541,
                                       frame: Rect(x: margin, y: (rowHeight - nameSize * 1.1) / 2,
                                                   width: nameWidth, height: nameSize * 1.4)))
            try? row.addSublayer(label(entry.summary, size: summarySize, rgb: 0xB8C4D6,
                                       frame: Rect(x: margin + nameWidth, y: (rowHeight - summarySize * 1.1) / 2,
                                                   width: w - 2 * margin - nameWidth - 16 * u, height: summarySize * 1.4)))
            try? row.addSublayer(label("›", size: nameSize, rgb: 0x6B7A90,
                                       frame: Rect(x: w - margin - 12 * u, y: (rowHeight - nameSize * 1.1) / 2,
                                                   width: 12 * u, height: nameSize * 1.4), alignment: .right))
            try? layer.addSublayer(row)
            rows.append((entry.name, row))
        }
    }

    /// Calls `open` with a demo's name when its row is tapped.
    func onOpen(on screen: Screen, _ open: @escaping (String) -> Void) {
        for (name, row) in rows { screen.onTap(row, name: "open " + name) { open(name) } }
    }
}

/// The "‹ Demos" button an open demo shows in a top corner (the scene's
/// `hostButtonCorner`), above the scene (but under the HUD).
enum BackButton {
    static func make(width: Double, height: Double) -> Layer {
        let u = unit(width, height)
        let button = Layer(name: "back")
        let w = (96 * u).rounded(), h = (32 * u).rounded()
        button.frame = Rect(x: (8 * u).rounded(), y: (8 * u).rounded(), width: w, height: h)
        button.cornerRadius = h / 2
        button.backgroundColor = Color(rgb: 0x000000, alpha: 0.6)
        button.zPosition = 900
        try? button.addSublayer(label("‹ Demos", size: 15 * u, rgb: 0xE8EEF7,
                                      frame: Rect(x: 0, y: (h - 16.5 * u) / 2, width: w, height: 21 * u), alignment: .center))
        return button
    }

    /// Puts `button` in `corner` of a `width` × `height` screen, 8 units
    /// from its edges (screen points).
    static func place(_ button: Layer, in corner: DemoCorner, width: Double, height: Double) {
        let u = unit(width, height), inset = (8 * u).rounded()
        let x = corner == .topLeft ? inset : width - inset - button.bounds.width
        let frame = Rect(x: x, y: inset, width: button.bounds.width, height: button.bounds.height)
        if button.frame != frame { button.frame = frame }
    }
}
