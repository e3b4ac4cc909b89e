// SoakMemory: glibc's heap figures for soakprobe (host only).
#ifndef FBR_SOAK_MEMORY_H
#define FBR_SOAK_MEMORY_H

#include <stddef.h>

/// Bytes malloc has handed out and not had back: glibc's mallinfo2()
/// `uordblks` (in arenas) + `hblkhd` (in their own mmaps).
size_t fbr_heap_in_use(void);

#endif
