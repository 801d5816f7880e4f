// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CLINUXIO_SHIM_H
#define TABSERVER_CLINUXIO_SHIM_H

// The Linux system calls the engine's event loops use that Swift's Glibc module does
// not bring in: epoll (sys/epoll.h is not part of it), and accept4 and pipe2, which
// glibc declares only under _GNU_SOURCE. Defining that here would change how other
// headers (fd_set) look in this module, so the two prototypes are stated instead.

#include <fcntl.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>

extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
extern int pipe2(int ends[2], int flags);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
static inline int tabserver_accept_nonblocking(int listener, struct sockaddr *address, socklen_t *length) {
    return accept4(listener, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// A non-blocking, close-on-exec pipe (the loops' wake-up channel).
static inline int tabserver_pipe_nonblocking(int ends[2]) {
    return pipe2(ends, O_NONBLOCK | O_CLOEXEC);
}

/// Registers, changes or removes interest in `fd` with a 64-bit tag (epoll_event is a
/// packed struct with a union: built here rather than from Swift).
static inline int tabserver_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t tag) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = tag;
    return epoll_ctl(epoll, operation, fd, &event);
}

/// One ready event, unpacked.
struct tabserver_epoll_ready {
    uint32_t events;
    uint64_t tag;
};

/// epoll_wait into a caller buffer of packed events, then unpacks them into `ready`.
static inline int tabserver_epoll_wait(int epoll, struct epoll_event *scratch, struct tabserver_epoll_ready *ready,
                                       int capacity, int timeout_ms) {
    int count = epoll_wait(epoll, scratch, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        ready[i].events = scratch[i].events;
        ready[i].tag = scratch[i].data.u64;
    }
    return count;
}

#endif
