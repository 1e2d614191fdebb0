/* SPDX-License-Identifier: MIT */
/*
 * log_flusher.c -- flushing a stream to its trace log (XSH
 * posix_trace_flush, LOGFORMAT section 7): the flusher thread of each
 * stream with log, posix_trace_flush(), the FLUSH stream-full policy, and
 * the log's part of clear, get_status and shutdown.
 *
 * A flush takes the events out of the stream under the stream's lock (with
 * the readers' code, stream_take), which frees their space at once (S0102),
 * then writes them with the lock released, so that tracing goes on (S0101).
 * posix_trace_flush() only asks for it and returns (S0099); completion is
 * seen through get_status's flush status.
 *
 * A stream on the simulated clock flushes in the controller's calling
 * thread instead, its lock held throughout (flush_now): the FLUSH policy's
 * flush in the recording call that crosses the flush mark or finds the
 * stream full, posix_trace_flush's before it returns, shutdown's in
 * shutdown.  Where a flush falls, and so its FLUSH_START and FLUSH_STOP,
 * is then the scenario's alone, not the scheduler's, and a FLUSH stream
 * loses no event its log could take: the same program writes the same log
 * (LOGFORMAT section 9; posix/CHOICES.md, "Trace log").  The flusher thread
 * of such a stream only serves the flushes that another process asks for
 * (kick_flusher, stream_put.c), which cannot run the controller's code.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "posix/log_flusher.h"
#include "posix/process.h"
#include "posix/stage.h"
#include "posix/stream_put.h"
#include "posix/stream_table.h"
#include "posix/read.h"

/* Records taken at a time: bounds the flusher's memory whatever the
 * stream's size; at least TAKE_MIN, so that a small FLUSH stream has room to
 * hand its events over while the previous ones are written. */
#define TAKE_MAX  ((size_t)4 << 20)
#define TAKE_MIN  ((size_t)64 << 10)

static const struct origin no_origin = { 0, 0, 0, -1 };

/* ---- taking events (lock held) ---------------------------------------------------- */

/* Moves the stream's events into b while they fit.  Returns 1 if events
 * are left in the stream. */
static int take_into(struct stream *s, struct rec_buf *b)
{
    while (stream_event_ready(s)) {
        size_t got = stream_take_records(s, b->buf + b->len, b->cap - b->len);
        if (got > 0) {                  /* the common case: a run of records at once */
            b->len += got;
            continue;
        }
        uint64_t size = stream_next_size(s);
        if (b->len + size > b->cap)
            return 1;
        unsigned char *p = b->buf + b->len;
        struct rec_hdr h;
        stream_take(s, &h, p + REC_HDR_SIZE, size - REC_HDR_SIZE);
        memcpy(p, &h, sizeof h);
        uint32_t len = h.len & REC_LEN_MASK;
        memset(p + REC_HDR_SIZE + len, 0, size - REC_HDR_SIZE - len);
        b->len += size;
    }
    return 0;
}

/* Asks the flusher for a flush, with FLUSH_START recorded first (origin o,
 * S0276).  A flush asked for and not yet begun is joined: one FLUSH_START
 * and one FLUSH_STOP a flush.  Nothing is recorded on a stream that is not
 * running, nor where it would not fit (it would stop an UNTIL_FULL stream). */
static void request_flush(struct stream *s, const struct origin *o)
{
    struct log_stream *ls = s->log;
    if (!ls->request && s->run == POSIX_TRACE_RUNNING && stream_fits(s, 0)) {
        stream_put(s, POSIX_TRACE_FLUSH_START, NULL, 0, 0, o);
        ls->starts++;
    }
    ls->request = 1;
    ls->flush_status = POSIX_TRACE_FLUSHING;            /* S0250 */
    shm_cond_signal(&s->flush_wake);
}

static uint64_t flush_mark_of(const struct stream *s)
{
    return s->policy == POSIX_TRACE_FLUSH ? (s->ring.cap - s->reserve) / 2 : 0;
}

static void run_flush(struct stream *s, struct log_stream *ls, int final);

