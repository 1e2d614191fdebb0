/* SPDX-License-Identifier: MIT */
/*
 * stage.h -- recording without the stream's lock (stage.c): each thread
 * that records into a stream on a real clock has a staging buffer in the
 * shared stream (stream.h, struct stage), filled with no lock and no
 * atomic read-modify-write; whoever next holds the stream's lock moves the
 * staged events into the ring, oldest first, and applies the stream-full
 * policy to each there, as if it were recorded then (posix/README.md,
 * "The recording path").
 */
#ifndef POSIXTRACE_STAGE_H
#define POSIXTRACE_STAGE_H

#include <stddef.h>
#include <time.h>
#include "posix/stream_put.h"

/* Stages an event into the calling thread's buffer in s (no lock held):
 * 1 if done, 0 if the caller must record it under the lock (a simulated
 * clock or deterministic origins, a stream that does not run, an event too
 * big for a buffer, no buffer free). */
int stage_record(struct stream *s, trace_event_id_t id, const void *data, size_t len,
                 const void *prog);

/* Moves every staged event into the ring, oldest first (lock held). */
void stage_drain(struct stream *s);

/* A reader about to wait on s: the deadline of its wait, *until, the
 * sooner of abstime (NULL: none) and a short poll if threads stage into s
 * (a staging thread wakes readers it sees waiting, but may miss one that
 * has just begun to wait).  Returns whether *until is set. */
int stage_wait_deadline(const struct stream *s, const struct timespec *abstime,
                        struct timespec *until);

#endif
