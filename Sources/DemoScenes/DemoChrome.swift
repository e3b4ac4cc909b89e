import FBRuntime

/// What fbdemo and fbsim add on top of every demo scene, the same for all
/// of them: a small frame-time HUD in the top right corner (the last
/// frames' render time and frame rate as text, and a bar graph of the
/// render time of the last `sampleCount` samples), and a toggle — a tap on
/// the HUD — that cycles the compositor's debug overlays through
/// `overlayCycle` (off → blended → offscreen → misaligned → redrawn → off).
///
/// **When it is shown** (the programs' rule): on by default in interactive
/// runs; off with `--no-hud`, and off in every run whose pixels or timing
/// are checked (`--screendump`, touch scripts, `--expect-idle`,
/// `--check-pacing`, the drag checks…), so the goldens never contain it and
/// it never makes an idle scene render. `--hud` forces it on.
///
/// **Where the figures come from.** `refresh(with:at:)` takes a copy of the
/// render loop's statistics (`RenderLoop.statistics`, read on the app
/// thread) a few times per second and turns the change since the last
/// sample into a mean render time (compositor only) and a mean flip
/// interval. The render thread does nothing for the HUD: the counters it
/// keeps anyway are all it needs, so the HUD costs it nothing per frame
/// beyond drawing a few small layers (the text is re-laid-out only when it
/// changes, at most `1 / sampleInterval` times per second).
///
/// The overlays are the render loop's compositor's: the chrome does not
/// hold the loop, it calls `onOverlaysChange` (set it to
/// `RenderLoop.setDebugOverlays`, which hands the value to the render
/// thread between frames).
///
/// Threading: app thread (the thread that changes the model tree).
public final class DemoChrome {
    /// The HUD's own layer, the last sublayer of the scene's root (drawn
    /// above everything the scene has at install time). Points, in the
    /// root's space.
    public let layer = Layer(name: "hud")
    private let label = TextLayer(name: "hud-text")
    private let overlayLabel = TextLayer(name: "hud-overlays")
    private var bars: [Layer] = []
    /// Render time of each of the last samples, ns (a ring, `next` is the
    /// oldest).
    private var samples: [Int64]
    private var next = 0
    private var last: RenderLoopStatistics?
    private var lastTime: MediaTime = -.infinity
    /// True when the last sample changed the HUD (its commit renders one
    /// frame, which is not the scene's).
    private var changedLast = false
    private let tap = TapGestureRecognizer()

    /// Bars in the graph (one sample each).
    public static let sampleCount = 24
    /// Seconds between samples: the HUD changes at most this often.
    public static let sampleInterval: MediaTime = 0.25
    /// A full-height bar, ns of render time (two 60 Hz periods).
    public static let graphFullScaleNanoseconds: Int64 = 33_333_333

    /// The overlays in the order a tap cycles them.
    public static let overlayCycle: [(name: String, overlays: DebugOverlays)] = [
        ("off", []), ("blended", .blended), ("offscreen", .offscreen), ("misaligned", .misaligned), ("redrawn", .redrawn),
    ]

    /// The overlays the chrome asked for last (initially those given to
    /// `init`).
    public private(set) var overlays: DebugOverlays
    /// Called with the new overlays after each toggle.
    public var onOverlaysChange: ((DebugOverlays) -> Void)?
    /// The HUD's first line as shown: "render 4.2 ms · 60 fps", or
    /// "render – · idle" before any frame was timed.
    public private(set) var text = "render – · idle"
    /// The HUD's second line: "debug: off (tap)", "debug: blended (tap)"…
    public var overlayText: String { "debug: " + DemoChrome.name(of: overlays) + " (tap)" }
    /// Render time of the newest sample, ns (nil before the first).
    public private(set) var lastRenderNanoseconds: Int64?

    /// Adds the HUD to `root` (a scene's root, sized to the UI: the HUD
    /// goes in its top right corner, 150 × 46 points at a 272-point side,
    /// scaled with the smaller side up to twice that).
    /// `overlays`: the ones already on (e.g. from `FBR_DEBUG`).
    public init(root: Layer, overlays: DebugOverlays = [], font: Font? = try? Font(path: OrbitScene.fontPath)) {
        self.overlays = overlays
        samples = [Int64](repeating: 0, count: DemoChrome.sampleCount)
        let size = root.bounds.size
        // 1 point per 1/272 of the smaller side, at most 2 (a 1080p panel
        // gets a HUD twice the size of a 480×272 one's, not four times).
        let unit = Swift.min(max(Swift.min(size.width, size.height), 1) / 272, 2)
        let w = (150 * unit).rounded(), h = (46 * unit).rounded()
        Transaction.withoutActions {
            layer.bounds = Rect(x: 0, y: 0, width: w, height: h)
            layer.anchorPoint = Point(x: 1, y: 0)
            layer.position = Point(x: (root.bounds.maxX - 4 * unit).rounded(), y: (root.bounds.minY + 4 * unit).rounded())
            layer.backgroundColor = Color(rgb: 0x000000, alpha: 0.6)
            layer.cornerRadius = 4 * unit
            layer.zPosition = 1000
            for (text, y) in [(label, 3.0), (overlayLabel, 15.0)] {
                text.font = font
                text.fontSize = 9 * unit
                text.foregroundColor = Color(rgb: 0xE8EEF7)
                text.anchorPoint = .zero
                text.bounds = Rect(x: 0, y: 0, width: w - 8 * unit, height: 12 * unit)
                text.position = Point(x: 4 * unit, y: y * unit)
                try? layer.addSublayer(text)
            }
            overlayLabel.foregroundColor = Color(rgb: 0x9AA8BF)
            label.string = text
            overlayLabel.string = overlayText
            let barWidth = (w - 8 * unit) / Double(DemoChrome.sampleCount)
            for i in 0..<DemoChrome.sampleCount {
                let bar = Layer(name: "hud-bar")
                bar.anchorPoint = Point(x: 0, y: 1)
                bar.bounds = Rect(x: 0, y: 0, width: Swift.max(barWidth - unit, 1), height: 0)
                bar.position = Point(x: 4 * unit + Double(i) * barWidth, y: h - 3 * unit)
                bar.backgroundColor = Color(rgb: 0x3BB273)
                bars.append(bar)
                try? layer.addSublayer(bar)
            }
            try? root.addSublayer(layer)
        }
        tap.action = { [unowned(unsafe) self] _ in self.cycleOverlays() }
    }

