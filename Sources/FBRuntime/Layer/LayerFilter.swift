import Raster

/// One filter of `Layer.filters` (Core Animation's `CALayer.filters`): an
/// operation on the layer image, the layer and its sublayers rendered as
/// one group. Colour filters act on unpremultiplied colour with channels in
/// 0…1 and clamp their result to 0…1 (SVG filter primitives with
/// `color-interpolation-filters="sRGB"`, no linearisation).
///
/// Bad amounts never trap: NaN means the filter changes nothing (amount 1,
/// radius 0); amounts are clamped to `0…ColorMatrix.maximumAmount`, matrix
/// entries to `±ColorMatrixPlan.coefficientLimit`, and a blur's radius in
/// target pixels to `Compositor.maximumShadowRadius`.
public enum LayerFilter: Equatable, Sendable {
    /// SVG `feColorMatrix type="matrix"` (see `ColorMatrix`).
    case colorMatrix(ColorMatrix)
    /// SVG `feColorMatrix type="saturate"`, CSS `saturate()`: 0 grey, 1
    /// unchanged, above 1 more saturated. Animatable as
    /// `AnimatableKey.filterSaturation`.
    case saturation(Double)
    /// CSS `brightness()` (`feComponentTransfer` linear, slope b): 0
    /// black, 1 unchanged, alpha kept. Animatable as
    /// `AnimatableKey.filterBrightness`.
    case brightness(Double)
    /// CSS `contrast()` (`feComponentTransfer` linear, slope c, intercept
    /// 0.5 − 0.5c): 0 mid grey, 1 unchanged, alpha kept. Animatable as
    /// `AnimatableKey.filterContrast`.
    case contrast(Double)
    /// A Gaussian blur of the layer image (colour and alpha), radius in
    /// the layer's points (σ = radius / 2, as `shadowRadius`); it spreads
    /// the image by about 1.5 radii on every side, which the layer's damage
    /// and offscreen area include. 0 or less does nothing. Animatable as
    /// `AnimatableKey.filterBlurRadius`.
    case gaussianBlur(radius: Double)

    /// The colour matrix of a colour filter; `nil` for a blur.
    public var matrix: ColorMatrix? {
        switch self {
        case let .colorMatrix(m): return m
        case let .saturation(s): return .saturation(s)
        case let .brightness(b): return .brightness(b)
        case let .contrast(c): return .contrast(c)
        case .gaussianBlur: return nil
        }
    }

    /// The key path that animates this filter's scalar parameter (the
    /// first filter of its kind in the list); `nil` for a colour matrix,
    /// which does not animate.
    public var parameterKeyName: String? {
        switch self {
        case .colorMatrix: return nil
        case .saturation: return LayerFilter.saturationKeyName
        case .brightness: return LayerFilter.brightnessKeyName
        case .contrast: return LayerFilter.contrastKeyName
        case .gaussianBlur: return LayerFilter.blurRadiusKeyName
        }
    }

    /// The scalar parameter (amount or radius); `nil` for a colour matrix.
    public var parameter: Double? {
        switch self {
        case .colorMatrix: return nil
        case let .saturation(v), let .brightness(v), let .contrast(v): return v
        case let .gaussianBlur(radius): return radius
        }
    }

    /// The same filter with its scalar parameter replaced (a colour matrix
    /// is returned as it is).
    public func withParameter(_ v: Double) -> LayerFilter {
        switch self {
        case .colorMatrix: return self
        case .saturation: return .saturation(v)
        case .brightness: return .brightness(v)
        case .contrast: return .contrast(v)
        case .gaussianBlur: return .gaussianBlur(radius: v)
        }
    }

    /// True when `other` is the same kind of filter (parameters aside).
    func isSameKind(as other: LayerFilter) -> Bool {
        switch (self, other) {
        case (.colorMatrix, .colorMatrix), (.saturation, .saturation), (.brightness, .brightness),
             (.contrast, .contrast), (.gaussianBlur, .gaussianBlur): return true
        default: return false
        }
    }

    static let blurRadiusKeyName = "filters.gaussianBlur.inputRadius"
    static let saturationKeyName = "filters.saturation.inputAmount"
    static let brightnessKeyName = "filters.brightness.inputAmount"
    static let contrastKeyName = "filters.contrast.inputAmount"

    /// The position in `list` of the first filter whose parameter the key
    /// path `name` names, if any.
    static func indexOfParameter(named name: String, in list: [LayerFilter]) -> Int? {
        var i = 0
        while i < list.count {
            if let key = list[i].parameterKeyName, key == name { return i }
            i += 1
        }
        return nil
    }
}

// Core Animation animates a filter's parameter by key path
// ("filters.<name>.inputRadius"); here a filter is named by its kind, and the
// key drives the first filter of that kind in `filters`. Without one, the
// animation has nothing to drive.
extension AnimatableKey {
    /// The radius of the layer's first `.gaussianBlur` filter (points).
    public static let filterBlurRadius = AnimatableKey.custom(LayerFilter.blurRadiusKeyName)
    /// The amount of the layer's first `.saturation` filter.
    public static let filterSaturation = AnimatableKey.custom(LayerFilter.saturationKeyName)
    /// The amount of the layer's first `.brightness` filter.
    public static let filterBrightness = AnimatableKey.custom(LayerFilter.brightnessKeyName)
    /// The amount of the layer's first `.contrast` filter.
    public static let filterContrast = AnimatableKey.custom(LayerFilter.contrastKeyName)
}

extension Layer {
    /// The filter at `index` of `filters` as drawn at the layer's local
    /// time `t`: with its parameter animated when it is the first of its
    /// kind and an animation drives its key. No allocation.
    func presentedFilter(at index: Int, localTime t: MediaTime) -> LayerFilter {
        let list = filters
        let filter = list[index]
        guard !animations.isEmpty, let key = filter.parameterKeyName,
              LayerFilter.indexOfParameter(named: key, in: list) == index,
              let v = customPresentationValue(forKey: key, atLocalTime: t)?.scalarValue else { return filter }
        return filter.withParameter(v)
    }
}
