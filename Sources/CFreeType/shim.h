// CFreeType: FreeType (faces, glyph outlines, the oracle renderer in tests)
// and HarfBuzz (shaping) for FBRuntime's text. HarfBuzz is reached through
// <harfbuzz/...> so only freetype2's include path is needed (harfbuzz.pc
// would drag in glib's and graphite's).
#ifndef FBR_CFREETYPE_SHIM_H
#define FBR_CFREETYPE_SHIM_H
#include <stdint.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ft.h>

/// Outline in font units, unhinted: what text is drawn from.
static inline int32_t fbr_ft_load_unscaled(void) { return (int32_t)(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP); }
/// Scaled to the face's size, unhinted, no embedded bitmaps (the oracle).
static inline int32_t fbr_ft_load_unhinted(void) { return (int32_t)(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP); }
static inline int fbr_ft_glyph_is_outline(FT_GlyphSlot slot) { return slot->format == FT_GLYPH_FORMAT_OUTLINE; }
static inline int fbr_hb_direction_is_backward(hb_direction_t d) { return HB_DIRECTION_IS_BACKWARD(d); }
#endif
