/* SPDX-License-Identifier: MIT */
/*
 * check_threads.c -- blocking reads and concurrency: a reader blocked in
 * getnext / timedgetnext woken by an event or by shutdown, writers in
 * several threads, a reader running alongside writers.  Real-time waits are
 * short (tens of milliseconds); counts stay modest for valgrind.
 *
 * Helper threads never call Check assertions: they store what they saw and
 * the main thread asserts.
 */
#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>

struct reader {
    trace_id_t trid;
    int timed;            /* 0: getnext, 1: timedgetnext */
    long timeout_ms;
    atomic_int done;
    int rc, unav, v;
    size_t len;
    struct posix_trace_event_info info;
};

static void *reader_main(void *p)
{
    struct reader *r = p;
    r->v = -1;
    if (r->timed) {
        struct timespec abst = tu_now_plus_ms(r->timeout_ms);
        r->rc = posix_trace_timedgetnext_event(r->trid, &r->info, &r->v, sizeof r->v,
                                               &r->len, &r->unav, &abst);
    } else {
        r->rc = posix_trace_getnext_event(r->trid, &r->info, &r->v, sizeof r->v,
                                          &r->len, &r->unav);
    }
    atomic_store(&r->done, 1);
    return NULL;
}

static void *writer_event(void *p)
{
    tu_sleep_ms(30);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, *(int *)p);
    return NULL;
}

/* S0199, S0196, S0200: getnext on an empty active stream blocks until an
 * event is recorded (here by another thread), then reports it. */
START_TEST(test_getnext_blocks_until_event)
{
    trace_id_t trid = tu_stream_sim_started();
    struct reader r;
    pthread_t th;
    struct tu_ev ev;
    memset(&r, 0, sizeof r);
    ck_assert(tu_read1(trid, &ev));   /* consume START: stream now empty */
    r.trid = trid;
    ck_assert_int_eq(pthread_create(&th, NULL, reader_main, &r), 0);
    tu_sleep_ms(60);
    ck_assert_msg(!atomic_load(&r.done), "getnext returned on an empty stream (rc %d, unavailable %d)",
                  r.rc, r.unav);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 4242);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(r.unav, 0);
    ck_assert_int_eq(r.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_int_eq(r.v, 4242);
    tu_shutdown(trid);
}
END_TEST

/* S0199, S0196: the event that wakes the reader may come from another
 * thread while the main thread itself is the reader. */
START_TEST(test_getnext_woken_by_other_thread)
{
    trace_id_t trid = tu_stream_sim_started();
    struct posix_trace_event_info info;
    struct tu_ev ev;
    pthread_t th;
    int val = 31337, v = 0, unav = -1;
    size_t len;
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(pthread_create(&th, NULL, writer_event, &val), 0);
    ck_assert_int_eq(posix_trace_getnext_event(trid, &info, &v, sizeof v, &len, &unav), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(v, 31337);
    ck_assert_msg(pthread_equal(info.posix_thread_id, th), "event thread is not the writer");
    tu_shutdown(trid);
}
END_TEST

/* S0202, S0207: timedgetnext waiting with a distant abstime returns the
 * event recorded meanwhile, not ETIMEDOUT. */
START_TEST(test_timedgetnext_woken_by_event)
{
    trace_id_t trid = tu_stream_sim_started();
    struct reader r;
    pthread_t th;
    struct tu_ev ev;
    struct timespec t0;
    memset(&r, 0, sizeof r);
    ck_assert(tu_read1(trid, &ev));
    r.trid = trid;
    r.timed = 1;
    r.timeout_ms = 5000;
    t0 = tu_now();
    ck_assert_int_eq(pthread_create(&th, NULL, reader_main, &r), 0);
    tu_sleep_ms(40);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 9);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(r.unav, 0);
    ck_assert_int_eq(r.v, 9);
    ck_assert_msg(tu_ns(tu_now()) - tu_ns(t0) < 4000000000LL, "reader was not woken early");
    tu_shutdown(trid);
}
END_TEST

/* S0109, S0110, S0221 (shutdown page: a thread blocked in a getnext
 * function is unblocked with EINVAL): shutdown wakes a reader blocked in
 * getnext, which returns EINVAL. */
