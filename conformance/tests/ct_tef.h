/* SPDX-License-Identifier: MIT */
/*
 * ct_tef.h -- helpers shared by the portable tests of the Trace Event Filter
 * option (conformance/tests/eventset.c, filter.c, trid_eventid.c): the event
 * types a test knows (its "universe"), sets described by which of those types
 * they hold, comparing a set member by member, and reading events whose data
 * holds sets (START and FILTER).
 *
 * Declared here, defined once in lib/ct_tef.c (built into the tests' helper
 * library, build/harness/obj/libct.a: conformance/tests/README.md).
 *
 * Portable: trace_event_set_t is opaque.  A set is only ever inspected with
 * posix_trace_eventset_ismember(), one event type at a time, over the types
 * the test knows: the system event constants of the supported options, the
 * predefined user event, and the user event types the test opened.  Two sets
 * are "equal" when they agree on every one of those.  Event identifiers are
 * compared with posix_trace_eventid_equal(), never with ==.  Which system
 * events POSIX_TRACE_WOPID_EVENTS holds is implementation-defined and is
 * never assumed.  The data of a START or FILTER event is copied into
 * trace_event_set_t objects (the type's own size, sizeof) before it is
 * inspected: an object copied byte for byte has the value of the original.
 *
 * Everything but NO_TEF() needs TEF at compile time (CT_HAVE_TEF).
 */
#ifndef CT_TEF_H
#define CT_TEF_H

#include <stdio.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

#define NO_TEF()                                                                       \
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1" \
                   " (or not at all)")

#if CT_HAVE_TEF

/* Ends the test UNSUPPORTED when TEF is not supported at run time. */
void require_tef(void);

/* ---- The event types a test knows -------------------------------------------------- */

#define CT_U_MAX 40

enum ct_kind { CT_SYSTEM, CT_UNNAMED_USER, CT_USER };

/* Up to CT_U_MAX event types; a set is described by a mask over them, bit i
 * for type i. */
struct ct_universe {
    int n;
    trace_event_id_t id[CT_U_MAX];
    enum ct_kind kind[CT_U_MAX];
    char name[CT_U_MAX][48];        /* the constant's name, or the user event's name */
};

typedef unsigned long long ct_mask;

#define CT_BIT(i) (1ULL << (i))

/* Adds a type; returns its index. */
int ct_u_add(struct ct_universe *u, trace_event_id_t id, enum ct_kind kind,
             const char *name);

/* Opens the user event type name (posix_trace_eventid_open) and adds it;
 * returns its index. */
int ct_u_user(struct ct_universe *u, const char *name);

/* The system events of the supported options (XSH 2.11.2) and the
 * predefined user event; then nusers user event types "<prefix>.<i>",
 * i = 0..nusers-1, opened with posix_trace_eventid_open (their indexes are
 * returned by ct_u_first_user() + i). */
void ct_universe(struct ct_universe *u, const char *prefix, int nusers);

/* The index of the first user event type opened by ct_universe(). */
int ct_u_first_user(const struct ct_universe *u);

/* The mask of every type of the given kind. */
ct_mask ct_u_kind(const struct ct_universe *u, enum ct_kind kind);

/* The mask of every type of the universe. */
ct_mask ct_u_all(const struct ct_universe *u);

/* "{POSIX_TRACE_START, ct.x.1}": the names of the types of m (a static
 * buffer, one of four in turn). */
const char *ct_names(const struct ct_universe *u, ct_mask m);

/* ---- Sets as masks ----------------------------------------------------------------- */

/* Which types of the universe set s holds, by posix_trace_eventset_ismember(),
 * which must succeed (a check: FAIL otherwise) and store 0 or non-zero. */
ct_mask ct_members(const struct ct_universe *u, const trace_event_set_t *s);

/* Makes s the set of the types of m: posix_trace_eventset_empty(), then
 * posix_trace_eventset_add() of each (a setup: UNRESOLVED if one fails). */
void ct_set_of(trace_event_set_t *s, const struct ct_universe *u, ct_mask m);

/* Set s must hold exactly the types of want among those of care (a check):
 * "<what> holds {...}, expected {...}: missing {...}, extra {...}". */
void ct_expect_set(const struct ct_universe *u, const trace_event_set_t *s,
                   ct_mask want, ct_mask care, const char *what);

/* The filter of stream trid (posix_trace_get_filter, which must succeed: a
 * check) as a mask over the universe. */
ct_mask ct_filter_of(const struct ct_universe *u, trace_id_t trid);

/* Installs the set of the types of m as the filter of trid with how (a
 * setup: UNRESOLVED if set_filter fails). */
void ct_filter(trace_id_t trid, const struct ct_universe *u, ct_mask m, int how);

/* A value distinct from WOPID_EVENTS, SYSTEM_EVENTS and ALL_EVENTS. */
int ct_invalid_what(void);

/* ---- Streams ----------------------------------------------------------------------- */

/* A stream of the calling process asked for room for 64 user events of an
 * unsigned and 16 system events (the setter may refuse: the default is
 * kept); started if start. */
trace_id_t ct_tef_stream(int start);

/* Ends the test UNRESOLVED if stream trid lost events (full, or overrun
 * since the last get_status): what it holds could not be judged. */
void ct_no_loss(trace_id_t trid);

/* ---- Events whose data holds sets -------------------------------------------------- */

/* Events are read into a struct ct_rec (ct_stream.h): its buffer holds the
 * two sets of a FILTER event and more, so a longer datum still shows as
 * longer than expected. */
_Static_assert(CT_REC_DATA > 2 * sizeof(trace_event_set_t), "a FILTER event's data fits");

/* Reads every event available now into v; returns how many there were.
 * More than max ends the test UNRESOLVED (the tests record fewer). */
size_t ct_drain_sev(trace_id_t trid, struct ct_rec *v, size_t max);

/* The k-th trace_event_set_t of an event's data (k = 0 or 1). */
trace_event_set_t ct_set_in(const struct ct_rec *e, int k);

/* Does e carry a user event of type id with data seq (ct_record_seq)? */
int ct_is_seq(trace_id_t trid, const struct ct_rec *e, trace_event_id_t id,
              unsigned seq);

/* How many events of v[0..n) are of type id with data seq. */
int ct_count_seq(trace_id_t trid, const struct ct_rec *v, size_t n,
                 trace_event_id_t id, unsigned seq);

#endif /* CT_HAVE_TEF */

#endif /* CT_TEF_H */
