/* SPDX-License-Identifier: MIT */
/*
 * trid_eventid.c -- posix_trace_trid_eventid_open(): a user event name mapped
 * to an identifier through a trace stream (XSH posix_trace_eventid_equal;
 * option TEF, ruling 8).
 *
 * Portable: identifiers are opaque (compared with eventid_equal, printed in
 * hex); {TRACE_EVENT_NAME_MAX} and {TRACE_USER_EVENT_MAX} are asked of the
 * implementation (ct_limit_*); the tests that need a limit end UNTESTED when
 * it is indeterminate (rulings 21 and 24).  Each test runs in a process of
 * its own, so the names a test opens are the only ones of its process.
 * Without TRI the identifier is unique for the traced process: the calling
 * process, whose streams these are.
 *
 * Not tested here, and why:
 *   trid_eventid_open.unique-tri, .same-name-same-id-tri  TRI: with the fork
 *                      tests of that option.
 *   the return convention (EINVAL on a shut-down trid, 0 on success):
 *                      eventid.c, eventid_equal.return-convention.
 *   a pre-recorded trid (TRL): the rule does not ask for it (catalogue).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"
#include "ct_tef.h"

#if CT_HAVE_TEF

/* trid_eventid_open(trid, name) must succeed (a check); the identifier. */
static trace_event_id_t trid_open(trace_id_t trid, const char *name)
{
    trace_event_id_t id;
    int rc = posix_trace_trid_eventid_open(trid, name, &id);
    CT_CHECK(rc == 0, "trid_eventid_open(\"%.60s\") on an active stream returned %d (%s),"
             " expected 0", name, rc, ct_errname(rc));
    return id;
}

/* eventid_get_name(trid, id) must give name back. */
static void expect_name(trace_id_t trid, trace_event_id_t id, const char *name, const char *on)
{
    char back[CT_EVENT_NAME_BUF];
    memset(back, 'x', sizeof back);
    int rc = posix_trace_eventid_get_name(trid, id, back);
    CT_CHECK(rc == 0, "eventid_get_name of the id %s that trid_eventid_open gave for \"%.60s\""
             " (%s) returned %s", CT_HEX(id), name, on, ct_errname(rc));
    CT_CHECK(memchr(back, '\0', sizeof back) && strcmp(back, name) == 0,
             "eventid_get_name of the id trid_eventid_open gave for \"%.60s\" (%s) gives"
             " \"%.60s\"", name, on, back);
}

/* Records id with data seq in running stream trid, stops it, and reads the
 * event back: it must carry id. */
static void expect_recorded(trace_id_t trid, trace_event_id_t id, unsigned seq, const char *on)
{
    struct ct_rec e;
    int found = 0;
    ct_record_seq(id, seq);
    CT_SETUP_OK(posix_trace_stop(trid));
    while (!found && ct_next_event(trid, &e)) {
        unsigned got;
        if (e.len == sizeof got && (memcpy(&got, e.data, sizeof got), got == seq) &&
            !posix_trace_eventid_equal(trid, e.info.posix_event_id, POSIX_TRACE_STOP) &&
            !posix_trace_eventid_equal(trid, e.info.posix_event_id, POSIX_TRACE_START))
            found = 1;
    }
    CT_CHECK(found, "the event recorded with the id from trid_eventid_open (%s) was not read"
             " back", on);
    CT_CHECK(posix_trace_eventid_equal(trid, e.info.posix_event_id, id),
             "the event recorded with the id %s from trid_eventid_open (%s) comes out with id"
             " %s", CT_HEX(id), on, CT_HEX(e.info.posix_event_id));
}

#endif /* CT_HAVE_TEF */

CT_TEST(maps, "trid_eventid_open.maps", "TRC,TEF",
        "posix_trace_trid_eventid_open,posix_trace_eventid_get_name,posix_trace_event")
{
#if CT_HAVE_TEF
    require_tef();
    trace_id_t trid = ct_tef_stream(0);
    trace_event_id_t a = trid_open(trid, "ct.trid.maps.a");
    trace_event_id_t b = trid_open(trid, "ct.trid.maps.b");
    expect_name(trid, a, "ct.trid.maps.a", "a stream never started");
    expect_name(trid, b, "ct.trid.maps.b", "a stream never started");
    expect_name(trid, a, "ct.trid.maps.a", "asked again");
    CT_SETUP_OK(posix_trace_start(trid));
    expect_recorded(trid, b, 0x5eed, "a stream never started, then started");
#else
    NO_TEF();
#endif
}

