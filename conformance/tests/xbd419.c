/* SPDX-License-Identifier: MIT */
/*
 * xbd419.c -- the general rules of XBD 4.19 Tracing (and the controller's
 * operations of XSH 2.11): names and identifiers map one to one, every event
 * is of a type the stream knows, user events carry their process's pid, and
 * one process can drive a stream of its own from start to shutdown.
 *
 * Portable: identifiers are compared with posix_trace_eventid_equal only;
 * the event type list is searched, never assumed in any order.
 *
 * Not tested here, and why:
 *   xbd419.pid for a traced child (TRI): with the fork tests.
 *   the mapping across processes (TRI): eventid_open.*-tri.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

#define MAXIDS 4096

CT_TEST(one_to_one, "xbd419.one-to-one", "TRC",
        "posix_trace_eventid_open,posix_trace_trid_eventid_open,posix_trace_eventid_equal,"
        "posix_trace_eventid_get_name")
{
    enum { N = 5 };
    trace_event_id_t ids[N], again;
    char names[N][32], back[CT_EVENT_NAME_BUF];
    trace_id_t trid = ct_new_stream(NULL, 0);
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "ct.xbd419.name%d", i);
        ids[i] = ct_open_id(names[i]);
    }
    for (int i = 0; i < N; i++) {
        for (int j = i + 1; j < N; j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]),
                     "\"%s\" and \"%s\" share the identifier %s", names[i], names[j],
                     CT_HEX(ids[i]));
        CT_SETUP_OK(posix_trace_eventid_open(names[i], &again));
        CT_CHECK(posix_trace_eventid_equal(trid, ids[i], again),
                 "\"%s\" has two identifiers, %s and %s", names[i], CT_HEX(ids[i]),
                 CT_HEX(again));
        CT_CHECK_OK(posix_trace_eventid_get_name(trid, ids[i], back));
        CT_CHECK(strcmp(back, names[i]) == 0,
                 "the identifier of \"%s\" is named \"%.60s\" by the stream", names[i], back);
    }
#if CT_HAVE_TEF
    if (ct_option("TEF")) {
        trace_event_id_t t, p;
        for (int i = 0; i < N; i++) {
            CT_CHECK_OK(posix_trace_trid_eventid_open(trid, names[i], &t));
            CT_CHECK(posix_trace_eventid_equal(trid, ids[i], t),
                     "trid_eventid_open(\"%s\") gave %s, eventid_open gave %s", names[i],
                     CT_HEX(t), CT_HEX(ids[i]));
        }
        CT_CHECK_OK(posix_trace_trid_eventid_open(trid, "ct.xbd419.controller", &t));
        for (int i = 0; i < N; i++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], t),
                     "\"ct.xbd419.controller\" (trid_eventid_open) and \"%s\" share the"
                     " identifier %s", names[i], CT_HEX(t));
        CT_CHECK_OK(posix_trace_eventid_open("ct.xbd419.controller", &p));
        CT_CHECK(posix_trace_eventid_equal(trid, p, t),
                 "\"ct.xbd419.controller\" got %s from trid_eventid_open and %s from"
                 " eventid_open", CT_HEX(t), CT_HEX(p));
    }
#endif
}

CT_TEST(event_has_type, "xbd419.event-has-type", "TRC",
        "posix_trace_getnext_event,posix_trace_eventtypelist_getnext_id,"
        "posix_trace_eventid_get_name")
{
    static trace_event_id_t list[MAXIDS];
    trace_event_id_t a = ct_open_id("ct.xbd419.a"), b = ct_open_id("ct.xbd419.b");
    trace_attr_t attr;
    trace_id_t trid;
    size_t ev = 0;
    struct ct_rec r;
    char name[CT_EVENT_NAME_BUF];

    /* A small LOOP stream, overflowed: START, user events of two names and
     * the unnamed one, OVERFLOW, RESUME, STOP, START again. */
    CT_SETUP_OK(posix_trace_attr_init(&attr));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&attr, POSIX_TRACE_LOOP));
    if (posix_trace_attr_getmaxusereventsize(&attr, sizeof(int), &ev) == 0)
        posix_trace_attr_setstreamsize(&attr, 32 * (ev ? ev : 64));
    CT_SETUP_OK(posix_trace_create(0, &attr, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < 5000; i++)
        posix_trace_event(i % 2 ? a : b, &i, sizeof i);
    posix_trace_event(CT_UNNAMED, "", 0);
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(a, "", 0);
    CT_SETUP_OK(posix_trace_stop(trid));

    int n = 0, unavailable = 0;
    while (n < MAXIDS) {
        CT_SETUP_OK(posix_trace_eventtypelist_getnext_id(trid, &list[n], &unavailable));
        if (unavailable)
            break;
        n++;
    }
    int read = 0;
    while (ct_next_event(trid, &r)) {
        int listed = 0;
        for (int i = 0; i < n && !listed; i++)
            listed = posix_trace_eventid_equal(trid, list[i], r.info.posix_event_id);
        CT_CHECK(listed, "event %d read has identifier %s, which is not in the stream's event"
                 " type list (%d identifiers)", read + 1, CT_HEX(r.info.posix_event_id), n);
        int rc = posix_trace_eventid_get_name(trid, r.info.posix_event_id, name);
        CT_CHECK(rc == 0, "event %d read has identifier %s, to which eventid_get_name gives"
                 " no name (%s)", read + 1, CT_HEX(r.info.posix_event_id), ct_errname(rc));
        read++;
    }
    if (read < 5)
        CT_UNRESOLVED("only %d events were read back", read);
}

