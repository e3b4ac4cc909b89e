// MallocCounter: a malloc hook that counts heap allocations made by the
// calling thread while counting is on (host only: benchmarks and tests).
//
// Linking this target into a program replaces malloc, calloc, realloc,
// free, posix_memalign, aligned_alloc and memalign; each forwards to
// glibc's __libc_* implementation, so memory behaves as without the hook.
// An allocation counts when the thread that makes it has counting on
// (a thread-local flag); the count itself is a process-wide atomic.
#ifndef FBR_MALLOC_COUNTER_H
#define FBR_MALLOC_COUNTER_H

#include <stdint.h>

/// Turns counting on for the calling thread.
void fbr_malloc_counter_begin(void);
/// Turns counting off for the calling thread; returns the allocations the
/// process counted since the matching begin (only counting threads count).
uint64_t fbr_malloc_counter_end(void);
/// Allocations counted so far (all threads, since the process started).
uint64_t fbr_malloc_counter_total(void);
/// With `on` non-zero, every counted allocation also prints a raw backtrace
/// to stderr (for finding where an allocation comes from; symbolize with
/// addr2line or llvm-symbolizer).
void fbr_malloc_counter_trace(int on);
/* Between begin and end, count the allocations of every thread (on = 1),
   not only the calling thread's (on = 0, the default). */
void fbr_malloc_counter_all_threads(int on);
/// 1 when the hook is the malloc the process calls (it counts a test
/// allocation of its own), 0 otherwise.
int fbr_malloc_counter_is_active(void);

#endif
