import FBPlatform
import CFontLookup
import CFreeType
import Raster
import Synchronization

/// Why a font could not be loaded.
public struct FontError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable {
        /// No file at the path (or it cannot be opened).
        case cannotOpen
        /// The file is not a font FreeType knows, or is damaged.
        case notAFont
        /// FreeType itself could not be started.
        case library
        /// No installed font has the family asked for (`path` holds the
        /// family name).
        case noSuchFamily
        /// Fonts cannot be looked up by name: fontconfig is not installed
        /// (`libfontconfig.so.1`); load them by path.
        case lookupUnavailable
    }
    public let kind: Kind
    /// The font file, or the family name for `.noSuchFamily` and
    /// `.lookupUnavailable`.
    public let path: String
    /// FreeType's error code.
    public let code: Int32

    public var description: String {
        switch kind {
        case .cannotOpen: return "font \(path): cannot open the file (FreeType error \(code))"
        case .notAFont: return "font \(path): not a font file or a damaged one (FreeType error \(code))"
        case .library: return "font \(path): FreeType did not start (error \(code))"
        case .noSuchFamily: return "font family \"\(path)\": no installed font has it (fc-list lists them)"
        case .lookupUnavailable:
            return "font family \"\(path)\": fontconfig (libfontconfig.so.1) is not installed; load the font by its file path"
        }
    }
}

/// Unique ids for fonts, so a glyph cache shared between fonts never mixes
/// them up (an address could be reused after a font is freed).
private let nextFontID = Atomic<Int>(1)

/// A font face loaded from a file (TrueType, OpenType, anything FreeType
/// reads; the first face of a collection).
///
/// Metrics are in **font units** (`unitsPerEm` of them to the em, y up);
/// at a size of `s` points one unit is `s / unitsPerEm` points. Text is
/// shaped by HarfBuzz with the font's own OpenType tables at the em scale
/// (no hinting), so positions scale linearly with the size and shaping
/// does not depend on it. Glyph outlines come from FreeType unhinted and
/// unscaled and are kept in `glyphCache`.
///
/// **Missing characters.** A character the font has no glyph for is drawn
/// from the first of `fallbacks` that has it, else (with
/// `usesSystemFallback`, the default) from a font fontconfig finds for it
/// (`SystemFontFallback`), else as the font's missing-glyph box. Text
/// layout splits its shaping pieces where the font changes, so a fallback
/// piece is shaped by HarfBuzz with the font it is drawn with.
///
/// Threading: a `Font` may be used from any thread. FreeType faces and
/// HarfBuzz buffers are not thread-safe, so every use of them (character
/// map, advances, outlines, shaping) holds the font's lock: the render
/// thread draws text with the fonts the model layers share while the app
/// side renders with them too (a transition's before image, a
/// `TextLayer.layout` measurement). The lock is held only for one lookup
/// or one shaping call.
public final class Font {
    /// The file the font was loaded from.
    public let path: String
    /// Font units per em (2048 for DejaVu Sans).
    public let unitsPerEm: Int
    /// Above the baseline, font units (positive).
    public let ascender: Int
    /// Below the baseline, font units (negative or zero).
    public let descender: Int
    /// Baseline to baseline, font units (ascender − descender + line gap).
    public let lineHeight: Int
    /// The family name the file gives ("DejaVu Sans"), empty when none.
    public let familyName: String
    /// Where this font's outlines are cached (may be shared with other fonts).
    public let glyphCache: GlyphCache
    /// Distinguishes this font in a shared glyph cache.
    package let id: Int

    private var library: FT_Library?
    let face: FT_Face
    /// HarfBuzz's font over the same face, at the em scale.
    let hbFont: OpaquePointer
    /// Reused by every shaping call.
    let hbBuffer: OpaquePointer
    /// Guards `face`, `hbFont` and `hbBuffer` (see Threading above).
    let lock = Lock()
    /// The face's style (FreeType's style flags), asked of fallbacks.
    public let isBold: Bool
    public let isItalic: Bool
    /// Guards `fallbackList` and `systemFallback`.
    private let fallbackLock = Lock()
    private var fallbackList: [Font] = []
    private var systemFallback = true

