#ifndef RXLIVE_CLIBUV_SHIM_H
#define RXLIVE_CLIBUV_SHIM_H
#include <uv.h>
#endif
