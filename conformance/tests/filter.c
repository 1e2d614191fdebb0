/* SPDX-License-Identifier: MIT */
/*
 * filter.c -- the event filter of a trace stream: posix_trace_get_filter(),
 * posix_trace_set_filter() (XSH posix_trace_get_filter), the filter of a new
 * stream (XSH posix_trace_create), posix_trace_event() of a filtered type
 * (XSH posix_trace_event), the system events of the option and the data of
 * START and FILTER (XSH 2.11.2), the sets as objects of the application (XSH
 * posix_trace_eventset_add), and the option's macro and sysconf() name (XBD
 * <unistd.h>).
 *
 * Portable: a set is only inspected with eventset_ismember(), over the event
 * types the test knows (ct_tef.h), and the data of START and FILTER is
 * copied into trace_event_set_t objects before it is inspected.  The filters
 * installed hold user event types only: whether a system event may be
 * filtered, and what that does, is not specified.  Events are told apart by
 * type (eventid_equal) and by a sequence number in their data.  Streams are
 * asked for room for all the events of a test; a stream that nonetheless
 * fills up or overruns ends the test UNRESOLVED.  _POSIX_TRACE_EVENT_FILTER
 * is read after <unistd.h> alone and again after <trace.h>; its two rules
 * are checked whatever the option's support (they need TRC only).
 *
 * Not tested here, and why:
 *   clear.filter         not testable (ruling 19).
 *   get_filter.EINVAL-set, set_filter.EINVAL-set  not testable: the only
 *                        invalid sets are uninitialised objects (catalogue).
 *   get_filter.EINTR, set_filter.EINTR  not testable (catalogue).
 *   set_filter with a how that is none of SET, ADD, SUB_EVENTSET: S0189 makes
 *                        the three values the argument's domain and the ERRORS
 *                        section lists no error for another, so the call is
 *                        undefined behaviour (XSH 2.1.1, item 1); the
 *                        reference's EINVAL is its own choice.
 *   xsh211.sysevents-tef-trl  log_misc.c; xsh211.sysevent-pid-zero and
 *                        -thread-zero: system_events.c.
 *   the <trace.h> rules of the option: header_trace_h.c.
 */
#include <unistd.h>

/* _POSIX_TRACE_EVENT_FILTER after <unistd.h> alone. */
#ifdef _POSIX_TRACE_EVENT_FILTER
static const int u_tef_defined = 1;
static const long u_tef_value = (long)(_POSIX_TRACE_EVENT_FILTER);
#else
static const int u_tef_defined = 0;
static const long u_tef_value = 0;
#endif

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace.h>
#include "ct.h"
#include "ct_stream.h"
#include "ct_tef.h"

/* ---- <unistd.h> and sysconf ----------------------------------------------------------- */

#ifdef _POSIX_TRACE_EVENT_FILTER
static const int t_tef_defined = 1;
static const long t_tef_value = (long)(_POSIX_TRACE_EVENT_FILTER);
#else
static const int t_tef_defined = 0;
static const long t_tef_value = 0;
#endif

CT_TEST(posix_trace_event_filter_macro, "unistd.POSIX_TRACE_EVENT_FILTER", "TRC", "")
{
    /* Checked whatever the option's support: hence option TRC only. */
    CT_CHECK(!u_tef_defined || u_tef_value == -1 || u_tef_value == 0 ||
             u_tef_value == 200809L, "after <unistd.h>, _POSIX_TRACE_EVENT_FILTER is %ld: if"
             " defined it must be -1, 0 or 200809L", u_tef_value);
    CT_CHECK(!t_tef_defined || t_tef_value == -1 || t_tef_value == 0 ||
             t_tef_value == 200809L, "after <unistd.h> and <trace.h>,"
             " _POSIX_TRACE_EVENT_FILTER is %ld: if defined it must be -1, 0 or 200809L",
             t_tef_value);
    ct_note("_POSIX_TRACE_EVENT_FILTER: after <unistd.h> %s%ld, after <trace.h> %s%ld",
            u_tef_defined ? "" : "undefined ", u_tef_value, t_tef_defined ? "" : "undefined ",
            t_tef_value);
}

CT_TEST(sc_trace_event_filter, "sysconf.SC_TRACE_EVENT_FILTER", "TRC", "sysconf")
{
#ifdef _SC_TRACE_EVENT_FILTER
    /* Checked whatever the option's support: hence option TRC only. */
    errno = 0;
    long v = ct_sysconf(_SC_TRACE_EVENT_FILTER);
    int e = errno;
    CT_CHECK(v == -1 || v == 200809L, "sysconf(_SC_TRACE_EVENT_FILTER) = %ld: expected -1 or"
             " 200809L", v);
    CT_CHECK(v != -1 || e == 0, "sysconf(_SC_TRACE_EVENT_FILTER) = -1 with errno %s: an option"
             " name must not fail", ct_errname(e));
    ct_note("sysconf(_SC_TRACE_EVENT_FILTER) = %ld", v);
#else
    CT_UNRESOLVED("<unistd.h> does not define _SC_TRACE_EVENT_FILTER (unistd.sc-names)");
#endif
}

