/* SPDX-License-Identifier: MIT */
/*
 * stream.h -- a trace stream's state (struct stream): what its shared memory
 * object holds beside its ring.  The controller's table of streams is
 * posix/stream_table.h's; the operations on a stream are the posix/ files'.
 *
 * A stream lives in a shared memory object (shm.h) with its ring, so that
 * every process traced into it records there (posix/SHARING.md).  Nothing in
 * it is a pointer valid in another process except `log`, which only its
 * controller uses.
 *
 * Locking: a stream's lock (shm_lock.h: shared between processes, and
 * taken over from a process that died holding it) guards everything in the
 * stream.  The controller's table (posix/stream_table.h) has a local
 * mutex per slot, which guards the slot (which mapping, which generation):
 * an API call takes the slot's lock, then the stream's, and lets the slot's
 * go.  A mapping that a recording thread may still be using is retired,
 * never unmapped, so a thread that finds a stream shut down under the lock
 * simply leaves.  The table lock serialises creation, fork and exit.
 */
#ifndef POSIXTRACE_STREAM_H
#define POSIXTRACE_STREAM_H

#include <trace.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include "stream/ring.h"
#include "shm/shm.h"

#define STREAM_MAGIC     0x3154535243525450ull  /* "PTRCST1": fd scan after exec */
#define SIM_ORIGINS_MAX  256                    /* threads with deterministic origins */
#define STREAM_PASS_WORDS (sizeof(trace_event_set_t) / sizeof(uint64_t))

/* SLOT_CLOSING: a stream with log being shut down: its final flush runs
 * (the flusher still uses the slot), every call with its trace id fails. */
enum slot_state { SLOT_FREE = 0, SLOT_ACTIVE = 1, SLOT_CLOSING = 2 };

struct log_stream;                  /* the trace log of a stream (log_stream.h) */
struct name_table;                  /* event names (event_names.h) */

/* The overflow condition of a LOOP stream, as the reader will report it. */
enum overflow_state {
    OVF_NONE = 0,     /* nothing lost since the reader last caught up */
    OVF_PENDING,      /* events lost: OVERFLOW not reported yet */
    OVF_RESUME        /* OVERFLOW reported: RESUME comes before the next event */
};

struct sim_origin {
    uint32_t pid;                   /* real pid of the thread's process */
    uint64_t thread;                /* its pthread_t */
};

/* A thread's staging buffer (posix/stage.c): the events it records into a
 * stream on a real clock go here without the lock, one producer (the owner
 * thread) and one consumer (whoever holds the stream's lock), then into the
 * ring, in timestamp order, under the lock.
 *
 * In a LOOP stream whose buffers hold twice its ring ("lanes", stage_lane_bytes
 * below), a thread's buffer is its share of the stream until a call takes the
 * lock: when it is full the thread drops its own oldest events, which had as
 * many bytes of its newer events behind them as the ring holds and so would
 * have been overwritten in the ring too (S0032), and counts them (dropped,
 * drop_ts); recording takes no lock and touches no line another core uses.
 * Other streams' buffers are STAGE_BYTES, moved into the ring when full. */
#define STAGE_SLOTS   8
#define STAGE_BYTES   ((uint64_t)16 << 10)              /* a power of two */
struct stage {
    /* The owner's line and the consumer's apart: no false sharing. */
    _Alignas(64) _Atomic uint64_t owner;    /* 0: free; else the owner thread's token */
    _Atomic uint64_t head;                  /* bytes staged (the owner) */
    uint64_t cap;                           /* bytes of buf, a power of two; 0: none */
    uint64_t off;                           /* buf, in bytes from this struct (the
                                             * mapping's address differs by process) */
    _Alignas(64) _Atomic uint64_t tail;     /* bytes moved into the ring (lock held) */
    uint64_t dropped;                       /* lane: events dropped, not yet counted
                                             * in the stream (lock held) */
    uint64_t drop_ts;                       /* the oldest of them's timestamp, */
    uint64_t drop_last;                     /* the newest's */
};

