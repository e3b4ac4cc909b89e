@testable import FBRuntime
import XCTest

/// A layer that records its layouts in a shared log ("name" per call), and
/// can run extra work inside its layout.
final class RecordingLayer: Layer {
    let log: LayoutLog
    var duringLayout: ((RecordingLayer) -> Void)?
    init(_ name: String, log: LayoutLog) {
        self.log = log
        super.init(name: name)
    }
    override func layoutSublayers() {
        log.entries.append(name)
        super.layoutSublayers()
        duringLayout?(self)
    }
}

final class LayoutLog {
    var entries: [String] = []
}

/// A layer at `frame` (anchor point at the centre, CA's default).
func frameLayer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Layer {
    let l = Layer(name: name)
    l.frame = Rect(x: x, y: y, width: w, height: h)
    return l
}

func assertFrame(_ layer: Layer, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                 file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(layer.frame, Rect(x: x, y: y, width: w, height: h), "frame of '\(layer.name)'", file: file, line: line)
}

/// Swaps in a run loop on a manual clock for the test (and back after).
class LayoutTestCase: XCTestCase {
    var clock = ManualClock()
    var loop = AppRunLoop(clock: ManualClock())
    private var savedLoop: AppRunLoop?
    var warnings: [String] = []
    private var savedSink: ((String) -> Void)?

    override func setUp() {
        savedLoop = AppRunLoop.current
        clock = ManualClock(now: 0)
        loop = AppRunLoop(clock: clock)
        AppRunLoop.current = loop
        savedSink = Diagnostics.sink
        Diagnostics.reset()
        warnings = []
        Diagnostics.sink = { [unowned self] in self.warnings.append($0) }
    }

    override func tearDown() {
        if let savedLoop { AppRunLoop.current = savedLoop }
        Diagnostics.sink = savedSink
        Diagnostics.reset()
    }
}
