// SPDX-License-Identifier: Apache-2.0
// The engine's Linux calls (see include/CLinuxIO.h). _GNU_SOURCE brings in the
// declarations of accept4, pipe2, memfd_create and getaddrinfo_a, and the memfd and
// sealing constants.
#define _GNU_SOURCE
#include "CLinuxIO.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
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

// One lookup handed to getaddrinfo_a, without a notification (SIGEV_NONE): the caller
// waits for it with gai_suspend, which takes glibc's lock, so what the lookup wrote is seen
// after it. A lookup the caller stops waiting for is cancelled when it is still queued, and
// otherwise kept on the abandoned list until it ends; each call frees the ones that have.
struct tabserver_lookup {
    struct gaicb request;
    struct addrinfo hints;
    struct tabserver_lookup *next;
    char host[256];
    char service[16];
};

static pthread_mutex_t tabserver_abandoned_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tabserver_lookup *tabserver_abandoned = NULL;

static void tabserver_lookup_free(struct tabserver_lookup *lookup) {
    if (lookup->request.ar_result != NULL) freeaddrinfo(lookup->request.ar_result);
    free(lookup);
}

// Whether the lookup has ended (gai_suspend first: it orders what the lookup wrote before
// what is read here).
static int tabserver_lookup_ended(struct tabserver_lookup *lookup) {
    const struct gaicb *list[1] = {&lookup->request};
    struct timespec none = {0, 0};
    gai_suspend(list, 1, &none);
    return gai_error(&lookup->request) != EAI_INPROGRESS;
}

// Lets go of a lookup nobody waits for any more: freed now when glibc no longer has it
// (cancelled while queued, or ended), else kept until it ends.
static void tabserver_lookup_abandon(struct tabserver_lookup *lookup) {
    int cancelled = gai_cancel(&lookup->request);
    if (cancelled == EAI_CANCELED || (cancelled == EAI_ALLDONE && tabserver_lookup_ended(lookup))) {
        tabserver_lookup_free(lookup);
        return;
    }
    pthread_mutex_lock(&tabserver_abandoned_lock);
    lookup->next = tabserver_abandoned;
    tabserver_abandoned = lookup;
    pthread_mutex_unlock(&tabserver_abandoned_lock);
}

int tabserver_resolve_abandoned(void) {
    int running = 0;
    pthread_mutex_lock(&tabserver_abandoned_lock);
    struct tabserver_lookup **link = &tabserver_abandoned;
    while (*link != NULL) {
        struct tabserver_lookup *lookup = *link;
        if (tabserver_lookup_ended(lookup)) {
            *link = lookup->next;
            tabserver_lookup_free(lookup);
        } else {
            running += 1;
            link = &lookup->next;
        }
    }
    pthread_mutex_unlock(&tabserver_abandoned_lock);
    return running;
}

int tabserver_resolve_within(const char *host, const char *service, const struct addrinfo *hints, int timeout_ms,
                             struct addrinfo **result) {
    *result = NULL;
    if (strlen(host) >= sizeof(((struct tabserver_lookup *)0)->host) ||
        strlen(service) >= sizeof(((struct tabserver_lookup *)0)->service))
        return EAI_NONAME;
    if (tabserver_resolve_abandoned() >= TABSERVER_RESOLVE_MOST_ABANDONED) return TABSERVER_RESOLVE_BUSY;
    struct tabserver_lookup *lookup = calloc(1, sizeof *lookup);
    if (lookup == NULL) return EAI_MEMORY;
    strcpy(lookup->host, host);
    strcpy(lookup->service, service);
    lookup->hints = *hints;
    lookup->request.ar_name = lookup->host;
    lookup->request.ar_service = lookup->service;
    lookup->request.ar_request = &lookup->hints;
    struct sigevent none;
    memset(&none, 0, sizeof none);
    none.sigev_notify = SIGEV_NONE;
    struct gaicb *list[1] = {&lookup->request};
    int started = getaddrinfo_a(GAI_NOWAIT, list, 1, &none);
    if (started != 0) {
        // It may have been queued all the same (EAI_AGAIN): only glibc's answer says
        // whether it may be freed.
        tabserver_lookup_abandon(lookup);
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
    int status = EAI_INPROGRESS;
    while (1) {
        struct timespec now, left;
        clock_gettime(CLOCK_MONOTONIC, &now);
        left.tv_sec = deadline.tv_sec - now.tv_sec;
        left.tv_nsec = deadline.tv_nsec - now.tv_nsec;
        if (left.tv_nsec < 0) {
            left.tv_sec -= 1;
            left.tv_nsec += 1000000000L;
        }
        if (left.tv_sec < 0) left.tv_sec = left.tv_nsec = 0;
        gai_suspend((const struct gaicb *const *)list, 1, &left);
        status = gai_error(&lookup->request);
        if (status != EAI_INPROGRESS || (left.tv_sec == 0 && left.tv_nsec == 0)) break;
    }
    if (status == EAI_INPROGRESS) {
        tabserver_lookup_abandon(lookup);
        return TABSERVER_RESOLVE_TIMED_OUT;
    }
    if (status == 0) {
        *result = lookup->request.ar_result;
        lookup->request.ar_result = NULL;
    }
    tabserver_lookup_free(lookup);
    return status;
}
