// Tells ThreadSanitizer about Synchronization.Mutex's contended path (scripts/sanitize
// preloads this into the TSan test processes).
//
// Mutex's uncontended lock and unlock are atomics inlined into our (instrumented) code, but
// under contention `_lockSlow` and `_unlockSlow` run in libswiftSynchronization.so, which is
// not instrumented, and hand the lock over with a priority-inheriting futex inside the
// kernel. ThreadSanitizer then sees no release→acquire edge between the two owners and
// reports the data the mutex guards as a race (a false positive). These wrappers call the
// library's functions and add the edge: release before the unlock, acquire after the lock.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>

// Weak: the preload also reaches processes without ThreadSanitizer (`swift test` itself).
__attribute__((weak)) void __tsan_acquire(void *address);
__attribute__((weak)) void __tsan_release(void *address);

// Swift's calling convention: `self` (the mutex word, passed by address) in the swiftself
// register, which clang's swift_context parameter maps to.
typedef void (*lock_slow)(uint32_t, __attribute__((swift_context)) void *) __attribute__((swiftcall));
typedef _Bool (*try_lock_slow)(__attribute__((swift_context)) void *) __attribute__((swiftcall));
typedef void (*unlock_slow)(__attribute__((swift_context)) void *) __attribute__((swiftcall));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

__attribute__((swiftcall)) void rxlive_lock_slow(uint32_t owner, __attribute__((swift_context)) void *self) __asm__(LOCK_SLOW);
__attribute__((swiftcall)) _Bool rxlive_try_lock_slow(__attribute__((swift_context)) void *self) __asm__(TRY_LOCK_SLOW);
__attribute__((swiftcall)) void rxlive_unlock_slow(__attribute__((swift_context)) void *self) __asm__(UNLOCK_SLOW);

__attribute__((swiftcall)) void rxlive_lock_slow(uint32_t owner, __attribute__((swift_context)) void *self) {
    static lock_slow original;
    if (!original) original = (lock_slow)dlsym(RTLD_NEXT, LOCK_SLOW);
    original(owner, self);
    if (__tsan_acquire) __tsan_acquire(self);
}

__attribute__((swiftcall)) _Bool rxlive_try_lock_slow(__attribute__((swift_context)) void *self) {
    static try_lock_slow original;
    if (!original) original = (try_lock_slow)dlsym(RTLD_NEXT, TRY_LOCK_SLOW);
    _Bool locked = original(self);
    if (locked && __tsan_acquire) __tsan_acquire(self);
    return locked;
}

__attribute__((swiftcall)) void rxlive_unlock_slow(__attribute__((swift_context)) void *self) {
    static unlock_slow original;
    if (!original) original = (unlock_slow)dlsym(RTLD_NEXT, UNLOCK_SLOW);
    if (__tsan_release) __tsan_release(self);
    original(self);
}
