// SPDX-License-Identifier: Apache-2.0
// A test VFS that simulates power loss (see include/CSQLitePowerLossVFS.h). Files live
// in memory, so thousands of crashes cost milliseconds and no disk syncs. Written for
// TabServer's tests.
#include "CSQLitePowerLossVFS.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct powerloss_bytes {
    unsigned char *data;
    sqlite3_int64 size;
    sqlite3_int64 capacity;
} powerloss_bytes;

typedef struct powerloss_node {
    char *name;
    powerloss_bytes current;  // what reads see
    powerloss_bytes durable;  // what survives a crash: the content at the last sync
    int is_wal;
    int open_count;  // files open on it: a deleted node is freed when the last closes
    int unlinked;
    struct powerloss_node *next;
} powerloss_node;

typedef struct powerloss_file {
    sqlite3_file base;
    powerloss_node *node;
    int delete_on_close;
} powerloss_file;

static pthread_mutex_t powerloss_lock = PTHREAD_MUTEX_INITIALIZER;
static powerloss_node *powerloss_nodes = 0;
static long powerloss_operation_count = 0;
static long powerloss_wal_sync_count = 0;
static long powerloss_allowed = -1;  // operations that may still succeed; negative: all
static int powerloss_power_out = 0;
static long powerloss_anonymous = 0;

static int powerloss_reserve(powerloss_bytes *bytes, sqlite3_int64 size) {
    if (size <= bytes->capacity) return SQLITE_OK;
    sqlite3_int64 capacity = bytes->capacity ? bytes->capacity : 4096;
    while (capacity < size) capacity *= 2;
    unsigned char *grown = (unsigned char *)realloc(bytes->data, (size_t)capacity);
    if (grown == 0) return SQLITE_NOMEM;
    bytes->data = grown;
    bytes->capacity = capacity;
    return SQLITE_OK;
}

static int powerloss_copy(powerloss_bytes *to, const powerloss_bytes *from) {
    if (powerloss_reserve(to, from->size) != SQLITE_OK) return SQLITE_NOMEM;
    if (from->size > 0) memcpy(to->data, from->data, (size_t)from->size);
    to->size = from->size;
    return SQLITE_OK;
}

static powerloss_node *powerloss_find(const char *name) {
    for (powerloss_node *node = powerloss_nodes; node; node = node->next) {
        if (strcmp(node->name, name) == 0) return node;
    }
    return 0;
}

static void powerloss_free_node(powerloss_node *node) {
    free(node->current.data);
    free(node->durable.data);
    free(node->name);
    free(node);
}

static void powerloss_unlink(powerloss_node *gone) {
    for (powerloss_node **link = &powerloss_nodes; *link; link = &(*link)->next) {
        if (*link == gone) {
            *link = gone->next;
            gone->unlinked = 1;
            if (gone->open_count == 0) powerloss_free_node(gone);
            return;
        }
    }
}

// Counts one operation that changes a file; says whether the power is still on for it.
static int powerloss_spend(void) {
    if (powerloss_power_out) return 0;
    if (powerloss_allowed == 0) {
        powerloss_power_out = 1;
        return 0;
    }
    if (powerloss_allowed > 0) powerloss_allowed--;
    powerloss_operation_count++;
    return 1;
}

static int powerloss_close(sqlite3_file *f) {
    powerloss_file *file = (powerloss_file *)f;
    pthread_mutex_lock(&powerloss_lock);
    powerloss_node *node = file->node;
    if (node) {
        node->open_count--;
        if (file->delete_on_close && !node->unlinked) {
            powerloss_unlink(node);
        } else if (node->unlinked && node->open_count == 0) {
            powerloss_free_node(node);
        }
    }
    file->node = 0;
    pthread_mutex_unlock(&powerloss_lock);
    return SQLITE_OK;
}

static int powerloss_read(sqlite3_file *f, void *out, int amount, sqlite3_int64 offset) {
    powerloss_file *file = (powerloss_file *)f;
    pthread_mutex_lock(&powerloss_lock);
    powerloss_bytes *bytes = &file->node->current;
    sqlite3_int64 available = bytes->size > offset ? bytes->size - offset : 0;
    if (available > amount) available = amount;
    if (available > 0) memcpy(out, bytes->data + offset, (size_t)available);
    pthread_mutex_unlock(&powerloss_lock);
    if (available < amount) {
        memset((char *)out + available, 0, (size_t)(amount - available));
        return SQLITE_IOERR_SHORT_READ;
    }
    return SQLITE_OK;
}

static int powerloss_write(sqlite3_file *f, const void *data, int amount, sqlite3_int64 offset) {
    powerloss_file *file = (powerloss_file *)f;
    int rc = SQLITE_OK;
    pthread_mutex_lock(&powerloss_lock);
    if (!powerloss_spend()) {
        rc = SQLITE_IOERR_WRITE;
    } else {
        powerloss_bytes *bytes = &file->node->current;
        sqlite3_int64 end = offset + amount;
        rc = powerloss_reserve(bytes, end);
        if (rc == SQLITE_OK) {
            if (offset > bytes->size) memset(bytes->data + bytes->size, 0, (size_t)(offset - bytes->size));
            memcpy(bytes->data + offset, data, (size_t)amount);
            if (end > bytes->size) bytes->size = end;
        }
    }
    pthread_mutex_unlock(&powerloss_lock);
    return rc;
}

