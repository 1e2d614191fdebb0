/* SPDX-License-Identifier: MIT */
/*
 * shm.h -- shared memory objects: the backing of trace streams and process
 * blocks (posix/SHARING.md).
 *
 * An object is a POSIX shared memory object mapped MAP_SHARED.  Its name is
 * unlinked at once unless another process must open it by name (a stream
 * created for another process); the descriptor is what keeps it reachable
 * across exec.  In a live process a mapping that a recording thread may still
 * be using is never unmapped but retired: replaced in place by private zero
 * pages, so that a late reader of it finds a free, unlocked object.
 */
#ifndef POSIXTRACE_SHM_H
#define POSIXTRACE_SHM_H

#include <stddef.h>
#include "shm/shm_lock.h"

#define SHM_NAME_MAX 48

/* Creates an object of len bytes (zero-filled), maps it read-write and
 * returns it (*fd its descriptor, close-on-exec).  If name is not NULL its
 * name is kept and copied there (SHM_NAME_MAX bytes); otherwise it is
 * unlinked, and where the system has no shared memory objects (no /dev/shm)
 * an anonymous shared mapping stands in (*fd is then -1: the object is
 * shared with children forked later, and does not survive exec).  NULL with
 * errno set (ENOMEM, ENOSPC, EMFILE, ...).  Before it names an object it
 * unlinks the names left by creators that have ended (shm.c). */
void *shm_object_create(size_t len, char *name, int *fd);

/* Maps the whole object open on fd (its size from fstat) read-write; *len
 * is its size.  NULL on failure or if it is smaller than min. */
void *shm_object_map(int fd, size_t min, size_t *len);

/* Replaces a mapping by private zero pages at the same address. */
void shm_object_retire(void *addr, size_t len);

/* Sets or clears FD_CLOEXEC on fd (nothing for fd -1). */
void shm_set_cloexec(int fd, int on);

#endif
