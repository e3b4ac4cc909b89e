@testable import FBRuntime
import Raster
import XCTest

/// Commits carry only what changed (`ChangedLayers`, `RenderTreeUpdate`),
/// and the render tree they build is the one capturing everything builds:
/// checked twin by twin, every stored property compared through `Mirror`,
/// after random edits that touch every model property of every layer class.
final class DirtyCommitTests: XCTestCase {
    typealias Rng = DamageTests.SeededRandom

    // MARK: Cost

    /// A list of 10,000 rows: after the first commit, a commit carries what
    /// changed — one row, a new row and its list, a removal — however long
    /// the list.
    func testACommitCarriesTheChangedRowsOnly() throws {
        let root = Layer(name: "root")
        let list = Layer(name: "list")
        try root.addSublayer(list)
        var rows: [Layer] = []
        for i in 0..<10_000 {
            let row = Layer(name: "row \(i)")
            row.bounds = Rect(x: 0, y: 0, width: 300, height: 40)
            row.position = Point(x: 150, y: 20 + 40 * Double(i))
            let label = Layer(name: "label \(i)")
            try row.addSublayer(label)
            try list.addSublayer(row)
            rows.append(row)
        }
        let first = RenderTreeUpdate(capturing: root, at: 0)
        XCTAssertEqual(first.layerCount, 20_002, "the first commit takes the whole tree")
        first.apply()
        XCTAssertEqual(RenderTreeUpdate(capturing: root, at: 0).layerCount, 0, "nothing changed: nothing carried")

        rows[5_000].backgroundColor = Color(rgb: 0xFF0000)
        rows[5_000].opacity = 0.5
        let one = RenderTreeUpdate(capturing: root, at: 0)
        XCTAssertEqual(one.layerCount, 1, "one row changed")
        one.apply()
        XCTAssertEqual(rows[5_000].handOff.twin?.backgroundColor, Color(rgb: 0xFF0000))

        let added = Layer(name: "added")
        try added.addSublayer(Layer(name: "added label"))
        try list.addSublayer(added)
        XCTAssertEqual(RenderTreeUpdate(capturing: root, at: 0).layerCount, 3, "the list and the new row with its label")

        rows[7].removeFromSuperlayer()
        XCTAssertEqual(RenderTreeUpdate(capturing: root, at: 0).layerCount, 1, "the list")
    }

    /// A layer changed while out of the tree is carried when it comes back;
    /// one the app let go of is not kept.
    func testChangesOutOfTheTreeWaitAndReleasedLayersAreDropped() throws {
        let root = Layer(name: "root")
        let a = Layer(name: "a"), b = Layer(name: "b")
        try root.addSublayer(a)
        try root.addSublayer(b)
        RenderTreeUpdate(capturing: root, at: 0).apply()
        a.removeFromSuperlayer()
        XCTAssertEqual(RenderTreeUpdate(capturing: root, at: 0).layerCount, 1)
        a.opacity = 0.25                      // out of the tree
        XCTAssertEqual(RenderTreeUpdate(capturing: root, at: 0).layerCount, 0)
        try b.addSublayer(a)
        let back = RenderTreeUpdate(capturing: root, at: 0)
        XCTAssertEqual(back.layerCount, 2, "b's sublayers and a's opacity")
        back.apply()
        XCTAssertEqual(a.handOff.twin?.opacity, 0.25)

        var dropped: Layer? = Layer(name: "dropped")
        try root.addSublayer(dropped!)
        RenderTreeUpdate(capturing: root, at: 0).apply()
        dropped!.removeFromSuperlayer()
        dropped!.opacity = 0.5
        func listed() -> Bool { ChangedLayers.lock.withLock { ChangedLayers.list.contains { $0.name == "dropped" } } }
        XCTAssertTrue(listed())
        dropped = nil
        _ = RenderTreeUpdate(capturing: root, at: 0)
        XCTAssertFalse(listed(), "the released layer is let go")
    }

