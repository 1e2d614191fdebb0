/* SPDX-License-Identifier: MIT */
/*
 * process.h -- the calling process as the tracing system sees it: its
 * process block, the name space its user event names live in, the streams
 * it records into, and the children it may trace (posix/SHARING.md).
 *
 * A process block is a small shared object, one per process that uses the
 * library.  The parent creates its child's block in its fork handler, so both
 * map it: the parent posts there the streams it creates for the child
 * (posix_trace_create with the child's pid) and reads there the child's
 * event names; the child notices a new stream at its next event (one load
 * of the block's posted word).  The block's descriptor is kept open, not
 * close-on-exec, so that a new image finds its block again, and so stays
 * traced (S0321).
 */
#ifndef POSIXTRACE_PROCESS_H
#define POSIXTRACE_PROCESS_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <trace.h>
#include "stream/event_names.h"
#include "shm/shm.h"

#define PB_MAGIC      0x3142504543525450ull     /* "PTRCEPB1" */
#define PB_ATTACH_MAX 64

struct pb {
    uint64_t         magic;
    uint64_t         id;            /* unique among blocks */
    _Atomic int      pid;           /* its process; 0 until the child runs */
    int              ns_shared;     /* uses the names of block ns_id (INHERITED) */
    uint64_t         ns_id;
    struct shm_mutex lock;          /* shared, robust: attach[] */
    _Atomic uint32_t posted;        /* 1: attach[] got a stream since the process
                                     * last looked (proc_post, sync_streams) */
    char             attach[PB_ATTACH_MAX][SHM_NAME_MAX];  /* streams to open */
    struct name_table names;
};

/* The streams the calling process records into, and its state. */
struct stream;
struct attached {
    struct stream *_Atomic s;       /* NULL: free entry */
    size_t         len;             /* its mapping's size */
    int            fd;              /* -1: none, or the controller's */
    int            owned;           /* the mapping and fd are this entry's */
};

struct proc {
    _Atomic uint64_t  mask;         /* bit i: att[i] in use */
    /* The stream when there is just one, else NULL: kept with the mask, as
     * is the pass pointer of __posixtrace_gate (proc_gate below). */
    struct stream *_Atomic one;
    pid_t             pid;
    pthread_mutex_t   lock;         /* guards what follows (local) */
    struct attached   att[64];
    struct pb        *self;         /* this process's block, NULL: none yet */
    int               self_fd;
    struct pb        *ns;           /* the block whose names the process uses */
    int               ns_fd;
    struct name_table *names;       /* &ns->names, or a private table */
    struct pb       **children;     /* blocks of the children it forked */
    unsigned          nchildren, children_cap;
    struct pb        *fork_pb;      /* the block made for the child being forked */
    int               fork_fd;
};

extern struct proc posixtrace_proc;

/* The recording path's first test (<trace.h>: posix_trace_event, inline in
 * the caller, and posix/record.c) reads __posixtrace_gate: the `posted`
 * word of the process's block (a constant 0 with no block, 1 before the
 * process is set up), and the pass bits of its one stream (stream.h), or
 * with no stream bits all clear, with several all set (each stream is
 * tested then).  __seen stays 0, so that binaries built with an earlier
 * <trace.h>, which test posted ^ __seen, test the same.  Written here, as
 * the library's atomics. */
static inline int proc_posted(void)
{
    return __atomic_load_n(__posixtrace_gate.__epoch, __ATOMIC_ACQUIRE) != 0;
}
static inline void proc_set_posted_word(_Atomic uint32_t *w)
{
    __atomic_store_n(&__posixtrace_gate.__epoch, (const unsigned int *)w, __ATOMIC_RELEASE);
}

/* Sets the process up once, with its fork handlers (also done at load by
 * the stream table's constructor: an image that exec left traced finds its
 * streams before main). */
void proc_setup(void);

/* The controller's table tells, through in_use, whether a stream still
 * reads a child's names (stream_table.c): the process knows no table. */
void proc_names_in_use_by(int (*in_use)(const struct name_table *names));

/* The names the process's posix_trace_eventid_open() uses. */
struct name_table *proc_names(void);

/* Handles streams posted to the process's block (its posted word set). */
void proc_sync(void);

/* The streams the caller records into: attach (owned: the entry owns the
 * mapping and fd, else they are the stream table's): 0 or EAGAIN (no free
 * entry); and detach: whether s was attached. */
int  proc_attach(struct stream *s, size_t len, int fd, int owned);
int  proc_detach(struct stream *s);
/* In the child of fork: if s is attached, its entry takes over the mapping
 * and descriptor (kept across exec); returns whether it did. */
int  proc_adopt(struct stream *s, size_t len, int fd);

/* May the caller trace pid?  0 with *target its block (NULL for the caller
 * itself), ESRCH or EPERM (S0088, S0089). */
int  proc_target(pid_t pid, struct pb **target);

/* Posts the stream named name to target's block.  0 or EAGAIN. */
int  proc_post(struct pb *target, const char *name);

/* The names of the process whose block is target (NULL: the caller). */
struct name_table *proc_names_of(struct pb *target);

#endif
