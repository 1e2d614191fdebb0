/*
 * ct_stream.h -- helpers shared by the portable tests of the Trace option:
 * making streams, reading their events, their status, timespecs, stream-full
 * policies and the return-convention checks of attributes objects.
 *
 * A header, not a .c file: every .c file of conformance/tests but ct.c is a
 * test program of its own (harness/README.md).  The helpers are static inline,
 * so that a file using only some of them compiles without warnings.  Like the
 * tests, they use the standard API only and assume no constant's value, no
 * type's representation, no default attribute value and no clock.  A helper
 * that sets up ends the test UNRESOLVED if that fails (CT_SETUP_OK); one that
 * checks ends it FAIL (CT_CHECK...).
 */
#ifndef CT_STREAM_H
#define CT_STREAM_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ct.h"

/* ---- Event types and streams ------------------------------------------------------ */

/* A string of n characters (n >= 3), distinct for distinct tags; the test's
 * to free.  UNRESOLVED if there is no memory. */
static inline char *ct_long_name(size_t n, char tag)
{
    char *s = malloc(n + 1);
    if (s == NULL)
        CT_UNRESOLVED("out of memory for a name of %zu characters", n);
    memset(s, 'n', n);
    s[0] = 'c';
    s[1] = 't';
    s[2] = tag;
    s[n] = '\0';
    return s;
}

/* {TRACE_EVENT_NAME_MAX}, or the test ends UNTESTED (ruling 24). */
static inline size_t ct_event_name_max(void)
{
    long max = ct_limit_trace_event_name_max();
    if (max < 0)
        CT_UNTESTED("{TRACE_EVENT_NAME_MAX} is indeterminate (no macro, sysconf gives -1):"
                    " the rule needs the limit (ruling 24)");
    if (max < 3 || max > (1L << 20))
        CT_UNTESTED("{TRACE_EVENT_NAME_MAX} is %ld: too small or too large to build such a"
                    " name", max);
    return (size_t)max;
}

/* The identifier of the user event type name (posix_trace_eventid_open). */
static inline trace_event_id_t ct_open_id(const char *name)
{
    trace_event_id_t id;
    CT_SETUP_OK(posix_trace_eventid_open(name, &id));
    return id;
}

/* A stream created from attr (NULL: the defaults), started if start. */
static inline trace_id_t ct_new_stream(const trace_attr_t *attr, int start)
{
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, attr, &trid));
    if (start)
        CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

/* Opens distinct names "PREFIX.1", "PREFIX.2", ... with open (eventid_open
 * or trid_eventid_open, named fn in messages) until the unnamed user event
 * comes back (S0127, S0145, ruling 21).  XBD <limits.h>: {TRACE_USER_EVENT_MAX}
 * is the "Maximum number of user trace event type identifiers that may
 * simultaneously exist in a traced process, including the predefined user
 * trace event POSIX_TRACE_UNNAMED_USER_EVENT".  The predefined event always
 * exists, so exactly {TRACE_USER_EVENT_MAX}-1 names get identifiers of their
 * own (S0125: until the limit is reached a new name gets a unique one), and
 * name {TRACE_USER_EVENT_MAX} gets the unnamed event; past the limit every
 * new name gets it and a name mapped before keeps its identifier; the named
 * identifiers are distinct.  The test's process has opened no other name.
 * With an indeterminate or huge limit only {_POSIX_TRACE_USER_EVENT_MAX}
 * names are opened. */
typedef int (*ct_open_fn)(trace_id_t trid, const char *name, trace_event_id_t *id);

