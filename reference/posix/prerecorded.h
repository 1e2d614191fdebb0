/* SPDX-License-Identifier: MIT */
/*
 * prerecorded.h -- pre-recorded trace streams: trace logs opened with
 * posix_trace_open() (XSH posix_trace_close; LOGFORMAT section 8).
 *
 * Their trace ids have the top bit set, which no stream's id has (a stream's
 * is generation << 6 | slot), so that every function can tell the two kinds
 * apart: the functions that control a stream (start, stop, clear, flush,
 * shutdown, ...) find no stream for such an id and give EINVAL; the
 * functions an analyzer uses on both kinds (S0077) come here.
 */
#ifndef POSIXTRACE_PRERECORDED_H
#define POSIXTRACE_PRERECORDED_H

#include <trace.h>
#include <limits.h>
#include <stdint.h>

#define TRID_LOG_BIT  ((trace_id_t)1 << (sizeof(trace_id_t) * CHAR_BIT - 1))

static inline int trid_is_log(trace_id_t trid)
{
    return (trid & TRID_LOG_BIT) != 0;
}

/* The functions of a pre-recorded stream; EINVAL for an id that is no
 * opened log of this process. */
int prerecorded_get_attr(trace_id_t trid, trace_attr_t *attr);
int prerecorded_get_status(trace_id_t trid, struct posix_trace_status_info *st);
int prerecorded_getnext(trace_id_t trid, struct posix_trace_event_info *ev, void *data,
                        size_t num_bytes, size_t *data_len, int *unavailable);
/* posixtrace_get_counts's: the last status record's figures (all 0 if the
 * log has none), but written is never less than the events the log holds
 * (a status whose own write failed leaves an older one).  0 or EINVAL. */
int prerecorded_counts(trace_id_t trid, uint64_t *written, uint64_t *discarded,
                       uint64_t *lost);
int prerecorded_get_name(trace_id_t trid, trace_event_id_t id, char *name);
int prerecorded_typelist_next(trace_id_t trid, trace_event_id_t *id, int *unavailable);
int prerecorded_typelist_rewind(trace_id_t trid);

#endif