    /// Fonts tried in order for characters this font lacks (a CJK or an
    /// Indic font for a Latin one, say), before the system's. Empty by
    /// default. Any thread.
    public var fallbacks: [Font] {
        get { fallbackLock.withLock { fallbackList } }
        set { fallbackLock.withLock { fallbackList = newValue } }
    }

    /// Whether a character that neither this font nor `fallbacks` has is
    /// looked up through fontconfig (true by default; without fontconfig,
    /// nothing is found and the missing-glyph box is drawn). Any thread.
    public var usesSystemFallback: Bool {
        get { fallbackLock.withLock { systemFallback } }
        set { fallbackLock.withLock { systemFallback = newValue } }
    }

    /// Loads the first face of the font file at `path`.
    ///
    /// - Throws: `FontError` naming the path: `.cannotOpen` for a missing
    ///   or unreadable file, `.notAFont` for anything FreeType cannot
    ///   read as a scalable font.
    public init(path: String, glyphCache: GlyphCache = GlyphCache()) throws(FontError) {
        self.path = path
        self.glyphCache = glyphCache
        var lib: FT_Library?
        let e0 = FT_Init_FreeType(&lib)
        guard e0 == 0, let lib else { throw FontError(kind: .library, path: path, code: e0) }
        var f: FT_Face?
        let e1 = path.withCString { FT_New_Face(lib, $0, 0, &f) }
        guard e1 == 0, let f else {
            FT_Done_FreeType(lib)
            // 0x01 cannot_open_resource; the rest is about the contents.
            throw FontError(kind: e1 == 1 ? .cannotOpen : .notAFont, path: path, code: e1)
        }
        // Bitmap-only faces have no outlines to draw from.
        guard f.pointee.units_per_EM > 0, f.pointee.num_glyphs > 0,
              (f.pointee.face_flags & Int(FT_FACE_FLAG_SCALABLE)) != 0 else {
            FT_Done_Face(f); FT_Done_FreeType(lib)
            throw FontError(kind: .notAFont, path: path, code: 0)
        }
        library = lib
        face = f
        let hbFace = hb_ft_face_create_referenced(f)
        hbFont = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
        hbBuffer = hb_buffer_create()
        unitsPerEm = Int(f.pointee.units_per_EM)
        ascender = Int(f.pointee.ascender)
        descender = Swift.min(0, Int(f.pointee.descender))
        lineHeight = Swift.max(Int(f.pointee.height), ascender - descender)
        if let name = f.pointee.family_name { familyName = String(cString: name) } else { familyName = "" }
        isBold = (f.pointee.style_flags & Int(FT_STYLE_FLAG_BOLD)) != 0
        isItalic = (f.pointee.style_flags & Int(FT_STYLE_FLAG_ITALIC)) != 0
        id = nextFontID.add(1, ordering: .relaxed).oldValue
    }

    /// Loads the installed font fontconfig matches for `family` ("DejaVu
    /// Sans", "Noto Sans CJK JP") in the style asked, as `fc-match` would.
    ///
    /// - Throws: `.noSuchFamily` when the best match is another family
    ///   (fontconfig always matches something; the family is compared
    ///   without regard to ASCII case), `.lookupUnavailable` without
    ///   fontconfig, or the errors of `init(path:)`.
    public convenience init(family: String, bold: Bool = false, italic: Bool = false,
                            glyphCache: GlyphCache = GlyphCache()) throws(FontError) {
        var path = [CChar](repeating: 0, count: 4096)
        var matched = [CChar](repeating: 0, count: 512)
        let status = family.withCString { name in
            fbr_font_lookup_family(name, bold ? 1 : 0, italic ? 1 : 0, &path, path.count, &matched, matched.count)
        }
        switch Int(status) {
        case Int(FBR_FONT_LOOKUP_FOUND): break
        case Int(FBR_FONT_LOOKUP_UNAVAILABLE): throw FontError(kind: .lookupUnavailable, path: family, code: 0)
        default: throw FontError(kind: .noSuchFamily, path: family, code: 0)
        }
        let matchedFamily = matched.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard Font.sameFamily(matchedFamily, family) else { throw FontError(kind: .noSuchFamily, path: family, code: 0) }
        try self.init(path: path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, glyphCache: glyphCache)
    }

