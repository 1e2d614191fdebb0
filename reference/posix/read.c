/* SPDX-License-Identifier: MIT */
/*
 * read.c -- reading events from an active trace stream
 * (XSH posix_trace_getnext_event, _timedgetnext_event, _trygetnext_event).
 *
 * Events come out oldest first, each once (S0216-S0218).  The flusher of a
 * stream's log takes them with the same code (stream_take).  After events were
 * lost by the LOOP policy the reader gets OVERFLOW, stamped with the first
 * lost event's time, then RESUME, stamped with the time of the first
 * surviving event, just before that event (S0279, S0280).
 */
#include <errno.h>
#include <string.h>
#include "posix/prerecorded.h"
#include "posix/stage.h"
#include "posix/stream_put.h"
#include "posix/stream_table.h"
#include "posix/read.h"

enum wait_mode { WAIT_FOREVER, WAIT_NEVER, WAIT_UNTIL };

int stream_event_ready(const struct stream *s)
{
    return s->ovf == OVF_PENDING || ring_used(&s->ring) > 0;
}

uint64_t stream_next_size(const struct stream *s)
{
    struct rec_hdr h;
    if (s->ovf != OVF_NONE)
        return rec_size(0);             /* OVERFLOW or RESUME: no data */
    ring_copy_out(&s->ring, s->ring.tail, &h, sizeof h);
    return rec_size(h.len & REC_LEN_MASK);
}

/* A system event that takes no stream space (OVERFLOW, RESUME): no
 * process, no thread, no address (S0262). */
static void system_hdr(struct rec_hdr *h, trace_event_id_t id, uint64_t ts)
{
    memset(h, 0, sizeof *h);
    h->id = id;
    h->ts = ts;
    h->cpu = -1;
}

/* Events were taken out of the ring: room made. */
static inline void taken_room(struct stream *s)
{
    if (s->policy == POSIX_TRACE_LOOP)
        s->full = POSIX_TRACE_NOT_FULL;     /* the read made room */
    if (s->autostopped && ring_used(&s->ring) == 0 && s->state == SLOT_ACTIVE) {
        /* UNTIL_FULL: empty again, so the stream restarts (S0036, S0037);
         * not while its final flush empties it (shutdown). */
        static const struct origin none = { 0, 0, 0, -1 };
        s->autostopped = 0;
        s->full = POSIX_TRACE_NOT_FULL;
        stream_put(s, POSIX_TRACE_START, &s->filter, sizeof s->filter, 0, &none);   /* S0285 */
        s->run = POSIX_TRACE_RUNNING;
        stream_update_recording(s);
    }
}

/* The next event, OVERFLOW and RESUME included, out of s (take). */
static inline void take_one(struct stream *s, struct rec_hdr *h, void *data, size_t cap)
{
    if (s->ovf == OVF_PENDING) {
        system_hdr(h, POSIX_TRACE_OVERFLOW, s->ovf_ts);
        s->ovf = OVF_RESUME;
        return;
    }
    ring_copy_out(&s->ring, s->ring.tail, h, sizeof *h);
    if (s->ovf == OVF_RESUME) {
        system_hdr(h, POSIX_TRACE_RESUME, h->ts);
        s->ovf = OVF_NONE;
        return;
    }
    uint32_t len = h->len & REC_LEN_MASK;
    size_t n = len < cap ? len : cap;
    if (n)
        ring_copy_out(&s->ring, s->ring.tail + REC_HDR_SIZE, data, n);
    s->ring.tail += rec_size(len);                      /* S0218 */
    s->taken++;                                         /* stream_counts.c */
    taken_room(s);
}

/* stream_take's body, inline in the readers' path: whatever event it
 * takes, an OVERFLOW accounted after it is no older (stage.c, lane_lose). */
static inline void take(struct stream *s, struct rec_hdr *h, void *data, size_t cap)
{
    take_one(s, h, data, cap);
    s->taken_ts = h->ts;
}

void stream_take(struct stream *s, struct rec_hdr *h, void *data, size_t cap)
{
    take(s, h, data, cap);
}

size_t stream_take_records(struct stream *s, unsigned char *buf, size_t cap)
{
    struct ring *r = &s->ring;
    if (s->ovf != OVF_NONE)
        return 0;                       /* OVERFLOW or RESUME first */
    uint64_t tail = r->tail, end = tail, last = tail, used = ring_used(r), n = 0;
    while (end - tail < used) {         /* whole records: their lengths only */
        uint32_t len;
        RING_HDR_FIELD(r, end, len, &len);
        uint64_t size = rec_size(len & REC_LEN_MASK);
        if (end - tail + size > cap)
            break;
        last = end;
        end += size;
        n++;
    }
    if (n == 0)
        return 0;
    ring_copy_out(r, tail, buf, end - tail);
    RING_HDR_FIELD(r, last, ts, &s->taken_ts);
    r->tail = end;                                      /* S0218 */
    s->taken += n;                                      /* stream_counts.c */
    taken_room(s);
    return (size_t)(end - tail);
}

