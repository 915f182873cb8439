#ifndef RXLIVE_CLIBUV_SHIM_H
#define RXLIVE_CLIBUV_SHIM_H
#include <uv.h>
/* glibc's malloc_trim: a loop returns freed heap to the system after a burst of closes. */
#include <malloc.h>
#endif
