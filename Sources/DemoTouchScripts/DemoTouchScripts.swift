import Controls
import DemoScenes
import FBRuntime

// The touches the emulated-board checks play on each demo scene: test
// material, kept out of DemoScenes so that fbdemo (the program flashed to
// boards) carries none of it. fbcheck and the scene tests link it.

/// One step of a demo's scripted touch, in fractions of the screen (0…1
/// across the width and down the height, origin top left; fbcheck turns them
/// into panel pixels).
public enum DemoTouchStep: Equatable {
    /// Down and up at one place.
    case tap(x: Double, y: Double)
    /// Down at (x0, y0), eight moves in equal steps to (x1, y1), up.
    /// `checkFollows`: require the top-level layer under the start to have
    /// moved by exactly the drag (the generic `SceneTouch` drag).
    case drag(x0: Double, y0: Double, x1: Double, y1: Double, checkFollows: Bool)
    /// Nothing for `seconds` (input keeps being routed).
    case wait(seconds: Double)
    /// Two fingers down together, centred on (x, y), `startSpread` apart
    /// horizontally (a fraction of the width), moved apart (or together)
    /// in eight equal steps to `endSpread`, both lifted: a pinch whose
    /// scale is endSpread / startSpread (up to the pixel rounding).
    case pinch(x: Double, y: Double, startSpread: Double, endSpread: Double)
}


