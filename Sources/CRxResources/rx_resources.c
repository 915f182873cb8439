#include "rx_resources.h"

#include <pthread.h>
#include <stdlib.h>

// A thread's slot; the count comes first so the thread-local pointer points at it.
struct slot {
    long count;
    struct slot *next;
    struct slot *previous;
};

__thread long *rx_resources_slot = 0;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot *registry = 0;
// Counts of threads that have exited (their objects may live on).
static long retired = 0;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

// At thread exit: folds the slot's count into `retired` and frees it. A later add on this
// thread (from another key's destructor) registers a new slot, which the next destructor
// round folds in turn.
static void retire_slot(void *value) {
    struct slot *slot = value;
    pthread_mutex_lock(&registry_lock);
    retired += __atomic_load_n(&slot->count, __ATOMIC_RELAXED);
    if (slot->previous) {
        slot->previous->next = slot->next;
    } else {
        registry = slot->next;
    }
    if (slot->next) {
        slot->next->previous = slot->previous;
    }
    pthread_mutex_unlock(&registry_lock);
    rx_resources_slot = 0;
    free(slot);
}

static void make_exit_key(void) {
    pthread_key_create(&exit_key, retire_slot);
}

long *rx_resources_register_thread(void) {
    pthread_once(&exit_key_once, make_exit_key);
    struct slot *slot = calloc(1, sizeof(struct slot));
    if (slot == 0) {
        abort();
    }
    pthread_mutex_lock(&registry_lock);
    slot->next = registry;
    if (registry) {
        registry->previous = slot;
    }
    registry = slot;
    pthread_mutex_unlock(&registry_lock);
    pthread_setspecific(exit_key, slot);
    rx_resources_slot = &slot->count;
    return &slot->count;
}

long rx_resources_total(void) {
    pthread_mutex_lock(&registry_lock);
    long total = retired;
    for (struct slot *slot = registry; slot; slot = slot->next) {
        total += __atomic_load_n(&slot->count, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&registry_lock);
    return total;
}