#if CT_HAVE_TEF

/* The universe of these tests: the system events, the predefined user
 * event, and user types "ct.filter.<i>" (i = 0..7). */
#define USERS 8

struct fixture {
    struct ct_universe u;
    int t[USERS];           /* t[i]: the index of user type i in u */
};

static void fixture(struct fixture *f)
{
    ct_universe(&f->u, "ct.filter", USERS);
    int first = ct_u_first_user(&f->u);
    for (int i = 0; i < USERS; i++)
        f->t[i] = first + i;
}

/* The mask of user types i (bit i of users: 0..USERS-1). */
static ct_mask M(const struct fixture *f, unsigned users)
{
    ct_mask m = 0;
    for (int i = 0; i < USERS; i++)
        if (users & (1u << i))
            m |= CT_BIT(f->t[i]);
    return m;
}

static trace_event_id_t T(const struct fixture *f, int i)
{
    return f->u.id[f->t[i]];
}

/* Does v[0..n) hold exactly one event of user type i with data seq? */
static int present(const struct fixture *f, trace_id_t trid, const struct ct_rec *v, size_t n,
                   int i, unsigned seq)
{
    return ct_count_seq(trid, v, n, T(f, i), seq) == 1;
}

static int absent(const struct fixture *f, trace_id_t trid, const struct ct_rec *v, size_t n,
                  int i, unsigned seq)
{
    return ct_count_seq(trid, v, n, T(f, i), seq) == 0;
}

/* A stream's filter (get_filter) must be exactly the user types of want,
 * and hold no other type the test knows. */
static void expect_filter(const struct fixture *f, trace_id_t trid, unsigned want,
                          const char *what)
{
    trace_event_set_t s;
    memset(&s, 0x5A, sizeof s);
    int rc = posix_trace_get_filter(trid, &s);
    CT_CHECK(rc == 0, "posix_trace_get_filter on an active stream returned %d (%s), expected"
             " 0", rc, ct_errname(rc));
    ct_expect_set(&f->u, &s, M(f, want), ct_u_all(&f->u), what);
}

#define MAX_EV 64

#endif /* CT_HAVE_TEF */

/* ---- the filter of a new stream, get_filter ---------------------------------------------- */

CT_TEST(create_filter_empty, "create.filter-empty", "TRC,TEF",
        "posix_trace_create,posix_trace_get_filter,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    fixture(&f);                                    /* user types opened before create */
    trace_id_t trid = ct_new_stream(NULL, 0);
    ct_u_user(&f.u, "ct.filter.after-create");      /* ... and after it */
    trace_event_id_t tid;
    CT_SETUP_OK(posix_trace_trid_eventid_open(trid, "ct.filter.trid", &tid));
    ct_u_add(&f.u, tid, CT_USER, "ct.filter.trid");
    trace_event_set_t s;
    memset(&s, 0x5A, sizeof s);
    CT_CHECK_OK(posix_trace_get_filter(trid, &s));
    ct_expect_set(&f.u, &s, 0, ct_u_all(&f.u), "the filter of a new stream");

    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    trace_id_t second = ct_new_stream(&a, 0);
    memset(&s, 0x5A, sizeof s);
    CT_CHECK_OK(posix_trace_get_filter(second, &s));
    ct_expect_set(&f.u, &s, 0, ct_u_all(&f.u), "the filter of a second new stream (attributes"
                  " object)");
#else
    NO_TEF();
#endif
}

CT_TEST(get_filter_retrieves, "get_filter.retrieves", "TRC,TEF",
        "posix_trace_get_filter,posix_trace_set_filter,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    fixture(&f);
    static const unsigned sets[] = { 0x01, 0xA5, 0xFF, 0x5A, 0x00, 0x80 };
    trace_id_t trid = ct_new_stream(NULL, 0);
    for (int run = 0; run < 2; run++) {
        if (run == 1)
            CT_SETUP_OK(posix_trace_start(trid));
        for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
            char what[96];
            ct_filter(trid, &f.u, M(&f, sets[k]), POSIX_TRACE_SET_EVENTSET);
            snprintf(what, sizeof what, "the filter read back (%s stream)",
                     run ? "a RUNNING" : "a never started");
            expect_filter(&f, trid, sets[k], what);
            expect_filter(&f, trid, sets[k], "the filter read back a second time");
        }
    }
