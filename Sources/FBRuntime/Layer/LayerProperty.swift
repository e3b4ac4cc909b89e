import Raster

/// A value type a declared layer property can hold: how it travels as an
/// `AnimatableValue` (what animations interpolate and presentation layers
/// carry).
public protocol AnimatableValueConvertible {
    /// `nil` when `value` is of another kind.
    init?(animatableValue value: AnimatableValue)
    var animatableValue: AnimatableValue { get }
}

extension Double: AnimatableValueConvertible {
    public init?(animatableValue value: AnimatableValue) {
        guard case let .scalar(v) = value else { return nil }
        self = v
    }
    public var animatableValue: AnimatableValue { .scalar(self) }
}

extension Point: AnimatableValueConvertible {
    public init?(animatableValue value: AnimatableValue) {
        guard case let .point(v) = value else { return nil }
        self = v
    }
    public var animatableValue: AnimatableValue { .point(self) }
}

extension Rect: AnimatableValueConvertible {
    public init?(animatableValue value: AnimatableValue) {
        guard case let .rect(v) = value else { return nil }
        self = v
    }
    public var animatableValue: AnimatableValue { .rect(self) }
}

extension Color: AnimatableValueConvertible {
    public init?(animatableValue value: AnimatableValue) {
        guard case let .color(v) = value else { return nil }
        self = v
    }
    public var animatableValue: AnimatableValue { .color(self) }
}

extension Transform3D: AnimatableValueConvertible {
    public init?(animatableValue value: AnimatableValue) {
        guard case let .transform(v) = value else { return nil }
        self = v
    }
    public var animatableValue: AnimatableValue { .transform(self) }
}

extension Path: AnimatableValueConvertible {
    public init?(animatableValue value: AnimatableValue) {
        guard case let .path(v) = value else { return nil }
        self = v
    }
    public var animatableValue: AnimatableValue { .path(self) }
}

/// What a declared property's change does to the screen.
public enum LayerPropertyEffect: Sendable {
    /// The layer redraws its backing store through `draw(in:)` (CA's
    /// `needsDisplay(forKey:)`): every frame while it animates, on the
    /// render thread under the render loop.
    case redraw
    /// Nothing drawn depends on it by itself (a value the layer's
    /// `contains(_:)`, `layoutSublayers()` or app code reads).
    case none
}

/// The description of one animatable property a `Layer` subclass adds,
/// without its value type (what `Layer.declaredProperties` lists).
public struct LayerPropertyDeclaration: Sendable {
    /// The key name animations use (`AnimatableKey.custom(name)`).
    public let name: String
    public let defaultValue: AnimatableValue
    public let effect: LayerPropertyEffect
    /// Whether setting it inside an animated transaction animates it from
    /// its on-screen value (an implicit animation), as Layer's own
    /// animatable properties do.
    public let animatesImplicitly: Bool
}

/// An animatable property of a `Layer` subclass, declared once:
///
///     final class DialLayer: Layer {
///         static let level = LayerProperty("level", default: 0.0)
///         static let declared = [level.declaration]
///         override class var declaredProperties: [LayerPropertyDeclaration] { declared }
///         var level: Double { get { self[Self.level] } set { self[Self.level] = newValue } }
///         override func draw(in context: DrawingContext) { … self.level … }
///     }
///
/// From that declaration the layer gets the rest of what Layer's own
/// properties have: a default (`defaultValue(forKey:)`), validation of
/// animations of the key, an implicit animation from the on-screen value
/// when set in an animated transaction (unless `animatesImplicitly` is
/// false; actions, the delegate and `defaultAction(forKey:)` still come
/// first), presentation (`presentation()` copies show the presented
/// value, `presentationValue(for:at:)`), damage (with `.redraw`: the layer
/// redraws through `draw(in:)` every frame while it animates, on the
/// render thread under the render loop, and its new pixels are damaged),
/// and hit testing (`contains(_:)` sees the presented value while the
/// compositor hit-tests, so a layer whose hit area depends on it is hit
/// where it is drawn). Render-tree twins and presentation copies are made
/// by `makePresentationCopy()`, which a subclass overrides to make an
/// instance of its own class (Core Animation's `init(layer:)`).
///
/// `Value` is one of the `AnimatableValueConvertible` types (`Double`,
/// `Point`, `Rect`, `Color`, `Transform3D`, `Path`).
public struct LayerProperty<Value: AnimatableValueConvertible> {
    public let name: String
    public let defaultValue: Value
    public let declaration: LayerPropertyDeclaration

    public init(_ name: String, default defaultValue: Value, effect: LayerPropertyEffect = .redraw,
                animatesImplicitly: Bool = true) {
        self.name = name
        self.defaultValue = defaultValue
        declaration = LayerPropertyDeclaration(name: name, defaultValue: defaultValue.animatableValue, effect: effect,
                                               animatesImplicitly: animatesImplicitly)
    }

    /// The key animations of the property name.
    public var key: AnimatableKey { .custom(name) }
}

extension Layer {
    /// The declared property `property`: its model value (the default
    /// until set); on a presentation layer, or while the layer draws
    /// (`draw(in:)`) or is hit-tested, the value on screen. Setting it runs
    /// its action like any animatable property.
    public subscript<Value: AnimatableValueConvertible>(property: LayerProperty<Value>) -> Value {
        get { value(forKey: property.name).flatMap { Value(animatableValue: $0) } ?? property.defaultValue }
        set { setValue(newValue.animatableValue, forKey: property.name) }
    }

    /// The declaration of the property `name` in this class's
    /// `declaredProperties`, if any.
    static func declaredProperty(named name: String) -> LayerPropertyDeclaration? {
        let list = declaredProperties
        var i = 0
        while i < list.count { if list[i].name == name { return list[i] }; i += 1 }
        return nil
    }
}

extension LayerProperty: Sendable where Value: Sendable {}
