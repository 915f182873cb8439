#ifndef RX_TRAMPOLINE_H
#define RX_TRAMPOLINE_H

// Whether a CurrentThreadScheduler trampoline runs on the calling thread. Every subscription
// asks, so it is a thread-local variable (one load) rather than a pthread key's value.

/// Nonzero while a trampoline runs on this thread; only this thread reads or writes it.
extern __thread int rx_trampoline_running;

static inline int rx_trampoline_is_running(void) {
    return rx_trampoline_running;
}

static inline void rx_trampoline_set_running(int running) {
    rx_trampoline_running = running;
}

#endif
