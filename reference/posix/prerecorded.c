/* SPDX-License-Identifier: MIT */
/*
 * prerecorded.c -- pre-recorded trace streams (XSH posix_trace_close:
 * posix_trace_open, posix_trace_rewind, posix_trace_close; and the reading
 * functions given a trace id from open).  The log is read by log_reader.c.
 *
 * Opened logs are not streams: they have a table of their own, which grows
 * as needed (up to 65536 at once), so that they never count against
 * {TRACE_SYS_MAX}.  Process-wide state forced by the API: a trace id must
 * name the opened log.  A trace id is TRID_LOG_BIT | generation << 16 |
 * index; the generation grows when the log is closed, so that a closed id
 * is recognised (EINVAL) even after its index is reused.
 *
 * Locking: the table lock guards the table; each opened log has a lock of
 * its own, taken while the table lock is held (so that close, which holds
 * the table lock and then the log's, frees a log no other thread holds).
 * fork: the child keeps none of its parent's opened logs (their ids give
 * EINVAL there, as a stream's do).  exit: every log still open is closed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "stream/event_names.h"
#include "log/log_reader.h"
#include "posix/prerecorded.h"
#include "stream/stream.h"

#define INDEX_BITS  16
#define INDEX_MAX   (1u << INDEX_BITS)
#define GEN_MASK    ((TRID_LOG_BIT - 1) >> INDEX_BITS)

struct open_log {
    pthread_mutex_t lock;
    struct log_reader *r;
    unsigned typelist_pos;          /* cursor of eventtypelist_getnext_id */
    uint64_t held;                  /* events the log holds, once counted */
    int counted;                    /* (a log once open does not change) */
};

struct entry {
    struct open_log *log;           /* NULL: free */
    trace_id_t gen;
};

static struct {
    pthread_mutex_t lock;
    struct entry *slots;
    unsigned cap;
} opened = { .lock = PTHREAD_MUTEX_INITIALIZER };

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void free_log(struct open_log *ol)
{
    log_reader_close(ol->r);
    free(ol);
}

static void before_fork(void)
{
    pthread_mutex_lock(&opened.lock);
}

static void after_fork_in_parent(void)
{
    pthread_mutex_unlock(&opened.lock);
}

/* The parent's logs are not the child's.  Their locks may be held by
 * threads that do not exist here: they are freed, never locked. */
static void after_fork_in_child(void)
{
    for (unsigned i = 0; i < opened.cap; i++)
        if (opened.slots[i].log != NULL)
            free_log(opened.slots[i].log);
    free(opened.slots);
    opened.slots = NULL;
    opened.cap = 0;
    pthread_mutex_init(&opened.lock, NULL);
}

static void init(void)
{
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

static trace_id_t trid_of(unsigned i)
{
    return TRID_LOG_BIT | (opened.slots[i].gen & GEN_MASK) << INDEX_BITS | i;
}

/* Locks and returns the opened log trid names, or NULL. */
static struct open_log *log_acquire(trace_id_t trid)
{
    if (!trid_is_log(trid))
        return NULL;
    pthread_once(&once, init);
    unsigned i = (unsigned)(trid & (INDEX_MAX - 1));
    struct open_log *ol = NULL;
    pthread_mutex_lock(&opened.lock);
    if (i < opened.cap && opened.slots[i].log != NULL && trid_of(i) == trid) {
        ol = opened.slots[i].log;
        pthread_mutex_lock(&ol->lock);
    }
    pthread_mutex_unlock(&opened.lock);
    return ol;
}

static void log_release(struct open_log *ol)
{
    pthread_mutex_unlock(&ol->lock);
}

/* A free index (the table grown if needed), or -1. */
static int free_index(void)
{
    for (unsigned i = 0; i < opened.cap; i++)
        if (opened.slots[i].log == NULL)
            return (int)i;
    if (opened.cap == INDEX_MAX)
        return -1;
    unsigned cap = opened.cap ? 2 * opened.cap : 16;
    struct entry *t = realloc(opened.slots, cap * sizeof *t);
    if (t == NULL)
        return -1;
    memset(t + opened.cap, 0, (cap - opened.cap) * sizeof *t);
    int i = (int)opened.cap;
    opened.slots = t;
    opened.cap = cap;
    return i;
}

int posix_trace_open(int fd, trace_id_t *trid)
{
    if (trid == NULL)
        return EINVAL;
    pthread_once(&once, init);
    struct log_source src = { .fd = fd };
    struct log_reader *r = NULL;
    int rc = log_reader_open(&src, NULL, NULL, &r, NULL, 0);
    if (rc != 0)
        return rc == ENOMEM ? ENOMEM : EINVAL;          /* S0081 */
    struct open_log *ol = calloc(1, sizeof *ol);
    if (ol == NULL) {
        log_reader_close(r);
        return ENOMEM;
    }
    pthread_mutex_init(&ol->lock, NULL);
    ol->r = r;                      /* positioned at the oldest event: S0076 */
    pthread_mutex_lock(&opened.lock);
    int i = free_index();
    if (i < 0) {
        pthread_mutex_unlock(&opened.lock);
        free_log(ol);
        return ENOMEM;              /* 65536 logs open at once */
    }
    opened.slots[i].log = ol;
    *trid = trid_of((unsigned)i);                       /* S0074 */
    pthread_mutex_unlock(&opened.lock);
    return 0;
}

int posix_trace_close(trace_id_t trid)
{
    if (!trid_is_log(trid))
        return EINVAL;              /* an active stream's id: S0073, ruling 5 */
    pthread_once(&once, init);
    unsigned i = (unsigned)(trid & (INDEX_MAX - 1));
    pthread_mutex_lock(&opened.lock);
    if (i >= opened.cap || opened.slots[i].log == NULL || trid_of(i) != trid) {
        pthread_mutex_unlock(&opened.lock);
        return EINVAL;
    }
    struct open_log *ol = opened.slots[i].log;
    pthread_mutex_lock(&ol->lock);  /* waits for a call in progress */
    opened.slots[i].log = NULL;
    opened.slots[i].gen++;
    pthread_mutex_unlock(&opened.lock);
    pthread_mutex_unlock(&ol->lock);
    pthread_mutex_destroy(&ol->lock);
    free_log(ol);                                       /* S0072 */
    return 0;
}

int posix_trace_rewind(trace_id_t trid)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;                                  /* S0080 */
    log_reader_rewind(ol->r);                           /* S0078 */
    log_release(ol);
    return 0;
}

