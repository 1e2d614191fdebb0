/* SPDX-License-Identifier: MIT */
/*
 * eventset.c -- trace event type sets (XSH posix_trace_eventset_add: add,
 * del, empty, fill, ismember; TEF).  They work on the caller's object only,
 * never on a stream's filter.  The sets of fill (posix/CHOICES.md, "Event sets"):
 * WOPID_EVENTS the process-independent system events (OVERFLOW, RESUME,
 * FLUSH_STOP, ERROR), SYSTEM_EVENTS every system event of the supported
 * options, ALL_EVENTS every identifier below __POSIXTRACE_EVENT_ID_LIMIT.
 *
 * Errors ("may fail", S0164): EINVAL for a NULL pointer, an identifier at or
 * above the limit (no event type has it), and a what that is none of the
 * three; the set is then left as it was.
 */
#include <errno.h>
#include <string.h>
#include "stream/event_names.h"
#include "stream/eventset_bits.h"

int posix_trace_eventset_add(trace_event_id_t id, trace_event_set_t *set)
{
    if (set == NULL || id >= __POSIXTRACE_EVENT_ID_LIMIT)
        return EINVAL;                                  /* S0164 */
    eventset_put(set, id);                              /* S0156, S0157 */
    return 0;                                           /* S0163 */
}

int posix_trace_eventset_del(trace_event_id_t id, trace_event_set_t *set)
{
    if (set == NULL || id >= __POSIXTRACE_EVENT_ID_LIMIT)
        return EINVAL;                                  /* S0164 */
    eventset_drop(set, id);                             /* S0156, S0157 */
    return 0;                                           /* S0163 */
}

int posix_trace_eventset_empty(trace_event_set_t *set)
{
    if (set == NULL)
        return EINVAL;                                  /* S0164 */
    memset(set, 0, sizeof *set);                        /* S0158 */
    return 0;
}

int posix_trace_eventset_fill(trace_event_set_t *set, int what)
{
    if (set == NULL)
        return EINVAL;                                  /* S0164 */
    switch (what) {                                     /* S0159, S0160 */
    case POSIX_TRACE_WOPID_EVENTS:
    case POSIX_TRACE_SYSTEM_EVENTS:
        memset(set, 0, sizeof *set);
        event_names_system_set(set, what == POSIX_TRACE_WOPID_EVENTS);
        return 0;
    case POSIX_TRACE_ALL_EVENTS:
        for (size_t w = 0; w < EVENTSET_WORDS; w++)
            set->__bits[w] = eventset_word_mask(w);
        return 0;
    default:
        return EINVAL;                                  /* S0164 */
    }
}

int posix_trace_eventset_ismember(trace_event_id_t id, const trace_event_set_t *restrict set,
                                  int *restrict ismember)
{
    if (set == NULL || ismember == NULL || id >= __POSIXTRACE_EVENT_ID_LIMIT)
        return EINVAL;                                  /* S0164 */
    *ismember = eventset_has(set, id);                  /* S0162 */
    return 0;
}
