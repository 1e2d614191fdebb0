/* SPDX-License-Identifier: MIT */
/*
 * check_status.c -- posix_trace_get_status and posix_trace_get_attr.
 */
#include "test_util.h"

/* S0173, S0243, S0244, S0247, S0256, S0259, S0251, S0252: a new stream
 * without log: SUSPENDED, NOT_FULL, NO_OVERRUN; the TRL members are
 * NOT_FLUSHING, 0, NO_OVERRUN, NOT_FULL (DESIGN). */
START_TEST(test_status_new_stream)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_status_info st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(st.posix_stream_flush_status, POSIX_TRACE_NOT_FLUSHING);
    ck_assert_int_eq(st.posix_stream_flush_error, 0);
    ck_assert_int_eq(st.posix_log_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(st.posix_log_full_status, POSIX_TRACE_NOT_FULL);
    tu_shutdown(trid);
}
END_TEST

/* S0243, S0226, S0229: the stream status follows start and stop. */
START_TEST(test_status_running_suspended)
{
    trace_id_t trid = tu_stream_sim();
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    tu_shutdown(trid);
}
END_TEST

/* S0176, S0248, S0246: get_status reports OVERRUN once and resets it to
 * NO_OVERRUN; a new loss sets it again. */
START_TEST(test_status_overrun_reset)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct posix_trace_status_info st;
    o.streamsize = 512;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 100; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    for (int i = 0; i < 100; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    tu_shutdown(trid);
}
END_TEST

/* S0259, S0252: the TRL members stay NOT_FLUSHING / 0 / NO_OVERRUN /
 * NOT_FULL even when the stream itself overflows. */
START_TEST(test_status_trl_members_after_overflow)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct posix_trace_status_info st;
    o.streamsize = 256;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 100; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(st.posix_stream_flush_status, POSIX_TRACE_NOT_FLUSHING);
    ck_assert_int_eq(st.posix_stream_flush_error, 0);
    ck_assert_int_eq(st.posix_log_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(st.posix_log_full_status, POSIX_TRACE_NOT_FULL);
    tu_shutdown(trid);
}
END_TEST

/* S0182, S0181: get_status with an invalid trace id gives EINVAL. */
START_TEST(test_status_einval)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_status_info st;
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_get_status(trid, &st), EINVAL);
    ck_assert_int_eq(posix_trace_get_status(0, &st), EINVAL);
    ck_assert_int_eq(posix_trace_get_status((trace_id_t)-1, &st), EINVAL);
}
END_TEST

/* S0172, S0010, S0087, S0180: get_attr copies the stream's attributes:
 * the ones it was created with, the read-only ones, and the creation time
 * (CLOCK_REALTIME at creation). */
START_TEST(test_get_attr_values)
{
    trace_attr_t a, got;
    trace_id_t trid;
    struct timespec before, after, ct, res, want_res;
    char name[TRACE_NAME_MAX], ver[TRACE_NAME_MAX];
    size_t sz;
    int p;

    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&a, "status-test"), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 12345), 0);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, 77), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL), 0);
    before = tu_now();
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    after = tu_now();
    tu_track(trid);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);

    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&got, name), 0);
    ck_assert_str_eq(name, "status-test");
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&got, &sz), 0);
    ck_assert_uint_eq(sz, 12345);
    ck_assert_int_eq(posix_trace_attr_getmaxdatasize(&got, &sz), 0);
    ck_assert_uint_eq(sz, 77);
    ck_assert_int_eq(posix_trace_attr_getstreamfullpolicy(&got, &p), 0);
    ck_assert_int_eq(p, POSIX_TRACE_UNTIL_FULL);
    ck_assert_int_eq(posix_trace_attr_getgenversion(&got, ver), 0);
    ck_assert_str_eq(ver, "posixtrace-reference 0.1");
    ck_assert_int_eq(posix_trace_attr_getclockres(&got, &res), 0);
    ck_assert_int_eq(clock_getres(CLOCK_REALTIME, &want_res), 0);
    ck_assert_int_eq(tu_ns(res), tu_ns(want_res));
    ck_assert_int_eq(posix_trace_attr_getcreatetime(&got, &ct), 0);
    ck_assert_msg(tu_ns(ct) >= tu_ns(before) && tu_ns(ct) <= tu_ns(after),
                  "creation time %lld outside [%lld, %lld]", tu_ns(ct),
                  tu_ns(before), tu_ns(after));
    /* The size functions see the stream's max-data-size. */
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&got, 1000, &sz), 0);
    ck_assert_uint_eq(sz, 40 + 80);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0172: the attributes a stream does not use (TRI/TRL ones) come back
 * with the values it was created with. */
