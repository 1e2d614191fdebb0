/* SPDX-License-Identifier: MIT */
/*
 * system_events.c -- the system trace events and the predefined user event
 * (XSH 2.11.2): their constants and names, the data START and STOP carry,
 * and the members posix_pid, posix_thread_id and posix_prog_address of
 * system and user events (XSH 2.11.1.1).
 *
 * Portable: which system events are "not associated with any process" is
 * implementation-defined; with TEF the tests ask the implementation
 * (posix_trace_eventset_fill(..., POSIX_TRACE_WOPID_EVENTS), ruling 15) and
 * without TEF they cannot ask, so those two rules end UNSUPPORTED.  Program
 * addresses are compared with one another only, never with a function's
 * address (an implementation may give the call's address or its return
 * address).
 *
 * Not tested here, and why:
 *   xsh211.error-event     not testable (catalogue).
 *   xsh211.stop-data-auto, xsh211.overflow-resume-no-data  stream_policy.c,
 *                          which makes streams fill and overflow.
 *   xsh211.sysevents-tef, xsh211.start-data-tef  TEF: filter.c;
 *   xsh211.sysevents-trl, -tef-trl  TRL: log_misc.c.
 */
#include <stdio.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

/* The TRC system events (XSH 2.11.2, Trace Option: System Trace Events). */
static const char *const trc_names[5] = {
    "posix_trace_start", "posix_trace_stop", "posix_trace_overflow", "posix_trace_resume",
    "posix_trace_error"
};
static const char *const trc_constants[5] = {
    "POSIX_TRACE_START", "POSIX_TRACE_STOP", "POSIX_TRACE_OVERFLOW", "POSIX_TRACE_RESUME",
    "POSIX_TRACE_ERROR"
};
/* Their identifiers, in that order.  POSIX_TRACE_ERROR comes last, and is left
 * out where <trace.h> lacks it: that is trace_h.const.POSIX_TRACE_ERROR's
 * FAIL, not these rules'. */
#define TRC_IDS POSIX_TRACE_START, POSIX_TRACE_STOP, POSIX_TRACE_OVERFLOW, POSIX_TRACE_RESUME
#if CT_HAVE_POSIX_TRACE_ERROR
#define TRC_ERROR_ID , POSIX_TRACE_ERROR
#else
#define TRC_ERROR_ID
#endif
static const int n_trc = CT_HAVE_POSIX_TRACE_ERROR ? 5 : 4;

CT_TEST(sysevent_id_type, "xsh211.sysevent-id-type", "TRC", "posix_trace_eventid_equal")
{
    /* Each constant initialises a trace_event_id_t without a cast. */
    trace_event_id_t ids[8] = { TRC_IDS TRC_ERROR_ID };
    const char *names[8];
    int n = n_trc;
    memcpy(names, trc_constants, sizeof trc_constants);
    if (n < 5)
        ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
#if CT_HAVE_TEF
    if (ct_option("TEF")) {
        trace_event_id_t filter = POSIX_TRACE_FILTER;
        ids[n] = filter;
        names[n++] = "POSIX_TRACE_FILTER";
    }
#endif
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        trace_event_id_t fs = POSIX_TRACE_FLUSH_START, fe = POSIX_TRACE_FLUSH_STOP;
        ids[n] = fs;
        names[n++] = "POSIX_TRACE_FLUSH_START";
        ids[n] = fe;
        names[n++] = "POSIX_TRACE_FLUSH_STOP";
    }
#endif
    trace_id_t trid = ct_new_stream(NULL, 0);
    for (int i = 0; i < n; i++) {
        CT_CHECK(posix_trace_eventid_equal(trid, ids[i], ids[i]) != 0,
                 "eventid_equal(%s, %s) returned 0", names[i], names[i]);
        for (int j = i + 1; j < n; j++)
            CT_CHECK(posix_trace_eventid_equal(trid, ids[i], ids[j]) == 0,
                     "eventid_equal(%s, %s) returned non-zero: two system events share an"
                     " identifier (%s)", names[i], names[j], CT_HEX(ids[i]));
    }
}

