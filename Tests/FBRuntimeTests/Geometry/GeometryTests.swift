import XCTest
@testable import FBRuntime
import Raster

// Helpers -------------------------------------------------------------------

private func assertEqual(_ a: Transform3D, _ b: Transform3D, accuracy: Double,
                         _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let pa = [a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24, a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43, a.m44]
    let pb = [b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24, b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43, b.m44]
    for i in 0..<16 where !(abs(pa[i] - pb[i]) <= accuracy) {
        XCTFail("m\(i / 4 + 1)\(i % 4 + 1): \(pa[i]) vs \(pb[i]) \(message)\n\(a)\n\(b)", file: file, line: line)
        return
    }
}

private func assertEqual(_ a: Point, _ b: Point, accuracy: Double,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.x, b.x, accuracy: accuracy, "x of \(a) vs \(b)", file: file, line: line)
    XCTAssertEqual(a.y, b.y, accuracy: accuracy, "y of \(a) vs \(b)", file: file, line: line)
}

private func assertEqual(_ a: Rect, _ b: Rect, accuracy: Double,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.minX, b.minX, accuracy: accuracy, "minX of \(a) vs \(b)", file: file, line: line)
    XCTAssertEqual(a.minY, b.minY, accuracy: accuracy, "minY of \(a) vs \(b)", file: file, line: line)
    XCTAssertEqual(a.width, b.width, accuracy: accuracy, "width of \(a) vs \(b)", file: file, line: line)
    XCTAssertEqual(a.height, b.height, accuracy: accuracy, "height of \(a) vs \(b)", file: file, line: line)
}

private func randomMatrix(_ rng: inout SplitMix64, range: Double = 2) -> Transform3D {
    func r() -> Double { (rng.unit() * 2 - 1) * range }
    return Transform3D(m11: r(), m12: r(), m13: r(), m14: r(), m21: r(), m22: r(), m23: r(), m24: r(),
                       m31: r(), m32: r(), m33: r(), m34: r(), m41: r(), m42: r(), m43: r(), m44: r())
}

/// A transform built the way apps build them: scale, shear, rotation about a
/// random axis, translation and some perspective.
private func randomLayerTransform(_ rng: inout SplitMix64) -> Transform3D {
    func r(_ lo: Double, _ hi: Double) -> Double { lo + rng.unit() * (hi - lo) }
    var shear = Transform3D.identity
    shear.m21 = r(-0.5, 0.5); shear.m31 = r(-0.5, 0.5); shear.m32 = r(-0.5, 0.5)
    var perspective = Transform3D.identity
    perspective.m14 = r(-0.002, 0.002); perspective.m24 = r(-0.002, 0.002); perspective.m34 = r(-0.01, 0)
    let sign = rng.below(4) == 0 ? -1.0 : 1.0
    return Transform3D(scaleX: r(0.2, 3) * sign, y: r(0.2, 3), z: r(0.2, 3))
        .concatenating(shear)
        .concatenating(.rotation(radians: r(-6, 6), x: r(-1, 1), y: r(-1, 1), z: r(-1, 1)))
        .concatenating(.translation(x: r(-300, 300), y: r(-300, 300), z: r(-100, 100)))
        .concatenating(perspective)
}

private func normalized(_ m: Transform3D) -> Transform3D {
    let n = 1 / m.m44
    return Transform3D(m11: m.m11 * n, m12: m.m12 * n, m13: m.m13 * n, m14: m.m14 * n,
                       m21: m.m21 * n, m22: m.m22 * n, m23: m.m23 * n, m24: m.m24 * n,
                       m31: m.m31 * n, m32: m.m32 * n, m33: m.m33 * n, m34: m.m34 * n,
                       m41: m.m41 * n, m42: m.m42 * n, m43: m.m43 * n, m44: 1)
}

private func layer(_ name: String, bounds: Rect, position: Point, anchor: Point = Point(x: 0.5, y: 0.5)) -> Layer {
    let l = Layer(name: name)
    l.bounds = bounds
    l.position = position
    l.anchorPoint = anchor
    return l
}

// Transform3D -----------------------------------------------------------------

