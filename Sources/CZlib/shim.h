// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CZLIB_SHIM_H
#define TABSERVER_CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 is a macro that Swift cannot import; this wrapper passes the version
// and struct size the macro would. windowBits 31 = 15 (32 KiB window) + 16 (gzip wrapper).
static inline int tabserver_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2_(stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY,
                         ZLIB_VERSION, (int)sizeof(z_stream));
}

// inflateInit2 is a macro too; used by tests to check what the server compressed.
static inline int tabserver_inflate_init_gzip(z_stream *stream) {
    return inflateInit2_(stream, 31, ZLIB_VERSION, (int)sizeof(z_stream));
}

#endif
