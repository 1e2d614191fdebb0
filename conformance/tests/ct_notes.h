/* SPDX-License-Identifier: MIT */
/*
 * ct_notes.h -- the page of notes a test keeps for the runner, shared by the
 * portable tests' framework (ct.c) and the vector interpreter
 * (harness/vec/vec_progress.c).  harness/run.py names a file in CT_PROGRESS; the
 * test maps it and keeps there, NUL-terminated, the trace call it is in
 * ("call <function> <file>:<line>", "returned ..." after, "stopped ..." when
 * CT_STOP_AT named it, "stopped-after ..." when CT_STOP_HUNG_AFTER did) in
 * the first CT_NOTE bytes and the last check that
 * passed ("check <file>:<line> <count>") in the next.  Mapped, not written:
 * a note costs a few stores, and the runner reads it after it has killed a
 * test that hung, whatever state the process was in (harness/runner/protocol.py,
 * read_progress).  Threads of a test write it without a lock (a lock could
 * be held by a thread that hangs): a note may come out garbled, never longer
 * than CT_NOTE, and the runner then says less.  Included by C files only;
 * needs _POSIX_C_SOURCE.
 */
#ifndef CT_NOTES_H
#define CT_NOTES_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CT_NOTE 256

/* The mapped page of CT_PROGRESS, zeroed; NULL if there is none (the
 * runner asked for no notes, or the file cannot be mapped: it says less). */
static inline char *ct_notes_open(void)
{
    const char *path = getenv("CT_PROGRESS");
    char *page = NULL;
    if (path == NULL || *path == '\0')
        return NULL;
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    if (fd < 0)
        return NULL;
    if (ftruncate(fd, 2 * CT_NOTE) == 0) {
        void *p = mmap(NULL, 2 * CT_NOTE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p != MAP_FAILED) {
            page = p;
            memset(page, 0, 2 * CT_NOTE);
        }
    }
    close(fd);
    return page;
}

/* Is name one of the comma-separated names of list (CT_OPTIONS, CT_STOP_AT, ...)? */
static inline int ct_in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (end != NULL);
    }
    return 0;
}

#endif /* CT_NOTES_H */
