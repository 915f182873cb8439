// Counting malloc for benchmarks: an executable that links this target defines malloc & co.,
// and ELF symbol resolution sends every allocation of the process (the Swift runtime's
// included) here first. Each call bumps the calling thread's counters and forwards to glibc's
// own allocator, so sizes, alignment and speed stay those of glibc (no header, no LD_PRELOAD).
#include "malloc_counter.h"
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

// Initial-exec TLS in the executable: one thread-pointer-relative add, no allocation.
static __thread uint64_t allocations;
static __thread uint64_t bytes;
static __thread uint64_t frees;

static inline void count(size_t size) {
    allocations += 1;
    bytes += size;
}

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(count_ * size);
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

void free(void *pointer) {
    if (pointer != NULL) {
        frees += 1;
    }
    __libc_free(pointer);
}

uint64_t malloc_counter_thread_allocations(void) { return allocations; }
uint64_t malloc_counter_thread_bytes(void) { return bytes; }
uint64_t malloc_counter_thread_frees(void) { return frees; }
