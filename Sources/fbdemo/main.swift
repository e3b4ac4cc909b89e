// fbdemo: FBRuntime's demo app, on the app shell (AppShell); the same
// source for the host and for the board (Embedded Swift, aarch64).
//
//   fbdemo [--scene NAME | NAME] [--hud] [--board NAME] [--backend auto|kms|fbdev]
//          [--headless] [--frames N] [--size WxH] [--out DIR] [--tap X,Y]...
//
// Without a scene, a chooser: the demos of DemoCatalog, a line each; a tap
// opens one, and its "‹ Demos" button goes back. With one (`--scene
// orbit`, as the deploy unit runs it), that demo alone. `--hud`: the
// frame-time HUD and its debug-overlay toggle (DemoChrome) on a display.
// FBR_DEBUG=blended,offscreen,misaligned,redrawn (or all) turns the
// compositor's debug overlays on from the start.
//
// The display, touch, signals, headless frames and the other options are
// the shell's (docs/app-guide.md). The checks the VM and board tests make
// are another program's, fbcheck.
import AppShell
import DemoScenes
import FBRuntime

// The scenes turn and tilt their layers: smooth every edge, as an iOS app
// does with UIViewEdgeAntialiasing (Core Animation's default is hard
// edges; see Layer.allowsEdgeAntialiasing).
Layer.defaultAllowsEdgeAntialiasing = true

/// fbdemo's own options.
final class DemoOptions {
    var scene: String?
    var hud = false

    /// Takes `option` when it is one of fbdemo's (see `App.init`).
    func read(_ option: String, _ reader: inout AppOptionReader) -> Bool {
        switch option {
        case "--hud": hud = true
        case "--scene": scene = reader.value()
        default:
            guard !option.hasPrefix("-") else { return false }
            scene = option
        }
        if let scene, !DemoCatalog.names.contains(scene) {
            reader.refuse("unknown scene '\(scene)' (scenes: \(DemoCatalog.namesLine))")
        }
        return true
    }
}

func main() -> Never {
    let options = DemoOptions()
    let app = App(name: "fbdemo", usage: "[--scene NAME | NAME] [--hud]", options: options.read)
    app.run { screen in
        if let text = System.environment("FBR_DEBUG") {
            let (overlays, unknown) = DebugOverlays.parse(text)
            for name in unknown {
                print("fbdemo: FBR_DEBUG: unknown overlay '\(name)' (have: blended, offscreen, misaligned, redrawn, all)")
            }
            screen.debugOverlays = overlays
        }
        DemoApp.start(on: screen, scene: options.scene, hud: options.hud)
    }
}

main()