#else
    NO_TEF();
#endif
}

/* ---- set_filter: SET, ADD, SUB ------------------------------------------------------------ */

CT_TEST(set_filter_set, "set_filter.set", "TRC,TEF",
        "posix_trace_set_filter,posix_trace_get_filter")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    fixture(&f);
    trace_id_t trid = ct_new_stream(NULL, 0);
    /* {old, set}: the filter becomes set, whatever it was. */
    static const unsigned steps[][2] = {
        { 0x00, 0x03 }, { 0x03, 0x06 }, { 0x06, 0x00 }, { 0x00, 0xF0 }, { 0xF0, 0x0F },
        { 0x0F, 0x0F },
    };
    for (int run = 0; run < 2; run++) {
        if (run == 1)
            CT_SETUP_OK(posix_trace_start(trid));
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            char what[160];
            trace_event_set_t s;
            ct_set_of(&s, &f.u, M(&f, steps[k][1]));
            CT_CHECK_OK(posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET));
            snprintf(what, sizeof what, "on a %s stream, a filter %s after set_filter(%s,"
                     " POSIX_TRACE_SET_EVENTSET)", run ? "RUNNING" : "never started",
                     ct_names(&f.u, M(&f, steps[k][0])), ct_names(&f.u, M(&f, steps[k][1])));
            expect_filter(&f, trid, steps[k][1], what);
        }
    }
#else
    NO_TEF();
#endif
}

/* set_filter with how from each old filter; the result is want. */
#if CT_HAVE_TEF
struct how_step {
    unsigned old, set, want;
};

static void how_steps(const struct fixture *f, int how, const char *howname,
                      const struct how_step *steps, size_t n)
{
    trace_id_t trid = ct_new_stream(NULL, 0);
    for (int run = 0; run < 2; run++) {
        if (run == 1)
            CT_SETUP_OK(posix_trace_start(trid));
        for (size_t k = 0; k < n; k++) {
            char what[200];
            trace_event_set_t s;
            ct_filter(trid, &f->u, M(f, steps[k].old), POSIX_TRACE_SET_EVENTSET);
            ct_set_of(&s, &f->u, M(f, steps[k].set));
            CT_CHECK_OK(posix_trace_set_filter(trid, &s, how));
            snprintf(what, sizeof what, "on a %s stream, the filter %s after set_filter(%s,"
                     " %s)", run ? "RUNNING" : "never started",
                     ct_names(&f->u, M(f, steps[k].old)), ct_names(&f->u, M(f, steps[k].set)),
                     howname);
            expect_filter(f, trid, steps[k].want, what);
        }
    }
}
#endif

CT_TEST(set_filter_add, "set_filter.add", "TRC,TEF",
        "posix_trace_set_filter,posix_trace_get_filter")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    fixture(&f);
    static const struct how_step steps[] = {
        { 0x00, 0x03, 0x03 }, { 0x03, 0x06, 0x07 }, { 0x07, 0x00, 0x07 },
        { 0x07, 0x07, 0x07 }, { 0x07, 0x01, 0x07 }, { 0x0F, 0xF0, 0xFF },
        { 0x81, 0x18, 0x99 },
    };
    how_steps(&f, POSIX_TRACE_ADD_EVENTSET, "POSIX_TRACE_ADD_EVENTSET", steps,
              sizeof steps / sizeof steps[0]);
#else
    NO_TEF();
#endif
}

CT_TEST(set_filter_sub, "set_filter.sub", "TRC,TEF",
        "posix_trace_set_filter,posix_trace_get_filter")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    fixture(&f);
    static const struct how_step steps[] = {
        { 0x07, 0x02, 0x05 }, { 0x07, 0x0A, 0x05 }, { 0x07, 0x00, 0x07 },
        { 0x07, 0x07, 0x00 }, { 0x00, 0x07, 0x00 }, { 0xFF, 0xF0, 0x0F },
        { 0x99, 0x66, 0x99 },
    };
    how_steps(&f, POSIX_TRACE_SUB_EVENTSET, "POSIX_TRACE_SUB_EVENTSET", steps,
              sizeof steps / sizeof steps[0]);
#else
    NO_TEF();
#endif
}

/* ---- the filter at work -------------------------------------------------------------------- */

