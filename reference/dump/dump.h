/* SPDX-License-Identifier: MIT */
/*
 * dump.h -- reading a kernel trace file and printing its events, one a line
 * or as JSON: the library behind tracedump.  Its public API is
 * <posixtrace_dump.h> (dump_trace_fd, dump_trace_mem: a file, whatever it
 * is); this header is the reference's side: the layers that describe
 * events, the kernel and POSIX log views on their own, and the writers.
 * The formats are specified in reference/kernel/KERNEL.md; the JSON one is the
 * contract a third-party decoder meets to be checked by build/harness/kvecrun.
 *
 * Decoding is the codec's (trace_file_decode_fd, slot_decoder): this code
 * only names events and prints them.  It reads any input without crashing,
 * looping or reading out of bounds (the codec's guarantee, and this code's
 * own bounds on what it prints of a payload).
 *
 * Events are described by layers: a layer is asked first about each event
 * and may claim it; what no layer claims the kernel layer describes
 * (dump_kernel.c).  The POSIX trace log, whose events are USER-class events
 * of the same file format, plugs in as a layer that claims its own events.
 */
#ifndef POSIXTRACE_REF_DUMP_H
#define POSIXTRACE_REF_DUMP_H

#include <posixtrace_dump.h>
#include <stdint.h>
#include <stdio.h>
#include "slot/slot_codec.h"
#include "slot/trace_file.h"

/* ---- describing events ---------------------------------------------------- */

#define DUMP_MAX_ARGS  8
#define DUMP_STR_MAX   256      /* bytes of one string argument, NUL included */

/* One decoded argument of an event: a number, or a string (pointing into
 * the description's own storage). */
struct dump_arg {
    const char *key;            /* a static name: "seq", "pid", "name" */
    int is_str;
    int hex;                    /* a number best read in hexadecimal */
    uint64_t num;
    const char *str;
};

/* What a layer says about an event. */
struct dump_desc {
    const char *class_name;     /* "KER_CALL" */
    char name[48];              /* the event's name: "enter:11", "BUFFER" */
    struct dump_arg args[DUMP_MAX_ARGS];
    unsigned nargs;
    char strs[2][DUMP_STR_MAX]; /* storage of string arguments */
    unsigned nstrs;
};

struct dump_layer {
    const char *name;
    /* 1: ev is this layer's and d is filled; 0: not its event.  d arrives
     * cleared.  Must not keep ev->words past the call. */
    int (*describe)(void *ctx, const struct slot_event *ev, struct dump_desc *d);
    void *ctx;
};

/* The kernel layer: every class of KSP-5/KSP-6 and its events. */
void dump_kernel_describe(const struct slot_event *ev, struct dump_desc *d);

/* The name of an internal class 0-7 ("CONTROL"), or "reserved". */
const char *dump_class_name(unsigned cls);

/* Helpers for layers: add a numeric or string argument to d (ignored past
 * DUMP_MAX_ARGS).  dump_add_bytes adds the string held by `nwords` words
 * (bytes little-endian, KSP-10) up to its NUL, escaped if not printable. */
void dump_add_num(struct dump_desc *d, const char *key, uint64_t v, int hex);
void dump_add_bytes(struct dump_desc *d, const char *key, const uint32_t *words,
                    uint32_t nwords);

/* ---- dumping a file ----------------------------------------------------------- */

struct dump_options {
    enum dump_format format;
    int no_events;                      /* the summary only (and errors) */
    const char *name;                   /* the file's name as shown */
    int seconds, delta, totals;         /* as in struct dump_trace_options */
    const struct dump_filter *filter;
    const struct dump_layer *layers;    /* asked before the kernel layer */
    size_t nlayers;
};

/* What a dump found. */
struct dump_result {
    int rejected;               /* the header was rejected (KSP-25): nothing decoded */
    struct slot_summary sum;    /* the decoder's totals (errors: integrity errors) */
    unsigned cpu_num;           /* from the header */
};

/* Reads the trace file open on fd and prints it to out.  Returns 0 when the
 * file was read to its end (integrity errors are in r->sum.errors), else an
 * error number with a one-line message in err: the header's rejection
 * ("offset N: KSP-25: ..."), a read error, or ENOMEM.  In JSON mode the
 * document is printed in every case, with the rejection as "fatal". */
int dump_fd(int fd, FILE *out, const struct dump_options *o, struct dump_result *r,
            char *err, size_t errlen);

/* The same from a file in memory. */
int dump_mem(const void *file, size_t len, FILE *out, const struct dump_options *o,
             struct dump_result *r, char *err, size_t errlen);

