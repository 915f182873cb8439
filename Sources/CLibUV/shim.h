#ifndef RXLIVE_CLIBUV_SHIM_H
#define RXLIVE_CLIBUV_SHIM_H
#include <uv.h>
/* glibc's malloc_trim: a loop returns freed heap to the system after a burst of closes. */
#include <malloc.h>
#include <sys/socket.h>

/* accept4 is a GNU extension the Glibc module does not show: one call accepts a peer
 * non-blocking and close-on-exec (accept plus fcntl would be two). */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

static inline int rxlive_accept_nonblocking(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
#endif
