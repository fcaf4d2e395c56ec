// SQLite's C interface, for the store's own thin layer over it
// (Sources/MIGAStore/SQLite). Its declarations are the system's (from
// libsqlite3-dev); the library itself is opened at the first call, by
// SQLiteOnDemand.c, not by the loader at every start.
#include <sqlite3.h>

// sqlite3_db_config for a switch (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE and the
// like), which Swift cannot call: it takes C's variable arguments.
static inline int csqlite_db_config_switch(sqlite3 *db, int option, int on) {
    return sqlite3_db_config(db, option, on, (int *)0);
}