int prerecorded_get_attr(trace_id_t trid, trace_attr_t *attr)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;
    *attr = *log_reader_attr(ol->r);                    /* S0113: as recorded */
    log_release(ol);
    return 0;
}

int prerecorded_get_status(trace_id_t trid, struct posix_trace_status_info *st)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;
    int have = 0;
    const struct log_status *ls = log_reader_status(ol->r, &have);
    if (have) {
        *st = ls->st;                   /* the final status, never reset: S0179 */
    } else {
        st->posix_stream_status = POSIX_TRACE_SUSPENDED;
        st->posix_stream_full_status = POSIX_TRACE_NOT_FULL;
        st->posix_stream_overrun_status = POSIX_TRACE_NO_OVERRUN;
        st->posix_stream_flush_status = POSIX_TRACE_NOT_FLUSHING;
        st->posix_stream_flush_error = 0;
        st->posix_log_overrun_status = POSIX_TRACE_NO_OVERRUN;
        st->posix_log_full_status = POSIX_TRACE_NOT_FULL;
    }
    log_release(ol);
    return 0;
}

/* The events the log holds, as a reader reads them: counted with the open
 * log's own reader (no memory to find: a count never fails), which is then
 * put back where its reader had it, the events delivered so far skipped
 * again.  Lock held. */
static uint64_t count_events(struct log_reader *r)
{
    uint64_t delivered = log_reader_stats(r)->events, n = delivered;
    struct log_event le;
    while (log_reader_next(r, &le))
        n++;
    log_reader_rewind(r);
    for (uint64_t i = 0; i < delivered && log_reader_next(r, &le); i++)
        ;
    return n;
}

int prerecorded_counts(trace_id_t trid, uint64_t *written, uint64_t *discarded,
                       uint64_t *lost)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;
    int have = 0;
    const struct log_status *ls = log_reader_status(ol->r, &have);
    *written = have ? ls->events : 0;
    *discarded = have ? ls->log_lost : 0;
    *lost = have ? ls->stream_lost : 0;
    /* The status is written after the records it counts: when its own
     * write failed (the disk full, the file at its size limit), the log
     * keeps the status before it, which counts fewer events than the log
     * holds whole.  What the log holds is what a reader reads: count it. */
    if (!ol->counted) {
        ol->held = count_events(ol->r);
        ol->counted = 1;
    }
    uint64_t on_disk = ol->held;
    log_release(ol);
    if (on_disk > *written)
        *written = on_disk;
    return 0;
}

int prerecorded_getnext(trace_id_t trid, struct posix_trace_event_info *ev, void *data,
                        size_t num_bytes, size_t *data_len, int *unavailable)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;
    struct log_event le;
    if (!log_reader_next(ol->r, &le)) {
        *unavailable = 1;           /* the end: no wait, no error (S0201) */
        log_release(ol);
        return 0;
    }
    rec_to_event_info(&le.h, ev);                       /* S0196: oldest first */
    size_t len = le.h.len & REC_LEN_MASK;
    if (num_bytes < len) {
        len = num_bytes;
        ev->posix_truncation_status = POSIX_TRACE_TRUNCATED_READ;   /* S0215 */
    }
    if (len)
        memcpy(data, le.data, len);
    *data_len = len;
    *unavailable = 0;
    log_release(ol);
    return 0;
}

int prerecorded_get_name(trace_id_t trid, trace_event_id_t id, char *name)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;
    int rc = event_names_system(id, name);
    if (rc != 0)
        rc = log_reader_name(ol->r, id, name);          /* the recorded mapping */
    log_release(ol);
    return rc;
}

int prerecorded_typelist_next(trace_id_t trid, trace_event_id_t *id, int *unavailable)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;
    unsigned nsys = event_names_system_nth(ol->typelist_pos, id);
    if (ol->typelist_pos < nsys ||
        log_reader_name_nth(ol->r, ol->typelist_pos - nsys, id) == 0) {
        ol->typelist_pos++;
        *unavailable = 0;
    } else {
        *unavailable = 1;
    }
    log_release(ol);
    return 0;
}

int prerecorded_typelist_rewind(trace_id_t trid)
{
    struct open_log *ol = log_acquire(trid);
    if (ol == NULL)
        return EINVAL;
    ol->typelist_pos = 0;
    log_release(ol);
    return 0;
}

/* Logs still open when the process exits are closed. */
__attribute__((destructor)) static void close_at_exit(void)
{
    pthread_mutex_lock(&opened.lock);
    for (unsigned i = 0; i < opened.cap; i++) {
        struct open_log *ol = opened.slots[i].log;
        if (ol == NULL)
            continue;
        pthread_mutex_lock(&ol->lock);
        opened.slots[i].log = NULL;
        pthread_mutex_unlock(&ol->lock);
        free_log(ol);
    }
    free(opened.slots);
    opened.slots = NULL;
    opened.cap = 0;
    pthread_mutex_unlock(&opened.lock);
}