/* A flush run by the calling thread (the simulated clock's, flush_now and
 * shutdown), which writes as the flusher does but with its own signal mask
 * (log_xfsz_hold).  FLUSHING until run_flush ends it (S0250, S0251). */
static void flush_in_caller(struct stream *s, struct log_stream *ls, int final)
{
    struct log_xfsz_hold hold;
    ls->flush_status = POSIX_TRACE_FLUSHING;
    log_xfsz_hold(&hold);
    run_flush(s, ls, final);
    log_xfsz_release(&hold);
}

/* A flush of a stream on the simulated clock, done now by the calling
 * thread of the controller, the lock held from start to end (nothing else
 * records meanwhile): FLUSH_START (origin o; S0276) if the stream runs and
 * it fits, every event of the stream written to the log, the metadata
 * (LOGFORMAT section 7), then FLUSH_STOP (S0277).  The simulated clock
 * moves only by the steps of these two events, as for any event.  A flush
 * whose FLUSH_START or FLUSH_STOP crosses the flush mark does not start
 * another (busy): the next event that finds the mark crossed does. */
static void flush_now(struct stream *s, const struct origin *o)
{
    struct log_stream *ls = s->log;
    if (ls->busy)
        return;
    ls->busy = 1;
    if (s->run == POSIX_TRACE_RUNNING && stream_fits(s, 0)) {
        stream_put(s, POSIX_TRACE_FLUSH_START, NULL, 0, 0, o);
        ls->starts++;
    }
    flush_in_caller(s, ls, 0);
}

/* The FLUSH policy in the controller (stream_put.c wakes the flusher of
 * another process's stream): the stream is half full (S0038). */
static void log_flush_auto(struct stream *s)
{
    if (s->sim) {
        flush_now(s, &no_origin);       /* in this recording call, before it returns */
        return;
    }
    s->flush_mark = 0;              /* until the flusher has taken the events */
    if (!s->log->request)
        request_flush(s, &no_origin);
}

static int log_flush_make_room(struct stream *s, uint64_t need, uint64_t extra)
{
    struct log_stream *ls = s->log;
    if (s->sim) {
        /* Full (an event larger than the room left under the mark): the
         * stream is flushed now, so the event fits unless it is larger
         * than the stream (it is then lost as UNTIL_FULL loses it). */
        flush_now(s, &no_origin);
        return s->ring.cap - s->reserve - ring_used(&s->ring) + extra >= need ? 0 : -1;
    }
    /* The stream is full: its events go to the flusher now rather than be
     * lost, as far as the flusher's buffer allows. */
    take_into(s, &ls->pending);
    s->flush_mark = 0;
    if (!ls->request)
        request_flush(s, &no_origin);
    return s->ring.cap - s->reserve - ring_used(&s->ring) + extra >= need ? 0 : -1;
}

/* The recording path reaches the two above, and the table's fork handler
 * log_stream_forget(), through hooks set before main, so that the layers
 * under the flusher know no log: only the controller, whose image holds
 * this file (it made the log), calls them. */
__attribute__((constructor)) static void flush_hooks_at_load(void)
{
    stream_flush_hooks.auto_flush = log_flush_auto;
    stream_flush_hooks.make_room = log_flush_make_room;
    stream_table_forget_logs_with(log_stream_forget);
}

/* ---- the flusher thread ------------------------------------------------------------ */

/* Appends the batch to the log (lock released: the writer is the flusher's). */
static void write_batch(struct log_stream *ls)
{
    unsigned char *p = ls->batch.buf, *end = p + ls->batch.len;
    while (p < end) {
        struct rec_hdr h;
        memcpy(&h, p, sizeof h);
        log_writer_append(&ls->w, &h, p + REC_HDR_SIZE);
        ls->handed++;
        p += rec_size(h.len & REC_LEN_MASK);
    }
    ls->batch.len = 0;
    log_writer_sync(&ls->w);
}

