/* SPDX-License-Identifier: MIT */
/*
 * check_startstop.c -- posix_trace_start and posix_trace_stop: the START
 * and STOP events, the state changes, and the already-running /
 * already-suspended cases (the full cases are in check_policy.c).
 */
#include "test_util.h"

#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

/* S0225, S0226, S0271, S0232: start on a suspended stream records START
 * and makes the stream RUNNING. */
START_TEST(test_start_records_start)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 1);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(tu_ns(evs[0].info.posix_timestamp), tu_sim_ts(0));
    tu_shutdown(trid);
}
END_TEST

/* S0285, S0093, S0214: with TEF the START event carries the filter in
 * force, one trace_event_set_t: a new stream's is empty.  Not truncated
 * (check_filter.c checks a non-empty filter). */
START_TEST(test_start_filter_data)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev ev;
    trace_event_set_t empty;
    ck_assert_int_eq(posix_trace_eventset_empty(&empty), 0);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    ck_assert_uint_eq(ev.len, sizeof(trace_event_set_t));
    ck_assert_mem_eq(ev.data, &empty, sizeof empty);
    ck_assert_int_eq(ev.info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    tu_shutdown(trid);
}
END_TEST

/* S0227: start on a running stream records nothing and it keeps running. */
START_TEST(test_start_when_running)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 1);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    tu_shutdown(trid);
}
END_TEST

/* S0229, S0272, S0282: stop on a running stream records STOP carrying the
 * int 0 (explicit stop) and makes the stream SUSPENDED. */
START_TEST(test_stop_records_stop_data0)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 0);
    ck_assert_int_eq(evs[1].info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    ck_assert_int_eq(tu_ns(evs[1].info.posix_timestamp), tu_sim_ts(1));
    tu_shutdown(trid);
}
END_TEST

/* S0230: stop on a new (suspended) stream records nothing. */
START_TEST(test_stop_when_suspended_new)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev ev;
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0230: a second stop records nothing and the stream stays suspended. */
START_TEST(test_stop_twice)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_STOP);
    tu_shutdown(trid);
}
END_TEST

/* S0226, S0229, S0216: repeated start/stop cycles record alternating
 * START and STOP events with increasing (simulated) timestamps. */
START_TEST(test_cycles)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev evs[24];
    int n;
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(posix_trace_start(trid), 0);
        ck_assert_int_eq(posix_trace_stop(trid), 0);
    }
    n = tu_read_all(trid, evs, 24);
    ck_assert_int_eq(n, 20);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(evs[i].info.posix_event_id,
                         i % 2 == 0 ? POSIX_TRACE_START : POSIX_TRACE_STOP);
        ck_assert_int_eq(tu_ns(evs[i].info.posix_timestamp), tu_sim_ts(i));
    }
    tu_shutdown(trid);
}
END_TEST

/* S0122, S0291: user events are recorded only while the stream runs. */
START_TEST(test_events_only_while_running)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev evs[8];
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 2);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 3);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 4);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 5);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 2);
    ck_assert_int_eq(evs[2].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(evs[3].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(tu_ev_int(&evs[4]), 4);
    tu_shutdown(trid);
}
END_TEST

/* S0263, S0299, S0262, S0266: START and STOP caused by start/stop carry
 * the caller's pid, thread and a call address (DESIGN: streams). */
START_TEST(test_startstop_origin)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(evs[i].info.posix_pid, getpid());
        ck_assert_msg(pthread_equal(evs[i].info.posix_thread_id, pthread_self()),
                      "event %d: thread is not the caller's", i);
        ck_assert_ptr_nonnull(evs[i].info.posix_prog_address);
    }
    tu_shutdown(trid);
}
END_TEST

/* Calls posix_trace_start / posix_trace_stop from a known function. */
__attribute__((noinline)) static int call_start(trace_id_t trid)
{
    int rc = posix_trace_start(trid);
    __asm__ __volatile__("" ::: "memory");   /* not a tail call */
    return rc;
}

