/* SPDX-License-Identifier: MIT */
/*
 * stream_put.h -- recording one event into a stream, under its lock, with the
 * stream-full policies of XSH posix_trace_attr_getstreamfullpolicy and the
 * overflow bookkeeping of XSH 2.11 (posix/CHOICES.md, "Stream-full policies").
 *
 * Inline because it is the recording path: posix_trace_event() compiles to
 * one function with no call but the lock, the clock and the data copy.
 */
#ifndef POSIXTRACE_STREAM_PUT_H
#define POSIXTRACE_STREAM_PUT_H

#include "stream/stream.h"
#include "posix/origin.h"
#include "stream/eventset_bits.h"

/* The same with deterministic origins (posixtrace_attr_setsimorigin): the
 * stream's pid, the thread's rank, no address.  Lock held. */
void stream_sim_origin(struct stream *s, struct origin *o);

/* The origin of an event recorded by the calling thread into s.  Inline:
 * it is on the recording path. */
static inline void stream_origin(struct stream *s, struct origin *o, const void *prog)
{
    if (__builtin_expect(s->simorigin, 0)) {
        struct origin sim;              /* o's address is never taken: it stays in registers */
        stream_sim_origin(s, &sim);
        *o = sim;
    } else
        origin_of_caller(o, prog);
}

/* The simulated clock's time, then advanced by its step (lock held). */
static inline uint64_t stream_sim_tick(struct stream *s)
{
    uint64_t t = s->sim_now;
    s->sim_now += s->sim_step;
    return t;
}

/* The current time of the stream's clock, in ns since the Epoch; advances a
 * simulated clock by its step.  Called with the lock held, so that the
 * events of a stream are in timestamp order in its ring. */
static inline uint64_t stream_now(struct stream *s)
{
    if (s->sim)
        return stream_sim_tick(s);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return timespec_to_ns(&ts);
}

/* LOOP: n events lost, the oldest of time ts, as the ring's oldest when
 * overwritten: counted, the overrun status, OVERFLOW from the oldest lost
 * (S0248, S0279).  Inline: a wrapping ring loses one an event. */
static inline void stream_lose_n(struct stream *s, uint64_t ts, uint64_t n)
{
    if (s->ovf == OVF_NONE) {
        s->ovf = OVF_PENDING;
        s->ovf_ts = ts;
    } else if (s->ovf == OVF_PENDING && ts < s->ovf_ts) {
        s->ovf_ts = ts;                 /* a lane's, older than the ring's */
    }
    s->lost += n;
    s->overrun = POSIX_TRACE_OVERRUN;                   /* S0248 */
    s->full = POSIX_TRACE_FULL;
}

static inline void stream_lose(struct stream *s, uint64_t ts)
{
    stream_lose_n(s, ts, 1);
}

/* LOOP (S0032, S0033): drops the oldest events until need bytes are free.
 * The first event dropped since the reader caught up gives the OVERFLOW
 * timestamp (S0279): the ring's events are in time order, so the first
 * dropped here is the oldest.  The walk reads only lengths and keeps the
 * tail in a register; the stream is told once.  Inline: a wrapping ring
 * drops one an event. */
static inline void stream_make_room(struct stream *s, uint64_t need)
{
    struct ring *r = &s->ring;
    if (r->cap - ring_used(r) >= need)
        return;
    uint64_t tail = r->tail, head = r->head, cap = r->cap, n = 0, ts;
    RING_HDR_FIELD(r, tail, ts, &ts);
    do {
        uint32_t len;
        RING_HDR_FIELD(r, tail, len, &len);
        tail += rec_size(len & REC_LEN_MASK);
        n++;
    } while (cap - (head - tail) < need);
    r->tail = tail;
    stream_lose_n(s, ts, n);            /* the overrun and full status too */
}
/* The slow paths of stream_put (stream_put.c).  LOOP: drops the ring's
 * events of time cut or older (posix/stage.c). */
void stream_drop_upto(struct stream *s, uint64_t cut);
int  stream_full_until(struct stream *s);

/* The FLUSH policy's: a flush that starts by itself when the stream is
 * half full; and, when an event finds no room, the stream's events handed
 * to the flusher at once, so that the event fits (0) unless the flusher is
 * too far behind (-1: the stream is full).  extra is room the event may
 * use besides the free space (the STOP reserve).  A process other than the
 * controller wakes the flusher (stream_put.c); the controller runs its log
 * code (log_flusher.c) through the hooks it sets at load: the recording
 * path sits below the flusher, which takes events out (read.h) and may so
 * restart a stream (S0036). */
