// libseat through dlopen, with the few declarations it needs written here
// (libseat.h's ABI, unchanged since 0.5): the board's sysroot has no
// libseat headers, and a board image may have no libseat at all.
#include "fbr_seat.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct libseat;
struct libseat_seat_listener {
    void (*enable_seat)(struct libseat *seat, void *userdata);
    void (*disable_seat)(struct libseat *seat, void *userdata);
};
enum libseat_log_level { LIBSEAT_LOG_LEVEL_SILENT = 0, LIBSEAT_LOG_LEVEL_ERROR = 1, LIBSEAT_LOG_LEVEL_INFO = 2 };
typedef void (*libseat_log_func)(enum libseat_log_level level, const char *format, va_list args);

static struct libseat *(*p_libseat_open_seat)(const struct libseat_seat_listener *, void *);
static int (*p_libseat_disable_seat)(struct libseat *);
static int (*p_libseat_close_seat)(struct libseat *);
static int (*p_libseat_open_device)(struct libseat *, const char *, int *);
static int (*p_libseat_close_device)(struct libseat *, int);
static const char *(*p_libseat_seat_name)(struct libseat *);
static int (*p_libseat_get_fd)(struct libseat *);
static int (*p_libseat_dispatch)(struct libseat *, int);
static int (*p_libseat_switch_session)(struct libseat *, int);
static void (*p_libseat_set_log_handler)(libseat_log_func);
static void (*p_libseat_set_log_level)(enum libseat_log_level);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int available;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct libseat *seat;
static int active;
static int enable_count;
static char backend_name[16];
// The last error line libseat logged (why a backend could not open a seat).
static char last_log[200];
// Enable/disable events in arrival order (a VT switch away and back
// between two looks gives both, in that order).
enum { QUEUE = 8 };
static int queue[QUEUE], queue_head, queue_count;
// Devices opened for libinput: descriptor -> libseat's device id.
enum { DEVICES = 64 };
static struct { int fd, id; } devices[DEVICES];
static int device_count;

