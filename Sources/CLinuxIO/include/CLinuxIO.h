// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CLINUXIO_H
#define TABSERVER_CLINUXIO_H

// The Linux system calls the engine's event loops use that Swift's Glibc module does
// not bring in: epoll and sendfile (their headers are not part of it), and accept4,
// pipe2 and memfd_create, which glibc declares only under _GNU_SOURCE. The calls are
// made in linux_io.c, which defines _GNU_SOURCE for itself; this header stays free of
// it, so other headers (fd_set) look the same here as in Glibc.

#include <netdb.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/types.h>

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
int tabserver_accept_nonblocking(int listener, struct sockaddr *address, socklen_t *length);

/// A non-blocking, close-on-exec pipe (the loops' wake-up channel).
int tabserver_pipe_nonblocking(int ends[2]);

/// Registers, changes or removes interest in `fd` with a 64-bit tag (epoll_event is a
/// packed struct with a union: built in C rather than from Swift).
int tabserver_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t tag);

/// One ready event, unpacked.
struct tabserver_epoll_ready {
    uint32_t events;
    uint64_t tag;
};

/// epoll_wait into a caller buffer of packed events, then unpacks them into `ready`.
int tabserver_epoll_wait(int epoll, struct epoll_event *scratch, struct tabserver_epoll_ready *ready, int capacity,
                         int timeout_ms);

/// An anonymous in-memory file holding a copy of `count` bytes, sealed so it can never
/// change (a static file served with sendfile). Returns its descriptor, or -1 with errno.
int tabserver_memory_file(const void *bytes, size_t count);

/// sendfile(2) from `file` at `offset` (not moved in the file) to `socket`.
ssize_t tabserver_sendfile(int socket, int file, int64_t offset, size_t count);

/// What tabserver_resolve_within answers when the name did not resolve in time.
#define TABSERVER_RESOLVE_TIMED_OUT (-1000)
/// What tabserver_resolve_within answers, asking nothing, while this many lookups that
/// timed out are still running: glibc's pool of lookup threads is small, and a name whose
/// servers never answer could otherwise keep every other lookup waiting behind it.
#define TABSERVER_RESOLVE_BUSY (-1001)
#define TABSERVER_RESOLVE_MOST_ABANDONED 8

/// getaddrinfo(3) bounded in time: the name is looked up by glibc's asynchronous resolver
/// (getaddrinfo_a) and waited for at most `timeout_ms`. Returns 0 with the list in
/// `*result` (free it with freeaddrinfo), a getaddrinfo error code,
/// TABSERVER_RESOLVE_TIMED_OUT or TABSERVER_RESOLVE_BUSY. A lookup that times out is
/// cancelled if it is still queued, else left to end in glibc's thread and freed by a
/// later call; the caller is not held.
int tabserver_resolve_within(const char *host, const char *service, const struct addrinfo *hints, int timeout_ms,
                             struct addrinfo **result);

/// Frees the lookups that timed out and have ended since; returns how many still run.
int tabserver_resolve_abandoned(void);

#endif
