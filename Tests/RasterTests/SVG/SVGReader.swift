import Foundation
import Raster

/// Reads the corpus's SVG subset into an `SVGDrawing` (test side only:
/// the runtime has no SVG reader).
///
/// Taken: `svg` (width, height in pixels, no viewBox), `g`, `defs`,
/// `path`, `rect` (rx, ry), `circle`, `ellipse`, `line`, `polyline`,
/// `polygon`, `linearGradient` and `radialGradient` (user-space units only,
/// spreadMethod, gradientTransform) with `stop`s; `transform` (translate,
/// scale, rotate with or without a centre, matrix, skewX, skewY, lists);
/// the presentation attributes fill, fill-opacity, fill-rule, stroke,
/// stroke-opacity, stroke-width, -linecap, -linejoin, -miterlimit,
/// -dasharray, -dashoffset (inherited) and opacity (a group). Colours are
/// `#rgb`, `#rrggbb` or a few names. Anything else throws, so that a file
/// librsvg reads in a way this reader does not fails instead of comparing
/// different drawings.
///
/// Basic shapes become paths as SVG 2 specifies (a rectangle starts at
/// (x + rx, y) and runs clockwise with arcs at rounded corners; a circle or
/// ellipse starts at (cx + rx, cy) and runs clockwise in four arcs), which
/// is where dashes start.
struct SVGReader {
    /// The inherited presentation attributes.
    struct Style {
        enum PaintReference { case none, color(SVGColor), gradient(id: String) }
        var fill = PaintReference.color(SVGColor(red: 0, green: 0, blue: 0))
        var fillOpacity = 1.0
        var fillRule = FillRule.nonZero
        var stroke = PaintReference.none
        var strokeOpacity = 1.0
        var strokeStyle = SVGStrokeStyle(width: 1, cap: .butt, join: .miter, miterLimit: 4, dash: [], dashOffset: 0)
    }

    private var gradients: [String: SVGGradient] = [:]
    private var drawing: SVGDrawing

    static let presentationAttributes: Set<String> = [
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-opacity", "stroke-width", "stroke-linecap",
        "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset",
    ]
    static let geometryAttributes: [String: Set<String>] = [
        "g": [], "path": ["d"], "rect": ["x", "y", "width", "height", "rx", "ry"], "circle": ["cx", "cy", "r"],
        "ellipse": ["cx", "cy", "rx", "ry"], "line": ["x1", "y1", "x2", "y2"], "polyline": ["points"], "polygon": ["points"],
    ]

    static func read(_ text: String) throws -> SVGDrawing {
        let root = try SVGXML.parse(text)
        guard root.name == "svg" else { throw SVGReadError("the root is <\(root.name)>, not <svg>") }
        for a in root.attributes where !["xmlns", "width", "height"].contains(a.name) {
            throw SVGReadError("<svg \(a.name)> is not supported")
        }
        guard let w = root["width"].flatMap(Int.init), let h = root["height"].flatMap(Int.init), w > 0, h > 0 else {
            throw SVGReadError("<svg> needs width and height in whole pixels")
        }
        var reader = SVGReader(drawing: SVGDrawing(width: w, height: h))
        try reader.collectGradients(root)
        for child in root.children { try reader.walk(child, style: Style(), transform: .identity) }
        return reader.drawing
    }

    private init(drawing: SVGDrawing) { self.drawing = drawing }

    // MARK: The tree

