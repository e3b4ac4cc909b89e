import Raster

/// Every model property of a `Layer`, as one value.
///
/// The layer's public accessors (`opacity`, `bounds`, `contents`, …) read
/// and write the fields of its `properties`, and their documentation says
/// what each means; this struct is where they are *stored*, so that a
/// property is added in one place and everything that moves a layer's
/// state as a whole sees it without being told:
/// - a commit hands the value to the layer's render-tree twin
///   (`RenderTreeUpdate`; only layers that changed since the last commit);
/// - presentation copies and twins are made from it
///   (`copyModelProperties(from:)`);
/// - setting any field marks the layer changed for the next commit
///   (`Layer.noteModelChange()`).
/// A property that animates also needs its key (`AnimatableKey`), its
/// place in `PresentationValues` and its drawing.
///
/// Not here: the tree (`sublayers`, `superlayer`, `mask`), animations,
/// actions and delegate, custom property values (`setValue(_:forKey:)`,
/// handed over beside it), app-side drawing hooks (`drawHandler`,
/// `needsDisplayOnBoundsChange`), render-side caches, and the properties
/// of layer subclasses (which copy their own in `copyLayerState(from:)`).
public struct LayerProperties {
    var name: String = "layer"
    var geometry: LayerGeometry = LayerGeometry()
    var contentsScale: Double = 1
    var opacity: Double = 1
    var isHidden: Bool = false
    var backgroundColor: Color? = nil
    var cornerRadius: Double = 0
    var maskedCorners: CornerMask? = nil
    var masksToBounds: Bool = false
    var borderWidth: Double = 0
    var borderColor: Color = .black
    var contents: LayerContents? = nil
    var contentsGravity: ContentsGravity = .resize
    var contentsRect: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter: Rect = Rect(x: 0, y: 0, width: 1, height: 1)
    var minificationFilter: ContentsFilter = .linear
    var magnificationFilter: ContentsFilter = .linear
    var shadowColor: Color = .black
    var shadowOpacity: Double = 0
    var shadowOffset: Size = Size(width: 0, height: -3)
    var shadowRadius: Double = 3
    var shadowPath: Path? = nil
    var allowsGroupOpacity: Bool = true
    var isDoubleSided: Bool = true
    var allowsEdgeAntialiasing: Bool = Layer.defaultAllowsEdgeAntialiasing
    var edgeAntialiasingMask: EdgeAntialiasingMask = .all
    var isOpaque: Bool = false
    var shouldRasterize: Bool = false
    var rasterizationScale: Double = 1
    var compositingOperator: BlendOperator = .srcOver
    var backgroundBlurRadius: Double = 0
    var beginTime: MediaTime = 0
    var speed: Double = 1
    var timeOffset: Double = 0
    var duration: Double = 0
    var repeatCount: Double = 0
    var repeatDuration: Double = 0
    var autoreverses = false
    var fillMode: FillMode = .removed
    init(name: String) { self.name = name }
}
