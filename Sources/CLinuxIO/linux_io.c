// SPDX-License-Identifier: Apache-2.0
// The engine's Linux calls (see include/CLinuxIO.h). _GNU_SOURCE brings in the
// declarations of accept4, pipe2 and memfd_create, and the memfd and sealing constants.
#define _GNU_SOURCE
#include "CLinuxIO.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <unistd.h>

int tabserver_accept_nonblocking(int listener, struct sockaddr *address, socklen_t *length) {
    return accept4(listener, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int tabserver_pipe_nonblocking(int ends[2]) { return pipe2(ends, O_NONBLOCK | O_CLOEXEC); }

int tabserver_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t tag) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = tag;
    return epoll_ctl(epoll, operation, fd, &event);
}

int tabserver_epoll_wait(int epoll, struct epoll_event *scratch, struct tabserver_epoll_ready *ready, int capacity,
                         int timeout_ms) {
    int count = epoll_wait(epoll, scratch, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        ready[i].events = scratch[i].events;
        ready[i].tag = scratch[i].data.u64;
    }
    return count;
}

int tabserver_memory_file(const void *bytes, size_t count) {
    int fd = memfd_create("tabserver-static", MFD_CLOEXEC | MFD_ALLOW_SEALING);
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
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

ssize_t tabserver_sendfile(int socket, int file, int64_t offset, size_t count) {
    off_t position = (off_t)offset;
    return sendfile(socket, file, &position, count);
}
