/* SPDX-License-Identifier: MIT */
/*
 * fault_inject.c -- the wrappers of fault_inject.h.  The counters are atomic:
 * a log's flusher thread makes most writes.  A failed call sets errno and
 * returns what the function returns on that error; it does nothing else.
 */
#define _GNU_SOURCE                     /* the __real_ declarations' types */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>
#include "fault_inject.h"

const char *const fault_kind_names[FAULT_KINDS] = {
    "write", "fsync", "ftruncate", "mmap", "malloc", "shm_open", "open",
};

static atomic_ulong calls[FAULT_KINDS];
static atomic_int window;
static atomic_int armed_kind = -1;
static atomic_ulong armed_n;
static atomic_int injected;

int fault_kind_of(const char *name)
{
    for (int k = 0; k < FAULT_KINDS; k++)
        if (strcmp(name, fault_kind_names[k]) == 0)
            return k;
    return -1;
}

void fault_arm(enum fault_kind kind, unsigned long n)
{
    atomic_store(&armed_kind, n ? (int)kind : -1);
    atomic_store(&armed_n, n);
}

void fault_window(int open) { atomic_store(&window, open); }
unsigned long fault_calls(enum fault_kind kind) { return atomic_load(&calls[kind]); }
int fault_injected(void) { return atomic_load(&injected); }

/* Counts a call of kind; 1 if it is the one to fail. */
static int hit(enum fault_kind kind)
{
    if (!atomic_load(&window))
        return 0;
    unsigned long n = atomic_fetch_add(&calls[kind], 1) + 1;
    if (atomic_load(&armed_kind) != (int)kind || n != atomic_load(&armed_n))
        return 0;
    atomic_store(&injected, 1);
    if (getenv("FAULT_BACKTRACE") != NULL) {    /* where the fault lands: debugging */
        void *frames[12];
        backtrace_symbols_fd(frames, backtrace(frames, 12), 2);
    }
    return 1;
}

#define FAIL(kind, err, ret) do { if (hit(kind)) { errno = (err); return ret; } } while (0)

/* __wrap_NAME: counts the call, fails it if armed (errno err, result bad),
 * else calls the C library's NAME. */
#define WRAP(type, name, kind, err, bad, params, args)                       \
    type __real_##name params;                                                \
    type __wrap_##name params;                                                \
    type __wrap_##name params                                                 \
    {                                                                         \
        FAIL(kind, err, bad);                                                 \
        return __real_##name args;                                            \
    }

WRAP(ssize_t, write, FAULT_WRITE, ENOSPC, -1, (int fd, const void *b, size_t n), (fd, b, n))
WRAP(ssize_t, pwrite, FAULT_WRITE, ENOSPC, -1, (int fd, const void *b, size_t n, off_t o),
     (fd, b, n, o))
WRAP(int, fsync, FAULT_FSYNC, EIO, -1, (int fd), (fd))
WRAP(int, fdatasync, FAULT_FSYNC, EIO, -1, (int fd), (fd))
WRAP(int, ftruncate, FAULT_FTRUNCATE, EIO, -1, (int fd, off_t len), (fd, len))
WRAP(void *, mmap, FAULT_MMAP, ENOMEM, MAP_FAILED,
     (void *a, size_t len, int prot, int flags, int fd, off_t o), (a, len, prot, flags, fd, o))
WRAP(void *, malloc, FAULT_MALLOC, ENOMEM, NULL, (size_t n), (n))
WRAP(void *, calloc, FAULT_MALLOC, ENOMEM, NULL, (size_t n, size_t size), (n, size))
WRAP(void *, realloc, FAULT_MALLOC, ENOMEM, NULL, (void *p, size_t n), (p, n))
WRAP(int, shm_open, FAULT_SHM_OPEN, EMFILE, -1, (const char *name, int flags, mode_t mode),
     (name, flags, mode))
/* With 64-bit file offsets (-D_FILE_OFFSET_BITS=64, the reference's build),
 * glibc's headers name these: the same wrappers under those names. */
WRAP(ssize_t, pwrite64, FAULT_WRITE, ENOSPC, -1, (int fd, const void *b, size_t n, off_t o),
     (fd, b, n, o))
WRAP(int, ftruncate64, FAULT_FTRUNCATE, EIO, -1, (int fd, off_t len), (fd, len))
WRAP(void *, mmap64, FAULT_MMAP, ENOMEM, MAP_FAILED,
     (void *a, size_t len, int prot, int flags, int fd, off_t o), (a, len, prot, flags, fd, o))

int __real_open(const char *path, int flags, ...);
int __real_open64(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __wrap_open64(const char *path, int flags, ...);

/* open and open64: the mode is there only with O_CREAT. */
static int open_with(int (*real)(const char *, int, ...), const char *path, int flags,
                     va_list ap)
{
    mode_t mode = (flags & O_CREAT) ? (mode_t)va_arg(ap, int) : 0;
    FAIL(FAULT_OPEN, EMFILE, -1);
    return real(path, flags, mode);
}

int __wrap_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = open_with(__real_open, path, flags, ap);
    va_end(ap);
    return fd;
}

int __wrap_open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = open_with(__real_open64, path, flags, ap);
    va_end(ap);
    return fd;
}
