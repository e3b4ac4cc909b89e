// libFuzzer targets for Raster and ImageIO, built with
// `-sanitize=fuzzer,address` by scripts/fuzz (host only). One binary, the
// target chosen by the FBR_FUZZ_TARGET
// environment variable, so each target keeps its own corpus.
//
//   path: path commands and coordinates from raw bit patterns (NaN, ±inf,
//         ±1e9 and subnormals included), random transforms, fill rules,
//         clips and masks, then a fill into A8 and ARGB and a stroke with a
//         random style (dashes of zeros, negative widths…).
//   png:  the bytes as a PNG file through libpng and ImageIO.PNG.read.
//   jpeg: the bytes through ImageIO.ImageFile (PNG or JPEG by signature),
//         fitted and full size (FuzzJPEG.swift).
import CPosix
import FuzzSupport
import ImageIO
import Raster

nonisolated(unsafe) let rasterizer = PathRasterizer()   // libFuzzer calls from one thread
nonisolated(unsafe) let mask = Surface<A8>(width: 67, height: 45)!
nonisolated(unsafe) let canvasSurface = Surface<ARGB8888>(width: 67, height: 45)!
nonisolated(unsafe) let coverageMask = Surface<A8>(width: 67, height: 45)!

func fuzzPath(_ r: inout ByteReader) {
    var path = Path()
    var commands = 0
    while !r.exhausted && commands < 64 {
        commands += 1
        let p = PathPoint(x: r.coordinate(), y: r.coordinate())
        switch r.byte() % 8 {
        case 0, 1: path.move(to: p)
        case 2, 3: path.line(to: p)
        case 4: path.quad(to: p, control: PathPoint(x: r.coordinate(), y: r.coordinate()))
        case 5: path.cubic(to: p, control1: PathPoint(x: r.coordinate(), y: r.coordinate()),
                           control2: PathPoint(x: r.coordinate(), y: r.coordinate()))
        case 6: path.close()
        default:
            switch r.byte() % 3 {
            case 0: path.addEllipse(p.x, p.y, r.coordinate(), r.coordinate())
            case 1: path.append(Path(roundedRect: p.x, p.y, r.coordinate(), r.coordinate(), radii: CornerRadii(r.coordinate())))
            default: path.append(Path(circleCenter: p, radius: r.coordinate()))
            }
        }
    }
    let transform = r.byte() % 2 == 0 ? AffineTransform.identity
        : AffineTransform(a: r.coordinate(), b: r.coordinate(), c: r.coordinate(), d: r.coordinate(), tx: r.coordinate(), ty: r.coordinate())
    let rule: FillRule = r.byte() % 2 == 0 ? .nonZero : .evenOdd
    let clip = IntRect(x: Int(Int8(bitPattern: r.byte())), y: Int(Int8(bitPattern: r.byte())),
                       width: Int(r.byte()), height: Int(r.byte()))
    rasterizer.tolerance = r.byte() % 4 == 0 ? r.coordinate() : FlattenLimits.defaultTolerance
    rasterizer.fill(path, transform: transform, rule: rule, clip: clip, into: mask.view)
    rasterizer.fill(path, transform: transform, rule: rule, clip: clip, mask: r.byte() % 2 == 0 ? coverageMask.view : nil) { y, x, cov, n in
        precondition(n > 0 && y >= clip.y && y < clip.maxY && x >= clip.x && x + n <= clip.maxX, "span outside the clip")
        _ = cov[n - 1]
    }
    var canvas = Canvas(canvasSurface.view, family: r.byte() % 2 == 0 ? .simd : .reference)
    canvas.clip(to: clip)
    canvas.fill(path, color: PremultipliedColor(argb: 0x80402010), rule: rule, transform: transform, using: rasterizer)
    var dash: [Double] = []
    for _ in 0..<Int(r.byte() % 5) { dash.append(r.coordinate()) }
    let caps: [LineCap] = [.butt, .round, .square], joins: [LineJoin] = [.miter, .round, .bevel]
    let style = StrokeStyle(width: r.coordinate(), cap: caps[Int(r.byte() % 3)], join: joins[Int(r.byte() % 3)],
                            miterLimit: r.coordinate(), dash: dash, dashPhase: r.coordinate(),
                            start: r.coordinate(), end: r.coordinate())
    canvas.stroke(path, color: PremultipliedColor(argb: 0xFF102030), style: style, transform: transform, using: rasterizer)
}

func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) {
    guard let image = try? PNG.read(bytes: UnsafeRawBufferPointer(start: data, count: size)) else { return }
    precondition(image.width > 0 && image.height > 0)
    // Every pixel readable, and premultiplied.
    for y in 0..<image.height {
        let row = image.view.row(y)
        for x in 0..<image.width {
            let p = row[x], a = p >> 24
            precondition((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a, "not premultiplied")
        }
    }
}

let target: String = getenv("FBR_FUZZ_TARGET").map { String(cString: $0) } ?? "path"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch target {
    case "png": fuzzPNG(data, size)
    case "jpeg": fuzzJPEG(data, size)   // FuzzJPEG.swift
    default:
        var reader = ByteReader(data: data, size: size)
        fuzzPath(&reader)
    }
    return 0
}

// SwiftPM links executables with their entry point renamed to
// `<module>_main` (so tests can link them): libFuzzer's driver from there
// (FuzzSupport), or, built without libFuzzer, each named input file run
// once.
@_cdecl("fuzz_raster_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzerMain("fuzz-raster", argc, argv) { data, size in fuzzOneInput(data, size) }
}
