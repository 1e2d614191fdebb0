/* SPDX-License-Identifier: MIT */
/*
 * get_attr_status.c -- posix_trace_get_attr() and posix_trace_get_status()
 * (XSH posix_trace_get_attr): a stream's attributes, its current status read
 * consistently, and the overrun status reset by each read.
 *
 * Portable: sizes read back from a stream are the sizes in force, at least
 * those set (ruling 22); the overrun status is compared with
 * POSIX_TRACE_NO_OVERRUN, never with 0 (ruling 14).  A stream is made full by
 * recording until get_status says FULL, its capacity unknown.
 *
 * Not tested here, and why:
 *   get_status.resets-log-overrun, .resets-flush-error, .prerecorded-final,
 *   get_attr of a trace log: TRL rules.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "ct.h"
#include "ct_stream.h"

/* ---- get_attr ------------------------------------------------------------------------ */

/* Creates a stream from an object holding name, policy and (when the setters
 * accept them) the sizes; checks get_attr reads them back (ruling 22). */
static void copies(const char *name, int policy, size_t streamsize, size_t maxdata)
{
    trace_attr_t a, sa;
    trace_id_t trid;
    char got[CT_NAME_BUF];
    int p = -12345;
    size_t s = 0, want_s = 0, want_d = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setname(&a, name));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, policy));
    if (posix_trace_attr_setstreamsize(&a, streamsize) != 0)
        ct_note("setstreamsize(%zu) refused: the default is checked", streamsize);
    if (posix_trace_attr_setmaxdatasize(&a, maxdata) != 0)
        ct_note("setmaxdatasize(%zu) refused: the default is checked", maxdata);
    CT_SETUP_OK(posix_trace_attr_getstreamsize(&a, &want_s));
    CT_SETUP_OK(posix_trace_attr_getmaxdatasize(&a, &want_d));
#if CT_HAVE_TRI
    int inh = -1;
    if (ct_option("TRI"))
        CT_SETUP_OK(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED));
#endif
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    CT_SETUP_OK(posix_trace_attr_init(&sa));
    CT_CHECK_OK(posix_trace_get_attr(trid, &sa));
    memset(got, 'x', sizeof got);
    CT_CHECK_OK(posix_trace_attr_getname(&sa, got));
    CT_CHECK(memchr(got, '\0', sizeof got) != NULL && strcmp(got, name) == 0,
             "get_attr gives trace-name \"%.40s\", expected \"%s\"",
             memchr(got, '\0', sizeof got) ? got : "(not terminated)", name);
    CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&sa, &p));
    CT_CHECK(p == policy, "get_attr gives stream-full-policy %d, expected %d", p, policy);
    CT_CHECK_OK(posix_trace_attr_getstreamsize(&sa, &s));
    CT_CHECK(s >= want_s, "get_attr gives stream-min-size %zu, less than the %zu set"
             " (ruling 22)", s, want_s);
    CT_CHECK_OK(posix_trace_attr_getmaxdatasize(&sa, &s));
    CT_CHECK(s >= want_d, "get_attr gives max-data-size %zu, less than the %zu set"
             " (ruling 22)", s, want_d);
#if CT_HAVE_TRI
    if (ct_option("TRI")) {
        CT_CHECK_OK(posix_trace_attr_getinherited(&sa, &inh));
        CT_CHECK(inh == POSIX_TRACE_INHERITED, "get_attr gives inheritance %d, expected"
                 " POSIX_TRACE_INHERITED (%d)", inh, POSIX_TRACE_INHERITED);
    }
#endif
    CT_CHECK_OK(posix_trace_attr_destroy(&sa));
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(attr_copies_until_full, "get_attr.copies", "TRC",
        "posix_trace_get_attr,posix_trace_create")
{
    copies("ct-copies", POSIX_TRACE_UNTIL_FULL, 3 * 4096 + 8, 48);
}

CT_TEST(attr_copies_loop, "get_attr.copies", "TRC", "posix_trace_get_attr,posix_trace_create")
{
    copies("ct-loop", POSIX_TRACE_LOOP, 100000, 8);
}

/* ---- get_status ------------------------------------------------------------------------ */

