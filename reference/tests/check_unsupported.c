/*
 * check_unsupported.c -- functions of the options the reference does not
 * provide yet (DESIGN: options): they exist, so that programs link, and
 * return ENOSYS.
 *
 * THIS FILE CHANGES WHEN THOSE OPTIONS LAND: once TEF (event filter) is
 * implemented, its tests here are replaced by real unit tests (and
 * check_sysconf.c then expects 200809L for its _SC_ name).  TRL (log) has
 * landed: its tests are check_log_*.c.
 */
#include "test_util.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* S0310: get_filter and set_filter return ENOSYS, for an active stream or
 * not, and record no FILTER event. */
START_TEST(test_tef_filter_enosys)
{
    trace_id_t trid = tu_stream_sim_started();
    trace_event_set_t set;
    struct tu_ev evs[4];
    memset(&set, 0, sizeof set);
    ck_assert_int_eq(posix_trace_get_filter(trid, &set), ENOSYS);
    ck_assert_int_eq(posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET), ENOSYS);
    ck_assert_int_eq(posix_trace_set_filter(trid, &set, POSIX_TRACE_ADD_EVENTSET), ENOSYS);
    ck_assert_int_eq(posix_trace_set_filter(trid, &set, POSIX_TRACE_SUB_EVENTSET), ENOSYS);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 1);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_get_filter(trid, &set), ENOSYS);
}
END_TEST

/* S0310: trid_eventid_open returns ENOSYS. */
START_TEST(test_tef_trid_eventid_open_enosys)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t id = 0;
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, "unsupported.tef", &id), ENOSYS);
    tu_shutdown(trid);
}
END_TEST

Suite *suite_unsupported(void)
{
    Suite *s = suite_create("unsupported");
    TCase *tc = tu_tcase("tef");
    tcase_add_test(tc, test_tef_filter_enosys);
    tcase_add_test(tc, test_tef_trid_eventid_open_enosys);
    suite_add_tcase(s, tc);
    return s;
}
