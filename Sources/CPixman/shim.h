// CPixman: pixman, the peer our compositing kernels are measured against
// (benchmarks only; never a dependency of the core modules).
#ifndef FBR_CPIXMAN_SHIM_H
#define FBR_CPIXMAN_SHIM_H
#include <pixman.h>
#endif
