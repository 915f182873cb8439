#define _GNU_SOURCE
#include <execinfo.h>
#include <unistd.h>
#include "rx_thread_info.h"

// 0 until asked, then 1 (main) or 2 (another thread): a thread's answer never changes.
static __thread int rx_main_thread_answer = 0;

int rx_is_main_thread(void) {
    if (rx_main_thread_answer == 0) {
        rx_main_thread_answer = gettid() == getpid() ? 1 : 2;
    }
    return rx_main_thread_answer == 1;
}

int rx_backtrace(void **frames, int capacity) {
    return backtrace(frames, capacity);
}

char **rx_backtrace_symbols(void *const *frames, int count) {
    return backtrace_symbols(frames, count);
}
