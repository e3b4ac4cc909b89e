/// One relation of a layer's geometry to its superlayer's or a sibling's
/// (CA's `CAConstraint`):
///
///     layer.attribute = source.sourceAttribute × scale + offset
///
/// `source` is a sibling's `name`, or `LayoutConstraint.superlayer`. A
/// sibling's attributes are those of its frame, the superlayer's those of
/// its bounds: both in the superlayer's bounds space, points. Placed by a
/// `ConstraintLayoutManager` on the superlayer.
public struct LayoutConstraint: Equatable, Sendable {
    /// An edge, centre line or extent of a rectangle (CA's
    /// `CAConstraintAttribute`). minY is the edge with the smaller y: the
    /// top on screen in FBRuntime's y-down spaces.
    public enum Attribute: Equatable, Sendable, CustomStringConvertible {
        case minX, midX, maxX, width, minY, midY, maxY, height

        /// True for the x axis (minX, midX, maxX, width).
        public var isHorizontal: Bool {
            switch self {
            case .minX, .midX, .maxX, .width: return true
            case .minY, .midY, .maxY, .height: return false
            }
        }

        /// The attribute's value for `rect`.
        public func value(of rect: Rect) -> Double {
            switch self {
            case .minX: return rect.minX
            case .midX: return rect.minX + rect.width / 2
            case .maxX: return rect.maxX
            case .width: return rect.width
            case .minY: return rect.minY
            case .midY: return rect.minY + rect.height / 2
            case .maxY: return rect.maxY
            case .height: return rect.height
            }
        }

        public var description: String {
            switch self {
            case .minX: return "minX"
            case .midX: return "midX"
            case .maxX: return "maxX"
            case .width: return "width"
            case .minY: return "minY"
            case .midY: return "midY"
            case .maxY: return "maxY"
            case .height: return "height"
            }
        }
    }

    /// The name that means the superlayer (CA's `"superlayer"`). It wins
    /// over a sibling with that name.
    public static let superlayer = "superlayer"

    public var attribute: Attribute
    /// The superlayer (`LayoutConstraint.superlayer`) or a sibling's name
    /// (the first sublayer with that name, in sublayer order).
    public var source: String
    public var sourceAttribute: Attribute
    public var scale: Double
    /// Points.
    public var offset: Double

    /// `attribute = source.sourceAttribute × scale + offset` (CA's
    /// `init(attribute:relativeTo:attribute:scale:offset:)`).
    public init(_ attribute: Attribute, relativeTo source: String = LayoutConstraint.superlayer,
                _ sourceAttribute: Attribute, scale: Double = 1, offset: Double = 0) {
        self.attribute = attribute; self.source = source; self.sourceAttribute = sourceAttribute
        self.scale = scale; self.offset = offset
    }

    /// `attribute = source.attribute + offset`: the same attribute.
    public init(_ attribute: Attribute, relativeTo source: String = LayoutConstraint.superlayer, offset: Double = 0) {
        self.init(attribute, relativeTo: source, attribute, offset: offset)
    }

    /// The constraint as messages show it: "minX = a.maxX × 2 + 5".
    var text: String {
        var s = "\(attribute) = \(source).\(sourceAttribute)"
        if scale != 1 { s += " × " + LayoutConstraint.decimal(scale) }
        if offset != 0 { s += offset < 0 ? " − " + LayoutConstraint.decimal(-offset) : " + " + LayoutConstraint.decimal(offset) }
        return s
    }

    /// `value` with up to three decimals, trailing zeros dropped ("5",
    /// "0.25", "-1.5"), without printing a Double (Embedded Swift cannot);
    /// "nan", "inf", "-inf", and "huge" beyond 1e15.
    static func decimal(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        guard Swift.abs(value) < 1e15 else { return value < 0 ? "-huge" : "huge" }
        let thousandths = Int64((Swift.abs(value) * 1000).rounded())
        var text = (value < 0 && thousandths != 0 ? "-" : "") + "\(thousandths / 1000)"
        var fraction = thousandths % 1000
        if fraction != 0 {
            var digits = 3
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let padded = "\(fraction)"
            text += "." + String(repeating: "0", count: digits - padded.count) + padded
        }
        return text
    }
}
