/* SPDX-License-Identifier: MIT */
/*
 * kernel_sim_impl.h -- the parts of the kernel simulator and how they share
 * one run (<posixtrace_kernel.h> is the public face).  One file per part:
 *
 *   kernel_sim.c           the run: configuration, the scheduler of the CPUs,
 *                          events in progress, start and stop of tracing
 *   kernel_sim_cpu.c       cycle counters and timestamps (KSP-9, KSP-15..17)
 *   kernel_sim_workload.c  the seeded workload: every external class (KSP-6)
 *   kernel_sim_ring.c      the ring of buffers: BUFFER/TIME/DROPPED, high-water
 *                          hand-over, skip-ahead, drops, ring mode (KSP-18..22)
 *   kernel_sim_logger.c    the logger: copies, file order, the file (KSP-23/24)
 *   kernel_sim_verify.c    the checker of a simulated trace file
 *
 * The PRNG is here: xoshiro256** seeded through splitmix64, one independent
 * stream per purpose, so that changing the logger's speed does not change
 * the workload that is generated.
 */
#ifndef POSIXTRACE_KERNEL_SIM_IMPL_H
#define POSIXTRACE_KERNEL_SIM_IMPL_H

#include <posixtrace_kernel.h>
#include "slot/slot_codec.h"

/* ---- PRNG ------------------------------------------------------------------- */

struct ksim_rng {
    uint64_t s[4];
};

static inline uint64_t ksim_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Stream `stream` of seed: the four words from splitmix64, never all 0. */
static inline void ksim_rng_seed(struct ksim_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * UINT64_C(0xD1B54A32D192ED03));
    for (int i = 0; i < 4; i++)
        r->s[i] = ksim_splitmix64(&x);
}

static inline uint64_t ksim_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t ksim_rng_next(struct ksim_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = ksim_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ksim_rotl(s[3], 45);
    return out;
}

