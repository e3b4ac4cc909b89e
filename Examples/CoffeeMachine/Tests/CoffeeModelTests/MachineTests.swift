import CoffeeModel
import XCTest

final class MachineTests: XCTestCase {
    func testBrewingOneDrinkAtATime() {
        let m = Machine()
        let espresso = m.menu[0], latte = m.menu[3]
        XCTAssertTrue(m.brew(espresso))
        XCTAssertEqual(m.state, .brewing(espresso))
        XCTAssertFalse(m.brew(latte), "one drink at a time")
        m.finishBrewing()
        XCTAssertEqual(m.state, .ready(espresso))
        XCTAssertEqual(m.cupsSinceDescale, 1)
        m.takeDrink()
        XCTAssertEqual(m.state, .idle)
        m.finishBrewing()
        XCTAssertEqual(m.cupsSinceDescale, 1, "finishing while idle counts nothing")
    }

    func testHardnessIsClampedAndSetsTheDescaleInterval() {
        let m = Machine()
        m.settings.hardness = 9
        XCTAssertEqual(m.settings.hardness, 4)
        XCTAssertEqual(m.descaleInterval, 80)
        m.settings.hardness = 0
        XCTAssertEqual(m.settings.hardness, 1)
        XCTAssertEqual(m.descaleInterval, 400)
    }

    func testDescalingReminder() {
        let m = Machine()
        m.settings.hardness = 4
        for _ in 0..<80 { m.brew(m.menu[0]); m.finishBrewing(); m.takeDrink() }
        XCTAssertTrue(m.needsDescaling)
        m.descaled()
        XCTAssertFalse(m.needsDescaling)
    }

    func testSummary() {
        XCTAssertEqual(Machine.standardMenu[2].summary, "180 ml · 3 s · milk")
    }
}
