// See include/MallocCounter.h. glibc exports its allocator under __libc_*
// names precisely so that a program can interpose malloc and forward.
#define _GNU_SOURCE
#include "MallocCounter.h"

#include <errno.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t counted;
// initial-exec: reading the flags never allocates (a general-dynamic TLS
// access may call malloc the first time, which would recurse).
static __thread int counting __attribute__((tls_model("initial-exec")));
static __thread int tracing __attribute__((tls_model("initial-exec")));
static __thread int insideTrace __attribute__((tls_model("initial-exec")));
static __thread uint64_t startCount __attribute__((tls_model("initial-exec")));

// Set: allocations on every thread count (a compositor's painter threads
// allocate on their own threads).
static _Atomic int countingAllThreads;

static inline void note(void) {
    if (__builtin_expect((!counting && !atomic_load_explicit(&countingAllThreads, memory_order_relaxed)) || insideTrace, 1)) return;
    atomic_fetch_add_explicit(&counted, 1, memory_order_relaxed);
    if (tracing) {
        insideTrace = 1;            // backtrace may allocate (loading libgcc_s)
        void *frames[40];
        int n = backtrace(frames, 40);
        static const char header[] = "malloc-counter: allocation at\n";
        (void)!write(2, header, sizeof header - 1);
        backtrace_symbols_fd(frames, n, 2);
        insideTrace = 0;
    }
}

// Under ThreadSanitizer (`swift build --sanitize=thread`), which intercepts
// malloc itself, the hook stays out: the counter is inactive
// (`fbr_malloc_counter_is_active` returns 0) and the process runs.
#if defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#    define FBR_MALLOC_COUNTER_OFF 1
#  endif
#endif
#if defined(__SANITIZE_THREAD__)
#  define FBR_MALLOC_COUNTER_OFF 1
#endif

#ifndef FBR_MALLOC_COUNTER_OFF
void *malloc(size_t size) {
    note();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note();
    return __libc_calloc(count, size);
}

// Every realloc counts, a shrink too: it may move the block.
void *realloc(void *pointer, size_t size) {
    note();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    note();
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    *result = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

#endif  // FBR_MALLOC_COUNTER_OFF

void fbr_malloc_counter_begin(void) {
    startCount = atomic_load_explicit(&counted, memory_order_relaxed);
    counting = 1;
}

uint64_t fbr_malloc_counter_end(void) {
    counting = 0;
    return atomic_load_explicit(&counted, memory_order_relaxed) - startCount;
}

uint64_t fbr_malloc_counter_total(void) {
    return atomic_load_explicit(&counted, memory_order_relaxed);
}

void fbr_malloc_counter_all_threads(int on) {
    atomic_store_explicit(&countingAllThreads, on, memory_order_relaxed);
}

void fbr_malloc_counter_trace(int on) {
    tracing = on;
}

int fbr_malloc_counter_is_active(void) {
    int wasTracing = tracing;
    tracing = 0;
    fbr_malloc_counter_begin();
    // volatile: the compiler may not pair and remove the malloc/free.
    void *volatile p = malloc(16);
    free(p);
    uint64_t n = fbr_malloc_counter_end();
    tracing = wasTracing;
    return n >= 1;
}