static inline unsigned char *stage_buf(struct stage *st)
{
    return (unsigned char *)st + st->off;
}

/* The bytes of each staging buffer of a stream with this policy, clock and
 * ring: a lane (2 x ring) for a LOOP stream on a real clock, unless that is
 * more than a 32-bit address space can spare; STAGE_BYTES for the other
 * streams on a real clock; none where events never stage (stage.c). */
#define STAGE_LANE_MAX ((uint64_t)(sizeof(void *) >= 8 ? 16u << 20 : 1u << 20))
static inline uint64_t stage_bytes_for(int loop, int stages, uint64_t ring_cap)
{
    if (!stages)
        return 0;
    if (loop && 2 * ring_cap <= STAGE_LANE_MAX)
        return 2 * ring_cap;
    return STAGE_BYTES;
}

struct stream {
    uint64_t        magic;          /* STREAM_MAGIC */
    uint64_t        map_len;        /* bytes of the shared object */
    struct shm_mutex lock;          /* shm_lock.h */
    struct shm_cond  readable;      /* readers wait here for an event */
    unsigned long   gen;            /* generation: part of the trace id */
    unsigned        slot;           /* index in the controller's table */
    int             state;          /* enum slot_state */
    int             waiters;        /* readers blocked on `readable` */
    /* The recording path's test, read without the lock by every process
     * (posix/record.c): bit id set if posix_trace_event(id) has work here,
     * that is the stream runs (or UNTIL_FULL stopped it and it counts the
     * events it loses) and id is not in the filter.  One load and a branch
     * for a filtered-out event; the lock is taken only when the bit is set,
     * and the test repeated under it.  Set by stream_update_recording(). */
    _Atomic uint64_t pass[STREAM_PASS_WORDS];

    /* The stream proper, valid while state == SLOT_ACTIVE. */
    trace_attr_t    attr;           /* copy of the creation attributes */
    int             policy;         /* resolved stream-full-policy */
    int             run;            /* POSIX_TRACE_RUNNING / _SUSPENDED */
    int             full;           /* POSIX_TRACE_FULL / _NOT_FULL */
    int             overrun;        /* POSIX_TRACE_OVERRUN / _NO_OVERRUN */
    int             autostopped;    /* UNTIL_FULL stopped itself: restart when empty */
    uint32_t        max_data;       /* max-data-size */
    uint64_t        reserve;        /* ring space kept for the automatic STOP */
    uint64_t        flush_mark;     /* FLUSH policy: ring bytes in use that start a
                                     * flush by themselves; 0: none */
    struct ring     ring;
    int             ovf;            /* enum overflow_state */
    uint64_t        ovf_ts;         /* timestamp of the first event lost */
    uint64_t        lost;           /* events lost so far (statistics) */
    /* The loss accounting (posixtrace_counts.h), read through
     * stream_counts_of() only: recorded = taken + lost + cleared + in the
     * ring, at any moment the lock is held. */
    uint64_t        recorded;       /* events taken in: written, or lost at once */
    uint64_t        taken;          /* events taken out of the ring (read, flushed) */
    uint64_t        cleared;        /* events dropped by posix_trace_clear */
    unsigned        typelist_pos;   /* cursor of eventtypelist_getnext_id */
    pid_t           owner;          /* controller process */
    int             inherit;        /* POSIX_TRACE_INHERITED / CLOSE_FOR_CHILD */
    int             sim;            /* simulated clock? */
    uint64_t        sim_now;        /* its value, ns */
    uint64_t        sim_step;       /* its step, ns */
    struct log_stream *log;         /* its trace log (TRL), NULL: none; an
                                     * address in the controller only */
    _Atomic int     flush_kick;     /* FLUSH: a traced process asks for a flush */
    struct shm_cond flush_wake;     /* its flusher waits here for work */
    struct shm_cond flush_idle;     /* clear waits here for a flush to end */
    int             simorigin;      /* deterministic origins (posixtrace_sim.h) */
    /* The simulated clock, real origins, LOOP and a max-data-size of 8 or
     * more, fixed at creation: the recording path's common case, which
     * needs no other test of these (posix/record.c, record_sim). */
    int             plain;
    uint32_t        sim_pid;
    /* Threads in the order they first recorded, and processes likewise
     * (posixtrace_attr_setsimorigin). */
    struct sim_origin sim_threads[SIM_ORIGINS_MAX];
    unsigned        nsim_threads;
    uint32_t        sim_pids[SIM_ORIGINS_MAX];
    unsigned        nsim_pids;
    trace_event_set_t filter;       /* TEF: event types not recorded (eventset_bits.h) */
    uint64_t        last_ts;        /* timestamp of the last record written */
    uint64_t        lane_cut;       /* a lane dropped an event of this time: none
                                     * older is kept (posix/stage.c) */
    uint64_t        taken_ts;       /* time of the last event taken out (read.c) */
    /* A step of a drain under way (posix/stage.c): stages[drain_stage - 1]'s
     * tail goes to drain_tail once the ring, whose head was drain_head, has
     * its events; 0: none.  A process killed in between leaves it to the
     * next drain, which finishes or forgets it by whether the head moved. */
    _Atomic uint32_t drain_stage;
    uint64_t        drain_tail, drain_head;
    _Atomic uint32_t stages_used;   /* bit i: stages[i] was ever claimed */
    struct stage    stages[STAGE_SLOTS];
};

