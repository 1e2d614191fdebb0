/* SPDX-License-Identifier: MIT */
/*
 * check_event.c -- posix_trace_event: when it records, what it records, and
 * truncation at max-data-size.
 */
#include "test_util.h"

#include <pthread.h>
#include <unistd.h>

/* S0122: with no stream at all, posix_trace_event has no effect (a stream
 * created afterwards is empty). */
START_TEST(test_event_no_stream)
{
    trace_id_t trid;
    struct tu_ev ev;
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, NULL, 0);
    trid = tu_stream_sim_started();
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0122, S0092: a suspended stream does not record user events. */
START_TEST(test_event_suspended_ignored)
{
    trace_id_t trid = tu_stream_sim();
    struct tu_ev evs[4];
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 2);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_STOP);
    /* No overrun either: an ignored event is not a lost one. */
    ck_assert_int_eq(tu_status(trid).posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    tu_shutdown(trid);
}
END_TEST

/* S0121, S0198, S0213, S0214, S0299, S0290: the event id and the data are
 * recorded and reported whole, NOT_TRUNCATED, with the caller's pid and
 * thread. */
START_TEST(test_event_data_recorded)
{
    trace_id_t trid = tu_stream_sim_started();
    unsigned char data[100];
    struct tu_ev ev;
    for (int i = 0; i < 100; i++)
        data[i] = (unsigned char)(i * 7 + 3);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    ck_assert(tu_read1(trid, &ev));
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_uint_eq(ev.len, 100);
    ck_assert_mem_eq(ev.data, data, 100);
    ck_assert_int_eq(ev.info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    ck_assert_int_eq(ev.info.posix_pid, getpid());
    ck_assert_msg(pthread_equal(ev.info.posix_thread_id, pthread_self()), "thread id");
    ck_assert_int_eq(tu_ns(ev.info.posix_timestamp), tu_sim_ts(1));
    tu_shutdown(trid);
}
END_TEST

/* <trace.h> makes posix_trace_event a macro too (its first test inline in
 * the caller, XSH 2.1.1): each argument is evaluated exactly once (C11
 * 7.1.4), the event recorded is the one asked for, and the function by its
 * own name, "(posix_trace_event)(...)", records the same (S0121, S0122). */
START_TEST(test_event_macro_evaluates_once)
{
    trace_id_t trid = tu_stream_sim_started();
    trace_event_id_t ids[2] = { POSIX_TRACE_UNNAMED_USEREVENT, POSIX_TRACE_UNNAMED_USEREVENT };
    const char *texts[2] = { "ab", "cd" };
    size_t lens[2] = { 2, 2 };
    int i = 0, j = 0, k = 0;
    posix_trace_event(ids[i++], texts[j++], lens[k++]);
    ck_assert_int_eq(i, 1);
    ck_assert_int_eq(j, 1);
    ck_assert_int_eq(k, 1);
    (posix_trace_event)(ids[i++], texts[j++], lens[k++]);
    struct tu_ev ev;
    ck_assert(tu_read1(trid, &ev));                     /* START */
    for (int n = 0; n < 2; n++) {
        ck_assert(tu_read1(trid, &ev));
        ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        ck_assert_uint_eq(ev.len, 2);
        ck_assert_mem_eq(ev.data, texts[n], 2);
    }
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0121: the data is copied when the event is recorded. */
START_TEST(test_event_data_copied)
{
    trace_id_t trid = tu_stream_sim_started();
    char data[8] = "abcdefg";
    struct tu_ev ev;
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    memset(data, 'X', sizeof data);
    ck_assert(tu_read1(trid, &ev));
    ck_assert(tu_read1(trid, &ev));
    ck_assert_uint_eq(ev.len, 8);
    ck_assert_str_eq((char *)ev.data, "abcdefg");
    tu_shutdown(trid);
}
END_TEST

/* S0059, S0214, S0264: data longer than max-data-size is truncated to it
 * and the event is marked TRUNCATED_RECORD. */
START_TEST(test_event_truncated_record)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    unsigned char data[20];
    struct tu_ev ev;
    o.maxdatasize = 16;
    o.sim = 1;
    o.step_ns = TU_SIM_STEP_NS;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 20; i++)
        data[i] = (unsigned char)(0xA0 + i);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    ck_assert(tu_read1(trid, &ev));
    ck_assert(tu_read1(trid, &ev));
    ck_assert_uint_eq(ev.len, 16);
    ck_assert_mem_eq(ev.data, data, 16);
    ck_assert_int_eq(ev.info.posix_truncation_status, POSIX_TRACE_TRUNCATED_RECORD);
    tu_shutdown(trid);
}
END_TEST

