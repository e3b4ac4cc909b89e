import CPosix
import DemoScenes
import FBRuntime
import FBRuntimeTesting
import ImageIO

/// `--drag-check` (scripts/sim-test, on a still scene): the window is
/// captured at rest, then the harness drags the mouse (through the X
/// server: xdotool) from the top-level layer at 20 %, 30 % of the UI a
/// quarter of the UI's width to the right; that layer must have moved by
/// exactly as much, and the window is captured again. With `oracle`, what
/// the captures must show is rendered headless from fresh scenes (the
/// second with the same layer moved by the amount sent) for the harness to
/// compare. Returns the exit status.
func dragCheck(_ app: SimApp, scene sceneName: String, orientation: DisplayOrientation, oracle: String?) -> Int32 {
    let uiWidth = Int(orientation.uiSize.width), uiHeight = Int(orientation.uiSize.height)
    let loop = app.loop
    settle(app)
    if let oracle {
        do throws(SimError) {
            do { try System.makeDirectories(oracle) } catch { throw SimError(error.description) }
            try renderHeadless(sceneName, width: uiWidth, height: uiHeight, to: oracle + "/sim-first.png") { _ in }
        } catch {
            print("fbsim: error: \(error.description)")
            return 1
        }
    }
    do throws(HandshakeError) { try ScreendumpHandshake.request("sim-first") } catch {
        print("fbsim: error: \(error.description)")
        return 1
    }

    // Whole UI points, so the panel pixels the harness moves to are exact.
    let start = Point(x: Double(uiWidth / 5), y: Double(uiHeight * 3 / 10))
    let distance = Double(uiWidth / 4)
    let target: Layer? = loop.update { root in SceneTouch.topLevelLayer(at: start, in: root) }
    guard let target else { print("fbsim: error: no layer at 20 %, 30 % to drag"); return 1 }
    let before: Point = loop.update { _ in target.position }
    let from = orientation.uiToPanel.apply(x: start.x, y: start.y)
    let to = orientation.uiToPanel.apply(x: start.x + distance, y: start.y)
    print("READY-FOR-DRAG \(Int(from.x.rounded())) \(Int(from.y.rounded())) \(Int(to.x.rounded())) \(Int(to.y.rounded()))")
    fbr_flush_stdout()
    let released = app.pump(until: { $0.releases >= 1 }, timeoutNanoseconds: 20_000_000_000)
    settle(app)
    let after: Point = loop.update { _ in target.position }
    let moved = Point(x: after.x - before.x, y: after.y - before.y)
    print("fbsim: drag: \(target.name) moved \(moved.x) points right (want \(distance)), \(moved.y) down, "
          + "\(app.touch.touchCount) touch events routed")
    guard released, abs(moved.x - distance) < 0.5, abs(moved.y) < 0.5 else {
        print("fbsim: error: the drag did not move the layer as sent\(released ? "" : " (no button release seen)")")
        return 1
    }
    if let oracle {
        let name = target.name
        do throws(SimError) {
            try renderHeadless(sceneName, width: uiWidth, height: uiHeight, to: oracle + "/sim-after-drag.png") { root in
                for layer in root.sublayers where layer.name == name {
                    layer.position = Point(x: layer.position.x + distance, y: layer.position.y)
                }
            }
        } catch {
            print("fbsim: error: \(error.description)")
            return 1
        }
    }
    do throws(HandshakeError) { try ScreendumpHandshake.request("sim-after-drag") } catch {
        print("fbsim: error: \(error.description)")
        return 1
    }
    return 0
}

/// Shows frames until none has come for 300 ms (implicit animations over,
/// the window up to date), 5 s at most.
private func settle(_ app: SimApp) {
    var shown = app.windowFrames
    var quietSince = System.monotonicNanoseconds()
    let deadline = quietSince + 5_000_000_000
    while System.monotonicNanoseconds() < deadline && System.monotonicNanoseconds() - quietSince < 300_000_000 {
        app.pumpOnce(timeoutMilliseconds: 20)
        if app.windowFrames != shown { shown = app.windowFrames; quietSince = System.monotonicNanoseconds() }
    }
}

/// A fresh scene at rest, changed by `change`, rendered headless into a PNG
/// file (the frame in UI orientation).
private func renderHeadless(_ sceneName: String, width: Int, height: Int, to path: String,
                            _ change: (Layer) -> Void) throws(SimError) {
    guard let display = HeadlessDisplay(width: width, height: height) else { throw SimError("cannot allocate \(width)x\(height)") }
    let scene = makeScene(sceneName, width: Double(width), height: Double(height))
    change(scene.root)
    display.renderFrame(scene.root, with: Compositor())
    do { try PNG.write(display.framebuffer.view, to: path) } catch { throw SimError(error.description) }
}
