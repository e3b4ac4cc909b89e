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
/// A property that animates is a field of `animatable` (see
/// `PresentationValues`, the table of them) and needs its key
/// (`AnimatableKey`) and its drawing.
///
/// Not here: the tree (`sublayers`, `superlayer`, `mask`), animations,
/// actions and delegate, custom property values (`setValue(_:forKey:)`,
/// handed over beside it), app-side drawing hooks (`drawHandler`,
/// `needsDisplayOnBoundsChange`), render-side caches, and the properties
/// of layer subclasses (which copy their own in `copyLayerState(from:)`).
public struct LayerProperties {
    var name: String = "layer"
    /// The animatable properties (geometry, opacity, colours, corner
    /// radius, border, contents rectangles, shadow): a `PresentationValues`
    /// with no animation applied, so presentation values start from a copy
    /// of it and presentation copies end in one.
    var animatable = PresentationValues()
    var contentsScale: Double = 1
    var isHidden: Bool = false
    var maskedCorners: CornerMask? = nil
    var masksToBounds: Bool = false
    var contents: LayerContents? = nil
    var contentsGravity: ContentsGravity = .resize
    var minificationFilter: ContentsFilter = .linear
    var minificationFilterBias: Double = 0
    var magnificationFilter: ContentsFilter = .linear
    var allowsGroupOpacity: Bool = true
    var isDoubleSided: Bool = true
    var allowsEdgeAntialiasing: Bool = Layer.defaultAllowsEdgeAntialiasing
    var edgeAntialiasingMask: EdgeAntialiasingMask = .all
    var isOpaque: Bool = false
    var shouldRasterize: Bool = false
    var rasterizationScale: Double = 1
    var compositingOperator: BlendOperator = .srcOver
    var backgroundBlurRadius: Double = 0
    var filters: [LayerFilter] = []
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
