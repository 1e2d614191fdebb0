/* SPDX-License-Identifier: MIT */
/*
 * start_stop.c -- posix_trace_start() and posix_trace_stop() (XSH
 * posix_trace_start): the START and STOP events, the status they set, and
 * what they do to a stream that already runs, is already suspended or is full.
 *
 * Portable: events are told apart with posix_trace_eventid_equal(); only
 * START, STOP and the test's own events are looked for (an implementation may
 * record other system events).  A stream is made full by recording until
 * posix_trace_get_status() says FULL.  The STOP event's data (int auto: 0 for
 * posix_trace_stop(), nonzero for an automatic stop, XSH 2.11.2.1) tells an
 * explicit STOP from the one UNTIL_FULL records; it is only reported here
 * (its own rules, xsh211.stop-data-*, are checked elsewhere).  For a full LOOP stream both
 * readings of ruling 13 are accepted.
 *
 * Not tested here, and why:
 *   start.EINTR, stop.EINTR  not testable (catalogue).
 *   EINVAL for a trid from posix_trace_open: TRL.
 */
#include <stdlib.h>
#include "ct.h"
#include "ct_stream.h"

/* The "auto" data of a STOP event: 0 explicit, 1 automatic, -1 unreadable. */
static int stop_auto(const struct ct_ev *e)
{
    int a;
    if (e->len < sizeof a)
        return -1;
    memcpy(&a, e->data, sizeof a);
    return a != 0;
}

/* Index of the last event of type id in v[0..n), or -1. */
static long last_of(trace_id_t trid, const struct ct_ev *v, size_t n, trace_event_id_t id)
{
    long last = -1;
    for (size_t i = 0; i < n; i++)
        if (ct_is_event(trid, &v[i], id))
            last = (long)i;
    return last;
}

#define MAXEV 4096

/* Reads a filled stream into v (MAXEV events).  How many events a stream holds
 * is the implementation's (stream-min-size is a minimum, S0054): one that
 * held more than v keeps cannot be judged, since the START or STOP looked
 * for is at its end. */
static size_t drain_filled(trace_id_t trid, struct ct_ev *v)
{
    size_t n = ct_drain(trid, v, MAXEV);
    if (n > MAXEV)
        CT_UNRESOLVED("the filled stream held %zu events, more than the %d this test keeps",
                      n, MAXEV);
    return n;
}

/* ---- start ------------------------------------------------------------------------- */

