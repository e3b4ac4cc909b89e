import FBRuntime

/// Where a row is: its section and its row within the section (0-based).
public struct ListIndexPath: Equatable, Hashable, Sendable {
    public var section: Int
    public var row: Int
    public init(section: Int, row: Int) { self.section = section; self.row = row }
}

/// One reusable row (or section header) of a `ListView`: a layer the list
/// places in its content space (points) and hands to the data source's
/// configure closure whenever it shows another row. Draw the row into
/// `contentLayer` (its sublayers: text, icons): that is what slides aside
/// to reveal swipe actions. Its frame belongs to the list.
public final class ListCell: Layer {
    /// What the row shows; the same size as the cell, slid left by a swipe.
    public let contentLayer = Layer(name: "list cell content")
    /// The row shown (for a header, `row` is -1).
    public internal(set) var indexPath = ListIndexPath(section: 0, row: 0)
    /// The cell shows a section header.
    public let isHeader: Bool
    /// The flat item index (headers and rows in order) it shows; -1 when
    /// it is in the reuse pool.
    var item = -1
    /// The swipe actions' buttons while the row is swiped open.
    var actionButtons: [Layer] = []

    public init(header: Bool = false, name: String = "list cell") {
        isHeader = header
        super.init(name: name)
        anchorPoint = .zero
        masksToBounds = true
        contentLayer.anchorPoint = .zero
        try? addSublayer(contentLayer)
    }

    /// A cell's geometry and visibility change at once: the list moves a
    /// reused cell to its new row and shows or hides it without an
    /// implicit animation (and so without a transaction of its own per
    /// frame). Other properties animate as any layer's.
    public override class func defaultAction(forKey key: AnimatableKey) -> LayerAction? {
        switch key {
        case .position, .positionX, .positionY, .bounds, .boundsOrigin, .boundsSize, .anchorPoint, .hidden:
            return LayerAction.none
        default:
            return super.defaultAction(forKey: key)
        }
    }
}

/// A button revealed by swiping a row to the left: a title on a colour;
/// a tap calls `handler` with the list and the row.
public struct SwipeAction {
    public var title: String
    public var color: Color
    public var handler: (ListView, ListIndexPath) -> Void
    public init(title: String, color: Color = Color(red: 0.9, green: 0.2, blue: 0.2),
                handler: @escaping (ListView, ListIndexPath) -> Void) {
        self.title = title; self.color = color; self.handler = handler
    }
}
