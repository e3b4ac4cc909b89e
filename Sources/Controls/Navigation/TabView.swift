import FBRuntime

/// Pages with a `TabBar` under them: a tap on a tab shows its page, the
/// pages cross-fading (implicit animations of both pages' `opacity` over
/// `transitionDuration`, on the render thread); the page that went away
/// leaves the tree in the transaction's completion block.
///
/// Geometry: the view fills its bounds; the bar is `controlHeight` points
/// at the bottom and the pages fill the rest (`pagesLayer`), each sized to
/// it with its anchor point at the top-left corner. Only the selected page
/// is in the tree at rest (during a cross-fade, the two), so the others are
/// not drawn and their controls get no touches.
///
/// Theme: `background` behind the pages; the bar's look (`TabBar`). A
/// theme change reaches the pages out of the tree through the view.
public final class TabView: Control {
    /// The pages, in tab order.
    public private(set) var pages: [Layer] = []
    /// The bar; its `titles` follow the tabs added.
    public let tabBar: TabBar
    /// Holds the page on screen (two while they cross-fade); clips them.
    public let pagesLayer = Layer(name: "tab pages")

    /// Seconds a cross-fade takes.
    public var transitionDuration = 0.25

    /// Called when a tap on the bar selected another tab, with the view.
    public var onSelectionChanged: ((TabView) -> Void)?

    private var generation = 0

    /// The tab shown, nil while there are none.
    public var selectedIndex: Int? { tabBar.selectedIndex }

    public init(theme: Theme = .light) {
        tabBar = TabBar(titles: [], theme: theme)
        super.init(name: "tab view")
        self.theme = theme
        pagesLayer.anchorPoint = .zero
        pagesLayer.masksToBounds = true
        try? addSublayer(pagesLayer)
        try? addSublayer(tabBar)
        tabBar.onValueChanged = { bar in
            guard let view = bar.navigationAncestor(TabView.self), let i = bar.selectedIndex else { return }
            view.show(i, animated: true)
            view.onSelectionChanged?(view)
        }
        updateAppearance()
    }

    /// Adds a tab with `title` showing `page`. The first tab added is
    /// selected.
    public func addTab(title: String, page: Layer) {
        pages.append(page)
        page.anchorPoint = .zero
        tabBar.titles.append(title)
        if tabBar.selectedIndex == nil { tabBar.selectedIndex = 0 }
        if pages.count == 1 { Transaction.withoutActions { try? pagesLayer.addSublayer(page) } }
        setNeedsLayout()
    }

    /// Shows tab `index` (ignored out of range), cross-fading when
    /// `animated` in a displayed tree. Calls no handler.
    public func select(_ index: Int, animated: Bool = true) {
        guard pages.indices.contains(index) else { return }
        tabBar.selectedIndex = index
        show(index, animated: animated)
    }

    /// Attaches the tab bar to `router` (the pages' controls are the app's
    /// to attach).
    public override func attach(to router: TouchRouter) {
        tabBar.attach(to: router)
    }

    private func show(_ index: Int, animated: Bool) {
        let page = pages[index]
        layoutIfNeeded()
        generation &+= 1
        let g = generation
        let animate = animated && isInDisplayedTree
        let fading = pagesLayer.sublayers.filter { $0 !== page }
        Transaction.withoutActions {
            if page.superlayer !== pagesLayer {
                page.removeFromSuperlayer()
                page.frame = Rect(x: 0, y: 0, width: pagesLayer.bounds.width, height: pagesLayer.bounds.height)
                page.opacity = animate ? 0 : 1
                try? pagesLayer.addSublayer(page)
            } else {
                // Back in front of a page that is fading out.
                page.removeFromSuperlayer()
                try? pagesLayer.addSublayer(page)
            }
        }
        NavigationAnimation.run(animated: animate, in: self, duration: transitionDuration, changes: {
            page.opacity = 1
            for other in fading { other.opacity = 0 }
        }, completion: {
            guard g == self.generation else { return }
            Transaction.withoutActions {
                for other in self.pagesLayer.sublayers where other !== page {
                    other.removeFromSuperlayer()
                    other.opacity = 1
                }
            }
        })
    }

    public override func layoutSublayers() {
        super.layoutSublayers()
        let b = bounds
        let barHeight = theme.metrics.controlHeight
        let bar = Rect(x: 0, y: max(0, b.height - barHeight), width: b.width, height: min(barHeight, b.height))
        if tabBar.frame != bar { tabBar.frame = bar }
        let area = Rect(x: 0, y: 0, width: b.width, height: max(0, b.height - barHeight))
        if pagesLayer.frame != area { pagesLayer.frame = area }
        let size = Rect(x: 0, y: 0, width: area.width, height: area.height)
        for page in pages where page.bounds != size { page.bounds = size }
    }

    public override func themeDidChange() {
        tabBar.theme = theme
        for page in pages { theme.applyOffscreen(to: page) }
        super.themeDidChange()
    }

    public override func updateAppearance() {
        if backgroundColor != theme.colors.background { backgroundColor = theme.colors.background }
    }
}
