#ifndef RX_RESOURCES_H
#define RX_RESOURCES_H

// Rx's count of live resources, kept per thread: an add is a plain load and store of the
// calling thread's own slot (no atomic read-modify-write, no cache line shared between
// threads); reading the total sums every thread's slot under a lock.

/// The calling thread's slot, or NULL before its first add.
extern __thread long *rx_resources_slot;

/// Makes and registers the calling thread's slot.
long *rx_resources_register_thread(void);

/// Adds `delta` to the calling thread's count.
static inline void rx_resources_add(long delta) {
    long *slot = rx_resources_slot;
    if (__builtin_expect(slot == 0, 0)) {
        slot = rx_resources_register_thread();
    }
    // Only this thread writes the slot; relaxed atomics let the reader load it while we store.
    __atomic_store_n(slot, __atomic_load_n(slot, __ATOMIC_RELAXED) + delta, __ATOMIC_RELAXED);
}

/// The sum of every thread's count, and of the threads that have exited.
long rx_resources_total(void);

#endif
