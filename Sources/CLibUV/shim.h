#ifndef RXLIVE_CLIBUV_SHIM_H
#define RXLIVE_CLIBUV_SHIM_H
#include <uv.h>
/* glibc's malloc_trim: a loop returns freed heap to the system after a burst of closes. */
#include <malloc.h>
#include <sys/socket.h>

/* timerfd: the loop's timed tasks wake it at a nanosecond instant (LoopInstantTimer). */
#include <sys/timerfd.h>

#include <sys/syscall.h>
#include <unistd.h>

/* write(2) as the bare system call: glibc's write is a cancellation point, whose wrapper
 * costs about 35 instructions a call. No loop thread is ever cancelled (nothing calls
 * pthread_cancel), so nothing is lost. Returns -1 and sets errno on failure, as write does. */
static inline long rxlive_write(int fd, const void *bytes, unsigned long count) {
    return syscall(SYS_write, fd, bytes, count);
}

/* send(2) with MSG_MORE as the bare system call: a connection's last bytes, held by the kernel
 * until the shutdown(2) that follows at once, which sends them with the FIN in one segment. */
static inline long rxlive_write_before_fin(int fd, const void *bytes, unsigned long count) {
    return syscall(SYS_sendto, fd, bytes, count, MSG_MORE, NULL, 0);
}

/* accept4(2) as the bare system call, for the same reason: one call accepts a peer
 * non-blocking and close-on-exec (accept plus fcntl would be two). */
static inline int rxlive_accept_nonblocking(int fd) {
    return (int)syscall(SYS_accept4, fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif
