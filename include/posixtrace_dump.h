/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_dump.h> -- printing a trace file of the posixtrace reference:
 * a kernel trace (the kernel slot protocol, <posixtrace_codec.h>) one event a
 * line or as one JSON document, with per-CPU and per-class totals, the
 * dropped events reported and the integrity errors found; a POSIX trace log
 * (TRACE_POSIX_LOG:: in its header) as its POSIX events, oldest first, with
 * its attributes, event names and status.  build/bin/tracedump is its
 * command line.
 *
 * The formats are specified in reference/kernel/KERNEL.md ("tracedump") and
 * reference/log/LOGFORMAT.md; the JSON one is the contract a third-party
 * decoder meets to be checked by build/harness/kvecrun.  Any input is read
 * without crashing, looping or reading out of bounds.
 */
#ifndef POSIXTRACE_DUMP_H
#define POSIXTRACE_DUMP_H

#include <posixtrace_api.h>
#include <posixtrace_codec.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

__POSIXTRACE_BEGIN_API

/* DUMP_CTF, DUMP_CHROME, DUMP_SVG: the file for a viewer (issue 17): a CTF
 * 1.8 trace written to the folder ctf_dir, the Chrome/Perfetto Trace Event
 * Format, a per-CPU timeline in SVG (reference/dump/EXPORT.md). */
enum dump_format { DUMP_TEXT, DUMP_JSON, DUMP_CTF, DUMP_CHROME, DUMP_SVG };

/* Which events to show; a member left zero or NULL selects every event.
 * The summary still counts every event decoded. */
struct dump_filter {
    uint64_t cpus;                  /* bit c: CPU c (0-63) */
    const char *const *classes;     /* class names, case ignored: a kernel trace's
                                     * "KER_CALL", "INT", ...; a POSIX log's events
                                     * are "SYSTEM" (posix_trace_*) or "USER" */
    size_t nclasses;
    const char *const *events;      /* event names as shown: "enter:11", "BUFFER",
                                     * "alpha"; exact */
    size_t nevents;
    int has_pid;                    /* only events that carry this process id */
    uint64_t pid;
    int has_from, has_to;           /* only events whose time (in seconds, as shown
                                     * with `seconds`) is >= from, <= to */
    double from, to;
};

/* What to print. */
struct dump_trace_options {
    enum dump_format format;
    int no_events;          /* the header and the totals only (and errors) */
    int slots;              /* a POSIX trace log: its slots, as for a kernel trace,
                             * with its records named, not its POSIX events */
    const char *name;       /* the file's name as shown */
    const char *ctf_dir;    /* DUMP_CTF: the folder written (made if missing) */
    /* Added for people reading traces (tracedump sets them; zero keeps the
     * output of the formats as it was, which the golden files pin): */
    int seconds;            /* a kernel trace's times in seconds since its first
                             * event (text; JSON adds "seconds"), not raw ticks */
    int delta;              /* the time since the previous event shown (text: a
                             * column; JSON: "delta") */
    int totals;             /* the summary's events by CPU and class, with a total */
    const struct dump_filter *filter;   /* NULL: every event */
};

/* What a dump found. */
struct dump_trace_result {
    int posix_log;          /* shown as a POSIX trace log's events */
    uint64_t events;        /* events decoded (kernel) or shown (POSIX log) */
    uint64_t errors;        /* integrity errors reported */
    int incomplete;         /* a POSIX log that was not shut down: its final
                             * status is missing */
};

/* Prints the trace file open on fd (a regular file) to out.  Returns 0 when
 * the file was read to its end (what was wrong in it is in r: errors,
 * incomplete), else an error number with a one-line message in err: the
 * header's rejection ("offset N: KSP-25: ..."), a POSIX log that cannot be
 * read, a read error, ENOMEM.  In JSON mode a document is printed in every
 * case, with the rejection as "fatal". */
int dump_trace_fd(int fd, FILE *out, const struct dump_trace_options *o,
                  struct dump_trace_result *r, char *err, size_t errlen);

/* The same from a file of len bytes in memory. */
int dump_trace_mem(const void *file, size_t len, FILE *out,
                   const struct dump_trace_options *o, struct dump_trace_result *r,
                   char *err, size_t errlen);

/* The JSON document's vocabulary, for a program that compares another
 * decoder's document with the codec's findings. */

/* The name of an integrity error's kind ("no_open_combine"; "unknown"). */
const char *dump_error_kind(enum slot_error_kind k);

/* A rejection message "offset N: KSP-25: ..." -> N and "KSP-25" (0 and ""
 * if it is not of that form). */
void dump_split_message(const char *m, uint64_t *offset, char *rule, size_t rulelen);

__POSIXTRACE_END_API

#endif /* POSIXTRACE_DUMP_H */
