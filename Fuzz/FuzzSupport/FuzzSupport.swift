// What both libFuzzer programs (fuzz-raster, fuzz-runtime) share: reading
// typed values from the fuzzer's bytes, and the entry point that hands
// control to libFuzzer's driver (or, in a build without libFuzzer, runs
// input files once).
import CPosix

/// Reads typed values from the fuzzer's bytes; past the end it yields zeros.
public struct ByteReader {
    public let data: UnsafePointer<UInt8>
    public let size: Int
    public var offset = 0

    public init(data: UnsafePointer<UInt8>, size: Int) {
        self.data = data
        self.size = size
    }

    public mutating func byte() -> UInt8 {
        guard offset < size else { return 0 }
        defer { offset += 1 }
        return data[offset]
    }

    public mutating func u64() -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(byte()) << (8 * UInt64(i)) }
        return v
    }

    /// A coordinate: mostly ordinary values in a screen-sized range, and
    /// otherwise a raw bit pattern (any Double, NaN and infinities included)
    /// or a huge magnitude.
    public mutating func coordinate() -> Double {
        switch byte() % 8 {
        case 0: return Double(bitPattern: u64())
        case 1: return Double(Int16(truncatingIfNeeded: u64())) * 1e5
        default: return Double(Int16(truncatingIfNeeded: u64())) / 64
        }
    }

    /// A number: mostly ordinary values in a screen-sized range, otherwise
    /// a raw bit pattern (any Double, NaN and infinities included), a huge
    /// magnitude or one of the special values.
    public mutating func number() -> Double {
        switch byte() % 16 {
        case 0: return Double(bitPattern: u64())
        case 1: return Double(Int16(truncatingIfNeeded: u64())) * 1e5
        case 2:
            let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude,
                                      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-300, 1e300]
            return specials[Int(byte()) % specials.count]
        default: return Double(Int16(truncatingIfNeeded: UInt16(byte()) | UInt16(byte()) << 8)) / 64
        }
    }

    /// A small fraction-like number (timing control points, key times,
    /// progress), sometimes anything.
    public mutating func unitish() -> Double {
        switch byte() % 8 {
        case 0: return number()
        default: return Double(Int8(bitPattern: byte())) / 64
        }
    }

    public var exhausted: Bool { offset >= size }
}

/// One fuzz input: the bytes and their count (libFuzzer's
/// LLVMFuzzerTestOneInput).
public typealias FuzzInput = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

#if FBR_FUZZ
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: FuzzInput) -> CInt

/// The program's main (SwiftPM renames an executable's entry point to
/// `<module>_main`): libFuzzer's driver, calling `oneInput` per input.
/// Only scripts/fuzz builds with libFuzzer (and defines FBR_FUZZ).
public func fuzzerMain(_ program: String, _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                       _ oneInput: FuzzInput) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector, oneInput)
}
#else
/// The program's main in an ordinary build (no libFuzzer): runs each input
/// file named on the command line once through `oneInput` (FBR_FUZZ_TARGET
/// chooses the target), to reproduce a crash under a debugger.
public func fuzzerMain(_ program: String, _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                       _ oneInput: FuzzInput) -> CInt {
    guard argc > 1, let argv else {
        fbr_write_stderr("\(program): build and run it with scripts/fuzz (it needs -sanitize=fuzzer), or name input files to run once\n")
        return 2
    }
    for i in 1..<Int(argc) {
        guard let name = argv[i], let file = fopen(name, "rb") else { return 2 }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        fclose(file)
        bytes.withUnsafeBufferPointer { b in
            let base = b.baseAddress ?? UnsafePointer(bitPattern: 1)!
            _ = oneInput(base, b.count)
        }
        fbr_write_stderr("\(program): ran \(String(cString: name))\n")
    }
    return 0
}
#endif