/* S0214: data of exactly max-data-size bytes is not truncated. */
START_TEST(test_event_exact_maxdata)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    unsigned char data[16];
    struct tu_ev ev;
    o.maxdatasize = 16;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    memset(data, 0x3c, sizeof data);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    ck_assert(tu_read1(trid, &ev));
    ck_assert(tu_read1(trid, &ev));
    ck_assert_uint_eq(ev.len, 16);
    ck_assert_mem_eq(ev.data, data, 16);
    ck_assert_int_eq(ev.info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    tu_shutdown(trid);
}
END_TEST

/* S0059, S0214: with max-data-size 0 any data is dropped (TRUNCATED_RECORD,
 * length 0) and empty data is NOT_TRUNCATED. */
START_TEST(test_event_maxdata_zero)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct tu_ev evs[4];
    o.maxdata_zero = 1;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, "hello", 5);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, NULL, 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 3);
    ck_assert_uint_eq(evs[1].len, 0);
    ck_assert_int_eq(evs[1].info.posix_truncation_status, POSIX_TRACE_TRUNCATED_RECORD);
    ck_assert_uint_eq(evs[2].len, 0);
    ck_assert_int_eq(evs[2].info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    tu_shutdown(trid);
}
END_TEST

/* S0121, S0214: zero-length data (non-NULL pointer) is recorded as an
 * event with data_len 0, NOT_TRUNCATED. */
START_TEST(test_event_zero_length)
{
    trace_id_t trid = tu_stream_sim_started();
    int x = 77;
    struct tu_ev evs[4];
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, &x, 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_uint_eq(evs[1].len, 0);
    ck_assert_int_eq(evs[1].info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    tu_shutdown(trid);
}
END_TEST

/* S0121: a NULL data pointer with length 0 records an event without data. */
START_TEST(test_event_null_data)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[4];
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, NULL, 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_uint_eq(evs[1].len, 0);
    ck_assert_int_eq(evs[1].info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    ck_assert_int_eq(tu_ns(evs[1].info.posix_timestamp), tu_sim_ts(1));
    tu_shutdown(trid);
}
END_TEST

/* S0121, S0291: an event goes into every running stream of the process
 * and not into a suspended one (DESIGN: streams). */
START_TEST(test_event_all_running_streams)
{
    trace_id_t a = tu_stream_sim_started(), b = tu_stream_sim_started();
    trace_id_t c = tu_stream_sim();
    struct tu_ev evs[4];
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 31);
    ck_assert_int_eq(tu_read_all(a, evs, 4), 2);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 31);
    ck_assert_int_eq(tu_read_all(b, evs, 4), 2);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 31);
    ck_assert_int_eq(tu_read_all(c, evs, 4), 0);
    tu_shutdown(a);
    tu_shutdown(b);
    tu_shutdown(c);
}
END_TEST

/* S0265, S0217: with the simulated clock each event's timestamp is the
 * clock value when it was recorded (start + k * step). */
START_TEST(test_event_sim_timestamps)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[12];
    for (int i = 0; i < 10; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(tu_read_all(trid, evs, 12), 11);
    for (int k = 0; k < 11; k++)
        ck_assert_msg(tu_ns(evs[k].info.posix_timestamp) == tu_sim_ts(k),
                      "event %d: timestamp %lld, expected %lld", k,
                      tu_ns(evs[k].info.posix_timestamp), tu_sim_ts(k));
    tu_shutdown(trid);
}
END_TEST

