/// A drink the machine makes.
public struct Drink: Equatable, Sendable {
    public let name: String
    /// Millilitres in the cup.
    public let millilitres: Int
    /// How long brewing takes, seconds.
    public let seconds: Double
    /// Whether milk is frothed (uses the steam wand).
    public let milk: Bool

    public init(name: String, millilitres: Int, seconds: Double, milk: Bool) {
        self.name = name
        self.millilitres = millilitres
        self.seconds = seconds
        self.milk = milk
    }

    /// "30 ml · 2 s", the line under the name in the menu.
    public var summary: String {
        "\(millilitres) ml · \(Int(seconds.rounded())) s" + (milk ? " · milk" : "")
    }
}

/// The machine's settings, as the settings page shows them.
public struct Settings: Equatable, Sendable {
    /// Lower boiler temperature between drinks.
    public var ecoMode = true
    /// The light over the cup.
    public var cupLight = false
    /// Water hardness, 1 (soft) … 4 (very hard): how often to descale.
    public var hardness = 2 {
        didSet { hardness = min(max(hardness, Settings.hardnessRange.lowerBound), Settings.hardnessRange.upperBound) }
    }
    public static let hardnessRange = 1...4

    public init() {}
}

/// The coffee machine's state: what it is doing, its settings and its
/// counters. No UI and no clock: the panel tells it when things happen,
/// so every rule here is tested without a display.
public final class Machine {
    public enum State: Equatable, Sendable {
        case idle
        case brewing(Drink)
        /// A drink is ready to take.
        case ready(Drink)
    }

    public let menu: [Drink]
    public private(set) var state = State.idle
    public var settings = Settings()
    /// Drinks made since the last descaling.
    public private(set) var cupsSinceDescale = 0

    public init(menu: [Drink] = Machine.standardMenu) { self.menu = menu }

    public static let standardMenu = [
        Drink(name: "Espresso", millilitres: 30, seconds: 2, milk: false),
        Drink(name: "Lungo", millilitres: 90, seconds: 3, milk: false),
        Drink(name: "Cappuccino", millilitres: 180, seconds: 3, milk: true),
        Drink(name: "Latte", millilitres: 240, seconds: 4, milk: true),
        Drink(name: "Hot water", millilitres: 200, seconds: 2, milk: false),
    ]

    /// Starts `drink`; false (nothing changes) unless the machine is idle
    /// or a ready drink was taken.
    @discardableResult
    public func brew(_ drink: Drink) -> Bool {
        if case .brewing = state { return false }
        state = .brewing(drink)
        return true
    }

    /// The brew ends: the drink is ready and counted.
    public func finishBrewing() {
        guard case .brewing(let drink) = state else { return }
        state = .ready(drink)
        cupsSinceDescale += 1
    }

    /// The cup was taken.
    public func takeDrink() {
        if case .ready = state { state = .idle }
    }

    /// Cups between descalings: fewer the harder the water.
    public var descaleInterval: Int { [0, 400, 250, 150, 80][settings.hardness] }

    /// Whether the panel should ask for descaling.
    public var needsDescaling: Bool { cupsSinceDescale >= descaleInterval }

    public func descaled() { cupsSinceDescale = 0 }
}
