/* SPDX-License-Identifier: MIT */
/*
 * stream_counts.c -- a stream's loss accounting (stream.h, stream_counts_of;
 * the public side is include/posixtrace_counts.h).  Every event the stream
 * takes in is counted once in `recorded` (stream_write, or at once as lost
 * when the stream is full: stream_full_until, record_into); each then leaves
 * exactly one way: taken out (read.c's take: a reader or the log's flusher),
 * lost (LOOP overwrote it: stream_make_room), or dropped by
 * posix_trace_clear; what is left is in the ring.  The OVERFLOW and RESUME
 * events a reader sees are made on the way out and never counted here.
 *
 * The recording path keeps its counters where it records; this file is the
 * only reader of them, so that a recording path with buffers of its own
 * (per thread) changes this file, not its callers.
 */
#include "stream/stream.h"

void stream_counts_of(const struct stream *s, struct stream_counts *c)
{
    c->recorded = s->recorded;
    c->lost = s->lost;
    c->taken = s->taken;
    c->cleared = s->cleared;
    c->in_stream = s->recorded - s->lost - s->taken - s->cleared;
}

void stream_counts_clear(struct stream *s)
{
    struct stream_counts c;
    stream_counts_of(s, &c);
    s->cleared += c.in_stream;
}