__attribute__((noinline)) static int call_stop(trace_id_t trid)
{
    int rc = posix_trace_stop(trid);
    __asm__ __volatile__("" ::: "memory");
    return rc;
}

/* S0263: posix_prog_address of START and STOP is the address of the call
 * (DESIGN: the return address of the call): it lies inside the calling
 * function. */
START_TEST(test_startstop_prog_address)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev evs[4];
    uintptr_t a, b;
    ck_assert_int_eq(call_start(trid), 0);
    ck_assert_int_eq(call_stop(trid), 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    a = (uintptr_t)evs[0].info.posix_prog_address;
    b = (uintptr_t)evs[1].info.posix_prog_address;
    ck_assert_msg(a > (uintptr_t)call_start && a < (uintptr_t)call_start + 256,
                  "START address %#lx not in call_start (%#lx)", (unsigned long)a,
                  (unsigned long)(uintptr_t)call_start);
    ck_assert_msg(b > (uintptr_t)call_stop && b < (uintptr_t)call_stop + 256,
                  "STOP address %#lx not in call_stop (%#lx)", (unsigned long)b,
                  (unsigned long)(uintptr_t)call_stop);
    tu_shutdown(trid);
}
END_TEST

static void *start_in_thread(void *arg)
{
    trace_id_t trid = *(trace_id_t *)arg;
    static int rc;
    rc = posix_trace_start(trid);
    return &rc;
}

/* S0263, S0266: START caused by another thread's call carries that
 * thread's id. */
START_TEST(test_start_other_thread)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev ev;
    pthread_t th;
    void *res;
    ck_assert_int_eq(pthread_create(&th, NULL, start_in_thread, &trid), 0);
    ck_assert_int_eq(pthread_join(th, &res), 0);
    ck_assert_int_eq(*(int *)res, 0);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    ck_assert_msg(pthread_equal(ev.info.posix_thread_id, th), "START thread is not the starter");
    ck_assert_msg(!pthread_equal(ev.info.posix_thread_id, pthread_self()), "START thread is main");
    tu_shutdown(trid);
}
END_TEST

/* S0234, S0233: start and stop give EINVAL for an id that is not an active
 * stream. */
START_TEST(test_startstop_einval)
{
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_start(trid), EINVAL);
    ck_assert_int_eq(posix_trace_stop(trid), EINVAL);
    ck_assert_int_eq(posix_trace_start(0), EINVAL);
    ck_assert_int_eq(posix_trace_stop((trace_id_t)-1), EINVAL);
}
END_TEST

/* S0225, S0226: starting one stream does not start another. */
START_TEST(test_start_one_of_two)
{
    trace_id_t a = tu_stream_sim(), b = tu_stream_sim();
    struct tu_ev ev;
    ck_assert_int_eq(posix_trace_start(a), 0);
    ck_assert_int_eq(tu_status(b).posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert(!tu_read1(b, &ev));
    ck_assert(tu_read1(a, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    tu_shutdown(a);
    tu_shutdown(b);
}
END_TEST

Suite *suite_startstop(void)
{
    Suite *s = suite_create("startstop");
    TCase *tc = tu_tcase("startstop");
    tcase_add_test(tc, test_start_records_start);
    tcase_add_test(tc, test_start_filter_data);
    tcase_add_test(tc, test_start_when_running);
    tcase_add_test(tc, test_stop_records_stop_data0);
    tcase_add_test(tc, test_stop_when_suspended_new);
    tcase_add_test(tc, test_stop_twice);
    tcase_add_test(tc, test_cycles);
    tcase_add_test(tc, test_events_only_while_running);
    tcase_add_test(tc, test_startstop_origin);
    tcase_add_test(tc, test_startstop_prog_address);
    tcase_add_test(tc, test_start_other_thread);
    tcase_add_test(tc, test_startstop_einval);
    tcase_add_test(tc, test_start_one_of_two);
    suite_add_tcase(s, tc);
    return s;
}
