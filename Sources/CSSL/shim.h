// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CSSL_SHIM_H
#define TABSERVER_CSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

// OpenSSL spells these as macros over SSL_CTX_ctrl or as shifted option bits, which
// Swift cannot import; each wrapper is the macro, nothing more.

/// SSL_CTX_set_min_proto_version (a macro).
static inline int cssl_ctx_set_min_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

/// SSL_CTX_set_max_proto_version (a macro).
static inline int cssl_ctx_set_max_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_max_proto_version(context, version);
}

/// SSL_CTX_set_mode (a macro): partial writes, a write buffer that may move between
/// retries (the engine's buffer grows), and record buffers released while idle.
static inline void cssl_ctx_set_server_modes(SSL_CTX *context) {
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                                  | SSL_MODE_RELEASE_BUFFERS);
}

/// SSL_CTX_set_options with SSL_OP_* bits (macros over SSL_OP_BIT): no renegotiation,
/// no compression, and a peer's close without close_notify read as an end of file (as
/// over plain TCP: a client may half-close after its request); session tickets stay on.
static inline void cssl_ctx_set_server_options(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_IGNORE_UNEXPECTED_EOF);
}

/// SSL_CTX_set_session_cache_mode (a macro): no server-side cache; resumption is by
/// ticket only, so no cache is shared (and locked) between the engine's threads.
static inline void cssl_ctx_disable_session_cache(SSL_CTX *context) {
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
}

/// SSL_CTX_set1_groups_list (a macro).
static inline int cssl_ctx_set_groups(SSL_CTX *context, const char *groups) {
    return (int)SSL_CTX_set1_groups_list(context, groups);
}

/// SSL_CTX_add0_chain_cert (a macro): the context takes ownership of `certificate`.
static inline int cssl_ctx_add_chain_certificate(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add0_chain_cert(context, certificate);
}

/// SSL_set_tlsext_host_name (a macro): the server name (SNI) a client asks for.
static inline int cssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

#endif