CT_TEST(set_filter_when, "set_filter.when", "TRC,TEF",
        "posix_trace_set_filter,posix_trace_start,posix_trace_event,posix_trace_trygetnext_event")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    struct ct_rec v[MAX_EV];
    fixture(&f);
    trace_id_t trid = ct_tef_stream(0);

    /* Before the stream was ever started: type 0 filtered out. */
    trace_event_set_t s;
    ct_set_of(&s, &f.u, M(&f, 0x01));
    int rc = posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET);
    CT_CHECK(rc == 0, "set_filter on a stream never started returned %d (%s), expected 0",
             rc, ct_errname(rc));
    CT_SETUP_OK(posix_trace_start(trid));
    ct_record_seq(T(&f, 0), 1);
    ct_record_seq(T(&f, 1), 1);

    /* While RUNNING: type 1 filtered out instead. */
    ct_set_of(&s, &f.u, M(&f, 0x02));
    rc = posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET);
    CT_CHECK(rc == 0, "set_filter on a RUNNING stream returned %d (%s), expected 0", rc,
             ct_errname(rc));
    ct_record_seq(T(&f, 0), 2);
    ct_record_seq(T(&f, 1), 2);
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_no_loss(trid);
    size_t n = ct_drain_sev(trid, v, MAX_EV);

    CT_CHECK(absent(&f, trid, v, n, 0, 1), "type %s, filtered out before the first start, was"
             " recorded after it: the filter set before start takes no effect", f.u.name[f.t[0]]);
    CT_CHECK(present(&f, trid, v, n, 1, 1), "type %s, not filtered, is missing after the first"
             " start", f.u.name[f.t[1]]);
    CT_CHECK(present(&f, trid, v, n, 0, 2), "type %s, no longer filtered after set_filter on"
             " the RUNNING stream, is missing: the new filter takes no effect",
             f.u.name[f.t[0]]);
    CT_CHECK(absent(&f, trid, v, n, 1, 2), "type %s, filtered out by set_filter on the RUNNING"
             " stream, was still recorded: the new filter takes no effect", f.u.name[f.t[1]]);
#else
    NO_TEF();
#endif
}

CT_TEST(set_filter_default_none, "set_filter.default-none", "TRC,TEF",
        "posix_trace_create,posix_trace_event,posix_trace_getnext_event")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    struct ct_rec v[MAX_EV];
    fixture(&f);
    trace_id_t trid = ct_tef_stream(0);
    trace_event_id_t tid;
    CT_SETUP_OK(posix_trace_trid_eventid_open(trid, "ct.filter.default.trid", &tid));
    CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < USERS; i++)
        ct_record_seq(T(&f, i), 10u + (unsigned)i);
    ct_record_seq(CT_UNNAMED, 100);
    ct_record_seq(tid, 101);
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_no_loss(trid);
    size_t n = ct_drain_sev(trid, v, MAX_EV);
    for (int i = 0; i < USERS; i++)
        CT_CHECK(present(&f, trid, v, n, i, 10u + (unsigned)i), "on a stream whose filter was"
                 " never set, the event of user type %s is missing (expected once): nothing is"
                 " filtered by default", f.u.name[f.t[i]]);
    CT_CHECK(ct_count_seq(trid, v, n, CT_UNNAMED, 100) == 1, "on a stream whose filter was"
             " never set, the event of POSIX_TRACE_UNNAMED_USEREVENT is missing");
    CT_CHECK(ct_count_seq(trid, v, n, tid, 101) == 1, "on a stream whose filter was never set,"
             " the event of a type opened with trid_eventid_open is missing");
#else
    NO_TEF();
#endif
}

CT_TEST(event_filtered_no_effect, "event.filtered-no-effect", "TRC,TEF",
        "posix_trace_event,posix_trace_set_filter,posix_trace_trygetnext_event")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    struct ct_rec v[MAX_EV];
    fixture(&f);
    /* Two streams of the process (ruling 20): one filters types 0 and 2, the
     * other type 1. */
    trace_id_t a = ct_tef_stream(0), b = ct_tef_stream(0);
    ct_filter(a, &f.u, M(&f, 0x05), POSIX_TRACE_SET_EVENTSET);
    ct_filter(b, &f.u, M(&f, 0x02), POSIX_TRACE_SET_EVENTSET);
    CT_SETUP_OK(posix_trace_start(a));
    CT_SETUP_OK(posix_trace_start(b));
    for (unsigned seq = 1; seq <= 3; seq++)
        for (int i = 0; i < 4; i++)
            ct_record_seq(T(&f, i), seq);
    CT_SETUP_OK(posix_trace_stop(a));
    CT_SETUP_OK(posix_trace_stop(b));

    const trace_id_t s[2] = { a, b };
    const unsigned filtered[2] = { 0x05, 0x02 };
    for (int k = 0; k < 2; k++) {
        ct_no_loss(s[k]);
        size_t n = ct_drain_sev(s[k], v, MAX_EV);
        for (int i = 0; i < 4; i++)
            for (unsigned seq = 1; seq <= 3; seq++) {
                int c = ct_count_seq(s[k], v, n, T(&f, i), seq);
                if (filtered[k] & (1u << i))
                    CT_CHECK(c == 0, "stream %d, whose filter holds %s, recorded event %u of"
                             " that type (%d times): a filtered event has no effect", k + 1,
                             f.u.name[f.t[i]], seq, c);
                else
                    CT_CHECK(c == 1, "stream %d, whose filter holds %s, holds event %u of the"
                             " unfiltered type %s %d times, expected once", k + 1,
                             ct_names(&f.u, M(&f, filtered[k])), seq, f.u.name[f.t[i]], c);
            }
    }
