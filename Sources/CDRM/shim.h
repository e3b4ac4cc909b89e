// CDRM: libdrm and the DRM ioctls FBRuntime's KMS backend uses. Macros that
// expand to ioctl numbers do not import into Swift; they are re-exported as
// functions here.
#ifndef FBR_CDRM_SHIM_H
#define FBR_CDRM_SHIM_H
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

static inline unsigned long fbr_drm_ioctl_mode_create_dumb(void) { return DRM_IOCTL_MODE_CREATE_DUMB; }
static inline unsigned long fbr_drm_ioctl_mode_map_dumb(void) { return DRM_IOCTL_MODE_MAP_DUMB; }
static inline unsigned long fbr_drm_ioctl_mode_destroy_dumb(void) { return DRM_IOCTL_MODE_DESTROY_DUMB; }
static inline uint32_t fbr_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
static inline uint32_t fbr_drm_format_rgb565(void) { return DRM_FORMAT_RGB565; }
static inline uint32_t fbr_drm_format_argb8888(void) { return DRM_FORMAT_ARGB8888; }
#endif