    /// Height of the graph (a full-scale bar), points.
    private var graphHeight: Double { layer.bounds.height - (27 + 3) * layer.bounds.height / 46 }

    /// Attaches the toggle (a tap on the HUD) to `router`.
    public func installToggle(in router: TouchRouter) {
        router.add(tap, to: layer)
    }

    /// Moves to the next entry of `overlayCycle` (from off when the
    /// current overlays are not one of them), shows its name and calls
    /// `onOverlaysChange`.
    public func cycleOverlays() {
        var index = 0
        for (i, entry) in DemoChrome.overlayCycle.enumerated() where entry.overlays == overlays { index = i }
        overlays = DemoChrome.overlayCycle[(index + 1) % DemoChrome.overlayCycle.count].overlays
        Transaction.withoutActions { overlayLabel.string = overlayText }
        onOverlaysChange?(overlays)
    }

    /// The name of `overlays` in `overlayCycle`, else "custom".
    public static func name(of overlays: DebugOverlays) -> String {
        for entry in overlayCycle where entry.overlays == overlays { return entry.name }
        return "custom"
    }

    /// Takes a sample of `statistics` (the render loop's, copied on the app
    /// thread) at `time` (media time, seconds) if `sampleInterval` has
    /// passed since the last one, and shows it: the mean render time and
    /// flip interval of the frames rendered since the last sample. Returns
    /// true when the HUD's layers changed (commit then); false otherwise
    /// (too soon, or no frame since: the HUD keeps its last figures, so an
    /// idle scene stays idle).
    @discardableResult
    public func refresh(with statistics: RenderLoopStatistics, at time: MediaTime) -> Bool {
        guard time.isFinite, time - lastTime >= DemoChrome.sampleInterval else { return false }
        defer { last = statistics; lastTime = time }
        guard let last else { return false }
        let frames = statistics.framesRendered - last.framesRendered
        // The one frame the HUD's own last change caused is not news: an
        // idle scene stays idle apart from it.
        guard frames > (changedLast ? 1 : 0) else { changedLast = false; return false }
        changedLast = true
        let render = Swift.max(0, statistics.renderTotalNanoseconds - last.renderTotalNanoseconds) / Int64(frames)
        let intervals = statistics.intervalCount - last.intervalCount
        let intervalTotal = statistics.intervalTotalNanoseconds - last.intervalTotalNanoseconds
        text = DemoChrome.text(renderNanoseconds: render,
                               meanIntervalNanoseconds: intervals > 0 && intervalTotal > 0 ? intervalTotal / Int64(intervals) : nil)
        lastRenderNanoseconds = render
        samples[next] = render
        next = (next + 1) % samples.count
        Transaction.withoutActions {
            label.string = text
            let full = graphHeight
            for i in 0..<bars.count {
                let ns = samples[(next + i) % samples.count]
                let h = Swift.min(Double(ns) / Double(DemoChrome.graphFullScaleNanoseconds), 1) * full
                bars[i].bounds = Rect(x: 0, y: 0, width: bars[i].bounds.width, height: h.rounded())
                bars[i].backgroundColor = Color(rgb: ns <= 16_666_667 ? 0x3BB273 : ns <= 33_333_333 ? 0xF2A541 : 0xE84855)
            }
        }
        return true
    }

    /// The first line for a mean render time and flip interval (ns):
    /// "render 4.2 ms · 60 fps" (tenths of a millisecond, whole frames per
    /// second rounded; "render 4.2 ms" alone without intervals).
    public static func text(renderNanoseconds: Int64, meanIntervalNanoseconds: Int64?) -> String {
        let tenths = (Swift.max(renderNanoseconds, 0) + 50_000) / 100_000
        var s = "render \(tenths / 10).\(tenths % 10) ms"
        if let interval = meanIntervalNanoseconds, interval > 0 {
            s += " · \((2_000_000_000 / interval + 1) / 2) fps"
        }
        return s
    }

    /// Bar `i`'s height (oldest first), points: for tests.
    public func barHeight(_ i: Int) -> Double { bars[i].bounds.height }
}