static inline trace_id_t stream_trid(const struct stream *s)
{
    return (trace_id_t)(s->gen << 6) | (trace_id_t)s->slot;
}

/* Would an event with len bytes of data fit without loss? (LOOP: always.)
 * UNTIL_FULL and FLUSH keep room for the automatic STOP. */
static inline int stream_fits(const struct stream *s, uint32_t len)
{
    return s->policy == POSIX_TRACE_LOOP ||
           rec_size(len) + s->reserve + ring_used(&s->ring) <= s->ring.cap;
}

/* A stream's loss accounting (lock held): the one place that knows where the
 * counts live (stream_counts.c), so that a change of the recording path
 * changes this function only. */
struct stream_counts {
    uint64_t recorded, lost, taken, cleared, in_stream;
};
void stream_counts_of(const struct stream *s, struct stream_counts *c);

/* posix_trace_clear's part of the accounting (lock held): the events in the
 * ring are dropped. */
void stream_counts_clear(struct stream *s);

static inline uint64_t timespec_to_ns(const struct timespec *t)
{
    return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

static inline void ns_to_timespec(uint64_t ns, struct timespec *t)
{
    t->tv_sec = (time_t)(ns / 1000000000u);
    t->tv_nsec = (long)(ns % 1000000000u);
}

/* The event a reader reports for record header h (truncation at record
 * time only): the stream's readers' and the pre-recorded stream's. */
static inline void rec_to_event_info(const struct rec_hdr *h, struct posix_trace_event_info *ev)
{
    ev->posix_event_id = h->id;
    ev->posix_pid = (pid_t)h->pid;
    ev->posix_prog_address = (void *)(uintptr_t)h->prog;
    memset(&ev->posix_thread_id, 0, sizeof ev->posix_thread_id);
    memcpy(&ev->posix_thread_id, &h->thread,
           sizeof ev->posix_thread_id < sizeof h->thread ? sizeof ev->posix_thread_id
                                                        : sizeof h->thread);
    ns_to_timespec(h->ts, &ev->posix_timestamp);
    ev->posix_cpu = h->cpu;
    ev->posix_truncation_status = (h->len & REC_TRUNCATED) ? POSIX_TRACE_TRUNCATED_RECORD
                                                           : POSIX_TRACE_NOT_TRUNCATED;
}

/* Size of the largest system event's data: the FILTER event's two sets. */
#define SYSTEM_EVENT_DATA_MAX  (2 * sizeof(trace_event_set_t))

#endif
