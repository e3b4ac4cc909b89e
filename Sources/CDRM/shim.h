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
// Atomic modesetting: the ioctl is issued directly (AtomicKMSCommitter
// keeps its object and property arrays in fixed storage; libdrm's
// drmModeAtomicCommit allocates on every call).
static inline unsigned long fbr_drm_ioctl_mode_atomic(void) { return DRM_IOCTL_MODE_ATOMIC; }
static inline uint32_t fbr_drm_mode_atomic_test_only(void) { return DRM_MODE_ATOMIC_TEST_ONLY; }
static inline uint32_t fbr_drm_mode_atomic_nonblock(void) { return DRM_MODE_ATOMIC_NONBLOCK; }
static inline uint32_t fbr_drm_mode_atomic_allow_modeset(void) { return DRM_MODE_ATOMIC_ALLOW_MODESET; }
static inline uint32_t fbr_drm_mode_page_flip_event(void) { return DRM_MODE_PAGE_FLIP_EVENT; }
static inline uint32_t fbr_drm_mode_object_crtc(void) { return DRM_MODE_OBJECT_CRTC; }
static inline uint32_t fbr_drm_mode_object_connector(void) { return DRM_MODE_OBJECT_CONNECTOR; }
static inline uint32_t fbr_drm_mode_object_plane(void) { return DRM_MODE_OBJECT_PLANE; }
static inline uint64_t fbr_drm_plane_type_primary(void) { return DRM_PLANE_TYPE_PRIMARY; }
/// A connector's connection as the kernel last detected it (1 connected,
/// 2 disconnected, 3 unknown), without probing and without allocating:
/// DRM_IOCTL_MODE_GETCONNECTOR with room for one mode (asking for zero
/// modes makes the kernel probe) and no properties or encoders. -1 on
/// failure, with errno set. (No <errno.h> or <string.h> here: this module
/// including them would claim their macros from CPosix in Swift.)
static inline int fbr_drm_connector_connection(int fd, uint32_t connector_id) {
    struct drm_mode_get_connector c;
    struct drm_mode_modeinfo mode;
    __builtin_memset(&c, 0, sizeof c);
    c.connector_id = connector_id;
    c.count_modes = 1;
    c.modes_ptr = (uint64_t)(uintptr_t)&mode;
    if (drmIoctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c) != 0) return -1;
    return (int)c.connection;
}
#endif
