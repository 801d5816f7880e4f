// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CSQLITEVFS_H
#define TABSERVER_CSQLITEVFS_H

// "tabserver-coalesce": a VFS over SQLite's default one that merges the write-ahead
// log's consecutive appends into one write(2) per commit (see coalescing_vfs.c).

/// Registers "tabserver-coalesce" (once; later calls only return). Returns SQLITE_OK, or
/// an error when there is no default VFS to build on.
int tabserver_sqlite_register_coalescing_vfs(void);

/// Registers another instance of the coalescing VFS as `name`, over the VFS registered
/// as `root_name` (the default one when NULL), so a test can put a VFS of its own below
/// it. Registering a name twice only returns. SQLITE_OK, or an error code.
int tabserver_sqlite_register_coalescing_vfs_over(const char *name, const char *root_name);

/// The name to pass to sqlite3_open_v2 for the coalescing VFS.
const char *tabserver_sqlite_coalescing_vfs_name(void);

#endif
