// settingsprobe (host only, for AppShellTests' power-loss test): writes
// the settings file PATH over and over, alternating two complete states
// (every value "a…" or every value "b…", 60 settings of 1 KiB each), until
// it is killed. The test kills it at random moments and reads the file.
import AppShell
import CPosix
import FBRuntime

let arguments = System.arguments()
guard arguments.count == 2 else {
    fbr_write_stderr("usage: settingsprobe PATH\n")
    exit(2)
}
do {
    let store = try SettingsStore(path: arguments[1])
    var round = 0
    while true {
        let letter = round % 2 == 0 ? "a" : "b"
        let value = String(repeating: letter, count: 1024)
        var k = 0
        // One file write per set: the state on disk goes through every
        // mix of the two on its way from one to the other.
        while k < 60 {
            try store.set(value, forKey: "key\(k)")
            k += 1
        }
        round += 1
    }
} catch {
    fbr_write_stderr("settingsprobe: \(error)\n")
    exit(1)
}
