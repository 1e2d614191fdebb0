/* SPDX-License-Identifier: MIT */
/*
 * check_read.c -- posix_trace_getnext_event, posix_trace_trygetnext_event
 * and posix_trace_timedgetnext_event without other threads: order, each
 * event once, *unavailable, truncation on read, timeouts, argument errors
 * (DESIGN: reading).  Blocking with other threads is in check_threads.c.
 */
#include "test_util.h"

enum which { GETNEXT, TRYGETNEXT, TIMEDGETNEXT };

static int read_with(enum which w, trace_id_t trid,
                     struct posix_trace_event_info *ev, void *data, size_t nb,
                     size_t *len, int *unav)
{
    struct timespec abst = tu_now_plus_ms(1000);
    switch (w) {
    case GETNEXT:
        return posix_trace_getnext_event(trid, ev, data, nb, len, unav);
    case TRYGETNEXT:
        return posix_trace_trygetnext_event(trid, ev, data, nb, len, unav);
    default:
        return posix_trace_timedgetnext_event(trid, ev, data, nb, len, unav, &abst);
    }
}

static const char *wname[] = { "getnext", "trygetnext", "timedgetnext" };

/* S0216, S0217, S0196, S0197, S0202, S0200: with each of the three
 * functions, events come oldest first with *unavailable 0. */
START_TEST(test_read_oldest_first)
{
    for (int w = 0; w < 3; w++) {
        trace_id_t trid = tu_stream_sim_started();
        struct posix_trace_event_info info;
        int v = -1, unav = -1;
        size_t len = 0;
        for (int i = 0; i < 5; i++)
            tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 100 + i);
        ck_assert_int_eq(read_with(w, trid, &info, &v, sizeof v, &len, &unav), 0);
        ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_START);
        for (int i = 0; i < 5; i++) {
            unav = -1;
            ck_assert_int_eq(read_with(w, trid, &info, &v, sizeof v, &len, &unav), 0);
            ck_assert_msg(unav == 0, "%s: unavailable %d", wname[w], unav);
            ck_assert_msg(v == 100 + i, "%s: event %d has data %d", wname[w], i, v);
            ck_assert_int_eq(tu_ns(info.posix_timestamp), tu_sim_ts(1 + i));
        }
        tu_shutdown(trid);
    }
}
END_TEST

/* S0218, S0216, S0211: each event is reported once; then trygetnext finds
 * nothing. */
START_TEST(test_read_each_once)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[8];
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 2);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 3);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 3);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 1);
    ck_assert_int_eq(tu_ev_int(&evs[0]), 3);
    tu_shutdown(trid);
}
END_TEST

/* S0208, S0211, S0219: trygetnext on an empty stream returns 0 at once
 * with *unavailable nonzero. */
START_TEST(test_trygetnext_empty)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_event_info info;
    char buf[8];
    size_t len;
    int unav = 0;
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_ne(unav, 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert(tu_read1(trid, &(struct tu_ev){ 0 }));
    unav = 0;
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_ne(unav, 0);
    tu_shutdown(trid);
}
END_TEST

/* S0196, S0092: a suspended stream can still be read. */
START_TEST(test_read_suspended_stream)
{
    trace_id_t trid = tu_stream_sim_started();
    struct posix_trace_event_info info;
    int v = 0, unav = -1;
    size_t len;
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 9);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(posix_trace_getnext_event(trid, &info, &v, sizeof v, &len, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_STOP);
    tu_shutdown(trid);
}
END_TEST

/* S0215, S0264: num_bytes smaller than the data: the data is cut to
 * num_bytes, *data_len == num_bytes, TRUNCATED_READ; the buffer is not
 * written beyond num_bytes. */
START_TEST(test_truncated_read)
{
    for (int w = 0; w < 3; w++) {
        trace_id_t trid = tu_stream_sim_started();
        unsigned char data[20], buf[16];
        struct posix_trace_event_info info;
        size_t len = 0;
        int unav = -1;
        for (int i = 0; i < 20; i++)
            data[i] = (unsigned char)(i + 1);
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
        ck_assert(tu_read1(trid, &(struct tu_ev){ 0 }));
        memset(buf, 0xEE, sizeof buf);
        ck_assert_int_eq(read_with(w, trid, &info, buf, 8, &len, &unav), 0);
        ck_assert_int_eq(unav, 0);
        ck_assert_msg(len == 8, "%s: data_len %zu, expected 8", wname[w], len);
        ck_assert_mem_eq(buf, data, 8);
        for (int i = 8; i < 16; i++)
            ck_assert_msg(buf[i] == 0xEE, "%s: byte %d written past num_bytes", wname[w], i);
        ck_assert_msg(info.posix_truncation_status == POSIX_TRACE_TRUNCATED_READ,
                      "%s: truncation %d, expected TRUNCATED_READ", wname[w],
                      info.posix_truncation_status);
        tu_shutdown(trid);
    }
}
END_TEST

