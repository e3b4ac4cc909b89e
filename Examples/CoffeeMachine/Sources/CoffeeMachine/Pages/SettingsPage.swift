import AppShell
import CoffeeModel
import FBRuntime

/// The machine's settings: two switches, the water hardness with − and +,
/// and the descaling counter with a button that resets it.
final class SettingsPage: Page {
    let layer = Layer(name: "settings")
    private let machine: Machine
    private let hardness: TextLayer
    private let cups: TextLayer

    init(machine: Machine, screen: Screen, back: @escaping () -> Void) {
        self.machine = machine
        let w = screen.width
        hardness = makeLabel("", size: Theme.bodySize, frame: Rect(x: w - 86 - Theme.margin, y: 12, width: 40, height: 24), alignment: .center)
        cups = makeLabel("", size: Theme.bodySize, color: Theme.secondaryText,
                         frame: Rect(x: w - 230 - Theme.margin, y: 12, width: 110, height: 24), alignment: .right)
        let layer = self.layer
        layer.bounds = Rect(x: 0, y: 0, width: w, height: screen.height)
        layer.backgroundColor = Theme.background
        try? layer.addSublayer(makeHeader("Settings", width: w, on: screen, back: back))

        func row(_ i: Int, _ title: String) -> Layer {
            let r = makeRow(title: title, detail: nil, icon: nil,
                            frame: Rect(x: 0, y: Theme.headerHeight + Double(i) * Theme.rowHeight, width: w, height: Theme.rowHeight),
                            chevron: false)
            try? layer.addSublayer(r)
            return r
        }
        let controlX = w - 52 - Theme.margin
        let eco = Toggle(isOn: machine.settings.ecoMode, origin: Point(x: controlX, y: 9), on: screen) { on in
            machine.settings.ecoMode = on
        }
        try? row(0, "Eco mode").addSublayer(eco.layer)
        let light = Toggle(isOn: machine.settings.cupLight, origin: Point(x: controlX, y: 9), on: screen) { on in
            machine.settings.cupLight = on
        }
        try? row(1, "Cup light").addSublayer(light.layer)

        let hardnessRow = row(2, "Water hardness")
        try? hardnessRow.addSublayer(hardness)
        for (text, x, step) in [("−", w - 118 - Theme.margin, -1), ("+", w - 40 - Theme.margin, 1)] {
            let b = Button(text, frame: Rect(x: x, y: 8, width: 40, height: 32), color: Theme.surfacePressed, on: screen) {
                self.machine.settings.hardness += step
                self.refresh()
            }
            try? hardnessRow.addSublayer(b.layer)
        }

        let descaleRow = row(3, "Since descaling")
        try? descaleRow.addSublayer(cups)
        let reset = Button("Descaled", frame: Rect(x: w - 110 - Theme.margin, y: 8, width: 110, height: 32), color: Theme.surfacePressed,
                           on: screen) {
            self.machine.descaled()
            self.refresh()
        }
        try? descaleRow.addSublayer(reset.layer)
        refresh()
    }

    private func refresh() {
        hardness.string = "\(machine.settings.hardness)"
        cups.string = "\(machine.cupsSinceDescale) of \(machine.descaleInterval)"
    }
}