static int powerloss_truncate(sqlite3_file *f, sqlite3_int64 size) {
    powerloss_file *file = (powerloss_file *)f;
    int rc = SQLITE_OK;
    pthread_mutex_lock(&powerloss_lock);
    if (!powerloss_spend()) {
        rc = SQLITE_IOERR_TRUNCATE;
    } else if (size < file->node->current.size) {
        file->node->current.size = size;
    }
    pthread_mutex_unlock(&powerloss_lock);
    return rc;
}

static int powerloss_sync(sqlite3_file *f, int flags) {
    (void)flags;
    powerloss_file *file = (powerloss_file *)f;
    int rc = SQLITE_OK;
    pthread_mutex_lock(&powerloss_lock);
    if (!powerloss_spend()) {
        rc = SQLITE_IOERR_FSYNC;
    } else {
        rc = powerloss_copy(&file->node->durable, &file->node->current);
        if (rc == SQLITE_OK && file->node->is_wal) powerloss_wal_sync_count++;
    }
    pthread_mutex_unlock(&powerloss_lock);
    return rc;
}

static int powerloss_file_size(sqlite3_file *f, sqlite3_int64 *size) {
    powerloss_file *file = (powerloss_file *)f;
    pthread_mutex_lock(&powerloss_lock);
    *size = file->node->current.size;
    pthread_mutex_unlock(&powerloss_lock);
    return SQLITE_OK;
}

static int powerloss_lock_file(sqlite3_file *f, int level) {
    (void)f;
    (void)level;
    return SQLITE_OK;
}

static int powerloss_check_reserved(sqlite3_file *f, int *out) {
    (void)f;
    *out = 0;
    return SQLITE_OK;
}

static int powerloss_file_control(sqlite3_file *f, int op, void *arg) {
    (void)f;
    (void)op;
    (void)arg;
    return SQLITE_NOTFOUND;
}

static int powerloss_sector_size(sqlite3_file *f) {
    (void)f;
    return 4096;
}

// As the unix VFS says by default: a write never damages bytes around it.
static int powerloss_device_characteristics(sqlite3_file *f) {
    (void)f;
    return SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

// No shared memory: the store runs in locking_mode = EXCLUSIVE, where SQLite keeps the
// WAL index on the heap and never maps it.
static int powerloss_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    (void)f;
    (void)region;
    (void)size;
    (void)extend;
    *out = 0;
    return SQLITE_IOERR_SHMMAP;
}

static int powerloss_shm_lock(sqlite3_file *f, int offset, int count, int flags) {
    (void)f;
    (void)offset;
    (void)count;
    (void)flags;
    return SQLITE_IOERR_SHMLOCK;
}

static void powerloss_shm_barrier(sqlite3_file *f) { (void)f; }

static int powerloss_shm_unmap(sqlite3_file *f, int delete_flag) {
    (void)f;
    (void)delete_flag;
    return SQLITE_OK;
}

static int powerloss_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
    (void)f;
    (void)offset;
    (void)amount;
    *out = 0;
    return SQLITE_OK;
}

static int powerloss_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    (void)f;
    (void)offset;
    (void)page;
    return SQLITE_OK;
}

static const sqlite3_io_methods powerloss_io_methods = {
    3,
    powerloss_close,
    powerloss_read,
    powerloss_write,
    powerloss_truncate,
    powerloss_sync,
    powerloss_file_size,
    powerloss_lock_file,
    powerloss_lock_file,
    powerloss_check_reserved,
    powerloss_file_control,
    powerloss_sector_size,
    powerloss_device_characteristics,
    powerloss_shm_map,
    powerloss_shm_lock,
    powerloss_shm_barrier,
    powerloss_shm_unmap,
    powerloss_fetch,
    powerloss_unfetch,
};

static int powerloss_ends_with(const char *text, const char *suffix) {
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return length >= suffix_length && strcmp(text + length - suffix_length, suffix) == 0;
}

static int powerloss_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags) {
    (void)vfs;
    powerloss_file *file = (powerloss_file *)f;
    memset(file, 0, sizeof(*file));
    char anonymous[64];
    pthread_mutex_lock(&powerloss_lock);
    if (name == 0) {
        snprintf(anonymous, sizeof(anonymous), "powerloss-temporary-%ld", ++powerloss_anonymous);
        name = anonymous;
    }
    powerloss_node *node = powerloss_find(name);
    if (node == 0) {
        if ((flags & SQLITE_OPEN_CREATE) == 0) {
            pthread_mutex_unlock(&powerloss_lock);
            return SQLITE_CANTOPEN;
        }
        node = (powerloss_node *)calloc(1, sizeof(powerloss_node));
        if (node) node->name = strdup(name);
        if (node == 0 || node->name == 0) {
            free(node);
            pthread_mutex_unlock(&powerloss_lock);
            return SQLITE_NOMEM;
        }
        node->is_wal = powerloss_ends_with(name, "-wal");
        node->next = powerloss_nodes;
        powerloss_nodes = node;
    }
    node->open_count++;
    file->node = node;
    file->delete_on_close = (flags & SQLITE_OPEN_DELETEONCLOSE) != 0;
    pthread_mutex_unlock(&powerloss_lock);
    if (out_flags) *out_flags = flags;
    file->base.pMethods = &powerloss_io_methods;
    return SQLITE_OK;
}

