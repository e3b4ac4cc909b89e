import Controls
import FBRuntime
import Raster

/// Issue 21's list bench: a `ListView` of 10,000 rows filling the
/// 1920×1080 frame, flung at full speed over and over through a real
/// `TouchRouter`: a 0.1 s drag of 150 points a frame (9,000 points/s),
/// released, and 0.4 s later the next (the finger catching the motion),
/// turning round at the ends. Each frame is the app
/// side's step (`TouchRouter.advance`: the cells reused for the offset on
/// screen) and the compositor drawing the model tree at the frame's time
/// (the motion itself is the render side's keyframes).
final class ListFlingScene {
    static let rows = 10_000
    static let rowHeight = 54.0
    let root = Layer(name: "root")
    let list = ListView()
    let router: TouchRouter
    private var dragFrame = -1   // frames into the current drag, -1: none
    private var upward = true
    private var releaseTime: MediaTime = 0
    private var finger = Point.zero
    private let font: Font?

    init(at time: MediaTime) {
        font = try? Font(path: ContentScenes.fontPath)
        root.bounds = Rect(x: 0, y: 0, width: 1920, height: 1080)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x101418)
        list.bounds = Rect(x: 0, y: 0, width: 1920, height: 1080)
        list.backgroundColor = Color(rgb: 0x1C2026)
        list.rowHeight = ListFlingScene.rowHeight
        list.numberOfRows = { _, _ in ListFlingScene.rows }
        let font = self.font
        list.makeCell = { _, header in
            let cell = ListCell(header: header)
            let label = TextLayer(name: "label")
            label.font = font
            label.fontSize = 22
            label.foregroundColor = Color(rgb: 0xE8EEF7)
            label.anchorPoint = .zero
            label.frame = Rect(x: 24, y: 14, width: 600, height: 28)
            try? cell.contentLayer.addSublayer(label)
            let line = Layer(name: "separator")
            line.anchorPoint = .zero
            line.frame = Rect(x: 24, y: ListFlingScene.rowHeight - 1, width: 1896, height: 1)
            line.backgroundColor = Color(rgb: 0x30343A)
            try? cell.contentLayer.addSublayer(line)
            return cell
        }
        // Small strings (up to 15 UTF-8 bytes) are stored inline: "Row 9999"
        // allocates nothing; the text layer re-lays out its glyphs on draw.
        list.configureCell = { _, cell, indexPath in
            (cell.contentLayer.sublayers.first as? TextLayer)?.string = "Row \(indexPath.row)"
        }
        try! root.addSublayer(list)
        list.reloadData()
        router = TouchRouter(root: root)
        list.attach(to: router)
    }

    /// Layers in the list: its cells, the spinner and the indicators.
    var layerCount: Int { list.sublayers.count }

    /// The app side of one frame at `time`: the next touch of the fling
    /// gesture, if one is under way or due, then the recognisers' time.
    /// True when the frame had a touch event.
    @discardableResult
    func step(at time: MediaTime) -> Bool {
        let touched = dragFrame >= 0 || !list.isDecelerating || time - releaseTime >= 0.4
        if dragFrame < 0 && (!list.isDecelerating || time - releaseTime >= 0.4) {
            let y = list.contentOffset.y
            if y <= list.minimumContentOffset.y + 1 { upward = true }
            if y >= list.maximumContentOffset.y - 1 { upward = false }
            finger = Point(x: 960, y: upward ? 900 : 180)
            router.handle(TouchEvent(id: 1, phase: .began, location: finger, timestamp: time))
            dragFrame = 0
        } else if dragFrame >= 0 {
            dragFrame += 1
            if dragFrame <= 5 {
                finger.y += upward ? -150 : 150
                router.handle(TouchEvent(id: 1, phase: .moved, location: finger, timestamp: time))
            } else {
                router.handle(TouchEvent(id: 1, phase: .ended, location: finger, timestamp: time))
                dragFrame = -1
                releaseTime = time
            }
        }
        router.advance(to: time)
        return touched
    }
}