/* What the writer met, made visible through get_status (lock held). */
static void publish(struct log_stream *ls, int final)
{
    int rc = log_writer_take_error(&ls->w);
    if (rc != 0 && ls->flush_error == 0)
        ls->flush_error = rc;                           /* S0253, S0254 */
    if (rc != 0 && final && ls->final_error == 0)
        ls->final_error = rc;
    if (log_writer_take_overrun(&ls->w))
        ls->log_overrun = POSIX_TRACE_OVERRUN;          /* S0257 */
    ls->log_full = log_writer_full(&ls->w) ? POSIX_TRACE_FULL : POSIX_TRACE_NOT_FULL;
    ls->end = log_writer_end(&ls->w);
    /* The writer's figures (LOGFORMAT's status record): an UNTIL_FULL log
     * ends with a STOP of its own (S0027), written as handed to it. */
    int own_stop = ls->w.g.policy == POSIX_TRACE_UNTIL_FULL && log_writer_full(&ls->w);
    ls->flushed = ls->handed + (uint64_t)own_stop;
    ls->written = ls->w.written;
    ls->discarded = ls->w.lost;
}

static void snapshot(const struct stream *s, const struct log_stream *ls, int final,
                     struct log_status *st)
{
    memset(st, 0, sizeof *st);
    st->complete = final;
    st->st.posix_stream_status = s->run;
    st->st.posix_stream_full_status = s->full;
    st->st.posix_stream_overrun_status = s->overrun;
    st->st.posix_stream_flush_status = !final && ls->request ? POSIX_TRACE_FLUSHING
                                                             : POSIX_TRACE_NOT_FLUSHING;
    st->st.posix_stream_flush_error = ls->flush_error;
    st->st.posix_log_overrun_status = ls->log_overrun;
    st->st.posix_log_full_status = ls->log_full;
    st->stream_lost = s->lost;
}

/* One flush (lock held on entry and on return).  final: shutdown's, which
 * empties the stream and marks the metadata complete.  On a real clock the
 * lock is released while the file is written, so that tracing goes on
 * (S0101); on the simulated clock it is kept (flush_now): the flush is one
 * step of the scenario, and empties the stream, since nothing records
 * meanwhile. */
static void run_flush(struct stream *s, struct log_stream *ls, int final)
{
    int hold = s->sim;
    unsigned starts = ls->starts;
    ls->starts = 0;
    ls->busy = 1;
    /* A stream that records faster than the log is written must not keep
     * the flusher forever: at most the stream's size is taken. */
    size_t rounds = final || hold ? SIZE_MAX : s->ring.cap / ls->pending.cap + 2;
    int more;
    do {
        stage_drain(s);                 /* the events threads staged (stage.h) */
        more = take_into(s, &ls->pending);
        s->flush_mark = flush_mark_of(s);
        struct rec_buf t = ls->batch;
        ls->batch = ls->pending;
        ls->pending = t;
        if (!hold)
            shm_unlock(&s->lock);
        write_batch(ls);
        if (!hold)
            shm_lock(&s->lock);
        publish(ls, final);
    } while ((more || ls->pending.len > 0) && --rounds > 0);

    struct log_status st;
    snapshot(s, ls, final, &st);
    if (!hold)
        shm_unlock(&s->lock);
    log_writer_write_meta(&ls->w, &st);                 /* S0113 at shutdown */
    if (!hold)
        shm_lock(&s->lock);
    publish(ls, final);
    if (starts > 0 && stream_fits(s, 0))
        stream_put(s, POSIX_TRACE_FLUSH_STOP, NULL, 0, 0, &no_origin);   /* S0277 */
    ls->busy = 0;
    if (!ls->request)
        ls->flush_status = POSIX_TRACE_NOT_FLUSHING;    /* S0251 */
    shm_cond_broadcast(&s->flush_idle);
}

