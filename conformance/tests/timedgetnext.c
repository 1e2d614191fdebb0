/* SPDX-License-Identifier: MIT */
/*
 * timedgetnext.c -- posix_trace_timedgetnext_event(): a read that waits until
 * an absolute CLOCK_REALTIME time (XSH posix_trace_getnext_event).
 *
 * Portable: abstime is computed from CLOCK_REALTIME, as the function requires;
 * the length of a wait is measured on CLOCK_MONOTONIC; waits are at most
 * 200 ms (600 ms for the one signalled).  A watchdog thread records an
 * event 3 s into every wait, so that an implementation that waits on the
 * wrong clock (or forever) ends the test FAIL, with the time it waited,
 * rather than hanging until the runner's time limit.
 *
 * Not tested here, and why:
 *   timedgetnext.resolution, timedgetnext.EINTR  not testable (catalogue).
 *   timedgetnext on a pre-recorded stream: unspecified.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

#define WATCHDOG_MS 3000

struct rec {
    struct posix_trace_event_info info;
    size_t len;
    unsigned char data[64];
};

/* Reads until the stream is empty. */
static void drain(trace_id_t trid)
{
    struct rec r;
    int unavailable = 0;
    for (int n = 0; n < 100000; n++) {
        CT_SETUP_OK(posix_trace_trygetnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                                 &unavailable));
        if (unavailable)
            return;
    }
    CT_UNRESOLVED("trygetnext_event still reports events after 100000 reads");
}

/* The watchdog: records one event WATCHDOG_MS after it starts, unless
 * stopped first. */
static struct {
    pthread_t thread;
    trace_event_id_t id;
    atomic_int stop;
} dog;

static void *watchdog(void *unused)
{
    (void)unused;
    for (int t = 0; t < WATCHDOG_MS; t += 10) {
        if (atomic_load(&dog.stop))
            return NULL;
        ct_sleep_ms(10);
    }
    posix_trace_event(dog.id, "dog", 3);
    return NULL;
}

static void watchdog_start(void)
{
    dog.id = ct_open_id("ct.timedgetnext.watchdog");
    atomic_store(&dog.stop, 0);
    CT_SETUP_OK(pthread_create(&dog.thread, NULL, watchdog, NULL));
}

static void watchdog_stop(void)
{
    atomic_store(&dog.stop, 1);
    pthread_join(dog.thread, NULL);
}

static int timed(trace_id_t trid, struct rec *r, int *unavailable, const struct timespec *at)
{
    r->len = 0;
    return posix_trace_timedgetnext_event(trid, &r->info, r->data, sizeof r->data, &r->len,
                                          unavailable, at);
}

/* "returned 0 after 3.000 s with the watchdog's event" and the like. */
static const char *what_came(trace_id_t trid, const struct rec *r, int rc)
{
    if (rc == 0 && posix_trace_eventid_equal(trid, r->info.posix_event_id, dog.id))
        return " with the watchdog's event, recorded 3 s into the wait";
    return "";
}

CT_TEST(reports, "timedgetnext.reports", "TRC", "posix_trace_timedgetnext_event")
{
    static const char payload[] = "timed";
    trace_event_id_t id = ct_open_id("ct.timedgetnext.reports");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    posix_trace_event(id, payload, sizeof payload);

    /* abstime 3 s ahead, judged at 2 s: a call that waits towards abstime
     * fails, and a loaded machine has 2 s of slack (it had 0.5 s). */
    struct timespec at = ct_abstime_in_ms(3000);
    double t0 = ct_mono_now();
    do {
        unavailable = 12345;
        int rc = timed(trid, &r, &unavailable, &at);
        CT_CHECK(rc == 0 && unavailable == 0,
                 "timedgetnext_event on a stream holding events returned %s with"
                 " *unavailable %d, expected 0 and an event", ct_errname(rc), unavailable);
    } while (!posix_trace_eventid_equal(trid, r.info.posix_event_id, id));
    double took = ct_mono_now() - t0;
    CT_CHECK(r.len == sizeof payload && memcmp(r.data, payload, sizeof payload) == 0,
             "the event came with data_len %zu, expected the %zu bytes recorded", r.len,
             sizeof payload);
    CT_CHECK(took < 2.0, "with events present, timedgetnext_event took %.3f s (abstime 3 s"
             " ahead): it waited towards abstime", took);
}

