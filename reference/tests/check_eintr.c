/* SPDX-License-Identifier: MIT */
/*
 * check_eintr.c -- the reference's EINTR behaviour, exactly
 * (reference/posix/CHOICES.md: "EINTR is never returned: waits resume after
 * a signal"; the rules create.EINTR, open.EINTR, getnext.EINTR... are the
 * implementation's choice and not portably testable, so this is the exact
 * check of the reference's choice; issue 20 item 3).
 *
 * A handler installed without SA_RESTART (so that a wait the C library
 * would give up on is interrupted), and signals sent again and again: to a
 * reader blocked in posix_trace_getnext_event and _timedgetnext_event, which
 * must go on waiting and return the event recorded afterwards; and to the
 * controller while it creates a stream with log, records, flushes, shuts
 * down, opens and reads the log, every call of which must succeed.
 */
#define _DEFAULT_SOURCE                 /* usleep */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>
#include "test_util.h"

static atomic_int signals_taken;

static void on_signal(int sig)
{
    (void)sig;
    atomic_fetch_add(&signals_taken, 1);
}

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;          /* no SA_RESTART: interrupt what can be */
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
}

struct reader {
    trace_id_t trid;
    int timed;
    int rc;
    trace_event_id_t got;
    atomic_int waiting;
};

static void *read_one(void *arg)
{
    struct reader *r = arg;
    struct posix_trace_event_info ev;
    char data[16];
    size_t len;
    int unavailable = 0;
    atomic_store(&r->waiting, 1);
    if (r->timed) {
        struct timespec far = tu_now_plus_ms(60000);
        r->rc = posix_trace_timedgetnext_event(r->trid, &ev, data, sizeof data, &len,
                                               &unavailable, &far);
    } else {
        r->rc = posix_trace_getnext_event(r->trid, &ev, data, sizeof data, &len, &unavailable);
    }
    r->got = ev.posix_event_id;
    return NULL;
}

static void blocked_reader_keeps_waiting(int timed)
{
    install_handler();
    atomic_store(&signals_taken, 0);
    trace_id_t trid = tu_stream_sim_started();
    tu_drain(trid);                                    /* START: the stream is empty */
    trace_event_id_t id;
    ck_assert_int_eq(posix_trace_eventid_open("eintr.ev", &id), 0);
    struct reader r = { .trid = trid, .timed = timed, .rc = -1 };
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, read_one, &r), 0);
    while (!atomic_load(&r.waiting))
        usleep(100);
    for (int i = 0; i < 50; i++) {                      /* the reader is blocked */
        pthread_kill(t, SIGUSR1);
        usleep(1000);
    }
    int taken = atomic_load(&signals_taken);
    posix_trace_event(id, "x", 1);
    pthread_join(t, NULL);
    ck_assert_msg(taken > 0, "no signal reached the reader");
    ck_assert_msg(r.rc == 0, "the reader returned %d (%s) after %d signals: expected 0, the"
                  " wait resumed (CHOICES.md)", r.rc, strerror(r.rc), taken);
    ck_assert_int_eq(r.got, id);
    tu_shutdown(trid);
}

START_TEST(test_getnext_resumes_after_signals)
{
    blocked_reader_keeps_waiting(0);
}
END_TEST

START_TEST(test_timedgetnext_resumes_after_signals)
{
    blocked_reader_keeps_waiting(1);
}
END_TEST

/* Every event of an opened log, read and counted. */
static int drain_log(trace_id_t trid)
{
    struct posix_trace_event_info ev;
    char data[16];
    size_t len;
    int unavailable = 0, n = 0;
    while (posix_trace_getnext_event(trid, &ev, data, sizeof data, &len, &unavailable) == 0 &&
           !unavailable)
        n++;
    return n;
}

static atomic_int storm_stop;

static void *storm(void *arg)
{
    pthread_t target = *(pthread_t *)arg;
    while (!atomic_load(&storm_stop)) {
        pthread_kill(target, SIGUSR1);
        usleep(200);
    }
    return NULL;
}

START_TEST(test_log_calls_succeed_under_signals)
{
    install_handler();
    atomic_store(&signals_taken, 0);
    atomic_store(&storm_stop, 0);
    pthread_t self = pthread_self(), t;
    ck_assert_int_eq(pthread_create(&t, NULL, storm, &self), 0);
    for (int round = 0; round < 20; round++) {
        FILE *f = tmpfile();
        ck_assert_ptr_nonnull(f);
        trace_attr_t a;
        trace_id_t trid;
        trace_event_id_t id;
        ck_assert_int_eq(posix_trace_attr_init(&a), 0);
        ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 1024), 0);
        ck_assert_int_eq(posix_trace_create_withlog(0, &a, fileno(f), &trid), 0);
        ck_assert_int_eq(posix_trace_eventid_open("eintr.log", &id), 0);
        ck_assert_int_eq(posix_trace_start(trid), 0);
        for (int i = 0; i < 200; i++)
            posix_trace_event(id, &i, sizeof i);
        ck_assert_int_eq(posix_trace_flush(trid), 0);
        ck_assert_int_eq(posix_trace_stop(trid), 0);
        ck_assert_int_eq(posix_trace_shutdown(trid), 0);
        posix_trace_attr_destroy(&a);
        ck_assert_int_eq(lseek(fileno(f), 0, SEEK_SET), 0);
        ck_assert_int_eq(posix_trace_open(fileno(f), &trid), 0);
        ck_assert_int_eq(drain_log(trid) > 200, 1);
        ck_assert_int_eq(posix_trace_close(trid), 0);
        fclose(f);
    }
    atomic_store(&storm_stop, 1);
    pthread_join(t, NULL);
    ck_assert_msg(atomic_load(&signals_taken) > 0, "no signal reached the controller");
}
END_TEST

Suite *suite_eintr(void)
{
    Suite *s = suite_create("eintr");
    TCase *tc = tcase_create("eintr");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_getnext_resumes_after_signals);
    tcase_add_test(tc, test_timedgetnext_resumes_after_signals);
    tcase_add_test(tc, test_log_calls_succeed_under_signals);
    suite_add_tcase(s, tc);
    return s;
}