    /// Family names compared as fontconfig does, without regard to ASCII
    /// case or spaces.
    static func sameFamily(_ a: String, _ b: String) -> Bool {
        func folded(_ s: String) -> [UInt8] {
            var out: [UInt8] = []
            for c in s.utf8 where c != 0x20 { out.append(c >= 0x41 && c <= 0x5A ? c + 0x20 : c) }
            return out
        }
        return folded(a) == folded(b)
    }

    deinit {
        hb_buffer_destroy(hbBuffer)
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
        if let library { FT_Done_FreeType(library) }
    }

    /// The glyph for `scalar` in the font's character map, or 0 (`.notdef`,
    /// drawn as the font's missing-glyph box) when the font lacks it.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32 {
        var g: hb_codepoint_t = 0
        return lock.withLock { hb_font_get_nominal_glyph(hbFont, scalar.value, &g) != 0 ? g : 0 }
    }

    /// True when the font's character map has `scalar`.
    func covers(_ scalar: UInt32) -> Bool {
        var g: hb_codepoint_t = 0
        return lock.withLock { hb_font_get_nominal_glyph(hbFont, scalar, &g) != 0 }
    }

    /// The font a character this font lacks is drawn from: the first of
    /// `fallbacks` that has it, else the system's (`usesSystemFallback`),
    /// else nil.
    func fallback(for scalar: UInt32) -> Font? {
        let (list, system) = fallbackLock.withLock { (fallbackList, systemFallback) }
        for f in list where f.covers(scalar) { return f }
        return system ? SystemFontFallback.shared.font(for: scalar, like: self) : nil
    }

    /// The horizontal advance of `glyph`, font units.
    public func advance(of glyph: UInt32) -> Int {
        lock.withLock { Int(hb_font_get_glyph_h_advance(hbFont, glyph)) }
    }

    /// The outline of `glyph` in font units, y up, origin on the baseline
    /// at the pen position; empty for glyphs without one (the space) and
    /// for ids the font does not have. Through `glyphCache`.
    public func outline(of glyph: UInt32) -> Path {
        glyphCache.outline(fontID: id, glyph: glyph) { lock.withLock { loadOutline(glyph) } }
    }

    /// Reads `glyph`'s outline from FreeType (`FT_Outline_Decompose`).
    /// The caller holds `lock`.
    func loadOutline(_ glyph: UInt32) -> Path {
        guard glyph < UInt32(face.pointee.num_glyphs),
              FT_Load_Glyph(face, glyph, fbr_ft_load_unscaled()) == 0,
              let slot = face.pointee.glyph, fbr_ft_glyph_is_outline(slot) != 0 else { return Path() }
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                guard let to, let user else { return 1 }
                let path = user.assumingMemoryBound(to: Path.self)
                path.pointee.close()
                path.pointee.move(to: PathPoint(Double(to.pointee.x), Double(to.pointee.y)))
                return 0
            },
            line_to: { to, user in
                guard let to, let user else { return 1 }
                user.assumingMemoryBound(to: Path.self).pointee.line(to: PathPoint(Double(to.pointee.x), Double(to.pointee.y)))
                return 0
            },
            conic_to: { c, to, user in
                guard let c, let to, let user else { return 1 }
                user.assumingMemoryBound(to: Path.self).pointee.quad(
                    to: PathPoint(Double(to.pointee.x), Double(to.pointee.y)),
                    control: PathPoint(Double(c.pointee.x), Double(c.pointee.y)))
                return 0
            },
            cubic_to: { c1, c2, to, user in
                guard let c1, let c2, let to, let user else { return 1 }
                user.assumingMemoryBound(to: Path.self).pointee.cubic(
                    to: PathPoint(Double(to.pointee.x), Double(to.pointee.y)),
                    control1: PathPoint(Double(c1.pointee.x), Double(c1.pointee.y)),
                    control2: PathPoint(Double(c2.pointee.x), Double(c2.pointee.y)))
                return 0
            },
            shift: 0, delta: 0)
        var path = Path()
        let error = withUnsafeMutablePointer(to: &path) { p in
            FT_Outline_Decompose(&slot.pointee.outline, &funcs, UnsafeMutableRawPointer(p))
        }
        guard error == 0 else { return Path() }
        path.close()
        return path
    }
}
