// SPDX-License-Identifier: Apache-2.0
// The engine's Linux calls (see include/CLinuxIO.h). _GNU_SOURCE brings in the
// declarations of accept4, pipe2, memfd_create and getaddrinfo_a, and the memfd and
// sealing constants.
#define _GNU_SOURCE
#include "CLinuxIO.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

// One lookup handed to getaddrinfo_a. Two owners share it: the caller waiting for it and
// glibc's notification when it ends (always sent, even after the caller gave up). The one
// that lets go last frees it, and the list, unless the caller took the list.
struct tabserver_lookup {
    struct gaicb request;
    struct addrinfo hints;
    atomic_int owners;
    char host[256];
    char service[16];
};

static void tabserver_lookup_release(struct tabserver_lookup *lookup) {
    if (atomic_fetch_sub_explicit(&lookup->owners, 1, memory_order_acq_rel) != 1) return;
    if (lookup->request.ar_result != NULL) freeaddrinfo(lookup->request.ar_result);
    free(lookup);
}

static void tabserver_lookup_ended(union sigval value) { tabserver_lookup_release(value.sival_ptr); }

int tabserver_resolve_within(const char *host, const char *service, const struct addrinfo *hints, int timeout_ms,
                             struct addrinfo **result) {
    *result = NULL;
    if (strlen(host) >= sizeof(((struct tabserver_lookup *)0)->host) ||
        strlen(service) >= sizeof(((struct tabserver_lookup *)0)->service))
        return EAI_NONAME;
    struct tabserver_lookup *lookup = calloc(1, sizeof *lookup);
    if (lookup == NULL) return EAI_MEMORY;
    strcpy(lookup->host, host);
    strcpy(lookup->service, service);
    lookup->hints = *hints;
    lookup->request.ar_name = lookup->host;
    lookup->request.ar_service = lookup->service;
    lookup->request.ar_request = &lookup->hints;
    atomic_init(&lookup->owners, 2);
    struct sigevent ended;
    memset(&ended, 0, sizeof ended);
    ended.sigev_notify = SIGEV_THREAD;
    ended.sigev_notify_function = tabserver_lookup_ended;
    ended.sigev_value.sival_ptr = lookup;
    struct gaicb *list[1] = {&lookup->request};
    int started = getaddrinfo_a(GAI_NOWAIT, list, 1, &ended);
    if (started != 0) {
        free(lookup);
        return started;
    }
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    int status = gai_error(&lookup->request);
    while (status == EAI_INPROGRESS) {
        struct timespec now, left;
        clock_gettime(CLOCK_MONOTONIC, &now);
        left.tv_sec = deadline.tv_sec - now.tv_sec;
        left.tv_nsec = deadline.tv_nsec - now.tv_nsec;
        if (left.tv_nsec < 0) {
            left.tv_sec -= 1;
            left.tv_nsec += 1000000000L;
        }
        if (left.tv_sec < 0) break;
        gai_suspend((const struct gaicb *const *)list, 1, &left);
        status = gai_error(&lookup->request);
    }
    if (status == EAI_INPROGRESS) {
        tabserver_lookup_release(lookup);
        return TABSERVER_RESOLVE_TIMED_OUT;
    }
    if (status == 0) {
        *result = lookup->request.ar_result;
        lookup->request.ar_result = NULL;
    }
    tabserver_lookup_release(lookup);
    return status;
}