final class Transform3DTests: XCTestCase {
    func testConstructorsFollowCoreAnimationLayout() {
        let t = Transform3D(translationX: 1, y: 2, z: 3)
        XCTAssertEqual([t.m41, t.m42, t.m43], [1, 2, 3])
        // A positive rotation about z turns +x towards +y, as CGAffineTransform.
        let r = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let p = r.apply(x: 1, y: 0)
        XCTAssertEqual(p.x, 0, accuracy: 1e-15)
        XCTAssertEqual(p.y, 1, accuracy: 1e-15)
        assertEqual(r, Transform3D(AffineTransform(rotationAngle: .pi / 2)), accuracy: 0)
        // About x: +y towards +z; about y: +z towards +x (right-handed).
        let rx = Transform3D.rotation(radians: .pi / 2, x: 1, y: 0, z: 0).apply(x: 0, y: 1, z: 0)
        XCTAssertEqual(rx.z, 1, accuracy: 1e-15)
        let ry = Transform3D.rotation(radians: .pi / 2, x: 0, y: 1, z: 0).apply(x: 0, y: 0, z: 1)
        XCTAssertEqual(ry.x, 1, accuracy: 1e-15)
        // The axis need not be normalised; a zero axis is the identity.
        assertEqual(.rotation(radians: 0.7, x: 0, y: 0, z: 5), .rotation(radians: 0.7, x: 0, y: 0, z: 1), accuracy: 1e-16)
        XCTAssertTrue(Transform3D.rotation(radians: 0.7, x: 0, y: 0, z: 0).isIdentity)
        // Perspective: a point nearer the eye is drawn larger.
        let d = Transform3D.perspective(distance: 500)
        XCTAssertEqual(d.m34, -1.0 / 500)
        let q = d.apply(x: 10, y: 0, z: 100)
        XCTAssertEqual(q.x / q.w, 12.5, accuracy: 1e-12)
    }

    func testConcatenationOrderIsCATransform3DConcat() {
        // a.concatenating(b) applies a first: scale then translate.
        let m = Transform3D.scale(x: 2, y: 2).concatenating(.translation(x: 10, y: 0))
        XCTAssertEqual(m.apply(x: 1, y: 0).x, 12)
        // translatedBy puts the new operation first (CATransform3DTranslate).
        XCTAssertEqual(Transform3D.scale(x: 2, y: 2).translatedBy(x: 10, y: 0).apply(x: 1, y: 0).x, 22)
        XCTAssertEqual(Transform3D.scale(x: 2, y: 2).rotated(by: .pi, x: 0, y: 0, z: 1).apply(x: 1, y: 0).x, -2, accuracy: 1e-15)
    }

    func testAffineConversionAndIsAffine() {
        let a = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = Transform3D(a)
        XCTAssertTrue(t.isAffine)
        XCTAssertEqual(t.affineTransform, a)
        XCTAssertTrue(t.flattened.isAffine)
        XCTAssertEqual(t.flattened, ProjectiveTransform(a))
        XCTAssertFalse(Transform3D.perspective(distance: 100).isAffine)
        XCTAssertFalse(Transform3D.translation(x: 0, y: 0, z: 1).isAffine)
        XCTAssertFalse(Transform3D.rotation(radians: 0.3, x: 1, y: 0, z: 0).isAffine)
        XCTAssertTrue(Transform3D.identity.isIdentity && Transform3D.identity.isAffine)
        // Concatenation agrees with AffineTransform's.
        let b = AffineTransform(rotationAngle: 0.4).translatedBy(x: 3, y: -7)
        assertEqual(Transform3D(a).concatenating(Transform3D(b)), Transform3D(a.concatenating(b)), accuracy: 1e-12)
    }

