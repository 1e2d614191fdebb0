/* SPDX-License-Identifier: MIT */
/*
 * record.c -- posix_trace_event(): the recording path (S0121, S0122).
 *
 * Kept short because it is the hot path: a process traced into no stream
 * pays two loads (its list of streams, its block's epoch); otherwise, for
 * each stream that records, one lock, the header and data copied into the
 * ring, one unlock.  The streams are those the process is traced into,
 * whoever controls them (process.h).
 */
#include "stream/eventset_bits.h"
#include "posix/process.h"
#include "posix/stream_put.h"

static void record_into(struct stream *s, trace_event_id_t id, const void *data,
                        size_t len, const void *prog)
{
    shm_lock(&s->lock);
    if (s->state != SLOT_ACTIVE || eventset_has(&s->filter, id)) {
        shm_unlock(&s->lock);     /* filtered out: no effect (S0122) */
        return;
    }
    if (s->run != POSIX_TRACE_RUNNING) {
        if (s->autostopped) {
            /* UNTIL_FULL and full: the event is lost (XSH 2.11.1.1). */
            s->overrun = POSIX_TRACE_OVERRUN;
            s->recorded++;          /* taken in and lost at once */
            s->lost++;
        }
        shm_unlock(&s->lock);
        return;
    }
    int truncated = len > s->max_data;
    uint32_t n = truncated ? s->max_data : (uint32_t)len;   /* S0121 */
    struct origin o;
    stream_origin(s, &o, prog);
    stream_put(s, id, data, n, truncated, &o);
    shm_unlock(&s->lock);
}

void posix_trace_event(trace_event_id_t id, const void *restrict data, size_t len)
{
    struct proc *p = &posixtrace_proc;
    if (__builtin_expect(atomic_load_explicit(p->epoch, memory_order_acquire) !=
                         atomic_load_explicit(&p->seen, memory_order_relaxed), 0))
        proc_sync();                    /* a controller created a stream for us */
    uint64_t mask = atomic_load_explicit(&p->mask, memory_order_acquire);
    if (mask == 0 || id >= __POSIXTRACE_EVENT_ID_LIMIT)
        return;
    if (data == NULL)
        len = 0;
    const void *prog = __builtin_return_address(0);
    do {
        int i = __builtin_ctzll(mask);
        mask &= mask - 1;
        struct stream *s = atomic_load_explicit(&p->att[i].s, memory_order_relaxed);
        if (s != NULL && atomic_load_explicit(&s->recording, memory_order_relaxed))
            record_into(s, id, data, len, prog);
    } while (mask);
}