CT_TEST(active_stream, "trid_eventid_open.active-stream", "TRC,TEF",
        "posix_trace_trid_eventid_open,posix_trace_create,posix_trace_create_withlog")
{
#if CT_HAVE_TEF
    require_tef();
    /* Never started, RUNNING, SUSPENDED by posix_trace_stop. */
    trace_id_t trid = ct_tef_stream(0);
    trace_event_id_t a = trid_open(trid, "ct.trid.active.never");
    expect_name(trid, a, "ct.trid.active.never", "a stream never started");
    CT_SETUP_OK(posix_trace_start(trid));
    trace_event_id_t b = trid_open(trid, "ct.trid.active.running");
    expect_name(trid, b, "ct.trid.active.running", "a RUNNING stream");
    expect_recorded(trid, b, 1, "a RUNNING stream");
    trace_event_id_t c = trid_open(trid, "ct.trid.active.suspended");
    expect_name(trid, c, "ct.trid.active.suspended", "a stream suspended by stop");
    CT_SETUP_OK(posix_trace_start(trid));
    expect_recorded(trid, c, 2, "a stream suspended by stop, then started");
#if CT_HAVE_TRL
    /* A stream with log. */
    if (ct_option("TRL")) {
        const char *dir = getenv("TMPDIR");
        char path[512];
        trace_id_t w;
        snprintf(path, sizeof path, "%s/ct-trid-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(path);
        if (fd < 0)
            CT_UNRESOLVED("mkstemp(%s): %s", path, ct_errname(errno));
        unlink(path);
        CT_SETUP_OK(posix_trace_create_withlog(0, NULL, fd, &w));
        trace_event_id_t d = trid_open(w, "ct.trid.active.log");
        expect_name(w, d, "ct.trid.active.log", "a stream with log");
        CT_SETUP_OK(posix_trace_start(w));
        trace_event_id_t e = trid_open(w, "ct.trid.active.log.running");
        expect_name(w, e, "ct.trid.active.log.running", "a RUNNING stream with log");
        CT_SETUP_OK(posix_trace_shutdown(w));
        close(fd);
    }
#endif
#else
    NO_TEF();
#endif
}

CT_TEST(name_max, "trid_eventid_open.name-max", "TRC,TEF",
        "posix_trace_trid_eventid_open,posix_trace_eventid_get_name")
{
#if CT_HAVE_TEF
    require_tef();
    ct_check_name_max_opens(posix_trace_trid_eventid_open, "trid_eventid_open", 'T');
#else
    NO_TEF();
#endif
}

CT_TEST(unique, "trid_eventid_open.unique", "TRC,TEF",
        "posix_trace_trid_eventid_open,posix_trace_eventid_equal")
{
#if CT_HAVE_TEF
    require_tef();
    enum { N = 8 };
    trace_event_id_t ids[2 * N];
    char name[48];
    struct ct_universe sys;
    ct_universe(&sys, "", 0);           /* the system events and the unnamed user event */
    trace_id_t trid = ct_new_stream(NULL, 0);
    /* Names opened through the stream, and others opened by the process. */
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "ct.trid.unique.%d", i);
        ids[i] = trid_open(trid, name);
        snprintf(name, sizeof name, "ct.trid.unique.process.%d", i);
        ids[N + i] = ct_open_id(name);
    }
    for (int i = 0; i < N; i++) {
        for (int j = i + 1; j < 2 * N; j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]),
                     "trid_eventid_open of ct.trid.unique.%d gave %s, equal to the id of %s"
                     " %d", i, CT_HEX(ids[i]), j < N ? "ct.trid.unique." :
                     "ct.trid.unique.process.", j < N ? j : j - N);
        for (int k = 0; k < sys.n; k++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], sys.id[k]),
                     "trid_eventid_open of ct.trid.unique.%d gave %s, equal to %s", i,
                     CT_HEX(ids[i]), sys.name[k]);
    }
#else
    NO_TEF();
#endif
}

