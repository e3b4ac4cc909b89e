// Linked into every Embedded Swift board program (scripts/cross-flags.sh,
// board_linker_flags): strong definitions of the two bridge-object retain
// entry points, replacing the weak ones the toolchain's Embedded runtime
// emits into the program.
//
// Why: the compiler calls `swift_bridgeObjectRetain(_n)` with the LLVM
// `returned` attribute (the call gives back its argument) and may keep
// using the return value instead of the argument, for example to store a
// String's second word. This toolchain's Embedded runtime (Swift 6.3,
// EmbeddedRuntime.swift) returns the object with its tag bits masked off
// instead, so such a store writes a corrupted String or Array: a small
// string's 0xEB00000000382D46 came back 0x8B00000000382D40 and the board
// program trapped at its first key event (see KeyboardTranslator).
// Later runtimes return `object` unchanged; these definitions do what
// they do.
//
// What they do, as the Embedded runtime does apart from the return value:
// a bridge object with bit 63 set holds no reference (a small or literal
// String); otherwise the low three bits and bits 60-62 are tags, and what
// is left (nil included) is a native object retained `n` times. The
// reference count is the Embedded heap object's second word, counted
// with relaxed atomics; an object whose count bits are all set (static
// storage, immortal) is never counted. `rastercheck` checks on every
// cross-build that the return value is the argument.
//
// Not compiled for the host: the full Swift runtime there is correct.
// No headers: it is compiled without the sysroot (compiler built-in types).
typedef __UINT64_TYPE__ uint64_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINTPTR_TYPE__ uintptr_t;

#define FBR_BRIDGE_OBJECT_POINTER_MASK 0x0ffffffffffffff8ULL
#define FBR_REFCOUNT_MASK 0x7fffffffffffffffULL

void *swift_bridgeObjectRetain_n(void *object, uint32_t n) {
    uint64_t bits = (uint64_t)(uintptr_t)object;
    if (bits >> 63) return object;
    uint64_t *heapObject = (uint64_t *)(uintptr_t)(bits & FBR_BRIDGE_OBJECT_POINTER_MASK);
    if (heapObject == 0) return object;
    uint64_t *refcount = heapObject + 1;
    if ((__atomic_load_n(refcount, __ATOMIC_RELAXED) & FBR_REFCOUNT_MASK) == FBR_REFCOUNT_MASK) return object;
    __atomic_fetch_add(refcount, (uint64_t)n, __ATOMIC_RELAXED);
    return object;
}

void *swift_bridgeObjectRetain(void *object) {
    return swift_bridgeObjectRetain_n(object, 1);
}
