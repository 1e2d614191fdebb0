/*
 * stream.h -- the reference's trace streams: the per-process table of stream
 * slots, a stream's state, and the operations the API files share.
 *
 * Locking: each slot has one mutex, which guards everything in the slot.  A
 * slot is never freed, so a thread may lock a slot whose stream was shut down
 * meanwhile: every operation checks, under the lock, that the slot still
 * holds the stream its trace id names (state and generation).  The table
 * lock serialises creation, fork and exit.
 */
#ifndef POSIXTRACE_STREAM_H
#define POSIXTRACE_STREAM_H

#include <trace.h>
#include <stdatomic.h>
#include <stdint.h>
#include "ring.h"

enum slot_state { SLOT_FREE = 0, SLOT_ACTIVE = 1 };

/* The overflow condition of a LOOP stream, as the reader will report it. */
enum overflow_state {
    OVF_NONE = 0,     /* nothing lost since the reader last caught up */
    OVF_PENDING,      /* events lost: OVERFLOW not reported yet */
    OVF_RESUME        /* OVERFLOW reported: RESUME comes before the next event */
};

struct stream {
    pthread_mutex_t lock;
    pthread_cond_t  readable;       /* readers wait here for an event */
    unsigned long   gen;            /* generation: part of the trace id */
    int             state;          /* enum slot_state */
    int             waiters;        /* readers blocked on `readable` */

    /* The stream proper, valid while state == SLOT_ACTIVE. */
    trace_attr_t    attr;           /* copy of the creation attributes */
    int             policy;         /* resolved stream-full-policy */
    int             run;            /* POSIX_TRACE_RUNNING / _SUSPENDED */
    int             full;           /* POSIX_TRACE_FULL / _NOT_FULL */
    int             overrun;        /* POSIX_TRACE_OVERRUN / _NO_OVERRUN */
    int             autostopped;    /* UNTIL_FULL stopped itself: restart when empty */
    uint32_t        max_data;       /* max-data-size */
    uint64_t        reserve;        /* ring space kept for the automatic STOP */
    struct ring     ring;
    int             ovf;            /* enum overflow_state */
    uint64_t        ovf_ts;         /* timestamp of the first event lost */
    uint64_t        lost;           /* events lost so far (statistics) */
    unsigned        typelist_pos;   /* cursor of eventtypelist_getnext_id */
    pid_t           owner;          /* controller process */
    int             sim;            /* simulated clock? */
    uint64_t        sim_now;        /* its value, ns */
    uint64_t        sim_step;       /* its step, ns */
};

struct stream_table {
    pthread_mutex_t  lock;
    /* Bit i: slot i records events (running, or UNTIL_FULL-stopped and
     * counting the events it loses).  Read without a lock by
     * posix_trace_event(), so that a process with no running stream pays
     * one load per event. */
    _Atomic uint64_t recording;
    pid_t            pid;           /* this process, refreshed after fork */
    struct stream    slots[TRACE_SYS_MAX];
};

extern struct stream_table posixtrace_table;

/* Initialises the table once (mutexes, fork and exit handlers). */
void stream_table_init(void);

/* Locks and returns the active stream trid names, or NULL (trid invalid,
 * shut down, or inherited from a parent process). */
struct stream *stream_acquire(trace_id_t trid);
static inline void stream_release(struct stream *s) { pthread_mutex_unlock(&s->lock); }

static inline trace_id_t stream_trid(const struct stream *s)
{
    return (trace_id_t)(s->gen << 6) | (trace_id_t)(s - posixtrace_table.slots);
}

/* Identity of an event's origin; system events with none use all zeros. */
struct origin {
    uint32_t pid;
    uint64_t thread;
    uint64_t prog;
    int32_t  cpu;
};

/* The origin of an event recorded by the calling thread at address prog. */
void origin_of_caller(struct origin *o, const void *prog);

/* Updates the recording mask bit of s after a change of state. */
void stream_update_recording(struct stream *s);

/* Would an event with len bytes of data fit without loss? (LOOP: always.) */
static inline int stream_fits(const struct stream *s, uint32_t len)
{
    return s->policy == POSIX_TRACE_LOOP ||
           rec_size(len) + s->reserve + ring_used(&s->ring) <= s->ring.cap;
}

static inline uint64_t timespec_to_ns(const struct timespec *t)
{
    return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

static inline void ns_to_timespec(uint64_t ns, struct timespec *t)
{
    t->tv_sec = (time_t)(ns / 1000000000u);
    t->tv_nsec = (long)(ns % 1000000000u);
}

/* Size of the largest system event's data: the FILTER event's two sets. */
#define SYSTEM_EVENT_DATA_MAX  (2 * sizeof(trace_event_set_t))

#endif
