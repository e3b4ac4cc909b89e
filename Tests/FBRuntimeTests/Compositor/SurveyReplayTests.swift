@testable import FBRuntime
import MallocCounter
import Raster
import TestSupport
import XCTest

/// The survey's replay of unchanged subtrees (`Compositor.replaysUnchangedSubtrees`,
/// `SurveyMemo`) against its reference, the same compositor with the
/// replay off (every layer surveyed every frame): the same frames bit for
/// bit, the same damage and the same statistics, while edits reach deep
/// into subtrees the replay skipped, animations start and end, sublayers
/// come and go, layers hide and show, masks, shadows, groups and contents
/// change, and containers scroll subtrees off the screen and back. Every
/// frame also equals a full render by a fresh compositor (the damage is
/// right). The oracles run with the replay off: a compositor that replays
/// takes the layers' memos over, which would keep the one under test from
/// replaying anything.
final class SurveyReplayTests: XCTestCase {
    /// The same seeded splitmix64 generator as the damage tests.
    typealias SeededRandom = DamageTests.SeededRandom

    func firstDifference(_ a: PixelView<ARGB8888>, _ b: PixelView<ARGB8888>) -> (x: Int, y: Int, a: UInt32, b: UInt32)? {
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { return (x, y, a[x, y], b[x, y]) }
        }
        return nil
    }

    /// A full render by a compositor with no history (and no replay).
    func oracle(_ root: Layer, at time: MediaTime, width: Int, height: Int, scale: Double = 1) -> Surface<ARGB8888> {
        let s = Surface<ARGB8888>(width: width, height: height)!
        let c = Compositor(scale: scale)
        c.replaysUnchangedSubtrees = false
        c.render(root, at: time, into: s.view, clearColor: .black)
        return s
    }

    func dejaVu() -> Font? { try? Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") }

    func image(_ size: Int, seed: UInt32) -> LayerContents {
        let s = Surface<ARGB8888>(width: size, height: size)!
        for y in 0..<size {
            for x in 0..<size {
                s.view[x, y] = 0xFF00_0000 | UInt32(x * 255 / size) << 16 | UInt32(y * 255 / size) << 8 | (seed & 0xFF)
            }
        }
        return LayerContents(s, isOpaque: true)
    }

    /// A card as the LVGL benchmark's: rounded background with a border,
    /// an image, text, a button with a `shadowPath` shadow and a label,
    /// and a nested group two levels deep.
    func card(_ n: Int, at p: Point, font: Font?, picture: LayerContents) throws -> Layer {
        let card = solidLayer("card\(n)", p.x, p.y, 90, 60, 0xFFFFFF)
        card.cornerRadius = 6
        card.borderWidth = 2
        card.borderColor = Color(rgb: 0xE0E0E0)
        let photo = solidLayer("photo\(n)", 4, 4, 24, 24)
        photo.contents = picture
        try card.addSublayer(photo)
        if let font {
            let text = TextLayer(name: "text\(n)")
            text.font = font
            text.fontSize = 11
            text.foregroundColor = Color(rgb: 0x212121)
            text.string = "Card \(n)"
            text.anchorPoint = .zero
            text.position = Point(x: 32, y: 4)
            text.bounds = Rect(x: 0, y: 0, width: 54, height: 14)
            try card.addSublayer(text)
        }
        let button = solidLayer("button\(n)", 32, 30, 50, 20, 0x2196F3)
        button.cornerRadius = 5
        button.shadowOpacity = 0.5
        button.shadowRadius = 1
        button.shadowOffset = Size(width: 0, height: 2)
        button.shadowPath = Path(roundedRect: 0, 0, 50, 20, radii: CornerRadii(5))
        let inner = solidLayer("inner\(n)", 4, 4, 20, 12, 0x1060A0)
        let dot = solidLayer("dot\(n)", 2, 2, 6, 6, 0xFFD040)
        try inner.addSublayer(dot)
        try button.addSublayer(inner)
        try card.addSublayer(button)
        let shape = ShapeLayer(name: "shape\(n)")
        shape.anchorPoint = .zero
        shape.position = Point(x: 4, y: 34)
        shape.bounds = Rect(x: 0, y: 0, width: 22, height: 22)
        var ring = Path()
        ring.arc(center: PathPoint(11, 11), radius: 8, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        shape.path = ring
        shape.fillColor = nil
        shape.strokeColor = Color(rgb: 0x40A040)
        shape.lineWidth = 3
        shape.strokeEnd = 0.6
        try card.addSublayer(shape)
        return card
    }

    /// Every layer of `root`'s subtree (sublayers, not masks).
    func allLayers(_ root: Layer) -> [Layer] {
        var out = [root]
        var i = 0
        while i < out.count { out += out[i].sublayers; i += 1 }
        return out
    }

    func testReplayEqualsTheReferenceUnderRandomEdits() throws {
        let font = dejaVu()
        for seed in 1...4 as ClosedRange<UInt64> {
            let scale = seed == 3 ? 1.5 : 1
            let w = Int(240 * scale), h = Int(180 * scale)
            var rng = SeededRandom(state: seed)
            let root = solidLayer("root", 0, 0, 240, 180, 0xF5F5F5)
            root.isOpaque = true
            // A scrolling page of cards, some of them below the screen.
            let page = solidLayer("page", 0, 0, 240, 180)
            try root.addSublayer(page)
            let pictures = [image(24, seed: 0x30), image(24, seed: 0xC0)]
            for n in 0..<8 {
                let c = try card(n, at: Point(x: Double(10 + (n % 2) * 120), y: Double(10 + (n / 2) * 80)), font: font,
                                 picture: pictures[n % 2])
                try page.addSublayer(c)
            }
            let replaying = Compositor(scale: scale)
            let reference = Compositor(scale: scale)
            reference.replaysUnchangedSubtrees = false
            let a = Surface<ARGB8888>(width: w, height: h)!, b = Surface<ARGB8888>(width: w, height: h)!
            var time: MediaTime = 0
            var replayed = 0
            var log: [String] = []
            for step in 0..<90 {
                let layers = allLayers(page)
                let l = layers[1 + rng.int(layers.count - 1)]
                let edit = rng.int(22)
                switch edit {
                case 0: l.position = Point(x: (l.position.x + Double(rng.int(11) - 5)).rounded(), y: l.position.y)
                case 1: l.position.y += rng.double(-3, 3)
                case 2: l.backgroundColor = Color(rgb: UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF)
                case 3: l.isHidden.toggle()
                case 4:
                    let n = solidLayer("new\(step)", rng.double(0, 30), rng.double(0, 30), rng.double(4, 20), rng.double(4, 20),
                                       UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF)
                    try l.insertSublayer(n, at: rng.int(l.sublayers.count + 1))
                case 5: if l.superlayer !== page || page.sublayers.count > 3 { l.removeFromSuperlayer() }
                case 6:
                    l.add(BasicAnimation(key: .positionX, from: .scalar(l.position.x), to: .scalar(l.position.x + 12),
                                         duration: 0.1), forKey: "nudge", at: time)
                case 7: l.removeAllAnimations()
                case 8: l.opacity = rng.chance(0.5) ? 1 : 0.6
                case 9:
                    if l.mask == nil {
                        let m = solidLayer("mask", 2, 2, 20, 14, 0xFFFFFF)
                        m.cornerRadius = 4
                        l.mask = m
                    } else {
                        l.mask = nil
                    }
                case 10: l.shadowOpacity = l.shadowOpacity > 0 ? 0 : 0.6; l.shadowRadius = 2
                case 11: l.zPosition = rng.chance(0.5) ? 0 : rng.double(-1, 1)
                case 12:
                    // Pixels edited in place, announced.
                    let pic = pictures[rng.int(2)]
                    pic.image.view[rng.int(24), rng.int(24)] = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFFFFFF
                    pic.contentsDidChange()
                case 13: page.bounds.origin.y = Double(rng.int(160))          // scroll
                case 14: page.bounds.origin.y += rng.double(-2, 2)
                case 15: l.masksToBounds.toggle()
                case 16:
                    if let s = l as? ShapeLayer { s.strokeEnd = rng.double(0, 1) } else { l.cornerRadius = rng.double(0, 6) }
                case 17: if let t = l as? TextLayer { t.foregroundColor = Color(rgb: 0xA02020) } else { l.borderWidth = 1 }
                case 18: l.transform = rng.chance(0.5) ? .identity : Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
                default: break           // an idle frame: everything can be replayed
                }
                log.append("step \(step): edit \(edit) on \(l.name)")
                time += 1.0 / 30
                replaying.render(root, at: time, into: a.view, clearColor: .black)
                reference.render(root, at: time, into: b.view, clearColor: .black)
                replayed += replaying.statistics.unitsReplayed
                XCTAssertEqual(reference.statistics.unitsReplayed, 0)
                if let d = firstDifference(a.view, b.view) {
                    XCTFail("seed \(seed), \(log.last!): replay differs from the reference at (\(d.x), \(d.y)): 0x\(String(d.a, radix: 16)) vs 0x\(String(d.b, radix: 16))")
                    return
                }
                XCTAssertEqual(replaying.damage, reference.damage, "seed \(seed), \(log.last!)")
                // What the frame drew (the caches shared between the two
                // compositors make the other figures differ).
                let s = replaying.statistics, r = reference.statistics
                XCTAssertEqual([s.layersDrawn, s.layersCulled, s.pixelsDamaged, s.layersOccluded, s.offscreenPasses,
                                s.animationEvaluations],
                               [r.layersDrawn, r.layersCulled, r.pixelsDamaged, r.layersOccluded, r.offscreenPasses,
                                r.animationEvaluations], "seed \(seed), \(log.last!)")
                if step % 5 == 0, let d = firstDifference(a.view, oracle(root, at: time, width: w, height: h, scale: scale).view) {
                    XCTFail("seed \(seed), \(log.last!): differs from a full render at (\(d.x), \(d.y))")
                    return
                }
            }
            XCTAssertGreaterThan(replayed, 0, "seed \(seed): the replay was exercised")
        }
    }

    func testAChangeDeepInAReplayedSubtreeIsRedrawn() throws {
        let root = solidLayer("root", 0, 0, 200, 120, 0x202830)
        let card = try self.card(0, at: Point(x: 10, y: 10), font: dejaVu(), picture: image(24, seed: 0x80))
        let other = try self.card(1, at: Point(x: 105, y: 10), font: dejaVu(), picture: image(24, seed: 0x20))
        try root.addSublayer(card)
        try root.addSublayer(other)
        let dot = card.sublayers.first { $0.name == "button0" }!.sublayers[0].sublayers[0]
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 200, height: 120)!
        func frame(_ t: MediaTime, _ what: String) {
            compositor.render(root, at: t, into: target.view)
            if let d = firstDifference(target.view, oracle(root, at: t, width: 200, height: 120).view) {
                XCTFail("\(what): differs from a full render at (\(d.x), \(d.y))")
            }
        }
        frame(0, "first frame")
        frame(0.1, "nothing changed")
        XCTAssertTrue(compositor.damage.isEmpty)
        XCTAssertGreaterThan(compositor.statistics.unitsReplayed, 10, "the whole tree is taken over")
        let whole = compositor.statistics.unitsReplayed

        dot.backgroundColor = Color(rgb: 0xFF0000)                      // three levels down
        frame(0.2, "a colour deep inside")
        XCTAssertEqual(compositor.damage.boundingBox, IntRect(x: 10 + 32 + 4 + 2, y: 10 + 30 + 4 + 2, width: 6, height: 6))
        XCTAssertGreaterThan(compositor.statistics.unitsReplayed, 0, "the other card is taken over")
        XCTAssertLessThan(compositor.statistics.unitsReplayed, whole)

        dot.isHidden = true
        frame(0.3, "hidden deep inside")
        XCTAssertFalse(compositor.damage.isEmpty)
        dot.isHidden = false
        frame(0.4, "shown again")
        XCTAssertFalse(compositor.damage.isEmpty)

        // An animation starts deep inside: the card is surveyed every frame
        // while it runs, and taken over again once it is removed.
        dot.add(BasicAnimation(key: .positionX, from: .scalar(2), to: .scalar(10), duration: 0.2), forKey: "x", at: 0.4)
        frame(0.45, "animation running")
        XCTAssertFalse(compositor.damage.isEmpty)
        frame(0.5, "animation running")
        XCTAssertFalse(compositor.damage.isEmpty)
        frame(0.7, "animation over, not removed")
        dot.removeAllAnimations()
        frame(0.75, "animation removed")
        frame(0.8, "steady again")
        XCTAssertTrue(compositor.damage.isEmpty)
        XCTAssertEqual(compositor.statistics.unitsReplayed, whole)

        // Sublayers come and go deep inside.
        let extra = solidLayer("extra", 1, 1, 5, 5, 0x00FF00)
        try dot.addSublayer(extra)
        frame(0.9, "sublayer added")
        XCTAssertFalse(compositor.damage.isEmpty)
        extra.removeFromSuperlayer()
        frame(1.0, "sublayer removed")
        XCTAssertFalse(compositor.damage.isEmpty)

        // Pixels of a shown image edited in place.
        let photo = card.sublayers[0]
        photo.contents!.image.view[3, 3] = 0xFFFF_FFFF
        photo.contents!.contentsDidChange()
        frame(1.1, "contents edited")
        XCTAssertFalse(compositor.damage.isEmpty)

        // Effects appear deep inside: a mask, a group, a shadow cast by the image.
        let inner = dot.superlayer!
        inner.mask = solidLayer("mask", 0, 0, 10, 8, 0xFFFFFF)
        frame(1.2, "mask set")
        inner.mask = nil
        frame(1.3, "mask removed")
        inner.opacity = 0.5
        frame(1.4, "group opacity")
        inner.shadowOpacity = 0.8
        inner.shadowRadius = 2
        frame(1.5, "image shadow")
        frame(1.6, "steady")
        XCTAssertTrue(compositor.damage.isEmpty)
    }

    /// A page scrolled so its cards leave the screen: the cards off the
    /// clip are culled by the box they had, moved; a change inside one of
    /// them that reaches into the screen is seen.
    func testSubtreesScrolledOffTheScreenAreCulledByTheirMovedBox() throws {
        let root = solidLayer("root", 0, 0, 160, 100, 0xF5F5F5)
        let page = solidLayer("page", 0, 0, 160, 100)
        try root.addSublayer(page)
        var cards: [Layer] = []
        for n in 0..<10 {
            let c = try card(n, at: Point(x: 10, y: Double(10 + n * 70)), font: dejaVu(), picture: image(24, seed: UInt32(n * 20)))
            try page.addSublayer(c)
            cards.append(c)
        }
        let compositor = Compositor()
        let reference = Compositor()
        reference.replaysUnchangedSubtrees = false
        let a = Surface<ARGB8888>(width: 160, height: 100)!, b = Surface<ARGB8888>(width: 160, height: 100)!
        var t: MediaTime = 0
        func frame(_ what: String) {
            t += 1.0 / 60
            compositor.render(root, at: t, into: a.view)
            reference.render(root, at: t, into: b.view)
            if let d = firstDifference(a.view, b.view) { XCTFail("\(what): differs from the reference at (\(d.x), \(d.y))") }
            XCTAssertEqual(compositor.damage, reference.damage, what)
        }
        for k in 0..<40 {
            page.bounds.origin.y = Double(k * 13) + 0.25 * Double(k % 3)
            frame("scrolled to \(page.bounds.origin.y)")
        }
        // A card far below the screen grows a sublayer that reaches up
        // into view: its subtree changed, so its box is measured again.
        let far = cards[9]
        let reach = solidLayer("reach", 0, 0, 20, 20, 0xFF00FF)
        reach.position = Point(x: 20, y: page.bounds.origin.y + 20 - far.position.y)
        try far.addSublayer(reach)
        frame("a far card reaches into view")
        XCTAssertEqual(a.view[35, 25], Color(rgb: 0xFF00FF).premultiplied.argb)
        reach.position.y += 200
        frame("and leaves again")
        for k in 0..<20 {
            page.bounds.origin.y -= 9
            frame("scrolled back, step \(k)")
        }
    }

    /// Particles move without an animation or a model change: a subtree
    /// holding an emitter is surveyed every frame.
    func testASubtreeWithAnEmitterIsNotReplayed() throws {
        let root = solidLayer("root", 0, 0, 120, 80, 0x101010)
        let holder = solidLayer("holder", 0, 0, 120, 80)
        let emitter = EmitterLayer()
        emitter.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
        emitter.anchorPoint = .zero
        emitter.position = Point(x: 30, y: 10)
        let cell = EmitterCell()
        let spark = Surface<ARGB8888>(width: 2, height: 2)!
        spark.clear(to: 0xFFFF_FF80)
        cell.contents = LayerContents(spark)
        cell.birthRate = 30; cell.lifetime = 0.5; cell.velocity = 40; cell.emissionRange = 6.3
        emitter.emitterCells = [cell]
        emitter.emitterPosition = Point(x: 30, y: 30)
        try holder.addSublayer(emitter)
        try root.addSublayer(holder)
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 120, height: 80)!
        var t: MediaTime = 0
        for step in 0..<12 {
            t += 1.0 / 15
            compositor.render(root, at: t, into: target.view)
            if let d = firstDifference(target.view, oracle(root, at: t, width: 120, height: 80).view) {
                XCTFail("step \(step): differs from a full render at (\(d.x), \(d.y))")
                return
            }
        }
    }

    /// Replaying allocates nothing: a screen of cards, one of them moving.
    func testReplayingAllocatesNothing() throws {
        let root = solidLayer("root", 0, 0, 320, 240, 0xF5F5F5)
        var cards: [Layer] = []
        let picture = image(24, seed: 0x40)
        let font = dejaVu()
        for n in 0..<9 {
            let c = try card(n, at: Point(x: Double(5 + (n % 3) * 100), y: Double(5 + (n / 3) * 75)), font: font, picture: picture)
            try root.addSublayer(c)
            cards.append(c)
        }
        let compositor = Compositor()
        let target = Surface<ARGB8888>(width: 320, height: 240)!
        // Only the frame is counted: a model setter may allocate in debug
        // builds (the action machinery), which is the app's.
        var allocations = 0
        var replayed = 0
        for i in 0..<60 {
            cards[4].position.y = 80 + Double(i % 10)
            fbr_malloc_counter_begin()
            compositor.render(root, at: Double(i) / 60, into: target.view)
            let counted = Int(fbr_malloc_counter_end())
            if i >= 30 { allocations += counted; replayed += compositor.statistics.unitsReplayed }
        }
        XCTAssertNoAllocations(allocations)
        XCTAssertGreaterThan(replayed, 0)
    }
}
