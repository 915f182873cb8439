#ifndef RXLIVE_CSQLITE_SHIM_H
#define RXLIVE_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