    func testFlattenedMatchesProjectingThePlane() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let m = randomLayerTransform(&rng)
            let x = rng.unit() * 200 - 100, y = rng.unit() * 200 - 100
            let h = m.apply(x: x, y: y)
            guard h.w > 0 else { continue }
            let f = try! XCTUnwrap(m.flattened.apply(x: x, y: y))
            XCTAssertEqual(f.x, h.x / h.w, accuracy: 1e-9 * (1 + abs(f.x)))
            XCTAssertEqual(f.y, h.y / h.w, accuracy: 1e-9 * (1 + abs(f.y)))
        }
    }

    func testConcatAndInvertRoundTripsOnRandomMatrices() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        var inverted = 0
        for i in 0..<500 {
            let a = i % 2 == 0 ? randomMatrix(&rng) : randomLayerTransform(&rng)
            let b = randomMatrix(&rng)
            // Associativity and agreement with applying one after the other.
            let c = randomMatrix(&rng)
            assertEqual(a.concatenating(b).concatenating(c), a.concatenating(b.concatenating(c)), accuracy: 1e-9)
            let p = (x: rng.unit() * 10, y: rng.unit() * 10, z: rng.unit() * 10)
            let ab = a.concatenating(b).apply(x: p.x, y: p.y, z: p.z)
            let h = a.apply(x: p.x, y: p.y, z: p.z)
            let viaB = (x: h.x * b.m11 + h.y * b.m21 + h.z * b.m31 + h.w * b.m41,
                        w: h.x * b.m14 + h.y * b.m24 + h.z * b.m34 + h.w * b.m44)
            XCTAssertEqual(ab.x, viaB.x, accuracy: 1e-9)
            XCTAssertEqual(ab.w, viaB.w, accuracy: 1e-9)

            guard let ai = a.inverted() else { continue }
            inverted += 1
            // Rounding error grows with the condition number |A|·|A⁻¹|.
            func size(_ m: Transform3D) -> Double {
                [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
                 m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44].map(abs).max()!
            }
            let condition = size(a) * size(ai)
            assertEqual(a.concatenating(ai), .identity, accuracy: 1e-14 * condition, "A·A⁻¹, sample \(i)")
            assertEqual(ai.concatenating(a), .identity, accuracy: 1e-14 * condition, "A⁻¹·A, sample \(i)")
            // Inverting twice compounds it: relative error ~ ε·κ².
            assertEqual(try! XCTUnwrap(ai.inverted()), a, accuracy: 1e-14 * condition * condition * size(a),
                        "(A⁻¹)⁻¹, sample \(i)")
            // (A·B)⁻¹ = B⁻¹·A⁻¹
            if let bi = b.inverted(), let abi = a.concatenating(b).inverted() {
                let cb = size(b) * size(bi)
                assertEqual(abi, bi.concatenating(ai), accuracy: 1e-14 * condition * cb * size(abi), "sample \(i)")
            }
        }
        XCTAssertGreaterThan(inverted, 450)   // random matrices are almost never singular
    }

    func testSingularAndNonFiniteMatricesDoNotInvert() {
        XCTAssertNil(Transform3D.scale(x: 0, y: 1).inverted())
        XCTAssertNil(Transform3D.scale(x: 1, y: 1, z: 0).inverted())
        // Rows exactly or nearly parallel (a rank-3 matrix in rounding).
        var t = Transform3D.identity
        t.m21 = 1; t.m22 = 1e-17
        XCTAssertNil(t.inverted())
        var nan = Transform3D.identity
        nan.m23 = .nan
        XCTAssertNil(nan.inverted())
        var inf = Transform3D.identity
        inf.m41 = .infinity
        XCTAssertNil(inf.inverted())
        // Tiny but healthy scales still invert (the test is relative).
        let tiny = Transform3D.scale(x: 1e-13, y: 1e-13, z: 1e-13)
        XCTAssertEqual(try XCTUnwrap(tiny.inverted()).m11, 1e13, accuracy: 1)
    }
}

// Decomposition and interpolation ---------------------------------------------

final class TransformInterpolationTests: XCTestCase {
    func testDecomposeRecomposeRoundTrip() throws {
        var rng = SplitMix64(seed: 42)
        var decomposed = 0
        for i in 0..<500 {
            let m = i % 3 == 0 ? randomMatrix(&rng) : randomLayerTransform(&rng)
            guard let d = m.decomposed else { continue }
            decomposed += 1
            let q = d.rotation
            XCTAssertEqual(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1, accuracy: 1e-12)
            let n = normalized(m)
            let size = [n.m11, n.m12, n.m13, n.m14, n.m21, n.m22, n.m23, n.m24,
                        n.m31, n.m32, n.m33, n.m34, n.m41, n.m42, n.m43, 1].map(abs).max()!
            assertEqual(d.recomposed, n, accuracy: 1e-10 * size, "sample \(i)")
        }
        XCTAssertGreaterThan(decomposed, 480)
    }

    func testDecompositionOfKnownFactors() throws {
        let m = Transform3D.scale(x: 2, y: 3, z: 4)
            .concatenating(.rotation(radians: 0.5, x: 0, y: 0, z: 1))
            .concatenating(.translation(x: 10, y: 20, z: 30))
        let d = try XCTUnwrap(m.decomposed)
        XCTAssertEqual(d.scale.x, 2, accuracy: 1e-12)
        XCTAssertEqual(d.scale.y, 3, accuracy: 1e-12)
        XCTAssertEqual(d.scale.z, 4, accuracy: 1e-12)
        XCTAssertEqual(d.shear, .zero)
        XCTAssertEqual(d.translation, Vector3(x: 10, y: 20, z: 30))
        XCTAssertEqual(d.perspective.w, 1)
        let expected = Quaternion(angle: 0.5, x: 0, y: 0, z: 1)
        XCTAssertEqual(d.rotation.z, expected.z, accuracy: 1e-12)
        XCTAssertEqual(d.rotation.w, expected.w, accuracy: 1e-12)
        // Perspective is recovered.
        let p = try XCTUnwrap(Transform3D.translation(x: 5, y: 0).concatenating(.perspective(distance: 400)).decomposed)
        XCTAssertEqual(p.perspective.z, -1.0 / 400, accuracy: 1e-15)
        XCTAssertEqual(p.translation.x, 5)
    }

