/// The arithmetic of one stack layout on (main, cross) coordinates, with
/// no layers: lines, growing and shrinking, alignment.
struct StackPlan {
    struct Item {
        var main: Double, cross: Double
        var grow: Double, shrink: Double
        var alignment: StackLayout.CrossAlignment
    }
    /// An item's place: offsets from the inner bounds' minimum corner.
    struct Placed {
        var main = 0.0, cross = 0.0, mainSize = 0.0, crossSize = 0.0
    }

    var mainLength: Double, crossLength: Double
    var gap: Double, lineGap: Double
    var wraps: Bool
    var mainAlignment: StackLayout.MainAlignment
    var items: [Item] = []
    private(set) var placed: [Placed] = []

    init(mainLength: Double, crossLength: Double, gap: Double, lineGap: Double, wraps: Bool,
         mainAlignment: StackLayout.MainAlignment) {
        self.mainLength = mainLength; self.crossLength = crossLength; self.gap = gap; self.lineGap = lineGap
        self.wraps = wraps; self.mainAlignment = mainAlignment
    }

    /// A grow or shrink factor: NaN and negatives are 0.
    static func weight(_ w: Double) -> Double { w > 0 ? Swift.min(w, LayoutLimits.maximumCoordinate) : 0 }

    mutating func solve() {
        placed = Array(repeating: Placed(), count: items.count)
        var lineStart = 0.0
        var first = 0
        while first < items.count {
            // The line: as many items as fit (at least one).
            var end = first + 1
            var used = items[first].main
            while wraps && end < items.count && used + gap + items[end].main <= mainLength + 1e-9 {
                used += gap + items[end].main
                end += 1
            }
            if !wraps { end = items.count }
            let thickness = wraps ? items[first..<end].reduce(0.0) { Swift.max($0, $1.cross) } : crossLength
            placeLine(first..<end, crossStart: lineStart, thickness: thickness)
            lineStart += thickness + lineGap
            first = end
        }
    }

    private mutating func placeLine(_ range: Range<Int>, crossStart: Double, thickness: Double) {
        let n = Double(range.count)
        var sizes = range.map { items[$0].main }
        let gaps = gap * (n - 1)
        let free = mainLength - sizes.reduce(0, +) - gaps
        let totalGrow = range.reduce(0.0) { $0 + items[$1].grow }
        let totalShrink = range.reduce(0.0) { $0 + items[$1].shrink * items[$1].main }
        if free > 0 && totalGrow > 0 {
            for (k, i) in range.enumerated() { sizes[k] += free * items[i].grow / totalGrow }
        } else if free < 0 && totalShrink > 0 {
            for (k, i) in range.enumerated() {
                sizes[k] = Swift.max(0, sizes[k] + free * items[i].shrink * items[i].main / totalShrink)
            }
        }
        let left = mainLength - sizes.reduce(0, +) - gaps
        var offset = 0.0, between = gap
        switch mainAlignment {
        case .start: break
        case .center: offset = left / 2
        case .end: offset = left
        case .spaceBetween: if left > 0 && n > 1 { between = gap + left / (n - 1) }
        case .spaceAround: if left > 0 { offset = left / n / 2; between = gap + left / n }
        case .spaceEvenly: if left > 0 { offset = left / (n + 1); between = gap + left / (n + 1) }
        }
        var main = offset
        for (k, i) in range.enumerated() {
            let item = items[i]
            var p = Placed(main: main, cross: crossStart, mainSize: sizes[k], crossSize: item.cross)
            switch item.alignment {
            case .start: break
            case .center: p.cross = crossStart + (thickness - item.cross) / 2
            case .end: p.cross = crossStart + thickness - item.cross
            case .stretch: p.crossSize = thickness
            }
            placed[i] = p
            main += sizes[k] + between
        }
    }
}
