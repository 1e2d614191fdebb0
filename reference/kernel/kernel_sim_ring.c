/* SPDX-License-Identifier: MIT */
/*
 * kernel_sim_ring.c -- the ring of kernel buffers (KSP-18..22): 16 KiB
 * buffers of 1014 slots, each beginning with a BUFFER event and a TIME event
 * per CPU; the move to the next buffer at the high-water mark; linear mode's
 * hand-over, skip-ahead of at most two buffers and counted drops, reported
 * by a DROPPED event at the start of the next buffer; ring mode's overwrite.
 *
 * When the kernel moves on.  An event that begins in a buffer holding 714
 * slots or more (the high-water mark) makes the kernel leave that buffer
 * first.  Events already in progress on other CPUs go on in whatever buffer
 * is current, which is how combine events come to straddle two buffers
 * (KSP-21).  No event begins past the mark, so the slots still to come are
 * those of at most one event per CPU and its TIME event: the workload keeps
 * events small enough (ksim_max_event_slots) for these to fit in the
 * 300-slot reserve, which is what the reserve is for.  ksim_ring_put checks
 * it all the same.
 */
#include <errno.h>
#include <stdlib.h>
#include "kernel/kernel_sim_impl.h"

int ksim_ring_init(struct ksim *k)
{
    struct ksim_ring *r = &k->ring;
    unsigned n = k->cfg.nbuffers;

    r->buf = calloc(n, sizeof *r->buf);
    if (r->buf == NULL)
        return ENOMEM;
    r->n = n;
    for (unsigned i = 0; i < n; i++) {
        r->buf[i].slots = malloc(_TRACE_BUFFER_SLOTS * sizeof(traceevent_t));
        if (r->buf[i].slots == NULL)
            return ENOMEM;      /* ksim_ring_free frees what was allocated */
        r->buf[i].state = BUF_FREE;
    }
    return 0;
}

void ksim_ring_free(struct ksim *k)
{
    struct ksim_ring *r = &k->ring;
    if (r->buf == NULL)
        return;
    for (unsigned i = 0; i < r->n; i++)
        free(r->buf[i].slots);
    free(r->buf);
    r->buf = NULL;
}

int ksim_ring_put(struct ksim *k, const traceevent_t *s)
{
    struct ksim_buffer *b = &k->ring.buf[k->ring.cur];
    if (b->used >= _TRACE_BUFFER_SLOTS)
        return ksim_fail(k, EOVERFLOW, "internal error: buffer %llu is full (%d slots): the "
                         "reserve did not hold the events in progress",
                         (unsigned long long)b->seq, _TRACE_BUFFER_SLOTS);
    b->slots[b->used++] = *s;
    k->st.slots_written++;
    return 0;
}

uint64_t ksim_ring_seq(const struct ksim *k)
{
    return k->ring.buf[k->ring.cur].seq;
}

void ksim_ring_count_event(struct ksim *k)
{
    k->ring.buf[k->ring.cur].events++;
}

static int put_control(struct ksim *k, unsigned cpu, unsigned event, uint64_t ts, uint32_t d1,
                       uint32_t d2)
{
    traceevent_t s = {
        slot_header(_TRACE_STRUCT_S, cpu, SLOT_CLASS_CONTROL, event), { (uint32_t)ts, d1, d2 }
    };
    return ksim_ring_put(k, &s);
}

/* KSP-16: a TIME event of cpu, its stamp's high word in data[1] and low
 * word in data[2]. */
static int emit_time(struct ksim *k, unsigned cpu)
{
    int bumped;
    uint64_t ts = ksim_cpu_stamp(&k->cpus, cpu, &bumped);
    k->st.stamp_bumps += (unsigned)bumped;
    k->st.time_events++;
    return put_control(k, cpu, _TRACE_CONTROL_TIME, ts, (uint32_t)(ts >> 32), (uint32_t)ts);
}

int ksim_ring_stamp(struct ksim *k, unsigned cpu, uint64_t *ts)
{
    int bumped, rc;
    /* KSP-17: the low word is about to wrap (or the stamp is the CPU's
     * first): a TIME event first, so that decoders know the high word.
     * At most two rounds: a TIME event's stamp only wraps again if its low
     * word was 0xFFFFFFFF. */
    while (ksim_cpu_needs_time(&k->cpus, cpu)) {
        if ((rc = emit_time(k, cpu)) != 0)
            return rc;
        k->st.time_at_wrap++;
    }
    *ts = ksim_cpu_stamp(&k->cpus, cpu, &bumped);
    k->st.stamp_bumps += (unsigned)bumped;
    return 0;
}

int ksim_ring_simple(struct ksim *k, unsigned cpu, unsigned cls, unsigned event, uint32_t d1,
                     uint32_t d2, uint64_t *ts)
{
    uint64_t t;
    int rc = ksim_ring_stamp(k, cpu, &t);
    if (rc != 0)
        return rc;
    if (ts)
        *ts = t;
    traceevent_t s = { slot_header(_TRACE_STRUCT_S, cpu, cls, event), { (uint32_t)t, d1, d2 } };
    return ksim_ring_put(k, &s);
}

/* Makes buffer b the current one and writes its first slots: BUFFER
 * (KSP-19), a TIME event per CPU (KSP-17), and DROPPED if events were
 * dropped since the last report (KSP-22). */
