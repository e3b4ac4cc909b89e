import Raster

/// A layer's animatable properties as one value: stored so in the model
/// (`LayerProperties.animatable`, whose defaults are these), and at one
/// time with its running animations applied in the order they were added,
/// each one seeing the value the previous ones produced (so additive
/// animations stack) and later ones overriding earlier ones.
///
/// This struct is the table of Layer's animatable properties: a field
/// here (with its default) is a property the model stores, presentation
/// copies and render-tree twins carry, and animations drive once its key
/// maps to it in `value(for:)` and `apply(_:to:)`
/// (`AnimatablePropertyTableTests` checks every key against both, against
/// `AnimatableKey.valueKind` and against `LayerSignature`).
///
/// Keys map to properties as Core Animation's key paths do: `position.x`
/// sets one coordinate, `bounds.size.width` one dimension, and the
/// `transform.*` subkeys one component of the decomposed transform (see
/// `applying(_:to:)`). A value of the wrong kind for its key is ignored.
struct PresentationValues {
    var geometry = LayerGeometry()
    var opacity: Double = 1
    var backgroundColor: Color? = nil
    var cornerRadius: Double = 0
    var borderWidth: Double = 0
    var borderColor: Color = .black
    var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter = Rect(x: 0, y: 0, width: 1, height: 1)
    var shadowColor: Color = .black
    var shadowOpacity: Double = 0
    var shadowOffset = Size(width: 0, height: -3)
    var shadowRadius: Double = 3
    var shadowPath: Path? = nil

    /// Every property at its default (a new layer's).
    init() {}

    var bounds: Rect { get { geometry.bounds } set { geometry.bounds = newValue } }
    var position: Point { get { geometry.position } set { geometry.position = newValue } }
    var anchorPoint: Point { get { geometry.anchorPoint } set { geometry.anchorPoint = newValue } }

    init(_ layer: Layer, at time: MediaTime) {
        var values: [(key: AnimatableKey, value: AnimatableValue)] = []
        self.init(layer, at: time, scratch: &values)
    }

    /// The same, collecting each animation's values in `values` (emptied
    /// first, its capacity kept): the compositor passes storage it keeps
    /// between frames, so evaluating animations does not allocate.
    init(_ layer: Layer, at time: MediaTime, scratch values: inout [(key: AnimatableKey, value: AnimatableValue)]) {
        self.init(modelOf: layer)
        guard !layer.animations.isEmpty else { return }
        let animations = layer.animations
        var a = 0
        while a < animations.count {
            if animations[a].animation.drivesOnlyCustomKeys { a += 1; continue }    // not a value of this struct
            values.removeAll(keepingCapacity: true)
            animations[a].animation.values(at: time, base: { key in self.value(for: key) }, into: &values)
            var k = 0
            while k < values.count { apply(values[k].value, to: values[k].key); k += 1 }
            a += 1
        }
    }

    /// The model values alone (no animation applied).
    init(modelOf layer: Layer) { self = layer.properties.animatable }

    /// The current value of `key`, as an animation's base.
    func value(for key: AnimatableKey) -> AnimatableValue? {
        let g = geometry
        switch key {
        case .position: return .point(g.position)
        case .positionX: return .scalar(g.position.x)
        case .positionY: return .scalar(g.position.y)
        case .bounds: return .rect(g.bounds)
        case .boundsOrigin: return .point(g.bounds.origin)
        case .boundsOriginX: return .scalar(g.bounds.origin.x)
        case .boundsOriginY: return .scalar(g.bounds.origin.y)
        case .boundsSize: return .point(Point(x: g.bounds.size.width, y: g.bounds.size.height))
        case .boundsSizeWidth: return .scalar(g.bounds.size.width)
        case .boundsSizeHeight: return .scalar(g.bounds.size.height)
        case .anchorPoint: return .point(g.anchorPoint)
        case .anchorPointZ: return .scalar(g.anchorPointZ)
        case .zPosition: return .scalar(g.zPosition)
        case .transform: return .transform(g.transform)
        case .sublayerTransform: return .transform(g.sublayerTransform)
        case .transformRotationX, .transformRotationY, .transformRotationZ:
            return .scalar(0)                 // additive rotations start from the model transform
        case .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ:
            guard let d = g.transform.decomposed else { return nil }
            switch key {
            case .transformScaleX: return .scalar(d.scale.x)
            case .transformScaleY: return .scalar(d.scale.y)
            case .transformScaleZ: return .scalar(d.scale.z)
            default: return .scalar(d.scale.x)
            }
        case .transformTranslation: return .point(Point(x: g.transform.m41, y: g.transform.m42))
        case .transformTranslationX: return .scalar(g.transform.m41)
        case .transformTranslationY: return .scalar(g.transform.m42)
        case .transformTranslationZ: return .scalar(g.transform.m43)
        case .opacity: return .scalar(opacity)
        case .backgroundColor: return backgroundColor.map { .color($0) }
        case .cornerRadius: return .scalar(cornerRadius)
        case .borderWidth: return .scalar(borderWidth)
        case .borderColor: return .color(borderColor)
        case .shadowColor: return .color(shadowColor)
        case .shadowOpacity: return .scalar(shadowOpacity)
        case .shadowOffset: return .point(Point(x: shadowOffset.width, y: shadowOffset.height))
        case .shadowRadius: return .scalar(shadowRadius)
        case .shadowPath: return shadowPath.map { .path($0) }
        case .contentsRect: return .rect(contentsRect)
        case .contentsCenter: return .rect(contentsCenter)
        case .custom: return nil
        }
    }

