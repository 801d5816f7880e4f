#ifndef TABSERVER_CMICROHTTPD_SHIM_H
#define TABSERVER_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions. These non-variadic wrappers are the only
// way the Swift engine reaches the variadic parts of libmicrohttpd's API.

/// MHD_start_daemon with every option passed as one MHD_OPTION_ARRAY (fixed-width
/// items, so no variadic type mistakes are possible).
static inline struct MHD_Daemon *tabserver_mhd_start(unsigned int flags,
                                                      uint16_t port,
                                                      MHD_AccessHandlerCallback handler,
                                                      void *handler_context,
                                                      struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (0 on error): MHD_get_daemon_info is variadic.
static inline uint16_t tabserver_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The peer address of a connection (NULL if unknown): MHD_get_connection_info is variadic.
static inline const struct sockaddr *tabserver_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

#endif
