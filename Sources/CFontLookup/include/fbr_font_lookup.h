// CFontLookup: fonts by family name and by character through fontconfig,
// loaded at run time (dlopen "libfontconfig.so.1"): nothing links it, so a
// board without fontconfig runs, and answers FBR_FONT_LOOKUP_UNAVAILABLE.
#ifndef FBR_FONT_LOOKUP_H
#define FBR_FONT_LOOKUP_H
#include <stddef.h>
#include <stdint.h>

enum {
    FBR_FONT_LOOKUP_FOUND = 0,
    /// fontconfig is not installed (or did not start).
    FBR_FONT_LOOKUP_UNAVAILABLE = 1,
    /// No font matches (or the path did not fit `path_capacity`).
    FBR_FONT_LOOKUP_NONE = 2,
};

/// The file of the font fontconfig matches best for `family` (UTF-8) in
/// the style asked (`bold`, `italic`: 0 or 1), into `path`, and the
/// family of that file (fontconfig always matches something: the caller
/// compares `matched_family` with what it asked for).
int fbr_font_lookup_family(const char *family, int bold, int italic,
                           char *path, size_t path_capacity,
                           char *matched_family, size_t family_capacity);

/// The file of a font that has a glyph for `scalar` (a Unicode code
/// point), preferring `family` (may be NULL) and its style.
int fbr_font_lookup_character(uint32_t scalar, const char *family, int bold, int italic,
                              char *path, size_t path_capacity);
#endif