    func testDecomposeAngles() {
        // Rotations all the way round, including the 180° turns where the
        // trace method loses precision.
        for degrees in stride(from: -360.0, through: 360, by: 15) {
            for axis in [(0.0, 0.0, 1.0), (1, 0, 0), (0, 1, 0), (1, 2, -3)] {
                let m = Transform3D.rotation(radians: degrees * .pi / 180, x: axis.0, y: axis.1, z: axis.2)
                guard let d = m.decomposed else { return XCTFail("\(degrees)° not decomposed") }
                assertEqual(d.recomposed, m, accuracy: 1e-14, "\(degrees)°")
            }
        }
    }

    func testInterpolationEndpointsAreExact() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let a = randomLayerTransform(&rng), b = randomLayerTransform(&rng)
            XCTAssertEqual(Transform3D.interpolate(from: a, to: b, t: 0), a)
            XCTAssertEqual(Transform3D.interpolate(from: a, to: b, t: 1), b)
            // Close to the endpoints the result is close to them (continuity).
            assertEqual(Transform3D.interpolate(from: a, to: b, t: 1e-9), normalized(a), accuracy: 1e-5)
            assertEqual(Transform3D.interpolate(from: a, to: b, t: 1 - 1e-9), normalized(b), accuracy: 1e-5)
        }
    }

    func testHalfwayBetweenRotationsIsTheHalfAngle() {
        let a = Transform3D.rotation(radians: 0.2, x: 0, y: 0, z: 1)
        let b = Transform3D.rotation(radians: 1.4, x: 0, y: 0, z: 1)
        assertEqual(Transform3D.interpolate(from: a, to: b, t: 0.5), .rotation(radians: 0.8, x: 0, y: 0, z: 1), accuracy: 1e-14)
        assertEqual(Transform3D.interpolate(from: a, to: b, t: 0.25), .rotation(radians: 0.5, x: 0, y: 0, z: 1), accuracy: 1e-14)
        // About another axis too.
        let c = Transform3D.rotation(radians: 1, x: 1, y: 1, z: 0)
        assertEqual(Transform3D.interpolate(from: .identity, to: c, t: 0.5), .rotation(radians: 0.5, x: 1, y: 1, z: 0), accuracy: 1e-14)
    }

    func testRotationByHalfATurnStaysARotation() {
        // Element-wise interpolation of 0° → 180° passes through the zero
        // matrix; slerp must keep a unit-scale rotation all the way.
        let b = Transform3D.rotation(radians: .pi, x: 0, y: 0, z: 1)
        for step in 1..<10 {
            let t = Double(step) / 10
            let m = Transform3D.interpolate(from: .identity, to: b, t: t)
            XCTAssertEqual(m.m11 * m.m11 + m.m12 * m.m12, 1, accuracy: 1e-12, "t = \(t)")
            XCTAssertEqual(m.m11 * m.m21 + m.m12 * m.m22, 0, accuracy: 1e-12, "t = \(t)")
            XCTAssertEqual(m.m11 * m.m22 - m.m12 * m.m21, 1, accuracy: 1e-12, "t = \(t)")
            XCTAssertEqual(abs(m.m33), 1, accuracy: 1e-12)
            // And the angle advances uniformly: |angle| = t·π.
            XCTAssertEqual(abs(atan2(m.m12, m.m11)), t * .pi, accuracy: 1e-12, "t = \(t)")
        }
        let half = Transform3D.interpolate(from: .identity, to: b, t: 0.5)
        XCTAssertEqual(abs(half.m12), 1, accuracy: 1e-12)
    }

    func testTranslationScaleAndRotationInterpolateTogether() {
        let a = Transform3D.identity
        let b = Transform3D.scale(x: 3, y: 3).concatenating(.rotation(radians: .pi / 2, x: 0, y: 0, z: 1))
            .concatenating(.translation(x: 100, y: 0))
        let m = Transform3D.interpolate(from: a, to: b, t: 0.5)
        let expected = Transform3D.scale(x: 2, y: 2).concatenating(.rotation(radians: .pi / 4, x: 0, y: 0, z: 1))
            .concatenating(.translation(x: 50, y: 0))
        assertEqual(m, expected, accuracy: 1e-12)
        // Perspective interpolates linearly.
        let p = Transform3D.interpolate(from: .identity, to: .perspective(distance: 500), t: 0.5)
        XCTAssertEqual(p.m34, -0.001, accuracy: 1e-15)
    }

    func testInterpolatingBadTransformsDoesNotTrap() {
        var nan = Transform3D.identity
        nan.m12 = .nan
        let flat = Transform3D.scale(x: 0, y: 1)
        let r = Transform3D.rotation(radians: 1, x: 0, y: 0, z: 1)
        XCTAssertNil(nan.decomposed)
        XCTAssertNil(flat.decomposed)
        var zero44 = Transform3D.identity
        zero44.m44 = 0
        XCTAssertNil(zero44.decomposed)
        // Discrete fallback at t = 0.5.
        XCTAssertEqual(Transform3D.interpolate(from: flat, to: r, t: 0.4), flat)
        XCTAssertEqual(Transform3D.interpolate(from: flat, to: r, t: 0.6), r)
        XCTAssertTrue(Transform3D.interpolate(from: r, to: nan, t: 0.6).m12.isNaN)
        XCTAssertEqual(Transform3D.interpolate(from: r, to: .identity, t: .nan), r)
        XCTAssertEqual(Transform3D.interpolate(from: r, to: .identity, t: .infinity), r)
    }

    func testAccurateAtan2() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let y = (rng.unit() * 2 - 1) * 100, x = (rng.unit() * 2 - 1) * 100
            XCTAssertEqual(Angles.atan2(y, x), atan2(y, x), accuracy: 1e-15 * max(1, abs(atan2(y, x))))
        }
        XCTAssertEqual(Angles.atan2(0, 0), 0)
        XCTAssertEqual(Angles.atan2(1, 0), .pi / 2, accuracy: 1e-16)
        XCTAssertEqual(Angles.atan2(0, -1), .pi, accuracy: 1e-15)
        XCTAssertEqual(Angles.atan2(.infinity, .infinity), .pi / 4, accuracy: 1e-16)
        XCTAssertTrue(Angles.atan2(.nan, 1).isNaN)
    }
}