CT_TEST(waits_until_abstime, "timedgetnext.waits-until-abstime", "TRC",
        "posix_trace_timedgetnext_event")
{
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    drain(trid);
    watchdog_start();
    struct timespec at = ct_abstime_in_ms(200), now;
    double t0 = ct_mono_now();
    int rc = timed(trid, &r, &unavailable, &at);
    clock_gettime(CLOCK_REALTIME, &now);
    double took = ct_mono_now() - t0;
    watchdog_stop();
    CT_CHECK(rc == ETIMEDOUT, "timedgetnext_event on an empty stream with abstime 200 ms ahead"
             " returned %s after %.3f s%s, expected ETIMEDOUT", ct_errname(rc), took,
             what_came(trid, &r, rc));
    CT_CHECK(now.tv_sec > at.tv_sec || (now.tv_sec == at.tv_sec && now.tv_nsec >= at.tv_nsec),
             "ETIMEDOUT came back at CLOCK_REALTIME {%lld s, %ld ns}, before abstime"
             " {%lld s, %ld ns}", (long long)now.tv_sec, now.tv_nsec, (long long)at.tv_sec,
             at.tv_nsec);
    CT_CHECK(took < 2.5, "the wait for an abstime 200 ms ahead lasted %.3f s", took);
}

/* SIGUSR1 caught, and nothing done: the wait it interrupts is the test. */
static void on_usr1(int sig)
{
    (void)sig;
}

/* Sends SIGUSR1 to the waiting thread three times, 100 ms apart. */
static void *signaller(void *arg)
{
    pthread_t waiter = *(pthread_t *)arg;
    for (int i = 0; i < 3; i++) {
        ct_sleep_ms(100);
        pthread_kill(waiter, SIGUSR1);
    }
    return NULL;
}

CT_TEST(signalled_wait, "timedgetnext.waits-until-abstime", "TRC",
        "posix_trace_timedgetnext_event")
{
    /* A signal caught during the wait either ends it with EINTR (the
     * function's error for an interrupted call) or the wait goes on: it is
     * no timeout, so ETIMEDOUT never comes before abstime (S0203). */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) != 0)
        CT_UNRESOLVED("sigaction(SIGUSR1): %s", ct_errname(errno));
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    drain(trid);
    watchdog_start();
    pthread_t self = pthread_self(), sender;
    CT_SETUP_OK(pthread_create(&sender, NULL, signaller, &self));
    struct timespec at = ct_abstime_in_ms(600), now;
    double t0 = ct_mono_now();
    int rc = timed(trid, &r, &unavailable, &at);
    clock_gettime(CLOCK_REALTIME, &now);
    double took = ct_mono_now() - t0;
    pthread_join(sender, NULL);
    watchdog_stop();
    int early = now.tv_sec < at.tv_sec || (now.tv_sec == at.tv_sec && now.tv_nsec < at.tv_nsec);
    CT_CHECK(rc == EINTR || rc == ETIMEDOUT, "timedgetnext_event on an empty stream, signalled"
             " during its wait, returned %s after %.3f s%s, expected EINTR or ETIMEDOUT",
             ct_errname(rc), took, what_came(trid, &r, rc));
    CT_CHECK(rc != ETIMEDOUT || !early, "timedgetnext_event signalled (SIGUSR1, caught) during"
             " its wait returned ETIMEDOUT after %.3f s, before abstime (600 ms ahead): a"
             " signal is no timeout", took);
}

CT_TEST(past_abstime, "timedgetnext.past-abstime", "TRC", "posix_trace_timedgetnext_event")
{
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    drain(trid);
    struct timespec past[2] = { ct_abstime_in_ms(-1000), { 0, 0 } };
    const char *what[2] = { "1 s ago", "the Epoch" };
    watchdog_start();
    for (int k = 0; k < 2; k++) {
        double t0 = ct_mono_now();
        int rc = timed(trid, &r, &unavailable, &past[k]);
        double took = ct_mono_now() - t0;
        CT_CHECK(rc == ETIMEDOUT, "timedgetnext_event on an empty stream with abstime %s"
                 " returned %s after %.3f s%s, expected ETIMEDOUT", what[k], ct_errname(rc),
                 took, what_came(trid, &r, rc));
        CT_CHECK(took < 0.5, "with abstime %s, ETIMEDOUT came only after %.3f s: expected at"
                 " once", what[k], took);
    }
    watchdog_stop();
}

CT_TEST(realtime_clock, "timedgetnext.realtime-clock", "TRC", "posix_trace_timedgetnext_event")
{
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    drain(trid);
    watchdog_start();
    struct timespec at = ct_abstime_in_ms(200);
    double t0 = ct_mono_now();
    int rc = timed(trid, &r, &unavailable, &at);
    double took = ct_mono_now() - t0;
    watchdog_stop();
    CT_CHECK(rc == ETIMEDOUT && took >= 0.150 && took < 2.5,
             "abstime = CLOCK_REALTIME + 200 ms: timedgetnext_event returned %s after %.3f s"
             " of CLOCK_MONOTONIC%s; expected ETIMEDOUT after about 0.2 s (a wait on another"
             " clock than CLOCK_REALTIME ends far earlier or later)", ct_errname(rc), took,
             what_came(trid, &r, rc));
}