void stream_flush_auto(struct stream *s);
int  stream_flush_make_room(struct stream *s, uint64_t need, uint64_t extra);
struct stream_flush_hooks {
    void (*auto_flush)(struct stream *s);
    int  (*make_room)(struct stream *s, uint64_t need, uint64_t extra);
};
extern struct stream_flush_hooks stream_flush_hooks;

/* Writes record h and its h->len bytes of data at p, where it does not
 * wrap. */
static inline void ring_put_record(unsigned char *p, const struct rec_hdr *h, const void *data,
                                   uint32_t len)
{
    ring_put_hdr(p, h);
    if (len == 8) {
        memcpy(p + sizeof *h, data, 8);         /* the common size, inlined */
    } else if (len) {
        /* Zero the padding first: ring bytes are always defined, so a log
         * writer may copy whole records. */
        uint64_t zero = 0;
        memcpy(p + rec_size(len) - 8, &zero, 8);
        memcpy(p + sizeof *h, data, len);
    }
}

/* Writes a record (room made); ts NULL: now, on the stream's clock. */
static inline void stream_write_at(struct stream *s, const uint64_t *ts, trace_event_id_t id,
                                   const void *data, uint32_t len, int truncated,
                                   const struct origin *o)
{
    struct rec_hdr h = {
        .ts = ts ? *ts : stream_now(s), .thread = o->thread, .prog = o->prog, .id = id,
        .pid = o->pid, .len = len | (truncated ? REC_TRUNCATED : 0), .cpu = o->cpu,
    };
    s->last_ts = h.ts;
    struct ring *r = &s->ring;
    uint64_t pos = r->head & (r->cap - 1);
    uint64_t size = rec_size(len);
    if (pos + size <= r->cap) {                 /* the common case: no wrap */
        ring_put_record(ring_buf(r) + pos, &h, data, len);
    } else {
        struct rec_hdr copy = h;        /* h's address is never taken: it stays in registers */
        rec_put_wrapped(ring_buf(r), r->cap, r->head, &copy, data, len);
    }
    r->head += size;
    s->recorded++;                              /* stream_counts.c */
    if (s->waiters)
        shm_cond_broadcast(&s->readable);
}

static inline void stream_write(struct stream *s, trace_event_id_t id, const void *data,
                                uint32_t len, int truncated, const struct origin *o)
{
    stream_write_at(s, NULL, id, data, len, truncated, o);
}

/* Does the stream take event id in (lock held)?  Not when it is shut down
 * or filters id out: no effect (S0122); not when it does not run, and if
 * UNTIL_FULL stopped it, full, the event is counted lost (XSH 2.11.1.1).
 * The one test of the locked path and of staged events (stage.c). */
static inline int stream_admits(struct stream *s, trace_event_id_t id)
{
    if (s->state != SLOT_ACTIVE || eventset_has(&s->filter, id))
        return 0;
    if (s->run != POSIX_TRACE_RUNNING) {
        if (s->autostopped) {
            s->overrun = POSIX_TRACE_OVERRUN;
            s->recorded++;                      /* taken in and lost at once */
            s->lost++;
        }
        return 0;
    }
    return 1;
}

/* Records an event (lock held, stream active): applies the stream-full
 * policy, wakes readers.  Returns 0, or -1 if the event was lost (UNTIL_FULL
 * or FLUSH stopped the stream).  A STOP event may use the space kept for the
 * automatic STOP of UNTIL_FULL.  ts NULL: now, else the time the event
 * was staged (stage.c). */
static inline int stream_put_at(struct stream *s, const uint64_t *ts, trace_event_id_t id,
                                const void *data, uint32_t len, int truncated,
                                const struct origin *o)
{
    uint64_t need = rec_size(len);
    uint64_t extra = id == POSIX_TRACE_STOP ? s->reserve : 0;
    uint64_t room = s->ring.cap - s->reserve - ring_used(&s->ring) + extra;
    if (need > room) {
        if (s->policy == POSIX_TRACE_LOOP)
            stream_make_room(s, need);
        else if (s->policy != POSIX_TRACE_FLUSH ||
                 stream_flush_make_room(s, need, extra) != 0)
            return stream_full_until(s);
    }
    stream_write_at(s, ts, id, data, len, truncated, o);
    if (s->flush_mark && ring_used(&s->ring) >= s->flush_mark)
        stream_flush_auto(s);                           /* S0038 */
    return 0;
}

static inline int stream_put(struct stream *s, trace_event_id_t id, const void *data,
                             uint32_t len, int truncated, const struct origin *o)
{
    return stream_put_at(s, NULL, id, data, len, truncated, o);
}

#endif
