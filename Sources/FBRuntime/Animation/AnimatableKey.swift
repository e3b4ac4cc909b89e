/// A property of a layer that an animation drives, named as Core
/// Animation's key paths name them (`position.x`, `transform.rotation.z`).
/// Embedded Swift has no key paths, so properties are this enum; subkeys
/// know their parent property (`parent`), and `custom` carries the name of
/// a property a layer subclass declares.
public enum AnimatableKey: Hashable, Sendable {
    case position, positionX, positionY
    case bounds, boundsOrigin, boundsOriginX, boundsOriginY, boundsSize, boundsSizeWidth, boundsSizeHeight
    case anchorPoint, anchorPointZ, zPosition
    case transform
    case transformRotationX, transformRotationY, transformRotationZ
    case transformScale, transformScaleX, transformScaleY, transformScaleZ
    case transformTranslation, transformTranslationX, transformTranslationY, transformTranslationZ
    case sublayerTransform
    case opacity, backgroundColor, cornerRadius, borderWidth, borderColor
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath
    case contentsRect, contentsCenter
    /// A property declared by a layer subclass (`needsDisplay(forKey:)`).
    case custom(String)

    /// Every named key with its Core Animation key path.
    static let table: [(AnimatableKey, String)] = [
        (.position, "position"), (.positionX, "position.x"), (.positionY, "position.y"),
        (.bounds, "bounds"), (.boundsOrigin, "bounds.origin"), (.boundsOriginX, "bounds.origin.x"),
        (.boundsOriginY, "bounds.origin.y"), (.boundsSize, "bounds.size"), (.boundsSizeWidth, "bounds.size.width"),
        (.boundsSizeHeight, "bounds.size.height"), (.anchorPoint, "anchorPoint"), (.anchorPointZ, "anchorPointZ"),
        (.zPosition, "zPosition"), (.transform, "transform"),
        (.transformRotationX, "transform.rotation.x"), (.transformRotationY, "transform.rotation.y"),
        (.transformRotationZ, "transform.rotation.z"), (.transformScale, "transform.scale"),
        (.transformScaleX, "transform.scale.x"), (.transformScaleY, "transform.scale.y"),
        (.transformScaleZ, "transform.scale.z"), (.transformTranslation, "transform.translation"),
        (.transformTranslationX, "transform.translation.x"), (.transformTranslationY, "transform.translation.y"),
        (.transformTranslationZ, "transform.translation.z"), (.sublayerTransform, "sublayerTransform"),
        (.opacity, "opacity"), (.backgroundColor, "backgroundColor"), (.cornerRadius, "cornerRadius"),
        (.borderWidth, "borderWidth"), (.borderColor, "borderColor"), (.shadowColor, "shadowColor"),
        (.shadowOpacity, "shadowOpacity"), (.shadowOffset, "shadowOffset"), (.shadowRadius, "shadowRadius"),
        (.shadowPath, "shadowPath"), (.contentsRect, "contentsRect"), (.contentsCenter, "contentsCenter"),
    ]

    /// The key for a Core Animation key path; `transform.rotation` is
    /// `transform.rotation.z` (as in CA); any other unknown path is
    /// `.custom(path)`.
    public init(path: String) {
        if path == "transform.rotation" { self = .transformRotationZ; return }
        for (key, name) in AnimatableKey.table where name == path { self = key; return }
        self = .custom(path)
    }

    /// The key path string.
    public var path: String {
        if case let .custom(name) = self { return name }
        for (key, name) in AnimatableKey.table where key == self { return name }
        return "?"
    }

    /// The property a subkey is part of (`position` for `position.x`), or
    /// `nil` for a whole property.
    public var parent: AnimatableKey? {
        switch self {
        case .positionX, .positionY: return .position
        case .boundsOrigin, .boundsSize: return .bounds
        case .boundsOriginX, .boundsOriginY: return .boundsOrigin
        case .boundsSizeWidth, .boundsSizeHeight: return .boundsSize
        case .transformRotationX, .transformRotationY, .transformRotationZ,
             .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ,
             .transformTranslation, .transformTranslationX, .transformTranslationY, .transformTranslationZ:
            return .transform
        default: return nil
        }
    }
}

// Typed keys for the content layers' animatable properties, so a typo is a
// compile error rather than an animation of nothing (`.strokeEnd`, not
// `.custom("strokeEnd")`; both name the same key).
extension AnimatableKey {
    /// `ShapeLayer.path`.
    public static let shapePath = AnimatableKey.custom("path")
    /// `ShapeLayer.fillColor`.
    public static let fillColor = AnimatableKey.custom("fillColor")
    /// `ShapeLayer.strokeColor`.
    public static let strokeColor = AnimatableKey.custom("strokeColor")
    /// `ShapeLayer.lineWidth`.
    public static let lineWidth = AnimatableKey.custom("lineWidth")
    /// `ShapeLayer.miterLimit`.
    public static let miterLimit = AnimatableKey.custom("miterLimit")
    /// `ShapeLayer.lineDashPhase`.
    public static let lineDashPhase = AnimatableKey.custom("lineDashPhase")
    /// `ShapeLayer.lineDashPattern`.
    public static let lineDashPattern = AnimatableKey.custom("lineDashPattern")
    /// `ShapeLayer.strokeStart`.
    public static let strokeStart = AnimatableKey.custom("strokeStart")
    /// `ShapeLayer.strokeEnd`.
    public static let strokeEnd = AnimatableKey.custom("strokeEnd")
    /// `TextLayer.fontSize`.
    public static let fontSize = AnimatableKey.custom("fontSize")
    /// `TextLayer.foregroundColor`.
    public static let foregroundColor = AnimatableKey.custom("foregroundColor")
    /// `GradientLayer.colors`.
    public static let colors = AnimatableKey.custom("colors")
    /// `GradientLayer.locations`.
    public static let locations = AnimatableKey.custom("locations")
    /// `GradientLayer.startPoint`.
    public static let startPoint = AnimatableKey.custom("startPoint")
    /// `GradientLayer.endPoint`.
    public static let endPoint = AnimatableKey.custom("endPoint")
    /// `ReplicatorLayer.instanceDelay`.
    public static let instanceDelay = AnimatableKey.custom("instanceDelay")
    /// `ReplicatorLayer.instanceTransform`.
    public static let instanceTransform = AnimatableKey.custom("instanceTransform")
    /// `ReplicatorLayer.instanceColor`.
    public static let instanceColor = AnimatableKey.custom("instanceColor")
    /// `ReplicatorLayer.instanceRedOffset`.
    public static let instanceRedOffset = AnimatableKey.custom("instanceRedOffset")
    /// `ReplicatorLayer.instanceGreenOffset`.
    public static let instanceGreenOffset = AnimatableKey.custom("instanceGreenOffset")
    /// `ReplicatorLayer.instanceBlueOffset`.
    public static let instanceBlueOffset = AnimatableKey.custom("instanceBlueOffset")
    /// `ReplicatorLayer.instanceAlphaOffset`.
    public static let instanceAlphaOffset = AnimatableKey.custom("instanceAlphaOffset")
}
