// SPDX-License-Identifier: Apache-2.0
#include "CSQLiteVFS.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------
// "tabserver-coalesce": a VFS over the default one that merges the write-ahead log's
// consecutive writes into one write(2).
//
// SQLite appends each WAL frame with two writes: its 24-byte header, then the page.
// A group commit of 24 session rows wrote ~44 times (30,000 pwrite calls a second
// under load). Here a WAL file keeps appended bytes in a buffer while they continue
// each other, and writes them out:
//   - within the write of a commit frame's page (a frame header whose "database size
//     after commit" field is non-zero marks it), so when SQLite's COMMIT returns, the
//     whole transaction is in the file as before, and a failure fails the COMMIT;
//   - before any other operation on the file (read, sync, truncate, size, lock, close,
//     file control), and before a write that does not continue the buffer.
// Other files (the database itself) pass straight through. No library offers this;
// written here by hand.
// ---------------------------------------------------------------------------------

// The unix VFS writes at most 128 KiB - 1 per call (seekAndWrite masks the length with
// 0x1ffff), so the buffer stays below that.
enum { TABSERVER_WAL_BUFFER = 120 * 1024, TABSERVER_FRAME_HEADER = 24 };

typedef struct tabserver_file {
    sqlite3_file base;        // our methods
    sqlite3_file *real;       // the default VFS's file, allocated right after this struct
    int is_wal;
    unsigned char *buffer;    // pending appended bytes (WAL files only)
    int pending;              // bytes in buffer
    sqlite3_int64 start;      // file offset of buffer[0]
    int commit_page_next;     // the last write was a commit frame's header
} tabserver_file;

static sqlite3_vfs *tabserver_root_vfs(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

static int tabserver_flush(tabserver_file *file) {
    if (file->pending == 0) return SQLITE_OK;
    int rc = file->real->pMethods->xWrite(file->real, file->buffer, file->pending, file->start);
    file->pending = 0;
    return rc;
}

static int tabserver_close(sqlite3_file *f) {
    tabserver_file *file = (tabserver_file *)f;
    int flushed = tabserver_flush(file);
    int rc = file->real->pMethods->xClose(file->real);
    free(file->buffer);
    file->buffer = 0;
    return flushed != SQLITE_OK ? flushed : rc;
}

#define TABSERVER_FLUSH_THEN(file, call)                       \
    do {                                                       \
        int flushed_ = tabserver_flush(file);                  \
        if (flushed_ != SQLITE_OK) return flushed_;            \
        return call;                                           \
    } while (0)

static int tabserver_read(sqlite3_file *f, void *out, int amount, sqlite3_int64 offset) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xRead(file->real, out, amount, offset));
}

static int tabserver_write(sqlite3_file *f, const void *data, int amount, sqlite3_int64 offset) {
    tabserver_file *file = (tabserver_file *)f;
    if (!file->is_wal || file->buffer == 0) {
        return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    int ends_commit = file->commit_page_next;
    file->commit_page_next = 0;
    if (file->pending > 0 &&
        (offset != file->start + file->pending || file->pending + amount > TABSERVER_WAL_BUFFER)) {
        int rc = tabserver_flush(file);
        if (rc != SQLITE_OK) return rc;
    }
    if (amount > TABSERVER_WAL_BUFFER) {
        return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    if (file->pending == 0) file->start = offset;
    memcpy(file->buffer + file->pending, data, (size_t)amount);
    file->pending += amount;
    if (amount == TABSERVER_FRAME_HEADER) {
        const unsigned char *header = (const unsigned char *)data;
        // Bytes 4-7: the database size after a commit, zero in all other frames.
        file->commit_page_next = (header[4] | header[5] | header[6] | header[7]) != 0;
    }
    if (ends_commit) return tabserver_flush(file);
    return SQLITE_OK;
}

static int tabserver_truncate(sqlite3_file *f, sqlite3_int64 size) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xTruncate(file->real, size));
}

static int tabserver_sync(sqlite3_file *f, int flags) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xSync(file->real, flags));
}

static int tabserver_file_size(sqlite3_file *f, sqlite3_int64 *size) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xFileSize(file->real, size));
}

static int tabserver_lock(sqlite3_file *f, int level) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xLock(file->real, level));
}

static int tabserver_unlock(sqlite3_file *f, int level) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xUnlock(file->real, level));
}

static int tabserver_check_reserved(sqlite3_file *f, int *out) {
    tabserver_file *file = (tabserver_file *)f;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static int tabserver_file_control(sqlite3_file *f, int op, void *arg) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xFileControl(file->real, op, arg));
}

static int tabserver_sector_size(sqlite3_file *f) {
    tabserver_file *file = (tabserver_file *)f;
    return file->real->pMethods->xSectorSize(file->real);
}

static int tabserver_device_characteristics(sqlite3_file *f) {
    tabserver_file *file = (tabserver_file *)f;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int tabserver_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    tabserver_file *file = (tabserver_file *)f;
    return file->real->pMethods->xShmMap(file->real, region, size, extend, out);
}