/* ---- the POSIX trace log (dump_posix.c) ----------------------------------------------
 * A file whose header has TRACE_POSIX_LOG:: (reference/log/LOGFORMAT.md; this
 * reader takes its version 2 and says it does not read another) is
 * shown as POSIX events, oldest first, with the log's attributes, names,
 * status and integrity errors (text, or JSON "posixtrace-log-dump"). */

struct dump_posix_result {
    int rejected;               /* not a readable POSIX log: nothing shown */
    uint64_t events;            /* events shown */
    uint64_t errors;            /* integrity errors reported */
    int complete;               /* its final status is there: it was shut down */
};

/* Is the file whose header is info a POSIX trace log? */
int dump_is_posix_log(const struct trace_file_info *info);

/* Prints the POSIX log open on fd (or in memory).  0; or EINVAL when it is
 * no readable log (err says why; JSON mode prints the document with
 * "fatal"), ENOMEM, or the error of a temporary file. */
int dump_posix_fd(int fd, FILE *out, const struct dump_options *o,
                  struct dump_posix_result *r, char *err, size_t errlen);
int dump_posix_mem(const void *file, size_t len, FILE *out, const struct dump_options *o,
                   struct dump_posix_result *r, char *err, size_t errlen);

/* The layer that names a POSIX log's records in the slot view (--slots). */
extern const struct dump_layer dump_posix_layer;

/* ---- the writers (dump_text.c, dump_json.c) --------------------------------------- */

/* A dump in progress, shared by the driver (dump_run.c) and the writers. */
struct dump_ctx {
    FILE *out;
    const struct dump_options *o;
    const struct trace_file_info *info;     /* NULL when rejected */
    FILE *errors;               /* JSON: errors kept until the events are written */
    int errors_failed;          /* the temporary file for them could not be made */
    uint64_t nerrors_kept;
    uint64_t nevents;
    /* times shown (seconds, delta) and what the filter let through */
    uint64_t have_t0, rebased;          /* bit c: CPU c's origin known; set at a TIME */
    uint64_t t0[SLOT_NCPUS];            /* each CPU's origin: its first event's time */
    int have_prev;
    double prev;                        /* the previous shown event's time as shown */
    double time;                        /* the event being written's, as shown */
    uint64_t prev_ticks;                /* the previous shown event's raw time */
    uint64_t shown;
    uint64_t by_cpu_class[SLOT_NCPUS][SLOT_NCLASSES];     /* totals: every event */
};

/* ---- times and filters (dump_filter.c) ------------------------------------------------ */

/* Does the filter f (NULL: all) let the event through?  pid < 0: it has none. */
int dump_filter_pass(const struct dump_filter *f, unsigned cpu, const char *class_name,
                     const char *event_name, int64_t pid, double seconds);

/* The process id among d's arguments ("pid"), or -1. */
int64_t dump_desc_pid(const struct dump_desc *d);

/* Seconds from t0 to t at cycles_per_sec (negative if t is earlier). */
double dump_seconds(uint64_t t, uint64_t t0, uint64_t cycles_per_sec);

/* The time of ev as shown: seconds since its CPU's first event (the CPUs'
 * counters need not agree: the simulator's do not), or raw ticks; keeps
 * the CPU's origin in c.  A CPU's events before its first TIME have a high
 * word of 0 (KSP-17): at that TIME the origin takes the high word too. */
double dump_shown_time(struct dump_ctx *c, const struct slot_event *ev);

/* The summary's table of events by CPU and class with its total line
 * (text: lines starting "#"; JSON: the "by_cpu" member's value). */
void dump_totals_text(FILE *f, const uint64_t (*by)[SLOT_NCLASSES]);
void dump_totals_json(FILE *f, const uint64_t (*by)[SLOT_NCLASSES]);

void dump_text_begin(struct dump_ctx *c);
void dump_text_event(struct dump_ctx *c, const struct slot_event *ev, const struct dump_desc *d);
void dump_text_error(struct dump_ctx *c, const struct slot_error *e);
void dump_text_end(struct dump_ctx *c, const struct slot_summary *s);

/* s as a JSON string literal (quotes, escapes; bytes outside printable ASCII
 * as \u00XX). */
void dump_json_str(FILE *f, const char *s);

void dump_json_begin(struct dump_ctx *c);
void dump_json_event(struct dump_ctx *c, const struct slot_event *ev, const struct dump_desc *d);
void dump_json_error(struct dump_ctx *c, const struct slot_error *e);
/* fatal: the rejection message, or NULL. */
void dump_json_end(struct dump_ctx *c, const struct slot_summary *s, const char *fatal,
                   int fatal_rc);

#endif /* POSIXTRACE_REF_DUMP_H */
