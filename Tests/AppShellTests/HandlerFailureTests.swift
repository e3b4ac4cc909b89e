import Foundation
import XCTest

/// What the shell does when an app's handler fails, run as a real process
/// (apptrapprobe): a handler that throws is logged with its name and the
/// app goes on; one that traps ends the process with a line naming it and
/// the signal's status.
final class HandlerFailureTests: XCTestCase {
    private func probe() throws -> URL {
        // The probe is built next to the test bundle.
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("apptrapprobe").path) {
            dir = dir.deletingLastPathComponent()
        }
        let url = dir.appendingPathComponent("apptrapprobe")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: url.path), "no apptrapprobe next to the tests")
        return url
    }

    private func run(_ arguments: [String]) throws -> (output: String, process: Process) {
        let process = Process()
        process.executableURL = try probe()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process)
    }

    func testAThrowingHandlerIsLoggedAndTheAppGoesOn() throws {
        let out = NSTemporaryDirectory() + "apptrapprobe-throw"
        let (output, process) = try run(["--headless", "--frames", "40", "--size", "200x100", "--out", out,
                                         "--tap", "50,50", "--tap", "50,50"])
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssertEqual(output.components(separatedBy: "trapprobe: refuse failed: no water").count - 1, 2, output)
        XCTAssertTrue(output.contains("wrote 40 frames"), output)
    }

    func testATrappingHandlerIsNamedBeforeTheProcessEnds() throws {
        let out = NSTemporaryDirectory() + "apptrapprobe-trap"
        let (output, process) = try run(["--headless", "--frames", "40", "--size", "200x100", "--out", out, "--tap", "150,50"])
        XCTAssertTrue(output.contains("trapprobe: about to trap"), output)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, output)
        XCTAssertTrue(output.contains("trapprobe: handler 'explode' crashed (signal "), output)
        XCTAssertFalse(output.contains("wrote 40 frames"), output)
    }

    /// `--key` and `--tap` play in the order given, a step per 30 frames:
    /// each key reaches every key handler pressed, then released the frame
    /// after; a key handler that throws is logged and the next still runs.
    func testScriptedKeysReachTheKeyHandlersInOrder() throws {
        let out = NSTemporaryDirectory() + "apptrapprobe-keys"
        let (output, process) = try run(["--headless", "--frames", "100", "--size", "200x100", "--out", out,
                                         "--key", "tab", "--tap", "50,50", "--key", "backspace", "--key", "28"])
        XCTAssertEqual(process.terminationStatus, 0, output)
        let lines = output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("trapprobe: key") || $0.contains("failed") }
        XCTAssertEqual(lines, ["trapprobe: key 15 down", "trapprobe: key 15 up",
                               "trapprobe: refuse failed: no water",
                               "trapprobe: key 14 down", "trapprobe: backspace failed: nothing to delete", "trapprobe: key 14 up",
                               "trapprobe: key 28 down", "trapprobe: key 28 up"], output)
    }

    func testAnUnknownKeyNameIsRefused() throws {
        let (output, process) = try run(["--headless", "--key", "hyper"])
        XCTAssertEqual(process.terminationStatus, 2, output)
        XCTAssertTrue(output.contains("--key takes a key name"), output)
    }
}