static int tabserver_shm_lock(sqlite3_file *f, int offset, int count, int flags) {
    tabserver_file *file = (tabserver_file *)f;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void tabserver_shm_barrier(sqlite3_file *f) {
    tabserver_file *file = (tabserver_file *)f;
    file->real->pMethods->xShmBarrier(file->real);
}

static int tabserver_shm_unmap(sqlite3_file *f, int delete_flag) {
    tabserver_file *file = (tabserver_file *)f;
    return file->real->pMethods->xShmUnmap(file->real, delete_flag);
}

static int tabserver_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
    tabserver_file *file = (tabserver_file *)f;
    TABSERVER_FLUSH_THEN(file, file->real->pMethods->xFetch(file->real, offset, amount, out));
}

static int tabserver_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    tabserver_file *file = (tabserver_file *)f;
    return file->real->pMethods->xUnfetch(file->real, offset, page);
}

static const sqlite3_io_methods tabserver_io_methods = {
    3,
    tabserver_close,
    tabserver_read,
    tabserver_write,
    tabserver_truncate,
    tabserver_sync,
    tabserver_file_size,
    tabserver_lock,
    tabserver_unlock,
    tabserver_check_reserved,
    tabserver_file_control,
    tabserver_sector_size,
    tabserver_device_characteristics,
    tabserver_shm_map,
    tabserver_shm_lock,
    tabserver_shm_barrier,
    tabserver_shm_unmap,
    tabserver_fetch,
    tabserver_unfetch,
};

static int tabserver_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags) {
    tabserver_file *file = (tabserver_file *)f;
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)(file + 1);
    int rc = root->xOpen(root, name, file->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        // SQLite calls no method of a file whose open failed (pMethods stays NULL).
        return rc;
    }
    if (file->real->pMethods == 0) return rc;
    // The real methods must be version 3 (the unix VFS's are) for the forwarding above.
    if (file->real->pMethods->iVersion < 3) {
        file->real->pMethods->xClose(file->real);
        return SQLITE_CANTOPEN;
    }
    file->is_wal = (flags & SQLITE_OPEN_WAL) != 0;
    if (file->is_wal) file->buffer = (unsigned char *)malloc(TABSERVER_WAL_BUFFER);
    file->base.pMethods = &tabserver_io_methods;
    return SQLITE_OK;
}

static int tabserver_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xDelete(root, name, sync_dir);
}

static int tabserver_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xAccess(root, name, flags, out);
}

static int tabserver_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xFullPathname(root, name, size, out);
}

static int tabserver_randomness(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xRandomness(root, size, out);
}

static int tabserver_sleep(sqlite3_vfs *vfs, int microseconds) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xSleep(root, microseconds);
}

static int tabserver_current_time(sqlite3_vfs *vfs, double *out) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xCurrentTime(root, out);
}

static int tabserver_last_error(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xGetLastError ? root->xGetLastError(root, size, out) : 0;
}

static int tabserver_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    sqlite3_vfs *root = tabserver_root_vfs(vfs);
    return root->xCurrentTimeInt64(root, out);
}

int tabserver_sqlite_register_coalescing_vfs_over(const char *name, const char *root_name) {
    if (name == 0) return SQLITE_MISUSE;
    if (sqlite3_vfs_find(name) != 0) return SQLITE_OK;
    sqlite3_vfs *root = sqlite3_vfs_find(root_name);
    if (root == 0 || root->iVersion < 2) return SQLITE_ERROR;
    // Registered for the life of the process: SQLite keeps the pointer, so it is never freed.
    sqlite3_vfs *vfs = (sqlite3_vfs *)calloc(1, sizeof(sqlite3_vfs));
    char *own_name = strdup(name);
    if (vfs == 0 || own_name == 0) {
        free(vfs);
        free(own_name);
        return SQLITE_NOMEM;
    }
    vfs->iVersion = 2;
    vfs->szOsFile = (int)sizeof(tabserver_file) + root->szOsFile;
    vfs->mxPathname = root->mxPathname;
    vfs->zName = own_name;
    vfs->pAppData = root;
    vfs->xOpen = tabserver_open;
    vfs->xDelete = tabserver_delete;
    vfs->xAccess = tabserver_access;
    vfs->xFullPathname = tabserver_full_pathname;
    vfs->xRandomness = tabserver_randomness;
    vfs->xSleep = tabserver_sleep;
    vfs->xCurrentTime = tabserver_current_time;
    vfs->xGetLastError = tabserver_last_error;
    vfs->xCurrentTimeInt64 = tabserver_current_time_int64;
    int rc = sqlite3_vfs_register(vfs, 0);
    if (rc != SQLITE_OK) {
        free(vfs);
        free(own_name);
    }
    return rc;
}

int tabserver_sqlite_register_coalescing_vfs(void) {
    return tabserver_sqlite_register_coalescing_vfs_over("tabserver-coalesce", 0);
}

const char *tabserver_sqlite_coalescing_vfs_name(void) { return "tabserver-coalesce"; }