CT_TEST(start_event, "start.start-event", "TRC",
        "posix_trace_start,posix_trace_trygetnext_event")
{
    trace_id_t trid;
    struct ct_ev v[16];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_OK(posix_trace_start(trid));
    size_t n = ct_drain(trid, v, 16);
    CT_CHECK(n >= 1, "no event in the stream after posix_trace_start: expected START");
    CT_CHECK(ct_is_event(trid, &v[0], POSIX_TRACE_START), "the first event read after start is"
             " %s, not POSIX_TRACE_START (%zu events read)", CT_HEX(v[0].info.posix_event_id),
             n);
    CT_CHECK(ct_count(trid, v, n < 16 ? n : 16, POSIX_TRACE_START) == 1,
             "%zu START events after one start",
             ct_count(trid, v, n < 16 ? n : 16, POSIX_TRACE_START));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(start_event_restart, "start.start-event", "TRC",
        "posix_trace_start,posix_trace_stop,posix_trace_trygetnext_event")
{
    /* Started a second time after a stop: a second START, after the STOP. */
    trace_id_t trid;
    struct ct_ev v[16];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_start(trid));
    size_t n = ct_drain(trid, v, 16), m = n < 16 ? n : 16;
    CT_CHECK(ct_count(trid, v, m, POSIX_TRACE_START) == 2, "start, stop, start: %zu START events"
             " read, expected 2", ct_count(trid, v, m, POSIX_TRACE_START));
    CT_CHECK(last_of(trid, v, m, POSIX_TRACE_START) > last_of(trid, v, m, POSIX_TRACE_STOP),
             "the second START is not after the STOP");
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(status_running, "start.status-running", "TRC",
        "posix_trace_start,posix_trace_stop,posix_trace_get_status")
{
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_OK(posix_trace_start(trid));
    int s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_RUNNING, "after start, posix_stream_status is %d (%s), expected"
             " POSIX_TRACE_RUNNING (%d)", s, ct_state_name(s), POSIX_TRACE_RUNNING);
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_start(trid));
    s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_RUNNING, "after stop and start, posix_stream_status is %d (%s),"
             " expected POSIX_TRACE_RUNNING (%d)", s, ct_state_name(s), POSIX_TRACE_RUNNING);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(already_running, "start.already-running", "TRC",
        "posix_trace_start,posix_trace_get_status,posix_trace_trygetnext_event")
{
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-between");
    struct ct_ev v[16];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "1", 1);
    CT_CHECK_OK(posix_trace_start(trid));
    int s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_RUNNING, "start of a running stream left posix_stream_status %d"
             " (%s), expected POSIX_TRACE_RUNNING", s, ct_state_name(s));
    posix_trace_event(id, "2", 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    size_t n = ct_drain(trid, v, 16), m = n < 16 ? n : 16;
    CT_CHECK(ct_count(trid, v, m, POSIX_TRACE_START) == 1, "start of a running stream recorded"
             " a START: %zu START events read, expected 1",
             ct_count(trid, v, m, POSIX_TRACE_START));
    CT_CHECK(ct_count(trid, v, m, id) == 2, "the stream kept %zu of the 2 events recorded around"
             " the second start: it must continue to run", ct_count(trid, v, m, id));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(full_no_effect_start, "start.full-no-effect", "TRC",
        "posix_trace_start,posix_trace_get_status,posix_trace_trygetnext_event")
{
    trace_id_t trid = ct_small_stream(POSIX_TRACE_UNTIL_FULL);
    trace_event_id_t id = ct_open_id("ct-fill");
    static struct ct_ev v[MAXEV];
    CT_SETUP_OK(posix_trace_start(trid));
    long filled = ct_fill(trid, id);
    struct posix_trace_status_info st = ct_status(trid);
    if (st.posix_stream_status != POSIX_TRACE_SUSPENDED)
        CT_UNRESOLVED("an UNTIL_FULL stream reported FULL but %s: it did not stop itself",
                      ct_state_name(st.posix_stream_status));
    CT_CHECK_OK(posix_trace_start(trid));
    st = ct_status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
             st.posix_stream_full_status == POSIX_TRACE_FULL,
             "start of an UNTIL_FULL stream that stopped itself full changed its status to"
             " %s/%s, expected it unchanged (SUSPENDED, FULL)",
             ct_state_name(st.posix_stream_status),
             st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL");
    /* Reading: START, the events, the automatic STOP, and at most one START
     * after it (the stream restarts when emptied; no second START). */
    size_t n = drain_filled(trid, v), m = n;
    long stop = last_of(trid, v, m, POSIX_TRACE_STOP);
    CT_CHECK(stop >= 0, "no STOP read from an UNTIL_FULL stream that stopped itself");
    size_t before = ct_count(trid, v, (size_t)stop, POSIX_TRACE_START);
    size_t after = ct_count(trid, v + stop + 1, m - (size_t)stop - 1, POSIX_TRACE_START);
    CT_CHECK(before == 1 && after <= 1, "start on the full stream recorded a START: %zu START"
             " before the automatic STOP and %zu after it (expected 1 and at most the one of"
             " the restart); %ld events filled it", before, after, filled);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(full_loop_start, "start.full-loop", "TRC",
        "posix_trace_start,posix_trace_stop,posix_trace_get_status,"
        "posix_trace_trygetnext_event")
{
    trace_id_t trid = ct_small_stream(POSIX_TRACE_LOOP);
    trace_event_id_t id = ct_open_id("ct-fill");
    static struct ct_ev v[MAXEV];
    CT_SETUP_OK(posix_trace_start(trid));
    ct_fill(trid, id);
    CT_SETUP_OK(posix_trace_stop(trid));
    struct posix_trace_status_info st = ct_status(trid);
    if (st.posix_stream_status != POSIX_TRACE_SUSPENDED ||
        st.posix_stream_full_status != POSIX_TRACE_FULL)
        CT_UNSUPPORTED("stop of a full LOOP stream left it %s/%s: a SUSPENDED and FULL LOOP"
                       " stream cannot be made (ruling 13 reading B)",
                       ct_state_name(st.posix_stream_status),
                       st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL");
    CT_CHECK_OK(posix_trace_start(trid));
    st = ct_status(trid);
    size_t n = drain_filled(trid, v), m = n;
    long last = last_of(trid, v, m, id);
    long start = last_of(trid, v, m, POSIX_TRACE_START);
    int started = start > last;
    if (st.posix_stream_status == POSIX_TRACE_RUNNING)
        CT_CHECK(started, "start of a SUSPENDED and FULL LOOP stream made it RUNNING but no"
                 " START follows the last event recorded (ruling 13: either START and"
                 " RUNNING, or nothing)");
    else
        CT_CHECK(!started && st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
                 st.posix_stream_full_status == POSIX_TRACE_FULL,
                 "start of a SUSPENDED and FULL LOOP stream left it %s/%s and %s a START"
                 " (ruling 13: either START and RUNNING, or nothing changed)",
                 ct_state_name(st.posix_stream_status),
                 st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL",
                 started ? "recorded" : "did not record");
    ct_note("start of a SUSPENDED/FULL LOOP stream: %s", started ? "START recorded, RUNNING"
            : "no effect");
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- stop --------------------------------------------------------------------------- */

CT_TEST(stop_event, "stop.stop-event", "TRC", "posix_trace_stop,posix_trace_trygetnext_event")
{
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-before-stop");
    struct ct_ev v[16];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "a", 1);
    posix_trace_event(id, "b", 1);
    CT_CHECK_OK(posix_trace_stop(trid));
    size_t n = ct_drain(trid, v, 16), m = n < 16 ? n : 16;
    long stop = last_of(trid, v, m, POSIX_TRACE_STOP);
    CT_CHECK(ct_count(trid, v, m, POSIX_TRACE_STOP) == 1, "%zu STOP events read after one stop,"
             " expected 1", ct_count(trid, v, m, POSIX_TRACE_STOP));
    CT_CHECK(stop > last_of(trid, v, m, id), "STOP (event %ld) is not after the events"
             " recorded before the stop (last at %ld)", stop + 1, last_of(trid, v, m, id) + 1);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(status_suspended, "stop.status-suspended", "TRC",
        "posix_trace_stop,posix_trace_get_status")
{
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    CT_CHECK_OK(posix_trace_stop(trid));
    int s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_SUSPENDED, "after stop, posix_stream_status is %d (%s), expected"
             " POSIX_TRACE_SUSPENDED (%d)", s, ct_state_name(s), POSIX_TRACE_SUSPENDED);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(stop_stops_recording, "stop.status-suspended", "TRC",
        "posix_trace_stop,posix_trace_event,posix_trace_trygetnext_event")
{
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-after-stop");
    struct ct_ev v[16];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    CT_CHECK_OK(posix_trace_stop(trid));
    posix_trace_event(id, "x", 1);
    size_t n = ct_drain(trid, v, 16);
    CT_CHECK(ct_count(trid, v, n < 16 ? n : 16, id) == 0, "an event recorded after stop was"
             " reported: a SUSPENDED stream accepts no events");
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(already_suspended, "stop.already-suspended", "TRC",
        "posix_trace_stop,posix_trace_get_status,posix_trace_trygetnext_event")
{
    trace_id_t trid;
    struct ct_ev v[16];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_OK(posix_trace_stop(trid));              /* never started */
    int s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_SUSPENDED, "stop of a new stream left posix_stream_status %d"
             " (%s)", s, ct_state_name(s));
    size_t n = ct_drain(trid, v, 16);
    CT_CHECK(ct_count(trid, v, n < 16 ? n : 16, POSIX_TRACE_STOP) == 0,
             "stop of a never-started stream recorded a STOP");
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_stop(trid));              /* stopped already */
    s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_SUSPENDED, "a second stop left posix_stream_status %d (%s)", s,
             ct_state_name(s));
    n = ct_drain(trid, v, 16);
    CT_CHECK(ct_count(trid, v, n < 16 ? n : 16, POSIX_TRACE_STOP) == 1, "start, stop, stop:"
             " %zu STOP events read, expected 1",
             ct_count(trid, v, n < 16 ? n : 16, POSIX_TRACE_STOP));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(full_no_effect_stop, "stop.full-no-effect", "TRC",
        "posix_trace_stop,posix_trace_get_status,posix_trace_trygetnext_event")
{
    trace_id_t trid = ct_small_stream(POSIX_TRACE_UNTIL_FULL);
    trace_event_id_t id = ct_open_id("ct-fill");
    static struct ct_ev v[MAXEV];
    CT_SETUP_OK(posix_trace_start(trid));
    ct_fill(trid, id);
    struct posix_trace_status_info st = ct_status(trid);
    if (st.posix_stream_status != POSIX_TRACE_SUSPENDED)
        CT_UNRESOLVED("an UNTIL_FULL stream reported FULL but %s: it did not stop itself",
                      ct_state_name(st.posix_stream_status));
    CT_CHECK_OK(posix_trace_stop(trid));
    st = ct_status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
             st.posix_stream_full_status == POSIX_TRACE_FULL,
             "stop of an UNTIL_FULL stream that stopped itself full changed its status to"
             " %s/%s, expected it unchanged (SUSPENDED, FULL)",
             ct_state_name(st.posix_stream_status),
             st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL");
    size_t n = drain_filled(trid, v), m = n, explicit_stops = 0;
    for (size_t i = 0; i < m; i++)
        if (ct_is_event(trid, &v[i], POSIX_TRACE_STOP) && stop_auto(&v[i]) == 0)
            explicit_stops++;
    CT_CHECK(ct_count(trid, v, m, POSIX_TRACE_STOP) == 1,
             "stop of the full stream recorded a STOP: %zu STOP events read (%zu with auto 0),"
             " expected only the automatic one", ct_count(trid, v, m, POSIX_TRACE_STOP),
             explicit_stops);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(full_loop_stop, "stop.full-loop", "TRC",
        "posix_trace_stop,posix_trace_get_status,posix_trace_trygetnext_event")
{
    trace_id_t trid = ct_small_stream(POSIX_TRACE_LOOP);
    trace_event_id_t id = ct_open_id("ct-fill");
    static struct ct_ev v[MAXEV];
    CT_SETUP_OK(posix_trace_start(trid));
    ct_fill(trid, id);
    struct posix_trace_status_info st = ct_status(trid);
    if (st.posix_stream_status != POSIX_TRACE_RUNNING)
        CT_UNRESOLVED("a full LOOP stream is %s, not RUNNING",
                      ct_state_name(st.posix_stream_status));
    CT_CHECK_OK(posix_trace_stop(trid));
    st = ct_status(trid);
    size_t n = drain_filled(trid, v), m = n;
    long last = last_of(trid, v, m, id), stop = last_of(trid, v, m, POSIX_TRACE_STOP);
    int stopped = stop > last;
    if (st.posix_stream_status == POSIX_TRACE_RUNNING)
        CT_CHECK(!stopped, "stop of a RUNNING and FULL LOOP stream recorded a STOP but the"
                 " stream still RUNS (ruling 13: either it is suspended, or nothing changes)");
    else
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED, "after stop of a full LOOP"
                 " stream, posix_stream_status is %d", st.posix_stream_status);
    ct_note("stop of a RUNNING/FULL LOOP stream: %s, STOP %s",
            ct_state_name(st.posix_stream_status), stopped ? "recorded" : "not recorded");
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- return convention, EINVAL ----------------------------------------------------------- */

CT_TEST(return_convention, "start.return-convention", "TRC", "posix_trace_start,posix_trace_stop")
{
    trace_id_t trid;
    int rc;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    errno = 0;
    rc = posix_trace_start(trid);
    CT_CHECK(rc == 0, "start returned %d (%s), errno %s: expected 0", rc, ct_errname(rc),
             ct_errname(errno));
    errno = 0;
    rc = posix_trace_stop(trid);
    CT_CHECK(rc == 0, "stop returned %d (%s), errno %s: expected 0", rc, ct_errname(rc),
             ct_errname(errno));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    errno = 0;
    rc = posix_trace_start(trid);
    CT_CHECK(rc == EINVAL, "start of a shut-down trid returned %d (%s), errno %s: expected the"
             " error number EINVAL as return value", rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_stop(trid);
    CT_CHECK(rc == EINVAL, "stop of a shut-down trid returned %d (%s), errno %s: expected the"
             " error number EINVAL as return value", rc, ct_errname(rc), ct_errname(errno));
}

CT_TEST(start_einval, "start.EINVAL", "TRC", "posix_trace_start")
{
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    CT_CHECK_ERR(posix_trace_start(trid), EINVAL);
}

CT_TEST(stop_einval, "stop.EINVAL", "TRC", "posix_trace_stop")
{
    /* Shut down while running: stop must not find a stream to stop. */
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    CT_CHECK_ERR(posix_trace_stop(trid), EINVAL);
}
