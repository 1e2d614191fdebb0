/* SPDX-License-Identifier: MIT */
/*
 * eventtypes.c -- event type identifiers of a stream: opening names,
 * comparing ids, naming ids, and the event type list
 * (XSH posix_trace_eventid_open, posix_trace_eventid_equal,
 * posix_trace_eventtypelist_getnext_id).
 */
#include <errno.h>
#include "stream/event_names.h"
#include "posix/prerecorded.h"
#include "posix/process.h"
#include "posix/stream_table.h"

int posix_trace_eventid_open(const char *restrict name, trace_event_id_t *restrict id)
{
    return event_names_open(proc_names(), name, id);    /* S0123-S0134 */
}

int posix_trace_eventid_equal(trace_id_t trid, trace_event_id_t a, trace_event_id_t b)
{
    (void)trid;             /* ids are process-wide: the stream adds nothing */
    return a == b;                                      /* S0151 */
}

int posix_trace_eventid_get_name(trace_id_t trid, trace_event_id_t id, char *name)
{
    if (name == NULL)
        return EINVAL;
    if (trid_is_log(trid))
        return prerecorded_get_name(trid, id, name);    /* names as recorded */
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0153 */
    int rc = event_names_get(stream_names(s), id, name);    /* S0137, S0139, S0155 */
    stream_release(s);
    return rc;
}

int posix_trace_eventtypelist_getnext_id(trace_id_t trid, trace_event_id_t *restrict id,
                                         int *restrict unavailable)
{
    if (id == NULL || unavailable == NULL)
        return EINVAL;
    if (trid_is_log(trid))
        return prerecorded_typelist_next(trid, id, unavailable);
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0171 */
    if (event_names_nth(stream_names(s), s->typelist_pos, id) == 0) {
        s->typelist_pos++;
        *unavailable = 0;                               /* S0165, S0166 */
    } else {
        *unavailable = 1;                               /* S0167 */
    }
    stream_release(s);
    return 0;
}

int posix_trace_eventtypelist_rewind(trace_id_t trid)
{
    if (trid_is_log(trid))
        return prerecorded_typelist_rewind(trid);
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0171 */
    s->typelist_pos = 0;                                /* S0168 */
    stream_release(s);
    return 0;
}
