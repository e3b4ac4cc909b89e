// CPNG: libpng's simplified API (png_image), which reads and writes whole
// images without setjmp/longjmp error handling on the Swift side.
#ifndef FBR_CPNG_SHIM_H
#define FBR_CPNG_SHIM_H
#include <stdint.h>
#include <string.h>
#include <png.h>

static inline uint32_t fbr_png_version(void) { return PNG_IMAGE_VERSION; }
/// Premultiplied? No: libpng's BGRA is straight alpha; callers convert.
static inline uint32_t fbr_png_format_bgra(void) { return PNG_FORMAT_BGRA; }
static inline int fbr_png_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image); }
#endif
