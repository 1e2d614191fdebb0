/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_kernel.h> -- the simulated instrumented kernel of the
 * posixtrace reference: CPUs with their cycle counters, a seeded workload,
 * the ring of kernel buffers and the logger that drains them into a trace
 * file (spec/kernel-slot-protocol.md, rules KSP-15..KSP-24;
 * reference/kernel/KERNEL.md describes the model), and the checker that
 * reads such a file back against the kernel's rules.
 *
 * Everything goes through the one slot codec (<posixtrace_codec.h>): events
 * are encoded with slot_encode_*, stamped with slot_clock_stamp, and the
 * file header is trace_file_header_build's.
 *
 * Deterministic: the same configuration (seed included) gives the same bytes
 * on every machine.  Nothing reads the wall clock, the host name or the
 * environment; the file is always little-endian.  No global state: a run is
 * an object of the caller's.  build/bin/tracesim is its command line.
 */
#ifndef POSIXTRACE_KERNEL_H
#define POSIXTRACE_KERNEL_H

#include <posixtrace_api.h>
#include <posixtrace_codec.h>
#include <stddef.h>
#include <stdint.h>

__POSIXTRACE_BEGIN_API

enum ksim_mode {
    KSIM_LINEAR,    /* hand buffers to the logger at the high-water mark (KSP-20) */
    KSIM_RING       /* overwrite the oldest buffer; hand over at stop */
};

/* Limits of the configuration. */
#define KSIM_MAX_BUFFERS       4096
#define KSIM_MAX_LANES         8
#define KSIM_MAX_CPS           UINT64_C(100000000000)     /* 100 GHz */
#define KSIM_MAX_GAP_NS        UINT64_C(1000000000)       /* 1 s */
/* The largest workload event, in slots (the reserve bound of KERNEL.md
 * lowers it for many CPUs). */
#define KSIM_MAX_EVENT_SLOTS   24

struct ksim_config {
    unsigned ncpus;             /* 1-64 */
    uint64_t nevents;           /* workload events to generate (CONTROL not counted) */
    uint64_t seed;
    enum ksim_mode mode;
    unsigned nbuffers;          /* kernel buffers in the ring, 2-KSIM_MAX_BUFFERS */
    uint64_t cycles_per_sec;    /* the counters' rate, 1-KSIM_MAX_CPS */
    uint64_t gap_ns;            /* mean simulated time between two kernel steps, 1-1e9 */
    int wrap_early;             /* start each counter a little before a low-word wrap */
    uint64_t logger_every;      /* the logger copies one buffer every N events
                                 * generated (per lane); 0: at once */
    unsigned logger_lanes;      /* buffers the logger copies at the same time, 1-8 */
    unsigned logger_jitter;     /* +- percent of logger_every per copy, 0-100 */
    size_t syspage_len;         /* bytes of simulated system page, 0-65536 */
    /* Header values (KSP-23); NULL: the fixed defaults of KERNEL.md. */
    const char *file_name, *date, *boot_date, *nodename;
};

/* The defaults: 1 CPU, 0 events, seed 1, linear, 32 buffers, 1 GHz, 500 ns,
 * a logger that keeps up (every 0, 1 lane, no jitter), a 256-byte system
 * page. */
void ksim_config_default(struct ksim_config *cfg);

/* 0, or EINVAL with a one-line message naming the field and the range. */
int ksim_config_check(const struct ksim_config *cfg, char *err, size_t errlen);

/* The largest event the workload generates with this many CPUs, in slots:
 * min(24, 301 / ncpus - 1), so that the events in progress on every CPU
 * always fit in a buffer's 300-slot reserve (KSP-20, KERNEL.md). */
unsigned ksim_max_event_slots(unsigned ncpus);

