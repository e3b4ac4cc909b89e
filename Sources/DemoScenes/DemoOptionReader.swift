import Raster

/// Reads a demo program's command line (fbcheck in the VM and on the board, fbsim on the
/// desktop) one argument at a time, with the value parsers both programs
/// share, so an option spelt the same means the same in both and is
/// refused with the same message.
///
/// Each program keeps its own `switch` over the options it knows; this
/// type only walks the arguments. Every refusal goes to `usage`, which
/// prints the message with the program's usage line and exits.
///
///     var r = DemoOptionReader(arguments, usage: usage)
///     while let option = r.next() {
///         switch option {
///         case "--frames": options.frames = r.frames()
///         ...
///         default: options.scene = r.sceneOrUnknown(option)
///         }
///     }
public struct DemoOptionReader {
    /// The most frames `--frames` takes.
    public static let maxFrames = 100_000

    private let arguments: [String]
    private var index = 0
    private let usage: (String) -> Never

    /// `arguments` as the program got them: the program's name first.
    public init(_ arguments: [String], usage: @escaping (String) -> Never) {
        self.arguments = arguments
        self.usage = usage
    }

    /// The next argument, `nil` after the last.
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

    /// `--frames N`: 1 … `maxFrames`.
    public mutating func frames() -> Int {
        guard let n = Int(value()), n > 0, n <= DemoOptionReader.maxFrames else {
            usage("--frames takes 1…\(DemoOptionReader.maxFrames)")
        }
        return n
    }

    /// `--size WxH`: pixels, each 1 … `RasterLimits.maxDimension`.
    public mutating func size() -> (width: Int, height: Int) {
        guard let size = DemoOptionReader.parseSize(value()) else {
            usage("--size takes WxH, each 1…\(RasterLimits.maxDimension)")
        }
        return size
    }

    /// `WxH` with both in 1 … `RasterLimits.maxDimension`; `nil` otherwise.
    public static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              w > 0, h > 0, w <= RasterLimits.maxDimension, h <= RasterLimits.maxDimension else { return nil }
        return (w, h)
    }

    /// `--hud` / `--no-hud`: whether the HUD was asked for (`DemoChrome`),
    /// `nil` for any other option.
    public static func hudChoice(_ option: String) -> Bool? {
        option == "--hud" ? true : option == "--no-hud" ? false : nil
    }

    /// An argument no option took: a scene's name, or `usage` for an
    /// unknown option (`-h` and `--help` ask for the usage line).
    public func sceneOrUnknown(_ argument: String) -> String {
        if argument == "-h" || argument == "--help" { usage("help") }
        if argument.hasPrefix("-") { usage("unknown option \(argument)") }
        return argument
    }
}