CT_TEST(no_timeout_if_available, "timedgetnext.no-timeout-if-available", "TRC",
        "posix_trace_timedgetnext_event")
{
    trace_event_id_t id = ct_open_id("ct.timedgetnext.available");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    posix_trace_event(id, "here", 4);
    struct timespec past = ct_abstime_in_ms(-1000);
    do {
        unavailable = 12345;
        int rc = timed(trid, &r, &unavailable, &past);
        CT_CHECK(rc == 0 && unavailable == 0,
                 "with an event available and abstime already past, timedgetnext_event"
                 " returned %s (*unavailable %d), expected 0 and the event: no timeout while"
                 " an event is available", ct_errname(rc), unavailable);
    } while (!posix_trace_eventid_equal(trid, r.info.posix_event_id, id));
    CT_CHECK(r.len == 4 && memcmp(r.data, "here", 4) == 0,
             "the event came with data_len %zu, expected the 4 bytes recorded", r.len);
}

CT_TEST(abstime_unchecked, "timedgetnext.abstime-unchecked-if-available", "TRC",
        "posix_trace_timedgetnext_event")
{
    trace_event_id_t id = ct_open_id("ct.timedgetnext.unchecked");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    posix_trace_event(id, "x", 1);
    struct timespec bad = ct_abstime_in_ms(0);
    bad.tv_nsec = 1000000000L;
    int rc = timed(trid, &r, &unavailable, &bad);
    CT_CHECK(rc == 0 || rc == EINVAL,
             "with an event available and abstime tv_nsec 1000000000, timedgetnext_event"
             " returned %s; expected 0 (the event; abstime need not be checked) or EINVAL",
             ct_errname(rc));
    if (rc == 0)
        CT_CHECK(unavailable == 0, "timedgetnext_event returned 0 with an event available"
                 " but set *unavailable to %d", unavailable);
    else
        ct_note("the implementation checks abstime even with an event available");
}

CT_TEST(einval_trid, "timedgetnext.EINVAL-trid", "TRC", "posix_trace_timedgetnext_event")
{
    struct rec r;
    int unavailable;
    trace_id_t dead = ct_dead_stream();
    struct timespec at = ct_abstime_in_ms(100);
    CT_CHECK_ERR(timed(dead, &r, &unavailable, &at), EINVAL);
}

CT_TEST(einval_abstime, "timedgetnext.EINVAL-abstime", "TRC", "posix_trace_timedgetnext_event")
{
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    drain(trid);
    /* Every kind of tv_nsec outside 0..999999999: just above, just below,
     * further off, and the extremes of long. */
    static const long nsec[6] = { 1000000000L, -1, 1000000001L, -2, LONG_MAX, LONG_MIN };
    struct timespec bad[6];
    for (int k = 0; k < 6; k++) {
        bad[k] = ct_abstime_in_ms(1000);
        bad[k].tv_nsec = nsec[k];
    }
    watchdog_start();
    for (int k = 0; k < 6; k++) {
        double t0 = ct_mono_now();
        int rc = timed(trid, &r, &unavailable, &bad[k]);
        double took = ct_mono_now() - t0;
        CT_CHECK(rc == EINVAL, "timedgetnext_event on an empty stream with abstime tv_nsec"
                 " %ld returned %s after %.3f s%s, expected EINVAL", bad[k].tv_nsec,
                 ct_errname(rc), took, what_came(trid, &r, rc));
    }
    watchdog_stop();
}

CT_TEST(etimedout, "timedgetnext.ETIMEDOUT", "TRC", "posix_trace_timedgetnext_event")
{
    trace_event_id_t marker = ct_open_id("ct.timedgetnext.marker");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct rec r;
    int unavailable;
    drain(trid);
    watchdog_start();
    struct timespec at = ct_abstime_in_ms(50);
    int rc = timed(trid, &r, &unavailable, &at);
    watchdog_stop();
    CT_CHECK(rc == ETIMEDOUT, "timedgetnext_event with no event before abstime (50 ms ahead)"
             " returned %s%s, expected ETIMEDOUT", ct_errname(rc), what_came(trid, &r, rc));

    /* No event was reported or consumed: the next one read is the next recorded. */
    posix_trace_event(marker, "m", 1);
    int found = 0;
    while (!found) {
        CT_SETUP_OK(posix_trace_trygetnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                                 &unavailable));
        if (unavailable)
            CT_FAIL("after ETIMEDOUT, the event recorded next is missing from the stream");
        found = posix_trace_eventid_equal(trid, r.info.posix_event_id, marker);
    }
}