CT_TEST(sysevents_trc, "xsh211.sysevents-trc", "TRC", "posix_trace_eventid_get_name")
{
    trace_event_id_t ids[5] = { TRC_IDS TRC_ERROR_ID };
    char name[CT_EVENT_NAME_BUF];
    trace_id_t trid = ct_new_stream(NULL, 0);
    if (n_trc < 5)
        ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
    for (int i = 0; i < n_trc; i++) {
        memset(name, 'x', sizeof name);
        int rc = posix_trace_eventid_get_name(trid, ids[i], name);
        CT_CHECK(rc == 0, "eventid_get_name(%s) returned %s, expected 0 and \"%s\"",
                 trc_constants[i], ct_errname(rc), trc_names[i]);
        CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, trc_names[i]) == 0,
                 "eventid_get_name(%s) gives \"%.60s\", expected \"%s\"", trc_constants[i],
                 name, trc_names[i]);
    }
}

CT_TEST(unnamed_userevent, "xsh211.unnamed-userevent", "TRC", "posix_trace_eventid_get_name")
{
    char name[CT_EVENT_NAME_BUF];
    trace_event_id_t unnamed = CT_UNNAMED;
    trace_id_t trid = ct_new_stream(NULL, 0);
#if defined(POSIX_TRACE_UNNAMED_USEREVENT) && defined(POSIX_TRACE_UNNAMED_USER_EVENT)
    trace_event_id_t a = POSIX_TRACE_UNNAMED_USEREVENT, b = POSIX_TRACE_UNNAMED_USER_EVENT;
    CT_CHECK(posix_trace_eventid_equal(trid, a, b) != 0,
             "POSIX_TRACE_UNNAMED_USEREVENT (%s) and POSIX_TRACE_UNNAMED_USER_EVENT (%s) are"
             " both defined but not equal (ruling 1: one event, two spellings)", CT_HEX(a),
             CT_HEX(b));
#endif
    memset(name, 'x', sizeof name);
    int rc = posix_trace_eventid_get_name(trid, unnamed, name);
    CT_CHECK(rc == 0, "eventid_get_name(POSIX_TRACE_UNNAMED_USEREVENT) returned %s",
             ct_errname(rc));
    CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, "posix_trace_unnamed_userevent") == 0,
             "eventid_get_name(POSIX_TRACE_UNNAMED_USEREVENT) gives \"%.60s\", expected"
             " \"posix_trace_unnamed_userevent\"", name);
}

CT_TEST(start_data, "xsh211.start-data", "TRC", "posix_trace_start,posix_trace_getnext_event")
{
    if (ct_option("TEF"))
        CT_UNSUPPORTED("TEF is supported: START carries the filter (xsh211.start-data-tef)");
    struct ct_rec r;
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_SETUP_OK(posix_trace_start(trid));
    if (!ct_next_of(trid, POSIX_TRACE_START, &r))
        CT_UNRESOLVED("no START event was read after posix_trace_start");
    CT_CHECK(r.len == 0, "without TEF, the START event carries %zu bytes of data, expected"
             " none", r.len);
}

CT_TEST(stop_data_explicit, "xsh211.stop-data-explicit", "TRC",
        "posix_trace_stop,posix_trace_getnext_event")
{
    struct ct_rec r;
    int value = -1;
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_stop(trid));
    if (!ct_next_of(trid, POSIX_TRACE_STOP, &r))
        CT_UNRESOLVED("no STOP event was read after posix_trace_stop");
    CT_CHECK(r.len == sizeof value, "the STOP event of posix_trace_stop carries %zu bytes of"
             " data, expected an int (%zu bytes)", r.len, sizeof value);
    memcpy(&value, r.data, sizeof value);
    CT_CHECK(value == 0, "the STOP event of a posix_trace_stop call carries %d, expected 0",
             value);
}

CT_TEST(sysevent_prog_address, "xsh211.sysevent-prog-address", "TRC",
        "posix_trace_start,posix_trace_stop,posix_trace_getnext_event")
{
    struct ct_rec start, stop;
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_stop(trid));
    if (!ct_next_of(trid, POSIX_TRACE_START, &start) || !ct_next_of(trid, POSIX_TRACE_STOP, &stop))
        CT_UNRESOLVED("START and STOP were not both read after posix_trace_start and"
                      " posix_trace_stop");
    CT_CHECK(start.info.posix_prog_address != NULL,
             "the START event caused by a posix_trace_start call has posix_prog_address NULL,"
             " expected the address of the call");
    CT_CHECK(stop.info.posix_prog_address != NULL,
             "the STOP event caused by a posix_trace_stop call has posix_prog_address NULL,"
             " expected the address of the call");
}

