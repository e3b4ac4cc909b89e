import FBRuntime

/// A key pressed or released on a keyboard, keypad or a rotary encoder's
/// push button, as the kernel names it: a Linux evdev code
/// (`linux/input-event-codes.h`: `KEY_TAB` 15, `KEY_ENTER` 28, `KEY_UP`
/// 103…), with what it typed through the board's keymap (`text`,
/// `keysym`: the board file's `keyboard-layout`, through xkbcommon).
/// Auto-repeat arrives as further presses. Controls' `EvdevKeyMapper`
/// turns these into focus and text keys; an app may read them directly.
public struct KeyEvent: Equatable, Sendable {
    /// The evdev key code: the key's place on the keyboard, whatever its
    /// label (a German keyboard's Z is KEY_Y, 21).
    public let code: UInt32
    /// True for a press (and auto-repeat), false for a release.
    public let pressed: Bool
    /// When it happened, media time (seconds, the monotonic clock).
    public let timestamp: MediaTime
    /// What the press typed through the keymap, UTF-8 ("z" for KEY_Y on a
    /// German layout, "é" at the end of a dead-key sequence; "" for a
    /// release, a modifier or a dead key; control characters for Return,
    /// Tab, BackSpace); nil when no keymap translated it (no xkb data on
    /// the board: `EvdevKeyMapper` then types a US layout's letters).
    public let text: String?
    /// The key's keysym through the keymap (`KeyboardInput.Keysym`: 0x7a
    /// `z`, 0xfe51 `dead_acute`); 0 when none.
    public let keysym: UInt32

    public init(code: UInt32, pressed: Bool, timestamp: MediaTime, text: String? = nil, keysym: UInt32 = 0) {
        self.code = code
        self.pressed = pressed
        self.timestamp = timestamp
        self.text = text
        self.keysym = keysym
    }
}

/// A wheel turned: a mouse wheel, or a rotary encoder the kernel reports
/// as one. In detents (a click is 1; high-resolution wheels send
/// fractions); positive is down (`vertical`) and right (`horizontal`), as
/// libinput, in the device's terms (not turned with the display).
public struct WheelEvent: Equatable, Sendable {
    public let horizontal: Double
    public let vertical: Double
    /// When it happened, media time (seconds, the monotonic clock).
    public let timestamp: MediaTime

    public init(horizontal: Double, vertical: Double, timestamp: MediaTime) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.timestamp = timestamp
    }
}

/// What the app thread gets from one wait for input: touches (UI points),
/// keys and wheel turns, each in the order they came.
struct AppInputBatch {
    var touches: [TouchEvent] = []
    var keys: [KeyEvent] = []
    var wheels: [WheelEvent] = []
}

/// Evdev key codes by the names `--key` takes (`tab`, `enter`, `down`,
/// `a`, `7`…): the keys an appliance's keypad and a US keyboard's letters
/// and digits have. A number of two or more digits is an evdev code.
enum KeyNames {
    static let named: [(String, UInt32)] = [
        ("esc", 1), ("backspace", 14), ("tab", 15), ("enter", 28), ("leftshift", 42), ("rightshift", 54),
        ("space", 57), ("up", 103), ("left", 105), ("right", 106), ("down", 108), ("kpenter", 96),
    ]
    /// Row by row, as the codes run on a US keyboard.
    static let rows: [(String, UInt32)] = [("1234567890", 2), ("qwertyuiop", 16), ("asdfghjkl", 30), ("zxcvbnm", 44)]

    /// The code for `name` (case-insensitive; a single digit is that
    /// digit's key), or a decimal code of two or more digits (1…767); nil
    /// for anything else.
    static func code(_ name: String) -> UInt32? {
        // ASCII only, byte by byte (the board build, Embedded Swift, has no
        // Unicode tables for case mapping or characters).
        var bytes = Array(name.utf8)
        for k in bytes.indices where bytes[k] >= 0x41 && bytes[k] <= 0x5A { bytes[k] += 0x20 }
        for (n, code) in named where Array(n.utf8) == bytes { return code }
        if bytes.count > 1 {
            var n: UInt32 = 0
            for b in bytes {
                guard b >= 0x30 && b <= 0x39, n <= 767 else { return nil }
                n = n * 10 + UInt32(b - 0x30)
            }
            return n >= 1 && n <= 767 ? n : nil
        }
        guard let byte = bytes.first else { return nil }
        for (row, first) in rows {
            var code = first
            for b in row.utf8 {
                if b == byte { return code }
                code += 1
            }
        }
        return nil
    }
}

/// One scripted input of a headless run (`--tap`, `--key`).
public enum AppInputStep: Equatable, Sendable {
    /// A one-finger tap at a point, panel pixels.
    case tap(Point)
    /// A key pressed and released (evdev code).
    case key(UInt32)
}

/// The `--tap` and `--key` steps of a headless run, in the order given:
/// step k happens at frame 1 + 30k (a finger down or a key pressed) and
/// ends at the frame after (the finger up, the key released), so each
/// step's animations have half a second before the next.
struct InputScript {
    let steps: [AppInputStep]
    static let framesBetweenSteps = 30

    init(_ steps: [AppInputStep]) { self.steps = steps }

    /// The touches and keys due at the start of `frame`, at `time`.
    func events(atFrame frame: Int, time: MediaTime) -> AppInputBatch {
        var batch = AppInputBatch()
        guard frame >= 1 else { return batch }
        let k = (frame - 1) / InputScript.framesBetweenSteps, step = (frame - 1) % InputScript.framesBetweenSteps
        guard k < steps.count, step <= 1 else { return batch }
        switch steps[k] {
        case let .tap(p):
            batch.touches.append(TouchEvent(id: Int32(k), phase: step == 0 ? .began : .ended, location: p, timestamp: time))
        case let .key(code):
            batch.keys.append(KeyEvent(code: code, pressed: step == 0, timestamp: time))
        }
        return batch
    }
}
