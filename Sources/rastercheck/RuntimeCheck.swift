import CPosix

/// Whether the runtime's bridge-object retains return their argument, as
/// the compiler assumes (it may store the return value in place of the
/// argument). The Embedded runtime of this toolchain returns the object
/// with its tag bits masked instead, which corrupted a stored `String` on
/// the board; every board program links board-runtime/bridge_object_retain.c,
/// which returns the argument, in its place. Checked with the storage
/// words of a small string (tagged, no reference), a native string and an
/// array (references, retained and released again): the line printed is
/// the same on the host and on aarch64 only when they all come back as
/// they went in.
func bridgeObjectRetainsReturnTheirArgument() -> Bool {
    let small = "en_US.UTF-8"
    var native = "a string too long to be small: "
    for digit in 0..<10 { native += String(digit) }
    let array = [1, 2, 3, Int(native.utf8.count)]
    var words = [storageWord(of: small), storageWord(of: native)]
    words.append(withUnsafeBytes(of: array) { $0.load(as: UInt.self) })
    var allReturned = true
    for word in words {
        guard let object = UnsafeMutableRawPointer(bitPattern: word) else { continue }
        if fbr_bridge_object_retain(object) != object { allReturned = false }
        if fbr_bridge_object_retain_n(object, 2) != object { allReturned = false }
        for _ in 0..<3 { fbr_bridge_object_release(object) }
    }
    // Still intact after the retains and releases.
    return allReturned && small == "en_US.UTF-8" && native.hasSuffix("0123456789") && array.last == native.utf8.count
}

/// A string's second word: its discriminator and storage object.
private func storageWord(of string: String) -> UInt {
    withUnsafeBytes(of: string) { $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) }
}
