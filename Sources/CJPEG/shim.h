// CJPEG: libjpeg-turbo, with every call that can fail kept in C.
//
// libjpeg reports a fatal error by calling `error_exit`, which must not
// return; the usual answer is longjmp back to a setjmp. A longjmp must never
// cross Swift frames, so each decode below is one C function that owns its
// setjmp, drives libjpeg from start to end and returns an error code and a
// message. The row callback into Swift is made between libjpeg calls, never
// from inside one, so a longjmp only ever unwinds C frames.
#ifndef FBR_CJPEG_SHIM_H
#define FBR_CJPEG_SHIM_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

enum {
    FBR_JPEG_OK = 0,
    FBR_JPEG_ERROR = 1,          // libjpeg refused the data (message says why)
    FBR_JPEG_TOO_LARGE = 2,      // the declared size is over the caller's limits
    FBR_JPEG_CANCELLED = 3,      // the row callback asked to stop
};

/// What a decode found and how it ended. `message` is NUL-terminated.
typedef struct {
    int32_t status;
    uint32_t width, height;          // as declared in the file
    uint32_t output_width, output_height; // after DCT scaling
    int32_t components;              // in the file: 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK
    int32_t color_space;             // J_COLOR_SPACE of the file
    int32_t adobe_inverted;          // CMYK stored inverted (an Adobe APP14 marker)
    char message[JMSG_LENGTH_MAX + 64];
} fbr_jpeg_result;

/// Called once per output row with `width` premultiplied ARGB8888 pixels
/// (opaque). Return non-zero to stop (FBR_JPEG_CANCELLED).
typedef int (*fbr_jpeg_row_fn)(void *context, uint32_t y, const uint32_t *row, uint32_t width);

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf escape;
    fbr_jpeg_result *result;
} fbr_jpeg_error_mgr;

static void fbr_jpeg_error_exit(j_common_ptr cinfo) {
    fbr_jpeg_error_mgr *err = (fbr_jpeg_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->result->message);
    err->result->status = FBR_JPEG_ERROR;
    longjmp(err->escape, 1);
}

/// Warnings (level -1) are corrupt or truncated data that libjpeg would
/// paper over with grey; we make them errors: a damaged file is refused, not
/// shown half-grey. Trace messages (level ≥ 0) are ignored.
static void fbr_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) fbr_jpeg_error_exit(cinfo);
}