    // MARK: Equivalence

    /// Stored properties of the layer classes that are not model state
    /// handed to the twin: the tree, animations (compared by key),
    /// bookkeeping, app-side drawing hooks and render-side caches.
    static let notModelState: Set<String> = [
        "Layer.sublayers", "Layer.superlayer", "Layer.maskStorage", "Layer.maskOwner", "Layer.animations",
        "Layer.animationsVersion", "Layer.actionState", "Layer.layoutState", "Layer.handOff", "Layer.renderCache", "Layer.presentedMemo",
        "Layer.surveyMemo", "Layer.subtreeVersion", "Layer.sublayerChanges",
        "Layer.drawHandler", "Layer.needsDisplayOnBoundsChange",
        "ShapeLayer.strokeCache", "ShapeLayer.trimPiece", "ShapeLayer.presentedPathMemo", "ShapeLayer.presentedStyleMemo",
        "ShapeLayer.geometryMemo",
        "GradientLayer.imageCache", "GradientLayer.colorScratch", "GradientLayer.locationScratch",
        "TextLayer.layoutCache", "TextLayer.textVersion",
        "EmitterLayer.lastParticleCount", "EmitterLayer.particles",
    ]

    /// Every stored property of `layer` but `notModelState`, by
    /// "Class.property" (the fields of `properties` one by one), described.
    func modelState(of layer: Layer) -> [String: String] {
        var state: [String: String] = [:]
        var mirror: Mirror? = Mirror(reflecting: layer)
        while let m = mirror {
            let owner = String(describing: m.subjectType).components(separatedBy: ".").last!
            for child in m.children {
                guard let label = child.label else { continue }
                let name = "\(owner).\(label.hasPrefix("$__lazy_storage_$_") ? String(label.dropFirst(18)) : label)"
                if Self.notModelState.contains(name) { continue }
                if name == "Layer.properties" {
                    for field in Mirror(reflecting: child.value).children {
                        if field.label == "animatable" {      // PresentationValues, field by field
                            for value in Mirror(reflecting: field.value).children {
                                state["LayerProperties.animatable.\(value.label!)"] = describe(value.value)
                            }
                        } else {
                            state["LayerProperties.\(field.label!)"] = describe(field.value)
                        }
                    }
                } else {
                    state[name] = describe(child.value)
                }
            }
            mirror = m.superclassMirror
        }
        state["customValues"] = describe(layer.actionState.customValues)
        return state
    }

    /// Values by description; class instances by identity (the twin
    /// shares contents, fonts and cells with its model layer).
    func describe(_ value: Any) -> String {
        let m = Mirror(reflecting: value)
        if m.displayStyle == .class { return "object \(ObjectIdentifier(value as AnyObject))" }
        if m.displayStyle == .optional {
            guard let some = m.children.first else { return "nil" }
            return "some(\(describe(some.value)))"
        }
        if m.displayStyle == .collection { return "[" + m.children.map { describe($0.value) }.joined(separator: ", ") + "]" }
        return String(describing: value)
    }

    /// Checks every twin of `root`'s tree against its model layer.
    func checkRenderTree(_ root: Layer, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        var visited = Set<ObjectIdentifier>()
        func check(_ model: Layer) {
            guard visited.insert(ObjectIdentifier(model)).inserted else { return }
            guard let twin = model.handOff.twin else { return XCTFail("\(what): \(model.name) has no twin", file: file, line: line) }
            XCTAssertTrue(type(of: twin) == type(of: model), "\(what): \(model.name)'s twin class", file: file, line: line)
            let expected = modelState(of: model), actual = modelState(of: twin)
            for (key, value) in expected where key != "LayerProperties.contents" && actual[key] != value {
                XCTFail("\(what): \(model.name) \(key): twin \(actual[key] ?? "-"), model \(value)", file: file, line: line)
            }
            if model.actionState.displayStore == nil {
                XCTAssertTrue(twin.contents === model.contents, "\(what): \(model.name) contents", file: file, line: line)
            }
            XCTAssertEqual(twin.animations.map(\.key), model.animations.map(\.key), "\(what): \(model.name) animations", file: file, line: line)
            XCTAssertEqual(twin.sublayers.count, model.sublayers.count, "\(what): \(model.name) sublayers", file: file, line: line)
            for (t, m) in zip(twin.sublayers, model.sublayers) where t !== m.handOff.twin {
                XCTFail("\(what): \(model.name)'s sublayer \(m.name) is not its twin", file: file, line: line)
            }
            XCTAssertTrue(twin.mask === model.mask?.handOff.twin, "\(what): \(model.name) mask", file: file, line: line)
            if let mask = model.mask { check(mask) }
            model.sublayers.forEach(check)
        }
        check(root)
    }

