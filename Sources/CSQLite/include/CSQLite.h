// SQLite's C interface, for the store's own thin layer over it
// (Sources/MIGAStore/SQLite). Its declarations are the system's (from
// libsqlite3-dev); the library itself is opened at the first call, by
// SQLiteOnDemand.c, not by the loader at every start.
#include <sqlite3.h>
