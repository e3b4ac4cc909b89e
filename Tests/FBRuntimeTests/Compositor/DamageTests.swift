@testable import FBRuntime
import Raster
import TestSupport
import XCTest

/// Damage tracking and occlusion culling, checked against an independent
/// oracle: a fresh `Compositor` (no memory of earlier frames, so a full
/// frame) rendering the same tree at the same time into its own buffer.
final class DamageTests: XCTestCase {
    /// splitmix64: a seeded generator, so a failure replays exactly.
    struct SeededRandom {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func double(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53) }
        mutating func chance(_ p: Double) -> Bool { double(0, 1) < p }
    }

    func layer(_ name: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, color: UInt32? = nil) -> Layer {
        solidLayer(name, x, y, w, h, color)
    }

    /// The first pixel where `a` and `b` differ, or nil.
    func firstDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> (x: Int, y: Int, a: UInt32, b: UInt32)? {
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { return (x, y, a[x, y], b[x, y]) }
        }
        return nil
    }

    /// A full render of `root` at `time` by a compositor with no history.
    func oracle(_ root: Layer, at time: MediaTime, width: Int, height: Int, scale: Double = 1,
                clearColor: PremultipliedColor = .black) -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: width, height: height)!
        Compositor(scale: scale).render(root, at: time, into: s.view, clearColor: clearColor)
        return s
    }

    // MARK: (a) one small layer moving on a big screen

    func testMovingOneSmallLayerRecompositesAboutTwiceItsArea() throws {
        let w = 1920, h = 1080
        let root = layer("root", 0, 0, Double(w), Double(h), color: 0x203040)
        let box = layer("box", 300, 200, 64, 64, color: 0xE0A020)
        try root.addSublayer(box)
        let target = Surface<ARGB8888>(width: w, height: h)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.damage.area, w * h, "the first frame is a full one")

        // Whole-pixel moves, overlapping and not: the bound is twice the
        // layer's area plus a one-pixel margin all round (the tracker's
        // anti-aliasing slack), 2 · 66².
        let bound = 2 * 66 * 66
        for (dx, dy) in [(5.0, 3.0), (100.0, 0.0), (-40.0, 70.0)] {
            box.position.x += dx; box.position.y += dy
            compositor.render(root, at: 0, into: target.view)
            let stats = compositor.statistics
            XCTAssertLessThanOrEqual(compositor.damage.area, bound)
            XCTAssertLessThanOrEqual(stats.pixelsWritten, bound, "move by (\(dx), \(dy))")
            XCTAssertGreaterThanOrEqual(stats.pixelsWritten, 64 * 64)
            XCTAssertNil(firstDifference(target.view, oracle(root, at: 0, width: w, height: h).view))
        }
        // A sub-pixel move: the edges are anti-aliased (blended over the
        // background), so the layer's 65×65 span is drawn over the whole
        // background; the bound adds that one ring of pixels.
        box.position.x += 0.5
        compositor.render(root, at: 0, into: target.view)
        XCTAssertLessThanOrEqual(compositor.damage.area, bound)
        XCTAssertLessThanOrEqual(compositor.statistics.pixelsWritten, bound + 4 * 66)
        XCTAssertNil(firstDifference(target.view, oracle(root, at: 0, width: w, height: h).view))
    }

    // MARK: (c) nothing changes

    func testNothingChangedWritesNothing() throws {
        let root = layer("root", 0, 0, 120, 80, color: 0x101010)
        let card = layer("card", 10, 10, 60, 40, color: 0x3366CC)
        card.cornerRadius = 8
        card.shadowOpacity = 0.6                                   // image shadow: an offscreen group
        let knob = layer("knob", 20, 10, 30, 20, color: 0xFFFFFF)
        knob.opacity = 0.5
        try card.addSublayer(knob)
        try root.addSublayer(card)
        let target = Surface<ARGB8888>(width: 120, height: 80)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        XCTAssertGreaterThan(compositor.statistics.pixelsWritten, 0)
        compositor.render(root, at: 1, into: target.view)
        XCTAssertTrue(compositor.damage.isEmpty)
        XCTAssertEqual(compositor.statistics.pixelsWritten, 0)
        XCTAssertEqual(compositor.statistics.layersDrawn, 0)
        XCTAssertEqual(compositor.statistics.offscreenPasses, 0)
        // invalidate() forces a full frame, which finds its offscreen
        // surfaces still pooled after the idle frame.
        compositor.invalidate()
        compositor.render(root, at: 1, into: target.view)
        XCTAssertEqual(compositor.damage.area, 120 * 80)
        XCTAssertGreaterThan(compositor.statistics.offscreenPasses, 0)
        XCTAssertEqual(compositor.statistics.surfacesAllocated, 0)
        // Another target is a full frame too.
        let other = Surface<ARGB8888>(width: 120, height: 80)!
        compositor.render(root, at: 1, into: other.view)
        XCTAssertEqual(compositor.damage.area, 120 * 80)
        XCTAssertNil(firstDifference(other.view, target.view))
    }

    func testAChangeInsideAnOffscreenGroupDamagesTheWholeGroup() throws {
        let root = layer("root", 0, 0, 160, 100, color: 0x101010)
        let card = layer("card", 20, 20, 80, 50, color: 0x3366CC)
        card.shadowOpacity = 1                                     // no shadowPath: cast by the image
        card.shadowRadius = 6
        card.shadowOffset = Size(width: 4, height: 6)
        let dot = layer("dot", 10, 10, 8, 8, color: 0xFFFFFF)
        try card.addSublayer(dot)
        try root.addSublayer(card)
        let target = Surface<ARGB8888>(width: 160, height: 100)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        dot.position.x = 40                                        // its shadow moves too
        compositor.render(root, at: 0, into: target.view)
        let box = compositor.damage.boundingBox
        XCTAssertTrue(box.contains(IntRect(x: 20, y: 20, width: 80, height: 50)), "\(box)")
        XCTAssertNil(firstDifference(target.view, oracle(root, at: 0, width: 160, height: 100).view))
    }

    func testContentsDidChangeRedrawsTheLayer() throws {
        let root = layer("root", 0, 0, 40, 40, color: 0x000000)
        let image = Surface<ARGB8888>(width: 8, height: 8)!
        image.view.row(0).update(repeating: 0xFF00_FF00, count: 8)
        let contents = LayerContents(image)
        let pic = layer("pic", 4, 4, 16, 16)
        pic.contents = contents
        try root.addSublayer(pic)
        let target = Surface<ARGB8888>(width: 40, height: 40)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        image.view.row(7).update(repeating: 0xFFFF_0000, count: 8)
        contents.contentsDidChange()
        compositor.render(root, at: 0, into: target.view)
        XCTAssertFalse(compositor.damage.isEmpty)
        XCTAssertNil(firstDifference(target.view, oracle(root, at: 0, width: 40, height: 40).view))
    }

    func testReorderingDamagesWhereTheOrderChanged() throws {
        let root = layer("root", 0, 0, 64, 48, color: 0x000000)
        let names = ["a", "b", "c", "d"]
        var layers: [Layer] = []
        for (i, n) in names.enumerated() {
            let l = layer(n, Double(4 + 8 * i), Double(4 + 6 * i), 30, 24, color: [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00][i])
            try root.addSublayer(l)
            layers.append(l)
        }
        let target = Surface<ARGB8888>(width: 64, height: 48)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        // a b c d → c d a b: every layer keeps its values and two keep
        // their predecessor, yet b now covers d.
        try root.insertSublayer(layers[2], at: 0)
        try root.insertSublayer(layers[3], at: 1)
        compositor.render(root, at: 0, into: target.view)
        XCTAssertNil(firstDifference(target.view, oracle(root, at: 0, width: 64, height: 48).view))
        // A single layer sent to the back.
        try root.insertSublayer(layers[1], at: 0)
        compositor.render(root, at: 0, into: target.view)
        XCTAssertNil(firstDifference(target.view, oracle(root, at: 0, width: 64, height: 48).view))
    }

    // MARK: (b) random edits against the oracle

    /// Over seeded random sequences of edits, every damage-rendered frame
    /// equals a full render of the same tree pixel for pixel.
    func testRandomEditsMatchFullRenders() throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            // Even seeds at 1.5 pixels per point (no edge on the pixel grid)
            // and a translucent clear colour.
            let scale = seed % 2 == 0 ? 1.5 : 1
            let clear = seed % 2 == 0 ? PremultipliedColor(argb: 0x4020_1008) : .black
            let w = Int(160 * scale), h = Int(120 * scale)
            var rng = SeededRandom(state: seed)
            let root = layer("root", 0, 0, 160, 120, color: 0x18202A)
            if seed % 3 == 0 { root.backgroundColor = nil }               // the clear colour shows
            var all: [Layer] = []
            func randomLayer(_ n: Int) -> Layer {
                let l = layer("l\(n)", rng.double(-20, 140), rng.double(-20, 100), rng.double(4, 60), rng.double(4, 50),
                              color: UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF)
                if rng.chance(0.3) { l.backgroundColor!.alpha = rng.double(0.2, 1) }
                return l
            }
            for n in 0..<8 {
                let l = randomLayer(n)
                let parent = all.isEmpty || rng.chance(0.6) ? root : all[rng.int(all.count)]
                try parent.addSublayer(l)
                all.append(l)
            }
            let target = Surface<ARGB8888>(width: w, height: h)!
            let compositor = Compositor(scale: scale)
            var time: MediaTime = 0
            var log: [String] = []
            for step in 0..<60 {
                let l = all[rng.int(all.count)]
                let edit = rng.int(18)
                switch edit {
                case 0: l.position = Point(x: l.position.x + rng.double(-15, 15), y: l.position.y + rng.double(-15, 15))
                case 1: l.position = Point(x: (l.position.x + Double(rng.int(21) - 10)).rounded(), y: l.position.y.rounded())
                case 2: l.backgroundColor = Color(rgb: UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF, alpha: rng.chance(0.5) ? 1 : 0.6)
                case 3:
                    let n = randomLayer(all.count)
                    let parent = rng.chance(0.5) ? root : all[rng.int(all.count)]
                    try parent.insertSublayer(n, at: rng.int(parent.sublayers.count + 1))
                    all.append(n)
                case 4:
                    if all.count > 2 { l.removeFromSuperlayer(); all.removeAll { $0 === l } }
                case 5:
                    if let parent = l.superlayer { try parent.insertSublayer(l, at: rng.int(parent.sublayers.count)) }
                case 6: l.opacity = rng.chance(0.3) ? 1 : rng.double(0.2, 0.9)
                case 7:
                    l.add(BasicAnimation(key: .position, from: .point(l.position),
                                         to: .point(Point(x: rng.double(0, 140), y: rng.double(0, 100))), duration: 0.2),
                          forKey: "move", at: time)
                case 8: l.cornerRadius = rng.chance(0.3) ? 0 : rng.double(2, 12)
                case 9:
                    l.shadowOpacity = rng.chance(0.3) ? 0 : 0.7
                    l.shadowRadius = rng.double(0, 6)
                    l.shadowOffset = Size(width: rng.double(-4, 4), height: rng.double(-4, 4))
                    l.shadowPath = rng.chance(0.5) ? Path(roundedRect: 0, 0, l.bounds.width, l.bounds.height, radii: CornerRadii(topLeft: 4, topRight: 4, bottomRight: 4, bottomLeft: 4)) : nil
                case 10:
                    if l.mask == nil {
                        let m = layer("mask", rng.double(0, 10), rng.double(0, 10), rng.double(5, 40), rng.double(5, 40), color: 0xFFFFFF)
                        m.cornerRadius = 5
                        l.mask = m
                    } else if rng.chance(0.5) {
                        l.mask!.position.x += rng.double(-5, 5)
                    } else {
                        l.mask = nil
                    }
                case 11: l.isHidden.toggle()
                case 12: l.masksToBounds.toggle()
                case 13:
                    l.borderWidth = rng.chance(0.3) ? 0 : rng.double(1, 4)
                    l.borderColor = Color(rgb: 0xF0F0F0)
                case 14: l.transform = rng.chance(0.3) ? .identity : Transform3D(rotationAngle: rng.double(-0.5, 0.5), x: 0, y: 0, z: 1)
                case 15: l.compositingOperator = rng.chance(0.5) ? .srcOver : (rng.chance(0.5) ? .multiply : .plus)
                case 16: l.shouldRasterize.toggle()
                default: l.zPosition = rng.chance(0.5) ? 0 : rng.double(-2, 2)
                }
                log.append("step \(step): edit \(edit) on \(l.name)")
                time += 1.0 / 60
                compositor.render(root, at: time, into: target.view, clearColor: clear)
                let expected = oracle(root, at: time, width: w, height: h, scale: scale, clearColor: clear)
                if let d = firstDifference(target.view, expected.view) {
                    XCTFail("seed \(seed), \(log.last!): first difference at (\(d.x), \(d.y)): 0x\(String(d.a, radix: 16)) vs 0x\(String(d.b, radix: 16)); damage \(compositor.damage.rects)")
                    return
                }
                // Sometimes a frame with no edit: only the running animation damages.
                if rng.chance(0.2) {
                    time += 1.0 / 60
                    compositor.render(root, at: time, into: target.view, clearColor: clear)
                    if !root.hasRunningAnimations(at: time - 1.0 / 60) && !root.hasRunningAnimations(at: time) {
                        XCTAssertEqual(compositor.statistics.pixelsWritten, 0, "seed \(seed) step \(step): nothing changed")
                    }
                    if let d = firstDifference(target.view, oracle(root, at: time, width: w, height: h, scale: scale,
                                                                   clearColor: clear).view) {
                        XCTFail("seed \(seed), idle frame after \(log.last!): difference at (\(d.x), \(d.y))")
                        return
                    }
                }
            }
        }
    }

    // MARK: Occlusion

    func testALayerUnderAnOpaqueOneIsNotDrawn() throws {
        let root = layer("root", 0, 0, 100, 80, color: 0x202020)
        let hidden = layer("hidden", 20, 20, 30, 20, color: 0xFF0000)
        hidden.cornerRadius = 4
        hidden.borderWidth = 2
        let hiddenChild = layer("hiddenChild", 2, 2, 10, 10, color: 0x00FF00)
        try hidden.addSublayer(hiddenChild)
        let cover = layer("cover", 10, 10, 60, 50, color: 0x3366CC)
        let small = layer("small", 72, 12, 10, 10, color: 0xFF00FF)
        let top = layer("top", 75, 15, 10, 10)
        top.backgroundColor = Color(rgb: 0xFFFFFF, alpha: 0.5)
        top.isOpaque = true                                        // declared opaque: copied, not blended
        for l in [hidden, cover, small, top] { try root.addSublayer(l) }
        let target = Surface<ARGB8888>(width: 100, height: 80)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        let stats = compositor.statistics
        XCTAssertEqual(stats.layersOccluded, 1, "hidden, with its sublayer")
        XCTAssertEqual(stats.layersDrawn, 4, "root, cover, small, top")
        // Every pixel is written once: no clear under the opaque root, and
        // no background under a later opaque layer (the root's under cover,
        // small and top; small's under top).
        XCTAssertEqual(stats.pixelsWritten, 100 * 80)
        XCTAssertEqual(stats.pixelsBlended, 0)

        let unculled = Compositor()
        unculled.cullsOccludedLayers = false
        let reference = Surface<ARGB8888>(width: 100, height: 80)!
        unculled.render(root, at: 0, into: reference.view)
        XCTAssertEqual(unculled.statistics.layersOccluded, 0)
        XCTAssertEqual(unculled.statistics.layersDrawn, 6)
        XCTAssertGreaterThan(unculled.statistics.pixelsWritten, stats.pixelsWritten)
        XCTAssertNil(firstDifference(target.view, reference.view))
        XCTAssertEqual(target.view[80, 20], Color(rgb: 0xFFFFFF, alpha: 0.5).premultiplied.argb, "copied, not blended")

        // Moving the cover away brings the hidden layer back.
        cover.position.x = 40
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.statistics.layersOccluded, 0)
        unculled.render(root, at: 0, into: reference.view)
        XCTAssertNil(firstDifference(target.view, reference.view))
    }

    /// An opaque rounded background occludes the rectangle inside its
    /// corners: nothing under it is cleared or drawn there, and every
    /// pixel of that rectangle is the background's own. The targets start
    /// full of garbage, so a pixel the background did not cover fully
    /// would show it: radii up to half the side, some corners only,
    /// fractional places and 1.5 pixels per point, frame after frame.
    func testRoundedOpaqueBackgroundsOccludeTheirInside() throws {
        var rng = SeededRandom(state: 7)
        for scale in [1.0, 1.5] {
            let w = Int(200 * scale), h = Int(140 * scale)
            let root = layer("root", 0, 0, 200, 140, color: 0x204060)
            let below = layer("below", 30, 30, 120, 70, color: 0xFF0000)
            try root.addSublayer(below)
            var cards: [Layer] = []
            for k in 0..<6 {
                let card = layer("card\(k)", 10 + Double(k % 3) * 62, 12 + Double(k / 3) * 60, 50 + Double(k) * 1.5, 40,
                                 color: 0xFFFFFF)
                card.cornerRadius = [4, 10, 25, 8.5, 13, 100][k]
                if k == 3 { card.maskedCorners = [.minXMinY, .maxXMaxY] }
                if k == 4 { card.borderWidth = 2; card.borderColor = Color(rgb: 0xE0E0E0) }
                try root.addSublayer(card)
                cards.append(card)
            }
            let culled = Compositor(scale: scale), reference = Compositor(scale: scale)
            reference.cullsOccludedLayers = false
            let a = Surface<ARGB8888>(width: w, height: h)!, b = Surface<ARGB8888>(width: w, height: h)!
            for step in 0..<12 {
                for (k, card) in cards.enumerated() {
                    card.position.x += step % 4 == 3 ? rng.double(-2, 2) : Double((k + step) % 3) - 1
                    card.position.y += Double((k * 2 + step) % 3) - 1
                }
                if step % 4 == 0 {
                    // Garbage everywhere, then a full frame.
                    for y in 0..<h { for x in 0..<w { a.view[x, y] = UInt32(truncatingIfNeeded: rng.next()) } }
                    culled.invalidate()
                }
                culled.render(root, at: 0, into: a.view)
                reference.render(root, at: 0, into: b.view)
                if let d = firstDifference(a.view, b.view) {
                    XCTFail("×\(scale), step \(step): first difference at (\(d.x), \(d.y)): 0x\(String(d.a, radix: 16)) vs 0x\(String(d.b, radix: 16))")
                    return
                }
            }
            XCTAssertGreaterThan(culled.statistics.pixelsWritten, 0)
        }
    }
}

