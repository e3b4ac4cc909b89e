import Raster

/// SVG path data (`d`) to `SVGPathData`: every command of SVG 1.1's path
/// grammar (M L H V C S Q T A Z, absolute and relative), implicit repeats
/// (extra pairs after M are lines), packed numbers (`40-10.5`, `1.5.5`),
/// single-character arc flags, S and T reflecting the previous control
/// point only after C/S and Q/T. A subpath drawn on after Z starts again at
/// the closed subpath's start.
struct SVGPathDataParser {
    private let chars: [UInt8]
    private var index = 0

    init(_ text: String) { chars = Array(text.utf8) }

    static func parse(_ text: String) throws -> SVGPathData {
        var parser = SVGPathDataParser(text)
        return try parser.run()
    }

    private mutating func run() throws -> SVGPathData {
        var out = SVGPathData()
        var current = PathPoint(0, 0), subpathStart = PathPoint(0, 0)
        var lastCubicControl: PathPoint?, lastQuadControl: PathPoint?
        var closedLast = false
        var command: UInt8 = 0
        skipSeparators()
        while index < chars.count {
            if isCommand(chars[index]) {
                command = chars[index]; index += 1
            } else if command == 0 || command == UInt8(ascii: "z") || command == UInt8(ascii: "Z") {
                throw SVGReadError("path data: a number where a command was expected at \(index)")
            }
            let relative = command >= UInt8(ascii: "a")
            let base = relative ? current : PathPoint(0, 0)
            func point(_ x: Double, _ y: Double) -> PathPoint { PathPoint(base.x + x, base.y + y) }
            let upper = relative ? command - 32 : command
            // A drawing command right after Z starts a subpath at its start.
            if closedLast && upper != UInt8(ascii: "M") && upper != UInt8(ascii: "Z") {
                out.segments.append(.move(subpathStart))
            }
            closedLast = false
            var cubicControl: PathPoint?, quadControl: PathPoint?
            switch upper {
            case UInt8(ascii: "M"):
                let p = point(try number(), try number())
                out.segments.append(.move(p))
                current = p; subpathStart = p
                // Further pairs are lines.
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
            case UInt8(ascii: "L"):
                current = point(try number(), try number())
                out.segments.append(.line(current))
            case UInt8(ascii: "H"):
                current = PathPoint(try number() + (relative ? current.x : 0), current.y)
                out.segments.append(.line(current))
            case UInt8(ascii: "V"):
                current = PathPoint(current.x, try number() + (relative ? current.y : 0))
                out.segments.append(.line(current))
            case UInt8(ascii: "C"):
                let c1 = point(try number(), try number()), c2 = point(try number(), try number())
                current = point(try number(), try number())
                out.segments.append(.cubic(control1: c1, control2: c2, to: current))
                cubicControl = c2
            case UInt8(ascii: "S"):
                let c1 = lastCubicControl.map { PathPoint(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                let c2 = point(try number(), try number())
                current = point(try number(), try number())
                out.segments.append(.cubic(control1: c1, control2: c2, to: current))
                cubicControl = c2
            case UInt8(ascii: "Q"):
                let c = point(try number(), try number())
                current = point(try number(), try number())
                out.segments.append(.quad(control: c, to: current))
                quadControl = c
            case UInt8(ascii: "T"):
                let c = lastQuadControl.map { PathPoint(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                current = point(try number(), try number())
                out.segments.append(.quad(control: c, to: current))
                quadControl = c
            case UInt8(ascii: "A"):
                let rx = try number(), ry = try number(), rotation = try number()
                let large = try flag(), sweep = try flag()
                current = point(try number(), try number())
                out.segments.append(.arc(rx: rx, ry: ry, rotation: rotation, largeArc: large, sweep: sweep, to: current))
            case UInt8(ascii: "Z"):
                out.segments.append(.close)
                current = subpathStart
                closedLast = true
            default:
                throw SVGReadError("path data: unknown command \(Character(UnicodeScalar(command)))")
            }
            lastCubicControl = cubicControl
            lastQuadControl = quadControl
            skipSeparators()
        }
        return out
    }

    private func isCommand(_ c: UInt8) -> Bool {
        "MmLlHhVvCcSsQqTtAaZz".utf8.contains(c)
    }

    private mutating func skipSeparators() {
        while index < chars.count, chars[index] == 0x20 || chars[index] == 0x0A || chars[index] == 0x0D
            || chars[index] == 0x09 || chars[index] == UInt8(ascii: ",") { index += 1 }
    }

    private mutating func flag() throws -> Bool {
        skipSeparators()
        guard index < chars.count, chars[index] == UInt8(ascii: "0") || chars[index] == UInt8(ascii: "1") else {
            throw SVGReadError("path data: an arc flag expected at \(index)")
        }
        index += 1
        return chars[index - 1] == UInt8(ascii: "1")
    }

    /// One number: sign, digits, at most one point, an exponent.
    private mutating func number() throws -> Double {
        skipSeparators()
        let start = index
        if index < chars.count, chars[index] == UInt8(ascii: "+") || chars[index] == UInt8(ascii: "-") { index += 1 }
        var seenPoint = false
        while index < chars.count {
            let c = chars[index]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { index += 1; continue }
            if c == UInt8(ascii: "."), !seenPoint { seenPoint = true; index += 1; continue }
            break
        }
        if index < chars.count, chars[index] == UInt8(ascii: "e") || chars[index] == UInt8(ascii: "E") {
            index += 1
            if index < chars.count, chars[index] == UInt8(ascii: "+") || chars[index] == UInt8(ascii: "-") { index += 1 }
            while index < chars.count, chars[index] >= UInt8(ascii: "0"), chars[index] <= UInt8(ascii: "9") { index += 1 }
        }
        guard let value = Double(String(decoding: chars[start..<index], as: UTF8.self)) else {
            throw SVGReadError("path data: a number expected at \(start)")
        }
        return value
    }
}
