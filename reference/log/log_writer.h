/* SPDX-License-Identifier: MIT */
/*
 * log_writer.h -- writing a trace log file (reference/log/LOGFORMAT.md): the
 * header and metadata area at creation, event records into segments with
 * the log-full policies, the metadata after each flush.
 *
 * A writer is used by one thread at a time (the stream's flusher, or the
 * stream's creator, clearer and shutdown while the flusher is idle); it
 * takes no lock.  Errors are kept, not returned by every call: the first
 * error since the last log_writer_take_error() is what a flush reports
 * (XSH 2.11.1.1, S0253, S0254).  After an error the writer goes on: what
 * reached the file stays readable up to its last whole record (LOGFORMAT
 * section 2).
 */
#ifndef POSIXTRACE_LOG_WRITER_H
#define POSIXTRACE_LOG_WRITER_H

#include <signal.h>
#include "log/log_format.h"

struct name_table;

struct log_writer {
    int fd;                     /* the application's; never closed here */
    struct log_geometry g;
    traceevent_t *seg;          /* the segment being filled (g.seg_slots) */
    traceevent_t *zeros;        /* LOOP: a blank segment, to wipe a reused slot */
    uint32_t *ends;             /* where each event's record of it ends (slots) */
    uint64_t k;                 /* its number over the log's life */
    uint32_t used;              /* its slots in use, the BUFFER slot included */
    uint32_t on_disk;           /* of which written whole (0: nothing yet) */
    uint32_t counted;           /* what its BUFFER slot on disk counts (0: none) */
    uint32_t first_ts;          /* data[0] of its first event */
    uint64_t seg_events;        /* events in it */
    uint64_t disk_events;       /* of which written whole */
    struct log_context ctx;     /* what its records have stated so far */
    int full;                   /* LOOP: the ring wrapped; UNTIL_FULL: STOP written */
    int overrun;                /* events lost since log_writer_take_overrun() */
    int error;                  /* first error since log_writer_take_error() */
    int first_error;            /* the first error of the log's life (never reset) */
    uint64_t written;           /* event records written whole to the file */
    uint64_t lost;              /* events discarded (UNTIL_FULL full, too big, write
                                 * errors; not the LOOP wraps) */
    uint64_t wraps;             /* LOOP: segments overwritten */
    uint32_t *words;            /* scratch: one record's data words */
    uint32_t meta_counter;      /* status records written */
    struct name_table *names;   /* the traced process's event names (NULL:
                                 * none), the caller's to set before create */
    uint32_t names_written;     /* event names of the process already in the area */
    uint32_t names_slot;        /* the area's next free slot */
};

/* Writes the header and the metadata area (attributes, the status st, the
 * event names opened so far) to the regular file fd open for writing, and
 * truncates the file to their length (LOGFORMAT section 6).  attr holds the
 * stream's attributes, resolved.  0, ENOMEM, or the error of the write:
 * ENOSPC when the device has no room, EFBIG, EIO... */
int log_writer_create(struct log_writer *w, int fd, const trace_attr_t *attr,
                      const struct log_status *st);

/* Appends an event (h, and len = h->len & REC_LEN_MASK bytes of data) with
 * the log-full policy (LOGFORMAT section 5).  A full segment is written and
 * the next one begun. */
void log_writer_append(struct log_writer *w, const struct rec_hdr *h, const void *data);

/* Writes what the current segment holds that the file does not. */
void log_writer_sync(struct log_writer *w);

/* Writes the event names opened since the last call, then the status st
 * (its counter, segment, event figures and write error are filled here).
 * A final status (st->complete) first counts as discarded the events that
 * never reached the file: the status then says exactly what the log holds. */
void log_writer_write_meta(struct log_writer *w, struct log_status *st);

/* posix_trace_clear (LOGFORMAT section 7): LOOP and UNTIL_FULL logs restart
 * at segment 0, not full, their segments cut off the file; an APPEND log
 * keeps what it has and goes on. */
void log_writer_clear(struct log_writer *w);

/* The file offset the next record would be written at. */
uint64_t log_writer_end(const struct log_writer *w);

/* The log is full (log-full-status). */
static inline int log_writer_full(const struct log_writer *w) { return w->full; }

/* The first error since the last call (0: none), and whether events were
 * lost since the last call; both are reset. */
int log_writer_take_error(struct log_writer *w);
int log_writer_take_overrun(struct log_writer *w);

/* Frees the writer's memory (the file is left as it is). */
void log_writer_free(struct log_writer *w);

/* A thread other than the flusher (whose thread blocks every signal) that
 * writes a log holds SIGXFSZ back meanwhile: a write past its RLIMIT_FSIZE
 * then fails with EFBIG (S0120) instead of killing the process.  release
 * takes back a SIGXFSZ the writes raised (one pending before stays
 * pending) and restores the thread's mask. */
struct log_xfsz_hold {
    sigset_t old;
    int was_pending;
};
void log_xfsz_hold(struct log_xfsz_hold *h);
void log_xfsz_release(const struct log_xfsz_hold *h);

#endif /* POSIXTRACE_LOG_WRITER_H */