CT_TEST(status_current, "get_status.current", "TRC",
        "posix_trace_get_status,posix_trace_start,posix_trace_stop")
{
    static const int expect[] = { POSIX_TRACE_SUSPENDED, POSIX_TRACE_RUNNING,
                                  POSIX_TRACE_SUSPENDED, POSIX_TRACE_RUNNING };
    static const char *const after[] = { "create", "start", "stop", "start again" };
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    for (int i = 0; i < 4; i++) {
        if (i == 1 || i == 3)
            CT_SETUP_OK(posix_trace_start(trid));
        if (i == 2)
            CT_SETUP_OK(posix_trace_stop(trid));
        struct posix_trace_status_info st = ct_status(trid);
        CT_CHECK(st.posix_stream_status == expect[i], "after %s, posix_stream_status is %d"
                 " (%s), expected %s (%d)", after[i], st.posix_stream_status,
                 ct_state_name(st.posix_stream_status), ct_state_name(expect[i]), expect[i]);
        CT_CHECK(st.posix_stream_full_status == POSIX_TRACE_NOT_FULL, "after %s (no event"
                 " but START/STOP), posix_stream_full_status is %d, expected NOT_FULL (%d)",
                 after[i], st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

struct recorder {
    trace_event_id_t id;
    atomic_int *stop;
};

static void *record_main(void *arg)
{
    struct recorder *r = arg;
    char data[16];
    memset(data, 'r', sizeof data);
    while (!atomic_load(r->stop))
        for (int i = 0; i < 64; i++)
            posix_trace_event(r->id, data, sizeof data);
    return NULL;
}

CT_TEST(status_consistent, "get_status.consistent", "TRC",
        "posix_trace_get_status,posix_trace_event,posix_trace_trygetnext_event")
{
    /* Four threads record into an UNTIL_FULL stream while this one reads the
     * status and drains events (letting the stream fill, stop and restart):
     * every status read is a combination the policy allows. */
    enum { THREADS = 4 };
    trace_id_t trid = ct_small_stream(POSIX_TRACE_UNTIL_FULL);
    atomic_int stop = 0;
    struct recorder r = { ct_open_id("ct-consistent"), &stop };
    pthread_t th[THREADS];
    long seen[2][2] = { { 0, 0 }, { 0, 0 } }, reads = 0;
    CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < THREADS; i++)
        CT_SETUP_OK(pthread_create(&th[i], NULL, record_main, &r));
    struct timespec end = ct_abstime_in_ms(150), now;
    do {
        struct posix_trace_status_info st;
        int rc = posix_trace_get_status(trid, &st);
        if (rc != 0) {
            atomic_store(&stop, 1);
            CT_CHECK_OK(rc);
        }
        int run = st.posix_stream_status, full = st.posix_stream_full_status;
        int ok = (run == POSIX_TRACE_RUNNING || run == POSIX_TRACE_SUSPENDED) &&
                 (full == POSIX_TRACE_FULL || full == POSIX_TRACE_NOT_FULL) &&
                 (st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN ||
                  st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN) &&
                 !(run == POSIX_TRACE_RUNNING && full == POSIX_TRACE_FULL);
        if (!ok) {
            atomic_store(&stop, 1);
            CT_FAIL("get_status read %d (%s), full %d, overrun %d from an UNTIL_FULL stream"
                    " being recorded into: not a consistent status (RUNNING with FULL cannot"
                    " occur unless the policy is LOOP) after %ld good reads", run,
                    ct_state_name(run), full, st.posix_stream_overrun_status, reads);
        }
        seen[run == POSIX_TRACE_RUNNING][full == POSIX_TRACE_FULL]++;
        reads++;
        /* Read a few events: room frees up, the stream may restart. */
        if (reads % 8 == 0)
            for (int k = 0; k < 16; k++) {
                struct posix_trace_event_info info;
                char d[16];
                size_t len;
                int unavailable;
                if (posix_trace_trygetnext_event(trid, &info, d, sizeof d, &len,
                                                 &unavailable) != 0 || unavailable)
                    break;
            }
        clock_gettime(CLOCK_REALTIME, &now);
    } while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
    atomic_store(&stop, 1);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    ct_note("%ld status reads: RUNNING/NOT_FULL %ld, SUSPENDED/NOT_FULL %ld,"
            " SUSPENDED/FULL %ld", reads, seen[1][0], seen[0][0], seen[0][1]);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* Makes the overrun status OVERRUN without reading it (the last get_status
 * call of ct_fill() comes before the losses). */
static void overrun(trace_id_t trid, trace_event_id_t id)
{
    char data[16] = "lost";
    ct_fill(trid, id);
    for (int i = 0; i < 32; i++)
        posix_trace_event(id, data, sizeof data);
}

CT_TEST(resets_overrun_loop, "get_status.resets-overrun", "TRC", "posix_trace_get_status")
{
    trace_id_t trid = ct_small_stream(POSIX_TRACE_LOOP);
    trace_event_id_t id = ct_open_id("ct-overrun");
    CT_SETUP_OK(posix_trace_start(trid));
    overrun(trid, id);
    struct posix_trace_status_info st = ct_status(trid);
    if (st.posix_stream_overrun_status != POSIX_TRACE_OVERRUN)
        CT_UNRESOLVED("overwriting events of a full LOOP stream did not make its overrun"
                      " status OVERRUN (it is %d): nothing to reset",
                      st.posix_stream_overrun_status);
    st = ct_status(trid);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "the get_status after one that reported OVERRUN (nothing recorded in between)"
             " reports overrun status %d, expected POSIX_TRACE_NO_OVERRUN (%d) (ruling 14)",
             st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    st = ct_status(trid);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "a third get_status reports overrun status %d, expected NO_OVERRUN",
             st.posix_stream_overrun_status);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(resets_overrun_until_full, "get_status.resets-overrun", "TRC",
        "posix_trace_get_status")
{
    trace_id_t trid = ct_small_stream(POSIX_TRACE_UNTIL_FULL);
    trace_event_id_t id = ct_open_id("ct-overrun");
    CT_SETUP_OK(posix_trace_start(trid));
    overrun(trid, id);
    struct posix_trace_status_info st = ct_status(trid);
    if (st.posix_stream_overrun_status != POSIX_TRACE_OVERRUN)
        CT_UNRESOLVED("events generated while an UNTIL_FULL stream is full did not make the"
                      " overrun status OVERRUN (it is %d): nothing to reset",
                      st.posix_stream_overrun_status);
    st = ct_status(trid);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "the get_status after one that reported OVERRUN reports overrun status %d,"
             " expected POSIX_TRACE_NO_OVERRUN (%d) (ruling 14)",
             st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- return convention, EINVAL ----------------------------------------------------------- */

CT_TEST(return_convention, "get_attr.return-convention", "TRC",
        "posix_trace_get_attr,posix_trace_get_status")
{
    trace_id_t trid;
    trace_attr_t a;
    struct posix_trace_status_info st;
    int rc;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_attr_init(&a));
    errno = 0;
    rc = posix_trace_get_attr(trid, &a);
    CT_CHECK(rc == 0, "get_attr returned %d (%s), errno %s: expected 0", rc, ct_errname(rc),
             ct_errname(errno));
    errno = 0;
    rc = posix_trace_get_status(trid, &st);
    CT_CHECK(rc == 0, "get_status returned %d (%s), errno %s: expected 0", rc, ct_errname(rc),
             ct_errname(errno));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    errno = 0;
    rc = posix_trace_get_attr(trid, &a);
    CT_CHECK(rc == EINVAL, "get_attr of a shut-down trid returned %d (%s), errno %s: expected"
             " the error number EINVAL as return value", rc, ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_get_status(trid, &st);
    CT_CHECK(rc == EINVAL, "get_status of a shut-down trid returned %d (%s), errno %s:"
             " expected the error number EINVAL as return value", rc, ct_errname(rc),
             ct_errname(errno));
}

CT_TEST(get_attr_einval, "get_attr.EINVAL", "TRC", "posix_trace_get_attr")
{
    trace_id_t trid;
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_ERR(posix_trace_get_attr(trid, &a), EINVAL);
}

CT_TEST(get_status_einval, "get_status.EINVAL", "TRC", "posix_trace_get_status")
{
    trace_id_t trid;
    struct posix_trace_status_info st;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    CT_CHECK_ERR(posix_trace_get_status(trid, &st), EINVAL);
}
