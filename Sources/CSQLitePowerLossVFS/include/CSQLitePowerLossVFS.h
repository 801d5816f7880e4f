// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CSQLITEPOWERLOSSVFS_H
#define TABSERVER_CSQLITEPOWERLOSSVFS_H

// For tests only: a VFS keeping its files in memory that simulates a power loss. Each
// file has the bytes SQLite wrote and the bytes it last synced; a "crash" puts every
// file back to what it held at its last xSync, discarding everything written since.
// It can also fail every write, truncate, sync and delete after a given number of
// them, the moment the power went out. One set of files and counters per process.

/// Registers the VFS as `name` (once; later calls only return). SQLITE_OK or an error.
int tabserver_powerloss_register(const char *name);

/// After `operations` more writes, truncates, syncs and deletes succeed, the next and
/// every later one fails with SQLITE_IOERR (the power is out). A negative count: never.
void tabserver_powerloss_fail_after(long operations);

/// The power loss: every file goes back to its content at its last sync (a file never
/// synced is empty), and operations succeed again.
void tabserver_powerloss_crash(void);

/// Forgets every file and resets the counters (no file may be open).
void tabserver_powerloss_reset(void);

/// Writes, truncates, syncs and deletes that succeeded since the last reset.
long tabserver_powerloss_operations(void);

/// Syncs of write-ahead logs (files whose name ends in "-wal") that succeeded since the last reset.
long tabserver_powerloss_wal_syncs(void);

#endif