/* S0215, S0214: TRUNCATED_READ overrides TRUNCATED_RECORD. */
START_TEST(test_truncated_read_overrides_record)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    unsigned char data[20], buf[32];
    struct posix_trace_event_info info;
    size_t len = 0;
    int unav = -1;
    o.maxdatasize = 16;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    memset(data, 0x42, sizeof data);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    ck_assert(tu_read1(trid, &(struct tu_ev){ 0 }));
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, 10, &len, &unav), 0);
    ck_assert_uint_eq(len, 10);
    ck_assert_int_eq(info.posix_truncation_status, POSIX_TRACE_TRUNCATED_READ);
    /* With room for the 16 recorded bytes: TRUNCATED_RECORD. */
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len, &unav), 0);
    ck_assert_uint_eq(len, 16);
    ck_assert_int_eq(info.posix_truncation_status, POSIX_TRACE_TRUNCATED_RECORD);
    tu_shutdown(trid);
}
END_TEST

/* S0213, S0214: num_bytes equal to the data length transfers everything,
 * NOT_TRUNCATED. */
START_TEST(test_read_exact_buffer)
{
    trace_id_t trid = tu_stream_sim_started();
    unsigned char data[12], buf[12];
    struct posix_trace_event_info info;
    size_t len = 0;
    int unav = -1;
    memset(data, 0x17, sizeof data);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizeof data);
    ck_assert(tu_read1(trid, &(struct tu_ev){ 0 }));
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len, &unav), 0);
    ck_assert_uint_eq(len, 12);
    ck_assert_mem_eq(buf, data, 12);
    ck_assert_int_eq(info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    tu_shutdown(trid);
}
END_TEST

/* S0215, S0213: a NULL buffer with num_bytes 0 is allowed (DESIGN): an
 * event with data comes back TRUNCATED_READ with data_len 0, one without
 * data NOT_TRUNCATED. */
START_TEST(test_read_null_buffer_zero)
{
    trace_id_t trid = tu_stream_sim_started();
    struct posix_trace_event_info info;
    size_t len = 99;
    int unav = -1;
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, NULL, 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 5);
    /* START: data (TEF: the filter in force, S0285) */
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, NULL, 0, &len, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_START);
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(info.posix_truncation_status, POSIX_TRACE_TRUNCATED_READ);
    /* a user event without data */
    len = 99;
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, NULL, 0, &len, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    /* one with data */
    len = 99;
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, NULL, 0, &len, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(info.posix_truncation_status, POSIX_TRACE_TRUNCATED_READ);
    tu_shutdown(trid);
}
END_TEST

/* S0203, S0204, S0224: timedgetnext on an empty stream with an abstime
 * already past gives ETIMEDOUT at once. */
START_TEST(test_timed_past_abstime)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_event_info info;
    char buf[8];
    size_t len;
    int unav;
    struct timespec zero = { 0, 0 }, past = tu_ts(tu_ns(tu_now()) - 1000000000LL);
    struct timespec before_epoch = { -1, 0 };       /* valid, and passed */
    struct timespec t0 = tu_now();
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav, &zero), ETIMEDOUT);
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav, &past), ETIMEDOUT);
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav,
                                                    &before_epoch), ETIMEDOUT);
    ck_assert_msg(tu_ns(tu_now()) - tu_ns(t0) < 1000000000LL, "past abstime waited");
    tu_shutdown(trid);
}
END_TEST

/* S0203, S0204, S0205: with an abstime 50 ms ahead, timedgetnext waits on
 * CLOCK_REALTIME until it passes, then ETIMEDOUT. */
START_TEST(test_timed_near_future)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_event_info info;
    char buf[8];
    size_t len;
    int unav;
    struct timespec abst = tu_now_plus_ms(50), after;
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav, &abst), ETIMEDOUT);
    after = tu_now();
    ck_assert_msg(tu_ns(after) >= tu_ns(abst), "returned %lld ns before abstime",
                  tu_ns(abst) - tu_ns(after));
    ck_assert_msg(tu_ns(after) - tu_ns(abst) < 2000000000LL, "returned %lld ns late",
                  tu_ns(after) - tu_ns(abst));
    tu_shutdown(trid);
}
END_TEST

/* S0224, S0221: with no event ready, an invalid abstime (NULL, tv_nsec
 * out of 0..999999999) gives EINVAL. */
START_TEST(test_timed_bad_abstime_empty)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_event_info info;
    char buf[8];
    size_t len;
    int unav;
    struct timespec big = tu_now_plus_ms(100), neg = tu_now_plus_ms(100);
    big.tv_nsec = 1000000000L;
    neg.tv_nsec = -1;
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav, &big), EINVAL);
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav, &neg), EINVAL);
    tu_shutdown(trid);
}
END_TEST