/* S0265, S0217: with the real clock, timestamps are CLOCK_REALTIME values
 * taken during the calls, in non-decreasing order. */
START_TEST(test_event_real_timestamps)
{
    trace_id_t trid;
    struct tu_ev evs[8];
    struct timespec before, after;
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    before = tu_now();
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 5; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    after = tu_now();
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 6);
    for (int k = 0; k < 6; k++) {
        long long t = tu_ns(evs[k].info.posix_timestamp);
        ck_assert_msg(t >= tu_ns(before) && t <= tu_ns(after),
                      "event %d: timestamp %lld outside [%lld, %lld]", k, t,
                      tu_ns(before), tu_ns(after));
        if (k > 0)
            ck_assert_msg(t >= tu_ns(evs[k - 1].info.posix_timestamp),
                          "event %d: timestamp goes backwards", k);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0121, S0290, S0126: named user event ids are recorded as given. */
START_TEST(test_event_named_ids)
{
    trace_event_id_t e1 = tu_new_event("ev.named.a");
    trace_event_id_t e2 = tu_new_event("ev.named.b");
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[8];
    tu_event_int(e1, 1);
    tu_event_int(e2, 2);
    tu_event_int(e1, 3);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 4);
    ck_assert_int_eq(evs[1].info.posix_event_id, e1);
    ck_assert_int_eq(evs[2].info.posix_event_id, e2);
    ck_assert_int_eq(evs[3].info.posix_event_id, e1);
    ck_assert_int_eq(tu_ev_int(&evs[3]), 3);
    tu_shutdown(trid);
}
END_TEST

/* S0216, S0217: many events come back in the order they were recorded. */
START_TEST(test_event_order_many)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev ev;
    ck_assert(tu_read1(trid, &ev));
    for (int i = 0; i < 500; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    for (int i = 0; i < 500; i++) {
        ck_assert_msg(tu_read1(trid, &ev), "event %d missing", i);
        ck_assert_int_eq(tu_ev_int(&ev), i);
    }
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0213, S0058: a large max-data-size carries large data whole. */
START_TEST(test_event_large_data)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    static unsigned char data[4000], back[4000];
    struct posix_trace_event_info info;
    size_t len = 0;
    int unav = -1;
    o.maxdatasize = 4000;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 4000; i++)
        data[i] = (unsigned char)(i ^ (i >> 8));
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, back, sizeof back, &len, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, back, sizeof back, &len, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_uint_eq(len, 4000);
    ck_assert_mem_eq(back, data, 4000);
    ck_assert_int_eq(info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    tu_shutdown(trid);
}
END_TEST

Suite *suite_event(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tu_tcase("when");
    tcase_add_test(tc, test_event_no_stream);
    tcase_add_test(tc, test_event_suspended_ignored);
    tcase_add_test(tc, test_event_all_running_streams);
    suite_add_tcase(s, tc);

    tc = tu_tcase("what");
    tcase_add_test(tc, test_event_data_recorded);
    tcase_add_test(tc, test_event_macro_evaluates_once);
    tcase_add_test(tc, test_event_data_copied);
    tcase_add_test(tc, test_event_truncated_record);
    tcase_add_test(tc, test_event_exact_maxdata);
    tcase_add_test(tc, test_event_maxdata_zero);
    tcase_add_test(tc, test_event_zero_length);
    tcase_add_test(tc, test_event_null_data);
    tcase_add_test(tc, test_event_sim_timestamps);
    tcase_add_test(tc, test_event_real_timestamps);
    tcase_add_test(tc, test_event_named_ids);
    tcase_add_test(tc, test_event_order_many);
    tcase_add_test(tc, test_event_large_data);
    suite_add_tcase(s, tc);
    return s;
}
