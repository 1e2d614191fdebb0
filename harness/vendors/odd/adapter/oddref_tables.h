/* SPDX-License-Identifier: MIT */
/*
 * oddref_tables.h -- the translation of constants and event ids between one
 * <trace.h> and the neutral values of oddref_bridge.h.  Included by each side
 * of the adapter after its own <trace.h> (odd_api.c: the odd vendor's;
 * ref_side.c: the reference's), so that the same table, with each header's
 * values, translates both ways and neither side knows the other's numbers.
 *
 * Constants are looked up by kind as well as value: a value may belong to two
 * kinds (the odd vendor's POSIX_TRACE_FLUSH == POSIX_TRACE_APPEND, the
 * reference's 1 for many).
 */
#ifndef ODDREF_TABLES_H
#define ODDREF_TABLES_H

#include "oddref_bridge.h"

enum oddref_kind {
    ODDREF_K_STREAM_STATUS, ODDREF_K_FULL, ODDREF_K_OVERRUN, ODDREF_K_FLUSHING,
    ODDREF_K_TRUNCATION, ODDREF_K_STREAM_POLICY, ODDREF_K_LOG_POLICY, ODDREF_K_INHERIT,
    ODDREF_K_EVENTSET_WHAT, ODDREF_K_FILTER_HOW
};

/* X(kind, name): every constant of XBD <trace.h> but the event ids. */
#define ODDREF_CONSTANTS(X)                                                           \
    X(STREAM_STATUS, RUNNING) X(STREAM_STATUS, SUSPENDED)                             \
    X(FULL, FULL) X(FULL, NOT_FULL)                                                   \
    X(OVERRUN, OVERRUN) X(OVERRUN, NO_OVERRUN)                                        \
    X(FLUSHING, FLUSHING) X(FLUSHING, NOT_FLUSHING)                                   \
    X(TRUNCATION, NOT_TRUNCATED) X(TRUNCATION, TRUNCATED_RECORD)                      \
    X(TRUNCATION, TRUNCATED_READ)                                                     \
    X(STREAM_POLICY, LOOP) X(STREAM_POLICY, UNTIL_FULL) X(STREAM_POLICY, FLUSH)       \
    X(LOG_POLICY, LOOP) X(LOG_POLICY, UNTIL_FULL) X(LOG_POLICY, APPEND)               \
    X(INHERIT, CLOSE_FOR_CHILD) X(INHERIT, INHERITED)                                 \
    X(EVENTSET_WHAT, WOPID_EVENTS) X(EVENTSET_WHAT, SYSTEM_EVENTS)                    \
    X(EVENTSET_WHAT, ALL_EVENTS)                                                      \
    X(FILTER_HOW, SET_EVENTSET) X(FILTER_HOW, ADD_EVENTSET) X(FILTER_HOW, SUB_EVENTSET)

#define ODDREF_CONSTANT_ENTRY(kind, name) { ODDREF_K_##kind, POSIX_TRACE_##name },
static const struct { int kind; int value; } oddref_constants[] = {
    ODDREF_CONSTANTS(ODDREF_CONSTANT_ENTRY)
};
#define ODDREF_N_CONSTANTS ((int)(sizeof oddref_constants / sizeof oddref_constants[0]))

/* This header's value of kind -> neutral (ODDREF_C_INVALID if none). */
static inline int oddref_const_to_neutral(int kind, int value)
{
    for (int i = 0; i < ODDREF_N_CONSTANTS; i++)
        if (oddref_constants[i].kind == kind && oddref_constants[i].value == value)
            return i;
    return ODDREF_C_INVALID;
}

/* Neutral -> this header's value; invalid gives a value that is none of
 * this header's constants (the implementation then rejects it, as it would
 * the caller's). */
static inline int oddref_const_from_neutral(int n)
{
    if (n >= 0 && n < ODDREF_N_CONSTANTS)
        return oddref_constants[n].value;
    return -32768;
}

/* The system events, in the order of ODDREF_EV_START (-1) .. ERROR (-8). */
static const trace_event_id_t oddref_system_events[] = {
    POSIX_TRACE_START, POSIX_TRACE_STOP, POSIX_TRACE_FILTER, POSIX_TRACE_OVERFLOW,
    POSIX_TRACE_RESUME, POSIX_TRACE_FLUSH_START, POSIX_TRACE_FLUSH_STOP, POSIX_TRACE_ERROR
};
#define ODDREF_N_SYSTEM_EVENTS ((int)(sizeof oddref_system_events / sizeof oddref_system_events[0]))

/* This header's event id -> neutral.  User event ids follow the unnamed one,
 * in both headers (the reference's trace.h and the odd vendor's say so). */
static inline long long oddref_event_to_neutral(trace_event_id_t id)
{
    for (int i = 0; i < ODDREF_N_SYSTEM_EVENTS; i++)
        if (oddref_system_events[i] == id)
            return -1LL - i;
    if (id >= POSIX_TRACE_UNNAMED_USEREVENT)
        return (long long)(id - POSIX_TRACE_UNNAMED_USEREVENT);
    return ODDREF_EV_INVALID;
}

/* Neutral -> this header's event id; invalid gives the largest id, which
 * neither implementation gives out. */
static inline trace_event_id_t oddref_event_from_neutral(long long n)
{
    if (n < 0 && n >= -(long long)ODDREF_N_SYSTEM_EVENTS)
        return oddref_system_events[-n - 1];
    if (n >= 0)
        return (trace_event_id_t)(POSIX_TRACE_UNNAMED_USEREVENT + (trace_event_id_t)n);
    return (trace_event_id_t)-1;
}

#endif /* ODDREF_TABLES_H */
