/// Why `Layer.add(_:forKey:)` refused an animation.
public enum AnimationError: Error, Equatable, CustomStringConvertible {
    /// A from/to/by value or keyframe of a kind the property does not take
    /// (a scalar for `position`, a colour for `opacity`…).
    case wrongValueKind(key: String, expected: String, got: String)
    /// A custom key the layer has no property for (a typo: use the typed
    /// keys, `.strokeEnd`, `.fontSize`…, see `Layer.customAnimatableKeys`).
    case unknownKey(key: String, layer: String)

    public var description: String {
        switch self {
        case let .wrongValueKind(key, expected, got):
            return "animation of '\(key)' has a \(got) value where the property takes a \(expected)"
        case let .unknownKey(key, layer):
            return "layer '\(layer)' has no animatable property '\(key)'"
        }
    }
}

/// The kinds of `AnimatableValue`, for checking values against keys.
public enum AnimatableValueKind: Equatable, Sendable {
    case scalar, point, rect, color, transform, path, colors, scalars

    public init(_ value: AnimatableValue) {
        switch value {
        case .scalar: self = .scalar
        case .point: self = .point
        case .rect: self = .rect
        case .color: self = .color
        case .transform: self = .transform
        case .path: self = .path
        case .colors: self = .colors
        case .scalars: self = .scalars
        }
    }

    public var name: String {
        switch self {
        case .scalar: return "scalar"
        case .point: return "point"
        case .rect: return "rect"
        case .color: return "color"
        case .transform: return "transform"
        case .path: return "path"
        case .colors: return "colour list"
        case .scalars: return "number list"
        }
    }
}

extension AnimatableKey {
    /// The kind of value the property takes (sizes are points, x = width);
    /// `nil` for custom keys, which take any kind.
    public var valueKind: AnimatableValueKind? {
        switch self {
        case .position, .anchorPoint, .boundsOrigin, .boundsSize, .transformTranslation, .shadowOffset:
            return .point
        case .positionX, .positionY, .boundsOriginX, .boundsOriginY, .boundsSizeWidth, .boundsSizeHeight,
             .anchorPointZ, .zPosition, .transformRotationX, .transformRotationY, .transformRotationZ,
             .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ,
             .transformTranslationX, .transformTranslationY, .transformTranslationZ,
             .opacity, .cornerRadius, .borderWidth, .shadowOpacity, .shadowRadius:
            return .scalar
        case .bounds, .contentsRect, .contentsCenter: return .rect
        case .transform, .sublayerTransform: return .transform
        case .backgroundColor, .borderColor, .shadowColor: return .color
        case .shadowPath: return .path
        case .custom: return nil
        }
    }
}

extension Animation {
    /// Checks every value against its key's kind (a value function turns
    /// scalars and points into transforms, so those are what it takes).
    /// Timing needs no check: `MediaTiming` documents its clamps (NaN or
    /// non-positive duration → the default, NaN speed → 1, …).
    public func validate() throws(AnimationError) {
        func check(_ key: AnimatableKey, _ values: [AnimatableValue], _ valueFunction: ValueFunction?) throws(AnimationError) {
            guard var expected = key.valueKind else { return }
            for value in values {
                let kind = AnimatableValueKind(value)
                if valueFunction != nil && expected == .transform {
                    if kind == .scalar || kind == .point { continue }
                    expected = .scalar
                }
                if kind != expected {
                    throw .wrongValueKind(key: key.path, expected: expected.name, got: kind.name)
                }
            }
        }
        switch self {
        case let .basic(a): try check(a.key, [a.fromValue, a.toValue, a.byValue].compactMap { $0 }, a.valueFunction)
        case let .keyframe(a): try check(a.key, a.values, a.valueFunction)
        case let .group(g): for member in g.animations { try member.validate() }
        case let .spring(a): try check(a.key, [a.fromValue, a.toValue, a.byValue].compactMap { $0 }, a.valueFunction)
        case .transition: break     // no values; timing clamps (see `Transition`)
        }
    }
}