/* What a run did. */
struct ksim_stats {
    uint64_t events_generated;          /* workload events begun (= nevents) */
    uint64_t events_written;            /* ... whose slots went into a buffer */
    uint64_t events_dropped;            /* ... dropped: no free buffer (KSP-20) */
    uint64_t slots_dropped;
    uint64_t events_overwritten;        /* ring mode: first slot in an overwritten buffer */
    uint64_t buffers_overwritten;
    uint64_t combine_events;            /* written events of more than one slot */
    uint64_t straddling_events;         /* ... whose slots lie in two buffers or more */
    uint64_t events_per_class[SLOT_NCLASSES];   /* written workload events */
    uint64_t events_per_cpu[SLOT_NCPUS];
    uint64_t events_per_ext_class[17];  /* generated, by external class (KSP-6) */
    uint64_t slots_written;             /* into kernel buffers, CONTROL included */
    uint64_t buffers_started;
    uint64_t buffers_handed;            /* to the logger */
    uint64_t buffers_logged;            /* written to the file */
    uint64_t slots_logged;
    uint64_t skips[3];                  /* move-ons to the next buffer, skipping 1, 2 */
    uint64_t drop_reports;              /* CONTROL/DROPPED events */
    uint64_t time_events;               /* CONTROL/TIME events, all reasons */
    uint64_t time_at_wrap;              /* ... of which before an event after a wrap */
    uint64_t buffer_events;             /* CONTROL/BUFFER events */
    uint64_t stamp_bumps;               /* KSP-9: clock had not moved, stamp + 1 */
    uint64_t file_bytes;                /* header, system page and slots */
    uint64_t header_bytes;              /* header text and system page */
};

/* Where the logger's bytes go: write() returns 0 or an error number (the
 * run then stops with it). */
struct ksim_sink {
    int (*write)(void *user, const void *bytes, size_t n);
    void *user;
};

/* Called every 65536 events generated (and at the end) when not NULL. */
struct ksim_progress {
    void (*fn)(void *user, uint64_t done, uint64_t total);
    void *user;
};

/* Runs the whole simulation: starts tracing, generates cfg->nevents events,
 * stops, and writes the trace file to sink.  0, or an error number with a
 * one-line message: EINVAL (bad configuration), ENOMEM, an error of the
 * sink, EOVERFLOW (an internal bound was broken: a bug, with the details).
 * stats may be NULL. */
int ksim_run(const struct ksim_config *cfg, const struct ksim_sink *sink,
             const struct ksim_progress *progress, struct ksim_stats *stats,
             char *err, size_t errlen);

/* A sink that writes to a stdio stream (user is the FILE *). */
int ksim_sink_stdio(void *user, const void *bytes, size_t n);

/* ---- checking a simulated trace (kernel_sim_verify.c) -----------------------
 * Reads a trace file as the simulator writes it and checks the kernel's
 * rules on it, independently of how it was made: the header (KSP-23/24),
 * every buffer starting with BUFFER (KSP-19) followed by one TIME per CPU
 * (KSP-16/17) and, after drops, DROPPED (KSP-22); buffer sizes (KSP-18,
 * KSP-20 in linear mode); sequence numbers; per-CPU strictly increasing
 * times (KSP-9); and it decodes every event with the codec. */
struct ksim_verify {
    unsigned ncpus;                 /* from the header */
    uint64_t buffers;
    uint64_t slots;
    uint64_t events;                /* decoded, all classes */
    uint64_t workload_events;       /* decoded, CONTROL excluded */
    uint64_t combine_events;
    uint64_t dropped_events;        /* reported by DROPPED events */
    uint64_t dropped_slots;
    uint64_t time_events;
    uint64_t decode_errors;         /* integrity errors of the decoder */
    uint64_t orphan_slots;          /* ring mode: CC/CE whose CB was overwritten, which
                                     * the decoder delivers as incomplete events (KSP-14;
                                     * not problems there; in linear mode they are) */
    uint64_t first_seq, last_seq;
    uint64_t seq_gaps;              /* buffers missing between sequence numbers */
    uint64_t short_buffers;         /* buffers below the high-water mark */
    uint64_t problems;              /* rule violations found (the first is in err) */
};

/* Verifies the file of len bytes at file.  linear: apply the hand-over rule
 * of linear mode (every buffer but the last two reaches the high-water mark;
 * sequence numbers without gaps).  Returns 0 if no problem was found, else
 * EINVAL with the first problem in err ("offset N: KSP-n: ..."); v is filled
 * in either case. */
int ksim_verify_file(const void *file, size_t len, int linear, struct ksim_verify *v,
                     char *err, size_t errlen);

__POSIXTRACE_END_API

#endif /* POSIXTRACE_KERNEL_H */