START_TEST(test_get_attr_other_attrs)
{
    trace_attr_t a, got;
    trace_id_t trid;
    size_t sz;
    int p;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setlogsize(&a, 5555), 0);
    ck_assert_int_eq(posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND), 0);
    ck_assert_int_eq(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    tu_track(trid);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getlogsize(&got, &sz), 0);
    ck_assert_uint_eq(sz, 5555);
    ck_assert_int_eq(posix_trace_attr_getlogfullpolicy(&got, &p), 0);
    ck_assert_int_eq(p, POSIX_TRACE_APPEND);
    ck_assert_int_eq(posix_trace_attr_getinherited(&got, &p), 0);
    ck_assert_int_eq(p, POSIX_TRACE_INHERITED);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0172: get_attr fills an object that was not initialised: afterwards it
 * is a valid attribute object (getters work, destroy works). */
START_TEST(test_get_attr_into_uninitialised)
{
    trace_attr_t got;
    trace_id_t trid;
    size_t sz = 0;
    struct tu_opts o = { 0 };
    o.streamsize = 4321;
    trid = tu_stream(&o);
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&got, &sz), 0);
    ck_assert_uint_eq(sz, 4321);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0172: get_attr gives the same attributes however often it is called,
 * and the copy is independent of the stream. */
START_TEST(test_get_attr_copy_independent)
{
    trace_attr_t got, again;
    trace_id_t trid;
    char name[TRACE_NAME_MAX];
    struct tu_opts o = { 0 };
    o.name = "orig";
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_setname(&got, "changed"), 0);
    ck_assert_int_eq(posix_trace_attr_init(&again), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &again), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&again, name), 0);
    ck_assert_str_eq(name, "orig");
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&again), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0182: get_attr with an invalid trace id gives EINVAL. */
START_TEST(test_get_attr_einval)
{
    trace_id_t trid = tu_stream_sim();
    trace_attr_t got;
    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), EINVAL);
    ck_assert_int_eq(posix_trace_get_attr(0, &got), EINVAL);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
}
END_TEST

/* S0174, S0173: get_status does not change the stream (no events, state
 * unchanged) when called repeatedly. */
START_TEST(test_status_no_side_effects)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[4];
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 1);
    tu_shutdown(trid);
}
END_TEST

/* S0181, S0182: a NULL output pointer gives EINVAL from get_status and
 * get_attr (the reference checks them; DESIGN does not list them). */
START_TEST(test_status_attr_null_output)
{
    trace_id_t trid = tu_stream_sim();
    ck_assert_int_eq(posix_trace_get_status(trid, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_get_attr(trid, NULL), EINVAL);
    tu_shutdown(trid);
}
END_TEST

Suite *suite_status(void)
{
    Suite *s = suite_create("status");
    TCase *tc = tu_tcase("get_status");
    tcase_add_test(tc, test_status_new_stream);
    tcase_add_test(tc, test_status_running_suspended);
    tcase_add_test(tc, test_status_overrun_reset);
    tcase_add_test(tc, test_status_trl_members_after_overflow);
    tcase_add_test(tc, test_status_einval);
    tcase_add_test(tc, test_status_no_side_effects);
    suite_add_tcase(s, tc);

    tc = tu_tcase("get_attr");
    tcase_add_test(tc, test_get_attr_values);
    tcase_add_test(tc, test_get_attr_other_attrs);
    tcase_add_test(tc, test_get_attr_into_uninitialised);
    tcase_add_test(tc, test_get_attr_copy_independent);
    tcase_add_test(tc, test_get_attr_einval);
    tcase_add_test(tc, test_status_attr_null_output);
    suite_add_tcase(s, tc);
    return s;
}