static void *record_in_thread(void *id)
{
    int v = 2;
    posix_trace_event(*(trace_event_id_t *)id, &v, sizeof v);
    return NULL;
}

CT_TEST(pid, "xbd419.pid", "TRC", "posix_trace_event,posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.xbd419.pid");
    trace_id_t trid = ct_new_stream(NULL, 1);
    pthread_t th;
    struct ct_rec r;
    int v = 1, users = 0;
    posix_trace_event(id, &v, sizeof v);
    CT_SETUP_OK(pthread_create(&th, NULL, record_in_thread, &id));
    CT_SETUP_OK(pthread_join(th, NULL));
    CT_SETUP_OK(posix_trace_stop(trid));
    while (ct_next_event(trid, &r)) {
        if (!posix_trace_eventid_equal(trid, r.info.posix_event_id, id))
            continue;
        users++;
        CT_CHECK(r.info.posix_pid == getpid(),
                 "a user event recorded by the %s thread carries posix_pid %ld, expected the"
                 " pid of the recording process, %ld", users == 1 ? "main" : "second",
                 (long)r.info.posix_pid, (long)getpid());
    }
    if (users != 2)
        CT_UNRESOLVED("%d of the 2 user events were read back", users);
}

CT_TEST(controller_operations, "xsh211.controller-operations", "TRC",
        "posix_trace_attr_init,posix_trace_create,posix_trace_start,posix_trace_stop,"
        "posix_trace_set_filter,posix_trace_shutdown")
{
    trace_attr_t attr;
    trace_id_t trid;
    CT_CHECK_OK(posix_trace_attr_init(&attr));
    CT_CHECK_OK(posix_trace_create(0, &attr, &trid));
    CT_CHECK_OK(posix_trace_start(trid));
#if CT_HAVE_TEF
    if (ct_option("TEF")) {
        trace_event_set_t set;
        CT_SETUP_OK(posix_trace_eventset_empty(&set));
        CT_SETUP_OK(posix_trace_eventset_add(ct_open_id("ct.xbd419.filtered"), &set));
        CT_CHECK_OK(posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET));
    }
#endif
    CT_CHECK_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_start(trid));
    CT_CHECK_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_shutdown(trid));
    CT_CHECK_OK(posix_trace_attr_destroy(&attr));
}
