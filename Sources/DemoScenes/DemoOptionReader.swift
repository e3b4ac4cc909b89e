import AppShell

/// Reads a demo program's command line (fbcheck in the VM and on the board,
/// fbsim on the desktop) one argument at a time: the app shell's reader,
/// so an option spelt the same means the same in the demos and in every
/// app and is refused with the same message, plus what only the demo
/// programs take (a scene's name, `--hud`).
///
/// Each program keeps its own `switch` over the options it knows; the
/// reader only walks the arguments. Every refusal goes to `usage`, which
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
public typealias DemoOptionReader = AppOptionReader

extension AppOptionReader {
    /// `--hud` / `--no-hud`: whether the HUD was asked for (`DemoChrome`),
    /// `nil` for any other option.
    public static func hudChoice(_ option: String) -> Bool? {
        option == "--hud" ? true : option == "--no-hud" ? false : nil
    }

    /// An argument no option took: a scene's name, or `usage` for an
    /// unknown option (`-h` and `--help` ask for the usage line).
    public func sceneOrUnknown(_ argument: String) -> String {
        if argument.hasPrefix("-") { unknown(argument) }
        return argument
    }
}