static inline void ct_check_user_event_limit(trace_id_t trid, ct_open_fn open, const char *fn,
                                             const char *prefix)
{
    long limit = ct_limit_trace_user_event_max();
    char name[64];
    int determinate = limit > 0 && limit <= 65536;
    long tries = determinate ? limit + 1 : CT_MIN_TRACE_USER_EVENT_MAX;
    trace_event_id_t *ids = malloc(sizeof *ids * (size_t)tries);
    long named = 0, unnamed_at = 0;
    CT_CHECK(ids != NULL, "out of memory");
    if (!determinate)
        ct_note("{TRACE_USER_EVENT_MAX} is %ld: opening only {_POSIX_TRACE_USER_EVENT_MAX} ="
                " %d names (ruling 21)", limit, CT_MIN_TRACE_USER_EVENT_MAX);

    for (long i = 1; i <= tries; i++) {
        trace_event_id_t id;
        snprintf(name, sizeof name, "%s.%ld", prefix, i);
        int rc = open(trid, name, &id);
        CT_CHECK(rc == 0, "%s of name %ld (\"%s\") returned %s, expected 0: past the limit it"
                 " returns the unnamed user event, not an error", fn, i, name, ct_errname(rc));
        if (posix_trace_eventid_equal(trid, id, CT_UNNAMED)) {
            unnamed_at = i;
            break;
        }
        ids[named++] = id;
    }
    if (determinate) {
        CT_CHECK(unnamed_at != 0,
                 "%ld distinct names opened with {TRACE_USER_EVENT_MAX} = %ld: none returned"
                 " POSIX_TRACE_UNNAMED_USEREVENT; the limit includes the predefined user"
                 " event, so name %ld should have (ruling 21)", tries, limit, limit);
        CT_CHECK(unnamed_at == limit,
                 "POSIX_TRACE_UNNAMED_USEREVENT came back for name %ld, after %ld named"
                 " identifiers; {TRACE_USER_EVENT_MAX} = %ld counts the predefined user event"
                 " (<limits.h>), so exactly %ld names get identifiers of their own and name"
                 " %ld gets the unnamed event (ruling 21)", unnamed_at, named, limit,
                 limit - 1, limit);
        for (int k = 1; k <= 3; k++) {
            trace_event_id_t id;
            snprintf(name, sizeof name, "%s.beyond.%d", prefix, k);
            CT_CHECK_OK(open(trid, name, &id));
            CT_CHECK(posix_trace_eventid_equal(trid, id, CT_UNNAMED),
                     "past the limit, the new name \"%s\" got %s, not"
                     " POSIX_TRACE_UNNAMED_USEREVENT", name, CT_HEX(id));
        }
        /* A name mapped before the limit keeps its identifier (S0126). */
        trace_event_id_t again;
        snprintf(name, sizeof name, "%s.1", prefix);
        CT_CHECK_OK(open(trid, name, &again));
        CT_CHECK(named == 0 || posix_trace_eventid_equal(trid, again, ids[0]),
                 "past the limit, the name mapped first got %s, not its identifier %s",
                 CT_HEX(again), CT_HEX(ids[0]));
    } else {
        CT_CHECK(unnamed_at == 0 || unnamed_at == CT_MIN_TRACE_USER_EVENT_MAX,
                 "POSIX_TRACE_UNNAMED_USEREVENT came back for name %ld: the limit is at least"
                 " {_POSIX_TRACE_USER_EVENT_MAX} = %d identifiers", unnamed_at,
                 CT_MIN_TRACE_USER_EVENT_MAX);
    }
    /* Pairwise up to 4096 names; beyond, each against its 64 successors. */
    for (long i = 0; i < named; i++)
        for (long j = i + 1; j < named && (named <= 4096 || j <= i + 64); j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]),
                     "names %s.%ld and %s.%ld got equal identifiers %s", prefix, i + 1,
                     prefix, j + 1, CT_HEX(ids[i]));
    free(ids);
}

/* A name of exactly {TRACE_EVENT_NAME_MAX} characters (made of tag) opens
 * with open (fn in messages), and eventid_get_name gives it back whole
 * (S0124 for eventid_open, S0142 for trid_eventid_open, S0138 for
 * get_name; ruling 24: the limit excludes the NUL). */
static inline void ct_check_name_max_opens(ct_open_fn open, const char *fn, char tag)
{
    size_t max = ct_event_name_max();
    char *name = ct_long_name(max, tag), *back = malloc(max + 17);
    trace_event_id_t id;
    CT_CHECK(back != NULL, "out of memory");
    trace_id_t trid = ct_new_stream(NULL, 0);
    int rc = open(trid, name, &id);
    CT_CHECK(rc == 0, "%s of a name of exactly {TRACE_EVENT_NAME_MAX} = %zu characters"
             " returned %s, expected 0 (ruling 24: the limit excludes the NUL)", fn, max,
             ct_errname(rc));
    memset(back, 'x', max + 17);
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, id, back));
    CT_CHECK(memchr(back, '\0', max + 1) != NULL && strcmp(back, name) == 0,
             "eventid_get_name gives back a name of %zu characters, expected the %zu"
             " opened", strnlen(back, max + 17), max);
    free(name);
    free(back);
}

/* A trace id that no longer names a stream (ruling 25): use it before the
 * next posix_trace_create of the process. */
static inline trace_id_t ct_dead_stream(void)
{
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    return trid;
}

/* A stream with the given stream-full-policy, not started, asked for a
 * stream-min-size of 2048 bytes (the setter may refuse). */