// Layer geometry ----------------------------------------------------------------

final class LayerGeometryTests: XCTestCase {
    func testFrameUnderScale() {
        let l = layer("l", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 300, y: 400))
        l.transform = .scale(x: 2, y: 0.5)
        XCTAssertEqual(l.frame, Rect(x: 100, y: 350, width: 400, height: 100))
        // About the anchor point: with anchor (0, 0) the top-left stays put.
        l.anchorPoint = .zero
        XCTAssertEqual(l.frame, Rect(x: 300, y: 400, width: 400, height: 100))
    }

    func testFrameUnderRotation() {
        let l = layer("l", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: Point(x: 300, y: 400))
        l.transform = .rotation(radians: .pi / 4, x: 0, y: 0, z: 1)
        let side = 200 * 2.0.squareRoot()
        assertEqual(l.frame, Rect(x: 300 - side / 2, y: 400 - side / 2, width: side, height: side), accuracy: 1e-12)
        // A rotation about y by 60° narrows it to cos 60° (no perspective).
        l.transform = .rotation(radians: .pi / 3, x: 0, y: 1, z: 0)
        assertEqual(l.frame, Rect(x: 250, y: 300, width: 100, height: 200), accuracy: 1e-12)
        // anchorPointZ: rotating about a point behind the layer moves it in
        // z only, which a frame (flattened, no perspective) does not see...
        l.anchorPointZ = -50
        l.transform = .rotation(radians: .pi / 2, x: 0, y: 1, z: 0)
        // ...except through the rotation: z = 50 in front of the pivot swings to x.
        let f = l.frame
        XCTAssertEqual(f.minX, 300 + 50, accuracy: 1e-9)
        XCTAssertEqual(f.width, 0, accuracy: 1e-9)
    }

    func testFrameWithPerspectiveProjectsTheCorners() {
        let l = layer("l", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 0, y: 0))
        // Moved 100 towards the eye at 500: 1.25× larger about the anchor.
        l.transform = Transform3D.translation(x: 0, y: 0, z: 100).concatenating(.perspective(distance: 500))
        assertEqual(l.frame, Rect(x: -62.5, y: -62.5, width: 125, height: 125), accuracy: 1e-12)
        // Entirely behind the eye: no frame.
        l.transform = Transform3D.translation(x: 0, y: 0, z: 600).concatenating(.perspective(distance: 500))
        XCTAssertTrue(l.frame.isNull)
        // Partly behind the eye: the visible part is clipped, finite.
        l.transform = Transform3D.rotation(radians: 1.4, x: 0, y: 1, z: 0)
            .concatenating(.translation(x: 0, y: 0, z: 450)).concatenating(.perspective(distance: 500))
        let f = l.frame
        XCTAssertTrue(f.isFinite && !f.isNull, "\(f)")
    }

    func testSettingTheFrameSetsPositionAndBoundsSizeOnly() {
        let l = layer("l", bounds: Rect(x: 5, y: 6, width: 10, height: 10), position: .zero)
        l.transform = .rotation(radians: 0.3, x: 0, y: 0, z: 1)
        l.frame = Rect(x: 100, y: 200, width: 40, height: 20)
        XCTAssertEqual(l.bounds, Rect(x: 5, y: 6, width: 40, height: 20))
        XCTAssertEqual(l.position, Point(x: 120, y: 210))
        XCTAssertEqual(l.transform, .rotation(radians: 0.3, x: 0, y: 0, z: 1))
    }

    func testConvertBetweenSiblingsAndThroughTransforms() throws {
        let root = layer("root", bounds: Rect(x: 0, y: 0, width: 400, height: 400), position: .zero, anchor: .zero)
        let a = layer("a", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100))
        let b = layer("b", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 300, y: 100))
        b.transform = .rotation(radians: .pi / 2, x: 0, y: 0, z: 1)
        try root.addSublayer(a)
        try root.addSublayer(b)
        // a's centre is (100, 100) in root; in b: b's centre is (300, 100),
        // (−200, 0) from it, un-rotated by −90° → (0, 200) from b's centre.
        assertEqual(b.convert(Point(x: 50, y: 50), from: a), Point(x: 50, y: 250), accuracy: 1e-12)
        assertEqual(a.convert(Point(x: 50, y: 250), from: b), Point(x: 50, y: 50), accuracy: 1e-12)
        assertEqual(a.convert(Point(x: 0, y: 0), to: nil), Point(x: 50, y: 50), accuracy: 0)
        assertEqual(a.convert(Point(x: 100, y: 100), from: nil), Point(x: 50, y: 50), accuracy: 0)
        // Rectangles: b's bounds in root are its frame.
        assertEqual(b.convert(b.bounds, to: root), b.frame, accuracy: 1e-12)
        assertEqual(root.convert(Rect(x: 250, y: 50, width: 100, height: 100), to: b),
                    Rect(x: 0, y: 0, width: 100, height: 100), accuracy: 1e-12)
        // A layer converts to itself unchanged; nil to nil is the identity.
        XCTAssertEqual(a.convert(Point(x: 3, y: 4), to: a), Point(x: 3, y: 4))
    }

    func testBoundsOriginScrollsSublayers() throws {
        let root = layer("root", bounds: Rect(x: 0, y: 0, width: 400, height: 400), position: .zero, anchor: .zero)
        let scroller = layer("scroller", bounds: Rect(x: 0, y: 0, width: 100, height: 100),
                             position: Point(x: 10, y: 20), anchor: .zero)
        let content = layer("content", bounds: Rect(x: 0, y: 0, width: 50, height: 500),
                            position: Point(x: 0, y: 0), anchor: .zero)
        try root.addSublayer(scroller)
        try scroller.addSublayer(content)
        assertEqual(content.convert(Point(x: 5, y: 300), to: root), Point(x: 15, y: 320), accuracy: 0)
        scroller.bounds.origin = Point(x: 0, y: 250)      // scrolled down by 250
        assertEqual(content.convert(Point(x: 5, y: 300), to: root), Point(x: 15, y: 70), accuracy: 0)
        assertEqual(root.convert(Point(x: 15, y: 70), to: content), Point(x: 5, y: 300), accuracy: 0)
        // In the scroller's own space nothing moved: positions are in bounds space.
        assertEqual(content.convert(Point(x: 5, y: 300), to: scroller), Point(x: 5, y: 300), accuracy: 0)
        // The scroller's frame did not move either.
        XCTAssertEqual(scroller.frame, Rect(x: 10, y: 20, width: 100, height: 100))
    }

    func testConvertThroughPerspectiveSublayerTransform() throws {
        // root = display space; a 200×200 container centred at (100, 100)
        // with perspective 500 for its sublayers.
        let root = layer("root", bounds: Rect(x: 0, y: 0, width: 200, height: 200), position: .zero, anchor: .zero)
        let container = layer("container", bounds: Rect(x: 0, y: 0, width: 200, height: 200),
                              position: Point(x: 100, y: 100))
        container.sublayerTransform = .perspective(distance: 500)
        let card = layer("card", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 100, y: 100))
        try root.addSublayer(container)
        try container.addSublayer(card)

        // 1. zPosition 100: 1.25× about the container's centre (the vanishing
        //    point). The card's top-left (50, 50) from the centre → (37.5, 37.5).
        card.zPosition = 100
        assertEqual(card.convert(Point.zero, to: nil), Point(x: 37.5, y: 37.5), accuracy: 1e-12)
        assertEqual(card.convert(Point(x: 37.5, y: 37.5), from: nil), .zero, accuracy: 1e-12)
        assertEqual(card.convert(card.bounds, to: root), Rect(x: 37.5, y: 37.5, width: 125, height: 125), accuracy: 1e-12)
        // zPosition is not part of the frame (frame ignores the superlayer's
        // sublayerTransform, and a z offset alone is flattened away).
        XCTAssertEqual(card.frame, Rect(x: 50, y: 50, width: 100, height: 100))

        // 2. Rotated 60° about y: the right edge midpoint (100, 50) is 50 right
        //    of the anchor; it swings to x = 50·cos60°, z = −50·sin60° (away
        //    from the eye) and projects with w = 1 + 50·sin60°/500.
        card.zPosition = 0
        card.transform = .rotation(radians: .pi / 3, x: 0, y: 1, z: 0)
        let s = 3.0.squareRoot() / 2
        let expectedX = 100 + 25 / (1 + 50 * s / 500)
        assertEqual(card.convert(Point(x: 100, y: 50), to: nil), Point(x: expectedX, y: 100), accuracy: 1e-12)
        // The left edge comes towards the eye and spreads out.
        let leftX = 100 - 25 / (1 - 50 * s / 500)
        assertEqual(card.convert(Point(x: 0, y: 50), to: nil), Point(x: leftX, y: 100), accuracy: 1e-12)
        // A corner: y is divided by the same w.
        let corner = card.convert(Point(x: 0, y: 0), to: root)
        assertEqual(corner, Point(x: leftX, y: 100 - 50 / (1 - 50 * s / 500)), accuracy: 1e-12)
        // And back: the ray from the display point hits the card's plane at
        // the point it came from.
        assertEqual(card.convert(corner, from: root), .zero, accuracy: 1e-10)
        assertEqual(card.convert(Point(x: expectedX, y: 100), from: nil), Point(x: 100, y: 50), accuracy: 1e-10)

        // 3. The vanishing point follows the anchor point, not bounds.origin:
        //    scrolling the container moves the card but not the perspective.
        card.transform = .identity
        card.zPosition = 100
        container.bounds.origin = Point(x: 40, y: 0)
        // In the container, the card's top-left is at (50, 50); the pivot is
        // now (140, 100): (−90, −50)·1.25 + (140, 100) = (27.5, 37.5) in
        // bounds space, minus the 40 of scrolling on the way to the root.
        assertEqual(card.convert(Point.zero, to: root), Point(x: 27.5 - 40, y: 37.5), accuracy: 1e-12)
    }

    func testAnchorPointZ() throws {
        let l = layer("l", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50))
        l.anchorPointZ = 10
        l.zPosition = 10
        // The anchor (50, 50, 10) lands on (50, 50, 10): the layer's plane
        // stays at z = 0.
        let m = l.geometry.toSuperlayer
        let p = m.apply(x: 0, y: 0, z: 0)
        XCTAssertEqual([p.x, p.y, p.z, p.w], [0, 0, 0, 1])
        l.zPosition = 0
        XCTAssertEqual(l.geometry.toSuperlayer.apply(x: 0, y: 0).z, -10)
    }

    func testGeometryFlipped() throws {
        let root = layer("root", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: .zero, anchor: .zero)
        let flipped = layer("flipped", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: .zero, anchor: .zero)
        flipped.isGeometryFlipped = true
        let child = layer("child", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: .zero, anchor: .zero)
        try root.addSublayer(flipped)
        try flipped.addSublayer(child)
        // Child positions are in the flipped layer's own space: unchanged there…
        XCTAssertEqual(child.convert(Point(x: 0, y: 0), to: flipped), Point(x: 0, y: 0))
        // …but that space has y up: (0, 0) is the bottom-left on screen.
        XCTAssertEqual(child.convert(Point(x: 0, y: 0), to: root), Point(x: 0, y: 100))
        XCTAssertEqual(child.convert(child.bounds, to: root), Rect(x: 0, y: 90, width: 10, height: 10))
        // The flipped layer's own frame is unchanged.
        XCTAssertEqual(flipped.frame, Rect(x: 0, y: 0, width: 100, height: 100))
        // A flipped sublayer of a flipped layer is upright again.
        child.isGeometryFlipped = true
        let grandchild = layer("g", bounds: Rect(x: 0, y: 0, width: 1, height: 1), position: Point(x: 0, y: 2), anchor: .zero)
        try child.addSublayer(grandchild)
        // In child: y = 2 measured from child's bottom → child y = 8 unflipped;
        // child is flipped in root: y_root = 100 − 8 = 92, so going down from 92.
        XCTAssertEqual(grandchild.convert(Point(x: 0, y: 0), to: root), Point(x: 0, y: 92))
        XCTAssertEqual(grandchild.convert(Point(x: 0, y: 1), to: root), Point(x: 0, y: 93))
    }

    func testLayersOfDifferentTreesMeetInDisplaySpace() {
        let a = layer("a", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 100, y: 100))
        let b = layer("b", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 20, y: 20), anchor: .zero)
        assertEqual(b.convert(Point(x: 5, y: 5), from: a), Point(x: 80, y: 80), accuracy: 0)
        XCTAssertTrue(a.rootLayer === a)
    }

    func testBadGeometryGivesDocumentedValuesNotTraps() throws {
        let root = layer("root", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: .zero, anchor: .zero)
        let l = layer("l", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 50, y: 50))
        try root.addSublayer(l)

        // Singular: up still works (the layer collapses to a line), down has
        // no answer.
        l.transform = .scale(x: 0, y: 1)
        assertEqual(l.convert(Point(x: 10, y: 10), to: root), Point(x: 50, y: 55), accuracy: 0)
        let down = l.convert(Point(x: 50, y: 50), from: root)
        XCTAssertTrue(down.x.isNaN && down.y.isNaN)
        XCTAssertTrue(l.convert(Rect(x: 0, y: 0, width: 1, height: 1), from: root).origin.x.isNaN)
        XCTAssertEqual(l.frame, Rect(x: 50, y: 45, width: 0, height: 10))

        // Not finite: NaN out, never a trap.
        for bad in [Double.nan, .infinity, -.infinity] {
            var t = Transform3D.identity
            t.m12 = bad
            l.transform = t
            XCTAssertTrue(l.convert(Point(x: 1, y: 1), to: root).x.isNaN)
            XCTAssertTrue(l.convert(Point(x: 1, y: 1), from: root).x.isNaN)
            XCTAssertTrue(l.frame.origin.x.isNaN)
            XCTAssertTrue(l.convert(l.bounds, to: nil).size.width.isNaN)
        }
        l.transform = .identity
        l.position = Point(x: .nan, y: 0)
        XCTAssertTrue(l.convert(Point.zero, to: nil).x.isNaN)
        XCTAssertTrue(root.convert(Point(x: .infinity, y: 0), to: l).x.isNaN)
        l.position = Point(x: 50, y: 50)

        // Behind the eye of a perspective: NaN point, null rectangle.
        root.sublayerTransform = .perspective(distance: 500)
        l.zPosition = 600
        XCTAssertTrue(l.convert(Point.zero, to: root).x.isNaN)
        XCTAssertTrue(l.convert(l.bounds, to: root).isNull)
        XCTAssertTrue(l.convert(Point(x: 1, y: 1), from: root).x.isNaN)

        // And the compositor draws such trees without trapping.
        let display = try XCTUnwrap(HeadlessDisplay(width: 16, height: 16))
        display.renderFrame(root, with: Compositor())
        l.transform = .scale(x: 0, y: 0)
        l.zPosition = 0
        display.renderFrame(root, with: Compositor())
    }
}

