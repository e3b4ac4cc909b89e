import AppShell
import FBRuntime

let app = App(name: "hello")
app.run { screen in
    let button = Layer()
    button.bounds = Rect(x: 0, y: 0, width: 220, height: 80)
    button.position = Point(x: screen.width / 2, y: screen.height / 2)
    button.cornerRadius = 16
    button.backgroundColor = Color(red: 0.15, green: 0.45, blue: 0.9)
    let label = TextLayer()
    label.string = "Tap me"
    label.fontSize = 28
    label.alignmentMode = .center
    label.frame = Rect(x: 0, y: 22, width: 220, height: 40)
    try? button.addSublayer(label)
    try? screen.root.addSublayer(button)

    var taps = 0
    screen.onTap(button) {
        taps += 1
        label.string = "Tapped \(taps)×"
        button.backgroundColor = taps % 2 == 0 ? Color(red: 0.15, green: 0.45, blue: 0.9)
                                               : Color(red: 0.95, green: 0.5, blue: 0.1)   // animates
    }
}
