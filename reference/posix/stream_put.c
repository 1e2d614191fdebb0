/* SPDX-License-Identifier: MIT */
/*
 * stream_put.c -- the slow paths of recording (stream_put.h): a full LOOP
 * stream overwriting its oldest events, a full UNTIL_FULL stream stopping
 * itself; and the deterministic origin of an event.
 */
#include <stdlib.h>
#include "posix/process.h"
#include "posix/stream_put.h"
#include "posix/stream_table.h"

struct stream_flush_hooks stream_flush_hooks;     /* log_flusher.c sets them */

/* A traced process other than the controller cannot run the controller's
 * log code (its memory is the controller's): it wakes the flusher. */
static int kick_flusher(struct stream *s)
{
    if (s->owner == posixtrace_proc.pid)
        return 0;
    s->flush_mark = 0;
    s->flush_kick = 1;
    shm_cond_signal(&s->flush_wake);
    return 1;
}

void stream_flush_auto(struct stream *s)
{
    if (kick_flusher(s))
        return;
    stream_flush_hooks.auto_flush(s);
}

int stream_flush_make_room(struct stream *s, uint64_t need, uint64_t extra)
{
    if (kick_flusher(s))
        return -1;          /* full until the flusher has run (posix/CHOICES.md) */
    return stream_flush_hooks.make_room(s, need, extra);
}

/* The rank (1, 2, ...) of the calling thread among those that recorded
 * into s, whatever their process; 0 past SIM_ORIGINS_MAX (the thread is
 * then "none"). */
static uint64_t sim_thread_rank(struct stream *s)
{
    uint64_t t = origin_thread();
    uint32_t pid = (uint32_t)posixtrace_proc.pid;
    for (unsigned i = 0; i < s->nsim_threads; i++)
        if (s->sim_threads[i].pid == pid && s->sim_threads[i].thread == t)
            return i + 1u;
    if (s->nsim_threads == SIM_ORIGINS_MAX)
        return 0;
    s->sim_threads[s->nsim_threads].pid = pid;
    s->sim_threads[s->nsim_threads].thread = t;
    return ++s->nsim_threads;
}

/* The rank (0, 1, ...) of the calling process among those that recorded
 * into s: the deterministic pid is the stream's plus this rank. */
static uint32_t sim_process_rank(struct stream *s)
{
    uint32_t pid = (uint32_t)posixtrace_proc.pid;
    for (unsigned i = 0; i < s->nsim_pids; i++)
        if (s->sim_pids[i] == pid)
            return i;
    if (s->nsim_pids == SIM_ORIGINS_MAX)
        return SIM_ORIGINS_MAX;
    s->sim_pids[s->nsim_pids] = pid;
    return s->nsim_pids++;
}

void stream_sim_origin(struct stream *s, struct origin *o)
{
    /* LOGFORMAT section 9: nothing that differs from run to run. */
    o->pid = s->sim_pid + sim_process_rank(s);
    o->thread = sim_thread_rank(s);
    o->prog = 0;
    o->cpu = sim_cpu_of_thread();
}

void stream_drop_upto(struct stream *s, uint64_t cut)
{
    while (ring_used(&s->ring) > 0) {
        uint32_t len;
        uint64_t ts;
        RING_HDR_FIELD(&s->ring, s->ring.tail, ts, &ts);
        if (ts > cut)
            return;
        RING_HDR_FIELD(&s->ring, s->ring.tail, len, &len);
        s->ring.tail += rec_size(len & REC_LEN_MASK);
        stream_lose(s, ts);
    }
}

/* UNTIL_FULL (S0034): the event is lost, STOP(auto) goes into the space kept
 * for it, and the stream suspends itself.  Returns -1 (the event is lost). */
int stream_full_until(struct stream *s)
{
    static const struct origin none = { 0, 0, 0, -1 };
    int automatic = 1;
    s->overrun = POSIX_TRACE_OVERRUN;
    s->recorded++;                      /* taken in and lost at once */
    s->lost++;
    stream_write(s, POSIX_TRACE_STOP, &automatic, sizeof automatic, 0, &none);
    s->run = POSIX_TRACE_SUSPENDED;
    s->full = POSIX_TRACE_FULL;
    s->autostopped = 1;
    stream_update_recording(s);
    return -1;
}
