#ifndef RX_THREAD_INFO_H
#define RX_THREAD_INFO_H

// What Foundation's Thread told Rx (is this the main thread, the call stack), from libc:
// linking Foundation costs every process about 8 MB resident, and Glibc's Swift module
// offers neither gettid nor execinfo.h.

/// Nonzero on the process's main thread (on Linux its thread id is the process id); the
/// answer is kept per thread after the first call.
int rx_is_main_thread(void);

/// The calling thread's return addresses, at most `capacity`, innermost first; the count.
int rx_backtrace(void **frames, int capacity);

/// One malloc'ed block of `count` C strings naming `frames` (free the block, not the strings).
char **rx_backtrace_symbols(void *const *frames, int count);

#endif