START_TEST(test_getnext_woken_by_shutdown)
{
    trace_id_t trid = tu_stream_sim();
    struct reader r;
    pthread_t th;
    memset(&r, 0, sizeof r);
    r.trid = trid;
    ck_assert_int_eq(pthread_create(&th, NULL, reader_main, &r), 0);
    tu_sleep_ms(50);
    ck_assert(!atomic_load(&r.done));
    tu_shutdown(trid);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    ck_assert_msg(r.rc == EINVAL, "blocked getnext after shutdown: expected EINVAL, got %d", r.rc);
}
END_TEST

/* S0109, S0221 (shutdown page): shutdown wakes a reader blocked in
 * timedgetnext with a distant abstime: EINVAL, well before the timeout. */
START_TEST(test_timedgetnext_woken_by_shutdown)
{
    trace_id_t trid = tu_stream_sim();
    struct reader r;
    pthread_t th;
    struct timespec t0;
    memset(&r, 0, sizeof r);
    r.trid = trid;
    r.timed = 1;
    r.timeout_ms = 5000;
    t0 = tu_now();
    ck_assert_int_eq(pthread_create(&th, NULL, reader_main, &r), 0);
    tu_sleep_ms(50);
    tu_shutdown(trid);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    ck_assert_msg(r.rc == EINVAL, "blocked timedgetnext after shutdown: expected EINVAL, got %d", r.rc);
    ck_assert_msg(tu_ns(tu_now()) - tu_ns(t0) < 4000000000LL, "reader waited for its timeout");
}
END_TEST

/* S0109 (shutdown page): several blocked readers are all woken by one
 * shutdown with EINVAL. */
START_TEST(test_many_readers_woken_by_shutdown)
{
    trace_id_t trid = tu_stream_sim();
    struct reader r[4];
    pthread_t th[4];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 4; i++) {
        r[i].trid = trid;
        r[i].timed = i % 2;
        r[i].timeout_ms = 5000;
        ck_assert_int_eq(pthread_create(&th[i], NULL, reader_main, &r[i]), 0);
    }
    tu_sleep_ms(60);
    tu_shutdown(trid);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
        ck_assert_msg(r[i].rc == EINVAL, "reader %d: expected EINVAL, got %d", i, r[i].rc);
    }
}
END_TEST

#define NW_EVENTS 1000

struct writer {
    int idx, n;
    pthread_t self;
};

static void *writer_main(void *p)
{
    struct writer *w = p;
    for (int i = 0; i < w->n; i++) {
        int d[2] = { w->idx, i };
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, d, sizeof d);
    }
    return NULL;
}

/* Checks one event of a writer: thread and per-writer sequence. */
static void check_writer_event(const struct posix_trace_event_info *info, const int *d,
                               size_t len, struct writer *ws, int nw, int *next)
{
    ck_assert_uint_eq(len, sizeof(int) * 2);
    ck_assert_msg(d[0] >= 0 && d[0] < nw, "bad writer index %d", d[0]);
    ck_assert_msg(d[1] == next[d[0]], "writer %d: got seq %d, expected %d", d[0],
                  d[1], next[d[0]]);
    ck_assert_msg(pthread_equal(info->posix_thread_id, ws[d[0]].self),
                  "writer %d seq %d: wrong thread id", d[0], d[1]);
    ck_assert_int_eq(info->posix_pid, getpid());
    next[d[0]]++;
}

/* S0216, S0217, S0218, S0121: two writer threads x 1000 events: every
 * event is read back exactly once, each writer's events in its order. */
START_TEST(test_two_writers)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct writer ws[2];
    pthread_t th[2];
    int next[2] = { 0, 0 }, total = 0;
    struct posix_trace_event_info info;
    int d[2], unav;
    size_t len;
    o.streamsize = 256 * 1024;
    o.policy = POSIX_TRACE_UNTIL_FULL;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 2; i++) {
        ws[i].idx = i;
        ws[i].n = NW_EVENTS;
        ck_assert_int_eq(pthread_create(&th[i], NULL, writer_main, &ws[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        ws[i].self = th[i];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, d, sizeof d, &len, &unav), 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_START);
    for (;;) {
        ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, d, sizeof d, &len, &unav), 0);
        if (unav)
            break;
        ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        check_writer_event(&info, d, len, ws, 2, next);
        total++;
    }
    ck_assert_int_eq(total, 2 * NW_EVENTS);
    ck_assert_int_eq(next[0], NW_EVENTS);
    ck_assert_int_eq(next[1], NW_EVENTS);
    tu_shutdown(trid);
}
END_TEST

#define CW_WRITERS 3
#define CW_EVENTS  500