#else
    NO_TEF();
#endif
}

/* ---- the system events of the option, START and FILTER --------------------------------------- */

CT_TEST(sysevents_tef, "xsh211.sysevents-tef", "TRC,TEF",
        "posix_trace_eventid_get_name,posix_trace_eventid_equal")
{
#if CT_HAVE_TEF
    require_tef();
    /* POSIX_TRACE_ERROR last: left out where the header lacks it. */
    static const char *const names[6] = {
        "posix_trace_start", "posix_trace_stop", "posix_trace_filter",
        "posix_trace_overflow", "posix_trace_resume", "posix_trace_error"
    };
    static const char *const constants[6] = {
        "POSIX_TRACE_START", "POSIX_TRACE_STOP", "POSIX_TRACE_FILTER",
        "POSIX_TRACE_OVERFLOW", "POSIX_TRACE_RESUME", "POSIX_TRACE_ERROR"
    };
    const trace_event_id_t ids[6] = {
        POSIX_TRACE_START, POSIX_TRACE_STOP, POSIX_TRACE_FILTER, POSIX_TRACE_OVERFLOW,
        POSIX_TRACE_RESUME,
#if CT_HAVE_POSIX_TRACE_ERROR
        POSIX_TRACE_ERROR
#endif
    };
    const int n = CT_HAVE_POSIX_TRACE_ERROR ? 6 : 5;
    char name[CT_EVENT_NAME_BUF];
    trace_id_t trid = ct_new_stream(NULL, 0);
    if (!CT_HAVE_POSIX_TRACE_ERROR)
        ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
    for (int i = 0; i < n; i++) {
        memset(name, 'x', sizeof name);
        int rc = posix_trace_eventid_get_name(trid, ids[i], name);
        CT_CHECK(rc == 0, "eventid_get_name(%s) returned %s, expected 0 and \"%s\"",
                 constants[i], ct_errname(rc), names[i]);
        CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, names[i]) == 0,
                 "eventid_get_name(%s) gives \"%.60s\", expected \"%s\"", constants[i], name,
                 names[i]);
        for (int j = i + 1; j < n; j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]), "%s and %s are the"
                     " same event (%s)", constants[i], constants[j], CT_HEX(ids[i]));
    }
    trace_event_id_t u = ct_open_id("ct.filter.sysevents");
    CT_CHECK(!posix_trace_eventid_equal(trid, u, POSIX_TRACE_FILTER) &&
             !posix_trace_eventid_equal(trid, CT_UNNAMED, POSIX_TRACE_FILTER),
             "POSIX_TRACE_FILTER (%s) equals a user event type", CT_HEX(u));
#else
    NO_TEF();
#endif
}

CT_TEST(start_data_tef, "xsh211.start-data-tef", "TRC,TEF",
        "posix_trace_start,posix_trace_set_filter,posix_trace_getnext_event")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    struct ct_rec v[MAX_EV];
    fixture(&f);
    trace_id_t trid = ct_tef_stream(0);
    /* The filter in force at each start: none; {0, 1} set while suspended;
     * {0, 1, 2} after an ADD while running; {} after a SUB while suspended. */
    static const unsigned want[4] = { 0x00, 0x03, 0x07, 0x00 };
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_filter(trid, &f.u, M(&f, 0x03), POSIX_TRACE_SET_EVENTSET);
    CT_SETUP_OK(posix_trace_start(trid));
    ct_filter(trid, &f.u, M(&f, 0x04), POSIX_TRACE_ADD_EVENTSET);
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_filter(trid, &f.u, M(&f, 0x07), POSIX_TRACE_SUB_EVENTSET);
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_no_loss(trid);
    size_t n = ct_drain_sev(trid, v, MAX_EV);

    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!posix_trace_eventid_equal(trid, v[i].info.posix_event_id, POSIX_TRACE_START))
            continue;
        if (k == 4) {
            CT_FAIL("more than 4 START events after 4 calls of posix_trace_start");
        }
        char what[96];
        CT_CHECK(v[i].len == sizeof(trace_event_set_t), "START event %d carries %zu bytes of"
                 " data, expected one trace_event_set_t (%zu bytes)", k + 1, v[i].len,
                 sizeof(trace_event_set_t));
        CT_CHECK(v[i].info.posix_truncation_status == POSIX_TRACE_NOT_TRUNCATED,
                 "START event %d has truncation status %d, expected POSIX_TRACE_NOT_TRUNCATED",
                 k + 1, v[i].info.posix_truncation_status);
        trace_event_set_t s = ct_set_in(&v[i], 0);
        snprintf(what, sizeof what, "the set in START event %d (the filter in force was %s)",
                 k + 1, ct_names(&f.u, M(&f, want[k])));
        ct_expect_set(&f.u, &s, M(&f, want[k]), ct_u_all(&f.u), what);
        k++;
    }
    if (k < 4)
        CT_UNRESOLVED("%d START events read after 4 calls of posix_trace_start", k);
