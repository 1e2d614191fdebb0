/*
 * ct_tef.h -- helpers shared by the portable tests of the Trace Event Filter
 * option (conformance/tests/eventset.c, filter.c, trid_eventid.c): the event
 * types a test knows (its "universe"), sets described by which of those types
 * they hold, comparing a set member by member, and reading events whose data
 * holds sets (START and FILTER).
 *
 * A header, not a .c file: every .c file of conformance/tests but ct.c is a
 * test program of its own (harness/README.md).  The helpers are static
 * inline, so that a file using only some of them compiles without warnings.
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
static inline void require_tef(void)
{
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
}

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
static inline int ct_u_add(struct ct_universe *u, trace_event_id_t id, enum ct_kind kind,
                           const char *name)
{
    if (u->n == CT_U_MAX)
        CT_UNRESOLVED("more than %d event types in the test's universe", CT_U_MAX);
    u->id[u->n] = id;
    u->kind[u->n] = kind;
    snprintf(u->name[u->n], sizeof u->name[0], "%s", name);
    return u->n++;
}

/* Opens the user event type name (posix_trace_eventid_open) and adds it;
 * returns its index. */
static inline int ct_u_user(struct ct_universe *u, const char *name)
{
    return ct_u_add(u, ct_open_id(name), CT_USER, name);
}

/* The system events of the supported options (XSH 2.11.2) and the
 * predefined user event; then nusers user event types "<prefix>.<i>",
 * i = 0..nusers-1, opened with posix_trace_eventid_open (their indexes are
 * returned by ct_u_first_user() + i). */
static inline void ct_universe(struct ct_universe *u, const char *prefix, int nusers)
{
    char name[48];
    u->n = 0;
#if CT_HAVE_POSIX_TRACE_ERROR
    ct_u_add(u, POSIX_TRACE_ERROR, CT_SYSTEM, "POSIX_TRACE_ERROR");
#else
    ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
#endif
    ct_u_add(u, POSIX_TRACE_START, CT_SYSTEM, "POSIX_TRACE_START");
    ct_u_add(u, POSIX_TRACE_STOP, CT_SYSTEM, "POSIX_TRACE_STOP");
    ct_u_add(u, POSIX_TRACE_FILTER, CT_SYSTEM, "POSIX_TRACE_FILTER");
    ct_u_add(u, POSIX_TRACE_OVERFLOW, CT_SYSTEM, "POSIX_TRACE_OVERFLOW");
    ct_u_add(u, POSIX_TRACE_RESUME, CT_SYSTEM, "POSIX_TRACE_RESUME");
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        ct_u_add(u, POSIX_TRACE_FLUSH_START, CT_SYSTEM, "POSIX_TRACE_FLUSH_START");
        ct_u_add(u, POSIX_TRACE_FLUSH_STOP, CT_SYSTEM, "POSIX_TRACE_FLUSH_STOP");
    }
#endif
    ct_u_add(u, CT_UNNAMED, CT_UNNAMED_USER, "POSIX_TRACE_UNNAMED_USEREVENT");
    for (int i = 0; i < nusers; i++) {
        snprintf(name, sizeof name, "%s.%d", prefix, i);
        ct_u_user(u, name);
    }
}

/* The index of the first user event type opened by ct_universe(). */
static inline int ct_u_first_user(const struct ct_universe *u)
{
    for (int i = 0; i < u->n; i++)
        if (u->kind[i] == CT_USER)
            return i;
    CT_UNRESOLVED("the test's universe has no user event type");
}

/* The mask of every type of the given kind. */
static inline ct_mask ct_u_kind(const struct ct_universe *u, enum ct_kind kind)
{
    ct_mask m = 0;
    for (int i = 0; i < u->n; i++)
        if (u->kind[i] == kind)
            m |= CT_BIT(i);
    return m;
}

/* The mask of every type of the universe. */
static inline ct_mask ct_u_all(const struct ct_universe *u)
{
    return u->n == 64 ? ~0ULL : CT_BIT(u->n) - 1;
}

/* "{POSIX_TRACE_START, ct.x.1}": the names of the types of m (a static
 * buffer, one of four in turn). */
static inline const char *ct_names(const struct ct_universe *u, ct_mask m)
{
    static char bufs[4][1024];
    static unsigned next;
    char *b = bufs[next++ % 4];
    size_t len = 0;
    b[len++] = '{';
    b[len] = '\0';
    for (int i = 0; i < u->n; i++) {
        if (!(m & CT_BIT(i)))
            continue;
        int w = snprintf(b + len, sizeof bufs[0] - len, "%s%s", len > 1 ? ", " : "",
                         u->name[i]);
        if (w < 0 || (size_t)w >= sizeof bufs[0] - len - 2)
            break;
        len += (size_t)w;
    }
    snprintf(b + len, sizeof bufs[0] - len, "}");
    return b;
}

/* ---- Sets as masks ----------------------------------------------------------------- */

/* Which types of the universe set s holds, by posix_trace_eventset_ismember(),
 * which must succeed (a check: FAIL otherwise) and store 0 or non-zero. */
static inline ct_mask ct_members(const struct ct_universe *u, const trace_event_set_t *s)
{
    ct_mask m = 0;
    for (int i = 0; i < u->n; i++) {
        int is = -12345;
        int rc = posix_trace_eventset_ismember(u->id[i], s, &is);
        CT_CHECK(rc == 0, "posix_trace_eventset_ismember(%s) on a valid set returned %d (%s),"
                 " expected 0", u->name[i], rc, ct_errname(rc));
        CT_CHECK(is != -12345, "posix_trace_eventset_ismember(%s) returned 0 but stored"
                 " nothing", u->name[i]);
        if (is)
            m |= CT_BIT(i);
    }
    return m;
}

