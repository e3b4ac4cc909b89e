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
// Row-by-row reading (for decoding straight into a downsampler without
// holding the whole image). libpng reports errors by longjmp; as in CJPEG,
// the whole read lives in this one C function with its setjmp, and the row
// callback into Swift is made between libpng calls.
#include <setjmp.h>
#include <stdio.h>

enum { FBR_PNG_OK = 0, FBR_PNG_ERROR = 1, FBR_PNG_TOO_LARGE = 2, FBR_PNG_CANCELLED = 3, FBR_PNG_INTERLACED = 4 };

typedef struct {
    int32_t status;
    uint32_t width, height;
    int32_t has_alpha;          // colour type with alpha, or a tRNS chunk
    int32_t interlaced;
    char message[256];
} fbr_png_rows_result;

/// Called once per row with `width` straight-alpha BGRA pixels (as a
/// little-endian UInt32: 0xAARRGGBB). Return non-zero to stop.
typedef int (*fbr_png_row_fn)(void *context, uint32_t y, uint32_t *row, uint32_t width);

typedef struct {
    const uint8_t *data;
    size_t size, offset;
    fbr_png_rows_result *result;
} fbr_png_reader;

static void fbr_png_read_mem(png_structp png, png_bytep out, size_t count) {
    fbr_png_reader *r = (fbr_png_reader *)png_get_io_ptr(png);
    if (count > r->size - r->offset) png_error(png, "unexpected end of data (truncated file)");
    memcpy(out, r->data + r->offset, count);
    r->offset += count;
}

static void fbr_png_error_fn(png_structp png, png_const_charp message) {
    fbr_png_reader *r = (fbr_png_reader *)png_get_error_ptr(png);
    snprintf(r->result->message, sizeof r->result->message, "%s", message);
    r->result->status = FBR_PNG_ERROR;
    png_longjmp(png, 1);
}

static void fbr_png_warning_fn(png_structp png, png_const_charp message) { (void)png; (void)message; }

/// Reads the PNG in `data[0..<size]` row by row as straight BGRA8888.
/// `header_only` stops after the header. The declared size must be within
/// `max_dimension` and `max_pixels`, checked before any row is allocated.
/// Interlaced files cannot be streamed (their rows complete only in the
/// last pass): they return FBR_PNG_INTERLACED after the header, and the
/// caller decodes them whole.
static inline int fbr_png_decode_rows(const uint8_t *data, size_t size, int header_only, uint32_t max_dimension,
                                      uint64_t max_pixels, fbr_png_row_fn row_fn, void *context,
                                      fbr_png_rows_result *result) {
    memset(result, 0, sizeof *result);
    fbr_png_reader reader = { data, size, 0, result };
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        strcpy(result->message, "not a PNG file (bad signature)");
        return result->status = FBR_PNG_ERROR;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, fbr_png_error_fn, fbr_png_warning_fn);
    if (!png) { strcpy(result->message, "out of memory"); return result->status = FBR_PNG_ERROR; }
    png_infop info = png_create_info_struct(png);
    // volatile: read after a longjmp back here.
    png_bytep volatile row = NULL;
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); strcpy(result->message, "out of memory"); return result->status = FBR_PNG_ERROR; }
    if (setjmp(png_jmpbuf(png))) {
        if (row) png_free(png, row);
        png_destroy_read_struct(&png, &info, NULL);
        if (result->status == FBR_PNG_OK) result->status = FBR_PNG_ERROR;
        return result->status;
    }
    png_set_read_fn(png, &reader, fbr_png_read_mem);
    // libpng's own caps, so it refuses giant headers too.
    png_set_user_limits(png, max_dimension, max_dimension);
    png_read_info(png, info);
    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(png, info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    result->width = w;
    result->height = h;
    result->interlaced = interlace != PNG_INTERLACE_NONE;
    result->has_alpha = (color & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    if (w == 0 || h == 0 || w > max_dimension || h > max_dimension || (uint64_t)w * h > max_pixels) {
        snprintf(result->message, sizeof result->message, "%ux%u is over the decode limits", (unsigned)w, (unsigned)h);
        png_destroy_read_struct(&png, &info, NULL);
        return result->status = FBR_PNG_TOO_LARGE;
    }
    if (header_only || result->interlaced) {
        png_destroy_read_struct(&png, &info, NULL);
        return result->status = header_only ? FBR_PNG_OK : FBR_PNG_INTERLACED;
    }
    png_set_expand(png);                       // palette → RGB, low-bit grey → 8 bits, tRNS → alpha
    png_set_scale_16(png);                     // 16 → 8 bits, rounded
    png_set_gray_to_rgb(png);
    png_set_bgr(png);
    if (!result->has_alpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        strcpy(result->message, "unexpected row size after transforms");
        png_destroy_read_struct(&png, &info, NULL);
        return result->status = FBR_PNG_ERROR;
    }
    row = (png_bytep)png_malloc(png, (size_t)w * 4);
    for (png_uint_32 y = 0; y < h; y++) {
        png_read_row(png, row, NULL);
        if (row_fn && row_fn(context, y, (uint32_t *)(void *)row, w)) {
            png_free(png, row);
            png_destroy_read_struct(&png, &info, NULL);
            strcpy(result->message, "cancelled");
            return result->status = FBR_PNG_CANCELLED;
        }
    }
    png_free(png, row);
    row = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    return result->status = FBR_PNG_OK;
}
#endif