#else
    NO_TEF();
#endif
}

CT_TEST(set_filter_filter_event, "set_filter.filter-event", "TRC,TEF",
        "posix_trace_set_filter,posix_trace_getnext_event")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    struct ct_rec v[MAX_EV];
    fixture(&f);
    /* User type 7 marks the calls: its event k follows the k-th set_filter
     * on the running stream (never filtered). */
    static const struct { unsigned set; int how; unsigned old, now; } calls[] = {
        { 0x02, POSIX_TRACE_ADD_EVENTSET, 0x01, 0x03 },
        { 0x01, POSIX_TRACE_SUB_EVENTSET, 0x03, 0x02 },
        { 0x0C, POSIX_TRACE_SET_EVENTSET, 0x02, 0x0C },
        { 0x0C, POSIX_TRACE_SET_EVENTSET, 0x0C, 0x0C },
        { 0x00, POSIX_TRACE_SET_EVENTSET, 0x0C, 0x00 },
    };
    const int ncalls = (int)(sizeof calls / sizeof calls[0]);
    trace_id_t trid = ct_tef_stream(0);
    ct_filter(trid, &f.u, M(&f, 0x01), POSIX_TRACE_SET_EVENTSET);  /* suspended: no FILTER */
    CT_SETUP_OK(posix_trace_start(trid));
    ct_record_seq(T(&f, 7), 0);
    for (int k = 0; k < ncalls; k++) {
        trace_event_set_t s;
        ct_set_of(&s, &f.u, M(&f, calls[k].set));
        CT_CHECK_OK(posix_trace_set_filter(trid, &s, calls[k].how));
        ct_record_seq(T(&f, 7), (unsigned)k + 1);
    }
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_no_loss(trid);
    size_t n = ct_drain_sev(trid, v, MAX_EV);

    int filters = 0, marks = 0;
    for (size_t i = 0; i < n; i++) {
        if (ct_is_seq(trid, &v[i], T(&f, 7), (unsigned)marks)) {
            marks++;
            continue;
        }
        if (!posix_trace_eventid_equal(trid, v[i].info.posix_event_id, POSIX_TRACE_FILTER))
            continue;
        int k = filters++;
        CT_CHECK(k < ncalls, "more than %d FILTER events after %d calls of set_filter on the"
                 " running stream", ncalls, ncalls);
        CT_CHECK(marks == k + 1, "FILTER event %d is not where set_filter call %d was made:"
                 " it follows %d of the marks recorded after each call, expected %d", k + 1,
                 k + 1, marks, k + 1);
        CT_CHECK(v[i].len == 2 * sizeof(trace_event_set_t), "FILTER event %d carries %zu bytes"
                 " of data, expected two trace_event_set_t (2 x %zu bytes)", k + 1, v[i].len,
                 sizeof(trace_event_set_t));
        CT_CHECK(v[i].info.posix_truncation_status == POSIX_TRACE_NOT_TRUNCATED,
                 "FILTER event %d has truncation status %d, expected POSIX_TRACE_NOT_TRUNCATED",
                 k + 1, v[i].info.posix_truncation_status);
        char what[160];
        trace_event_set_t old = ct_set_in(&v[i], 0), now = ct_set_in(&v[i], 1);
        snprintf(what, sizeof what, "the first set (old filter) of FILTER event %d", k + 1);
        ct_expect_set(&f.u, &old, M(&f, calls[k].old), ct_u_all(&f.u), what);
        snprintf(what, sizeof what, "the second set (new filter) of FILTER event %d", k + 1);
        ct_expect_set(&f.u, &now, M(&f, calls[k].now), ct_u_all(&f.u), what);
    }
    if (marks != ncalls + 1)
        CT_UNRESOLVED("%d of the %d marks recorded around the set_filter calls were read back",
                      marks, ncalls + 1);
    CT_CHECK(filters == ncalls, "%d calls of set_filter on a RUNNING stream recorded %d"
             " POSIX_TRACE_FILTER events, expected one each", ncalls, filters);
