/* SPDX-License-Identifier: MIT */
/* shm.c -- shared memory objects (shm.h). */
#define _DEFAULT_SOURCE                 /* MAP_ANONYMOUS */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "shm/shm.h"

/* The creator's mapping is populated: the pages of a stream are taken when
 * it is created, not one by one while events are recorded into it (a fault
 * a page, some microseconds each in a virtual machine: a FLUSH stream's
 * first pass lost events to them). */
#ifdef MAP_POPULATE
#define SHM_POPULATE MAP_POPULATE
#else
#define SHM_POPULATE 0
#endif

static void *anonymous(size_t len, int *fd)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | SHM_POPULATE,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    *fd = -1;
    return p;
}

/* Would a file of len bytes pass RLIMIT_FSIZE?  (Shared memory objects
 * count as files: past the limit ftruncate raises SIGXFSZ.) */
static int size_allowed(size_t len)
{
    struct rlimit rl;
    return getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
           (rlim_t)len <= rl.rlim_cur;
}

/* A named object waits for the process it was created for to open it (and
 * unlink it).  If its creator and that process both die first, nothing
 * unlinks it: before it names an object of its own, the library removes
 * those of creators that have gone.  A creator still running, or a pid
 * reused since, keeps its names.  Linux keeps the names in /dev/shm. */
static void sweep_orphans(void)
{
    DIR *d = opendir("/dev/shm");
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid;
        unsigned n;
        char name[SHM_NAME_MAX + 1];
        size_t len = strlen(e->d_name);
        if (len >= SHM_NAME_MAX || strncmp(e->d_name, "posixtrace.", 11) != 0 ||
            sscanf(e->d_name, "posixtrace.%ld.%u.", &pid, &n) != 2 || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        name[0] = '/';
        memcpy(name + 1, e->d_name, len + 1);
        shm_unlink(name);
    }
    closedir(d);
}

void *shm_object_create(size_t len, char *name, int *fd)
{
    static _Atomic unsigned counter;    /* only makes names differ */
    char buf[SHM_NAME_MAX];
    int f = -1;
    if (!size_allowed(len)) {
        if (name == NULL)
            return anonymous(len, fd);
        errno = ENOMEM;
        return NULL;
    }
    if (name != NULL)
        sweep_orphans();
    for (int tries = 0; f < 0 && tries < 64; tries++) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        snprintf(buf, sizeof buf, "/posixtrace.%ld.%u.%lx", (long)getpid(),
                 atomic_fetch_add(&counter, 1), (unsigned long)t.tv_nsec);
        f = shm_open(buf, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (f < 0 && errno != EEXIST)
            break;
    }
    if (f < 0 && name == NULL && errno != EEXIST && errno != EMFILE && errno != ENFILE)
        return anonymous(len, fd);      /* no /dev/shm */
    if (f < 0)
        return NULL;
    if (name == NULL)
        shm_unlink(buf);
    if (ftruncate(f, (off_t)len) != 0) {
        int e = errno == EFBIG || errno == EINVAL ? ENOMEM : errno;
        if (name != NULL)
            shm_unlink(buf);
        close(f);
        errno = e;
        return NULL;
    }
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | SHM_POPULATE, f, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        if (name != NULL)
            shm_unlink(buf);
        close(f);
        errno = e;
        return NULL;
    }
    if (name != NULL)
        snprintf(name, SHM_NAME_MAX, "%s", buf);
    *fd = f;
    return p;
}

void *shm_object_map(int fd, size_t min, size_t *len)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || (size_t)sb.st_size < min)
        return NULL;
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return NULL;
    *len = (size_t)sb.st_size;
    return p;
}

void shm_object_retire(void *addr, size_t len)
{
    /* If this fails the shared pages stay mapped: memory kept, never a
     * dangling address. */
    mmap(addr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

void shm_set_cloexec(int fd, int on)
{
    if (fd < 0)
        return;
    int fl = fcntl(fd, F_GETFD);
    if (fl >= 0)
        fcntl(fd, F_SETFD, on ? fl | FD_CLOEXEC : fl & ~FD_CLOEXEC);
}
