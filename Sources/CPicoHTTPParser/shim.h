// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CPICOHTTPPARSER_SHIM_H
#define TABSERVER_CPICOHTTPPARSER_SHIM_H

#include <stddef.h>

// picohttpparser, the strict and fast HTTP/1.x head parser inside h2o. Debian ships it
// compiled into libh2o-evloop (package libh2o-evloop-dev) but installs no header for it,
// so the two declarations the engine uses are stated here, as the library exports them.

/// One header line: pointers into the caller's buffer. `name` is NULL for an obsolete
/// line folding (a continuation line), which the engine refuses.
struct phr_header {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};

/// Parses a request head in `buf[0..<len]`. Returns the head's length in bytes (the body
/// starts there), -2 when the head is incomplete, -1 when it is malformed. `last_len` is
/// the length given to the previous call for the same buffer (0 the first time), so bytes
/// already checked are not scanned again. On entry `*num_headers` is the capacity of
/// `headers`; on return, how many were found.
int phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len,
                      const char **path, size_t *path_len, int *minor_version,
                      struct phr_header *headers, size_t *num_headers, size_t last_len);

#endif