CT_TEST(same_name_same_id, "trid_eventid_open.same-name-same-id", "TRC,TEF",
        "posix_trace_trid_eventid_open,posix_trace_eventid_open,posix_trace_eventid_equal")
{
#if CT_HAVE_TEF
    require_tef();
    trace_event_id_t early = ct_open_id("ct.trid.same.process-first");
    trace_id_t trid = ct_new_stream(NULL, 1);
    trace_event_id_t other = trid_open(trid, "ct.trid.same.other");

    /* Opened by the process first, then through the stream. */
    trace_event_id_t t1 = trid_open(trid, "ct.trid.same.process-first");
    CT_CHECK(posix_trace_eventid_equal(trid, early, t1), "the name opened with eventid_open"
             " (%s) gets %s from trid_eventid_open: expected the identifier already assigned",
             CT_HEX(early), CT_HEX(t1));
    /* Through the stream first, then again, then by the process. */
    trace_event_id_t s1 = trid_open(trid, "ct.trid.same.stream-first");
    trace_event_id_t s2 = trid_open(trid, "ct.trid.same.stream-first");
    CT_CHECK(posix_trace_eventid_equal(trid, s1, s2), "trid_eventid_open of one name twice gave"
             " %s, then %s", CT_HEX(s1), CT_HEX(s2));
    trace_event_id_t p1 = ct_open_id("ct.trid.same.stream-first");
    CT_CHECK(posix_trace_eventid_equal(trid, s1, p1), "the name opened with trid_eventid_open"
             " (%s) gets %s from eventid_open in the traced process: expected the same"
             " identifier", CT_HEX(s1), CT_HEX(p1));
    CT_CHECK(!posix_trace_eventid_equal(trid, s1, other) && !posix_trace_eventid_equal(trid, t1, other),
             "a name opened again got the identifier of another name (%s)", CT_HEX(other));
    /* The events say the same: one type. */
    struct ct_rec v[8];
    ct_record_seq(s1, 1);
    ct_record_seq(p1, 2);
    CT_SETUP_OK(posix_trace_stop(trid));
    size_t n = ct_drain_sev(trid, v, 8);
    CT_CHECK(ct_count_seq(trid, v, n, s2, 1) == 1 && ct_count_seq(trid, v, n, s2, 2) == 1,
             "the events recorded with the identifiers of trid_eventid_open and eventid_open for"
             " one name do not both come out with that one identifier");
#else
    NO_TEF();
#endif
}

CT_TEST(limit_unnamed, "trid_eventid_open.limit-unnamed", "TRC,TEF",
        "posix_trace_trid_eventid_open,posix_trace_eventid_equal")
{
#if CT_HAVE_TEF
    require_tef();
    ct_check_user_event_limit(ct_new_stream(NULL, 0), posix_trace_trid_eventid_open,
                              "trid_eventid_open", "ct.trid.limit");
#else
    NO_TEF();
#endif
}

CT_TEST(einval, "trid_eventid_open.EINVAL", "TRC,TEF", "posix_trace_trid_eventid_open")
{
#if CT_HAVE_TEF
    require_tef();
    trace_event_id_t id;
    trace_id_t dead = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_trid_eventid_open(dead, "ct.trid.einval", &id), EINVAL);
    /* A name the process mapped already: still EINVAL, the trid decides. */
    ct_open_id("ct.trid.einval.known");
    CT_CHECK_ERR(posix_trace_trid_eventid_open(dead, "ct.trid.einval.known", &id), EINVAL);
#else
    NO_TEF();
#endif
}

CT_TEST(enametoolong, "trid_eventid_open.ENAMETOOLONG", "TRC,TEF",
        "posix_trace_trid_eventid_open,posix_trace_eventtypelist_getnext_id")
{
#if CT_HAVE_TEF
    require_tef();
    size_t max = ct_event_name_max();
    trace_event_id_t id;
    trace_id_t trid = ct_new_stream(NULL, 0);
    size_t before = ct_typelist_count(trid);
    char *name = ct_long_name(max + 1, 'L');
    CT_CHECK_ERR(posix_trace_trid_eventid_open(trid, name, &id), ENAMETOOLONG);
    free(name);
    name = ct_long_name(max + 100, 'L');
    CT_CHECK_ERR(posix_trace_trid_eventid_open(trid, name, &id), ENAMETOOLONG);
    free(name);
    /* A call that fails maps nothing. */
    size_t after = ct_typelist_count(trid);
    CT_CHECK(after == before, "the stream's event type list held %zu identifiers before two"
             " trid_eventid_open calls that failed with ENAMETOOLONG, and %zu after: a failed"
             " call mapped a name", before, after);
#else
    NO_TEF();
#endif
}
