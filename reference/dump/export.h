/* SPDX-License-Identifier: MIT */
/*
 * export.h -- a trace file written for the viewers people already use
 * (issue 17): CTF 1.8 for babeltrace2 and Trace Compass (export_ctf.c), the
 * Chrome/Perfetto Trace Event Format (export_chrome.c) and a per-CPU
 * timeline picture in SVG (export_svg.c).
 *
 * export_run.c reads the file as tracedump does (the kernel view through
 * the codec and the dump layers, a POSIX trace log through the log reader)
 * and hands every event, in file order, to one writer as an export_event:
 * the same record whichever the source, so that each writer is written once.
 * Every writer streams: memory is bounded whatever the number of events
 * (CTF: the distinct event classes; Chrome: the open slices per CPU; SVG:
 * a fixed grid of buckets).
 */
#ifndef POSIXTRACE_REF_EXPORT_H
#define POSIXTRACE_REF_EXPORT_H

#include <stdint.h>
#include <stdio.h>
#include "dump/dump.h"

/* What an event is to a viewer. */
enum export_kind {
    EXPORT_INSTANT,     /* a point in time */
    EXPORT_BEGIN,       /* a kernel call entered, an interrupt or its handler entered */
    EXPORT_END,         /* ... and left */
    EXPORT_DROP,        /* events were lost here (KSP-22 DROPPED, POSIX_TRACE_OVERFLOW) */
    EXPORT_WRAP,        /* a buffer or log ring wrapped: what was older is gone
                         * (KSP-19 BUFFER sequence gap, a log segment gap) */
};

/* The colour classes of the timeline and the Chrome categories: the kernel
 * classes 0-7 (KSP-5); a POSIX log's events are EXPORT_CLASS_POSIX_SYS or
 * EXPORT_CLASS_POSIX_USER. */
#define EXPORT_CLASS_POSIX_SYS   8u
#define EXPORT_CLASS_POSIX_USER  9u
#define EXPORT_NCLASSES         10u

struct export_event {
    uint64_t time;              /* in ticks of the file's clock */
    int cpu;                    /* 0-63; -1 unknown (a POSIX record may say so) */
    int has_thread;             /* pid and tid are known */
    uint32_t pid;
    uint64_t tid;
    unsigned cls;               /* 0..EXPORT_NCLASSES-1 */
    const char *class_name;     /* "KER_CALL", "POSIX" */
    const char *name;           /* "enter:11", "posix_trace_start" */
    unsigned slice;             /* BEGIN/END: what pairs them (call number, vector) */
    enum export_kind kind;
    const struct dump_desc *d;  /* the named arguments (kernel view); NULL for POSIX */
    const uint32_t *words;      /* the kernel payload; NULL for POSIX */
    uint32_t nwords;
    const unsigned char *data;  /* POSIX: the user data */
    uint32_t len;
    uint64_t prog;              /* POSIX: the program address */
    int truncated;              /* POSIX: the record was truncated */
};

/* What the writers know before the first event. */
struct export_source {
    const char *name;           /* the file's name as shown */
    int posix;                  /* a POSIX trace log (one stream), else a kernel trace */
    uint64_t freq;              /* ticks per second of the clock */
    unsigned cpu_num;           /* from the header (kernel), else 0 */
    const char *dir;            /* CTF: the output folder */
    FILE *out;                  /* Chrome, SVG: the output */
};

/* A writer.  begin: 0 or an error number with a message in err; scan (may
 * be NULL): a first pass over every event, before the events are given again
 * to event; event: 0 or an error number (the run stops); end: 0 or an error
 * number. */
struct export_writer {
    int (*begin)(void **state, const struct export_source *src, char *err, size_t errlen);
    void (*scan)(void *state, const struct export_event *ev);
    int (*event)(void *state, const struct export_event *ev, char *err, size_t errlen);
    int (*end)(void *state, const struct export_source *src, int failed, char *err,
               size_t errlen);
};

extern const struct export_writer export_ctf_writer;
extern const struct export_writer export_chrome_writer;
extern const struct export_writer export_svg_writer;

/* Reads the trace file (open on fd >= 0, or len bytes at mem) and writes it
 * in format (DUMP_CTF: to the folder dir; DUMP_CHROME, DUMP_SVG: to out).
 * Returns 0, or an error number with a one-line message in err.  r counts
 * the events read and the integrity errors met (the errors themselves are
 * tracedump's to show). */
int export_trace(int fd, const void *mem, size_t len, enum dump_format format,
                 const char *dir, FILE *out, const char *name,
                 struct dump_trace_result *r, char *err, size_t errlen);

#endif /* POSIXTRACE_REF_EXPORT_H */