static inline trace_id_t ct_small_stream(int policy)
{
    trace_attr_t a;
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, policy));
    (void)posix_trace_attr_setstreamsize(&a, 2048);
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    CT_SETUP_OK(posix_trace_attr_destroy(&a));
    return trid;
}

/* A stream with the given policy, asked for room for about 32 events carrying
 * an unsigned (the setter may refuse: the default is kept); started if start. */
static inline trace_id_t ct_stream_for_32(int policy, int start)
{
    trace_attr_t attr;
    trace_id_t trid;
    size_t ev = 0;
    CT_SETUP_OK(posix_trace_attr_init(&attr));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&attr, policy));
    if (posix_trace_attr_getmaxusereventsize(&attr, sizeof(unsigned), &ev) != 0 ||
        posix_trace_attr_setstreamsize(&attr, 32 * (ev ? ev : 64)) != 0)
        ct_note("stream-min-size could not be set: the default is used");
    CT_SETUP_OK(posix_trace_create(0, &attr, &trid));
    posix_trace_attr_destroy(&attr);
    if (start)
        CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

/* The stream's max-data-size in force (get_attr, ruling 22). */
static inline size_t ct_stream_max_data(trace_id_t trid)
{
    trace_attr_t a;
    size_t m = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_get_attr(trid, &a));
    CT_SETUP_OK(posix_trace_attr_getmaxdatasize(&a, &m));
    posix_trace_attr_destroy(&a);
    return m;
}

/* A stream whose events keep `bytes` bytes of data, started if start: the
 * default max-data-size is implementation-defined (XSH
 * posix_trace_attr_getmaxdatasize, S0052; data beyond it may be truncated,
 * S0059), so it is asked for; a stream that still keeps less ends the test
 * UNRESOLVED. */
static inline trace_id_t ct_stream_for_data(size_t bytes, int start)
{
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setmaxdatasize(&a, bytes));
    trace_id_t trid = ct_new_stream(&a, start);
    posix_trace_attr_destroy(&a);
    size_t m = ct_stream_max_data(trid);
    if (m < bytes)
        CT_UNRESOLVED("a stream asked for max-data-size %zu has %zu", bytes, m);
    return trid;
}

/* ---- Status ---------------------------------------------------------------------- */

/* The stream's status; posix_trace_get_status must succeed (a check, FAIL). */
static inline struct posix_trace_status_info ct_status(trace_id_t trid)
{
    struct posix_trace_status_info st;
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    return st;
}

/* "RUNNING", "SUSPENDED" or "(invalid)" for a posix_stream_status value. */
static inline const char *ct_state_name(int s)
{
    return s == POSIX_TRACE_RUNNING ? "RUNNING" : s == POSIX_TRACE_SUSPENDED ? "SUSPENDED"
                                                                               : "(invalid)";
}

/* Records id (16 bytes of data) into the running stream until ct_status()
 * reports it FULL; the number of events recorded (UNRESOLVED after 200000). */
static inline long ct_fill(trace_id_t trid, trace_event_id_t id)
{
    char data[16];
    memset(data, 'f', sizeof data);
    for (long n = 1; n <= 200000; n++) {
        posix_trace_event(id, data, sizeof data);
        if (n % 4 == 0 && ct_status(trid).posix_stream_full_status == POSIX_TRACE_FULL)
            return n;
    }
    CT_UNRESOLVED("200000 events did not make the stream FULL");
}

/* ---- Events read into an array ---------------------------------------------------- */

/* An event read with at most 32 bytes of its data: small enough to hold a
 * whole stream in an array. */
struct ct_ev {
    struct posix_trace_event_info info;
    size_t len;
    unsigned char data[32];
};

/* Reads every event available now (trygetnext, which must succeed), keeping
 * the first max in v; returns how many there were. */
static inline size_t ct_drain(trace_id_t trid, struct ct_ev *v, size_t max)
{
    size_t n = 0;
    for (;;) {
        struct ct_ev e;
        int unavailable = 1;
        e.len = 0;
        CT_CHECK_OK(posix_trace_trygetnext_event(trid, &e.info, e.data, sizeof e.data,
                                                 &e.len, &unavailable));
        if (unavailable)
            break;
        if (n < max)
            v[n] = e;
        if (++n > 1000000)
            CT_FAIL("trygetnext reported more than a million events: the stream never empties");
    }
    return n;
}

/* Is e an event of type id? */
static inline int ct_is_event(trace_id_t trid, const struct ct_ev *e, trace_event_id_t id)
{
    return posix_trace_eventid_equal(trid, e->info.posix_event_id, id) != 0;
}