#else
    NO_TEF();
#endif
}

CT_TEST(set_filter_suspended_no_event, "set_filter.no-filter-event-suspended", "TRC,TEF",
        "posix_trace_set_filter,posix_trace_start,posix_trace_getnext_event")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    struct ct_rec v[MAX_EV];
    fixture(&f);
    trace_id_t trid = ct_tef_stream(0);
    /* Never started: SET, ADD, SUB. */
    ct_filter(trid, &f.u, M(&f, 0x01), POSIX_TRACE_SET_EVENTSET);
    ct_filter(trid, &f.u, M(&f, 0x02), POSIX_TRACE_ADD_EVENTSET);
    ct_filter(trid, &f.u, M(&f, 0x01), POSIX_TRACE_SUB_EVENTSET);
    CT_SETUP_OK(posix_trace_start(trid));
    ct_record_seq(T(&f, 7), 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    /* SUSPENDED by posix_trace_stop: SET, ADD, SUB. */
    ct_filter(trid, &f.u, M(&f, 0x04), POSIX_TRACE_SET_EVENTSET);
    ct_filter(trid, &f.u, M(&f, 0x08), POSIX_TRACE_ADD_EVENTSET);
    ct_filter(trid, &f.u, M(&f, 0x04), POSIX_TRACE_SUB_EVENTSET);
    expect_filter(&f, trid, 0x08, "the filter after SET, ADD and SUB on a suspended stream");
    CT_SETUP_OK(posix_trace_start(trid));
    ct_record_seq(T(&f, 7), 2);
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_no_loss(trid);
    size_t n = ct_drain_sev(trid, v, MAX_EV);

    size_t filters = 0;
    for (size_t i = 0; i < n; i++)
        filters += posix_trace_eventid_equal(trid, v[i].info.posix_event_id,
                                             POSIX_TRACE_FILTER) != 0;
    if (!present(&f, trid, v, n, 7, 1) || !present(&f, trid, v, n, 7, 2))
        CT_UNRESOLVED("the stream does not hold the 2 marks recorded while it ran (%zu events"
                      " read)", n);
    CT_CHECK(filters == 0, "6 calls of set_filter on a suspended stream (3 before it was ever"
             " started, 3 after posix_trace_stop) recorded %zu POSIX_TRACE_FILTER events,"
             " expected none", filters);
#else
    NO_TEF();
#endif
}

/* ---- sets are the application's objects ------------------------------------------------------- */

CT_TEST(objects_only, "eventset.objects-only", "TRC,TEF",
        "posix_trace_eventset_add,posix_trace_eventset_del,posix_trace_get_filter,"
        "posix_trace_set_filter")
{
#if CT_HAVE_TEF
    require_tef();
    struct fixture f;
    struct ct_rec v[MAX_EV];
    fixture(&f);
    trace_id_t trid = ct_tef_stream(0);
    trace_event_set_t s, got;
    ct_set_of(&s, &f.u, M(&f, 0x01));
    CT_SETUP_OK(posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET));
    /* The object installed is changed, then the one get_filter filled. */
    CT_CHECK_OK(posix_trace_eventset_add(T(&f, 1), &s));
    CT_CHECK_OK(posix_trace_eventset_del(T(&f, 0), &s));
    expect_filter(&f, trid, 0x01, "the stream's filter after eventset_add and eventset_del on"
                  " the set object that was installed");
    CT_SETUP_OK(posix_trace_get_filter(trid, &got));
    CT_CHECK_OK(posix_trace_eventset_add(T(&f, 2), &got));
    CT_CHECK_OK(posix_trace_eventset_del(T(&f, 0), &got));
    CT_CHECK_OK(posix_trace_eventset_empty(&s));
    expect_filter(&f, trid, 0x01, "the stream's filter after changes to the set get_filter"
                  " filled");

    /* And the events say the same: type 0 filtered, types 1 and 2 not. */
    CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < 3; i++)
        ct_record_seq(T(&f, i), 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    ct_no_loss(trid);
    size_t n = ct_drain_sev(trid, v, MAX_EV);
    CT_CHECK(absent(&f, trid, v, n, 0, 1), "the event of type %s, in the filter installed, was"
             " recorded after the set objects were changed", f.u.name[f.t[0]]);
    CT_CHECK(present(&f, trid, v, n, 1, 1) && present(&f, trid, v, n, 2, 1),
             "events of types %s and %s, added to set objects after set_filter, are missing:"
             " the objects changed the stream's filter", f.u.name[f.t[1]], f.u.name[f.t[2]]);
#else
    NO_TEF();
#endif
}

