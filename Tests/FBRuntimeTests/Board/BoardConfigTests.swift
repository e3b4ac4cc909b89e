import TestSupport
import XCTest
@testable import FBRuntime

final class BoardConfigTests: XCTestCase {
    static let boardDirectory = repositoryRoot.appendingPathComponent("board-configs").path

    func parse(_ text: String, file: String = "test.conf") throws -> BoardConfig {
        try BoardConfig.parse(Array(text.utf8), file: file)
    }

    func assertError(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: line) { error in
            XCTAssertEqual((error as? BoardConfigError)?.description, expected, file: file, line: line)
        }
    }

    func testEveryShippedBoardParses() throws {
        let names = ["qemu-x86_64", "qemu-virt-arm64", "raspberry-pi-4", "raspberry-pi-5", "beaglebone-black", "imx8mm-evk", "qemu-vkms"]
        for name in names {
            let config = try BoardConfig.load(path: "\(Self.boardDirectory)/\(name).conf")
            XCTAssertEqual(config.name, name)
        }
        let bbb = try BoardConfig.load(path: "\(Self.boardDirectory)/beaglebone-black.conf")
        XCTAssertEqual(bbb.pixelFormat, .rgb565)
        XCTAssertEqual(bbb.drmDevice, .path("/dev/dri/card0"))
        XCTAssertEqual(bbb.mode, .size(width: 800, height: 480, refreshMillihertz: 60_000))
        XCTAssertEqual(bbb.touchDevice, "ti-tsc")
        let pi5 = try BoardConfig.load(path: "\(Self.boardDirectory)/raspberry-pi-5.conf")
        XCTAssertEqual(pi5.rotation, 90)
        XCTAssertEqual(pi5.connector, "DSI-1")
        XCTAssertEqual(pi5.calibration, [0, 1, 0, -1, 0, 1])
        let imx = try BoardConfig.load(path: "\(Self.boardDirectory)/imx8mm-evk.conf")
        XCTAssertEqual(imx.buffers, 3)
        let qemu = try BoardConfig.load(path: "\(Self.boardDirectory)/qemu-x86_64.conf")
        XCTAssertEqual(qemu.drmDevice, .auto)
        XCTAssertNil(qemu.connector)
        XCTAssertEqual(qemu.mode, .preferred)
        XCTAssertNil(qemu.touchDevice)
    }

    func testDefaultsCommentsAndSpacing() throws {
        let config = try parse("""
            # a comment

              name=tiny   # trailing comment
            mode = 1920x1080@59.94\r
            calibration =  1.5 -0.25 +2 0 1 -0.5
            """)
        XCTAssertEqual(config.name, "tiny")
        XCTAssertEqual(config.mode, .size(width: 1920, height: 1080, refreshMillihertz: 59_940))
        XCTAssertEqual(config.calibration, [1.5, -0.25, 2, 0, 1, -0.5])
        XCTAssertEqual(config.drmDevice, .auto)
        XCTAssertEqual(config.pixelFormat, .xrgb8888)
        XCTAssertEqual(config.buffers, 2)
        XCTAssertEqual(config.rotation, 0)
        XCTAssertEqual(config.kmsAPI, .auto)
        XCTAssertEqual(try parse("name = a\nkms-api = legacy").kmsAPI, .legacy)
        XCTAssertEqual(try parse("name = a\nkms-api = atomic").kmsAPI, .atomic)
        XCTAssertEqual(try parse("name = a\nmode = 800x480").mode, .size(width: 800, height: 480, refreshMillihertz: nil))
    }

    /// Panel pixels per point: 1 without the key.
    func testScale() throws {
        XCTAssertEqual(try parse("name = a").scale, 1)
        XCTAssertEqual(try parse("name = a\nscale = 1.5").scale, 1.5)
    }

    /// Paint threads: `auto` (nil: the processors online, at most 4)
    /// unless set to 1…8.
    func testPaintThreads() throws {
        XCTAssertNil(try parse("name = a").paintThreads)
        XCTAssertNil(try parse("name = a\npaint-threads = auto").paintThreads)
        XCTAssertEqual(try parse("name = a\npaint-threads = 2").paintThreads, 2)
        XCTAssertEqual(try parse("name = a\npaint-threads = 1").resolvedPaintThreads, 1)
        let auto = try parse("name = a").resolvedPaintThreads
        XCTAssertTrue(auto >= 1 && auto <= 4 && auto <= System.onlineProcessors)
        assertError("name = a\npaint-threads = 0", "test.conf:2: paint-threads '0': auto, or 1 to 8")
        assertError("name = a\npaint-threads = 9", "test.conf:2: paint-threads '9': auto, or 1 to 8")
    }

    /// The hardware keyboard: US with the full compose table unless the
    /// board says otherwise; names are checked for their characters only
    /// (whether the xkb data has them is KeyboardInput's to find).
    func testKeyboard() throws {
        let plain = try parse("name = a")
        XCTAssertEqual(plain.keyboardLayout, "us")
        XCTAssertEqual(plain.keyboardVariant, "")
        XCTAssertEqual(plain.keyboardOptions, "")
        XCTAssertEqual(plain.keyboardLocale, "en_US.UTF-8")
        let german = try parse("""
            name = a
            keyboard-layout = de,us
            keyboard-variant = nodeadkeys
            keyboard-options = compose:ralt,grp:alt_shift_toggle  # two options
            keyboard-locale = de_DE.UTF-8
            """)
        XCTAssertEqual(german.keyboardLayout, "de,us")
        XCTAssertEqual(german.keyboardVariant, "nodeadkeys")
        XCTAssertEqual(german.keyboardOptions, "compose:ralt,grp:alt_shift_toggle")
        XCTAssertEqual(german.keyboardLocale, "de_DE.UTF-8")
        XCTAssertEqual(try parse("name = a\nkeyboard-locale = none").keyboardLocale, "")
        assertError("name = a\nkeyboard-layout = d e", "test.conf:2: keyboard-layout 'd e': xkb names use letters, digits and - _ , : . @ ( ) +")
        assertError("name = a\nkeyboard-options = a;b", "test.conf:2: keyboard-options 'a;b': xkb names use letters, digits and - _ , : . @ ( ) +")
        assertError("name = a\nkeyboard-variant =", "test.conf:2: 'keyboard-variant' has no value")
    }

    func testEachErrorNamesTheFileAndLine() {
        assertError("name = a\ncolour = red", "test.conf:2: unknown key 'colour' (known: name, backend, drm-device, fb-device, connector, mode, pixel-format, rotation, buffers, touch-device, calibration, kms-api, scale, keyboard-layout, keyboard-variant, keyboard-options, keyboard-locale, idle-dim-after, idle-off-after, idle-dim-brightness, backlight, paint-threads)")
        assertError("name = a\nkms-api = fast", "test.conf:2: kms-api 'fast': atomic, legacy or auto")
        assertError("name = a\nname = b", "test.conf:2: 'name' is set twice")
        assertError("name = a\n\nmode", "test.conf:3: expected 'key = value', got 'mode'")
        assertError("name = a\nconnector =  # nothing", "test.conf:2: 'connector' has no value")
        assertError("name = a b", "test.conf:1: name 'a b': use letters, digits, '-' and '_'")
        assertError("name = a\ndrm-device = card0", "test.conf:2: drm-device 'card0': an absolute path or 'auto'")
        assertError("name = a\nmode = 800x", "test.conf:2: mode '800x': 'preferred' or WIDTHxHEIGHT[@HZ], e.g. 800x480@60")
        assertError("name = a\nmode = 800x480@0", "test.conf:2: mode '800x480@0': 'preferred' or WIDTHxHEIGHT[@HZ], e.g. 800x480@60")
        assertError("name = a\nmode = 0x480", "test.conf:2: mode '0x480': 'preferred' or WIDTHxHEIGHT[@HZ], e.g. 800x480@60")
        assertError("name = a\npixel-format = rgb888", "test.conf:2: pixel-format 'rgb888': xrgb8888 or rgb565")
        assertError("name = a\nrotation = 45", "test.conf:2: rotation '45': 0, 90, 180 or 270")
        assertError("name = a\nbuffers = 4", "test.conf:2: buffers '4': 2 or 3")
        assertError("name = a\nscale = 0.25", "test.conf:2: scale '0.25': panel pixels per point, a number from 0.5 to 8 (1, 1.5, 2)")
        assertError("name = a\nscale = two", "test.conf:2: scale 'two': panel pixels per point, a number from 0.5 to 8 (1, 1.5, 2)")
        assertError("name = a\ncalibration = 1 0 0 0 1", "test.conf:2: calibration: 6 numbers (a b c d e f), got 5")
        assertError("name = a\ncalibration = 1 0 0 0 1 x", "test.conf:2: calibration: 'x' is not a number")
        assertError("name = a\ncalibration = 1 0 0 0 1 1e3", "test.conf:2: calibration: '1e3' is not a number")
        assertError("# nothing but a comment\nmode = preferred", "test.conf: no 'name' line")
    }

    func testIdleBlankingKeys() throws {
        let none = try parse("name = a\n")
        XCTAssertNil(none.idleTimeouts, "no blanking unless asked for")
        XCTAssertEqual(none.backlight, .auto)
        let c = try parse("name = a\nidle-dim-after = 60\nidle-off-after = 120.5\nidle-dim-brightness = 15%\nbacklight = 10-0045\n")
        XCTAssertEqual(c.idleTimeouts, IdleTimeouts(dimAfterNanoseconds: 60_000_000_000, offAfterNanoseconds: 120_500_000_000, dimPercent: 15))
        XCTAssertEqual(c.backlight, .named("10-0045"))
        let offOnly = try parse("name = a\nidle-dim-after = never\nidle-off-after = 0.5\nbacklight = none\n")
        XCTAssertEqual(offOnly.idleTimeouts, IdleTimeouts(dimAfterNanoseconds: nil, offAfterNanoseconds: 500_000_000))
        XCTAssertEqual(offOnly.backlight, .none)
        XCTAssertEqual(try parse("name = a\nbacklight = /tmp/bl/fake\n").backlight, .directory("/tmp/bl/fake"))
        assertError("name = a\nidle-dim-after = 0\n",
                    "test.conf:2: idle-dim-after '0': seconds without input, more than 0 and at most 86400 (0.5, 60), or 'never'")
        assertError("name = a\nidle-dim-brightness = 0\n",
                    "test.conf:2: idle-dim-brightness '0': percent of the backlight's maximum, 1 to 100")
        assertError("name = a\nidle-off-after = 30\nidle-dim-after = 60\n",
                    "test.conf:2: idle-off-after (30000 ms) must be later than idle-dim-after (60000 ms): both count from the last input")
        assertError("name = a\nbacklight = a b\n",
                    "test.conf:2: backlight 'a b': auto, none, a device name under /sys/class/backlight or an absolute path")
    }

    func testBackendAndFramebufferDevice() throws {
        let defaults = try parse("name = a")
        XCTAssertEqual(defaults.backend, .auto)
        XCTAssertEqual(defaults.fbDevice, "/dev/fb0")
        let fbdev = try parse("name = old-board\nbackend = fbdev\nfb-device = /dev/fb1\nrotation = 270")
        XCTAssertEqual(fbdev.backend, .fbdev)
        XCTAssertEqual(fbdev.fbDevice, "/dev/fb1")
        XCTAssertEqual(fbdev.rotation, 270)
        XCTAssertEqual(try parse("name = a\nbackend = kms").backend, .kms)
        XCTAssertEqual(try parse("name = a\nbackend = auto").backend, .auto)
        assertError("name = a\nbackend = x11", "test.conf:2: backend 'x11': auto, kms or fbdev")
        assertError("name = a\nfb-device = fb0", "test.conf:2: fb-device 'fb0': an absolute path such as /dev/fb0")
        assertError("name = a\nbackend = kms\nbackend = fbdev", "test.conf:3: 'backend' is set twice")
    }

    func testMissingFileAndSelection() throws {
        XCTAssertThrowsError(try BoardConfig.load(path: "/nonexistent/board.conf")) { error in
            XCTAssertTrue((error as? BoardConfigError)?.description.hasPrefix("/nonexistent/board.conf: open") ?? false, "\(error)")
        }
        let byName = try BoardConfig.selected(arguments: ["fbdemo", "--board", "\(Self.boardDirectory)/imx8mm-evk.conf"])
        XCTAssertEqual(byName?.name, "imx8mm-evk")
        XCTAssertThrowsError(try BoardConfig.selected(arguments: ["fbdemo", "--board", "no-such-board"]))
    }

    func testDecimalParser() {
        XCTAssertEqual(BoardConfig.parseDecimal("0"), 0)
        XCTAssertEqual(BoardConfig.parseDecimal("-12.5"), -12.5)
        XCTAssertEqual(BoardConfig.parseDecimal(".5"), 0.5)
        XCTAssertNil(BoardConfig.parseDecimal("."))
        XCTAssertNil(BoardConfig.parseDecimal("1.2.3"))
        XCTAssertNil(BoardConfig.parseDecimal(""))
        XCTAssertNil(BoardConfig.parseDecimal("-"))
    }
}