/* Takes the next event out of s (stream_event_ready(s) holds). */
static void take_event(struct stream *s, struct posix_trace_event_info *ev,
                       void *data, size_t num_bytes, size_t *data_len)
{
    struct rec_hdr h;
    take(s, &h, data, num_bytes);
    rec_to_event_info(&h, ev);
    size_t len = h.len & REC_LEN_MASK, n = len;
    if (num_bytes < n) {                                /* S0215 */
        n = num_bytes;
        ev->posix_truncation_status = POSIX_TRACE_TRUNCATED_READ;
    }
    *data_len = n;
}

/* Has CLOCK_REALTIME reached t? */
static int deadline_passed(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

static int valid_abstime(const struct timespec *t)
{
    return t != NULL && t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

static int read_event(trace_id_t trid, struct posix_trace_event_info *ev, void *data,
                      size_t num_bytes, size_t *data_len, int *unavailable,
                      enum wait_mode mode, const struct timespec *abstime)
{
    if (ev == NULL || data_len == NULL || unavailable == NULL ||
        (data == NULL && num_bytes > 0))
        return EINVAL;
    if (trid_is_log(trid))                              /* a pre-recorded stream */
        return mode == WAIT_NEVER ? EINVAL              /* S0209, S0223 */
                                  : prerecorded_getnext(trid, ev, data, num_bytes, data_len,
                                                        unavailable);
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0221 */
    if (s->log != NULL) {
        /* Its events go to the log (LOGFORMAT section 7, ruling 7). */
        stream_release(s);
        return EINVAL;
    }
    unsigned long gen = s->gen;
    int rc = 0;
    for (;;) {
        stage_drain(s);                 /* events staged by other threads */
        if (stream_event_ready(s)) {
            take_event(s, ev, data, num_bytes, data_len);
            *unavailable = 0;                           /* S0200, S0210 */
            break;
        }
        *unavailable = 1;                               /* S0201, S0211 */
        if (mode == WAIT_NEVER)                         /* S0208 */
            break;
        if (mode == WAIT_UNTIL && !valid_abstime(abstime)) {
            rc = EINVAL;                                /* S0224 */
            break;
        }
        struct timespec until;
        int poll = stage_wait_deadline(s, mode == WAIT_UNTIL ? abstime : NULL, &until);
        /* Atomic although under the lock: a recording thread reads it
         * without the lock (stage.c), to wake a reader of its first staged
         * event. */
        __atomic_fetch_add(&s->waiters, 1, __ATOMIC_RELAXED);
        int w = shm_cond_wait(&s->readable, &s->lock,
                              poll ? &until : mode == WAIT_UNTIL ? abstime : NULL);
        __atomic_fetch_sub(&s->waiters, 1, __ATOMIC_RELAXED);
        if (s->state != SLOT_ACTIVE || s->gen != gen) {
            if (s->waiters == 0)
                shm_cond_broadcast(&s->flush_idle);    /* shutdown waits */
            rc = EINVAL;                /* shut down while we waited */
            break;
        }
        if (w == ETIMEDOUT && mode == WAIT_UNTIL && !stream_event_ready(s) &&
            (!poll || deadline_passed(abstime))) {
            stage_drain(s);
            if (stream_event_ready(s))
                continue;
            rc = ETIMEDOUT;                             /* S0203, S0204 */
            break;
        }
    }
    stream_release(s);
    return rc;
}

int posix_trace_getnext_event(trace_id_t trid, struct posix_trace_event_info *restrict ev,
                              void *restrict data, size_t num_bytes,
                              size_t *restrict data_len, int *restrict unavailable)
{
    return read_event(trid, ev, data, num_bytes, data_len, unavailable, WAIT_FOREVER, NULL);
}

int posix_trace_trygetnext_event(trace_id_t trid, struct posix_trace_event_info *restrict ev,
                                 void *restrict data, size_t num_bytes,
                                 size_t *restrict data_len, int *restrict unavailable)
{
    return read_event(trid, ev, data, num_bytes, data_len, unavailable, WAIT_NEVER, NULL);
}

int posix_trace_timedgetnext_event(trace_id_t trid, struct posix_trace_event_info *restrict ev,
                                   void *restrict data, size_t num_bytes,
                                   size_t *restrict data_len, int *restrict unavailable,
                                   const struct timespec *restrict abstime)
{
    return read_event(trid, ev, data, num_bytes, data_len, unavailable, WAIT_UNTIL, abstime);
}