    private mutating func walk(_ e: SVGElement, style inherited: Style, transform parent: AffineTransform) throws {
        switch e.name {
        case "defs", "linearGradient", "radialGradient": return
        default: break
        }
        guard let geometry = SVGReader.geometryAttributes[e.name] else { throw SVGReadError("<\(e.name)> is not supported") }
        for a in e.attributes where !(geometry.contains(a.name) || SVGReader.presentationAttributes.contains(a.name)
                                      || ["id", "transform", "opacity"].contains(a.name)) {
            throw SVGReadError("<\(e.name) \(a.name)> is not supported")
        }
        let style = try SVGReader.style(of: e, inheriting: inherited)
        let local = try e["transform"].map(SVGReader.transform) ?? .identity
        let ctm = local.concatenating(parent)
        let opacity = try e["opacity"].map(SVGReader.number) ?? 1
        if opacity < 1 { drawing.operations.append(.beginGroup(opacity: max(0, opacity))) }
        if e.name == "g" {
            for child in e.children { try walk(child, style: style, transform: ctm) }
        } else {
            guard e.children.isEmpty else { throw SVGReadError("<\(e.name)> with children is not supported") }
            if let path = try SVGReader.path(of: e) {
                // A line has no area to fill; an open polyline is filled
                // as if closed.
                if e.name != "line", let paint = try paint(style.fill, opacity: style.fillOpacity) {
                    drawing.operations.append(.fill(path, paint: paint, rule: style.fillRule, transform: ctm))
                }
                if let paint = try paint(style.stroke, opacity: style.strokeOpacity), style.strokeStyle.width > 0 {
                    drawing.operations.append(.stroke(path, paint: paint, style: style.strokeStyle, transform: ctm))
                }
            }
        }
        if opacity < 1 { drawing.operations.append(.endGroup) }
    }

    private func paint(_ reference: Style.PaintReference, opacity: Double) throws -> SVGPaint? {
        switch reference {
        case .none: return nil
        case .color(let c): return SVGPaint(kind: .color(c), opacity: opacity)
        case .gradient(let id):
            guard let g = gradients[id] else { throw SVGReadError("no gradient #\(id)") }
            return SVGPaint(kind: .gradient(g), opacity: opacity)
        }
    }

    static func style(of e: SVGElement, inheriting inherited: Style) throws -> Style {
        var s = inherited
        for (name, value) in e.attributes {
            switch name {
            case "fill": s.fill = try paintReference(value)
            case "fill-opacity": s.fillOpacity = try number(value)
            case "fill-rule": s.fillRule = try keyword(value, of: name, ["nonzero": .nonZero, "evenodd": .evenOdd])
            case "stroke": s.stroke = try paintReference(value)
            case "stroke-opacity": s.strokeOpacity = try number(value)
            case "stroke-width": s.strokeStyle.width = try number(value)
            case "stroke-linecap": s.strokeStyle.cap = try keyword(value, of: name, ["butt": .butt, "round": .round, "square": .square])
            case "stroke-linejoin": s.strokeStyle.join = try keyword(value, of: name, ["miter": .miter, "round": .round, "bevel": .bevel])
            case "stroke-miterlimit": s.strokeStyle.miterLimit = try number(value)
            case "stroke-dasharray":
                if value == "none" { s.strokeStyle.dash = []; break }
                var dash = try numbers(value)
                guard dash.allSatisfy({ $0 >= 0 }) else { throw SVGReadError("a negative dash in \(value)") }
                if dash.count % 2 == 1 { dash += dash }
                s.strokeStyle.dash = dash.allSatisfy { $0 == 0 } ? [] : dash
            case "stroke-dashoffset": s.strokeStyle.dashOffset = try number(value)
            default: break
            }
        }
        return s
    }

    // MARK: Shapes

