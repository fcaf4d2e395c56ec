// The SQLite functions MIGA calls, each forwarding to the system's
// libsqlite3, opened with dlopen at the first call.
//
// Linked, the library would be loaded at every start of miga: about a third
// of a millisecond that `miga init` (which every new shell runs), `--help`
// and the completions pay for nothing, and a missing or broken libsqlite3
// would stop miga before main, so a protected program could not start at
// all. Opened here, a library that cannot be opened fails the open of the
// store (SQLITE_CANTOPEN, and the loader's reason as its message), which MIGA
// survives like any store it cannot open.
//
// Each forwarder is defined with SQLite's own name and prototype, so the
// compiler checks it against <sqlite3.h>, and the store's layer calls SQLite
// as it would a linked library. The binary exports no symbols (see the
// Makefile's RELEASE_FLAGS), so the library's calls within itself never
// reach these.
#include "CSQLite.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

// Every function MIGA calls: its return type, name, parameters and the
// arguments that pass them on. These three are written out below: they are
// the ones called when the library could not be opened.
#define OPENING_FUNCTIONS(F) \
    F(int, sqlite3_open_v2, (const char *filename, sqlite3 **db, int flags, const char *vfs), (filename, db, flags, vfs)) \
    F(const char *, sqlite3_errstr, (int code), (code)) \
    F(int, sqlite3_close_v2, (sqlite3 *db), (db))

// The rest, each called only with a connection, so after a successful open.
#define CONNECTION_FUNCTIONS(F) \
    F(int, sqlite3_extended_result_codes, (sqlite3 *db, int on), (db, on)) \
    F(int, sqlite3_busy_timeout, (sqlite3 *db, int milliseconds), (db, milliseconds)) \
    F(int, sqlite3_errcode, (sqlite3 *db), (db)) \
    F(int, sqlite3_extended_errcode, (sqlite3 *db), (db)) \
    F(const char *, sqlite3_errmsg, (sqlite3 *db), (db)) \
    F(int, sqlite3_get_autocommit, (sqlite3 *db), (db)) \
    F(int, sqlite3_changes, (sqlite3 *db), (db)) \
    F(int, sqlite3_prepare_v2, (sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, statement, tail)) \
    F(const char *, sqlite3_sql, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_step, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_reset, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_finalize, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_bind_parameter_count, (sqlite3_stmt *statement), (statement)) \
    F(int, sqlite3_bind_null, (sqlite3_stmt *statement, int index), (statement, index)) \
    F(int, sqlite3_bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value)) \
    F(int, sqlite3_bind_double, (sqlite3_stmt *statement, int index, double value), (statement, index, value)) \
    F(int, sqlite3_bind_text, (sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)), \
      (statement, index, text, bytes, destructor)) \
    F(int, sqlite3_bind_blob, (sqlite3_stmt *statement, int index, const void *blob, int bytes, void (*destructor)(void *)), \
      (statement, index, blob, bytes, destructor)) \
    F(int, sqlite3_column_count, (sqlite3_stmt *statement), (statement)) \
    F(const char *, sqlite3_column_name, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(int, sqlite3_column_type, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(double, sqlite3_column_double, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(const void *, sqlite3_column_blob, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(int, sqlite3_column_bytes, (sqlite3_stmt *statement, int column), (statement, column)) \
    F(sqlite3_backup *, sqlite3_backup_init, (sqlite3 *destination, const char *destinationName, sqlite3 *source, \
      const char *sourceName), (destination, destinationName, source, sourceName)) \
    F(int, sqlite3_backup_step, (sqlite3_backup *backup, int pages), (backup, pages)) \
    F(int, sqlite3_backup_finish, (sqlite3_backup *backup), (backup))

// Written out below: C cannot pass variable arguments on as they came.
#define VARIADIC_FUNCTIONS(F) \
    F(int, sqlite3_db_config, (sqlite3 *db, int option, ...), ())

#define SQLITE_FUNCTIONS(F) OPENING_FUNCTIONS(F) CONNECTION_FUNCTIONS(F) VARIADIC_FUNCTIONS(F)

// The library's functions, all found at the first call (or none: `loaded` stays 0).
#define POINTER(type, name, parameters, arguments) type (*name) parameters;
static struct { SQLITE_FUNCTIONS(POINTER) } library;
static int loaded;
// Why it could not be opened, for the open that fails.
static char reason[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define FIND(type, name, parameters, arguments) \
    if (!(library.name = (type (*) parameters)dlsym(handle, #name))) { \
        snprintf(reason, sizeof reason, "libsqlite3.so.0 has no %s", #name); \
        goto missing; \
    }

static void load(void) {
    void *handle = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        snprintf(reason, sizeof reason, "%s", error ? error : "libsqlite3.so.0 cannot be opened");
        return;
    }
    SQLITE_FUNCTIONS(FIND)
    loaded = 1;
    return;
missing:
    dlclose(handle);
}

// Opening is where a missing library shows: no connection, and the reason.
int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
    pthread_once(&once, load);
    if (!loaded) {
        *db = NULL;
        return SQLITE_CANTOPEN;
    }
    return library.sqlite3_open_v2(filename, db, flags, vfs);
}

// The message for a failed open, which had no connection to ask.
const char *sqlite3_errstr(int code) {
    pthread_once(&once, load);
    return loaded ? library.sqlite3_errstr(code) : reason;
}

// Closing no connection, as after a failed open, does nothing (as in SQLite).
int sqlite3_close_v2(sqlite3 *db) {
    if (!db) return SQLITE_OK;
    return library.sqlite3_close_v2(db);
}

// Every other call needs a connection, so the library is open by then.
#define FORWARD(type, name, parameters, arguments) \
    type name parameters { return library.name arguments; }
CONNECTION_FUNCTIONS(FORWARD)

// The options MIGA sets take a flag and where to say how it stands (the
// SQLITE_DBCONFIG_* switches): those two arguments are passed on.
int sqlite3_db_config(sqlite3 *db, int option, ...) {
    va_list arguments;
    va_start(arguments, option);
    int flag = va_arg(arguments, int);
    int *stands = va_arg(arguments, int *);
    va_end(arguments);
    return library.sqlite3_db_config(db, option, flag, stands);
}
