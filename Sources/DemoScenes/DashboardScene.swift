import FBRuntime
import Raster

/// An appliance panel (a heat pump's): three gauges — a `ShapeLayer` arc
/// whose `strokeEnd` is the value and a needle turned to it —, a live
/// chart of the power drawn (a polyline `ShapeLayer` rebuilt on each turn
/// of the app's run loop from a deterministic function of time), three
/// buttons that light up while touched, labels and values as `TextLayer`s,
/// and a settings sheet that slides in from the bottom when the Settings
/// button is tapped (an explicit transaction whose completion handler marks
/// it open) and slides out on a tap of its close button or a swipe down.
///
/// Gauge geometry: each arc sweeps 270° clockwise from 135° (bottom left)
/// to 405° (bottom right), angles from +x towards +y (y down); a value
/// `f` in 0…1 puts the needle at 135° + 270°·f.
///
/// The scene as built (before `startAnimations`) shows the gauges at their
/// values and the chart at time 0, so the first frame does not depend on
/// when it is drawn; `startAnimations` sweeps the gauges up from zero.
public final class DashboardScene: DemoScene {
    public let root = Layer(name: "root")
    private let width: Double, height: Double
    /// Points per 1/272 of the smaller side: the layout's unit.
    private let u: Double

    struct Gauge {
        let track = ShapeLayer(name: "gauge-track")
        let arc = ShapeLayer(name: "gauge-arc")
        let needle = Layer(name: "gauge-needle")
        let value: TextLayer
        let minimum: Double, maximum: Double
        let unit: String
    }
    private var gauges: [Gauge] = []
    /// The gauges' values in their units (flow temperature °C, room
    /// temperature °C, power kW).
    public private(set) var values: [Double] = [45, 21.5, 2.1]

    private let chart = ShapeLayer(name: "chart")
    private var chartBox = Rect(x: 0, y: 0, width: 1, height: 1)
    /// Samples in the chart (one per `chartStep` seconds).
    static let chartSamples = 48
    static let chartStep = 0.5

    /// The buttons, in order: Eco, Boost, Settings.
    public private(set) var buttons: [Layer] = []
    static let buttonColor = Color(rgb: 0x263042)
    /// A button's background while a finger is on it.
    public static let highlightColor = Color(rgb: 0x3E6FB0)
    /// The mode the Eco and Boost buttons choose: 0 eco, 1 boost.
    public private(set) var mode = 0
    private var touchedButton: Layer?

    /// The settings sheet: anchored at its top edge, at `closedY` (just
    /// below the screen) or `openY`.
    public let sheet = Layer(name: "sheet")
    public let closeButton = Layer(name: "sheet-close")
    public let sheetHeight: Double
    public var openY: Double { height - sheetHeight }
    public var closedY: Double { height }
    /// Seconds the sheet takes to slide in or out.
    public static let sheetDuration = 0.35
    /// True once the slide-in's completion handler ran (and until it is
    /// closed).
    public private(set) var isSheetOpen = false
    /// Times the slide-in's completion handler ran.
    public private(set) var sheetOpenCompletions = 0