// A delete is taken as durable at once (the directory entry is synced).
static int powerloss_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    (void)sync_dir;
    int rc = SQLITE_OK;
    pthread_mutex_lock(&powerloss_lock);
    if (!powerloss_spend()) {
        rc = SQLITE_IOERR_DELETE;
    } else {
        powerloss_node *node = powerloss_find(name);
        if (node) {
            powerloss_unlink(node);
        } else {
            rc = SQLITE_IOERR_DELETE_NOENT;
        }
    }
    pthread_mutex_unlock(&powerloss_lock);
    return rc;
}

static int powerloss_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    pthread_mutex_lock(&powerloss_lock);
    powerloss_node *node = powerloss_find(name);
    // As the unix VFS: an empty file does not count as existing.
    *out = node != 0 && (flags != SQLITE_ACCESS_EXISTS || node->current.size > 0);
    pthread_mutex_unlock(&powerloss_lock);
    return SQLITE_OK;
}

static int powerloss_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    snprintf(out, (size_t)size, "%s", name);
    return SQLITE_OK;
}

static sqlite3_vfs *powerloss_base(void) { return sqlite3_vfs_find(0); }

static int powerloss_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return powerloss_base()->xRandomness(powerloss_base(), size, out);
}

static int powerloss_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return powerloss_base()->xSleep(powerloss_base(), microseconds);
}

static int powerloss_current_time(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return powerloss_base()->xCurrentTime(powerloss_base(), out);
}

static int powerloss_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    (void)size;
    (void)out;
    return 0;
}

static int powerloss_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return powerloss_base()->xCurrentTimeInt64(powerloss_base(), out);
}

int tabserver_powerloss_register(const char *name) {
    static sqlite3_vfs vfs;
    static char own_name[128];
    if (sqlite3_vfs_find(name) != 0) return SQLITE_OK;
    sqlite3_vfs *base = sqlite3_vfs_find(0);
    if (base == 0 || base->iVersion < 2 || strlen(name) >= sizeof(own_name) || vfs.zName != 0) return SQLITE_ERROR;
    snprintf(own_name, sizeof(own_name), "%s", name);
    vfs.iVersion = 2;
    vfs.szOsFile = (int)sizeof(powerloss_file);
    vfs.mxPathname = 512;
    vfs.zName = own_name;
    vfs.xOpen = powerloss_open;
    vfs.xDelete = powerloss_delete;
    vfs.xAccess = powerloss_access;
    vfs.xFullPathname = powerloss_full_pathname;
    vfs.xRandomness = powerloss_randomness;
    vfs.xSleep = powerloss_sleep;
    vfs.xCurrentTime = powerloss_current_time;
    vfs.xGetLastError = powerloss_last_error;
    vfs.xCurrentTimeInt64 = powerloss_current_time_int64;
    return sqlite3_vfs_register(&vfs, 0);
}

void tabserver_powerloss_fail_after(long operations) {
    pthread_mutex_lock(&powerloss_lock);
    powerloss_allowed = operations < 0 ? -1 : operations;
    powerloss_power_out = 0;
    pthread_mutex_unlock(&powerloss_lock);
}

void tabserver_powerloss_crash(void) {
    pthread_mutex_lock(&powerloss_lock);
    for (powerloss_node *node = powerloss_nodes; node; node = node->next) {
        if (powerloss_copy(&node->current, &node->durable) != SQLITE_OK) abort();  // a test helper: no memory left
    }
    powerloss_allowed = -1;
    powerloss_power_out = 0;
    pthread_mutex_unlock(&powerloss_lock);
}

void tabserver_powerloss_reset(void) {
    pthread_mutex_lock(&powerloss_lock);
    while (powerloss_nodes) {
        powerloss_node *next = powerloss_nodes->next;
        powerloss_free_node(powerloss_nodes);
        powerloss_nodes = next;
    }
    powerloss_operation_count = 0;
    powerloss_wal_sync_count = 0;
    powerloss_allowed = -1;
    powerloss_power_out = 0;
    pthread_mutex_unlock(&powerloss_lock);
}

long tabserver_powerloss_operations(void) {
    pthread_mutex_lock(&powerloss_lock);
    long count = powerloss_operation_count;
    pthread_mutex_unlock(&powerloss_lock);
    return count;
}

long tabserver_powerloss_wal_syncs(void) {
    pthread_mutex_lock(&powerloss_lock);
    long count = powerloss_wal_sync_count;
    pthread_mutex_unlock(&powerloss_lock);
    return count;
}
