#ifndef RXLIVE_CZLIB_SHIM_H
#define RXLIVE_CZLIB_SHIM_H
#include <zlib.h>

// deflateInit2 and inflateInit2 are macros (they pass the library version and the
// stream size), which Swift cannot call: these wrap them for raw DEFLATE streams.
static inline int czlib_deflate_init_raw(z_streamp stream, int level, int window_bits, int mem_level) {
    return deflateInit2(stream, level, Z_DEFLATED, -window_bits, mem_level, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_raw(z_streamp stream, int window_bits) {
    return inflateInit2(stream, -window_bits);
}
#endif