    /// Edits touching every model property of every layer class.
    typealias Edit = (name: String, accepts: (Layer) -> Bool, apply: (Layer, inout Rng) -> Void)

    func mutators(font: Font?, contents: [LayerContents]) -> [Edit] {
        let base: [(String, (Layer, inout Rng) -> Void)] = [
            ("name", { l, r in l.name = "n\(r.int(1000))" }),
            ("bounds", { l, r in l.bounds = r.rect() }),
            ("position", { l, r in l.position = r.point() }),
            ("zPosition", { l, r in l.zPosition = r.double() * 10 }),
            ("anchorPoint", { l, r in l.anchorPoint = Point(x: r.double(), y: r.double()) }),
            ("anchorPointZ", { l, r in l.anchorPointZ = r.double() }),
            ("transform", { l, r in l.transform = .rotation(radians: r.double(), x: 0, y: 0, z: 1) }),
            ("sublayerTransform", { l, r in l.sublayerTransform = .perspective(distance: 100 + r.double() * 500) }),
            ("isGeometryFlipped", { l, r in l.isGeometryFlipped = r.bool() }),
            ("contentsScale", { l, r in l.contentsScale = 1 + Double(r.int(3)) }),
            ("opacity", { l, r in l.opacity = r.double() }),
            ("isHidden", { l, r in l.isHidden = r.bool() }),
            ("backgroundColor", { l, r in l.backgroundColor = r.bool() ? r.color() : nil }),
            ("cornerRadius", { l, r in l.cornerRadius = r.double() * 20 }),
            ("maskedCorners", { l, r in l.maskedCorners = r.bool() ? CornerMask(rawValue: UInt8(r.int(16))) : nil }),
            ("masksToBounds", { l, r in l.masksToBounds = r.bool() }),
            ("borderWidth", { l, r in l.borderWidth = r.double() * 5 }),
            ("borderColor", { l, r in l.borderColor = r.color() }),
            ("contents", { l, r in l.contents = r.bool() ? contents[r.int(contents.count)] : nil }),
            ("contentsGravity", { l, r in l.contentsGravity = [.center, .top, .resizeAspect, .tile, .resize][r.int(5)] }),
            ("contentsRect", { l, r in l.contentsRect = Rect(x: r.double() / 2, y: 0, width: 0.5, height: 1) }),
            ("contentsCenter", { l, r in l.contentsCenter = Rect(x: 0.25, y: r.double() / 4, width: 0.5, height: 0.5) }),
            ("minificationFilter", { l, r in l.minificationFilter = r.bool() ? .nearest : .trilinear }),
            ("minificationFilterBias", { l, r in l.minificationFilterBias = r.bool() ? 0 : 1.5 }),
            ("magnificationFilter", { l, r in l.magnificationFilter = r.bool() ? .nearest : .linear }),
            ("shadowColor", { l, r in l.shadowColor = r.color() }),
            ("shadowOpacity", { l, r in l.shadowOpacity = r.double() }),
            ("shadowOffset", { l, r in l.shadowOffset = Size(width: r.double() * 5, height: r.double() * 5) }),
            ("shadowRadius", { l, r in l.shadowRadius = r.double() * 10 }),
            ("shadowPath", { l, r in l.shadowPath = r.bool() ? Self.rectPath(r.rect()) : nil }),
            ("allowsGroupOpacity", { l, r in l.allowsGroupOpacity = r.bool() }),
            ("isDoubleSided", { l, r in l.isDoubleSided = r.bool() }),
            ("allowsEdgeAntialiasing", { l, r in l.allowsEdgeAntialiasing = r.bool() }),
            ("edgeAntialiasingMask", { l, r in l.edgeAntialiasingMask = EdgeAntialiasingMask(rawValue: UInt8(r.int(16))) }),
            ("isOpaque", { l, r in l.isOpaque = r.bool() }),
            ("shouldRasterize", { l, r in l.shouldRasterize = r.bool() }),
            ("rasterizationScale", { l, r in l.rasterizationScale = 0.5 + r.double() }),
            ("compositingOperator", { l, r in l.compositingOperator = r.bool() ? .plus : .srcOver }),
            ("backgroundBlurRadius", { l, r in l.backgroundBlurRadius = r.double() * 8 }),
            ("filters", { l, r in
                l.filters = r.bool() ? [] : [.saturation(r.double() * 2), .gaussianBlur(radius: r.double() * 6), .contrast(r.double())]
            }),
            ("beginTime", { l, r in l.beginTime = r.double() }),
            ("speed", { l, r in l.speed = 0.5 + r.double() }),
            ("timeOffset", { l, r in l.timeOffset = r.double() }),
            ("duration", { l, r in l.duration = r.double() < 0.5 ? 0 : 1 + r.double() }),
            ("repeatCount", { l, r in l.repeatCount = r.double() < 0.5 ? .infinity : 2 * r.double() }),
            ("repeatDuration", { l, r in l.repeatDuration = 3 * r.double() }),
            ("autoreverses", { l, _ in l.autoreverses.toggle() }),
            ("fillMode", { l, r in l.fillMode = [FillMode.removed, .forwards, .backwards, .both][Int(r.double() * 3.99)] }),
            ("custom value", { l, r in l.setValue(.scalar(r.double()), forKey: "custom\(r.int(3))") }),
            ("animation", { l, r in
                if r.bool() {
                    var a = BasicAnimation(key: .opacity, from: .scalar(0), to: .scalar(1))
                    a.duration = 1 + r.double()
                    l.add(a, forKey: "a\(r.int(3))", at: 0)
                } else {
                    l.removeAllAnimations()
                }
            }),
            ("drawing", { l, r in
                l.drawHandler = { _, context in context.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: Color(rgb: 0x00FF00)) }
                l.bounds.size = Size(width: 8 + Double(r.int(8)), height: 8)
                l.setNeedsDisplay()
            }),
        ]
        var m: [Edit] = base.map { ($0.0, { _ in true }, $0.1) }
        func sub<L: Layer>(_ type: L.Type, _ name: String, _ body: @escaping (L, inout Rng) -> Void) {
            m.append(("\(L.self).\(name)", { $0 is L }, { l, r in body(l as! L, &r) }))
        }
        sub(ShapeLayer.self, "path") { l, r in l.path = Self.rectPath(r.rect()) }
        sub(ShapeLayer.self, "fillColor") { l, r in l.fillColor = r.bool() ? r.color() : nil }
        sub(ShapeLayer.self, "fillRule") { l, r in l.fillRule = r.bool() ? .evenOdd : .nonZero }
        sub(ShapeLayer.self, "strokeColor") { l, r in l.strokeColor = r.color() }
        sub(ShapeLayer.self, "lineWidth") { l, r in l.lineWidth = r.double() * 5 }
        sub(ShapeLayer.self, "lineCap") { l, r in l.lineCap = r.bool() ? .round : .square }
        sub(ShapeLayer.self, "lineJoin") { l, r in l.lineJoin = r.bool() ? .round : .bevel }
        sub(ShapeLayer.self, "miterLimit") { l, r in l.miterLimit = 1 + r.double() * 10 }
        sub(ShapeLayer.self, "lineDashPattern") { l, r in l.lineDashPattern = r.bool() ? [r.double() * 5, 2] : nil }
        sub(ShapeLayer.self, "lineDashPhase") { l, r in l.lineDashPhase = r.double() }
        sub(ShapeLayer.self, "strokeStart") { l, r in l.strokeStart = r.double() / 2 }
        sub(ShapeLayer.self, "strokeEnd") { l, r in l.strokeEnd = 0.5 + r.double() / 2 }
        sub(TextLayer.self, "string") { l, r in l.string = "text \(r.int(100))" }
        sub(TextLayer.self, "attributedString") { l, r in
            l.attributedString = r.bool() ? [TextRun("run \(r.int(9))", font: font, fontSize: 12, color: r.color())] : nil
        }
        sub(TextLayer.self, "font") { l, r in l.font = r.bool() ? font : nil }
        sub(TextLayer.self, "fontSize") { l, r in l.fontSize = 8 + r.double() * 30 }
        sub(TextLayer.self, "foregroundColor") { l, r in l.foregroundColor = r.color() }
        sub(TextLayer.self, "alignmentMode") { l, r in l.alignmentMode = r.bool() ? .center : .right }
        sub(TextLayer.self, "isWrapped") { l, r in l.isWrapped = r.bool() }
        sub(TextLayer.self, "truncationMode") { l, r in l.truncationMode = r.bool() ? .end : .middle }
        sub(GradientLayer.self, "type") { l, r in l.type = r.bool() ? .radial : .conic }
        sub(GradientLayer.self, "interpolation") { l, r in l.interpolation = r.bool() ? .premultiplied : .unpremultiplied }
        sub(GradientLayer.self, "colors") { l, r in l.colors = [r.color(), r.color()] }
        sub(GradientLayer.self, "locations") { l, r in l.locations = r.bool() ? [0, r.double()] : nil }
        sub(GradientLayer.self, "startPoint") { l, r in l.startPoint = Point(x: r.double(), y: 0) }
        sub(GradientLayer.self, "endPoint") { l, r in l.endPoint = Point(x: r.double(), y: 1) }
        sub(ReplicatorLayer.self, "instanceCount") { l, r in l.instanceCount = 1 + r.int(5) }
        sub(ReplicatorLayer.self, "instanceDelay") { l, r in l.instanceDelay = r.double() }
        sub(ReplicatorLayer.self, "instanceTransform") { l, r in l.instanceTransform = .translation(x: r.double() * 10, y: 0, z: 0) }
        sub(ReplicatorLayer.self, "instanceColor") { l, r in l.instanceColor = r.color() }
        sub(ReplicatorLayer.self, "instanceRedOffset") { l, r in l.instanceRedOffset = -r.double() / 4 }
        sub(ReplicatorLayer.self, "instanceGreenOffset") { l, r in l.instanceGreenOffset = -r.double() / 4 }
        sub(ReplicatorLayer.self, "instanceBlueOffset") { l, r in l.instanceBlueOffset = -r.double() / 4 }
        sub(ReplicatorLayer.self, "instanceAlphaOffset") { l, r in l.instanceAlphaOffset = -r.double() / 4 }
        sub(EmitterLayer.self, "emitterCells") { l, r in l.emitterCells = r.bool() ? [EmitterCell(name: "c\(r.int(9))")] : [] }
        sub(EmitterLayer.self, "birthRate") { l, r in l.birthRate = r.double() }
        sub(EmitterLayer.self, "lifetime") { l, r in l.lifetime = r.double() }
        sub(EmitterLayer.self, "velocity") { l, r in l.velocity = r.double() }
        sub(EmitterLayer.self, "scale") { l, r in l.scale = r.double() }
        sub(EmitterLayer.self, "spin") { l, r in l.spin = r.double() }
        sub(EmitterLayer.self, "emitterPosition") { l, r in l.emitterPosition = r.point() }
        sub(EmitterLayer.self, "emitterSize") { l, r in l.emitterSize = Size(width: r.double() * 9, height: 1) }
        sub(EmitterLayer.self, "emitterShape") { l, r in l.emitterShape = r.bool() ? .circle : .line }
        sub(EmitterLayer.self, "emitterMode") { l, r in l.emitterMode = r.bool() ? .outline : .points }
        sub(EmitterLayer.self, "renderMode") { l, r in l.renderMode = r.bool() ? .additive : .oldestFirst }
        sub(EmitterLayer.self, "seed") { l, r in l.seed = UInt32(r.int(1000)) }
        sub(EmitterLayer.self, "preservesDepth") { l, r in l.preservesDepth = r.bool() }
        sub(EmitterLayer.self, "emitterZPosition") { l, r in l.emitterZPosition = r.double() }
        sub(EmitterLayer.self, "emitterDepth") { l, r in l.emitterDepth = r.double() }
        return m
    }

    static func rectPath(_ rect: Rect) -> Path { Path(rect: rect.minX, rect.minY, rect.width, rect.height) }

    func makeLayer(_ r: inout Rng, _ n: Int) -> Layer {
        switch r.int(7) {
        case 0: return ShapeLayer(name: "shape \(n)")
        case 1: return TextLayer(name: "text \(n)")
        case 2: return GradientLayer(name: "gradient \(n)")
        case 3: return ReplicatorLayer(name: "replicator \(n)")
        case 4: return EmitterLayer(name: "emitter \(n)")
        case 5: return TransformLayer(name: "transform \(n)")
        default: return Layer(name: "layer \(n)")
        }
    }

    /// Random edits (properties of every kind, tree edits, masks, custom
    /// values, animations, drawing) between commits; after each commit the
    /// render tree equals the model tree twin by twin. Every model
    /// property a layer class stores must be changed by some edit at least
    /// once — a property added without an edit here fails, so its hand-off
    /// is checked too.
    func testRenderTreeFromChangesEqualsTheModelTree() throws {
        let font = try? Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let images = (0..<3).map { i -> LayerContents in
            let s = Surface<ARGB8888>(width: 4 + i, height: 4)!
            return LayerContents(s)
        }
        let edits = mutators(font: font, contents: images)
        var r = Rng(state: 0xD1_27)
        let root = Layer(name: "root")
        var all: [Layer] = [root]
        for n in 0..<40 {
            let l = makeLayer(&r, n)
            try all[r.int(all.count)].addSublayer(l)
            all.append(l)
        }
        RenderTreeUpdate(capturing: root, at: 0).apply()
        checkRenderTree(root, "first commit")
        var changedKeys = Set<String>()
        var everSeen = Set<String>()
        var made = all.count
        for round in 0..<200 {
            // The first rounds go through every edit in turn, three
            // times each; then random ones.
            let sweep = 3 * edits.count / 6
            for k in 0..<(round < sweep ? 6 : 1 + r.int(6)) {
                let edit = round < sweep ? edits[(round * 6 + k) % edits.count] : edits[r.int(edits.count)]
                let candidates = all.filter(edit.accepts)
                var layer = all[r.int(all.count)]
                let kind = round < sweep ? 2 : r.int(10)
                if kind >= 2 {
                    if candidates.isEmpty { continue }
                    layer = candidates[r.int(candidates.count)]
                }
                let before = modelState(of: layer)
                switch kind {
                case 0:      // a tree edit: move, insert a new layer, remove
                    let other = all[r.int(all.count)]
                    if r.bool(), layer !== root {
                        try? other.addSublayer(layer)
                    } else if r.bool() {
                        let new = makeLayer(&r, made); made += 1
                        try other.addSublayer(new)
                        all.append(new)
                    } else if layer !== root {
                        layer.removeFromSuperlayer()
                    }
                case 1:      // a mask set or cleared
                    if r.bool() {
                        let m = makeLayer(&r, made); made += 1
                        m.backgroundColor = r.color()
                        layer.mask = m
                        all.append(m)
                    } else {
                        layer.mask = nil
                    }
                default:
                    edit.apply(layer, &r)
                }
                let after = modelState(of: layer)
                for (key, value) in after {
                    everSeen.insert(key)
                    if before[key] != value { changedKeys.insert(key) }
                }
            }
            // Out of the tree: layers removed, masks replaced. Keep only
            // those still reachable (others may come back through edits).
            let update = RenderTreeUpdate(capturing: root, at: Double(round) / 60)
            update.apply()
            checkRenderTree(root, "round \(round)")
        }
        let never = everSeen.subtracting(changedKeys).filter { !$0.hasPrefix("customValues") }
        XCTAssertTrue(never.isEmpty, "model properties no edit changed (add an edit to mutators): \(never.sorted())")
    }

    /// A parent and child that swap places in one commit: applying the
    /// update never leaves the twins in a loop of superlayers, not even
    /// between two entries, and copying a twin's state runs no model-side
    /// action lookup (a ThreadSanitizer stress run once spun for ever in
    /// `isInDisplayedTree` on the render thread, under a text layer's
    /// `fontSize` setter called by `apply`).
    func testParentAndChildSwappingPlacesApplyWithoutALoop() throws {
        let root = Layer(name: "root")
        root.isDisplayRoot = true
        let a = TextLayer(name: "a"), b = TextLayer(name: "b")
        try root.addSublayer(a)
        try a.addSublayer(b)
        RenderTreeUpdate(capturing: root, at: 0).apply()
        var upper: TextLayer = a, lower: TextLayer = b
        for round in 0..<4 {
            // `lower` changes first (its entry comes first), then goes up
            // to the root and takes `upper` under it.
            lower.fontSize = 30 + Double(round)
            try root.addSublayer(lower)
            try lower.addSublayer(upper)
            upper.fontSize = 20 + Double(round)
            let update = RenderTreeUpdate(capturing: root, at: 0)
            update.apply()
            let rootTwin = try XCTUnwrap(root.handOff.twin)
            let lowerTwin = try XCTUnwrap(lower.handOff.twin), upperTwin = try XCTUnwrap(upper.handOff.twin)
            XCTAssertTrue(rootTwin.sublayers.count == 1 && rootTwin.sublayers[0] === lowerTwin, "round \(round)")
            XCTAssertTrue(lowerTwin.superlayer === rootTwin, "round \(round)")
            XCTAssertTrue(lowerTwin.sublayers.count == 1 && lowerTwin.sublayers[0] === upperTwin, "round \(round)")
            XCTAssertTrue(upperTwin.superlayer === lowerTwin && upperTwin.sublayers.isEmpty, "round \(round)")
            XCTAssertEqual((upperTwin as? TextLayer)?.fontSize, 20 + Double(round))
            XCTAssertTrue(upperTwin.actionState.tracked.isEmpty && lowerTwin.actionState.tracked.isEmpty
                          && !upperTwin.isTrackedByRunLoop && !lowerTwin.isTrackedByRunLoop,
                          "the twins ran no action of their own (the app run loop's, on the render thread)")
            swap(&upper, &lower)
        }
    }
}

extension DamageTests.SeededRandom {
    mutating func double() -> Double { double(0, 1) }
    mutating func bool() -> Bool { next() & 1 == 0 }
    mutating func color() -> Color { Color(red: double(), green: double(), blue: double(), alpha: double()) }
    mutating func point() -> Point { Point(x: double() * 100, y: double() * 100) }
    mutating func rect() -> Rect { Rect(x: double() * 10, y: double() * 10, width: double() * 80, height: double() * 60) }
}
