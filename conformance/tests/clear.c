/* SPDX-License-Identifier: MIT */
/*
 * clear.c -- posix_trace_clear() (XSH posix_trace_clear; XBD 4.19): the stream
 * is reinitialised as if just created, keeping its resources, its event name
 * mapping and its running or suspended state.
 *
 * Portable: the stream's capacity is not assumed; a stream is filled by
 * recording until posix_trace_get_status() reports it FULL (a small
 * stream-min-size is asked for, if the setter accepts it).  Events recorded
 * before the clear are told from those after it by their event type
 * (posix_trace_eventid_equal()), and only START, STOP and the test's own
 * events are looked for: an implementation may record other system events.
 *
 * Not tested here, and why:
 *   clear.filter  not testable (ruling 19).
 *   the TRL half of the page (the log): TRL files.
 */
#include <stdlib.h>
#include "ct.h"
#include "ct_stream.h"

/* ---- as if created ----------------------------------------------------------------- */

CT_TEST(as_if_created, "clear.as-if-created", "TRC",
        "posix_trace_clear,posix_trace_get_status,posix_trace_trygetnext_event")
{
    /* A LOOP stream filled and overrun: full, overrun, events in it. */
    trace_id_t trid = ct_small_stream(POSIX_TRACE_LOOP);
    trace_event_id_t pre = ct_open_id("ct-pre");
    char data[16] = "overrun";
    struct ct_ev v[64];
    CT_SETUP_OK(posix_trace_start(trid));
    long n = ct_fill(trid, pre);
    for (int i = 0; i < 16; i++)          /* overwrite: OVERRUN, unread */
        posix_trace_event(pre, data, sizeof data);
    CT_CHECK_OK(posix_trace_clear(trid));
    struct posix_trace_status_info st = ct_status(trid);
    CT_CHECK(st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "after clear, posix_stream_full_status is %d, expected POSIX_TRACE_NOT_FULL (%d)",
             st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "after clear of an overrun LOOP stream, posix_stream_overrun_status is %d,"
             " expected POSIX_TRACE_NO_OVERRUN (%d), as for a new stream",
             st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    size_t got = ct_drain(trid, v, 64);
    size_t m = got < 64 ? got : 64;
    CT_CHECK(ct_count(trid, v, m, pre) == 0 && ct_count(trid, v, m, POSIX_TRACE_START) == 0,
             "after clear, %zu events recorded before it (%zu of the test's, %zu START) were"
             " still reported (%ld recorded before the clear)",
             ct_count(trid, v, m, pre) + ct_count(trid, v, m, POSIX_TRACE_START),
             ct_count(trid, v, m, pre), ct_count(trid, v, m, POSIX_TRACE_START), n + 16);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(events_lost, "clear.events-lost", "TRC",
        "posix_trace_clear,posix_trace_trygetnext_event")
{
    trace_id_t trid;
    trace_event_id_t pre = ct_open_id("ct-pre"), post = ct_open_id("ct-post");
    struct ct_ev v[64];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(pre, "1", 1);
    posix_trace_event(pre, "2", 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(pre, "3", 1);
    CT_CHECK_OK(posix_trace_clear(trid));
    posix_trace_event(post, "4", 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    size_t n = ct_drain(trid, v, 64), m = n < 64 ? n : 64;
    for (size_t i = 0; i < m; i++) {
        int old = ct_is_event(trid, &v[i], pre) || ct_is_event(trid, &v[i], POSIX_TRACE_START);
        CT_CHECK(!old, "event %zu of %zu read after clear is %s, recorded before the clear",
                 i + 1, n, ct_is_event(trid, &v[i], pre) ? "a test event" : "START");
        if (ct_is_event(trid, &v[i], post))
            break;          /* the first event of the test recorded after the clear */
        CT_CHECK(!ct_is_event(trid, &v[i], POSIX_TRACE_STOP), "a STOP is reported before the"
                 " first event recorded after the clear: it was recorded before it");
    }
    CT_CHECK(ct_count(trid, v, m, post) == 1, "the event recorded after clear was read %zu"
             " times, expected once", ct_count(trid, v, m, post));
    CT_CHECK(ct_count(trid, v, m, POSIX_TRACE_STOP) == 1, "%zu STOP events read, expected only"
             " the one after the clear", ct_count(trid, v, m, POSIX_TRACE_STOP));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- what clear keeps ---------------------------------------------------------------- */

CT_TEST(keeps_mapping, "clear.keeps-mapping", "TRC",
        "posix_trace_clear,posix_trace_eventid_open,posix_trace_eventid_get_name,"
        "posix_trace_eventtypelist_getnext_id,posix_trace_eventid_equal")
{
    static const char *const names[3] = { "ct-map-one", "ct-map-two", "ct-map-three" };
    trace_event_id_t ids[3];
    trace_id_t trid;
    char got[CT_EVENT_NAME_BUF];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    ids[0] = ct_open_id(names[0]);
    CT_SETUP_OK(posix_trace_start(trid));
    ids[1] = ct_open_id(names[1]);
    posix_trace_event(ids[1], "x", 1);
    ids[2] = ct_open_id(names[2]);
    CT_CHECK_OK(posix_trace_clear(trid));
    for (int i = 0; i < 3; i++) {
        trace_event_id_t again;
        memset(got, 'x', sizeof got);
        CT_CHECK_OK(posix_trace_eventid_get_name(trid, ids[i], got));
        CT_CHECK(memchr(got, '\0', sizeof got) != NULL && strcmp(got, names[i]) == 0,
                 "after clear, eventid_get_name of the id of \"%s\" gives \"%.60s\"",
                 names[i], memchr(got, '\0', sizeof got) ? got : "(not terminated)");
        CT_CHECK_OK(posix_trace_eventid_open(names[i], &again));
        CT_CHECK(posix_trace_eventid_equal(trid, again, ids[i]),
                 "after clear, eventid_open(\"%s\") gives %s, before it gave %s: the mapping"
                 " changed", names[i], CT_HEX(again), CT_HEX(ids[i]));
    }
    /* The stream's list of event types still holds them. */
    int found[3] = { 0, 0, 0 };
    CT_CHECK_OK(posix_trace_eventtypelist_rewind(trid));
    for (int k = 0; k < 100000; k++) {
        trace_event_id_t id;
        int unavailable = 1;
        CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
        if (unavailable)
            break;
        for (int i = 0; i < 3; i++)
            if (posix_trace_eventid_equal(trid, id, ids[i]))
                found[i]++;
    }
    for (int i = 0; i < 3; i++)
        CT_CHECK(found[i] == 1, "after clear, the event type list holds the id of \"%s\" %d"
                 " times, expected once", names[i], found[i]);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(keeps_running, "clear.keeps-run-state", "TRC",
        "posix_trace_clear,posix_trace_get_status,posix_trace_start")
{
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-after");
    struct ct_ev v[64];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "a", 1);
    CT_CHECK_OK(posix_trace_clear(trid));
    int s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_RUNNING, "clear of a RUNNING stream left posix_stream_status"
             " %d, expected POSIX_TRACE_RUNNING (%d)", s, POSIX_TRACE_RUNNING);
    posix_trace_event(id, "b", 1);
    size_t n = ct_drain(trid, v, 64), m = n < 64 ? n : 64, after = 0;
    for (size_t i = 0; i < m; i++)
        if (ct_is_event(trid, &v[i], id) && v[i].len == 1 && v[i].data[0] == 'b')
            after++;
    CT_CHECK(after == 1, "an event recorded after clear of a running stream was reported"
             " %zu times, expected once: the stream must still record", after);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(keeps_suspended, "clear.keeps-run-state", "TRC",
        "posix_trace_clear,posix_trace_get_status,posix_trace_start,posix_trace_stop")
{
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-after");
    struct ct_ev v[64];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    /* Never started. */
    CT_CHECK_OK(posix_trace_clear(trid));
    int s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_SUSPENDED, "clear of a new (suspended) stream left"
             " posix_stream_status %d, expected POSIX_TRACE_SUSPENDED (%d)", s,
             POSIX_TRACE_SUSPENDED);
    /* Started, then stopped. */
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "a", 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_clear(trid));
    s = ct_status(trid).posix_stream_status;
    CT_CHECK(s == POSIX_TRACE_SUSPENDED, "clear of a stopped stream left posix_stream_status"
             " %d, expected POSIX_TRACE_SUSPENDED (%d)", s, POSIX_TRACE_SUSPENDED);
    posix_trace_event(id, "b", 1);
    size_t n = ct_drain(trid, v, 64), m = n < 64 ? n : 64;
    for (size_t i = 0; i < m; i++)
        CT_CHECK(!(ct_is_event(trid, &v[i], id) && v[i].len == 1 && v[i].data[0] == 'b'),
                 "an event recorded after clear of a suspended stream was reported: the"
                 " stream must stay suspended");
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- full status ----------------------------------------------------------------------- */

static void not_full_after_clear(int policy)
{
    CT_RULE("clear.not-full");      /* filling it and clearing it serve this rule */
    trace_id_t trid = ct_small_stream(policy);
    trace_event_id_t id = ct_open_id("ct-fill");
    CT_SETUP_OK(posix_trace_start(trid));
    long n = ct_fill(trid, id);
    struct posix_trace_status_info st = ct_status(trid);
    int before = st.posix_stream_status;
    CT_CHECK_OK(posix_trace_clear(trid));
    st = ct_status(trid);
    CT_RULE("clear.not-full");
    CT_CHECK(st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "%s stream made FULL by %ld events: after clear posix_stream_full_status is %d,"
             " expected POSIX_TRACE_NOT_FULL (%d)",
             policy == POSIX_TRACE_LOOP ? "LOOP" : "UNTIL_FULL", n,
             st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    CT_RULE("clear.keeps-run-state");
    CT_CHECK(st.posix_stream_status == before, "%s stream: clear changed posix_stream_status"
             " from %d to %d", policy == POSIX_TRACE_LOOP ? "LOOP" : "UNTIL_FULL", before,
             st.posix_stream_status);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(not_full_loop, "clear.not-full,clear.keeps-run-state", "TRC",
        "posix_trace_clear,posix_trace_get_status")
{
    not_full_after_clear(POSIX_TRACE_LOOP);
}

CT_TEST(not_full_until_full, "clear.not-full,clear.keeps-run-state", "TRC",
        "posix_trace_clear,posix_trace_get_status")
{
    not_full_after_clear(POSIX_TRACE_UNTIL_FULL);
}

/* ---- return convention, EINVAL ----------------------------------------------------------- */

CT_TEST(return_convention, "clear.return-convention", "TRC", "posix_trace_clear")
{
    trace_id_t trid;
    int rc;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    errno = 0;
    rc = posix_trace_clear(trid);
    CT_CHECK(rc == 0, "clear returned %d (%s), errno %s: expected 0", rc, ct_errname(rc),
             ct_errname(errno));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    errno = 0;
    rc = posix_trace_clear(trid);
    CT_CHECK(rc == EINVAL, "clear of a shut-down trid returned %d (%s), errno %s: expected"
             " the error number EINVAL as return value", rc, ct_errname(rc),
             ct_errname(errno));
}

CT_TEST(einval, "clear.EINVAL", "TRC", "posix_trace_clear")
{
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-einval");
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "x", 1);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    CT_CHECK_ERR(posix_trace_clear(trid), EINVAL);
}
