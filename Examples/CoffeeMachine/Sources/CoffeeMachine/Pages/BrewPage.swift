import AppShell
import CoffeeModel
import FBRuntime
import Raster

/// One drink: its picture with a progress ring around it and a button that
/// brews it. While brewing the ring fills over the drink's brewing time (an
/// implicit animation of the ring's `strokeEnd`; its transaction's
/// completion marks the drink ready), then the button takes the cup and
/// goes back.
final class BrewPage: Page {
    let layer = Layer(name: "brew")
    private let machine: Machine
    private let drink: Drink
    private let ring = ShapeLayer(name: "progress")
    private let caption: TextLayer
    private var button: Button!

    init(drink: Drink, machine: Machine, screen: Screen, images: Images, back: @escaping () -> Void) {
        self.drink = drink
        self.machine = machine
        let w = screen.width, h = screen.height
        layer.bounds = Rect(x: 0, y: 0, width: w, height: h)
        layer.backgroundColor = Theme.background
        try? layer.addSublayer(makeHeader(drink.name, width: w, on: screen, back: back))

        // The picture in a ring, centred in the space between header and button.
        let d = min(w, h - Theme.headerHeight - 110)
        let centre = Point(x: w / 2, y: Theme.headerHeight + 6 + d / 2)
        let track = ShapeLayer(name: "track")
        for shape in [track, ring] {
            shape.bounds = Rect(x: 0, y: 0, width: d, height: d)
            shape.position = centre
            shape.path = Path(ellipseIn: 6, 6, d - 12, d - 12)
            shape.fillColor = nil
            shape.lineWidth = 8
            try? layer.addSublayer(shape)
        }
        track.strokeColor = Theme.surface
        ring.strokeColor = Theme.accent
        ring.lineCap = .round
        ring.strokeEnd = 0
        // The ellipse starts at its right: turn it so the ring fills from the top.
        ring.transform = Transform3D(rotationAngle: -Double.pi / 2, x: 0, y: 0, z: 1)
        let cup = Layer(name: "cup")
        cup.bounds = Rect(x: 0, y: 0, width: d * 0.55, height: d * 0.55)
        cup.position = centre
        cup.contents = images.cup
        cup.contentsGravity = .resizeAspect
        try? layer.addSublayer(cup)

        caption = makeLabel(drink.summary, size: Theme.bodySize, color: Theme.secondaryText,
                            frame: Rect(x: 0, y: h - 100, width: w, height: 24), alignment: .center)
        try? layer.addSublayer(caption)
        button = Button("Brew", frame: Rect(x: (w - 200) / 2, y: h - 64, width: 200, height: 48), on: screen) {
            self.buttonTapped(back: back)
        }
        try? layer.addSublayer(button.layer)
    }

    private func buttonTapped(back: () -> Void) {
        switch machine.state {
        case .idle:
            guard machine.brew(drink) else { return }
            button.title.string = "Brewing…"
            button.isEnabled = false
            caption.string = "Brewing your \(drink.name.lowercased())"
            Transaction.begin()
            Transaction.animationDuration = drink.seconds
            Transaction.animationTimingFunction = .linear
            Transaction.setCompletionBlock { self.brewed() }
            ring.strokeEnd = 1
            Transaction.commit()
        case .ready:
            machine.takeDrink()
            back()
        case .brewing:
            break
        }
    }

    private func brewed() {
        machine.finishBrewing()
        caption.string = "Enjoy your \(drink.name.lowercased())"
        button.title.string = "Take the cup"
        button.isEnabled = true
        button.layer.backgroundColor = Theme.accentDone
        ring.strokeColor = Theme.accentDone
    }
}
