// apptrapprobe (host only, for AppShellTests): an app whose left half's tap
// handler throws and whose right half's traps (an index out of range), so
// the tests can watch what the shell logs for each; it prints every key
// event it gets, and refuses Backspace (a key handler that throws).
import AppShell
import FBRuntime

let app = App(name: "trapprobe")
app.run { screen in
    let left = Layer(name: "left"), right = Layer(name: "right")
    left.frame = Rect(x: 0, y: 0, width: screen.width / 2, height: screen.height)
    right.frame = Rect(x: screen.width / 2, y: 0, width: screen.width / 2, height: screen.height)
    try? screen.root.addSublayer(left)
    try? screen.root.addSublayer(right)
    screen.onTap(left, name: "refuse") { () throws(AppError) in throw AppError("no water") }
    let empty: [Int] = []
    screen.onTap(right, name: "explode") { print("trapprobe: about to trap"); _ = empty[1] }
    screen.onKey { key in print("trapprobe: key \(key.code) \(key.pressed ? "down" : "up")") }
    screen.onKey(name: "backspace") { (key: KeyEvent) throws(AppError) in
        if key.code == 14 && key.pressed { throw AppError("nothing to delete") }
    }
}
