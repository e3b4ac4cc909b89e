import FBRuntime
import Raster

/// The command-line options every app gets from the shell, read from the
/// program's arguments (and, for the board, the environment:
/// `FBRUNTIME_BOARD`, see `BoardConfig.selected`).
///
///     --board NAME        a board file (board-configs/NAME.conf, or a path)
///     --backend auto|kms|fbdev   which display to open (default: the board's,
///                         else auto: KMS → fbdev → headless)
///     --headless          render into memory and write PNG files, no display
///     --frames N          stop after N frames (headless: render N frames of
///                         simulated 60 Hz time; default 1). On a display
///                         only changes are rendered, so a still screen
///                         also ends the run once N refresh periods have
///                         passed and nothing was rendered for a second
///                         (`StillScreenLimit`)
///     --size WxH          the headless frame's size in pixels (default 480x320)
///     --out DIR           where headless frames go (default out/NAME)
///     --settings FILE     the app's settings file (`App.settingsPath`)
///     --tap X,Y           headless: a tap at X,Y (pixels), repeatable
///     --key NAME          headless: a key pressed and released (tab, enter,
///                         up, down, left, right, space, esc, backspace, a
///                         letter or digit, or an evdev code), repeatable;
///                         taps and keys are played one after another in the
///                         order given, from frame 1 on (`InputScript`)
///
/// An app adds its own options with `App.init(name:options:)`'s handler;
/// anything neither takes is refused with one line and exit status 2.
public struct AppOptions: Sendable {
    /// The display the app asked for; nil: the board's (`auto` without one).
    public var backend: BoardConfig.Backend?
    public var headless = false
    /// `--frames N`; nil: until SIGINT/SIGTERM (one frame headless). On a
    /// display, also the end of a still screen's run (`StillScreenLimit`).
    public var frames: Int?
    /// Headless frame size, pixels.
    public var width = 480
    public var height = 320
    /// Headless output folder; nil: `out/<app name>`.
    public var outDirectory: String?
    /// `--settings FILE`; nil: the default place (`App.settingsPath`).
    public var settingsPath: String?
    /// `--tap` and `--key` together, in the order given: the headless
    /// run's input script.
    public var inputSteps: [AppInputStep] = []
    /// The `--tap X,Y` points of `inputSteps`, in order (panel pixels,
    /// origin top left).
    public var taps: [Point] {
        inputSteps.compactMap { step in if case let .tap(p) = step { return p } else { return nil } }
    }

    /// The most frames `--frames` takes.
    public static let maxFrames = 100_000

    public init() {}
}

/// Walks a command line one argument at a time, with the value parsers the
/// shell's options use, so an app's own options (and the demo programs',
/// `DemoOptionReader`) are refused the same way.
/// Every refusal calls `usage`, which prints one line and exits with
/// status 2.
public struct AppOptionReader {
    private let arguments: [String]
    private var index = 0
    private let usage: (String) -> Never

    /// `arguments` as the program got them: the program's name first.
    public init(_ arguments: [String], usage: @escaping (String) -> Never) {
        self.arguments = arguments
        self.usage = usage
    }

    /// The next argument, nil after the last.
    public mutating func next() -> String? {
        index += 1
        return index < arguments.count ? arguments[index] : nil
    }

    /// The value of the option just read (the argument after it).
    public mutating func value() -> String {
        index += 1
        guard index < arguments.count else { usage("\(arguments[index - 1]) needs a value") }
        return arguments[index]
    }

    /// An integer value in `range`, else `usage` with `what`.
    public mutating func integer(in range: ClosedRange<Int>, _ what: String) -> Int {
        let option = arguments[index]
        guard let n = Int(value()), range.contains(n) else { usage("\(option) takes \(what)") }
        return n
    }

    /// `--frames N`: 1 … `AppOptions.maxFrames`.
    public mutating func frames() -> Int {
        integer(in: 1...AppOptions.maxFrames, "1…\(AppOptions.maxFrames)")
    }

    /// `--backend auto|kms|fbdev`.
    public mutating func backend() -> BoardConfig.Backend {
        switch value() {
        case "auto": return .auto
        case "kms": return .kms
        case "fbdev": return .fbdev
        default: usage("--backend takes auto, kms or fbdev")
        }
    }

    /// `--size WxH`: pixels, each 1 … `RasterLimits.maxDimension`.
    public mutating func size() -> (width: Int, height: Int) {
        guard let size = AppOptionReader.parseSize(value()) else {
            usage("--size takes WxH, each 1…\(RasterLimits.maxDimension)")
        }
        return size
    }

    /// Refuses the current argument as unknown (`-h`/`--help`: the usage line).
    public func unknown(_ argument: String) -> Never {
        if argument == "-h" || argument == "--help" { usage("help") }
        usage("unknown option \(argument)")
    }

    /// Refuses the command line with `message` (one line, then the usage
    /// line; exit status 2): for an app's own checks of what it read.
    public func refuse(_ message: String) -> Never { usage(message) }

    /// `WxH` with both in 1 … `RasterLimits.maxDimension`; nil otherwise.
    public static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              w > 0, h > 0, w <= RasterLimits.maxDimension, h <= RasterLimits.maxDimension else { return nil }
        return (w, h)
    }

    /// `X,Y`: whole pixels, each 0…65535; nil otherwise.
    public static func parsePoint(_ text: String) -> Point? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]),
              x >= 0, y >= 0, x <= 65_535, y <= 65_535 else { return nil }
        return Point(x: Double(x), y: Double(y))
    }
}

extension AppOptions {
    /// Reads the shell's options from `arguments`; `extra` gets every other
    /// option first (return true when it took it, reading its value from the
    /// reader). Refusals go to `usage`.
    static func parse(_ arguments: [String], usage: @escaping (String) -> Never,
                      extra: (String, inout AppOptionReader) -> Bool) -> AppOptions {
        var options = AppOptions()
        var r = AppOptionReader(arguments, usage: usage)
        while let a = r.next() {
            if extra(a, &r) { continue }
            switch a {
            case "--headless": options.headless = true
            case "--backend": options.backend = r.backend()
            case "--frames": options.frames = r.frames()
            case "--size": (options.width, options.height) = r.size()
            case "--out": options.outDirectory = r.value()
            case "--settings": options.settingsPath = r.value()
            case "--board": _ = r.value()   // read by BoardConfig.selected
            case "--tap":
                guard let p = AppOptionReader.parsePoint(r.value()) else { usage("--tap takes X,Y (pixels)") }
                options.inputSteps.append(.tap(p))
            case "--key":
                guard let code = KeyNames.code(r.value()) else {
                    usage("--key takes a key name (tab, enter, up, down, left, right, space, esc, backspace, a letter or digit) or an evdev code")
                }
                options.inputSteps.append(.key(code))
            default: r.unknown(a)
            }
        }
        return options
    }
}
