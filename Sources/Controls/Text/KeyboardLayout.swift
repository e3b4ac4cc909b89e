/// The keys of one on-screen keyboard layout: three rows of character keys
/// (the third between shift and backspace), each key once unshifted and
/// once shifted. The fourth row (layout switch, space, return) is the
/// keyboard's own.
///
/// Key labels are the text the key inserts (one or more scalars).
public struct KeyboardLayout: Equatable, Sendable {
    /// Shown on the layout switch key of the layout before it, e.g. "EN".
    public var name: String
    public var rows: [[String]]
    /// The same shape as `rows`.
    public var shiftedRows: [[String]]

    /// `rows` and `shiftedRows` given as one string per row, a key per
    /// scalar. Rows whose shapes differ are cut to the shorter.
    public init(name: String, rows: [String], shiftedRows: [String]) {
        self.name = name
        var lower: [[String]] = [], upper: [[String]] = []
        for (r, u) in zip(rows, shiftedRows) {
            let l = KeyboardLayout.keys(r), s = KeyboardLayout.keys(u)
            let n = min(l.count, s.count)
            lower.append(Array(l[..<n])); upper.append(Array(s[..<n]))
        }
        self.rows = lower
        self.shiftedRows = upper
    }

    private static func keys(_ row: String) -> [String] {
        var keys: [String] = []
        for scalar in row.unicodeScalars {
            var key = String()
            key.unicodeScalars.append(scalar)
            keys.append(key)
        }
        return keys
    }

    /// English, QWERTY.
    public static let englishQWERTY = KeyboardLayout(
        name: "EN",
        rows: ["qwertyuiop", "asdfghjkl", "zxcvbnm"],
        shiftedRows: ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"])

    /// Russian, ЙЦУКЕН: the letters of the standard "ru" layout but Ё.
    public static let russianJCUKEN = KeyboardLayout(
        name: "RU",
        rows: ["йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю"],
        shiftedRows: ["ЙЦУКЕНГШЩЗХЪ", "ФЫВАПРОЛДЖЭ", "ЯЧСМИТЬБЮ"])
}
