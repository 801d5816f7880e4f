// SPDX-License-Identifier: Apache-2.0
#ifndef TABSERVER_CLINUXIO_SHIM_H
#define TABSERVER_CLINUXIO_SHIM_H

// The Linux system calls the engine's event loops use that Swift's Glibc module does
// not bring in: epoll and sendfile (their headers are not part of it), and accept4,
// pipe2 and memfd_create, which glibc declares only under _GNU_SOURCE. Defining that
// here would change how other headers (fd_set) look in this module, so those
// prototypes are stated instead.

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
extern int pipe2(int ends[2], int flags);
extern int memfd_create(const char *name, unsigned int flags);

// From <linux/memfd.h> and <linux/fcntl.h> (which clash with glibc's <fcntl.h>).
#define TABSERVER_MFD_CLOEXEC 0x0001U
#define TABSERVER_MFD_ALLOW_SEALING 0x0002U
#define TABSERVER_F_ADD_SEALS 1033
#define TABSERVER_F_SEAL_ALL (0x0001 | 0x0002 | 0x0004 | 0x0008) /* seal, shrink, grow, write */

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

/// An anonymous in-memory file holding a copy of `count` bytes, sealed so it can never
/// change (a static file served with sendfile). Returns its descriptor, or -1 with errno.
static inline int tabserver_memory_file(const void *bytes, size_t count) {
    int fd = memfd_create("tabserver-static", TABSERVER_MFD_CLOEXEC | TABSERVER_MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    size_t written = 0;
    while (written < count) {
        ssize_t n = write(fd, (const char *)bytes + written, count - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int saved = errno;
            close(fd);
            errno = saved ? saved : EIO;
            return -1;
        }
        written += (size_t)n;
    }
    if (fcntl(fd, TABSERVER_F_ADD_SEALS, TABSERVER_F_SEAL_ALL) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// sendfile(2) from `file` at `offset` (not moved in the file) to `socket`.
static inline ssize_t tabserver_sendfile(int socket, int file, int64_t offset, size_t count) {
    off_t position = (off_t)offset;
    return sendfile(socket, file, &position, count);
}

#endif
