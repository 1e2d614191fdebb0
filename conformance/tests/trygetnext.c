/* SPDX-License-Identifier: MIT */
/*
 * trygetnext.c -- posix_trace_trygetnext_event(): reads without ever
 * blocking (XSH posix_trace_getnext_event).
 *
 * Portable: "at once" is measured on CLOCK_MONOTONIC with a bound of half a
 * second, far above any scheduling delay of a call that does not wait and far
 * below the runner's time limit; an empty stream is made by reading until the
 * call says so (the implementation may have recorded START and events of its
 * own).  A watchdog thread records an event every second while the calls on
 * an empty stream run, so that a call that blocks ends the test FAIL, not
 * hung.
 *
 * Not tested here, and why:
 *   trygetnext.EINVAL-not-active  TRL: needs a pre-recorded stream (open).
 *   the buffer, truncation and order rules shared with getnext_event: getnext.c.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

/* Reads until the stream is empty (bounded: nothing records meanwhile).
 * Each call is a trygetnext_event too: it must not block. */
static void drain(trace_id_t trid)
{
    struct posix_trace_event_info info;
    char data[64];
    size_t len;
    int unavailable = 0;
    for (int n = 0; n < 10000; n++) {
        double t0 = ct_mono_now();
        CT_SETUP_OK(posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len,
                                                 &unavailable));
        double took = ct_mono_now() - t0;
        CT_CHECK(took < 0.5, "trygetnext_event took %.3f s to return (%s): it shall not"
                 " block", took, unavailable ? "no event" : "with an event");
        if (unavailable)
            return;
    }
    CT_UNRESOLVED("trygetnext_event still reports events after 10000 reads");
}

/* The watchdog: every second until stopped, records one event (into every
 * running stream of the process) and starts a suspended stream (which
 * records START there), so that a blocked call returns. */
static struct {
    pthread_t thread;
    trace_event_id_t id;
    trace_id_t suspended;
    atomic_int stop;
} dog;

static void *watchdog(void *unused)
{
    (void)unused;
    for (int t = 1; !atomic_load(&dog.stop); t++) {
        ct_sleep_ms(10);
        if (t % 100 == 0) {
            posix_trace_event(dog.id, "dog", 3);
            posix_trace_start(dog.suspended);
        }
    }
    return NULL;
}

static void watchdog_start(trace_id_t suspended)
{
    dog.suspended = suspended;
    dog.id = ct_open_id("ct.trygetnext.watchdog");
    atomic_store(&dog.stop, 0);
    CT_SETUP_OK(pthread_create(&dog.thread, NULL, watchdog, NULL));
}

static void watchdog_stop(void)
{
    atomic_store(&dog.stop, 1);
    pthread_join(dog.thread, NULL);
}

CT_TEST(reports, "trygetnext.reports", "TRC", "posix_trace_trygetnext_event")
{
    static const char payload[] = "trygetnext";
    trace_event_id_t id = ct_open_id("ct.trygetnext.reports");
    trace_id_t trid = ct_stream_for_data(sizeof payload, 1);
    struct posix_trace_event_info info;
    char data[64];
    size_t len;
    int unavailable, n = 0;
    posix_trace_event(id, payload, sizeof payload);

    do {
        int rc = posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len,
                                              &unavailable);
        CT_CHECK(rc == 0, "trygetnext_event on a RUNNING stream holding events returned %s",
                 ct_errname(rc));
        CT_CHECK(unavailable == 0, "trygetnext_event found no event (read %d before); the"
                 " user event recorded was not reported", n);
        n++;
    } while (!posix_trace_eventid_equal(trid, info.posix_event_id, id));
    CT_CHECK(len == sizeof payload && memcmp(data, payload, sizeof payload) == 0,
             "trygetnext_event reported the event with data_len %zu and data \"%.*s\","
             " expected the %zu bytes \"%s\"", len, (int)(len < sizeof data ? len : 0), data,
             sizeof payload, payload);
    CT_CHECK(info.posix_pid == getpid(), "posix_pid is %ld, expected %ld",
             (long)info.posix_pid, (long)getpid());
}

