import Controls
@testable import DemoScenes
import FBRuntime
import Raster
import XCTest

/// The frames a board shows are damage-only redraws into a kept buffer;
/// each must equal a full frame of the same instant, bit for bit, however
/// the frames fall in time. Checked on the settings demo through fbdemo's
/// board key sequence (`scripts/test`'s fbdemo run: Tab, Enter on the
/// Wi-Fi switch, a wheel detent, Right on the brightness slider), at
/// uneven frame intervals, as a loaded board draws them.
final class DamageReplayTests: XCTestCase {
    func testDamageRedrawsEqualFullFramesThroughTheBoardKeys() throws {
        let width = 640, height = 480
        let d = SceneDriver { SettingsScene(width: Double(width), height: Double(height)) }
        defer { d.finish() }
        let scene = d.scene
        let kept = Surface<ARGB8888>(width: width, height: height)!
        let full = Surface<ARGB8888>(width: width, height: height)!
        let compositor = Compositor()
        var state: UInt64 = 17
        func interval() -> Double {   // a linear congruential generator: the same frames every run
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return 0.5 + Double(state >> 11) / Double(1 << 53)
        }
        var frame = 0
        func frames(_ count: Int) {
            for _ in 0..<count {
                // Between half a vsync and 1.5 of them.
                d.clock.advance(by: interval() / 60)
                d.loop.runTurn { scene.focus?.updateRing(at: d.clock.now) }
                scene.root.layoutIfNeeded()
                compositor.render(scene.root, at: d.clock.now, into: kept.view, clearColor: .black)
                Compositor().render(scene.root, at: d.clock.now, into: full.view, clearColor: .black)
                var differing = 0, first = ""
                for y in 0..<height {
                    for x in 0..<width where kept.view[x, y] != full.view[x, y] {
                        if differing == 0 {
                            first = "(\(x), \(y)): \(String(kept.view[x, y], radix: 16)) kept, \(String(full.view[x, y], radix: 16)) full"
                        }
                        differing += 1
                    }
                }
                XCTAssertEqual(differing, 0, "frame \(frame), damage \(compositor.damage): first at \(first)")
                frame += 1
            }
        }
        frames(4)
        for key in [ControlKey.tab, .enter] {
            d.loop.runTurn { _ = scene.focus?.handle(key) }
            frames(26)
        }
        d.loop.runTurn { scene.focus?.rotate(by: 1) }
        frames(20)
        d.loop.runTurn { _ = scene.focus?.handle(.right) }
        frames(26)
    }
}