    /// The element's geometry as a path, or nil where SVG draws nothing
    /// (a zero or negative size).
    static func path(of e: SVGElement) throws -> SVGPathData? {
        func attribute(_ name: String, default fallback: Double? = 0) throws -> Double {
            if let v = e[name] { return try number(v) }
            guard let fallback else { throw SVGReadError("<\(e.name)> needs \(name)") }
            return fallback
        }
        var p = SVGPathData()
        func arc(_ rx: Double, _ ry: Double, _ x: Double, _ y: Double) {
            p.segments.append(.arc(rx: rx, ry: ry, rotation: 0, largeArc: false, sweep: true, to: PathPoint(x, y)))
        }
        switch e.name {
        case "path":
            return try SVGPathDataParser.parse(e["d"] ?? "")
        case "rect":
            let x = try attribute("x"), y = try attribute("y")
            let w = try attribute("width", default: nil), h = try attribute("height", default: nil)
            guard w > 0, h > 0 else { return nil }
            // SVG 2: a missing rx or ry takes the other's value; each is
            // clamped to half the side.
            var rx = try e["rx"].map(number), ry = try e["ry"].map(number)
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            let r = (x: min(max(rx ?? 0, 0), w / 2), y: min(max(ry ?? 0, 0), h / 2))
            if r.x == 0 || r.y == 0 {
                p.segments = [.move(PathPoint(x, y)), .line(PathPoint(x + w, y)), .line(PathPoint(x + w, y + h)),
                              .line(PathPoint(x, y + h)), .close]
            } else {
                p.segments = [.move(PathPoint(x + r.x, y)), .line(PathPoint(x + w - r.x, y))]
                arc(r.x, r.y, x + w, y + r.y)
                p.segments.append(.line(PathPoint(x + w, y + h - r.y)))
                arc(r.x, r.y, x + w - r.x, y + h)
                p.segments.append(.line(PathPoint(x + r.x, y + h)))
                arc(r.x, r.y, x, y + h - r.y)
                p.segments.append(.line(PathPoint(x, y + r.y)))
                arc(r.x, r.y, x + r.x, y)
                p.segments.append(.close)
            }
        case "circle", "ellipse":
            let cx = try attribute("cx"), cy = try attribute("cy")
            let rx = try attribute(e.name == "circle" ? "r" : "rx", default: nil)
            let ry = try attribute(e.name == "circle" ? "r" : "ry", default: nil)
            guard rx > 0, ry > 0 else { return nil }
            p.segments = [.move(PathPoint(cx + rx, cy))]
            arc(rx, ry, cx, cy + ry)
            arc(rx, ry, cx - rx, cy)
            arc(rx, ry, cx, cy - ry)
            arc(rx, ry, cx + rx, cy)
            p.segments.append(.close)
        case "line":
            p.segments = [.move(PathPoint(try attribute("x1"), try attribute("y1"))),
                          .line(PathPoint(try attribute("x2"), try attribute("y2")))]
        case "polyline", "polygon":
            let v = try numbers(e["points"] ?? "")
            guard v.count >= 4, v.count % 2 == 0 else { throw SVGReadError("<\(e.name) points> needs pairs") }
            p.segments = [.move(PathPoint(v[0], v[1]))]
            for i in stride(from: 2, to: v.count, by: 2) { p.segments.append(.line(PathPoint(v[i], v[i + 1]))) }
            if e.name == "polygon" { p.segments.append(.close) }
        default:
            return nil
        }
        return p
    }

    // MARK: Gradients

    private mutating func collectGradients(_ e: SVGElement) throws {
        if e.name == "linearGradient" || e.name == "radialGradient" {
            guard let id = e["id"] else { throw SVGReadError("<\(e.name)> without an id") }
            gradients[id] = try SVGReader.gradient(e)
            return
        }
        for child in e.children { try collectGradients(child) }
    }

    static func gradient(_ e: SVGElement) throws -> SVGGradient {
        let linear = e.name == "linearGradient"
        let own: Set<String> = linear ? ["x1", "y1", "x2", "y2"] : ["cx", "cy", "r", "fx", "fy"]
        for a in e.attributes where !(own.contains(a.name) || ["id", "gradientUnits", "spreadMethod", "gradientTransform"].contains(a.name)) {
            throw SVGReadError("<\(e.name) \(a.name)> is not supported")
        }
        // The default units, objectBoundingBox, would need the shape's box.
        guard e["gradientUnits"] == "userSpaceOnUse" else { throw SVGReadError("<\(e.name)> needs gradientUnits=\"userSpaceOnUse\"") }
        func attribute(_ name: String) throws -> Double {
            guard let v = e[name] else { throw SVGReadError("<\(e.name)> needs \(name) (no percentage defaults)") }
            return try number(v)
        }
        let geometry: SVGGradient.Geometry
        if linear {
            geometry = .linear(x1: try attribute("x1"), y1: try attribute("y1"), x2: try attribute("x2"), y2: try attribute("y2"))
        } else {
            let cx = try attribute("cx"), cy = try attribute("cy")
            geometry = .radial(cx: cx, cy: cy, r: try attribute("r"),
                               fx: try e["fx"].map(number) ?? cx, fy: try e["fy"].map(number) ?? cy)
        }
        let spread = try keyword(e["spreadMethod"] ?? "pad", of: "spreadMethod", ["pad": GradientSpread.pad, "reflect": .reflect, "repeat": .repeat])
        var stops: [SVGGradient.Stop] = []
        for s in e.children {
            guard s.name == "stop" else { throw SVGReadError("<\(s.name)> in a gradient") }
            for a in s.attributes where !["offset", "stop-color", "stop-opacity"].contains(a.name) {
                throw SVGReadError("<stop \(a.name)> is not supported")
            }
            var offset = 0.0
            if let v = s["offset"] {
                offset = v.hasSuffix("%") ? try number(String(v.dropLast())) / 100 : try number(v)
            }
            offset = min(max(offset, stops.last?.offset ?? 0), 1)
            let color: SVGColor
            switch try paintReference(s["stop-color"] ?? "black") {
            case .color(let c): color = c
            default: throw SVGReadError("stop-color \(s["stop-color"] ?? "")")
            }
            stops.append(SVGGradient.Stop(offset: offset, color: color, opacity: try s["stop-opacity"].map(number) ?? 1))
        }
        return SVGGradient(geometry: geometry, stops: stops, spread: spread,
                           transform: try e["gradientTransform"].map(transform) ?? .identity)
    }

