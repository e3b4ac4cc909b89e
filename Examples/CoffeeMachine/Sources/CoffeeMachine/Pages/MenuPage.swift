import AppShell
import CoffeeModel
import FBRuntime

/// The first page: the drinks as a list (a tap on a row opens its brew
/// page), a settings button, and a status line.
final class MenuPage: Page {
    let layer = Layer(name: "menu")
    private let status: TextLayer
    private let machine: Machine

    init(machine: Machine, screen: Screen, images: Images, open: @escaping (Drink) -> Void, openSettings: @escaping () -> Void) {
        self.machine = machine
        let w = screen.width, h = screen.height
        layer.bounds = Rect(x: 0, y: 0, width: w, height: h)
        layer.backgroundColor = Theme.background
        try? layer.addSublayer(makeHeader("Coffee", width: w, on: screen, back: nil))
        let settings = makeLabel("Settings", size: Theme.bodySize, color: Theme.accent,
                                 frame: Rect(x: w - 96, y: 8, width: 88, height: 40), alignment: .right)
        settings.name = "settings"
        try? layer.addSublayer(settings)
        screen.onTap(settings, name: "settings") { openSettings() }

        for (i, drink) in machine.menu.enumerated() {
            let row = makeRow(title: drink.name, detail: drink.summary, icon: images.cup,
                              frame: Rect(x: 0, y: Theme.headerHeight + Double(i) * Theme.rowHeight, width: w, height: Theme.rowHeight))
            try? layer.addSublayer(row)
            screen.onTap(row, name: "drink \(drink.name)") { open(drink) }
        }
        status = makeLabel("", size: Theme.detailSize, color: Theme.secondaryText,
                           frame: Rect(x: Theme.margin, y: h - 24, width: w - 2 * Theme.margin, height: 18))
        try? layer.addSublayer(status)
        willReappear()
    }

    func willReappear() {
        let s = machine.settings
        status.string = machine.needsDescaling ? "Please descale the machine"
            : "Eco \(s.ecoMode ? "on" : "off") · water hardness \(s.hardness) · "
              + "\(machine.cupsSinceDescale) cup\(machine.cupsSinceDescale == 1 ? "" : "s") since descaling"
    }
}
