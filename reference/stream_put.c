/*
 * stream_put.c -- recording one event into a stream, under its lock, with the
 * stream-full policies of XSH posix_trace_attr_getstreamfullpolicy and the
 * overflow bookkeeping of XSH 2.11 (see DESIGN.md, "Stream-full policies").
 */
#define _GNU_SOURCE                     /* sched_getcpu() */
#include <sched.h>
#include "stream.h"
#include "sim_cpu.h"

uint64_t stream_now(struct stream *s)
{
    if (s->sim) {
        uint64_t t = s->sim_now;
        s->sim_now += s->sim_step;
        return t;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return timespec_to_ns(&ts);
}

void origin_of_caller(struct origin *o, const void *prog)
{
    pthread_t self = pthread_self();
    o->pid = (uint32_t)posixtrace_table.pid;
    o->thread = 0;
    memcpy(&o->thread, &self, sizeof self < sizeof o->thread ? sizeof self : sizeof o->thread);
    o->prog = (uint64_t)(uintptr_t)prog;
    o->cpu = sim_cpu_of_thread();
    if (o->cpu < 0)
        o->cpu = sched_getcpu();
}

/* LOOP: drops the oldest event; the first one dropped since the reader
 * caught up gives the OVERFLOW timestamp (S0279). */
static void drop_oldest(struct stream *s)
{
    struct rec_hdr h;
    ring_copy_out(&s->ring, s->ring.tail, &h, sizeof h);
    s->ring.tail += rec_size(h.len & REC_LEN_MASK);
    if (s->ovf == OVF_NONE) {
        s->ovf = OVF_PENDING;
        s->ovf_ts = h.ts;
    }
    s->overrun = POSIX_TRACE_OVERRUN;                   /* S0248 */
    s->full = POSIX_TRACE_FULL;
    s->lost++;
}

static void write_record(struct stream *s, trace_event_id_t id, const void *data,
                         uint32_t len, int truncated, const struct origin *o)
{
    struct rec_hdr h = {
        .ts = stream_now(s), .thread = o->thread, .prog = o->prog, .id = id,
        .pid = o->pid, .len = len | (truncated ? REC_TRUNCATED : 0), .cpu = o->cpu,
    };
    struct ring *r = &s->ring;
    uint64_t pos = r->head & (r->cap - 1);
    if (pos + rec_size(len) <= r->cap) {            /* the common case: no wrap */
        memcpy(r->buf + pos, &h, sizeof h);
        if (len)
            memcpy(r->buf + pos + sizeof h, data, len);
    } else {
        ring_copy_in(r, r->head, &h, sizeof h);
        if (len)
            ring_copy_in(r, r->head + sizeof h, data, len);
    }
    r->head += rec_size(len);
    if (s->waiters)
        pthread_cond_broadcast(&s->readable);
}

int stream_put(struct stream *s, trace_event_id_t id, const void *data,
               uint32_t len, int truncated, const struct origin *o)
{
    uint64_t need = rec_size(len);
    uint64_t room = s->ring.cap - s->reserve - ring_used(&s->ring);
    if (id == POSIX_TRACE_STOP)
        room += s->reserve;             /* the space kept is for STOP */
    if (need > room) {
        if (s->policy == POSIX_TRACE_LOOP) {
            while (s->ring.cap - ring_used(&s->ring) < need)
                drop_oldest(s);                     /* S0032, S0033 */
        } else {
            /* UNTIL_FULL (S0034): the event is lost, STOP(auto) goes into
             * the space kept for it, the stream suspends itself. */
            static const struct origin none = { 0, 0, 0, -1 };
            int automatic = 1;
            s->overrun = POSIX_TRACE_OVERRUN;
            s->lost++;
            write_record(s, POSIX_TRACE_STOP, &automatic, sizeof automatic, 0, &none);
            s->run = POSIX_TRACE_SUSPENDED;
            s->full = POSIX_TRACE_FULL;
            s->autostopped = 1;
            stream_update_recording(s);
            return -1;
        }
    }
    write_record(s, id, data, len, truncated, o);
    return 0;
}
