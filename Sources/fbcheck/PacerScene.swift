import DemoScenes
import FBRuntime
import Raster

/// The vkms pacing test's scene (`--scene pacer`): a rounded square that
/// slides across the screen and back each second, and a bar under it whose
/// width follows — small damage, so a frame renders in about a millisecond
/// even under QEMU's TCG, where the orbit scene takes longer than a 60 Hz
/// period (measured: 19 ms mean at 640x480 on a busy 2-core host, which
/// runs it at 30 Hz). It tests the pacing (one flip per vblank), not the
/// compositor's speed. Repeats forever, so frames come back to back.
final class PacerScene: DemoScene {
    let root = Layer(name: "root")
    private let square = Layer(name: "square")
    private let bar = Layer(name: "bar")
    private let width: Double, height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
        root.bounds = Rect(x: 0, y: 0, width: width, height: height)
        root.position = Point(x: width / 2, y: height / 2)
        root.backgroundColor = Color(rgb: 0x1C2433)
        let side = Swift.max(8, Swift.min(width, height) * 0.1)
        square.bounds = Rect(x: 0, y: 0, width: side, height: side)
        square.position = Point(x: side, y: height * 0.4)
        square.cornerRadius = side * 0.2
        square.backgroundColor = Color(rgb: 0xF2A541)
        bar.bounds = Rect(x: 0, y: 0, width: 1, height: side * 0.25)
        bar.anchorPoint = Point(x: 0, y: 0.5)
        bar.position = Point(x: 0, y: height * 0.6)
        bar.backgroundColor = Color(rgb: 0x2E86AB)
        for layer in [square, bar] { try! root.addSublayer(layer) }
    }

    func startAnimations(at time: MediaTime) {
        let side = square.bounds.width
        var slide = BasicAnimation(key: .position, from: .point(square.position),
                                   to: .point(Point(x: width - side, y: height * 0.4)), duration: 1)
        slide.autoreverses = true
        slide.repeatCount = .infinity
        square.add(slide, forKey: "slide", at: time)
        var grow = BasicAnimation(key: .bounds, from: .rect(bar.bounds),
                                  to: .rect(Rect(x: 0, y: 0, width: width, height: bar.bounds.height)), duration: 1)
        grow.autoreverses = true
        grow.repeatCount = .infinity
        bar.add(grow, forKey: "grow", at: time)
    }

    func turn(at time: MediaTime) {}
}
