/* SPDX-License-Identifier: MIT */
/*
 * filter.c -- a stream's event filter and its name space, the TEF functions
 * that take a trace id (XSH posix_trace_get_filter, posix_trace_set_filter,
 * posix_trace_trid_eventid_open).
 *
 * The filter is the stream's set of event types that posix_trace_event()
 * does not record (record.c, S0122).  A new stream's is empty (S0093);
 * posix_trace_clear keeps it (ruling 19).  The trace system's own events
 * (START, STOP, FILTER, OVERFLOW, RESUME, FLUSH_START, FLUSH_STOP) are
 * recorded whatever the filter (posix/CHOICES.md, "Event filter").
 *
 * Every function gives EINVAL for a trace id that is not an active stream,
 * a pre-recorded one (posix_trace_open) included (S0195, S0153).  No call
 * waits, so none is interrupted: EINTR is never returned (S0187, S0188).
 */
#include <errno.h>
#include "stream/event_names.h"
#include "stream/eventset_bits.h"
#include "posix/prerecorded.h"
#include "posix/stream_put.h"
#include "posix/stream_table.h"

/* The stream's name space: that of the process(es) it traces (posix/SHARING.md,
 * "Name spaces"), so that the controller and the traced process map every
 * name to the same identifier (S0143-S0148). */
static int stream_eventid_open(struct stream *s, const char *name, trace_event_id_t *id)
{
    return event_names_open(stream_names(s), name, id);
}

int posix_trace_trid_eventid_open(trace_id_t trid, const char *restrict name,
                                  trace_event_id_t *restrict id)
{
    if (trid_is_log(trid))
        return EINVAL;                                  /* S0153: no active stream */
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0141, S0153 */
    /* S0140, S0142-S0148, S0154: the mapping of eventid_open in the traced
     * process, so that the controller and that process agree on every name. */
    int rc = stream_eventid_open(s, name, id);
    stream_release(s);
    return rc;
}

int posix_trace_get_filter(trace_id_t trid, trace_event_set_t *set)
{
    if (set == NULL || trid_is_log(trid))
        return EINVAL;                                  /* S0195 */
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0195 */
    *set = s->filter;                                   /* S0183 */
    stream_release(s);
    return 0;                                           /* S0193 */
}

int posix_trace_set_filter(trace_id_t trid, const trace_event_set_t *set, int how)
{
    if (set == NULL || trid_is_log(trid))
        return EINVAL;                                  /* S0195 */
    if (how != POSIX_TRACE_SET_EVENTSET && how != POSIX_TRACE_ADD_EVENTSET &&
        how != POSIX_TRACE_SUB_EVENTSET)
        return EINVAL;                                  /* S0189 */
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0195 */
    /* change[0] the old filter, change[1] the new one: the FILTER event's
     * data (S0186, 2.11.2.1 table: old_event_filter, new_event_filter). */
    trace_event_set_t change[2];
    change[0] = s->filter;
    for (size_t w = 0; w < EVENTSET_WORDS; w++) {
        unsigned long long cur = change[0].__bits[w], arg = set->__bits[w];
        unsigned long long res = how == POSIX_TRACE_SET_EVENTSET ? arg        /* S0190 */
                               : how == POSIX_TRACE_ADD_EVENTSET ? cur | arg  /* S0191 */
                               : cur & ~arg;                                  /* S0192 */
        change[1].__bits[w] = res & eventset_word_mask(w);
    }
    s->filter = change[1];                              /* S0184 */
    stream_update_recording(s);         /* what posix_trace_event() tests */
    if (s->run == POSIX_TRACE_RUNNING) {
        /* S0186, S0273: while the trace is in progress; none on a suspended
         * stream (2.11.2.1: "changed while the trace stream was running"). */
        struct origin o;
        stream_origin(s, &o, __builtin_return_address(0));
        stream_put(s, POSIX_TRACE_FILTER, change, (uint32_t)sizeof change, 0, &o);
    }
    stream_release(s);
    return 0;                                           /* S0193 */
}
