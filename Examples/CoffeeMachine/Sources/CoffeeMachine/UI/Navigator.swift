import AppShell
import FBRuntime

/// A page of the panel: a layer the size of the screen.
protocol Page: AnyObject {
    var layer: Layer { get }
    /// Called when the page is about to show again after the page above it
    /// was popped (refresh what may have changed).
    func willReappear()
}

extension Page {
    func willReappear() {}
}

/// A stack of pages with push and pop transitions: the new page slides in
/// from the right over the old one, which moves a third of the way left
/// and dims; popping plays it backwards. Both are implicit animations of
/// `position` and `opacity` in one transaction, so they start together
/// from what is on screen (a pop during a push turns around smoothly).
final class Navigator {
    let container: Layer
    private(set) var pages: [Page] = []
    private let screen: Screen
    private let width: Double

    /// Pages go under `screen.root`.
    init(screen: Screen) {
        self.screen = screen
        container = screen.root
        width = container.bounds.width
    }

    var top: Page? { pages.last }

    /// Shows `page` at once (no animation): the first page.
    func setRoot(_ page: Page) {
        Transaction.withoutActions {
            for p in pages { p.layer.removeFromSuperlayer() }
            pages = [page]
            place(page.layer, at: 0)
            try? container.addSublayer(page.layer)
        }
    }

    func push(_ page: Page) {
        guard let below = pages.last else { setRoot(page); return }
        Transaction.withoutActions {
            place(page.layer, at: width)
            try? container.addSublayer(page.layer)
        }
        pages.append(page)
        Transaction.begin()
        Transaction.animationDuration = Theme.pageTransition
        place(page.layer, at: 0)
        place(below.layer, at: -width / 3)
        below.layer.opacity = 0.5
        Transaction.commit()
    }

    func pop() {
        guard pages.count > 1, let leaving = pages.popLast(), let below = pages.last else { return }
        below.willReappear()
        Transaction.begin()
        Transaction.animationDuration = Theme.pageTransition
        Transaction.setCompletionBlock {
            // Gone for good (unless pushed again meanwhile): its layers and
            // its handlers (which hold the page).
            if !self.pages.contains(where: { $0 === leaving }) {
                leaving.layer.removeFromSuperlayer()
                self.screen.removeHandlers(in: leaving.layer)
            }
        }
        place(leaving.layer, at: width)
        place(below.layer, at: 0)
        below.layer.opacity = 1
        Transaction.commit()
    }

    private func place(_ layer: Layer, at x: Double) {
        layer.position = Point(x: x + layer.bounds.width / 2, y: layer.bounds.height / 2)
    }
}