static void fbr_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// Decodes the JPEG in `data[0..<size]`.
///
/// - `header_only`: stop after the header (sizes and colour space filled in).
/// - `scale_denom`: 1, 2, 4 or 8: libjpeg's DCT scaling (output size is
///   ceil(size / denom)).
/// - `max_dimension`, `max_pixels`: the declared size must be within both,
///   checked before libjpeg allocates anything for the image.
/// - `max_memory`: libjpeg's own memory cap (progressive files buffer their
///   whole coefficient image).
/// Rows are delivered in order, top to bottom, converted to ARGB8888:
/// grey is spread to R=G=B, CMYK (inverted when an Adobe marker says so, as
/// Adobe writes it) to RGB by r = c·k/255 on the non-inverted values.
static inline int fbr_jpeg_decode(const uint8_t *data, size_t size, int header_only, int scale_denom,
                                  uint32_t max_dimension, uint64_t max_pixels, long max_memory,
                                  fbr_jpeg_row_fn row_fn, void *context, fbr_jpeg_result *result) {
    memset(result, 0, sizeof *result);
    struct jpeg_decompress_struct cinfo;
    fbr_jpeg_error_mgr err;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = fbr_jpeg_error_exit;
    err.pub.emit_message = fbr_jpeg_emit_message;
    err.pub.output_message = fbr_jpeg_output_message;
    err.result = result;
    // volatile: read after a longjmp back here.
    volatile int created = 0;
    if (setjmp(err.escape)) {
        if (created) jpeg_destroy_decompress(&cinfo);
        if (result->status == FBR_JPEG_OK) result->status = FBR_JPEG_ERROR;
        return result->status;
    }
    if (size == 0 || data == NULL) {
        strcpy(result->message, "empty input");
        return result->status = FBR_JPEG_ERROR;
    }
    jpeg_create_decompress(&cinfo);
    created = 1;
    cinfo.mem->max_memory_to_use = max_memory;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    result->width = cinfo.image_width;
    result->height = cinfo.image_height;
    result->components = cinfo.num_components;
    result->color_space = (int32_t)cinfo.jpeg_color_space;
    result->adobe_inverted = cinfo.saw_Adobe_marker;
    // Arithmetic coding (SOF9–SOF15) is refused, as web browsers refuse it:
    // where its data ends early, libjpeg's arithmetic decoder reads zeros
    // for the rest without a warning, so a 340-byte file declaring
    // 4096×53248 was decoded whole (the jpeg fuzzer found these at 0.1 s
    // each; Huffman-coded data that ends early is a warning, hence an error).
    if (cinfo.arith_code) {
        strcpy(result->message, "arithmetic-coded JPEG is not supported");
        jpeg_destroy_decompress(&cinfo);
        return result->status = FBR_JPEG_ERROR;
    }
    if (cinfo.image_width == 0 || cinfo.image_height == 0 || cinfo.image_width > max_dimension ||
        cinfo.image_height > max_dimension ||
        (uint64_t)cinfo.image_width * cinfo.image_height > max_pixels) {
        snprintf(result->message, sizeof result->message, "%ux%u is over the decode limits",
                 (unsigned)cinfo.image_width, (unsigned)cinfo.image_height);
        jpeg_destroy_decompress(&cinfo);
        return result->status = FBR_JPEG_TOO_LARGE;
    }
    int cmyk = 0;
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_YCbCr: case JCS_RGB:
        cinfo.out_color_space = JCS_EXT_BGRA;   // little-endian ARGB8888, alpha 0xFF
        break;
    case JCS_CMYK: case JCS_YCCK:
        cinfo.out_color_space = JCS_CMYK;        // converted below
        cmyk = 1;
        break;
    default:
        snprintf(result->message, sizeof result->message, "unsupported colour space %d (%d components)",
                 (int)cinfo.jpeg_color_space, cinfo.num_components);
        jpeg_destroy_decompress(&cinfo);
        return result->status = FBR_JPEG_ERROR;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned)(scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1);
    jpeg_calc_output_dimensions(&cinfo);
    result->output_width = cinfo.output_width;
    result->output_height = cinfo.output_height;
    if (header_only) {
        jpeg_destroy_decompress(&cinfo);
        return result->status = FBR_JPEG_OK;
    }
    jpeg_start_decompress(&cinfo);
    // Rows from libjpeg's pool: freed by jpeg_destroy_decompress, so a
    // longjmp leaks nothing.
    JSAMPARRAY scan = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE,
                                                 cinfo.output_width * (JDIMENSION)cinfo.output_components, 1);
    JSAMPARRAY argb = cmyk ? (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, cinfo.output_width * 4, 1)
                           : scan;
    const int inverted = cinfo.saw_Adobe_marker;
    while (cinfo.output_scanline < cinfo.output_height) {
        JDIMENSION y = cinfo.output_scanline;
        if (jpeg_read_scanlines(&cinfo, scan, 1) != 1) {
            strcpy(result->message, "libjpeg returned no row");
            jpeg_destroy_decompress(&cinfo);
            return result->status = FBR_JPEG_ERROR;
        }
        if (cmyk) {
            const JSAMPLE *s = scan[0];
            uint32_t *d = (uint32_t *)(void *)argb[0];
            for (JDIMENSION x = 0; x < cinfo.output_width; x++, s += 4) {
                unsigned c = s[0], m = s[1], yy = s[2], k = s[3];
                if (!inverted) { c = 255 - c; m = 255 - m; yy = 255 - yy; k = 255 - k; }
                // Now 255 = no ink. Channel = (255 − ink)·(255 − black)/255, rounded.
                unsigned r = (c * k + 127) / 255, g = (m * k + 127) / 255, b = (yy * k + 127) / 255;
                d[x] = 0xFF000000u | (r << 16) | (g << 8) | b;
            }
        }
        if (row_fn && row_fn(context, y, (const uint32_t *)(const void *)argb[0], cinfo.output_width)) {
            jpeg_destroy_decompress(&cinfo);
            strcpy(result->message, "cancelled");
            return result->status = FBR_JPEG_CANCELLED;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return result->status = FBR_JPEG_OK;
}
#endif
