// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CSQLITE_SHIM_H
#define TABSERVER_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot
// import: this gives it a name. It tells SQLite to copy bound text and blobs.
static inline sqlite3_destructor_type tabserver_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
