/* SPDX-License-Identifier: MIT */
/*
 * eventset_bits.h -- trace event type sets (trace_event_set_t, TEF) inside
 * the reference, under eventset.c's API: one bit per identifier below
 * __POSIXTRACE_EVENT_ID_LIMIT, in 64-bit words (include/posixtrace_types.h).  The bits from the limit up to
 * the end of the last word are always 0, so that two sets with the same
 * members have the same bytes (the FILTER and START events carry sets).
 *
 * Inline because eventset_has() is on the recording path: record.c tests
 * each event against its stream's filter with one word load.
 */
#ifndef POSIXTRACE_EVENTSET_BITS_H
#define POSIXTRACE_EVENTSET_BITS_H

#include <trace.h>

#define EVENTSET_WORDS  (sizeof(((trace_event_set_t *)0)->__bits) / \
                         sizeof(((trace_event_set_t *)0)->__bits[0]))

/* Is id a member of set?  id must be below __POSIXTRACE_EVENT_ID_LIMIT. */
static inline int eventset_has(const trace_event_set_t *set, trace_event_id_t id)
{
    return (int)((set->__bits[id / 64u] >> (id % 64u)) & 1u);
}

/* Adds id (below __POSIXTRACE_EVENT_ID_LIMIT) to set. */
static inline void eventset_put(trace_event_set_t *set, trace_event_id_t id)
{
    set->__bits[id / 64u] |= 1ull << (id % 64u);
}

/* Removes id (below __POSIXTRACE_EVENT_ID_LIMIT) from set. */
static inline void eventset_drop(trace_event_set_t *set, trace_event_id_t id)
{
    set->__bits[id / 64u] &= ~(1ull << (id % 64u));
}

/* The bits of word w that stand for identifiers below the limit. */
static inline unsigned long long eventset_word_mask(size_t w)
{
    unsigned long long first = (unsigned long long)w * 64u;
    if (first + 64u <= __POSIXTRACE_EVENT_ID_LIMIT)
        return ~0ull;
    if (first >= __POSIXTRACE_EVENT_ID_LIMIT)
        return 0;
    return (1ull << (__POSIXTRACE_EVENT_ID_LIMIT - first)) - 1u;
}

#endif