static void *flusher_main(void *arg)
{
    struct stream *s = arg;
    shm_lock(&s->lock);
    struct log_stream *ls = s->log;
    for (;;) {
        while (!ls->request && !ls->quit && !s->flush_kick)
            shm_cond_wait(&s->flush_wake, &s->lock, NULL);
        if (s->flush_kick && !ls->quit) {
            s->flush_kick = 0;          /* asked for by a traced process */
            if (!ls->request)
                request_flush(s, &no_origin);
        }
        if (ls->request) {
            ls->request = 0;
            run_flush(s, ls, 0);
            continue;
        }
        if (!s->sim)                /* the simulated clock's: done by shutdown */
            run_flush(s, ls, 1);    /* quit: the last flush (S0112, S0115) */
        break;
    }
    shm_unlock(&s->lock);
    return NULL;
}

/* ---- posix_trace_flush -------------------------------------------------------------- */

/* What can be known at once (LOGFORMAT section 7): a log that would pass the
 * caller's file size limit (EFBIG), a device without room for the events
 * (ENOSPC).  Lock held. */
static int precheck(struct stream *s)
{
    struct log_stream *ls = s->log;
    /* The flush writes at least FLUSH_START's record at ls->end. */
    uint64_t first = (uint64_t)log_event_slots(0) * sizeof(traceevent_t);
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        ls->end + first > (uint64_t)rl.rlim_cur)
        return EFBIG;
    /* Encoded, an event takes less than its ring bytes when its context
     * does not change, at most 2.4 times (96 bytes for 40, its whole
     * context written: LOGFORMAT section 3): twice is asked for;
     * OVERFLOW, RESUME and FLUSH_START are added. */
    uint64_t need = ls->end + 2 * (ring_used(&s->ring) + 3 * rec_size(0));
    struct stat sb;
    struct statvfs vfs;
    if (fstat(ls->w.fd, &sb) == 0 && need > (uint64_t)sb.st_size &&
        fstatvfs(ls->w.fd, &vfs) == 0 &&
        (uint64_t)vfs.f_bavail * vfs.f_frsize < need - (uint64_t)sb.st_size)
        return ENOSPC;
    return 0;
}

int posix_trace_flush(trace_id_t trid)
{
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0120 */
    struct log_stream *ls = s->log;
    if (ls == NULL) {
        stream_release(s);
        return EINVAL;                                  /* S0100, ruling 6 */
    }
    int rc = precheck(s);
    if (rc != 0) {
        if (ls->flush_error == 0)
            ls->flush_error = rc;
        stream_release(s);
        return rc;                                      /* S0120 */
    }
    struct origin o;
    stream_origin(s, &o, __builtin_return_address(0));
    if (s->sim)
        flush_now(s, &o);               /* complete when it returns (flush_now) */
    else
        request_flush(s, &o);                           /* S0099 */
    stream_release(s);
    return 0;
}

/* ---- the stream's life -------------------------------------------------------------- */

static void free_log(struct log_stream *ls)
{
    log_writer_free(&ls->w);
    free(ls->pending.buf);
    free(ls->batch.buf);
    free(ls);
}

/* Writes each page of buf (NULL: none), so that the first events taken
 * into it do not wait for its pages (as the stream's, shm.c). */
static void touch_pages(unsigned char *buf, size_t n)
{
    volatile unsigned char *p = buf;
    if (p == NULL)
        return;
    long page = sysconf(_SC_PAGESIZE);
    size_t step = page > 0 ? (size_t)page : 4096u;
    for (size_t i = 0; i < n; i += step)
        p[i] = 0;
}

