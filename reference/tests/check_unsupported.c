/*
 * check_unsupported.c -- functions of the options the reference does not
 * provide yet (DESIGN: options): they exist, so that programs link, and
 * return ENOSYS.
 *
 * THIS FILE CHANGES WHEN THOSE OPTIONS LAND: once TEF (event filter) or
 * TRL (log) is implemented, its tests here are replaced by real unit tests
 * (and check_sysconf.c then expects 200809L for its _SC_ name).
 */
#include "test_util.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* S0310 (TEF reported as -1): the five event set functions return ENOSYS. */
START_TEST(test_tef_eventset_enosys)
{
    trace_event_set_t set;
    int is = -1;
    memset(&set, 0, sizeof set);
    ck_assert_int_eq(posix_trace_eventset_empty(&set), ENOSYS);
    ck_assert_int_eq(posix_trace_eventset_fill(&set, POSIX_TRACE_ALL_EVENTS), ENOSYS);
    ck_assert_int_eq(posix_trace_eventset_add(POSIX_TRACE_START, &set), ENOSYS);
    ck_assert_int_eq(posix_trace_eventset_del(POSIX_TRACE_START, &set), ENOSYS);
    ck_assert_int_eq(posix_trace_eventset_ismember(POSIX_TRACE_START, &set, &is), ENOSYS);
    /* and with arguments that would be invalid, still ENOSYS */
    ck_assert_int_eq(posix_trace_eventset_empty(NULL), ENOSYS);
    ck_assert_int_eq(posix_trace_eventset_fill(&set, 99), ENOSYS);
}
END_TEST

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

/* S0314 (TRL reported as -1): create_withlog returns ENOSYS, creates no
 * stream and writes nothing to the file. */
START_TEST(test_trl_create_withlog_enosys)
{
    FILE *f = tmpfile();
    trace_id_t trid = 0;
    struct stat sb;
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(posix_trace_create_withlog(0, NULL, fileno(f), &trid), ENOSYS);
    ck_assert_int_eq(fstat(fileno(f), &sb), 0);
    ck_assert_int_eq(sb.st_size, 0);
    fclose(f);
}
END_TEST

/* S0314: flush returns ENOSYS (also for a stream without log). */
START_TEST(test_trl_flush_enosys)
{
    trace_id_t trid = tu_stream_sim_started();
    ck_assert_int_eq(posix_trace_flush(trid), ENOSYS);
    ck_assert_int_eq(tu_status(trid).posix_stream_flush_status, POSIX_TRACE_NOT_FLUSHING);
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_flush(trid), ENOSYS);
}
END_TEST

/* S0314: open, close and rewind of a trace log return ENOSYS. */
START_TEST(test_trl_open_close_rewind_enosys)
{
    FILE *f = tmpfile();
    trace_id_t trid = 0;
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(posix_trace_open(fileno(f), &trid), ENOSYS);
    ck_assert_int_eq(posix_trace_close(trid), ENOSYS);
    ck_assert_int_eq(posix_trace_rewind(trid), ENOSYS);
    ck_assert_int_eq(posix_trace_open(-1, &trid), ENOSYS);
    fclose(f);
}
END_TEST

Suite *suite_unsupported(void)
{
    Suite *s = suite_create("unsupported");
    TCase *tc = tu_tcase("tef");
    tcase_add_test(tc, test_tef_eventset_enosys);
    tcase_add_test(tc, test_tef_filter_enosys);
    tcase_add_test(tc, test_tef_trid_eventid_open_enosys);
    suite_add_tcase(s, tc);

    tc = tu_tcase("trl");
    tcase_add_test(tc, test_trl_create_withlog_enosys);
    tcase_add_test(tc, test_trl_flush_enosys);
    tcase_add_test(tc, test_trl_open_close_rewind_enosys);
    suite_add_tcase(s, tc);
    return s;
}
