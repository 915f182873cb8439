#ifndef RXLIVE_CLIBPQ_SHIM_H
#define RXLIVE_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
