@testable import AppShell
import Foundation
import XCTest

/// The app shell's settings store (issue 23): values round-trip through
/// the file, bad files and keys are refused with a line naming them, and a
/// writer killed at random moments (settingsprobe, a real process, SIGKILL)
/// always leaves a complete file holding a state it committed, never a
/// torn or mixed one.
final class SettingsStoreTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "settings-\(getpid())-\(UInt32.random(in: 0 ..< .max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testValuesRoundTripThroughTheFile() throws {
        let path = directory + "/app.settings"
        let store = try SettingsStore(path: path)
        XCTAssertTrue(store.all.isEmpty, "an absent file is an empty store")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "opening does not create the file")
        try store.set(true, forKey: "eco-mode")
        try store.set(42, forKey: "brightness.percent")
        try store.set("two\nlines \\ and = and ü", forKey: "note_1")
        try store.set("x", forKey: "gone")
        try store.set(nil, forKey: "gone")
        try store.set(false, forKey: "eco-mode")
        let again = try SettingsStore(path: path)
        XCTAssertEqual(again.bool(forKey: "eco-mode"), false)
        XCTAssertEqual(again.int(forKey: "brightness.percent"), 42)
        XCTAssertEqual(again.string(forKey: "note_1"), "two\nlines \\ and = and ü")
        XCTAssertNil(again.string(forKey: "gone"))
        XCTAssertEqual(again.all.map(\.key), ["eco-mode", "brightness.percent", "note_1"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".tmp"), "no temporary file left behind")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text, "fbruntime-settings 1\neco-mode=false\nbrightness.percent=42\nnote_1=two\\nlines \\\\ and = and ü\nend 3\n")
    }

    func testBadKeysAndIncompleteFilesAreRefusedWithTheirName() throws {
        let path = directory + "/app.settings"
        let store = try SettingsStore(path: path)
        for key in ["", "has space", "slash/", "é", String(repeating: "k", count: 65)] {
            XCTAssertThrowsError(try store.set("v", forKey: key)) { error in
                XCTAssertTrue("\(error)".contains("invalid settings key"), "\(error)")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "a refused set writes nothing")
        try store.set(7, forKey: "level")
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        // Every proper prefix of a good file is refused (a torn file can
        // never be read as settings), and so are files that are not ours.
        for n in 0..<good.count {
            try good.prefix(n).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try SettingsStore(path: path), "prefix of \(n) bytes") { error in
                XCTAssertTrue("\(error)".hasPrefix(path + ": not a complete settings file"), "\(error)")
            }
        }
        for text in ["level=7\nend 1\n", "fbruntime-settings 1\nlevel=7\nend 2\n", "fbruntime-settings 1\nlevel 7\nend 1\n",
                     "fbruntime-settings 1\nlevel=7\\q\nend 1\n"] {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            XCTAssertThrowsError(try SettingsStore(path: path), text)
        }
        // An unreadable place: the error names the file and the cause.
        XCTAssertThrowsError(try SettingsStore(path: directory)) { error in
            XCTAssertTrue("\(error)".hasPrefix(directory + ": "), "\(error)")
        }
        // A store whose file cannot be written keeps its values.
        let lost = try SettingsStore(path: directory + "/no-such-dir/app.settings")
        XCTAssertThrowsError(try lost.set(1, forKey: "a")) { error in
            XCTAssertTrue("\(error)".contains("cannot create"), "\(error)")
        }
        XCTAssertNil(lost.int(forKey: "a"))
    }

    /// settingsprobe rewrites the file setting by setting, each value 1 KiB
    /// of "a" or of "b", changing every key from one letter to the other in
    /// key order. Killed at a random moment, it leaves a file that reads,
    /// whose values are whole, and whose letters are a committed state: one
    /// letter up to some key, the other after it.
    func testAWriterKilledAtRandomLeavesTheOldOrTheNewSettings() throws {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("settingsprobe").path) {
            dir = dir.deletingLastPathComponent()
        }
        let probe = dir.appendingPathComponent("settingsprobe")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: probe.path), "no settingsprobe next to the tests")
        let path = directory + "/probe.settings"
        var killedMidWrite = 0, reads = 0
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            let process = Process()
            process.executableURL = probe
            process.arguments = [path]
            try process.run()
            usleep(UInt32.random(in: 3_000 ... 40_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "round \(round): the writer ran until killed")
            if FileManager.default.fileExists(atPath: path + ".tmp") { killedMidWrite += 1 }
            guard FileManager.default.fileExists(atPath: path) else { continue }   // killed before its first rename
            let store = try SettingsStore(path: path)
            reads += 1
            let values = store.all
            XCTAssertFalse(values.isEmpty, "round \(round)")
            var letters: [Character] = []
            for (i, entry) in values.enumerated() {
                XCTAssertEqual(entry.key, "key\(i)", "round \(round)")
                let letter = entry.value.first ?? "?"
                XCTAssertTrue(entry.value.count == 1024 && entry.value.allSatisfy { $0 == letter }, "round \(round): \(entry.key) torn")
                letters.append(letter)
            }
            // At most one change of letter along the keys.
            let changes = zip(letters, letters.dropFirst()).filter { $0 != $1 }.count
            XCTAssertLessThanOrEqual(changes, 1, "round \(round): \(String(letters))")
        }
        XCTAssertGreaterThan(reads, 30, "the file was there to read")
        XCTAssertGreaterThan(killedMidWrite, 0, "some kills fell inside a write (a temporary file was left)")
    }
}