/* How many of v[0..n) are events of type id. */
static inline size_t ct_count(trace_id_t trid, const struct ct_ev *v, size_t n,
                              trace_event_id_t id)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ct_is_event(trid, &v[i], id);
    return c;
}

/* ---- Events read one at a time ---------------------------------------------------- */

/* The data buffer of a struct ct_rec, in bytes. */
#define CT_REC_DATA 512

/* An event read on its own, with up to CT_REC_DATA bytes of its data. */
struct ct_rec {
    struct posix_trace_event_info info;
    size_t len;
    unsigned char data[CT_REC_DATA];
};

/* The next event, without blocking (trygetnext, a setup): 1, or 0 if the
 * stream is empty. */
static inline int ct_next_event(trace_id_t trid, struct ct_rec *r)
{
    int unavailable = -1;
    r->len = 0;
    CT_SETUP_OK(posix_trace_trygetnext_event(trid, &r->info, r->data, sizeof r->data,
                                             &r->len, &unavailable));
    return unavailable == 0;
}

/* The next event of type id, skipping the others: 1, or 0 if none is left. */
static inline int ct_next_of(trace_id_t trid, trace_event_id_t id, struct ct_rec *r)
{
    while (ct_next_event(trid, r))
        if (posix_trace_eventid_equal(trid, r->info.posix_event_id, id))
            return 1;
    return 0;
}

/* Records an event of type id whose data is the sequence number seq. */
static inline void ct_record_seq(trace_event_id_t id, unsigned seq)
{
    posix_trace_event(id, &seq, sizeof seq);
}

/* ---- Time ------------------------------------------------------------------------ */

/* CLOCK_MONOTONIC now, in seconds: how long a call took. */
static inline double ct_mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Is t a valid timespec: tv_sec >= 0 and tv_nsec in 0..999999999? */
static inline int ct_valid_timespec(const struct timespec *t)
{
    return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000L;
}

/* Are a and b the same time? */
static inline int ct_same_time(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* ---- Stream-full policies --------------------------------------------------------- */

/* Is p one of the stream-full-policy values a header defines (LOOP,
 * UNTIL_FULL and, where defined, FLUSH)? */
static inline int ct_is_policy_constant(int p)
{
    if (p == POSIX_TRACE_LOOP || p == POSIX_TRACE_UNTIL_FULL)
        return 1;
#ifdef POSIX_TRACE_FLUSH
    if (p == POSIX_TRACE_FLUSH)
        return 1;
#endif
    return 0;
}

/* A value distinct from LOOP, UNTIL_FULL and FLUSH. */
static inline int ct_invalid_policy(void)
{
    int v = 0x5a5a;
    while (ct_is_policy_constant(v))
        v++;
    return v;
}

/* ---- The return convention and the reference's exact checks ------------------------ */

/* call must return 0; errno is cleared before it and reported after it (a
 * function that fails with -1 and errno shows up in the message). */
#define CT_SUCCEEDS(call)                                                         \
    do {                                                                          \
        int ct_rc_;                                                               \
        errno = 0;                                                                \
        ct_rc_ = (call);                                                          \
        CT_CHECK(ct_rc_ == 0, "%s returned %d (%s), errno %s: expected 0 on success", \
                 #call, ct_rc_, ct_errname(ct_rc_), ct_errname(errno));           \
    } while (0)

/* 1 when the implementation under test is the reference (the build defines
 * CT_HAVE_POSIX_TRACE_SYSCONF for it): the checks whose only triggers are
 * undefined behaviour portably (NULL, a destroyed object) run there only. */
#ifdef CT_HAVE_POSIX_TRACE_SYSCONF
#define CT_EXACT_REFERENCE 1
#else
#define CT_EXACT_REFERENCE 0
#endif

/* First in a test made only of such checks: ends it UNTESTED elsewhere. */
#if CT_EXACT_REFERENCE
#define CT_REFERENCE_ONLY() ((void)0)
#else
#define CT_REFERENCE_ONLY()                                                          \
    CT_UNTESTED("exact check: the only triggers (NULL, a destroyed object) are undefined" \
                " behaviour portably; runs against the reference only")
#endif

/* An attributes object that was initialised and then destroyed (using it is
 * undefined behaviour portably: for the reference's exact checks). */
static inline void ct_destroyed_attr(trace_attr_t *a)
{
    CT_SETUP_OK(posix_trace_attr_init(a));
    CT_SETUP_OK(posix_trace_attr_destroy(a));
}

#endif /* CT_STREAM_H */