CT_TEST(no_block, "trygetnext.no-block", "TRC", "posix_trace_trygetnext_event")
{
    struct posix_trace_event_info info;
    char data[64];
    size_t len;
    int unavailable;
    trace_id_t suspended = ct_new_stream(NULL, 0), running = ct_new_stream(NULL, 1);
    trace_id_t streams[2] = { running, suspended };
    watchdog_start(suspended);
    drain(running);
    for (int k = 0; k < 2; k++) {
        double t0 = ct_mono_now();
        int rc = posix_trace_trygetnext_event(streams[k], &info, data, sizeof data, &len,
                                              &unavailable);
        double took = ct_mono_now() - t0;
        CT_CHECK(rc == 0, "trygetnext_event on an empty %s stream returned %s, expected 0",
                 k == 0 ? "RUNNING" : "SUSPENDED (never started)", ct_errname(rc));
        CT_CHECK(took < 0.5, "trygetnext_event on an empty %s stream took %.3f s to return:"
                 " it shall not block", k == 0 ? "RUNNING" : "SUSPENDED", took);
    }
    watchdog_stop();
}

CT_TEST(unavailable_zero, "trygetnext.unavailable-zero", "TRC", "posix_trace_trygetnext_event")
{
    trace_event_id_t id = ct_open_id("ct.trygetnext.zero");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct posix_trace_event_info info;
    char data[64];
    size_t len;
    int users = 0;
    for (int i = 0; i < 3; i++)
        posix_trace_event(id, &i, sizeof i);
    while (users < 3) {
        int unavailable = 12345;
        CT_CHECK_OK(posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len,
                                                 &unavailable));
        CT_CHECK(unavailable != 12345, "trygetnext_event returned 0 without setting"
                 " *unavailable");
        if (unavailable)
            CT_UNRESOLVED("the stream is empty after %d of the 3 user events", users);
        /* Any non-zero value means equal (XSH posix_trace_eventid_equal RETURN VALUE, S0151). */
        users += posix_trace_eventid_equal(trid, info.posix_event_id, id) != 0;
    }
    /* The reports above all set 0 (a non-zero value would have ended the loop
     * early); now one more report, with a different starting value. */
    posix_trace_event(id, "", 0);
    int unavailable = -1;
    CT_CHECK_OK(posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len,
                                             &unavailable));
    CT_CHECK(unavailable == 0, "trygetnext_event reported an event and set *unavailable to %d,"
             " expected 0", unavailable);
}

CT_TEST(unavailable_nonzero, "trygetnext.unavailable-nonzero", "TRC",
        "posix_trace_trygetnext_event")
{
    struct posix_trace_event_info info;
    char data[64];
    size_t len;
    int unavailable, rc;
    trace_id_t trid = ct_new_stream(NULL, 1), fresh = ct_new_stream(NULL, 0);
    watchdog_start(fresh);

    unavailable = 0;                            /* never started: empty */
    rc = posix_trace_trygetnext_event(fresh, &info, data, sizeof data, &len, &unavailable);
    CT_CHECK(rc == 0 && unavailable != 0,
             "trygetnext_event on a new, never started stream returned %s with *unavailable"
             " %d, expected 0 and a non-zero value", ct_errname(rc), unavailable);
    drain(trid);                                /* RUNNING, read empty */
    for (int k = 0; k < 2; k++) {
        unavailable = 0;
        rc = posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len, &unavailable);
        CT_CHECK(rc == 0 && unavailable != 0,
                 "trygetnext_event on a RUNNING stream read empty (call %d) returned %s with"
                 " *unavailable %d, expected 0 and a non-zero value", k + 1, ct_errname(rc),
                 unavailable);
    }
    watchdog_stop();
}

CT_TEST(einval_trid, "trygetnext.EINVAL-trid", "TRC", "posix_trace_trygetnext_event")
{
    struct posix_trace_event_info info;
    char data[64];
    size_t len;
    int unavailable;
    trace_id_t dead = ct_new_stream(NULL, 1);
    posix_trace_event(ct_open_id("ct.trygetnext.dead"), "", 0);
    CT_SETUP_OK(posix_trace_shutdown(dead));
    CT_CHECK_ERR(posix_trace_trygetnext_event(dead, &info, data, sizeof data, &len,
                                              &unavailable), EINVAL);
}
