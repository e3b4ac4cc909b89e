// CSeat: libseat (seatd or logind) loaded at run time (dlopen
// "libseat.so.1"): nothing links it, so a board without libseat1 runs and
// opens its devices directly. One seat per process, as a compositor has.
//
// Threading: every function may be called from any thread; a mutex keeps
// libseat's calls one at a time (libseat is not thread-safe, and the render
// thread dispatches while the app thread's libinput opens input devices).
// The seat's enable/disable callbacks only queue an event, read with
// fbr_seat_take_event.
#ifndef FBR_SEAT_H
#define FBR_SEAT_H

enum {
    FBR_SEAT_OPENED = 0,
    /// libseat.so.1 is not installed (or lacks a symbol).
    FBR_SEAT_UNAVAILABLE = 1,
    /// libseat could not open a seat (no seat manager reachable, no
    /// session, refused): the reason is in the error buffer.
    FBR_SEAT_REFUSED = 2,
    /// A seat is open already.
    FBR_SEAT_ALREADY_OPEN = 3,
};

enum {
    FBR_SEAT_EVENT_NONE = 0,
    /// The seat is going away (a VT switch): stop using its devices, then
    /// fbr_seat_acknowledge_disable.
    FBR_SEAT_EVENT_DISABLE = 1,
    /// The seat is ours again: devices work again (DRM master given back).
    FBR_SEAT_EVENT_ENABLE = 2,
};

/// Opens the seat with libseat's backend `backend` ("seatd", "logind"; NULL:
/// libseat's own choice, LIBSEAT_BACKEND or its order), and waits up to
/// `timeout_ms` for it to be enabled. On failure, a line in `error`.
int fbr_seat_open(const char *backend, int timeout_ms, char *error, int error_capacity);
/// 1 while a seat is open.
int fbr_seat_is_open(void);
/// 1 while the seat is enabled (ours to use).
int fbr_seat_is_active(void);
/// The seat's name ("seat0") into `name`; the backend's name into `backend`.
void fbr_seat_describe(char *name, int name_capacity, char *backend, int backend_capacity);
/// The descriptor to poll for the seat's messages, or -1.
int fbr_seat_fd(void);
/// Reads the seat's pending messages (waits up to `timeout_ms`, 0: none,
/// -1: forever); queues their events. >= 0, or -errno.
int fbr_seat_dispatch(int timeout_ms);
/// How many times the seat was enabled again since it was opened (read by
/// a second user of the seat's devices, libinput's, that does not take the
/// events).
int fbr_seat_enable_count(void);
/// The oldest queued event (FBR_SEAT_EVENT_*), removed from the queue.
int fbr_seat_take_event(void);
/// Acknowledges a disable event: the seat's devices may now be taken.
int fbr_seat_acknowledge_disable(void);
/// Opens `path` through the seat; the device's id into `device_id`.
/// The descriptor, or -errno.
int fbr_seat_open_device(const char *path, int *device_id);
/// Closes what fbr_seat_open_device opened (the seat's side; the caller
/// closes its descriptor). 0 or -errno.
int fbr_seat_close_device(int device_id);
/// libinput's open_restricted and close_restricted through the seat (the
/// device id kept by descriptor); O_CLOEXEC and O_NONBLOCK as libseat opens.
int fbr_seat_open_restricted(const char *path, int flags, void *user_data);
void fbr_seat_close_restricted(int fd, void *user_data);
/// Asks the seat manager to switch to session `session` (a VT number under
/// seatd). 0 or -errno.
int fbr_seat_switch_session(int session);
/// Closes the seat (its devices should be closed first). Idempotent.
void fbr_seat_close(void);

#endif