/* S0207, S0224: with an event ready, timedgetnext returns it whatever
 * abstime is (invalid, NULL or past: DESIGN does not look at abstime). */
START_TEST(test_timed_event_ready_ignores_abstime)
{
    trace_id_t trid = tu_stream_sim_started();
    struct posix_trace_event_info info;
    int v = 0, unav = -1;
    size_t len;
    struct timespec bad = { 0, 1000000000L }, past = { 0, 0 };
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 2);
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, &v, sizeof v, &len, &unav, &bad), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, &v, sizeof v, &len, &unav, NULL), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(v, 1);
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, &v, sizeof v, &len, &unav, &past), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(v, 2);
    tu_shutdown(trid);
}
END_TEST

/* S0221: NULL event, data_len or unavailable, or a NULL buffer with
 * num_bytes > 0, give EINVAL from all three functions (DESIGN: reading);
 * the event stays in the stream. */
START_TEST(test_read_null_args)
{
    trace_id_t trid = tu_stream_sim_started();
    struct posix_trace_event_info info;
    char buf[8];
    size_t len;
    int unav;
    struct tu_ev ev;
    for (int w = 0; w < 3; w++) {
        int rc;
        rc = read_with(w, trid, NULL, buf, sizeof buf, &len, &unav);
        ck_assert_msg(rc == EINVAL, "%s(event NULL): got %d", wname[w], rc);
        rc = read_with(w, trid, &info, buf, sizeof buf, NULL, &unav);
        ck_assert_msg(rc == EINVAL, "%s(data_len NULL): got %d", wname[w], rc);
        rc = read_with(w, trid, &info, buf, sizeof buf, &len, NULL);
        ck_assert_msg(rc == EINVAL, "%s(unavailable NULL): got %d", wname[w], rc);
        rc = read_with(w, trid, &info, NULL, 4, &len, &unav);
        ck_assert_msg(rc == EINVAL, "%s(data NULL, num_bytes 4): got %d", wname[w], rc);
    }
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    tu_shutdown(trid);
}
END_TEST

/* S0221, S0223: all three give EINVAL for an invalid trace id (and do not
 * block). */
START_TEST(test_read_bad_trid)
{
    trace_id_t trid = tu_stream_sim();
    struct posix_trace_event_info info;
    char buf[8];
    size_t len;
    int unav;
    tu_shutdown(trid);
    for (int w = 0; w < 3; w++) {
        int rc = read_with(w, trid, &info, buf, sizeof buf, &len, &unav);
        ck_assert_msg(rc == EINVAL, "%s(stale id): got %d", wname[w], rc);
        rc = read_with(w, 0, &info, buf, sizeof buf, &len, &unav);
        ck_assert_msg(rc == EINVAL, "%s(id 0): got %d", wname[w], rc);
    }
}
END_TEST

/* S0218, S0035: reading frees the space of the events read: a small stream
 * can take far more events than it holds when the reader keeps up, with
 * no overflow and no overrun. */
START_TEST(test_read_frees_space)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct tu_ev ev;
    struct posix_trace_status_info st;
    o.streamsize = 512;
    o.policy = POSIX_TRACE_UNTIL_FULL;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert(tu_read1(trid, &ev));
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 5; i++)
            tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, round * 5 + i);
        for (int i = 0; i < 5; i++) {
            ck_assert_msg(tu_read1(trid, &ev), "round %d event %d missing", round, i);
            ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
            ck_assert_int_eq(tu_ev_int(&ev), round * 5 + i);
        }
    }
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    tu_shutdown(trid);
}
END_TEST

Suite *suite_read(void)
{
    Suite *s = suite_create("read");
    TCase *tc = tu_tcase("order");
    tcase_add_test(tc, test_read_oldest_first);
    tcase_add_test(tc, test_read_each_once);
    tcase_add_test(tc, test_trygetnext_empty);
    tcase_add_test(tc, test_read_suspended_stream);
    tcase_add_test(tc, test_read_frees_space);
    suite_add_tcase(s, tc);

    tc = tu_tcase("truncation");
    tcase_add_test(tc, test_truncated_read);
    tcase_add_test(tc, test_truncated_read_overrides_record);
    tcase_add_test(tc, test_read_exact_buffer);
    tcase_add_test(tc, test_read_null_buffer_zero);
    suite_add_tcase(s, tc);

    tc = tu_tcase("timed");
    tcase_add_test(tc, test_timed_past_abstime);
    tcase_add_test(tc, test_timed_near_future);
    tcase_add_test(tc, test_timed_bad_abstime_empty);
    tcase_add_test(tc, test_timed_event_ready_ignores_abstime);
    suite_add_tcase(s, tc);

    tc = tu_tcase("errors");
    tcase_add_test(tc, test_read_null_args);
    tcase_add_test(tc, test_read_bad_trid);
    suite_add_tcase(s, tc);
    return s;
}
