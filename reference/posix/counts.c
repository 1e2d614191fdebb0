/* SPDX-License-Identifier: MIT */
/*
 * counts.c -- posixtrace_get_counts (include/posixtrace_counts.h): a stream's
 * counts from the stream layer (stream_counts_of, the one reader of the
 * recording path's counters), its log's from the flusher; an opened log's
 * from its status record.
 */
#include <errno.h>
#include <string.h>
#include <posixtrace_counts.h>
#include "posix/log_flusher.h"
#include "posix/prerecorded.h"
#include "posix/stream_table.h"

int posixtrace_get_counts(trace_id_t trid, struct posixtrace_counts *counts)
{
    if (counts == NULL)
        return EINVAL;
    memset(counts, 0, sizeof *counts);
    if (trid_is_log(trid)) {
        uint64_t written, discarded, lost;
        int rc = prerecorded_counts(trid, &written, &discarded, &lost);
        if (rc == 0) {
            counts->written = written;
            counts->discarded = discarded;
            counts->lost = lost;
            counts->flushed = written + discarded;
        }
        return rc;
    }
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;
    struct stream_counts c;
    stream_counts_of(s, &c);
    counts->recorded = c.recorded;
    counts->lost = c.lost;
    counts->taken = c.taken;
    counts->cleared = c.cleared;
    counts->in_stream = c.in_stream;
    if (s->log != NULL) {
        uint64_t flushed, written, discarded;
        log_stream_counts(s, &flushed, &written, &discarded);
        counts->flushed = flushed;
        counts->written = written;
        counts->discarded = discarded;
    }
    stream_release(s);
    return 0;
}