CT_TEST(user_prog_address, "xsh211.user-prog-address", "TRC",
        "posix_trace_event,posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.system.prog");
    struct ct_rec r;
    void *site[4];
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < 3; i++)
        posix_trace_event(id, &i, sizeof i);            /* call site A, three times */
    posix_trace_event(id, "b", 1);                      /* call site B */
    CT_SETUP_OK(posix_trace_stop(trid));
    for (int i = 0; i < 4; i++) {
        if (!ct_next_of(trid, id, &r))
            CT_UNRESOLVED("only %d of the 4 user events recorded were read back", i);
        site[i] = r.info.posix_prog_address;
        CT_CHECK(site[i] != NULL, "user event %d has posix_prog_address NULL", i + 1);
    }
    CT_CHECK(site[0] == site[1] && site[1] == site[2],
             "three events from one call site (in a loop) carry posix_prog_address %p, %p and"
             " %p, expected one address", site[0], site[1], site[2]);
    CT_CHECK(site[3] != site[0],
             "events from two different call sites both carry posix_prog_address %p", site[0]);
}

CT_TEST(sysevent_pid_zero, "xsh211.sysevent-pid-zero,xsh211.sysevent-thread-zero",
        "TRC,TEF", "posix_trace_getnext_event,posix_trace_eventset_fill")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("without TEF the implementation cannot say which system events are"
                       " process-independent (POSIX_TRACE_WOPID_EVENTS, ruling 15)");
    trace_event_set_t wopid;
    trace_event_id_t id = ct_open_id("ct.system.wopid");
    trace_attr_t attr;
    trace_id_t trid;
    struct ct_rec r;
    pthread_t zero;
    int checked = 0, n = 0;
    memset(&zero, 0, sizeof zero);
    CT_SETUP_OK(posix_trace_eventset_fill(&wopid, POSIX_TRACE_WOPID_EVENTS));

    /* A small UNTIL_FULL stream: START and STOP of calls, the automatic STOP
     * and START of the policy; then a small LOOP stream: OVERFLOW, RESUME. */
    for (int p = 0; p < 2; p++) {
        size_t ev = 0;
        CT_SETUP_OK(posix_trace_attr_init(&attr));
        CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&attr, p == 0 ? POSIX_TRACE_UNTIL_FULL
                                                                       : POSIX_TRACE_LOOP));
        if (posix_trace_attr_getmaxusereventsize(&attr, sizeof n, &ev) == 0)
            posix_trace_attr_setstreamsize(&attr, 32 * (ev ? ev : 64));
        CT_SETUP_OK(posix_trace_create(0, &attr, &trid));
        CT_SETUP_OK(posix_trace_start(trid));
        for (int i = 0; i < 20000; i++)
            posix_trace_event(id, &i, sizeof i);
        for (int pass = 0; pass < 2; pass++) {
            while (ct_next_event(trid, &r)) {
                int member = 0;
                n++;
                CT_SETUP_OK(posix_trace_eventset_ismember(r.info.posix_event_id, &wopid,
                                                          &member));
                if (!member)
                    continue;
                checked++;
                CT_RULE("xsh211.sysevent-pid-zero");
                CT_CHECK(r.info.posix_pid == 0,
                         "event %s, a member of POSIX_TRACE_WOPID_EVENTS, has posix_pid %ld,"
                         " expected 0", CT_HEX(r.info.posix_event_id), (long)r.info.posix_pid);
                CT_RULE("xsh211.sysevent-thread-zero");
                CT_CHECK(memcmp(&r.info.posix_thread_id, &zero, sizeof zero) == 0,
                         "event %s, a member of POSIX_TRACE_WOPID_EVENTS, has posix_thread_id"
                         " %s, expected 0", CT_HEX(r.info.posix_event_id),
                         CT_HEX(r.info.posix_thread_id));
                CT_RULE(NULL);
            }
            posix_trace_event(id, &n, sizeof n);        /* after the restart, if any */
            posix_trace_stop(trid);
        }
        CT_SETUP_OK(posix_trace_shutdown(trid));
        posix_trace_attr_destroy(&attr);
    }
    ct_note("%d events read, %d of them of a POSIX_TRACE_WOPID_EVENTS type", n, checked);
#else
    CT_UNSUPPORTED("built without TEF: the implementation cannot say which system events are"
                   " process-independent (POSIX_TRACE_WOPID_EVENTS, ruling 15)");
#endif
}
