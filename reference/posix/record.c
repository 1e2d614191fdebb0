/* SPDX-License-Identifier: MIT */
/*
 * record.c -- posix_trace_event(): the recording path (S0121, S0122).
 *
 * Kept short because it is the hot path.  The first test is one branch
 * (posix_trace_event, below): a process traced into no stream, and an event
 * its one stream filters out, cost a few loads and that branch, with no
 * lock and no walk of its streams -- about what an empty call costs.  Then,
 * for each stream that records: the common case on the simulated clock in
 * a function that calls nothing (record_sim); staged without the lock on a
 * real clock (stage.h); else one lock, the header and data copied into the
 * ring, one unlock.  The streams are those the process is traced into,
 * whoever controls them (process.h).
 */
#include "posix/process.h"
#include "posix/stage.h"
#include "posix/stream_put.h"

/* Does s want event id?  Filtered out, or not recording: one load of the
 * stream's pass bits and a branch, no lock (S0122; stream.h). */
static inline int stream_wants(struct stream *s, trace_event_id_t id)
{
    return s != NULL &&
           (int)((atomic_load_explicit(&s->pass[id / 64u], memory_order_relaxed) >>
                  (id % 64u)) & 1u);
}

/* The rest of recording into s, its lock held: every case. */
__attribute__((noinline)) static void record_locked(struct stream *s, trace_event_id_t id,
                                                    const void *data, size_t len,
                                                    const void *prog)
{
    /* Events this thread staged before go first: a thread's events keep
     * their order (an event too big to stage, or a full buffer). */
    if (atomic_load_explicit(&s->stages_used, memory_order_relaxed))
        stage_drain(s);
    if (!stream_admits(s, id)) {        /* filtered out, stopped or full */
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

/* Every case, the lock not held. */
__attribute__((noinline)) static void record_into(struct stream *s, trace_event_id_t id,
                                                  const void *data, size_t len,
                                                  const void *prog)
{
    if (!s->sim && stage_record(s, id, data, len, prog))
        return;                         /* staged without the lock (stage.h) */
    if (data == NULL)
        len = 0;
    shm_lock(&s->lock);
    record_locked(s, id, data, len, prog);
}

/* The common case on the simulated clock (struct stream's plain): 8 bytes
 * of data, the lock free, a real origin known, id passed, no reader
 * waiting, no wrap.  Every other case leaves by a tail call (record_into
 * before the lock, record_locked after it), so that this function calls
 * nothing and its values stay in registers: simulated clock, one thread,
 * 13.0-14.5 -> 10.3-10.6 ns an event (bench_compare record-sim, the lower
 * half of 12 runs, this and the last build in turn). */
__attribute__((noinline)) static void record_sim(struct stream *s, trace_event_id_t id,
                                                 const void *data, size_t len,
                                                 const void *prog)
{
    uint64_t thread = posixtrace_thread_word;
    const volatile int32_t *cpu_word = posixtrace_cpu_word;
    if (!s->plain || len != 8 || data == NULL || thread == 0 || cpu_word == NULL ||
        sim_cpu_of_thread() >= 0 || !shm_trylock(&s->lock)) {
        record_into(s, id, data, len, prog);
        return;
    }
    /* Under the lock, id's pass bit says that the stream runs and takes id
     * (stream_update_recording; a LOOP stream never stops by itself). */
    int32_t cpu = *cpu_word;
    if (cpu < 0 || !stream_wants(s, id) || s->waiters ||
        atomic_load_explicit(&s->stages_used, memory_order_relaxed)) {
        record_locked(s, id, data, len, prog);
        return;
    }
    struct ring *r = &s->ring;
    uint64_t need = rec_size(8);
    stream_make_room(s, need);          /* LOOP, no reserve */
    uint64_t pos = r->head & (r->cap - 1);
    if (pos + need > r->cap) {
        record_locked(s, id, data, len, prog);
        return;
    }
    struct rec_hdr h = {
        .ts = stream_sim_tick(s), .thread = thread, .prog = (uint64_t)(uintptr_t)prog, .id = id,
        .pid = (uint32_t)posixtrace_proc.pid, .len = 8, .cpu = cpu,
    };
    s->last_ts = h.ts;
    ring_put_record(ring_buf(r) + pos, &h, data, 8);
    r->head += need;
    s->recorded++;                      /* stream_counts.c */
    shm_unlock(&s->lock);
}

/* A process traced into several streams records into each in turn. */
__attribute__((noinline)) static void record_each(uint64_t mask, trace_event_id_t id,
                                                  const void *data, size_t len,
                                                  const void *prog)
{
    struct proc *p = &posixtrace_proc;
    do {
        int i = __builtin_ctzll(mask);
        mask &= mask - 1;
        struct stream *s = atomic_load_explicit(&p->att[i].s, memory_order_relaxed);
        if (stream_wants(s, id))
            record_sim(s, id, data, len, prog);
    } while (mask);
}

/* After the first test: a controller posted a stream (the block's posted
 * word set), or several streams, or none that records id. */
__attribute__((noinline)) static void record_slow(trace_event_id_t id, const void *data,
                                                  size_t len, const void *prog)
{
    struct proc *p = &posixtrace_proc;
    if (proc_posted())
        proc_sync();                    /* a controller created a stream for us */
    uint64_t mask = atomic_load_explicit(&p->mask, memory_order_acquire);
    if (mask != 0 && id < __POSIXTRACE_EVENT_ID_LIMIT)
        record_each(mask, id, data, len, prog);     /* one stream or several */
}

/* Past the first test: an event of the process's one stream that records
 * goes straight to record_sim (and from there where it belongs). */
static inline __attribute__((always_inline)) void
record_past_gate(trace_event_id_t id, const void *data, size_t len, const void *prog)
{
    struct stream *s = atomic_load_explicit(&posixtrace_proc.one, memory_order_relaxed);
    if (!proc_posted() && s != NULL)
        record_sim(s, id, data, len, prog);
    else
        record_slow(id, data, len, prog);
}

/* The first test, one branch whatever the case: nothing posted to the
 * process's block, and the pass bit of id is clear in the process's pass bits
 * (process.h).  Made here when the function is called by its name or
 * address; <trace.h>'s macro makes it inline in the caller and calls
 * __posixtrace_event_work, the rest. */
void (posix_trace_event)(trace_event_id_t id, const void *restrict data, size_t len)
{
    if (__posixtrace_event_has_work(id))
        record_past_gate(id, data, len, __builtin_return_address(0));
}

void __posixtrace_event_work(trace_event_id_t id, const void *restrict data, size_t len)
{
    record_past_gate(id, data, len, __builtin_return_address(0));
}
