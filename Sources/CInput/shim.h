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
#endif
