@testable import FBRuntime
import Raster

/// A layer with its top-left corner at (`x`, `y`) of its superlayer
/// (anchor point at the origin), `w` × `h` points, filled with `rgb` when
/// given: the building block of most test scenes.
func solidLayer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ rgb: UInt32? = nil) -> Layer {
    let l = Layer(name: name)
    l.bounds = Rect(x: 0, y: 0, width: w, height: h)
    l.anchorPoint = .zero
    l.position = Point(x: x, y: y)
    if let rgb { l.backgroundColor = Color(rgb: rgb) }
    return l
}