/* Makes s the set of the types of m: posix_trace_eventset_empty(), then
 * posix_trace_eventset_add() of each (a setup: UNRESOLVED if one fails). */
static inline void ct_set_of(trace_event_set_t *s, const struct ct_universe *u, ct_mask m)
{
    CT_SETUP_OK(posix_trace_eventset_empty(s));
    for (int i = 0; i < u->n; i++)
        if (m & CT_BIT(i))
            CT_SETUP_OK(posix_trace_eventset_add(u->id[i], s));
}

/* Set s must hold exactly the types of want among those of care (a check):
 * "<what> holds {...}, expected {...}: missing {...}, extra {...}". */
static inline void ct_expect_set(const struct ct_universe *u, const trace_event_set_t *s,
                                 ct_mask want, ct_mask care, const char *what)
{
    ct_mask got = ct_members(u, s) & care;
    want &= care;
    CT_CHECK(got == want, "%s holds %s, expected %s: missing %s, extra %s", what,
             ct_names(u, got), ct_names(u, want), ct_names(u, want & ~got),
             ct_names(u, got & ~want));
}

/* The filter of stream trid (posix_trace_get_filter, which must succeed: a
 * check) as a mask over the universe. */
static inline ct_mask ct_filter_of(const struct ct_universe *u, trace_id_t trid)
{
    trace_event_set_t s;
    int rc = posix_trace_get_filter(trid, &s);
    CT_CHECK(rc == 0, "posix_trace_get_filter on an active stream returned %d (%s), expected"
             " 0", rc, ct_errname(rc));
    return ct_members(u, &s);
}

/* Installs the set of the types of m as the filter of trid with how (a
 * setup: UNRESOLVED if set_filter fails). */
static inline void ct_filter(trace_id_t trid, const struct ct_universe *u, ct_mask m, int how)
{
    trace_event_set_t s;
    ct_set_of(&s, u, m);
    CT_SETUP_OK(posix_trace_set_filter(trid, &s, how));
}

/* A value distinct from WOPID_EVENTS, SYSTEM_EVENTS and ALL_EVENTS. */
static inline int ct_invalid_what(void)
{
    int v = 0x5a5a;
    while (v == POSIX_TRACE_WOPID_EVENTS || v == POSIX_TRACE_SYSTEM_EVENTS ||
           v == POSIX_TRACE_ALL_EVENTS)
        v++;
    return v;
}

/* ---- Streams ----------------------------------------------------------------------- */

/* A stream of the calling process asked for room for 64 user events of an
 * unsigned and 16 system events (the setter may refuse: the default is
 * kept); started if start. */
static inline trace_id_t ct_tef_stream(int start)
{
    trace_attr_t a;
    trace_id_t trid;
    size_t ev = 0, se = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (posix_trace_attr_getmaxusereventsize(&a, sizeof(unsigned), &ev) == 0 &&
        posix_trace_attr_getmaxsystemeventsize(&a, &se) == 0 && ev > 0 &&
        posix_trace_attr_setstreamsize(&a, 64 * ev + 16 * se) != 0)
        ct_note("stream-min-size could not be set: the default is used");
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    posix_trace_attr_destroy(&a);
    if (start)
        CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

/* Ends the test UNRESOLVED if stream trid lost events (full, or overrun
 * since the last get_status): what it holds could not be judged. */
static inline void ct_no_loss(trace_id_t trid)
{
    struct posix_trace_status_info st;
    CT_SETUP_OK(posix_trace_get_status(trid, &st));
    if (st.posix_stream_full_status == POSIX_TRACE_FULL ||
        st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN)
        CT_UNRESOLVED("the stream became full or lost events: what it holds cannot be judged");
}

/* ---- Events whose data holds sets -------------------------------------------------- */

/* Events are read into a struct ct_rec (ct_stream.h): its buffer holds the
 * two sets of a FILTER event and more, so a longer datum still shows as
 * longer than expected. */
_Static_assert(CT_REC_DATA > 2 * sizeof(trace_event_set_t), "a FILTER event's data fits");

/* Reads every event available now into v; returns how many there were.
 * More than max ends the test UNRESOLVED (the tests record fewer). */
static inline size_t ct_drain_sev(trace_id_t trid, struct ct_rec *v, size_t max)
{
    size_t n = 0;
    struct ct_rec e;
    while (ct_next_event(trid, &e)) {
        if (n == max)
            CT_UNRESOLVED("the stream holds more than the %zu events the test expects at most",
                          max);
        v[n++] = e;
    }
    return n;
}

/* The k-th trace_event_set_t of an event's data (k = 0 or 1). */
static inline trace_event_set_t ct_set_in(const struct ct_rec *e, int k)
{
    trace_event_set_t s;
    memcpy(&s, e->data + (size_t)k * sizeof s, sizeof s);
    return s;
}

/* Does e carry a user event of type id with data seq (ct_record_seq)? */
static inline int ct_is_seq(trace_id_t trid, const struct ct_rec *e, trace_event_id_t id,
                            unsigned seq)
{
    unsigned got;
    if (!posix_trace_eventid_equal(trid, e->info.posix_event_id, id) || e->len != sizeof got)
        return 0;
    memcpy(&got, e->data, sizeof got);
    return got == seq;
}

/* How many events of v[0..n) are of type id with data seq. */
static inline int ct_count_seq(trace_id_t trid, const struct ct_rec *v, size_t n,
                               trace_event_id_t id, unsigned seq)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += ct_is_seq(trid, &v[i], id, seq);
    return c;
}

#endif /* CT_HAVE_TEF */

#endif /* CT_TEF_H */
