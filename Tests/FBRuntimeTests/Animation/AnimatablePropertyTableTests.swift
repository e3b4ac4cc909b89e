import XCTest
@testable import FBRuntime
import Raster

/// Issue 19: Layer's animatable properties are one table
/// (`PresentationValues`, stored in the model as
/// `LayerProperties.animatable`). This checks every named key against it,
/// so a key or field added without the rest fails here: the key maps to a
/// field (`value(for:)` and `apply(_:to:)` agree, in the kind
/// `AnimatableKey.valueKind` says), an animation of it changes the
/// presentation copy, and the compositor redraws when only it changes
/// (the damage signature sees it).
final class AnimatablePropertyTableTests: XCTestCase {
    /// A value of `kind` unlike the defaults and unlike each other.
    func sample(_ kind: AnimatableValueKind, for key: AnimatableKey) -> AnimatableValue {
        switch kind {
        case .scalar:
            switch key {
            case .opacity, .shadowOpacity: return .scalar(0.5)
            case .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ: return .scalar(1.5)
            case .transformRotationX, .transformRotationY, .transformRotationZ: return .scalar(0.3)
            default: return .scalar(7)
            }
        case .point: return .point(Point(x: 5, y: 6))
        case .rect:
            if key == .contentsRect || key == .contentsCenter { return .rect(Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)) }
            return .rect(Rect(x: 2, y: 3, width: 30, height: 20))
        case .color: return .color(Color(rgb: 0x40C080))
        case .transform: return .transform(Transform3D(translationX: 4, y: 3))
        case .path:
            var p = Path()
            p.addRect(0, 0, 10, 8)
            return .path(p)
        case .colors, .scalars: return .scalar(0)
        }
    }

    func testEveryKeyMapsToOneFieldInItsKind() {
        for (key, name) in AnimatableKey.table {
            guard let kind = key.valueKind else { return XCTFail("\(name) has no value kind") }
            var values = PresentationValues()
            if let base = values.value(for: key) {
                XCTAssertEqual(AnimatableValueKind(base), kind, "\(name): the base value's kind")
            } else {
                // Only optional properties (unset by default) have no base.
                XCTAssertTrue([.backgroundColor, .shadowPath].contains(key), "\(name): no base value")
            }
            let new = sample(kind, for: key)
            values.apply(new, to: key)
            let rotation = [AnimatableKey.transformRotationX, .transformRotationY, .transformRotationZ].contains(key)
            if !rotation {
                XCTAssertNotEqual(values.value(for: key).map { "\($0)" }, PresentationValues().value(for: key).map { "\($0)" },
                                  "\(name): apply changed nothing")
            }
            switch key {
            case .transformRotationX, .transformRotationY, .transformRotationZ:
                // Additive from the model transform: the base stays 0; the
                // transform holds the rotation.
                XCTAssertNotEqual(values.geometry.transform, Transform3D.identity, name)
            case .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ:
                XCTAssertEqual(values.value(for: key)?.scalarValue ?? 0, 1.5, accuracy: 1e-9, name)
            default:
                XCTAssertEqual(values.value(for: key), new, "\(name): apply then value(for:) gives it back")
            }
            // A value of another kind is ignored.
            var other = PresentationValues()
            other.apply(kind == .scalar ? .color(.white) : .scalar(3), to: key)
            XCTAssertEqual("\(other.value(for: key) as Any)", "\(PresentationValues().value(for: key) as Any)", "\(name): wrong kind ignored")
        }
    }

    /// For each key: a layer at rest, then the same layer with only that
    /// key animated to another value: the presentation copy shows it, and
    /// the compositor's next frame redraws (the damage signature changed).
    func testAnimatingAnyKeyAloneChangesThePresentationAndDamages() {
        for (key, name) in AnimatableKey.table {
            guard let kind = key.valueKind else { continue }
            let root = Layer(name: "root")
            root.bounds = Rect(x: 0, y: 0, width: 80, height: 60)
            root.anchorPoint = .zero
            let layer = Layer(name: name)
            layer.bounds = Rect(x: 0, y: 0, width: 40, height: 30)
            layer.position = Point(x: 40, y: 30)
            layer.backgroundColor = Color(rgb: 0x2050A0)
            layer.borderWidth = 2
            layer.borderColor = Color(rgb: 0xE0E0E0)
            layer.shadowOpacity = 0.8
            layer.contents = LayerContents(Surface<ARGB8888>(width: 4, height: 4)!)
            let inner = Layer(name: "inner")       // what sublayerTransform moves
            inner.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
            inner.position = Point(x: 12, y: 10)
            inner.backgroundColor = Color(rgb: 0xF0A020)
            try! layer.addSublayer(inner)
            try! root.addSublayer(layer)
            let compositor = Compositor()
            let frame = Surface<ARGB8888>(width: 80, height: 60)!
            compositor.render(root, at: 0, into: frame.view)
            compositor.render(root, at: 0, into: frame.view)
            XCTAssertEqual(compositor.damage.area, 0, "\(name): at rest")
            let value = sample(kind, for: key)
            layer.add(.basic(BasicAnimation(key: key, from: value, to: value, duration: 10)), forKey: "a", at: 0)
            let shown = layer.presentation(at: 1)
            if [AnimatableKey.transformRotationX, .transformRotationY, .transformRotationZ].contains(key) {
                // Rotations add to the model transform (their base is 0).
                XCTAssertNotEqual(shown.transform, layer.transform, "\(name): the presentation copy is turned")
            } else {
                XCTAssertNotEqual("\(shown.presentationValue(for: key, at: 1) as Any)", "\(layer.presentationValue(for: key, at: -1) as Any)",
                                  "\(name): the presentation copy shows the animated value")
            }
            compositor.render(root, at: 1, into: frame.view)
            // zPosition and anchorPointZ alone move nothing on a flat layer
            // without perspective: nothing to redraw is right for them.
            if key == .zPosition || key == .anchorPointZ || key == .transformTranslationZ || key == .transformScaleZ { continue }
            XCTAssertGreaterThan(compositor.damage.area, 0, "\(name): animating it alone redraws")
        }
    }
}
