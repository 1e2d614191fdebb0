/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_counts.h> -- loss you can count: an extension of the posixtrace
 * reference (issue 20 item 4).  The <trace.h> API says *that* events were
 * lost (the overrun statuses, OVERFLOW), never *how many*; this says how
 * many, for an active stream and for a pre-recorded log.
 *
 * Not for portable tests: a program that uses it runs on the reference only.
 *
 * An active stream (a trace id from posix_trace_create or _create_withlog),
 * counted from its creation:
 *   recorded   events the stream took in: every event it recorded (user and
 *              system events: START, STOP, FLUSH_START, ...) and every event
 *              it lost when full (UNTIL_FULL, FLUSH); events the filter or a
 *              suspended stream ignored are not counted
 *   lost       of those, events the stream lost: overwritten by the LOOP
 *              policy, or not recorded because the stream was full
 *   taken      of those, events taken out of the stream: read by
 *              posix_trace_getnext_event (and its timed and try forms), or,
 *              for a stream with a log, taken by its flusher
 *   cleared    of those, events posix_trace_clear dropped
 *   in_stream  of those, events still in the stream
 *   so that, whenever it is asked:
 *              recorded = taken + lost + cleared + in_stream
 *   The OVERFLOW and RESUME events a reader of a LOOP stream sees are made
 *   as the events come out: they are in none of these counts.
 * A stream with a log, as of the end of the last flush:
 *   flushed    records handed to the log: the events its flusher took, the
 *              OVERFLOW and RESUME of a LOOP stream, and the STOP an
 *              UNTIL_FULL log ends with when it fills (XSH 2.11.1.1)
 *   written    of those, records written into the log
 *   discarded  of those, records the log discarded (a full UNTIL_FULL log,
 *              a record the device refused)
 *   so that, without posix_trace_clear: written + discarded = flushed; the
 *   log, once shut down and opened, gives written events to
 *   posix_trace_getnext_event (APPEND and UNTIL_FULL logs; a LOOP log keeps
 *   its last segments only).
 * A pre-recorded log (a trace id from posix_trace_open): the counts of its
 * last status record (reference/log/LOGFORMAT.md): written, discarded, lost
 * as the log says, except that written is never less than the events the
 * log holds (when the write of the final status itself failed, the log
 * keeps an older one: the log is read through to count them); flushed =
 * written + discarded; recorded, taken, cleared and in_stream are 0 (the
 * log does not keep them).
 *
 * Returns 0, or EINVAL: counts is NULL, or trid names no active stream and no
 * opened log.
 */
#ifndef POSIXTRACE_COUNTS_H
#define POSIXTRACE_COUNTS_H

#include <posixtrace_api.h>
#include <trace.h>

__POSIXTRACE_BEGIN_API

struct posixtrace_counts {
    unsigned long long recorded;
    unsigned long long lost;
    unsigned long long taken;
    unsigned long long cleared;
    unsigned long long in_stream;
    unsigned long long flushed;
    unsigned long long written;
    unsigned long long discarded;
};

int posixtrace_get_counts(trace_id_t trid, struct posixtrace_counts *counts);

__POSIXTRACE_END_API

#endif
