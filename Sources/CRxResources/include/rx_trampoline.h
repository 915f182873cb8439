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

// The inner subscription slot whose subscription runs on the calling thread (the innermost
// one), so that a slot tells the events its own subscribe handler sends during that call
// from events sent on another thread or later: one thread-local load, no atomic.

/// The slot, or NULL; only this thread reads or writes it.
extern __thread const void *rx_subscribing_slot;

static inline const void *rx_subscribing_slot_get(void) {
    return rx_subscribing_slot;
}

static inline void rx_subscribing_slot_set(const void *slot) {
    rx_subscribing_slot = slot;
}

#endif
