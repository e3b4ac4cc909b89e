// The coffee machine's panel: a menu of drinks, a brew page per drink, a
// settings page. The app shell opens the display and routes touch; the
// pages change layers, and Core Animation-style implicit animations do the
// rest. See docs/app-guide.md for how this is put together.
import AppShell
import CoffeeModel
import FBRuntime

let app = App(name: "coffee")
app.run { screen in
    let machine = Machine()
    let images = Images()
    let navigator = Navigator(screen: screen)
    screen.root.backgroundColor = Theme.background

    func openSettings() {
        navigator.push(SettingsPage(machine: machine, screen: screen) { navigator.pop() })
    }
    func open(_ drink: Drink) {
        // One brew page at a time: a second tap during the slide does nothing.
        guard navigator.pages.count == 1 else { return }
        navigator.push(BrewPage(drink: drink, machine: machine, screen: screen, images: images) { navigator.pop() })
    }
    navigator.setRoot(MenuPage(machine: machine, screen: screen, images: images, open: open, openSettings: openSettings))
}