// The compositor's use of the geometry --------------------------------------------

final class CompositorGeometryTests: XCTestCase {
    private func whiteSpan(_ display: HeadlessDisplay, row: Int) -> ClosedRange<Int>? {
        let v = display.framebuffer.view
        let xs = (0..<v.width).filter { v[$0, row] == 0xFFFF_FFFF }
        guard let lo = xs.first, let hi = xs.last else { return nil }
        return lo...hi
    }

    func testTranslationAndScaleTransformsMoveTheBackground() throws {
        let root = layer("root", bounds: Rect(x: 0, y: 0, width: 64, height: 32), position: .zero, anchor: .zero)
        let box = layer("box", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 10, y: 10))
        box.backgroundColor = .white
        try root.addSublayer(box)
        let display = try XCTUnwrap(HeadlessDisplay(width: 64, height: 32))
        display.renderFrame(root, with: Compositor())
        XCTAssertEqual(whiteSpan(display, row: 10), 5...14)
        box.transform = .translation(x: 20, y: 0)
        display.renderFrame(root, with: Compositor())
        XCTAssertEqual(whiteSpan(display, row: 10), 25...34)
        // A scale about the anchor (the box's centre).
        box.transform = .scale(x: 2, y: 1)
        display.renderFrame(root, with: Compositor())
        XCTAssertEqual(whiteSpan(display, row: 10), 0...19)
        // The superlayer's sublayerTransform reaches the sublayers.
        box.transform = .identity
        root.sublayerTransform = .translation(x: 30, y: 0)
        display.renderFrame(root, with: Compositor())
        XCTAssertEqual(whiteSpan(display, row: 10), 35...44)
        // Not axis-aligned: filled as a path, anti-aliased edges.
        root.sublayerTransform = .identity
        box.transform = .rotation(radians: 0.3, x: 0, y: 0, z: 1)
        display.renderFrame(root, with: Compositor())
        XCTAssertNotNil(whiteSpan(display, row: 10))
        let v = display.framebuffer.view
        XCTAssertEqual(v[10, 10], 0xFFFF_FFFF)
        XCTAssertNotEqual(v[5, 5], 0xFFFF_FFFF)     // the unrotated corner is cut off
        XCTAssertNotEqual(v[6, 4] & 0xFF, 0)        // the rotated corner reaches above the old top edge
    }
}