    /// Sets the property behind `key` from `value` (ignored when the kind
    /// does not fit). Transform subkeys replace one component of the
    /// decomposed transform — rotation about an axis (the whole rotation
    /// becomes that rotation), a scale factor, a translation — and
    /// recompose; a transform that cannot be decomposed is left alone.
    mutating func apply(_ value: AnimatableValue, to key: AnimatableKey) {
        switch (key, value) {
        case let (.position, .point(p)): geometry.position = p
        case let (.positionX, .scalar(v)): geometry.position.x = v
        case let (.positionY, .scalar(v)): geometry.position.y = v
        case let (.bounds, .rect(r)): geometry.bounds = r
        case let (.boundsOrigin, .point(p)): geometry.bounds.origin = p
        case let (.boundsOriginX, .scalar(v)): geometry.bounds.origin.x = v
        case let (.boundsOriginY, .scalar(v)): geometry.bounds.origin.y = v
        case let (.boundsSize, .point(p)): geometry.bounds.size = Size(width: p.x, height: p.y)
        case let (.boundsSizeWidth, .scalar(v)): geometry.bounds.size.width = v
        case let (.boundsSizeHeight, .scalar(v)): geometry.bounds.size.height = v
        case let (.anchorPoint, .point(p)): geometry.anchorPoint = p
        case let (.anchorPointZ, .scalar(v)): geometry.anchorPointZ = v
        case let (.zPosition, .scalar(v)): geometry.zPosition = v
        case let (.transform, .transform(t)): geometry.transform = t
        case let (.sublayerTransform, .transform(t)): geometry.sublayerTransform = t
        case let (.transformRotationX, .scalar(a)): setTransformComponent { $0.rotation = Quaternion(angle: a, x: 1, y: 0, z: 0) }
        case let (.transformRotationY, .scalar(a)): setTransformComponent { $0.rotation = Quaternion(angle: a, x: 0, y: 1, z: 0) }
        case let (.transformRotationZ, .scalar(a)): setTransformComponent { $0.rotation = Quaternion(angle: a, x: 0, y: 0, z: 1) }
        case let (.transformScale, .scalar(s)): setTransformComponent { $0.scale = Vector3(x: s, y: s, z: s) }
        case let (.transformScaleX, .scalar(s)): setTransformComponent { $0.scale.x = s }
        case let (.transformScaleY, .scalar(s)): setTransformComponent { $0.scale.y = s }
        case let (.transformScaleZ, .scalar(s)): setTransformComponent { $0.scale.z = s }
        case let (.transformTranslation, .point(p)): setTransformComponent { $0.translation.x = p.x; $0.translation.y = p.y }
        case let (.transformTranslationX, .scalar(v)): setTransformComponent { $0.translation.x = v }
        case let (.transformTranslationY, .scalar(v)): setTransformComponent { $0.translation.y = v }
        case let (.transformTranslationZ, .scalar(v)): setTransformComponent { $0.translation.z = v }
        case let (.opacity, .scalar(v)): opacity = v
        case let (.backgroundColor, .color(c)): backgroundColor = c
        case let (.cornerRadius, .scalar(v)): cornerRadius = v
        case let (.borderWidth, .scalar(v)): borderWidth = v
        case let (.borderColor, .color(c)): borderColor = c
        case let (.shadowColor, .color(c)): shadowColor = c
        case let (.shadowOpacity, .scalar(v)): shadowOpacity = v
        case let (.shadowOffset, .point(p)): shadowOffset = Size(width: p.x, height: p.y)
        case let (.shadowRadius, .scalar(v)): shadowRadius = v
        case let (.shadowPath, .path(p)): shadowPath = p
        case let (.contentsRect, .rect(r)): contentsRect = r
        case let (.contentsCenter, .rect(r)): contentsCenter = r
        default: break
        }
    }

    private mutating func setTransformComponent(_ change: (inout Transform3D.Decomposition) -> Void) {
        guard var d = geometry.transform.decomposed else { return }
        change(&d)
        geometry.transform = d.recomposed
    }
}