    // MARK: Values

    static func paintReference(_ value: String) throws -> Style.PaintReference {
        let v = value.trimmingCharacters(in: .whitespaces)
        if v == "none" { return .none }
        if v.hasPrefix("url(#"), v.hasSuffix(")") { return .gradient(id: String(v.dropFirst(5).dropLast())) }
        let named: [String: String] = ["black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff"]
        var hex = Array((named[v] ?? v).utf8)
        guard hex.first == UInt8(ascii: "#"), hex.count == 4 || hex.count == 7 else { throw SVGReadError("colour \(value)") }
        hex.removeFirst()
        if hex.count == 3 { hex = hex.flatMap { [$0, $0] } }
        guard let bits = UInt32(String(decoding: hex, as: UTF8.self), radix: 16) else { throw SVGReadError("colour \(value)") }
        return .color(SVGColor(red: Double(bits >> 16) / 255, green: Double((bits >> 8) & 0xFF) / 255, blue: Double(bits & 0xFF) / 255))
    }

    static func keyword<Value>(_ value: String, of attribute: String, _ values: [String: Value]) throws -> Value {
        guard let v = values[value] else { throw SVGReadError("\(attribute)=\"\(value)\" is not supported") }
        return v
    }

    static func number(_ text: String) throws -> Double {
        var t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("px") { t.removeLast(2) }
        guard let v = Double(t), v.isFinite else { throw SVGReadError("a number expected, not \"\(text)\"") }
        return v
    }

    static func numbers(_ text: String) throws -> [Double] {
        try text.split { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }.map { try number(String($0)) }
    }

    /// A transform list, `p ↦ T₁(T₂(…(p)))` for "T₁ T₂ …".
    static func transform(_ text: String) throws -> AffineTransform {
        var result = AffineTransform.identity
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\n" }
            guard !rest.isEmpty else { return result }
            guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")") else {
                throw SVGReadError("transform \(text)")
            }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            let v = try numbers(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
            func arguments(_ counts: Int...) throws {
                guard counts.contains(v.count) else { throw SVGReadError("\(name) takes \(counts) arguments: \(text)") }
            }
            let t: AffineTransform
            let radians = (v.first ?? 0) * .pi / 180
            switch name {
            case "matrix":
                try arguments(6)
                t = AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
            case "translate":
                try arguments(1, 2)
                t = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: v[0], ty: v.count == 2 ? v[1] : 0)
            case "scale":
                try arguments(1, 2)
                t = AffineTransform(a: v[0], b: 0, c: 0, d: v.count == 2 ? v[1] : v[0], tx: 0, ty: 0)
            case "rotate":
                try arguments(1, 3)
                let r = AffineTransform(a: cos(radians), b: sin(radians), c: -sin(radians), d: cos(radians), tx: 0, ty: 0)
                if v.count == 3 {
                    // translate(cx cy) rotate(a) translate(−cx −cy)
                    t = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: -v[1], ty: -v[2]).concatenating(r)
                        .concatenating(AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: v[1], ty: v[2]))
                } else {
                    t = r
                }
            case "skewX":
                try arguments(1)
                t = AffineTransform(a: 1, b: 0, c: tan(radians), d: 1, tx: 0, ty: 0)
            case "skewY":
                try arguments(1)
                t = AffineTransform(a: 1, b: tan(radians), c: 0, d: 1, tx: 0, ty: 0)
            default:
                throw SVGReadError("transform \(name)")
            }
            result = t.concatenating(result)
        }
    }
}
