#ifndef RXLIVE_COPENSSL_SHIM_H
#define RXLIVE_COPENSSL_SHIM_H
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#endif
