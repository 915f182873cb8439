#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdint.h>

/// Allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made so
/// far by the calling thread, counted by the malloc definitions this target links into the
/// executable (they forward to glibc's __libc_* entry points).
uint64_t malloc_counter_thread_allocations(void);

/// Bytes requested by those calls.
uint64_t malloc_counter_thread_bytes(void);

/// `free` calls of non-null pointers made so far by the calling thread.
uint64_t malloc_counter_thread_frees(void);

#endif
