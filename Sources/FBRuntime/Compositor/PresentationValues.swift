import Raster

/// The presentation values of one layer at one time: the model values with
/// its running animations applied, later animations overriding earlier ones.
/// The layer-image properties are carried as model values until the
/// animation issue gives them keys.
struct PresentationValues {
    var bounds: Rect
    var position: Point
    var anchorPoint: Point
    /// The model's geometry with the animated bounds, position and anchor
    /// point. (Animating transform, zPosition and the rest comes with the
    /// animation issue's key paths.)
    var geometry: LayerGeometry {
        var g = modelGeometry
        g.bounds = bounds; g.position = position; g.anchorPoint = anchorPoint
        return g
    }
    private var modelGeometry: LayerGeometry
    var opacity: Double
    var backgroundColor: Color?
    var cornerRadius: Double
    var borderWidth: Double
    var borderColor: Color
    var contentsRect: Rect
    var contentsCenter: Rect
    var shadowColor: Color
    var shadowOpacity: Double
    var shadowOffset: Size
    var shadowRadius: Double

    init(_ layer: Layer, at time: MediaTime) {
        modelGeometry = layer.geometry
        bounds = layer.bounds
        position = layer.position
        anchorPoint = layer.anchorPoint
        opacity = layer.opacity
        backgroundColor = layer.backgroundColor
        cornerRadius = layer.cornerRadius
        borderWidth = layer.borderWidth
        borderColor = layer.borderColor
        contentsRect = layer.contentsRect
        contentsCenter = layer.contentsCenter
        shadowColor = layer.shadowColor
        shadowOpacity = layer.shadowOpacity
        shadowOffset = layer.shadowOffset
        shadowRadius = layer.shadowRadius
        for (_, animation) in layer.animations {
            guard let value = animation.value(at: time) else { continue }
            switch (animation.key, value) {
            case let (.position, .point(p)): position = p
            case let (.bounds, .rect(r)): bounds = r
            case let (.opacity, .scalar(o)): opacity = o
            case let (.backgroundColor, .color(c)): backgroundColor = c
            default: break   // a value of the wrong kind for its key is ignored
            }
        }
    }
}
