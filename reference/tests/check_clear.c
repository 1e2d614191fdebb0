/* SPDX-License-Identifier: MIT */
/*
 * check_clear.c -- posix_trace_clear (DESIGN: clear drops every event,
 * resets full and overrun status and the overflow condition, keeps the
 * state and the event names; an UNTIL_FULL stream stopped by the policy
 * restarts).
 */
#include "test_util.h"

/* S0063, S0064, S0294, S0069: clear drops every event recorded before. */
START_TEST(test_clear_drops_events)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev ev;
    for (int i = 0; i < 10; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0063: a running stream stays running: later events are recorded, and
 * clear itself records no START or STOP. */
START_TEST(test_clear_keeps_running)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[4];
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 2);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 1);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_int_eq(tu_ev_int(&evs[0]), 2);
    tu_shutdown(trid);
}
END_TEST

/* S0063: a suspended stream stays suspended: events are not recorded. */
START_TEST(test_clear_keeps_suspended)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev ev;
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_SUSPENDED);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 2);
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0063, S0295: the event name mapping survives clear. */
START_TEST(test_clear_keeps_names)
{
    char name[64], got[TRACE_EVENT_NAME_MAX + 1];
    trace_event_id_t id, again;
    trace_id_t trid = tu_stream_sim_started();
    tu_unique_name(name, "clr.name");
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, id, got), 0);
    ck_assert_str_eq(got, name);
    ck_assert_int_eq(posix_trace_eventid_open(name, &again), 0);
    ck_assert_uint_eq(again, id);
    tu_shutdown(trid);
}
END_TEST

/* S0065, S0063, S0247: clear of a full LOOP stream: NOT_FULL, NO_OVERRUN,
 * and no OVERFLOW/RESUME reported afterwards. */
START_TEST(test_clear_resets_full_loop)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct posix_trace_status_info st;
    struct tu_ev evs[4];
    o.streamsize = 512;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 100; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_RUNNING);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1000);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 1);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_int_eq(tu_ev_int(&evs[0]), 1000);
    tu_shutdown(trid);
}
END_TEST

/* S0063, S0065: clear of an UNTIL_FULL stream that stopped itself keeps it
 * suspended ("if it was suspended, it remains suspended") but no longer
 * full; posix_trace_start() then runs it again with a START event (S0226). */
START_TEST(test_clear_until_full_stays_suspended)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct posix_trace_status_info st;
    struct tu_ev evs[4];
    o.streamsize = 512;
    o.policy = POSIX_TRACE_UNTIL_FULL;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 100; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 999);      /* suspended: ignored */
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1000);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 1000);
    tu_shutdown(trid);
}
END_TEST

/* S0063: after clear, the stream again holds what a new one holds (the
 * S0054 amount) without loss. */
START_TEST(test_clear_full_capacity_again)
{
    struct tu_opts o = { 0 };
    trace_attr_t a;
    size_t ms = 0, mu = 0;
    trace_id_t trid;
    struct tu_ev evs[64];
    struct posix_trace_status_info st;
    int n;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxsystemeventsize(&a, &ms), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, sizeof(int), &mu), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    n = 40;
    o.streamsize = ms + (size_t)n * mu;
    o.policy = POSIX_TRACE_UNTIL_FULL;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < n; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    /* Everything is dropped: n events fit again without loss. */
    for (int i = 0; i < n; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 100 + i);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(tu_read_all(trid, evs, 64), n);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(tu_ev_int(&evs[i]), 100 + i);
    tu_shutdown(trid);
}
END_TEST

/* S0069: clear of a new, empty stream succeeds and changes nothing. */
START_TEST(test_clear_new_stream)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_status_info st;
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    tu_shutdown(trid);
}
END_TEST

/* S0071, S0070: clear with an invalid trace id gives EINVAL. */
START_TEST(test_clear_einval)
{
    trace_id_t trid = tu_stream_sim();
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_clear(trid), EINVAL);
    ck_assert_int_eq(posix_trace_clear(0), EINVAL);
    ck_assert_int_eq(posix_trace_clear((trace_id_t)-1), EINVAL);
}
END_TEST

/* S0063: clearing one stream leaves another untouched. */
START_TEST(test_clear_one_of_two)
{
    trace_id_t a = tu_stream_sim_started(), b = tu_stream_sim_started();
    struct tu_ev evs[4];
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 3);
    ck_assert_int_eq(posix_trace_clear(a), 0);
    ck_assert_int_eq(tu_read_all(a, evs, 4), 0);
    ck_assert_int_eq(tu_read_all(b, evs, 4), 2);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 3);
    tu_shutdown(a);
    tu_shutdown(b);
}
END_TEST

Suite *suite_clear(void)
{
    Suite *s = suite_create("clear");
    TCase *tc = tu_tcase("clear");
    tcase_add_test(tc, test_clear_drops_events);
    tcase_add_test(tc, test_clear_keeps_running);
    tcase_add_test(tc, test_clear_keeps_suspended);
    tcase_add_test(tc, test_clear_keeps_names);
    tcase_add_test(tc, test_clear_resets_full_loop);
    tcase_add_test(tc, test_clear_until_full_stays_suspended);
    tcase_add_test(tc, test_clear_full_capacity_again);
    tcase_add_test(tc, test_clear_new_stream);
    tcase_add_test(tc, test_clear_einval);
    tcase_add_test(tc, test_clear_one_of_two);
    suite_add_tcase(s, tc);
    return s;
}
