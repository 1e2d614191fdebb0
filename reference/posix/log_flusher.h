/* SPDX-License-Identifier: MIT */
/*
 * log_stream.h -- the trace log of an active stream (TRL): its writer, its
 * flusher thread and the flush status (LOGFORMAT section 7).
 *
 * Everything here is guarded by the stream's lock, except the writer and
 * the batch, which belong to the flusher while `busy` is set (it writes the
 * file with the lock released, so that tracing goes on: S0101).  Clear and
 * shutdown wait for `busy` to drop before they touch the writer.
 */
#ifndef POSIXTRACE_LOG_STREAM_H
#define POSIXTRACE_LOG_STREAM_H

#include "log/log_writer.h"
#include "stream/stream.h"

/* Records taken out of the stream, in the ring's layout (rec_hdr, data
 * padded to 8 bytes), waiting to be written. */
struct rec_buf {
    unsigned char *buf;
    size_t cap, len;
};

struct log_stream {
    struct log_writer w;        /* the flusher's while busy */
    pthread_t thread;           /* the flusher */
    int request;                /* a flush is asked for */
    int quit;                   /* shutdown: the final flush, then the thread ends */
    int busy;                   /* a flush is writing (the lock released) */
    unsigned starts;            /* FLUSH_START recorded, awaiting their FLUSH_STOP */
    int flush_status;           /* POSIX_TRACE_FLUSHING / _NOT_FLUSHING */
    int flush_error;            /* first error since get_status (S0253) */
    int log_overrun;            /* POSIX_TRACE_OVERRUN / _NO_OVERRUN */
    int log_full;               /* POSIX_TRACE_FULL / _NOT_FULL */
    int final_error;            /* the first error of the final flush */
    uint64_t end;               /* log_writer_end(), as of the last flush */
    uint64_t handed;            /* records handed to the writer (the flusher's) */
    uint64_t flushed, written, discarded;   /* the counts as of the last flush */
    struct rec_buf pending;     /* taken, not yet handed to the writer */
    struct rec_buf batch;       /* being written (the flusher's) */
};

/* Gives stream s (locked, its attributes resolved, not yet active) a log on
 * fd and starts its flusher.  0, or ENOMEM, EAGAIN (no thread), or the
 * error of the log's first write (ENOSPC...). */
int log_stream_create(struct stream *s, int fd);

/* Shutdown (s locked, SLOT_CLOSING): the final flush, the final metadata
 * (status marked complete), the flusher joined, the log's memory freed.
 * The lock is released while the flusher finishes.  Returns the first
 * error of the final flush (0: none). */
int log_stream_shutdown(struct stream *s);

/* posix_trace_clear's part (s locked): waits for a running flush, then
 * restarts the log (LOGFORMAT section 7).  0, or EINVAL if the stream was
 * shut down meanwhile. */
int log_stream_clear(struct stream *s);

/* get_status's TRL members (s locked); resets the log overrun status and
 * the flush error (S0178). */
void log_stream_status(struct stream *s, struct posix_trace_status_info *st);

/* The log's part of posixtrace_get_counts (s locked): as of the last flush
 * (what the writer met is made visible when a flush ends). */
void log_stream_counts(const struct stream *s, uint64_t *flushed, uint64_t *written,
                       uint64_t *discarded);

/* In the child of fork: frees the log's memory; no thread, no file I/O. */
void log_stream_forget(struct log_stream *ls);

#endif
