// CInput: libinput and libudev. libinput asks its caller to open device nodes
// through an interface of two C callbacks; the default one lives here so the
// Swift side needs no @convention(c) closures.
#ifndef FBR_CINPUT_SHIM_H
#define FBR_CINPUT_SHIM_H
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <libudev.h>
#include <libinput.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/uinput.h>

static inline int fbr_input_open_restricted(const char *path, int flags, void *user_data) {
    (void)user_data;
    int fd = open(path, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}
static inline void fbr_input_close_restricted(int fd, void *user_data) {
    (void)user_data;
    close(fd);
}
static const struct libinput_interface fbr_input_interface = {
    .open_restricted = fbr_input_open_restricted,
    .close_restricted = fbr_input_close_restricted,
};
static inline const struct libinput_interface *fbr_input_default_interface(void) { return &fbr_input_interface; }

// uinput: a virtual multitouch touchscreen, for tests (touchprobe in the
// VM). The ioctl numbers are macros with struct sizes in them, so they are
// built here. Each returns 0 or -errno.
static inline int fbr_uinput_set(int fd, unsigned long request, int value) {
    return ioctl(fd, request, value) < 0 ? -errno : 0;
}
/// A direct (screen) multitouch device: ABS_MT_SLOT (0…slots-1),
/// ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y and ABS_X/Y over 0…max_x and
/// 0…max_y with `resolution` units per mm, BTN_TOUCH, INPUT_PROP_DIRECT.
static inline int fbr_uinput_create_touchscreen(int fd, const char *name, int max_x, int max_y,
                                                int resolution, int slots) {
    int r;
    if ((r = fbr_uinput_set(fd, UI_SET_EVBIT, EV_KEY)) || (r = fbr_uinput_set(fd, UI_SET_KEYBIT, BTN_TOUCH)) ||
        (r = fbr_uinput_set(fd, UI_SET_EVBIT, EV_ABS)) || (r = fbr_uinput_set(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)))
        return r;
    struct { int code, minimum, maximum, resolution; } axes[] = {
        { ABS_X, 0, max_x, resolution }, { ABS_Y, 0, max_y, resolution },
        { ABS_MT_SLOT, 0, slots - 1, 0 }, { ABS_MT_TRACKING_ID, 0, 65535, 0 },
        { ABS_MT_POSITION_X, 0, max_x, resolution }, { ABS_MT_POSITION_Y, 0, max_y, resolution },
    };
    for (unsigned i = 0; i < sizeof axes / sizeof axes[0]; i++) {
        if ((r = fbr_uinput_set(fd, UI_SET_ABSBIT, axes[i].code))) return r;
        struct uinput_abs_setup abs;
        memset(&abs, 0, sizeof abs);
        abs.code = (__u16)axes[i].code;
        abs.absinfo.minimum = axes[i].minimum;
        abs.absinfo.maximum = axes[i].maximum;
        abs.absinfo.resolution = axes[i].resolution;
        if (ioctl(fd, UI_ABS_SETUP, &abs) < 0) return -errno;
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1d6b;   // Linux Foundation
    setup.id.product = 0x7007;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -errno;
    if (ioctl(fd, UI_DEV_CREATE) < 0) return -errno;
    return 0;
}
/// A device with just the keys `codes` (appliance buttons: power, volume,
/// enter…).
static inline int fbr_uinput_create_keys(int fd, const char *name, const int *codes, unsigned count) {
    int r;
    if ((r = fbr_uinput_set(fd, UI_SET_EVBIT, EV_KEY))) return r;
    for (unsigned i = 0; i < count; i++) if ((r = fbr_uinput_set(fd, UI_SET_KEYBIT, codes[i]))) return r;
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1d6b;   // Linux Foundation
    setup.id.product = 0x7008;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -errno;
    if (ioctl(fd, UI_DEV_CREATE) < 0) return -errno;
    return 0;
}
/// The device's sysfs name ("input5") into `buffer`.
static inline int fbr_uinput_sysname(int fd, char *buffer, unsigned length) {
    return ioctl(fd, UI_GET_SYSNAME(length), buffer) < 0 ? -errno : 0;
}
static inline int fbr_uinput_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY) < 0 ? -errno : 0; }
/// Writes one input_event (the kernel stamps the time).
static inline int fbr_uinput_emit(int fd, int type, int code, int value) {
    struct input_event e;
    memset(&e, 0, sizeof e);
    e.type = (__u16)type; e.code = (__u16)code; e.value = value;
    return write(fd, &e, sizeof e) == (ssize_t)sizeof e ? 0 : -errno;
}
static const int FBR_EV_SYN = EV_SYN, FBR_EV_KEY = EV_KEY, FBR_EV_ABS = EV_ABS, FBR_SYN_REPORT = SYN_REPORT,
    FBR_BTN_TOUCH = BTN_TOUCH, FBR_ABS_X = ABS_X, FBR_ABS_Y = ABS_Y, FBR_ABS_MT_SLOT = ABS_MT_SLOT,
    FBR_ABS_MT_TRACKING_ID = ABS_MT_TRACKING_ID, FBR_ABS_MT_POSITION_X = ABS_MT_POSITION_X,
    FBR_ABS_MT_POSITION_Y = ABS_MT_POSITION_Y;
#endif