/* Uniform enough in 0..n-1 (n >= 1): the high 32 bits scaled, no division. */
static inline uint32_t ksim_rng_below(struct ksim_rng *r, uint32_t n)
{
    return (uint32_t)(((ksim_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

enum { RNG_SCHED = 1, RNG_WORK, RNG_CLOCK, RNG_LOGGER };

/* ---- CPUs and their counters (kernel_sim_cpu.c) ------------------------------ */

struct ksim_cpus {
    unsigned n;
    uint64_t start[SLOT_NCPUS];     /* each counter's value when tracing starts */
    uint64_t now;                   /* cycles since then, the same for every CPU */
    uint64_t mean_gap;              /* cycles between two steps, on average */
    struct slot_clock clock;        /* the codec's per-CPU unique stamps (KSP-9) */
};

void ksim_cpus_init(struct ksim_cpus *c, const struct ksim_config *cfg, struct ksim_rng *rng);
/* Time moves on by one step: 0 cycles one time in 16 (so that KSP-9's bump
 * happens), else 1 to 2 * mean_gap - 1. */
void ksim_cpus_advance(struct ksim_cpus *c, struct ksim_rng *rng);
/* CPU cpu's counter now (KSP-15). */
uint64_t ksim_cpu_counter(const struct ksim_cpus *c, unsigned cpu);
/* Whether the next stamp of cpu would have another high word than its last
 * one: a TIME event must come first (KSP-17). */
int ksim_cpu_needs_time(const struct ksim_cpus *c, unsigned cpu);
/* The next stamp of cpu (slot_clock_stamp); *bumped is set when the clock
 * had not moved. */
uint64_t ksim_cpu_stamp(struct ksim_cpus *c, unsigned cpu, int *bumped);

/* ---- the workload (kernel_sim_workload.c) ------------------------------------ */

#define KSIM_EVENT_WORDS  (2 * KSIM_MAX_EVENT_SLOTS)

/* One event the workload wants to record. */
struct ksim_event {
    int ext_class;              /* _NTO_TRACE_* (KSP-6) */
    unsigned cls, event;        /* internal class and event code */
    int is_string;              /* payload: str (with NUL) instead of words */
    uint32_t words[KSIM_EVENT_WORDS];
    size_t nwords;
    char str[8 * KSIM_MAX_EVENT_SLOTS];
    size_t nslots;              /* slots it takes */
};

struct ksim_workload {
    struct ksim_rng rng;
    unsigned max_slots;         /* the largest event, ksim_max_event_slots() */
    uint32_t pid[SLOT_NCPUS];   /* the process and thread running on each CPU */
    uint32_t tid[SLOT_NCPUS];
    uint32_t next_pid;
};

void ksim_workload_init(struct ksim_workload *w, uint64_t seed, unsigned ncpus);
/* The next event of cpu. */
void ksim_workload_next(struct ksim_workload *w, unsigned cpu, struct ksim_event *ev);

/* ---- kernel buffers (kernel_sim_ring.c) ------------------------------------- */

enum ksim_buf_state {
    BUF_FREE,       /* empty, or (ring mode) filled and kept until overwritten */
    BUF_CURRENT,    /* the kernel writes into it */
    BUF_HANDED,     /* waiting for the logger, or being copied */
    BUF_KEPT        /* ring mode: filled, left by the kernel, not yet overwritten */
};

struct ksim_buffer {
    traceevent_t *slots;        /* _TRACE_BUFFER_SLOTS */
    uint32_t used;
    uint32_t state;             /* enum ksim_buf_state */
    uint64_t seq;               /* its BUFFER event's sequence number */
    uint64_t events;            /* workload events whose first slot is here */
};

struct ksim_ring {
    struct ksim_buffer *buf;
    unsigned n;
    unsigned cur;               /* the current buffer, once started */
    int started;
    uint64_t next_seq;
    uint64_t unreported_events; /* dropped since the last DROPPED event */
    uint64_t unreported_slots;
};

/* ---- the logger (kernel_sim_logger.c) ----------------------------------------- */

struct ksim_lane {
    int busy;
    unsigned buf;               /* the buffer it copies */
    uint64_t done_at;           /* the tick at which the copy is done */
};

struct ksim_staged {            /* a copy waiting for its turn in the file */
    traceevent_t *slots;
    uint32_t used;
    int full;
};

struct ksim_logger {
    struct ksim_sink sink;
    struct ksim_rng rng;
    uint64_t every;
    unsigned jitter;
    unsigned nlanes;
    struct ksim_lane lane[KSIM_MAX_LANES];
    unsigned *queue;            /* buffers handed over, not yet taken by a lane */
    unsigned qhead, qlen, qcap;
    struct ksim_staged *staged; /* by sequence number modulo nstaged */
    unsigned nstaged;
    uint64_t next_seq;          /* the next buffer the file takes */
    int have_next_seq;
    unsigned char *out;         /* little-endian conversion buffer */
};

/* ---- the run ------------------------------------------------------------------ */

/* An event being written slot by slot on one CPU. */
struct ksim_pending {
    traceevent_t slots[KSIM_MAX_EVENT_SLOTS];
    unsigned n, next;
    uint64_t first_seq;         /* sequence number of the buffer of its first slot */
    int straddles;
};

struct ksim {
    struct ksim_config cfg;
    struct ksim_rng sched;
    struct ksim_cpus cpus;
    struct ksim_workload work;
    struct ksim_ring ring;
    struct ksim_logger log;
    struct ksim_pending pend[SLOT_NCPUS];
    uint64_t busy_cpus;         /* bit c: CPU c has an event in progress */
    uint64_t tick;              /* events generated so far: the logger's clock */
    struct ksim_stats st;
    char *err;
    size_t errlen;
};

/* Formats the run's error message (printf-like) and returns rc. */
int ksim_fail(struct ksim *k, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Ring (kernel_sim_ring.c). */
int ksim_ring_init(struct ksim *k);
void ksim_ring_free(struct ksim *k);
/* Starts tracing: the first buffer, with BUFFER and a TIME per CPU. */
int ksim_ring_start(struct ksim *k, unsigned cpu);
/* Room for a new event of cpu: moves on past the high-water mark.  Returns
 * 0 (write it), 1 (no free buffer: the event of nslots slots is dropped and
 * counted), or an error number. */
int ksim_ring_reserve(struct ksim *k, unsigned cpu, size_t nslots);
/* A simple event stamped now on cpu, preceded by a TIME event if cpu's high
 * word changed (KSP-17); *ts is its stamp if ts is not NULL. */
int ksim_ring_simple(struct ksim *k, unsigned cpu, unsigned cls, unsigned event, uint32_t d1,
                     uint32_t d2, uint64_t *ts);
/* Stamps a workload event of cpu (after a TIME event if needed). */
int ksim_ring_stamp(struct ksim *k, unsigned cpu, uint64_t *ts);
/* Writes one slot into the current buffer. */
int ksim_ring_put(struct ksim *k, const traceevent_t *s);
/* The sequence number of the current buffer. */
uint64_t ksim_ring_seq(const struct ksim *k);
/* Counts a workload event whose first slot was just written. */
void ksim_ring_count_event(struct ksim *k);
/* Stops tracing: hands everything over (and reports drops still unreported
 * in a buffer of their own), and has the logger write it all. */
int ksim_ring_stop(struct ksim *k, unsigned cpu);

/* Logger (kernel_sim_logger.c). */
int ksim_logger_init(struct ksim *k, const struct ksim_sink *sink);
void ksim_logger_free(struct ksim *k);
/* Writes the file header and the system page (KSP-23/24). */
int ksim_logger_header(struct ksim *k);
/* Buffer b is handed over (its BUFFER event's slot count already set). */
int ksim_logger_handover(struct ksim *k, unsigned b);
/* The logger's clock reaches k->tick: copies whose time has come end, their
 * buffers become free, and the file takes what it can in sequence order. */
int ksim_logger_tick(struct ksim *k);
/* Finishes every copy and writes everything handed over. */
int ksim_logger_flush(struct ksim *k);

#endif /* POSIXTRACE_KERNEL_SIM_IMPL_H */
