import AppShell
import CSDL2
import DemoScenes
import FBRuntime
import Input

/// The simulator's app thread (SDL's thread): it turns SDL's events into
/// the runtime's input — the left mouse button as one touch
/// (`InputEvent.pointerSlot`, panel pixels, the same path through
/// `SceneTouch` as fbdemo's libinput pointer), keys as `InputEvent.key` —
/// routes them inside `RenderLoop.update`, and shows each frame the render
/// thread committed.
final class SimApp {
    let window: SimWindow
    let presenter: SimWindowPresenter
    let loop: RenderLoop
    let touch: SceneTouch
    let frameReady: UInt32
    let panelWidth: Int, panelHeight: Int
    /// Frames shown in the window so far (uploads and presents).
    private(set) var windowFrames = 0
    private(set) var keyCount = 0
    /// Mouse-button releases routed (the end of each drag).
    private(set) var releases = 0
    private(set) var quitRequested = false
    private var buttonDown = false
    private var pending: [InputEvent] = []

    init(window: SimWindow, presenter: SimWindowPresenter, loop: RenderLoop, touch: SceneTouch, frameReady: UInt32,
         panelWidth: Int, panelHeight: Int) {
        self.window = window
        self.presenter = presenter
        self.loop = loop
        self.touch = touch
        self.frameReady = frameReady
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
    }

    /// Waits up to `timeoutMilliseconds` for events (less if a gesture
    /// recogniser has a deadline), handles all that came, routes the input
    /// and shows the newest frame.
    func pumpOnce(timeoutMilliseconds: Int32) {
        var timeout = timeoutMilliseconds
        if let deadline = touch.nextDeadline {
            timeout = Int32(min(Double(timeout), max(0, (deadline - MonotonicClock().now) * 1000)))
        }
        if let end = AppRunLoop.current.nextEventTime {
            timeout = Int32(min(Double(timeout), max(0, (end - MonotonicClock().now) * 1000 + 1)))
        }
        var event = SDL_Event()
        var showFrame = false
        var expose = false
        if SDL_WaitEventTimeout(&event, timeout) != 0 {
            repeat {
                switch handle(event) {
                case .frame: showFrame = true
                case .expose: expose = true
                case .none: break
                }
            } while SDL_PollEvent(&event) != 0
        }
        if !pending.isEmpty || touch.nextDeadline != nil || AppRunLoop.current.hasPendingWork {
            // In a turn of the app's run loop: the gestures' changes are
            // committed and finished transactions' completion handlers run.
            loop.update { _ in
                AppRunLoop.current.runTurn {
                    for e in pending { touch.handle(e) }
                    touch.advance(to: MonotonicClock().now)
                }
            }
            pending.removeAll(keepingCapacity: true)
        }
        if showFrame && presenter.upload({ pixels, stride, r in
            var rect = SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
            _ = SDL_UpdateTexture(window.texture, &rect, UnsafeRawPointer(pixels + r.y * stride + r.x), Int32(stride * 4))
        }) {
            window.present()
            windowFrames += 1
        } else if expose {
            window.present()
        }
    }

    /// Pumps until `predicate` holds or the timeout passes; returns the
    /// predicate's last value.
    func pump(until predicate: (SimApp) -> Bool, timeoutNanoseconds: Int64) -> Bool {
        let deadline = System.monotonicNanoseconds() + timeoutNanoseconds
        while !predicate(self) {
            if quitRequested || System.monotonicNanoseconds() >= deadline { return predicate(self) }
            pumpOnce(timeoutMilliseconds: 20)
        }
        return true
    }

    private enum Outcome { case none, frame, expose }

    /// Mouse positions in panel pixels, kept inside the panel (SDL reports
    /// positions outside the window while a button is held).
    private func panelPoint(_ x: Int32, _ y: Int32) -> (Double, Double) {
        (Double(min(max(Int(x), 0), panelWidth - 1)), Double(min(max(Int(y), 0), panelHeight - 1)))
    }

    private func handle(_ event: SDL_Event) -> Outcome {
        let time = nowMicroseconds()
        switch event.type {
        case frameReady:
            return .frame
        case SDL_QUIT.rawValue:
            quitRequested = true
            loop.stop()
        case SDL_WINDOWEVENT.rawValue:
            let kind = UInt32(event.window.event)
            if kind == SDL_WINDOWEVENT_EXPOSED.rawValue || kind == SDL_WINDOWEVENT_SIZE_CHANGED.rawValue { return .expose }
        case SDL_MOUSEBUTTONDOWN.rawValue where UInt32(event.button.button) == fbr_sdl_button_left() && !buttonDown:
            buttonDown = true
            let (x, y) = panelPoint(event.button.x, event.button.y)
            pending.append(.touchDown(slot: InputEvent.pointerSlot, x: x, y: y, timeMicroseconds: time))
            pending.append(.touchFrame(timeMicroseconds: time))
        case SDL_MOUSEMOTION.rawValue:
            let (x, y) = panelPoint(event.motion.x, event.motion.y)
            pending.append(.pointerMoved(x: x, y: y, timeMicroseconds: time))
            if buttonDown {
                pending.append(.touchMotion(slot: InputEvent.pointerSlot, x: x, y: y, timeMicroseconds: time))
                pending.append(.touchFrame(timeMicroseconds: time))
            }
        case SDL_MOUSEBUTTONUP.rawValue where UInt32(event.button.button) == fbr_sdl_button_left() && buttonDown:
            buttonDown = false
            releases += 1
            pending.append(.touchUp(slot: InputEvent.pointerSlot, timeMicroseconds: time))
            pending.append(.touchFrame(timeMicroseconds: time))
        case SDL_KEYDOWN.rawValue, SDL_KEYUP.rawValue:
            let pressed = event.type == SDL_KEYDOWN.rawValue
            guard event.key.repeat == 0, let code = KeyCodes.linuxCode(event.key.keysym.scancode) else { break }
            keyCount += 1
            let key = InputEvent.key(code: code, pressed: pressed, timeMicroseconds: time)
            pending.append(key)
            print("fbsim: key \(code) \(pressed ? "pressed" : "released")")
            if code == 1 && pressed {   // KEY_ESC ends the simulator
                quitRequested = true
                loop.stop()
            }
        default:
            break
        }
        return .none
    }
}
