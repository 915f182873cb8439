#ifndef RXLIVE_CARGON2_SHIM_H
#define RXLIVE_CARGON2_SHIM_H
#include <argon2.h>
#endif