extension DamageTests {
    func testInvalidatingARectangleRedrawsIt() throws {
        let root = layer("root", 0, 0, 40, 30, color: 0x336699)
        let target = Surface<ARGB8888>(width: 40, height: 30)!
        let compositor = Compositor()
        compositor.render(root, at: 0, into: target.view)
        target.view.row(5).update(repeating: 0xFFFF_FFFF, count: 40)      // someone else draws
        compositor.invalidate(IntRect(x: -10, y: 4, width: 100, height: 3))
        compositor.render(root, at: 0, into: target.view)
        XCTAssertEqual(compositor.damage.rects, [IntRect(x: 0, y: 4, width: 40, height: 3)])
        XCTAssertNil(firstDifference(target.view, oracle(root, at: 0, width: 40, height: 30).view))
    }

    /// A scrolled page whose cards leave the screen and come back (and one
    /// whose child reaches into view while the card is off it): subtrees
    /// wholly off the clip are placeholder units, not surveyed below; every
    /// damage-tracked frame equals a full render, and off-screen cards cost
    /// no units.
    func testSubtreesOffTheClipComeBackIntoViewIntact() {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 80, height: 60)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x203040)
        let page = Layer(name: "page")
        page.anchorPoint = .zero
        page.bounds = Rect(x: 0, y: 0, width: 80, height: 60)
        try! root.addSublayer(page)
        for i in 0..<12 {
            let card = Layer(name: "card\(i)")
            card.anchorPoint = .zero
            card.bounds = Rect(x: 0, y: 0, width: 60, height: 20)
            card.position = Point(x: 10, y: Double(i) * 26)
            card.backgroundColor = Color(red: 0.1 * Double(i % 10), green: 0.8, blue: 0.5)
            card.cornerRadius = 4
            let dot = Layer(name: "dot")
            dot.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
            // The last card's dot hangs far below it.
            dot.position = i == 11 ? Point(x: 30, y: -200) : Point(x: 50, y: 10)
            dot.backgroundColor = .white
            try! card.addSublayer(dot)
            try! page.addSublayer(card)
        }
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 80, height: 60)!
        var fewestUnits = Int.max
        for offset in [0, 7, 30, 120, 250, 251, 90, 0, 300, 5] {
            page.bounds = Rect(x: 0, y: Double(offset), width: 80, height: 60)
            compositor.render(root, at: 0, into: target.view)
            let expected = oracle(root, at: 0, width: 80, height: 60)
            XCTAssertNil(firstDifference(target.view, expected.view), "scrolled to \(offset)")
            fewestUnits = min(fewestUnits, compositor.tracker.units.count)
        }
        // Surveyed whole: root, page, 12 cards and their 12 dots.
        XCTAssertLessThanOrEqual(fewestUnits, 2 + 12 + 1, "cards off screen are single placeholder units, their dots not surveyed")
    }

    /// Strokes whose end or start alone changes (a progress ring, a
    /// polyline drawn on past sharp corners with miter joins, round and
    /// square caps) damage only the piece that changes. Every frame is
    /// within one level of a full render: the part left from the frame
    /// before was scan-converted from an outline that ended elsewhere, and
    /// the rasterizer's steps along an edge depend on where the edge ends
    /// (1/256-pixel crossings), so a pixel along the unchanged stroke may
    /// differ by one level from a fresh scan conversion.
    func testTrimChangesDamageOnlyWhatTheyChange() {
        let root = Layer(name: "root")
        root.bounds = Rect(x: 0, y: 0, width: 120, height: 70)
        root.anchorPoint = .zero
        root.backgroundColor = Color(rgb: 0x101418)
        var ring = Path()
        ring.arc(center: PathPoint(30, 30), radius: 22, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        var zigzag = Path()
        zigzag.move(to: PathPoint(5, 50))
        for k in 1...6 { zigzag.line(to: PathPoint(5 + Double(k) * 9, k % 2 == 0 ? 50 : 10)) }
        var shapes: [ShapeLayer] = []
        for (k, (path, cap)) in [(ring, LineCap.butt), (zigzag, LineCap.round), (zigzag, LineCap.square)].enumerated() {
            let shape = ShapeLayer(name: "stroke\(k)")
            shape.anchorPoint = .zero
            shape.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
            shape.position = Point(x: k == 0 ? 0 : (k == 1 ? 58 : 59.5), y: k == 2 ? 8.25 : 4)
            shape.path = path
            shape.fillColor = nil
            shape.strokeColor = Color(red: 0.3 * Double(k), green: 0.8, blue: 1, alpha: k == 2 ? 0.6 : 1)
            shape.lineWidth = 6
            shape.lineCap = cap
            shape.lineJoin = .miter
            shape.miterLimit = 10
            try! root.addSublayer(shape)
            shapes.append(shape)
        }
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 120, height: 70)!
        var damaged = 0, frames = 0, worstOverall = 0
        for (step, (start, end)) in [(0.0, 0.1), (0.0, 0.13), (0.0, 0.5), (0.0, 0.52), (0.0, 0.4), (0.1, 0.4), (0.2, 0.41),
                                     (0.2, 1.0), (0.2, 0.97), (0.0, 0.0), (0.0, 0.05)].enumerated() {
            for shape in shapes { shape.strokeStart = start; shape.strokeEnd = end }
            compositor.render(root, at: 0, into: target.view)
            let expected = oracle(root, at: 0, width: 120, height: 70)
            var worst = 0
            for y in 0..<70 {
                for x in 0..<120 {
                    let a = target.view[x, y], b = expected.view[x, y]
                    for shift in stride(from: 0, through: 24, by: 8) {
                        worst = max(worst, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
                    }
                }
            }
            worstOverall = max(worstOverall, worst)
            XCTAssertLessThanOrEqual(worst, 1, "step \(step): trim \(start)…\(end)")
            if step > 0 && step != 2 && step != 7 { damaged += compositor.damage.area; frames += 1 }
        }
        // Small steps damage a small part of the three 60×60 extents.
        XCTAssertLessThan(damaged / frames, 3 * 62 * 62 / 3, "mean damaged pixels per frame of a small trim step")
        print("trim changes damaged in part: \(damaged / frames) pixels a frame, worst \(worstOverall) levels from a full render")
    }

    func testDamageListMergesOverlapsAndCollapsesBeyondItsCapacity() {
        let bounds = IntRect(x: 0, y: 0, width: 1000, height: 1000)
        var list = DamageList()
        list.add(IntRect(x: 0, y: 0, width: 10, height: 10), within: bounds)
        list.add(IntRect(x: 5, y: 5, width: 10, height: 10), within: bounds)
        XCTAssertEqual(list.rects, [IntRect(x: 0, y: 0, width: 15, height: 15)])
        list.add(IntRect(x: 990, y: 990, width: 20, height: 20), within: bounds)
        XCTAssertEqual(list.rects.count, 2)
        XCTAssertEqual(list.rects[1], IntRect(x: 990, y: 990, width: 10, height: 10))
        // Past its capacity the list merges the rectangle added with the one
        // whose box with it adds the fewest pixels: here neighbours in the
        // row, never the far corners.
        var added = [IntRect(x: 0, y: 0, width: 15, height: 15), IntRect(x: 990, y: 990, width: 10, height: 10)]
        let n = DamageList.maximumCount
        for i in 0..<n {
            let r = IntRect(x: 100 + 12 * i + (i % 3), y: 500 + (i % 2), width: 4, height: 4)
            list.add(r, within: bounds)
            added.append(r)
        }
        XCTAssertEqual(list.rects.count, DamageList.maximumCount)
        XCTAssertTrue(list.rects.contains(IntRect(x: 0, y: 0, width: 15, height: 15)))
        XCTAssertTrue(list.rects.contains(IntRect(x: 990, y: 990, width: 10, height: 10)))
        for r in added { XCTAssertTrue(list.rects.contains { $0.contains(r) }, "\(r) is still damaged") }
        for (i, a) in list.rects.enumerated() {
            for b in list.rects[(i + 1)...] { XCTAssertTrue(a.intersection(b).isEmpty, "\(a) and \(b) are disjoint") }
        }
        XCTAssertLessThan(list.area, 15 * 15 + 10 * 10 + n * 4 * 5 + n * 16, "the merges cost little area")
        // A screen of changes still ends in a bounded list covering them.
        for i in 0..<400 { list.add(IntRect(x: (i * 37) % 990, y: (i * 91) % 990, width: 8, height: 8), within: bounds) }
        XCTAssertLessThanOrEqual(list.rects.count, DamageList.maximumCount)
        // Disjoint rectangles: the area counts each pixel once.
        var pair = DamageList()
        pair.add(IntRect(x: 0, y: 0, width: 4, height: 4), within: bounds)
        pair.add(IntRect(x: 10, y: 0, width: 4, height: 4), within: bounds)
        XCTAssertEqual(pair.area, 32)
        XCTAssertEqual(pair.boundingBox, IntRect(x: 0, y: 0, width: 14, height: 4))
    }
}
