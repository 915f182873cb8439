#ifndef RXLIVE_COPENSSL_SHIM_H
#define RXLIVE_COPENSSL_SHIM_H
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>

// Function forms of OpenSSL macros, which Swift cannot call.

static inline int rxlive_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

static inline int rxlive_SSL_CTX_set_max_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_max_proto_version(context, version);
}

static inline long rxlive_SSL_CTX_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

static inline long rxlive_SSL_MODE_RELEASE_BUFFERS(void) { return SSL_MODE_RELEASE_BUFFERS; }

static inline uint64_t rxlive_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline uint64_t rxlive_SSL_OP_CIPHER_SERVER_PREFERENCE(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }
static inline uint64_t rxlive_SSL_OP_PRIORITIZE_CHACHA(void) { return SSL_OP_PRIORITIZE_CHACHA; }

static inline long rxlive_SSL_CTX_set_read_ahead(SSL_CTX *context, int yes) {
    return SSL_CTX_set_read_ahead(context, yes);
}

static inline void rxlive_BIO_set_retry_read(BIO *bio) { BIO_set_retry_read(bio); }

static inline void rxlive_BIO_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }

#endif