/* S0199, S0216, S0218: a reader running concurrently with three writers
 * (reading with timedgetnext, so that a lost wake-up fails instead of
 * hanging) gets every event exactly once and in per-writer order. */
START_TEST(test_concurrent_reader_writers)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct writer ws[CW_WRITERS];
    pthread_t th[CW_WRITERS];
    int next[CW_WRITERS] = { 0 }, total = 0;
    struct posix_trace_event_info info;
    int d[2], unav;
    size_t len;
    o.streamsize = 256 * 1024;
    o.policy = POSIX_TRACE_UNTIL_FULL;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_getnext_event(trid, &info, d, sizeof d, &len, &unav), 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_START);
    for (int i = 0; i < CW_WRITERS; i++) {
        ws[i].idx = i;
        ws[i].n = CW_EVENTS;
        ck_assert_int_eq(pthread_create(&th[i], NULL, writer_main, &ws[i]), 0);
    }
    for (int i = 0; i < CW_WRITERS; i++)
        ws[i].self = th[i];
    while (total < CW_WRITERS * CW_EVENTS) {
        struct timespec abst = tu_now_plus_ms(5000);
        int rc = posix_trace_timedgetnext_event(trid, &info, d, sizeof d, &len, &unav, &abst);
        ck_assert_msg(rc == 0, "after %d events: timedgetnext gave %d", total, rc);
        ck_assert_int_eq(unav, 0);
        ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        check_writer_event(&info, d, len, ws, CW_WRITERS, next);
        total++;
    }
    for (int i = 0; i < CW_WRITERS; i++)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, d, sizeof d, &len, &unav), 0);
    ck_assert_int_ne(unav, 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    tu_shutdown(trid);
}
END_TEST

struct toggler {
    trace_id_t trid;
    int rc;
};

static void *toggler_main(void *p)
{
    struct toggler *t = p;
    t->rc = 0;
    for (int i = 0; i < 200 && t->rc == 0; i++) {
        t->rc = posix_trace_stop(t->trid);
        if (t->rc == 0)
            t->rc = posix_trace_start(t->trid);
    }
    return NULL;
}

/* S0226, S0229, S0216: start/stop from one thread while another records
 * events: STOP and START alternate, user events only between a START and a
 * STOP, in order. */
START_TEST(test_startstop_concurrent_with_writer)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    struct toggler t;
    struct writer w = { 0, 2000, 0 };
    pthread_t tt, tw;
    struct posix_trace_event_info info;
    int d[2], unav, running = 0, next = 0, stops = 0;
    size_t len;
    o.streamsize = 512 * 1024;
    o.policy = POSIX_TRACE_UNTIL_FULL;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    t.trid = trid;
    ck_assert_int_eq(pthread_create(&tw, NULL, writer_main, &w), 0);
    ck_assert_int_eq(pthread_create(&tt, NULL, toggler_main, &t), 0);
    ck_assert_int_eq(pthread_join(tt, NULL), 0);
    ck_assert_int_eq(pthread_join(tw, NULL), 0);
    ck_assert_int_eq(t.rc, 0);
    for (;;) {
        ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, d, sizeof d, &len, &unav), 0);
        if (unav)
            break;
        if (info.posix_event_id == POSIX_TRACE_START) {
            ck_assert_msg(!running, "START while running");
            running = 1;
        } else if (info.posix_event_id == POSIX_TRACE_STOP) {
            ck_assert_msg(running, "STOP while suspended");
            running = 0;
            stops++;
        } else {
            ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
            ck_assert_msg(running, "user event %d outside START..STOP", d[1]);
            ck_assert_msg(d[1] >= next, "user event %d after %d", d[1], next);
            next = d[1] + 1;
        }
    }
    ck_assert_int_eq(stops, 200);
    tu_shutdown(trid);
}
END_TEST

Suite *suite_threads(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tu_tcase("blocking");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_getnext_blocks_until_event);
    tcase_add_test(tc, test_getnext_woken_by_other_thread);
    tcase_add_test(tc, test_timedgetnext_woken_by_event);
    tcase_add_test(tc, test_getnext_woken_by_shutdown);
    tcase_add_test(tc, test_timedgetnext_woken_by_shutdown);
    tcase_add_test(tc, test_many_readers_woken_by_shutdown);
    suite_add_tcase(s, tc);

    tc = tu_tcase("concurrency");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_two_writers);
    tcase_add_test(tc, test_concurrent_reader_writers);
    tcase_add_test(tc, test_startstop_concurrent_with_writer);
    suite_add_tcase(s, tc);
    return s;
}
