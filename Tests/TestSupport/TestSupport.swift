// Host-only helpers shared by the test targets: guarded buffers, golden
// images, paths for test output. Foundation is fine here; this target is
// never part of the board build.
import Foundation
import ImageIO
import Raster

/// The repository root, found from this file's location.
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Where tests write images for people to look at (ignored by git).
public let testOutputDirectory: URL = {
    let url = repositoryRoot.appendingPathComponent("out/tests")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// A buffer of `count` elements whose last element ends exactly at a
/// `PROT_NONE` guard page, so a kernel that reads or writes one element past
/// the end faults at once (pixman's `fence_malloc`).
public final class GuardedBuffer<Element> {
    public let pointer: UnsafeMutablePointer<Element>
    public let count: Int
    private let mapping: UnsafeMutableRawPointer
    private let mappingLength: Int

    public init(count: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = count * MemoryLayout<Element>.stride
        let dataPages = (bytes + page - 1) / page
        mappingLength = (dataPages + 1) * page
        let m = mmap(nil, mappingLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        precondition(m != MAP_FAILED, "GuardedBuffer: mmap failed")
        mapping = m!
        let guardPage = mapping + dataPages * page
        precondition(mprotect(guardPage, page, PROT_NONE) == 0)
        pointer = (guardPage - bytes).bindMemory(to: Element.self, capacity: count)
        self.count = count
    }

    deinit { munmap(mapping, mappingLength) }
}

/// The result of comparing an image with its golden.
public struct GoldenResult {
    public let passed: Bool
    public let message: String
}

/// Compares `view` with `Tests/Goldens/<name>.png`. A channel may differ by at
/// most `tolerance` (0–255). On failure it writes the actual image and an
/// error image (differing pixels red, the rest dimmed) to `out/tests/` and
/// names the first differing pixel. With `FBR_UPDATE_GOLDENS=1` in the
/// environment it (re)writes the golden instead and passes.
public func compareWithGolden(_ view: PixelView<ARGB8888>, name: String, tolerance: UInt32 = 0) -> GoldenResult {
    let goldenURL = repositoryRoot.appendingPathComponent("Tests/Goldens/\(name).png")
    if ProcessInfo.processInfo.environment["FBR_UPDATE_GOLDENS"] == "1" {
        try? FileManager.default.createDirectory(at: goldenURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        do { try PNG.write(view, to: goldenURL.path) } catch { return GoldenResult(passed: false, message: "\(error)") }
        return GoldenResult(passed: true, message: "golden written")
    }
    let actualURL = testOutputDirectory.appendingPathComponent("\(name).actual.png")
    let golden: Surface<ARGB8888>
    do { golden = try PNG.read(from: goldenURL.path) } catch {
        try? PNG.write(view, to: actualURL.path)
        return GoldenResult(passed: false, message: "no golden \(goldenURL.path) (\(error)); actual written to \(actualURL.path); run with FBR_UPDATE_GOLDENS=1 to create it")
    }
    guard golden.width == view.width, golden.height == view.height else {
        try? PNG.write(view, to: actualURL.path)
        return GoldenResult(passed: false, message: "size \(view.width)×\(view.height) differs from golden \(golden.width)×\(golden.height)")
    }
    guard let errorImage = Surface<ARGB8888>(width: view.width, height: view.height) else {
        return GoldenResult(passed: false, message: "cannot allocate error image")
    }
    var first: (Int, Int, UInt32, UInt32)?
    var differing = 0
    for y in 0..<view.height {
        for x in 0..<view.width {
            let a = view[x, y], g = golden.view[x, y]
            var worst: UInt32 = 0
            for shift in stride(from: 0 as UInt32, through: 24, by: 8) {
                let ca = (a >> shift) & 0xFF, cg = (g >> shift) & 0xFF
                worst = max(worst, ca > cg ? ca - cg : cg - ca)
            }
            if worst > tolerance {
                differing += 1
                if first == nil { first = (x, y, a, g) }
                errorImage.view[x, y] = 0xFFFF_0000
            } else {
                errorImage.view[x, y] = 0xFF00_0000 | ((a >> 2) & 0x003F_3F3F)
            }
        }
    }
    guard let (x, y, a, g) = first else { return GoldenResult(passed: true, message: "matches") }
    let errorURL = testOutputDirectory.appendingPathComponent("\(name).error.png")
    try? PNG.write(view, to: actualURL.path)
    try? PNG.write(errorImage.view, to: errorURL.path)
    return GoldenResult(passed: false, message: "\(name): \(differing) pixels differ by more than \(tolerance); first at (\(x), \(y)): actual 0x\(String(a, radix: 16)) golden 0x\(String(g, radix: 16)); see \(actualURL.path) and \(errorURL.path)")
}

/// Writes `actual` and `expected` to `out/tests/<name>.actual.png` and
/// `<name>.expected.png` for a person to compare after a failed check
/// between two renders (no golden file involved).
public func writeFailureImages(_ actual: PixelView<ARGB8888>, _ expected: PixelView<ARGB8888>, name: String) {
    try? PNG.write(actual, to: testOutputDirectory.appendingPathComponent("\(name).actual.png").path)
    try? PNG.write(expected, to: testOutputDirectory.appendingPathComponent("\(name).expected.png").path)
}
