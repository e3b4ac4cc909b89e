@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// 3-D rendering contexts: a cube of six faces under one TransformLayer,
/// and two planes cutting through each other.
final class TransformLayerTests: XCTestCase {
    let size = 160

    func render(_ root: Layer, compositor: Compositor = Compositor()) -> Surface<ARGB8888> {
        let target = Surface<ARGB8888>(width: size, height: size)!
        compositor.render(root, at: 0, into: target.view, clearColor: PremultipliedColor(argb: 0xFF20_2020))
        return target
    }

    func face(_ color: Color, _ transform: Transform3D, side: Double) -> Layer {
        let l = Layer(name: "face")
        l.bounds = Rect(x: 0, y: 0, width: side, height: side)
        l.backgroundColor = color
        l.transform = transform
        return l
    }

    /// A cube of side 60 centred in a 160 × 160 root with perspective 400,
    /// turned 30° about y and −25° about x.
    func cube(doubleSided: Bool) throws -> Layer {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        root.sublayerTransform = .perspective(distance: 400)
        let cube = TransformLayer()
        cube.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        cube.position = Point(x: 80, y: 80)
        cube.transform = Transform3D(rotationAngle: .pi / 6, x: 0, y: 1, z: 0)
            .concatenating(Transform3D(rotationAngle: -25 * .pi / 180, x: 1, y: 0, z: 0))
        let h = 30.0
        let faces: [(Color, Transform3D)] = [
            (Color(red: 0.9, green: 0.2, blue: 0.2), Transform3D(translationX: 0, y: 0, z: h)),                                   // front
            (Color(red: 0.2, green: 0.8, blue: 0.3), Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0).translatedBy(x: 0, y: 0, z: h)),  // back
            (Color(red: 0.2, green: 0.3, blue: 0.9), Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).translatedBy(x: 0, y: 0, z: h)),   // right
            (Color(red: 0.9, green: 0.8, blue: 0.2), Transform3D(rotationAngle: -.pi / 2, x: 0, y: 1, z: 0).translatedBy(x: 0, y: 0, z: h)),  // left
            (Color(red: 0.8, green: 0.3, blue: 0.9), Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0).translatedBy(x: 0, y: 0, z: h)),   // top/bottom
            (Color(red: 0.2, green: 0.8, blue: 0.9), Transform3D(rotationAngle: -.pi / 2, x: 1, y: 0, z: 0).translatedBy(x: 0, y: 0, z: h)),
        ]
        // Back faces first in the tree: tree order alone would draw them over
        // the front ones.
        for (color, t) in faces.reversed() {
            let f = face(color, t, side: 60)
            f.position = Point(x: 30, y: 30)
            f.isDoubleSided = doubleSided
            try cube.addSublayer(f)
        }
        try root.addSublayer(cube)
        return root
    }

    /// Sorted back to front, the cube looks as it does with its back faces
    /// culled (an independent way to get the visible faces of a convex
    /// body); only anti-aliased edge pixels may differ.
    func testCubeFacesAreSortedBackToFront() throws {
        let sorted = render(try cube(doubleSided: true)).view
        let culled = render(try cube(doubleSided: false)).view
        // Away from edges (a pixel whose 3 × 3 neighbourhood in the culled
        // render is one colour) the two must agree exactly; on edges the
        // sorted cube's anti-aliasing shows the faces behind.
        var interior = 0, differing = 0, faces = Set<UInt32>()
        for y in 1..<(size - 1) {
            for x in 1..<(size - 1) {
                let b = culled.row(y)[x]
                var uniform = true
                for dy in -1...1 { for dx in -1...1 where culled.row(y + dy)[x + dx] != b { uniform = false } }
                guard uniform, b != 0xFF20_2020 else { continue }
                interior += 1
                faces.insert(b)
                if sorted.row(y)[x] != b { differing += 1 }
            }
        }
        XCTAssertGreaterThan(interior, 3000)
        XCTAssertEqual(faces.count, 3, "three faces are visible")
        XCTAssertEqual(differing, 0, "interior pixels differ: \(differing) of \(interior)")
        let result = compareWithGolden(sorted, name: "transformlayer-cube", tolerance: 2)
        XCTAssertTrue(result.passed, result.message)
    }

    /// Two planes through one vertical axis, turned ±30° about it (no
    /// perspective, so both project onto the same rectangle): each shows
    /// on the side where it is nearer the viewer, which only splitting
    /// gets right.
    func testIntersectingPlanesAreSplit() throws {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        let context = TransformLayer()
        context.position = Point(x: 80, y: 80)
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let a = face(red, Transform3D(rotationAngle: .pi / 6, x: 0, y: 1, z: 0), side: 100)
        let b = face(blue, Transform3D(rotationAngle: -.pi / 6, x: 0, y: 1, z: 0), side: 100)
        try context.addSublayer(a)
        try context.addSublayer(b)
        try root.addSublayer(context)
        let compositor = Compositor()
        let image = render(root, compositor: compositor).view
        // Which plane is nearer on the left, from the transforms alone.
        let left = -40.0
        let za = a.transform.apply(x: left, y: 0).z, zb = b.transform.apply(x: left, y: 0).z
        let leftColor: UInt32 = za > zb ? 0xFFFF_0000 : 0xFF00_00FF
        let rightColor: UInt32 = za > zb ? 0xFF00_00FF : 0xFFFF_0000
        for y in [50, 80, 110] {
            for x in [45, 60, 75] { XCTAssertEqual(image.row(y)[x], leftColor, "(\(x), \(y))") }
            for x in [85, 100, 115] { XCTAssertEqual(image.row(y)[x], rightColor, "(\(x), \(y))") }
        }
        XCTAssertEqual(compositor.statistics.offscreenPasses, 2, "one plane cut in two pieces")
        let result = compareWithGolden(image, name: "transformlayer-intersecting", tolerance: 2)
        XCTAssertTrue(result.passed, result.message)
    }

    /// Without a TransformLayer the same faces flatten into their
    /// superlayer and draw in tree order; a context's nested transform
    /// layers pass their transforms on; bad transforms draw nothing.
    func testNestedContextsAndBadInput() throws {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        root.anchorPoint = .zero
        let outer = TransformLayer(), inner = TransformLayer()
        outer.position = Point(x: 80, y: 80)
        inner.transform = Transform3D(translationX: 10, y: 0)
        let f = face(.white, .identity, side: 20)
        try inner.addSublayer(f)
        try outer.addSublayer(inner)
        try root.addSublayer(outer)
        let image = render(root).view
        XCTAssertEqual(image.row(80)[90], 0xFFFF_FFFF, "the face sits at the outer position plus the inner offset")
        XCTAssertEqual(image.row(80)[75], 0xFF20_2020)
        inner.transform = Transform3D(translationX: .nan, y: 0)
        _ = render(root)
        f.transform = Transform3D(scaleX: 0, y: 0)
        _ = render(root)
        f.transform = Transform3D(translationX: 0, y: 0, z: 1e300)
        outer.sublayerTransform = .perspective(distance: 10)
        _ = render(root)
    }
}