/* ---- the return convention and EINVAL --------------------------------------------------------- */

#if CT_HAVE_TEF && CT_HAVE_TRL
/* A pre-recorded stream: the trid posix_trace_open gives for a log written
 * by a stream with log (TRL). */
static trace_id_t prerecorded(void)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    trace_id_t w, r;
    snprintf(path, sizeof path, "%s/ct-filter-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        CT_UNRESOLVED("mkstemp(%s): %s", path, ct_errname(errno));
    unlink(path);
    CT_SETUP_OK(posix_trace_create_withlog(0, NULL, fd, &w));
    CT_SETUP_OK(posix_trace_start(w));
    CT_SETUP_OK(posix_trace_shutdown(w));
    if (lseek(fd, 0, SEEK_SET) != 0)
        CT_UNRESOLVED("lseek on the log: %s", ct_errname(errno));
    CT_SETUP_OK(posix_trace_open(fd, &r));
    return r;
}
#endif

CT_TEST(return_convention, "get_filter.return-convention", "TRC,TEF",
        "posix_trace_get_filter,posix_trace_set_filter")
{
#if CT_HAVE_TEF
    require_tef();
    trace_event_set_t s;
    trace_id_t live = ct_new_stream(NULL, 0);
    CT_SUCCEEDS(posix_trace_get_filter(live, &s));
    CT_SUCCEEDS(posix_trace_set_filter(live, &s, POSIX_TRACE_SET_EVENTSET));
    CT_SUCCEEDS(posix_trace_set_filter(live, &s, POSIX_TRACE_ADD_EVENTSET));
    CT_SUCCEEDS(posix_trace_set_filter(live, &s, POSIX_TRACE_SUB_EVENTSET));
    trace_id_t dead = ct_dead_stream();
    errno = 0;
    int rc = posix_trace_get_filter(dead, &s);
    CT_CHECK(rc == EINVAL, "get_filter on a shut-down trid returned %d (%s), errno %s: expected"
             " the error number EINVAL itself", rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_set_filter(dead, &s, POSIX_TRACE_SET_EVENTSET);
    CT_CHECK(rc == EINVAL, "set_filter on a shut-down trid returned %d (%s), errno %s: expected"
             " the error number EINVAL itself", rc, ct_errname(rc), ct_errname(errno));
#else
    NO_TEF();
#endif
}

CT_TEST(get_filter_einval_trid, "get_filter.EINVAL-trid", "TRC,TEF",
        "posix_trace_get_filter,posix_trace_shutdown,posix_trace_open")
{
#if CT_HAVE_TEF
    require_tef();
    trace_event_set_t s;
    trace_id_t dead = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_get_filter(dead, &s), EINVAL);
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        trace_id_t log = prerecorded();
        CT_CHECK_ERR(posix_trace_get_filter(log, &s), EINVAL);
        posix_trace_close(log);
    }
#endif
#else
    NO_TEF();
#endif
}

CT_TEST(set_filter_einval_trid, "set_filter.EINVAL-trid", "TRC,TEF",
        "posix_trace_set_filter,posix_trace_shutdown,posix_trace_open")
{
#if CT_HAVE_TEF
    require_tef();
    trace_event_set_t s;
    CT_SETUP_OK(posix_trace_eventset_empty(&s));
    trace_id_t dead = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_set_filter(dead, &s, POSIX_TRACE_SET_EVENTSET), EINVAL);
    CT_CHECK_ERR(posix_trace_set_filter(dead, &s, POSIX_TRACE_ADD_EVENTSET), EINVAL);
    CT_CHECK_ERR(posix_trace_set_filter(dead, &s, POSIX_TRACE_SUB_EVENTSET), EINVAL);
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        trace_id_t log = prerecorded();
        CT_CHECK_ERR(posix_trace_set_filter(log, &s, POSIX_TRACE_SET_EVENTSET), EINVAL);
        CT_CHECK_ERR(posix_trace_set_filter(log, &s, POSIX_TRACE_ADD_EVENTSET), EINVAL);
        CT_CHECK_ERR(posix_trace_set_filter(log, &s, POSIX_TRACE_SUB_EVENTSET), EINVAL);
        posix_trace_close(log);
    }
#endif
#else
    NO_TEF();
#endif
}