/// Each demo scene's scripted touch for `fbcheck --demo-touch`, which
/// writes it to a uinput touchscreen on the emulated board
/// (scripts/qemu-board), and the time it leaves the scene to settle.
public enum DemoTouchScripts {
    /// The touches played on `scene`, in order. Its screendump is taken
    /// `restSeconds(for:)` after the last one, so the state they leave
    /// must not depend on timing (a flick ends snapped to an item, a
    /// launch is paused at a fixed `timeOffset`). For a scene without its
    /// own script: a tap and a drag of the layer at 20 %, 30 % of the
    /// screen a quarter of its width to the right.
    public static func steps(for scene: any DemoScene) -> [DemoTouchStep] {
        let size = scene.root.bounds.size
        if scene is ShapesScene {
            // A pinch about the middle arrow from fingers 20 % of the
            // width apart to 30 %: the stage zooms to 1.5× (snapped on lift).
            return [.pinch(x: 0.5, y: 0.55, startSpread: 0.2, endSpread: 0.3)]
        }
        if scene is BrowserScene {
            // Four upward flicks of 70 % of the screen: whatever the
            // velocities, they take the grid past its end (at 640×480 each
            // drag alone moves it 294 points, past the 10-point start, and
            // the end is 867 points down; a finger catches the last motion
            // where it is), so it rests at `maximumOffset`.
            var steps: [DemoTouchStep] = []
            for _ in 0..<4 { steps.append(.drag(x0: 0.5, y0: 0.85, x1: 0.5, y1: 0.15, checkFollows: false)) }
            return steps
        }
        if let fireworks = scene as? FireworksScene {
            // A tap in the middle of the sky (launches), a second for the
            // rocket to climb, then a drag along the timeline to 55 % of the
            // width: the sky paused 2.2 s after that launch, in its burst.
            let y = (fireworks.timelineFrame.minY + fireworks.timelineFrame.height / 2) / size.height
            return [.tap(x: 0.5, y: 0.3),
                    .wait(seconds: 1.0),
                    .drag(x0: 0.25, y0: y, x1: 0.55, y1: y, checkFollows: false)]
        }
        if let lock = scene as? LockScene {
            // A short drag (a fifth of the width: springs back), then, once
            // the spring has settled, a drag to the right edge (unlocks).
            let k = lock.knobFraction
            return [.drag(x0: k.x, y0: k.y, x1: k.x + 0.2, y1: k.y, checkFollows: false),
                    .wait(seconds: 1.0),
                    .drag(x0: k.x, y0: k.y, x1: 0.98, y1: k.y, checkFollows: false)]
        }
        if let coverflow = scene as? CoverflowScene {
            // Two flicks to the left across 60 % of the width: each drag
            // alone moves the shelf four covers (`pointsPerCover` is 15 %
            // of the width), so from cover 3 the second ends at or past
            // the last cover whatever the velocities, and the shelf lands
            // on cover 11 (momentum only adds to it, the end stops it).
            // A pause well past its settling (the bounce at the end takes
            // under 1.5 s: a tap while it still moves centres instead of
            // flipping), then a tap on the centre cover (it flips).
            let y = coverflow.centreY / size.height
            return [.drag(x0: 0.8, y0: y, x1: 0.2, y1: y, checkFollows: false),
                    .drag(x0: 0.8, y0: y, x1: 0.2, y1: y, checkFollows: false),
                    .wait(seconds: 2.5),
                    .tap(x: 0.5, y: y)]
        }
        if let dashboard = scene as? DashboardScene, dashboard.buttons.count > 2 {
            // Tap the Settings button: the sheet is open at rest.
            let b = dashboard.buttons[2]
            return [.tap(x: (b.position.x + b.bounds.width / 2) / size.width,
                         y: (b.position.y + b.bounds.height / 2) / size.height)]
        }
        if let widgets = scene as? WidgetsScene {
            // Tap the dark switch, then the Settings tab: at rest the
            // Settings page shows, dark (the colours take `themeDuration`,
            // the tab's indicator and the page's fade the theme's animation
            // duration; neither depends on when the taps land).
            var steps: [DemoTouchStep] = []
            for control in [widgets.darkSwitch as Control, widgets.tabs] {
                let b = control.bounds
                var centre = Point(x: b.minX + b.width / 2, y: b.minY + b.height / 2)
                if control === widgets.tabs {   // the middle of the last segment
                    centre.x = b.minX + b.width * (Double(WidgetsScene.pageTitles.count) - 0.5) / Double(WidgetsScene.pageTitles.count)
                }
                let p = control.convert(centre, to: scene.root)
                steps.append(.tap(x: p.x / size.width, y: p.y / size.height))
            }
            return steps
        }
        if let settings = scene as? SettingsScene {
            // Wi-Fi off, the Dark segment (the theme fades), the language
            // row (pushes the wheel's screen), the row under the wheel's
            // band (it turns to Deutsch), the back button (pops): at rest
            // the settings screen shows, dark, Wi-Fi off, Deutsch chosen.
            // The waits let the push (0.35 s) and the wheel's turn end
            // under TCG; the end state does not depend on them.
            func f(_ p: Point) -> DemoTouchStep { .tap(x: p.x / size.width, y: p.y / size.height) }
            return [f(settings.centre(of: settings.wifiSwitch)),
                    f(settings.appearanceSegment(1)),
                    f(settings.centre(of: settings.languageControl)),
                    .wait(seconds: 1.0),
                    f(settings.languageWheelPoint(rowsBelowBand: 1)),
                    .wait(seconds: 1.0),
                    f(settings.backButtonCentre)]
        }
        if let list = scene as? ListScene,
           let second = list.rowCentre(ListIndexPath(section: 0, row: 1)),
           let fourth = list.rowCentre(ListIndexPath(section: 0, row: 3)) {
            // Two upward flings of 60 % of the height (the list goes on
            // with momentum), then "Top" while it may still move (back to
            // the first row, by a spring from wherever it is), then a tap
            // on the second row (selected) and a swipe left on the fourth
            // (open, Flag and Delete showing): none of the end state
            // depends on the flings' speed.
            let top = list.topButton.convert(Point(x: list.topButton.bounds.width / 2, y: list.topButton.bounds.height / 2), to: scene.root)
            return [.drag(x0: 0.5, y0: 0.85, x1: 0.5, y1: 0.25, checkFollows: false),
                    .drag(x0: 0.5, y0: 0.85, x1: 0.5, y1: 0.25, checkFollows: false),
                    .wait(seconds: 0.3),
                    .tap(x: top.x / size.width, y: top.y / size.height),
                    .wait(seconds: 2.0),
                    .tap(x: second.x / size.width, y: second.y / size.height),
                    .drag(x0: 0.8, y0: fourth.y / size.height, x1: 0.3, y1: fourth.y / size.height, checkFollows: false)]
        }
        if scene is CubeScene {
            // A drag a quarter of the width to the right across the middle:
            // the yaw grows by `degreesPerPoint` × width / 4.
            return [.drag(x0: 0.3, y0: 0.5, x1: 0.55, y1: 0.5, checkFollows: false)]
        }
        return [.tap(x: 0.2, y: 0.3), .drag(x0: 0.2, y0: 0.3, x1: 0.45, y1: 0.3, checkFollows: true)]
    }

    /// Seconds from the last scripted touch until `scene` is at rest
    /// (every animation its script started has ended or is paused).
    public static func restSeconds(for scene: any DemoScene) -> Double {
        // The last flick's bounce at the end (under 1.5 s) and the scroll
        // indicator's fade-out after it (0.5 s, then 0.3 s), with slack.
        if scene is BrowserScene { return 2.6 }
        if scene is FireworksScene || scene is CubeScene { return 0.3 }
        // The slide (0.45 s), the home screen's fade (0.3 s) and slack for
        // the emulated board (under TCG on a loaded host a frame can take
        // over a second).
        if scene is LockScene { return 2.5 }
        // The flip (0.6 s) and slack for the emulated board (under TCG a
        // frame of the flip can take half a second).
        if scene is CoverflowScene { return 3.0 }
        // The colours' change (0.3 s) and the page's fade (0.2 s), with
        // slack for the emulated board.
        if scene is WidgetsScene { return 1.0 }
        // The pop (0.35 s), or the swiped row's opening and the scroll
        // indicator's fade (0.5 s, then 0.3 s), with slack for the
        // emulated board.
        if scene is SettingsScene || scene is ListScene { return 1.5 }
        return 0.6
    }
}
