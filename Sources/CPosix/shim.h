// CPosix: the POSIX surface FBRuntime uses, in a form Swift can import in
// both hosted and Embedded mode. Embedded Swift has no Glibc module, and
// variadic functions (open, ioctl), function-like macros and errno do not
// import, so each is wrapped in a static inline function here.
#ifndef FBR_CPOSIX_SHIM_H
#define FBR_CPOSIX_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <math.h>
#include <spawn.h>
#include <sys/wait.h>
#include <linux/vt.h>
#include <linux/fb.h>
#include <linux/kd.h>

static inline int fbr_errno(void) { return errno; }
static inline void fbr_set_errno(int value) { errno = value; }

static inline int fbr_open(const char *path, int flags) { return open(path, flags | O_CLOEXEC, 0); }
static inline int fbr_open_mode(const char *path, int flags, unsigned mode) { return open(path, flags | O_CLOEXEC, (mode_t)mode); }
static inline int fbr_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

static inline void *fbr_mmap_shared(int fd, size_t length, int64_t offset) {
    void *p = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
    return p == MAP_FAILED ? NULL : p;
}
/// Anonymous private mapping; NULL on failure (never MAP_FAILED).
static inline void *fbr_mmap_anonymous(size_t length, int readable_writable) {
    void *p = mmap(NULL, length, readable_writable ? (PROT_READ | PROT_WRITE) : PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
static inline int fbr_mprotect_none(void *address, size_t length) { return mprotect(address, length, PROT_NONE); }
static inline long fbr_page_size(void) { return sysconf(_SC_PAGESIZE); }
static inline long fbr_online_processors(void) { return sysconf(_SC_NPROCESSORS_ONLN); }

/// Monotonic clock in nanoseconds.
static inline int64_t fbr_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + (int64_t)ts.tv_nsec;
}
static inline void fbr_sleep_ns(int64_t ns) {
    struct timespec ts = { (time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL) };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/// libm's exp and log (Embedded Swift has no Glibc module to import them).
static inline double fbr_exp(double x) { return exp(x); }
static inline double fbr_log(double x) { return log(x); }

/// Line-buffer stdout so output to a pipe appears as it is printed.
static inline void fbr_line_buffer_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

// The Swift runtime's bridge-object reference counting (a String's or an
// Array's storage word), called directly by rastercheck's check that the
// retains return their argument (board-runtime/bridge_object_retain.c).
void *swift_bridgeObjectRetain(void *object);
void *swift_bridgeObjectRetain_n(void *object, uint32_t n);
void swift_bridgeObjectRelease(void *object);
static inline void *fbr_bridge_object_retain(void *object) { return swift_bridgeObjectRetain(object); }
static inline void *fbr_bridge_object_retain_n(void *object, uint32_t n) { return swift_bridgeObjectRetain_n(object, n); }
static inline void fbr_bridge_object_release(void *object) { swift_bridgeObjectRelease(object); }
static inline void fbr_write_stderr(const char *text) { fputs(text, stderr); }
static inline void fbr_flush_stdout(void) { fflush(stdout); }

static inline int fbr_poll1(int fd, short events, int timeout_ms, short *revents) {
    struct pollfd p = { fd, events, 0 };
    int r = poll(&p, 1, timeout_ms);
    *revents = p.revents;
    return r;
}

// Threads. Embedded Swift has no Mutex type; these wrap pthreads with the
// storage allocated here so Swift only holds an opaque pointer.
typedef void *(*fbr_thread_main)(void *);
static inline int fbr_thread_start(pthread_t *out, fbr_thread_main body, void *context) {
    return pthread_create(out, NULL, body, context);
}
static inline int fbr_thread_join(pthread_t thread) { return pthread_join(thread, NULL); }

static inline pthread_mutex_t *fbr_mutex_create(void) {
    pthread_mutex_t *m = (pthread_mutex_t *)malloc(sizeof(pthread_mutex_t));
    if (m) pthread_mutex_init(m, NULL);
    return m;
}
/// A mutex the owning thread may lock again (PTHREAD_MUTEX_RECURSIVE), for
/// CATransaction-style lock()/unlock().
static inline pthread_mutex_t *fbr_mutex_create_recursive(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_t *m = (pthread_mutex_t *)malloc(sizeof(pthread_mutex_t));
    if (m) pthread_mutex_init(m, &attr);
    pthread_mutexattr_destroy(&attr);
    return m;
}
static inline void fbr_mutex_destroy(pthread_mutex_t *m) { pthread_mutex_destroy(m); free(m); }
static inline void fbr_mutex_lock(pthread_mutex_t *m) { pthread_mutex_lock(m); }
static inline void fbr_mutex_unlock(pthread_mutex_t *m) { pthread_mutex_unlock(m); }

static inline pthread_cond_t *fbr_cond_create(void) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_t *c = (pthread_cond_t *)malloc(sizeof(pthread_cond_t));
    if (c) pthread_cond_init(c, &attr);
    pthread_condattr_destroy(&attr);
    return c;
}
static inline void fbr_cond_destroy(pthread_cond_t *c) { pthread_cond_destroy(c); free(c); }
static inline void fbr_cond_signal(pthread_cond_t *c) { pthread_cond_signal(c); }
static inline void fbr_cond_broadcast(pthread_cond_t *c) { pthread_cond_broadcast(c); }
/// Waits until signalled or until the monotonic deadline (ns); returns 0 or ETIMEDOUT.
static inline int fbr_cond_wait_until(pthread_cond_t *c, pthread_mutex_t *m, int64_t deadline_ns) {
    struct timespec ts = { (time_t)(deadline_ns / 1000000000LL), (long)(deadline_ns % 1000000000LL) };
    return pthread_cond_timedwait(c, m, &ts);
}

// Virtual terminals (VTSwitcher): VT_PROCESS mode, so a VT switch asks
// the program (a signal) before it happens, and the program acknowledges.
static inline unsigned long fbr_vt_getstate(void) { return VT_GETSTATE; }
static inline unsigned long fbr_vt_setmode(void) { return VT_SETMODE; }
static inline unsigned long fbr_vt_reldisp(void) { return VT_RELDISP; }
static inline int fbr_vt_ackacq(void) { return VT_ACKACQ; }
static inline int fbr_vt_active_number(int fd) {
    struct vt_stat st;
    if (ioctl(fd, VT_GETSTATE, &st) != 0) return -1;
    return st.v_active;
}
/// VT_SETMODE: VT_PROCESS with the given release and acquire signals, or
/// VT_AUTO when `process` is 0.
static inline int fbr_vt_set_process_mode(int fd, int process, int release_signal, int acquire_signal) {
    struct vt_mode mode;
    memset(&mode, 0, sizeof mode);
    mode.mode = process ? VT_PROCESS : VT_AUTO;
    mode.relsig = (short)(process ? release_signal : 0);
    mode.acqsig = (short)(process ? acquire_signal : 0);
    return ioctl(fd, VT_SETMODE, &mode);
}
static inline int fbr_vt_release_display(int fd, int value) { return ioctl(fd, VT_RELDISP, (unsigned long)value); }
static inline int fbr_vt_activate(int fd, int number) { return ioctl(fd, VT_ACTIVATE, (unsigned long)number); }
static inline int fbr_sigusr1(void) { return SIGUSR1; }
static inline int fbr_sigusr2(void) { return SIGUSR2; }

/// posix_spawn of `path` with `argv` (NULL-terminated), the environment
/// inherited; returns the child's pid or -errno.
static inline int fbr_spawn(const char *path, char *const argv[]) {
    extern char **environ;
    pid_t pid;
    int r = posix_spawn(&pid, path, NULL, NULL, argv, environ);
    return r == 0 ? (int)pid : -r;
}
/// waitpid; returns the exit status (0…255), 128+signal, or -errno;
/// with `nohang`, -EAGAIN while the child still runs.
static inline int fbr_wait_child(int pid, int nohang) {
    int status = 0;
    pid_t r;
    do { r = waitpid((pid_t)pid, &status, nohang ? WNOHANG : 0); } while (r < 0 && errno == EINTR);
    if (r < 0) return -errno;
    if (r == 0) return -EAGAIN;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -EINVAL;
}
// fbdev (linux/fb.h): the ioctl numbers, some of which are function-like
// macros Swift cannot import. The structs import as they are.
static inline unsigned long fbr_fbioget_vscreeninfo(void) { return FBIOGET_VSCREENINFO; }
static inline unsigned long fbr_fbioput_vscreeninfo(void) { return FBIOPUT_VSCREENINFO; }
static inline unsigned long fbr_fbioget_fscreeninfo(void) { return FBIOGET_FSCREENINFO; }
static inline unsigned long fbr_fbiopan_display(void) { return FBIOPAN_DISPLAY; }
static inline unsigned long fbr_fbio_waitforvsync(void) { return FBIO_WAITFORVSYNC; }
// FBIOBLANK takes the blank level as the argument's value, not a pointer.
static inline int fbr_fb_blank(int fd, int powerdown) {
    return ioctl(fd, FBIOBLANK, (unsigned long)(powerdown ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK));
}
/// KDSETMODE and its modes (linux/kd.h): KD_GRAPHICS stops the console
/// drawing (text, cursor blink) over a framebuffer an fbdev program shows.
static inline unsigned long fbr_kdsetmode(void) { return KDSETMODE; }
static inline unsigned long fbr_kdgetmode(void) { return KDGETMODE; }
static inline unsigned long fbr_kd_graphics(void) { return KD_GRAPHICS; }
static inline unsigned long fbr_kd_text(void) { return KD_TEXT; }

// Kernel uevents (NETLINK_KOBJECT_UEVENT, multicast group 1), the hotplug
// events udevd itself reads: no udevd needed, and an unprivileged process
// may receive them. A non-blocking, close-on-exec socket, or -errno.
#include <sys/socket.h>
#include <linux/netlink.h>
static inline int fbr_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -errno;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) { int e = errno; close(fd); return -e; }
    return fd;
}
/// One datagram, without blocking: its length, or -errno (-EAGAIN: none).
static inline long fbr_recv_nonblocking(int fd, void *buffer, size_t length) {
    long n = recv(fd, buffer, length, MSG_DONTWAIT);
    return n < 0 ? -errno : n;
}

// The alphabetically first entry of a directory whose name does not start
// with '.' (sysfs class directories list devices: /sys/class/backlight).
// Copies it to `out` (NUL-terminated, at most `size` bytes with the NUL):
// 0, or -ENOENT when there is none, or -errno.
#include <dirent.h>
static inline int fbr_first_directory_entry(const char *path, char *out, size_t size) {
    DIR *dir = opendir(path);
    if (!dir) return -errno;
    int found = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.' || strlen(entry->d_name) >= size) continue;
        if (!found || strcmp(entry->d_name, out) < 0) { strcpy(out, entry->d_name); found = 1; }
    }
    closedir(dir);
    return found ? 0 : -ENOENT;
}

#endif