static void load(void) {
    void *library = dlopen("libseat.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FBR_SEAT_SYM(name) \
    p_##name = (__typeof__(p_##name))dlsym(library, #name); \
    if (!p_##name) return;
    FBR_SEAT_SYM(libseat_open_seat) FBR_SEAT_SYM(libseat_disable_seat) FBR_SEAT_SYM(libseat_close_seat)
    FBR_SEAT_SYM(libseat_open_device) FBR_SEAT_SYM(libseat_close_device) FBR_SEAT_SYM(libseat_seat_name)
    FBR_SEAT_SYM(libseat_get_fd) FBR_SEAT_SYM(libseat_dispatch) FBR_SEAT_SYM(libseat_switch_session)
    FBR_SEAT_SYM(libseat_set_log_handler)
    FBR_SEAT_SYM(libseat_set_log_level)
#undef FBR_SEAT_SYM
    available = 1;
}

static void log_handler(enum libseat_log_level level, const char *format, va_list args) {
    if (level != LIBSEAT_LOG_LEVEL_ERROR) return;
    vsnprintf(last_log, sizeof last_log, format, args);
}

static void push(int event) {
    if (queue_count == QUEUE) { queue_head = (queue_head + 1) % QUEUE; queue_count--; }
    queue[(queue_head + queue_count) % QUEUE] = event;
    queue_count++;
}
static void enable_seat(struct libseat *s, void *userdata) {
    (void)s; (void)userdata;
    active = 1;
    enable_count++;
    push(FBR_SEAT_EVENT_ENABLE);
}
static void disable_seat(struct libseat *s, void *userdata) {
    (void)s; (void)userdata;
    active = 0;
    push(FBR_SEAT_EVENT_DISABLE);
}
// Filled in at run time, not by a static initialiser: the board build
// compiles C without -fPIC, and a constant table of function addresses
// would need relocations its link refuses.
static struct libseat_seat_listener listener;

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int fbr_seat_open(const char *backend, int timeout_ms, char *error, int error_capacity) {
    pthread_once(&once, load);
    if (!available) {
        snprintf(error, (size_t)error_capacity, "libseat.so.1 is not installed");
        return FBR_SEAT_UNAVAILABLE;
    }
    pthread_mutex_lock(&lock);
    if (seat) {
        pthread_mutex_unlock(&lock);
        snprintf(error, (size_t)error_capacity, "a seat is open already");
        return FBR_SEAT_ALREADY_OPEN;
    }
    last_log[0] = 0;
    p_libseat_set_log_handler(log_handler);
    p_libseat_set_log_level(LIBSEAT_LOG_LEVEL_ERROR);
    // libseat picks its backend from LIBSEAT_BACKEND only; set it for the
    // call (at start-up, before the program's other threads read the
    // environment) and put back what was there.
    char *saved = NULL;
    if (backend) {
        const char *old = getenv("LIBSEAT_BACKEND");
        saved = old ? strdup(old) : NULL;
        setenv("LIBSEAT_BACKEND", backend, 1);
    }
    queue_count = 0;
    active = 0;
    listener.enable_seat = enable_seat;
    listener.disable_seat = disable_seat;
    seat = p_libseat_open_seat(&listener, NULL);
    if (backend) {
        if (saved) { setenv("LIBSEAT_BACKEND", saved, 1); free(saved); } else unsetenv("LIBSEAT_BACKEND");
    }
    if (!seat) {
        snprintf(error, (size_t)error_capacity, "%s", last_log[0] ? last_log : "no backend could open a seat");
        pthread_mutex_unlock(&lock);
        return FBR_SEAT_REFUSED;
    }
    snprintf(backend_name, sizeof backend_name, "%s", backend ? backend : "libseat's choice");
    // The seat is usable once enabled (seatd answers at once when the VT
    // is ours; logind's comes with the session's activation).
    long long deadline = now_ms() + timeout_ms;
    while (!active) {
        long long left = deadline - now_ms();
        if (left <= 0 || p_libseat_dispatch(seat, (int)left) < 0) break;
    }
    if (!active) {
        p_libseat_close_seat(seat);
        seat = NULL;
        snprintf(error, (size_t)error_capacity, "the seat was not enabled within %d ms (another session is active?)", timeout_ms);
        pthread_mutex_unlock(&lock);
        return FBR_SEAT_REFUSED;
    }
    // The opening's enable is not news to the caller.
    queue_count = 0;
    enable_count = 0;
    pthread_mutex_unlock(&lock);
    return FBR_SEAT_OPENED;
}

int fbr_seat_is_open(void) {
    pthread_mutex_lock(&lock);
    int open = seat != NULL;
    pthread_mutex_unlock(&lock);
    return open;
}

int fbr_seat_is_active(void) {
    pthread_mutex_lock(&lock);
    int a = seat != NULL && active;
    pthread_mutex_unlock(&lock);
    return a;
}

void fbr_seat_describe(char *name, int name_capacity, char *backend, int backend_capacity) {
    pthread_mutex_lock(&lock);
    const char *n = seat ? p_libseat_seat_name(seat) : NULL;
    snprintf(name, (size_t)name_capacity, "%s", n ? n : "");
    snprintf(backend, (size_t)backend_capacity, "%s", seat ? backend_name : "");
    pthread_mutex_unlock(&lock);
}

int fbr_seat_fd(void) {
    pthread_mutex_lock(&lock);
    int fd = seat ? p_libseat_get_fd(seat) : -1;
    pthread_mutex_unlock(&lock);
    return fd;
}

int fbr_seat_dispatch(int timeout_ms) {
    pthread_mutex_lock(&lock);
    int r = -EBADF;
    if (seat) {
        r = p_libseat_dispatch(seat, timeout_ms);
        if (r < 0) r = -errno;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

int fbr_seat_enable_count(void) {
    pthread_mutex_lock(&lock);
    int n = enable_count;
    pthread_mutex_unlock(&lock);
    return n;
}

int fbr_seat_take_event(void) {
    pthread_mutex_lock(&lock);
    int event = FBR_SEAT_EVENT_NONE;
    if (queue_count > 0) {
        event = queue[queue_head];
        queue_head = (queue_head + 1) % QUEUE;
        queue_count--;
    }
    pthread_mutex_unlock(&lock);
    return event;
}

int fbr_seat_acknowledge_disable(void) {
    pthread_mutex_lock(&lock);
    int r = -EBADF;
    if (seat) {
        r = p_libseat_disable_seat(seat);
        if (r < 0) r = -errno;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

int fbr_seat_open_device(const char *path, int *device_id) {
    pthread_mutex_lock(&lock);
    int r = -EBADF;
    if (seat) {
        int fd = -1;
        int id = p_libseat_open_device(seat, path, &fd);
        if (id < 0) r = errno ? -errno : -EACCES;
        else { *device_id = id; r = fd; }
    }
    pthread_mutex_unlock(&lock);
    return r;
}

int fbr_seat_close_device(int device_id) {
    pthread_mutex_lock(&lock);
    int r = -EBADF;
    if (seat) {
        r = p_libseat_close_device(seat, device_id);
        if (r < 0) r = -errno;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

int fbr_seat_open_restricted(const char *path, int flags, void *user_data) {
    (void)flags; (void)user_data;   // libseat opens read-write, O_CLOEXEC | O_NONBLOCK
    int id = -1;
    int fd = fbr_seat_open_device(path, &id);
    if (fd < 0) return fd;
    pthread_mutex_lock(&lock);
    if (device_count == DEVICES) {
        pthread_mutex_unlock(&lock);
        fbr_seat_close_device(id);
        close(fd);
        return -EMFILE;
    }
    devices[device_count].fd = fd;
    devices[device_count].id = id;
    device_count++;
    pthread_mutex_unlock(&lock);
    return fd;
}

void fbr_seat_close_restricted(int fd, void *user_data) {
    (void)user_data;
    int id = -1;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < device_count; i++) {
        if (devices[i].fd == fd) {
            id = devices[i].id;
            devices[i] = devices[--device_count];
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    if (id >= 0) fbr_seat_close_device(id);
    close(fd);
}

int fbr_seat_switch_session(int session) {
    pthread_mutex_lock(&lock);
    int r = -EBADF;
    if (seat) {
        r = p_libseat_switch_session(seat, session);
        if (r < 0) r = -errno;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

void fbr_seat_close(void) {
    pthread_mutex_lock(&lock);
    if (seat) {
        p_libseat_close_seat(seat);
        seat = NULL;
        active = 0;
        queue_count = 0;
        device_count = 0;
    }
    pthread_mutex_unlock(&lock);
}
