/// The constraint solve of one container: a depth-first walk over the
/// dependencies between its sublayers (see `ConstraintLayoutManager`).
struct ConstraintSolver {
    private let container: Layer
    private let sublayers: [Layer]
    private let bounds: Rect
    private var frames: [Rect]
    private enum Mark { case unvisited, placing, placed }
    private var marks: [Mark]
    /// The sublayers being placed, outermost first (for naming a cycle).
    private var path: [Int] = []
    private(set) var solution = ConstraintSolution()

    init(_ container: Layer) {
        self.container = container
        sublayers = container.sublayers
        bounds = LayoutLimits.clamp(container.bounds)
        frames = sublayers.map { LayoutLimits.clamp($0.frame) }
        marks = Array(repeating: .unvisited, count: sublayers.count)
    }

    mutating func solveAll() {
        for i in sublayers.indices where isConstrained(i) && marks[i] == .unvisited { place(i) }
    }

    private func isConstrained(_ i: Int) -> Bool { !sublayers[i].layoutState.constraints.isEmpty }

    private func index(named name: String) -> Int? { sublayers.firstIndex { $0.name == name } }

    private mutating func report(_ issue: LayoutIssue, about i: Int) {
        solution.issues.append(issue)
        solution.issueLayers.append(sublayers[i])
    }

    /// Places sublayer `i` after the constrained siblings it reads.
    private mutating func place(_ i: Int) {
        marks[i] = .placing
        path.append(i)
        let layer = sublayers[i]
        var x = AxisConstraints(), y = AxisConstraints()
        for c in layer.layoutState.constraints {
            guard c.scale.isFinite, c.offset.isFinite else {
                report(.notFinite(container: container.name, layer: layer.name, constraint: c.text), about: i)
                continue
            }
            let source: Rect
            if c.source == LayoutConstraint.superlayer {
                source = bounds
            } else {
                guard let j = index(named: c.source) else {
                    report(.unknownSource(container: container.name, layer: layer.name, source: c.source, constraint: c.text), about: i)
                    continue
                }
                if isConstrained(j) {
                    if marks[j] == .placing {
                        let start = path.lastIndex(of: j) ?? 0
                        let cycle = path[start...].map { sublayers[$0].name }
                        report(.cycle(container: container.name, cycle: cycle, brokenAt: layer.name, constraint: c.text), about: i)
                        continue
                    }
                    if marks[j] == .unvisited { place(j) }
                }
                source = frames[j]
            }
            let value = LayoutLimits.clamp(c.sourceAttribute.value(of: source) * c.scale + c.offset)
            if let reason = c.attribute.isHorizontal ? x.add(c.attribute, value) : y.add(c.attribute, value) {
                report(.conflict(container: container.name, layer: layer.name, constraint: c.text, reason: reason), about: i)
            }
        }
        let current = frames[i]
        let anchor = layer.anchorPoint, position = layer.position
        let (minX, width, xIssue) = x.solve(currentMin: current.minX, currentSize: current.width,
                                            anchored: LayoutLimits.clamp(position.x), anchorUnit: anchor.x.isFinite ? anchor.x : 0.5)
        let (minY, height, yIssue) = y.solve(currentMin: current.minY, currentSize: current.height,
                                             anchored: LayoutLimits.clamp(position.y), anchorUnit: anchor.y.isFinite ? anchor.y : 0.5)
        for reason in [xIssue, yIssue].compactMap({ $0 }) {
            report(.conflict(container: container.name, layer: layer.name, constraint: reason.constraint, reason: reason.text), about: i)
        }
        let frame = LayoutLimits.clamp(Rect(x: minX, y: minY, width: width, height: height))
        frames[i] = frame
        solution.placements.append(ConstraintSolution.Placement(layer: layer, frame: frame))
        path.removeLast()
        marks[i] = .placed
    }
}

/// The attributes fixed on one axis of one layer (up to two), in terms of
/// the x axis (the y axis reads minY as minX, height as width).
struct AxisConstraints {
    private var fixed: [(attribute: LayoutConstraint.Attribute, value: Double)] = []

    /// Adds a value; returns why it is ignored, if it is.
    mutating func add(_ attribute: LayoutConstraint.Attribute, _ value: Double) -> String? {
        if fixed.contains(where: { $0.attribute == attribute }) {
            return "\(attribute) is constrained twice: the first is used, this one ignored"
        }
        if fixed.count == 2 {
            return "\(fixed[0].attribute) and \(fixed[1].attribute) already fix this axis: this one is ignored"
        }
        fixed.append((attribute, value))
        return nil
    }

    private enum Role { case min, mid, max, size }
    private static func role(_ a: LayoutConstraint.Attribute) -> Role {
        switch a {
        case .minX, .minY: return .min
        case .midX, .midY: return .mid
        case .maxX, .maxY: return .max
        case .width, .height: return .size
        }
    }

    /// The axis's minimum edge and size. `anchored` is the layer's position
    /// on the axis and `anchorUnit` its anchor point there (a size alone
    /// keeps that point in place). Two edges giving a negative size give
    /// size 0 at the first edge, with a reason naming the second.
    func solve(currentMin: Double, currentSize: Double, anchored: Double, anchorUnit: Double)
        -> (min: Double, size: Double, issue: (constraint: String, text: String)?) {
        var min: Double?, mid: Double?, max: Double?, size: Double?
        for (a, v) in fixed {
            switch AxisConstraints.role(a) {
            case .min: min = v
            case .mid: mid = v
            case .max: max = v
            case .size: size = v
            }
        }
        if let s = size {
            let s = LayoutLimits.clampLength(s)
            if let min { return (min, s, nil) }
            if let mid { return (mid - s / 2, s, nil) }
            if let max { return (max - s, s, nil) }
            return (anchored - anchorUnit * s, s, nil)
        }
        // Two edges: a negative size collapses to 0 at the first edge's
        // value (whichever was constrained first).
        func collapsed() -> (min: Double, size: Double, issue: (constraint: String, text: String)?) {
            let first = fixed[0].attribute, second = fixed[1].attribute
            return (fixed[0].value, 0, ("\(second)", "\(first) and \(second) give a negative size: size 0 at \(first)"))
        }
        switch (min, mid, max) {
        case let (min?, nil, max?): return max - min >= 0 ? (min, max - min, nil) : collapsed()
        case let (min?, mid?, nil): return mid - min >= 0 ? (min, 2 * (mid - min), nil) : collapsed()
        case let (nil, mid?, max?): return max - mid >= 0 ? (mid - (max - mid), 2 * (max - mid), nil) : collapsed()
        case let (min?, nil, nil): return (min, currentSize, nil)
        case let (nil, mid?, nil): return (mid - currentSize / 2, currentSize, nil)
        case let (nil, nil, max?): return (max - currentSize, currentSize, nil)
        default: return (currentMin, currentSize, nil)
        }
    }
}
