/* SPDX-License-Identifier: MIT */
/*
 * read.h -- taking events out of an active stream (read.c): the readers'
 * posix_trace_getnext_event() and the flusher of its log (log_flusher.c).
 */
#ifndef POSIXTRACE_READ_H
#define POSIXTRACE_READ_H

#include <trace.h>
#include "stream/stream.h"

/* Taking events out of an active stream (read.c), for its readers and for
 * the flusher of its log: the same code, so that a LOOP stream's OVERFLOW
 * and RESUME reach both.  Lock held. */
int stream_event_ready(const struct stream *s);
/* The ring bytes the next event takes as a record (stream_event_ready). */
uint64_t stream_next_size(const struct stream *s);
/* Takes the next event (stream_event_ready holds): its header into *h (len
 * is the whole data length, with REC_TRUNCATED), at most cap bytes of its
 * data into data.  Frees its space; restarts an UNTIL_FULL stream that it
 * emptied (S0036). */
void stream_take(struct stream *s, struct rec_hdr *h, void *data, size_t cap);
/* Takes the oldest records, whole and as they are in the ring (headers,
 * data, zeroed padding), up to cap bytes, into buf: what stream_take gives
 * record by record, in one copy.  0 when the next event is an OVERFLOW or a
 * RESUME (stream_take's) or does not fit.  Returns the bytes taken. */
size_t stream_take_records(struct stream *s, unsigned char *buf, size_t cap);

#endif
