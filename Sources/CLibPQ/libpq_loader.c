#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "CLibPQ.h"

// The libpq functions Accounts calls, defined here as forwarders to the library opened with
// dlopen on first use, so the executable does not link libpq (see CLibPQ.h).
#define LIBPQ_FUNCTIONS(X) \
    X(PQconnectdbParams) X(PQfinish) X(PQconninfoParse) X(PQconninfoFree) X(PQstatus) \
    X(PQerrorMessage) X(PQsocket) X(PQsetNoticeProcessor) X(PQexec) X(PQexecParams) \
    X(PQconsumeInput) X(PQnotifies) X(PQresultStatus) X(PQntuples) X(PQnfields) \
    X(PQgetvalue) X(PQclear) X(PQfreemem)

static struct {
#define FIELD(name) __typeof__(&name) name;
    LIBPQ_FUNCTIONS(FIELD)
#undef FIELD
} libpq;

static pthread_once_t libpq_once = PTHREAD_ONCE_INIT;
static char libpq_error[256];
static int libpq_loaded = 0;

static void libpq_load(void) {
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(libpq_error, sizeof libpq_error, "cannot load libpq.so.5: %s", dlerror());
        return;
    }
#define RESOLVE(name) \
    if ((libpq.name = (__typeof__(&name))dlsym(handle, #name)) == NULL) { \
        snprintf(libpq_error, sizeof libpq_error, "libpq.so.5 has no %s", #name); \
        return; \
    }
    LIBPQ_FUNCTIONS(RESOLVE)
#undef RESOLVE
    libpq_loaded = 1;
}

static int libpq_ready(void) {
    pthread_once(&libpq_once, libpq_load);
    return libpq_loaded;
}

const char *rx_libpq_load_error(void) {
    return libpq_ready() ? NULL : libpq_error;
}

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return libpq_ready() ? libpq.PQconnectdbParams(keywords, values, expand_dbname) : NULL;
}
void PQfinish(PGconn *conn) {
    if (libpq_ready()) libpq.PQfinish(conn);
}
PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
    if (errmsg != NULL) *errmsg = NULL;
    return libpq_ready() ? libpq.PQconninfoParse(conninfo, errmsg) : NULL;
}
void PQconninfoFree(PQconninfoOption *options) {
    if (libpq_ready()) libpq.PQconninfoFree(options);
}
ConnStatusType PQstatus(const PGconn *conn) {
    return libpq_ready() ? libpq.PQstatus(conn) : CONNECTION_BAD;
}
char *PQerrorMessage(const PGconn *conn) {
    return libpq_ready() ? libpq.PQerrorMessage(conn) : libpq_error;
}
int PQsocket(const PGconn *conn) {
    return libpq_ready() ? libpq.PQsocket(conn) : -1;
}
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return libpq_ready() ? libpq.PQsetNoticeProcessor(conn, proc, arg) : NULL;
}
PGresult *PQexec(PGconn *conn, const char *query) {
    return libpq_ready() ? libpq.PQexec(conn, query) : NULL;
}
PGresult *PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                       const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                       int resultFormat) {
    return libpq_ready() ? libpq.PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths,
                                              paramFormats, resultFormat) : NULL;
}
int PQconsumeInput(PGconn *conn) {
    return libpq_ready() ? libpq.PQconsumeInput(conn) : 0;
}
PGnotify *PQnotifies(PGconn *conn) {
    return libpq_ready() ? libpq.PQnotifies(conn) : NULL;
}
ExecStatusType PQresultStatus(const PGresult *res) {
    return libpq_ready() ? libpq.PQresultStatus(res) : PGRES_FATAL_ERROR;
}
int PQntuples(const PGresult *res) {
    return libpq_ready() ? libpq.PQntuples(res) : 0;
}
int PQnfields(const PGresult *res) {
    return libpq_ready() ? libpq.PQnfields(res) : 0;
}
char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return libpq_ready() ? libpq.PQgetvalue(res, tup_num, field_num) : NULL;
}
void PQclear(PGresult *res) {
    if (libpq_ready()) libpq.PQclear(res);
}
void PQfreemem(void *ptr) {
    if (libpq_ready()) libpq.PQfreemem(ptr);
}