static int start_buffer(struct ksim *k, unsigned b, unsigned cpu)
{
    struct ksim_ring *r = &k->ring;
    struct ksim_buffer *buf = &r->buf[b];
    int bumped, rc;

    if (buf->state == BUF_KEPT) {       /* ring mode: the oldest is overwritten */
        k->st.buffers_overwritten++;
        k->st.events_overwritten += buf->events;
    }
    buf->used = 0;
    buf->events = 0;
    buf->seq = r->next_seq++;
    buf->state = BUF_CURRENT;
    r->cur = b;
    r->started = 1;
    k->st.buffers_started++;

    /* The BUFFER event is the buffer's first slot, so no TIME event may
     * come before it: its stamp is taken as it is, the TIME events follow. */
    uint64_t ts = ksim_cpu_stamp(&k->cpus, cpu, &bumped);
    k->st.stamp_bumps += (unsigned)bumped;
    k->st.buffer_events++;
    if ((rc = put_control(k, cpu, _TRACE_CONTROL_BUFFER, ts, (uint32_t)buf->seq, 0)) != 0)
        return rc;
    for (unsigned c = 0; c < k->cpus.n; c++)
        if ((rc = emit_time(k, c)) != 0)
            return rc;
    while (r->unreported_events > 0 || r->unreported_slots > 0) {
        uint32_t ev = r->unreported_events > UINT32_MAX ? UINT32_MAX
                                                        : (uint32_t)r->unreported_events;
        uint32_t sl = r->unreported_slots > UINT32_MAX ? UINT32_MAX
                                                       : (uint32_t)r->unreported_slots;
        rc = ksim_ring_simple(k, cpu, SLOT_CLASS_CONTROL, _TRACE_CONTROL_DROPPED, ev, sl, NULL);
        if (rc != 0)
            return rc;
        r->unreported_events -= ev;
        r->unreported_slots -= sl;
        k->st.drop_reports++;
    }
    return 0;
}

/* The kernel leaves the current buffer: KSP-19's slot count is written. */
static void close_current(struct ksim *k, enum ksim_buf_state to)
{
    struct ksim_buffer *buf = &k->ring.buf[k->ring.cur];
    buf->slots[0].data[2] = buf->used;
    buf->state = to;
}

int ksim_ring_start(struct ksim *k, unsigned cpu)
{
    return start_buffer(k, 0, cpu);
}

/* Linear mode: the next buffer, or the one after it, or the one after that
 * (skipping at most two, KSP-20), if it is free.  Returns the number of
 * buffers skipped, or -1 if none of them is free. */
static int find_free(const struct ksim_ring *r, unsigned *b)
{
    unsigned tries = r->n - 1 < 3 ? r->n - 1 : 3;
    for (unsigned j = 1; j <= tries; j++) {
        unsigned i = (r->cur + j) % r->n;
        if (r->buf[i].state == BUF_FREE) {
            *b = i;
            return (int)j - 1;
        }
    }
    return -1;
}

int ksim_ring_reserve(struct ksim *k, unsigned cpu, size_t nslots)
{
    struct ksim_ring *r = &k->ring;
    unsigned old = r->cur, next;
    int rc;

    if (r->buf[old].used < _TRACE_BUFFER_HIGH_WATER)
        return 0;
    if (k->cfg.mode == KSIM_RING) {
        close_current(k, BUF_KEPT);
        return start_buffer(k, (old + 1) % r->n, cpu);
    }
    int skipped = find_free(r, &next);
    if (skipped < 0) {          /* KSP-20: dropped, counted, reported later */
        k->st.events_dropped++;
        k->st.slots_dropped += nslots;
        r->unreported_events++;
        r->unreported_slots += nslots;
        return 1;
    }
    k->st.skips[skipped]++;
    close_current(k, BUF_HANDED);
    if ((rc = ksim_logger_handover(k, old)) != 0)
        return rc;
    return start_buffer(k, next, cpu);
}

int ksim_ring_stop(struct ksim *k, unsigned cpu)
{
    struct ksim_ring *r = &k->ring;
    int rc;

    if (k->cfg.mode == KSIM_RING) {
        /* Everything kept, oldest first: in ring mode buffers are used in
         * ring order, so the oldest is the one after the current one. */
        close_current(k, BUF_KEPT);
        for (unsigned j = 1; j <= r->n; j++) {
            unsigned b = (r->cur + j) % r->n;
            if (r->buf[b].state != BUF_KEPT)
                continue;
            r->buf[b].state = BUF_HANDED;
            if ((rc = ksim_logger_handover(k, b)) != 0)
                return rc;
        }
        return ksim_logger_flush(k);
    }
    close_current(k, BUF_HANDED);
    if ((rc = ksim_logger_handover(k, r->cur)) != 0 || (rc = ksim_logger_flush(k)) != 0)
        return rc;
    if (r->unreported_events == 0 && r->unreported_slots == 0)
        return 0;
    /* KSP-22: drops are never silent.  Those since the last buffer began are
     * reported by one more buffer, once the logger has freed them all. */
    if ((rc = start_buffer(k, (r->cur + 1) % r->n, cpu)) != 0)
        return rc;
    close_current(k, BUF_HANDED);
    if ((rc = ksim_logger_handover(k, r->cur)) != 0)
        return rc;
    return ksim_logger_flush(k);
}
