import Controls
import FBRuntime

/// What fbdemo, fbcheck and fbsim run: a tree, its animations, the app's
/// work per turn of its run loop, and how the scene answers touch.
///
/// Threading: every requirement is called on the app thread, inside
/// `RenderLoop.update` once the loop runs (the render thread draws the
/// same tree).
public protocol DemoScene: AnyObject {
    /// The scene's root layer, sized to the UI (points = pixels of the
    /// turned screen at contents scale 1).
    var root: Layer { get }
    /// Starts the scene's own animations; `time` is the media time now.
    /// Not called with fbcheck's `--still` (the scene stays at rest until
    /// touched).
    func startAnimations(at time: MediaTime)
    /// One turn of the app's run loop (about 20 per second while animations
    /// run), inside `AppRunLoop.runTurn`: property changes and new
    /// animations made here are committed together. Default: nothing.
    func turn(at time: MediaTime)
    /// Adds the scene's own gesture recognisers to `router` (attached to
    /// its layers) and returns true; the default returns false, and
    /// `SceneTouch` then drags any top-level layer and pinches it to zoom.
    func installGestures(in router: TouchRouter) -> Bool
    /// Key navigation over the scene's controls (Tab, arrows, Enter, a
    /// rotary encoder's turns: fbdemo routes the board's keys and wheel
    /// here), or nil for a scene without controls (the default).
    var focus: FocusEngine? { get }
    /// The top corner where an app showing the scene may put a button of
    /// its own over it (fbdemo's "‹ Demos") without hiding one of the
    /// scene's controls. Default: `.topLeft`.
    var hostButtonCorner: DemoCorner { get }
}

/// A top corner of the screen.
public enum DemoCorner: Equatable, Sendable { case topLeft, topRight }

extension DemoScene {
    public func turn(at time: MediaTime) {}
    public func installGestures(in router: TouchRouter) -> Bool { false }
    public var focus: FocusEngine? { nil }
    public var hostButtonCorner: DemoCorner { .topLeft }
}

/// The scenes fbdemo, fbcheck and fbsim know by name.
public enum DemoCatalog {
    /// Every scene's name and a line saying what it shows (fbdemo's
    /// chooser lists them), in the order demos are listed.
    public static let entries: [(name: String, summary: String)] = [
        ("orbit", "A card sliding and turning, a fading group"),
        ("showcase", "Every kind of animation at once"),
        ("lock", "The 2009 lock screen: slide to unlock"),
        ("coverflow", "Album covers in perspective: flick, tap"),
        ("cube", "Two nested cubes in 3-D: drag to turn"),
        ("fireworks", "An emitter: tap to launch, scrub the sky"),
        ("browser", "A scrolling grid of photos with momentum"),
        ("shapes", "Morphing paths, marching ants: pinch"),
        ("dashboard", "A heat pump's panel: gauges, a chart"),
        ("widgets", "Controls: tabs, switches, sliders, charts"),
        ("settings", "A settings screen: rows, a pushed picker"),
        ("list", "10,000 rows: fling, swipe a row, tap one"),
    ]

    /// Every scene's name, in the order demos are listed.
    public static let names = entries.map { $0.name }

    /// The scene `name` at rest, laid out for `width` × `height` points;
    /// nil for an unknown name.
    public static func make(_ name: String, width: Double, height: Double) -> (any DemoScene)? {
        switch name {
        case "orbit": return OrbitScene(width: width, height: height)
        case "showcase": return ShowcaseScene(width: width, height: height)
        case "lock": return LockScene(width: width, height: height)
        case "coverflow": return CoverflowScene(width: width, height: height)
        case "cube": return CubeScene(width: width, height: height)
        case "fireworks": return FireworksScene(width: width, height: height)
        case "browser": return BrowserScene(width: width, height: height)
        case "shapes": return ShapesScene(width: width, height: height)
        case "dashboard": return DashboardScene(width: width, height: height)
        case "widgets": return WidgetsScene(width: width, height: height)
        case "settings": return SettingsScene(width: width, height: height)
        case "list": return ListScene(width: width, height: height)
        default: return nil
        }
    }

    /// The names as one line for usage messages: "orbit, showcase, …".
    public static var namesLine: String {
        var line = ""
        for name in names { line += line.isEmpty ? name : ", " + name }
        return line
    }
}