    private var startTime: MediaTime = 0
    private var started = false
    private var lastDrift = 0

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        u = Swift.max(Swift.min(width, height), 1) / 272
        sheetHeight = (height * 0.62).rounded()
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x121822)
        let font = try? Font(path: OrbitScene.fontPath)

        // Header.
        let header = Layer(name: "header")
        header.anchorPoint = .zero
        header.bounds = Rect(x: 0, y: 0, width: width, height: (height * 0.11).rounded())
        header.backgroundColor = Color(rgb: 0x1A2230)
        try! root.addSublayer(header)
        addText("Heat pump · Living room", font: font, size: 11 * u, color: Color(rgb: 0xE8EEF7),
                frame: Rect(x: 8 * u, y: header.bounds.height * 0.2, width: width * 0.6, height: header.bounds.height * 0.7), to: header)
        addText("● running", font: font, size: 9 * u, color: Color(rgb: 0x3BB273),
                frame: Rect(x: width * 0.62, y: header.bounds.height * 0.28, width: width * 0.35, height: header.bounds.height * 0.7),
                to: header, alignment: .right)

        // Gauges.
        let specs: [(String, Double, Double, String, UInt32)] = [
            ("Flow", 20, 70, "°C", 0xE84855), ("Room", 10, 30, "°C", 0xF2A541), ("Power", 0, 6, "kW", 0x2E86AB),
        ]
        let r = Swift.min(width / 3 * 0.34, height * 0.19)
        for (i, spec) in specs.enumerated() {
            let c = Point(x: width * (Double(i) + 0.5) / 3, y: height * 0.35)
            let box = Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
            var arcPath = Path()
            arcPath.arc(center: PathPoint(x: r, y: r), radius: r, startAngle: 0.75 * Double.pi, endAngle: 2.25 * Double.pi, clockwise: true)
            let value = TextLayer(name: "gauge-value")
            let g = Gauge(value: value, minimum: spec.1, maximum: spec.2, unit: spec.3)
            for (shape, color) in [(g.track, Color(rgb: 0x2A3446)), (g.arc, Color(rgb: spec.4))] {
                shape.anchorPoint = .zero
                shape.bounds = Rect(x: 0, y: 0, width: 2 * r, height: 2 * r)
                shape.position = box.origin
                shape.path = arcPath
                shape.fillColor = nil
                shape.strokeColor = color
                shape.lineWidth = (r * 0.16).rounded()
                shape.lineCap = .round
                try! root.addSublayer(shape)
            }
            g.needle.bounds = Rect(x: 0, y: 0, width: Swift.max(2 * u, 2), height: r * 0.6)
            g.needle.anchorPoint = Point(x: 0.5, y: 1)
            g.needle.position = c
            g.needle.backgroundColor = Color(rgb: 0xE8EEF7)
            g.needle.cornerRadius = u
            try! root.addSublayer(g.needle)
            let hub = Layer(name: "gauge-hub")
            hub.bounds = Rect(x: 0, y: 0, width: 8 * u, height: 8 * u)
            hub.cornerRadius = 4 * u
            hub.position = c
            hub.backgroundColor = Color(rgb: 0xE8EEF7)
            try! root.addSublayer(hub)
            value.font = font
            value.fontSize = 12 * u
            value.alignmentMode = .center
            value.foregroundColor = Color(rgb: 0xE8EEF7)
            value.bounds = Rect(x: 0, y: 0, width: 2 * r, height: 16 * u)
            value.position = Point(x: c.x, y: c.y + r * 0.62)
            try! root.addSublayer(value)
            addText(spec.0, font: font, size: 9 * u, color: Color(rgb: 0x9AA8BF),
                    frame: Rect(x: c.x - r, y: c.y + r * 0.82, width: 2 * r, height: 12 * u), to: root, alignment: .center)
            gauges.append(g)
        }

        // Chart.
        let panel = Layer(name: "chart-panel")
        panel.anchorPoint = .zero
        panel.position = Point(x: (width * 0.03).rounded(), y: (height * 0.63).rounded())
        panel.bounds = Rect(x: 0, y: 0, width: (width * 0.6).rounded(), height: (height * 0.33).rounded())
        panel.backgroundColor = Color(rgb: 0x1A2230)
        panel.cornerRadius = 6 * u
        try! root.addSublayer(panel)
        addText("Power, last \(Int(Double(DashboardScene.chartSamples) * DashboardScene.chartStep)) s", font: font, size: 8 * u,
                color: Color(rgb: 0x9AA8BF), frame: Rect(x: 6 * u, y: 3 * u, width: panel.bounds.width - 12 * u, height: 11 * u), to: panel)
        chartBox = Rect(x: 6 * u, y: 16 * u, width: panel.bounds.width - 12 * u, height: panel.bounds.height - 22 * u)
        let grid = ShapeLayer(name: "chart-grid")
        grid.anchorPoint = .zero
        grid.bounds = panel.bounds
        var gridPath = Path()
        for k in 0...3 {
            let y = (chartBox.minY + chartBox.height * Double(k) / 3).rounded() + 0.5
            gridPath.move(to: PathPoint(x: chartBox.minX, y: y))
            gridPath.line(to: PathPoint(x: chartBox.minX + chartBox.width, y: y))
        }
        grid.path = gridPath
        grid.fillColor = nil
        grid.strokeColor = Color(rgb: 0x2A3446)
        grid.lineWidth = 1
        try! panel.addSublayer(grid)
        chart.anchorPoint = .zero
        chart.bounds = panel.bounds
        chart.fillColor = nil
        chart.strokeColor = Color(rgb: 0x2E86AB)
        chart.lineWidth = Swift.max(1.5 * u, 1.5)
        chart.lineJoin = .round
        chart.path = chartPath(at: 0)
        try! panel.addSublayer(chart)

        // Buttons.
        let names = ["Eco", "Boost", "Settings"]
        let bx = (width * 0.66).rounded(), bw = (width * 0.31).rounded()
        let top = height * 0.63, bh = (height * 0.33 - 2 * 4 * u) / 3
        for (i, name) in names.enumerated() {
            let button = Layer(name: "button-" + name)
            button.anchorPoint = .zero
            button.position = Point(x: bx, y: (top + Double(i) * (bh + 4 * u)).rounded())
            button.bounds = Rect(x: 0, y: 0, width: bw, height: bh.rounded())
            button.backgroundColor = DashboardScene.buttonColor
            button.cornerRadius = 5 * u
            button.borderWidth = i == mode ? Swift.max(u, 1) : 0
            button.borderColor = Color(rgb: 0x3BB273)
            try! root.addSublayer(button)
            addText(name, font: font, size: 10 * u, color: Color(rgb: 0xE8EEF7),
                    frame: Rect(x: 0, y: (bh - 14 * u) / 2, width: bw, height: 14 * u), to: button, alignment: .center)
            buttons.append(button)
        }

        // The settings sheet, below the screen.
        sheet.anchorPoint = Point(x: 0.5, y: 0)
        sheet.bounds = Rect(x: 0, y: 0, width: width, height: sheetHeight)
        sheet.position = Point(x: width / 2, y: closedY)
        sheet.backgroundColor = Color(rgb: 0xEEF2F7)
        sheet.cornerRadius = 10 * u
        sheet.shadowOpacity = 0.5
        sheet.shadowRadius = 8 * u
        sheet.shadowOffset = Size(width: 0, height: -2 * u)
        sheet.shadowPath = Path(roundedRect: 0, 0, width, sheetHeight, radii: CornerRadii(10 * u))
        let handle = Layer(name: "sheet-handle")
        handle.bounds = Rect(x: 0, y: 0, width: 30 * u, height: 3 * u)
        handle.cornerRadius = 1.5 * u
        handle.position = Point(x: width / 2, y: 6 * u)
        handle.backgroundColor = Color(rgb: 0xB8C2D0)
        try! sheet.addSublayer(handle)
        addText("Settings", font: font, size: 13 * u, color: Color(rgb: 0x1C2433),
                frame: Rect(x: 12 * u, y: 12 * u, width: width * 0.6, height: 18 * u), to: sheet)
        let cs = 20 * u
        closeButton.bounds = Rect(x: 0, y: 0, width: cs, height: cs)
        closeButton.cornerRadius = cs / 2
        closeButton.position = Point(x: width - 12 * u - cs / 2, y: 12 * u + cs / 2)
        closeButton.backgroundColor = Color(rgb: 0xD5DCE6)
        let cross = ShapeLayer(name: "sheet-close-cross")
        cross.anchorPoint = .zero
        cross.bounds = closeButton.bounds
        var x = Path()
        x.move(to: PathPoint(x: cs * 0.32, y: cs * 0.32)); x.line(to: PathPoint(x: cs * 0.68, y: cs * 0.68))
        x.move(to: PathPoint(x: cs * 0.68, y: cs * 0.32)); x.line(to: PathPoint(x: cs * 0.32, y: cs * 0.68))
        cross.path = x
        cross.fillColor = nil
        cross.strokeColor = Color(rgb: 0x1C2433)
        cross.lineWidth = Swift.max(1.5 * u, 1.5)
        cross.lineCap = .round
        try! closeButton.addSublayer(cross)
        try! sheet.addSublayer(closeButton)
        let rows: [(String, String, Bool?)] = [
            ("Target room temperature", "21.5 °C", nil), ("Night setback", "17 °C", nil),
            ("Quiet mode", "", true), ("Legionella cycle", "", false),
        ]
        let rowHeight = (sheetHeight - 40 * u) / Double(rows.count)
        for (i, row) in rows.enumerated() {
            let y = 38 * u + Double(i) * rowHeight
            addText(row.0, font: font, size: 10 * u, color: Color(rgb: 0x1C2433),
                    frame: Rect(x: 12 * u, y: y + (rowHeight - 14 * u) / 2, width: width * 0.6, height: 14 * u), to: sheet)
            if let on = row.2 {
                let track = Layer(name: "switch")
                track.bounds = Rect(x: 0, y: 0, width: 30 * u, height: 16 * u)
                track.cornerRadius = 8 * u
                track.position = Point(x: width - 12 * u - 15 * u, y: y + rowHeight / 2)
                track.backgroundColor = Color(rgb: on ? 0x3BB273 : 0xB8C2D0)
                let knob = Layer(name: "switch-knob")
                knob.bounds = Rect(x: 0, y: 0, width: 13 * u, height: 13 * u)
                knob.cornerRadius = 6.5 * u
                knob.position = Point(x: on ? 22 * u : 8 * u, y: 8 * u)
                knob.backgroundColor = .white
                try! track.addSublayer(knob)
                try! sheet.addSublayer(track)
            } else {
                addText(row.1, font: font, size: 10 * u, color: Color(rgb: 0x2E86AB),
                        frame: Rect(x: width * 0.5, y: y + (rowHeight - 14 * u) / 2, width: width * 0.5 - 12 * u, height: 14 * u),
                        to: sheet, alignment: .right)
            }
            if i > 0 {
                let rule = Layer(name: "rule")
                rule.anchorPoint = .zero
                rule.position = Point(x: 12 * u, y: y.rounded())
                rule.bounds = Rect(x: 0, y: 0, width: width - 24 * u, height: 1)
                rule.backgroundColor = Color(rgb: 0xD5DCE6)
                try! sheet.addSublayer(rule)
            }
        }
        try! root.addSublayer(sheet)
        for i in 0..<gauges.count { show(i, animated: false) }
    }

    private func addText(_ string: String, font: Font?, size: Double, color: Color, frame: Rect, to parent: Layer,
                         alignment: TextAlignment = .left) {
        let text = TextLayer(name: "label")
        text.font = font
        text.string = string
        text.fontSize = size
        text.foregroundColor = color
        text.alignmentMode = alignment
        text.anchorPoint = .zero
        text.position = frame.origin
        text.bounds = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        try! parent.addSublayer(text)
    }

    /// Gauge `i`'s value as a fraction of its range, clamped to 0…1.
    public func fraction(_ i: Int) -> Double {
        let g = gauges[i]
        let f = (values[i] - g.minimum) / (g.maximum - g.minimum)
        return f.isFinite ? Swift.min(Swift.max(f, 0), 1) : 0
    }

    /// The needle's turn for a fraction `f`: radians about z from pointing
    /// straight up (positive turns clockwise on screen).
    public static func needleAngle(_ f: Double) -> Double { (1.5 * f - 0.75) * Double.pi }

    /// The needle of gauge `i` and its arc (model values), for tests.
    public func gaugeState(_ i: Int) -> (strokeEnd: Double, needle: Transform3D, text: String) {
        (gauges[i].arc.strokeEnd, gauges[i].needle.transform, gauges[i].value.string)
    }

    private func show(_ i: Int, animated: Bool) {
        let f = fraction(i)
        let g = gauges[i]
        let body = {
            g.arc.strokeEnd = f
            g.needle.transform = Transform3D(rotationAngle: DashboardScene.needleAngle(f), x: 0, y: 0, z: 1)
            g.value.string = DashboardScene.format(self.values[i]) + " " + g.unit
        }
        if animated { body() } else { Transaction.withoutActions(body) }
    }

    /// One decimal, without printing a Double (Embedded Swift cannot).
    static func format(_ v: Double) -> String {
        guard v.isFinite else { return "–" }
        let t = Int((v * 10).rounded())
        return (t < 0 ? "-" : "") + "\(abs(t) / 10).\(abs(t) % 10)"
    }

    /// The power drawn at `t` seconds (kW): a deterministic stand-in for a
    /// sensor, 0.9…3.3 kW; boost (mode 1) adds 1.5 kW.
    public func power(at t: Double) -> Double {
        let (s1, _) = FloatMath.sinCos(0.9 * t)
        let (s2, _) = FloatMath.sinCos(2.3 * t + 1)
        return 2.1 + 0.8 * s1 + 0.4 * s2 + (mode == 1 ? 1.5 : 0)
    }

    /// The chart's polyline at `t` (seconds since the start): the samples
    /// at whole `chartStep`s up to `t`, the newest at the right edge,
    /// 0…6 kW bottom to top.
    func chartPath(at t: Double) -> Path {
        var path = Path()
        let n = DashboardScene.chartSamples
        let newest = t.isFinite ? Swift.max(0, (t / DashboardScene.chartStep).rounded(.down)) : 0
        for k in 0..<n {
            let sampleTime = (newest - Double(n - 1 - k)) * DashboardScene.chartStep
            let v = Swift.min(Swift.max(power(at: sampleTime) / 6, 0), 1)
            let p = PathPoint(x: chartBox.minX + chartBox.width * Double(k) / Double(n - 1),
                              y: chartBox.minY + chartBox.height * (1 - v))
            if k == 0 { path.move(to: p) } else { path.line(to: p) }
        }
        return path
    }

    public func startAnimations(at time: MediaTime) {
        startTime = time
        started = true
        lastDrift = 0
        for (i, g) in gauges.enumerated() {
            let f = fraction(i)
            var sweep = BasicAnimation(key: .strokeEnd, from: .scalar(0), to: .scalar(f), duration: 1.2)
            sweep.timingFunction = .easeInEaseOut
            g.arc.add(sweep, forKey: "sweep", at: time)
            var turn = BasicAnimation(key: .transformRotationZ, from: .scalar(DashboardScene.needleAngle(0)),
                                      to: .scalar(DashboardScene.needleAngle(f)), duration: 1.2)
            turn.timingFunction = .easeInEaseOut
            g.needle.add(turn, forKey: "sweep", at: time)
        }
    }

    /// Rebuilds the chart for `time`, and every 2 s lets the gauges drift to
    /// new values (implicit animations).
    public func turn(at time: MediaTime) {
        guard started else { return }
        let t = time - startTime
        Transaction.withoutActions { chart.path = chartPath(at: t) }
        let step = t.isFinite && t > 0 ? Int(Swift.min(t / 2, 1e9)) : 0
        guard step > lastDrift else { return }
        lastDrift = step
        let (s, c) = FloatMath.sinCos(Double(step) * 0.7)
        values[0] = 45 + 6 * s
        values[1] = 21.5 + 0.5 * c
        values[2] = power(at: t)
        Transaction.animationDuration = 0.8
        for i in 0..<gauges.count { show(i, animated: true) }
    }

    // MARK: Touch

    public func installGestures(in router: TouchRouter) -> Bool {
        for (i, button) in buttons.enumerated() {
            router.add(TapGestureRecognizer { [unowned(unsafe) self] _ in self.tapped(i) }, to: button)
        }
        router.add(TapGestureRecognizer { [unowned(unsafe) self] _ in self.closeSheet() }, to: closeButton)
        router.add(SwipeGestureRecognizer(directions: .down) { [unowned(unsafe) self] _ in self.closeSheet() }, to: sheet)
        // Highlight: a button lights up from touch-down to up or cancel.
        router.onTouch = { [unowned(unsafe) self] layer, event in self.highlight(layer, event) }
        return true
    }

    private func button(containing layer: Layer) -> Layer? {
        var l: Layer? = layer
        while let current = l {
            for b in buttons where b === current { return b }
            l = current.superlayer
        }
        return nil
    }

    private func highlight(_ layer: Layer, _ event: TouchEvent) {
        switch event.phase {
        case .began:
            guard let b = button(containing: layer) else { return }
            touchedButton = b
            Transaction.withoutActions { b.backgroundColor = DashboardScene.highlightColor }
        case .ended, .cancelled:
            guard let b = touchedButton, button(containing: layer) === b else { return }
            touchedButton = nil
            Transaction.withoutActions { b.backgroundColor = DashboardScene.buttonColor }
        case .moved:
            break
        }
        Transaction.flush()
    }

    private func tapped(_ i: Int) {
        if i == 2 { openSheet(); return }
        mode = i
        Transaction.withoutActions {
            for (k, b) in buttons.enumerated() { b.borderWidth = k == mode && k < 2 ? Swift.max(u, 1) : 0 }
        }
        Transaction.flush()
    }

    /// Slides the sheet in (an explicit transaction: the position's
    /// implicit animation, `sheetDuration` long; its completion handler,
    /// run on the app run loop's turn after the slide ends, marks the
    /// sheet open).
    public func openSheet() {
        guard sheet.position.y != openY else { return }
        Transaction.flush()   // no implicit transaction left open under this one
        Transaction.begin()
        Transaction.animationDuration = DashboardScene.sheetDuration
        Transaction.animationTimingFunction = .easeInEaseOut
        Transaction.setCompletionBlock { [unowned(unsafe) self] in
            if self.sheet.position.y == self.openY {
                self.isSheetOpen = true
                self.sheetOpenCompletions += 1
            }
        }
        sheet.position = Point(x: width / 2, y: openY)
        Transaction.commit()
    }

    /// Slides the sheet out.
    public func closeSheet() {
        guard sheet.position.y != closedY else { return }
        Transaction.flush()
        Transaction.begin()
        Transaction.animationDuration = DashboardScene.sheetDuration
        Transaction.animationTimingFunction = .easeInEaseOut
        isSheetOpen = false
        sheet.position = Point(x: width / 2, y: closedY)
        Transaction.commit()
    }
}
