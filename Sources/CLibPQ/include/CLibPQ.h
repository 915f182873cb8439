#ifndef RXLIVE_CLIBPQ_H
#define RXLIVE_CLIBPQ_H

// libpq's API, with libpq itself loaded only when first used: linked, libpq and what it
// brings (GnuTLS, Kerberos, LDAP, p11-kit) cost every process 3.3 MB resident at start,
// though only a server with a postgresql:// credential store calls it.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif

/// NULL once libpq is loaded (the first call loads it); otherwise why it cannot be, and
/// every libpq function then does nothing and returns NULL, 0 or a failure status.
const char *rx_libpq_load_error(void);

#endif
