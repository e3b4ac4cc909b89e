/// The XML subset the corpus is written in: elements with attributes in
/// single or double quotes, self-closing or not, comments, an optional
/// `<?xml …?>` declaration, whitespace between elements. Anything else
/// (text content, entities, CDATA, DOCTYPE) is an error, so a file the
/// reader cannot take fails loudly instead of drawing something else.
struct SVGElement {
    var name: String
    /// In document order (order matters to no one, but errors read better).
    var attributes: [(name: String, value: String)]
    var children: [SVGElement]

    subscript(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
}

struct SVGReadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum SVGXML {
    /// The document's root element.
    static func parse(_ text: String) throws -> SVGElement {
        var scanner = Scanner(chars: Array(text.utf8))
        scanner.skipMisc()
        guard let root = try scanner.nextElement() else { throw SVGReadError("xml: no root element") }
        scanner.skipMisc()
        guard scanner.atEnd else { throw SVGReadError("xml: content after the root element") }
        return root
    }

    private struct Scanner {
        let chars: [UInt8]
        var index = 0

        var atEnd: Bool { index >= chars.count }

        func peek(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return index + u.count <= chars.count && Array(chars[index..<index + u.count]) == u
        }

        mutating func skipSpace() {
            while index < chars.count, [0x20, 0x09, 0x0A, 0x0D].contains(chars[index]) { index += 1 }
        }

        /// Whitespace, comments and declarations.
        mutating func skipMisc() {
            while true {
                skipSpace()
                if peek("<!--") { skip(past: "-->") } else if peek("<?") { skip(past: "?>") } else { return }
            }
        }

        mutating func skip(past end: String) {
            while index < chars.count, !peek(end) { index += 1 }
            index = min(chars.count, index + end.utf8.count)
        }

        mutating func name() throws -> String {
            let start = index
            while index < chars.count {
                let c = chars[index]
                let isNameChar = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                    || c == UInt8(ascii: "-") || c == UInt8(ascii: ":") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
                guard isNameChar else { break }
                index += 1
            }
            guard index > start else { throw SVGReadError("xml: a name expected at byte \(start)") }
            return String(decoding: chars[start..<index], as: UTF8.self)
        }

        /// An element at the current position, or nil at an end tag.
        mutating func nextElement() throws -> SVGElement? {
            guard peek("<"), !peek("</") else { return nil }
            index += 1
            var element = SVGElement(name: try name(), attributes: [], children: [])
            while true {
                skipSpace()
                if peek("/>") { index += 2; return element }
                if peek(">") { index += 1; break }
                let attribute = try name()
                skipSpace()
                guard peek("=") else { throw SVGReadError("xml: '=' expected after \(attribute)") }
                index += 1
                skipSpace()
                guard index < chars.count, chars[index] == UInt8(ascii: "\"") || chars[index] == UInt8(ascii: "'") else {
                    throw SVGReadError("xml: a quoted value expected for \(attribute)")
                }
                let quote = chars[index]
                index += 1
                let start = index
                while index < chars.count, chars[index] != quote { index += 1 }
                guard index < chars.count else { throw SVGReadError("xml: unterminated value of \(attribute)") }
                let value = String(decoding: chars[start..<index], as: UTF8.self)
                guard !value.contains("&") else { throw SVGReadError("xml: entities are not supported (\(attribute))") }
                element.attributes.append((attribute, value))
                index += 1
            }
            while true {
                skipMisc()
                if let child = try nextElement() { element.children.append(child); continue }
                guard peek("</") else { throw SVGReadError("xml: text content in <\(element.name)> is not supported") }
                index += 2
                let end = try name()
                guard end == element.name else { throw SVGReadError("xml: </\(end)> closes <\(element.name)>") }
                skipSpace()
                guard peek(">") else { throw SVGReadError("xml: '>' expected after </\(end)") }
                index += 1
                return element
            }
        }
    }
}
