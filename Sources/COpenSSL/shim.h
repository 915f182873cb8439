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

// SHA-256 of a short input on a context in the caller's stack: the EVP one-shot allocates and
// frees a context for each call (a third of a token's hash). SHA256_Init and friends are
// deprecated in OpenSSL 3 in favour of EVP, but remain its documented, supported API.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
static inline int rxlive_sha256(const void *data, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    return SHA256_Init(&context) && SHA256_Update(&context, data, count) && SHA256_Final(digest, &context);
}

// SHA-1 the same way, for a WebSocket handshake's accept value: EVP_Digest with a fetched
// method still made, reset and freed a context per call (about 1,400 of its 3,200 instructions).
static inline int rxlive_sha1(const void *data, size_t count, unsigned char *digest) {
    SHA_CTX context;
    return SHA1_Init(&context) && SHA1_Update(&context, data, count) && SHA1_Final(digest, &context);
}
#pragma clang diagnostic pop

#endif