int log_stream_create(struct stream *s, int fd)
{
    struct log_stream *ls = calloc(1, sizeof *ls);
    if (ls == NULL)
        return ENOMEM;
    size_t cap = s->ring.cap < TAKE_MAX ? (size_t)s->ring.cap : TAKE_MAX;
    if (cap < TAKE_MIN)
        cap = TAKE_MIN;
    cap += 2 * REC_HDR_SIZE;                            /* OVERFLOW and RESUME */
    ls->pending.cap = ls->batch.cap = cap;
    ls->pending.buf = malloc(cap);
    ls->batch.buf = malloc(cap);
    touch_pages(ls->pending.buf, cap);
    touch_pages(ls->batch.buf, cap);
    if (ls->pending.buf == NULL || ls->batch.buf == NULL) {
        free(ls->pending.buf);
        free(ls->batch.buf);
        free(ls);
        return ENOMEM;
    }
    ls->flush_status = POSIX_TRACE_NOT_FLUSHING;
    ls->log_overrun = POSIX_TRACE_NO_OVERRUN;           /* S0256 */
    ls->log_full = POSIX_TRACE_NOT_FULL;
    struct log_status st;
    memset(&st, 0, sizeof st);
    st.st.posix_stream_status = POSIX_TRACE_SUSPENDED;
    st.st.posix_stream_full_status = POSIX_TRACE_NOT_FULL;
    st.st.posix_stream_overrun_status = POSIX_TRACE_NO_OVERRUN;
    st.st.posix_stream_flush_status = POSIX_TRACE_NOT_FLUSHING;
    st.st.posix_log_overrun_status = POSIX_TRACE_NO_OVERRUN;
    st.st.posix_log_full_status = POSIX_TRACE_NOT_FULL;
    ls->w.names = stream_names(s);
    int rc = log_writer_create(&ls->w, fd, &s->attr, &st);
    if (rc != 0) {
        free(ls->pending.buf);
        free(ls->batch.buf);
        free(ls);
        return rc;
    }
    ls->end = log_writer_end(&ls->w);
    s->log = ls;
    s->flush_mark = flush_mark_of(s);

    /* The flusher takes no signal: a SIGXFSZ of its writes then becomes
     * EFBIG (S0120) instead of the process's death, and the application's
     * signals go to its own threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&ls->thread, NULL, flusher_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        s->log = NULL;
        s->flush_mark = 0;
        free_log(ls);
        return EAGAIN;
    }
    return 0;
}

int log_stream_shutdown(struct stream *s)
{
    struct log_stream *ls = s->log;
    if (s->sim) {
        /* The last flush here, in the controller's call (flush_now); the
         * flusher, which holds the lock through any flush of a simulated
         * clock, is idle now, and ends without flushing. */
        flush_in_caller(s, ls, 1);                      /* S0112, S0113 */
    }
    ls->quit = 1;
    shm_cond_signal(&s->flush_wake);
    shm_unlock(&s->lock);
    pthread_join(ls->thread, NULL);                     /* S0115 */
    shm_lock(&s->lock);
    int rc = ls->final_error;
    s->log = NULL;
    s->flush_mark = 0;
    free_log(ls);
    return rc;
}

int log_stream_clear(struct stream *s)
{
    struct log_stream *ls = s->log;
    unsigned long gen = s->gen;
    while (ls->busy) {
        shm_cond_wait(&s->flush_idle, &s->lock, NULL);
        if (s->state != SLOT_ACTIVE || s->gen != gen)
            return EINVAL;              /* shut down while we waited */
    }
    ls->pending.len = 0;                /* taken before the clear: dropped */
    ls->starts = 0;
    log_writer_clear(&ls->w);                           /* S0066-S0068 */
    publish(ls, 0);
    ls->log_overrun = POSIX_TRACE_NO_OVERRUN;
    s->flush_mark = flush_mark_of(s);
    return 0;
}

void log_stream_status(struct stream *s, struct posix_trace_status_info *st)
{
    struct log_stream *ls = s->log;
    st->posix_stream_flush_status = ls->flush_status;
    st->posix_stream_flush_error = ls->flush_error;
    st->posix_log_overrun_status = ls->log_overrun;
    st->posix_log_full_status = ls->log_full;
    ls->flush_error = 0;                                /* S0178 */
    ls->log_overrun = POSIX_TRACE_NO_OVERRUN;
}

void log_stream_counts(const struct stream *s, uint64_t *flushed, uint64_t *written,
                       uint64_t *discarded)
{
    const struct log_stream *ls = s->log;
    *flushed = ls->flushed;
    *written = ls->written;
    *discarded = ls->discarded;
}

void log_stream_forget(struct log_stream *ls)
{
    free_log(ls);
}
