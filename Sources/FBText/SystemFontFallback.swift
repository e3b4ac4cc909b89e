import FBPlatform
import CFontLookup

/// The fonts fontconfig finds for characters a font lacks (`Font`'s
/// system fallback), shared by every font of the process.
///
/// A character is looked up once per style (bold, italic): the answer,
/// a font or none, is kept, and each font file is loaded once, so text
/// laid out again asks nothing of fontconfig and allocates nothing. The
/// family of the font that lacks the character is preferred (fontconfig
/// then takes any family that has it). Without fontconfig nothing is
/// found.
///
/// Threading: any thread (one lock; a lookup holds it while fontconfig
/// answers and the font file loads, the first time only).
public final class SystemFontFallback: @unchecked Sendable {
    /// The process's one instance.
    public static let shared = SystemFontFallback()

    private let lock = Lock()
    /// Fonts loaded so far, with their files.
    private var fonts: [Font] = []
    /// Character and style (`scalar << 2 | bold << 1 | italic`) to an
    /// index in `fonts`, or -1 when nothing has it.
    private var answers: [UInt64: Int] = [:]

    init() {}

    /// How many font files were loaded for fallback so far.
    public var loadedFontCount: Int { lock.withLock { fonts.count } }

    /// A font other than `font` that has `scalar`, in `font`'s style where
    /// one exists, or nil.
    public func font(for scalar: UInt32, like font: Font) -> Font? {
        let key = UInt64(scalar) << 2 | (font.isBold ? 2 : 0) | (font.isItalic ? 1 : 0)
        return lock.withLock {
            if let index = answers[key] { return index < 0 ? nil : fonts[index] }
            let index = lookUp(scalar, like: font)
            answers[key] = index
            return index < 0 ? nil : fonts[index]
        }
    }

    /// Asks fontconfig; the caller holds `lock`.
    private func lookUp(_ scalar: UInt32, like font: Font) -> Int {
        var path = [CChar](repeating: 0, count: 4096)
        let status = font.familyName.withCString { family in
            fbr_font_lookup_character(scalar, family, font.isBold ? 1 : 0, font.isItalic ? 1 : 0, &path, path.count)
        }
        guard Int(status) == Int(FBR_FONT_LOOKUP_FOUND) else { return -1 }
        let file = path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard file != font.path else { return -1 }
        for (i, f) in fonts.enumerated() where f.path == file { return f.covers(scalar) ? i : -1 }
        guard let loaded = try? Font(path: file), loaded.covers(scalar) else { return -1 }
        // A fallback's own missing characters are not looked up again.
        loaded.usesSystemFallback = false
        fonts.append(loaded)
        return fonts.count - 1
    }
}
