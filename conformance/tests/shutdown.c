/* SPDX-License-Identifier: MIT */
/*
 * shutdown.c -- posix_trace_shutdown() (XSH posix_trace_create): it stops the
 * stream, frees it before returning, invalidates the trace id and unblocks
 * readers.
 *
 * Portable: an invalid trid is one that was shut down, used before any other
 * create in the process (ruling 25).  The tests that count streams against
 * {TRACE_SYS_MAX} assume no other process of the system creates streams while
 * they run ({TRACE_SYS_MAX} is system-wide).
 *
 * Not tested here, and why:
 *   shutdown.log-* (TRL), and shutdown with a trid from posix_trace_open
 *   (TRL): the TRL files.
 *   exit/exec/termination shutting streams down: process.c.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "ct.h"
#include "ct_stream.h"

CT_TEST(no_log, "shutdown.no-log", "TRC", "posix_trace_create,posix_trace_shutdown")
{
    /* A fresh (suspended) stream, and a running one with events in it. */
    trace_id_t a, b;
    trace_event_id_t id = ct_open_id("ct-nolog");
    CT_SETUP_OK(posix_trace_create(0, NULL, &a));
    CT_SETUP_OK(posix_trace_create(0, NULL, &b));
    CT_SETUP_OK(posix_trace_start(b));
    posix_trace_event(id, "abc", 3);
    CT_CHECK_OK(posix_trace_shutdown(a));
    CT_CHECK_OK(posix_trace_shutdown(b));
}

CT_TEST(stops, "shutdown.stops", "TRC",
        "posix_trace_shutdown,posix_trace_event,posix_trace_start")
{
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-stops");
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "before", 6);
    CT_CHECK_OK(posix_trace_shutdown(trid));
    /* "No effect": the call returns (it has no return value) and the process
     * goes on; a thousand of them too. */
    for (int i = 0; i < 1000; i++)
        posix_trace_event(id, "after", 5);
    /* The stream is gone, not running: its trid says so. */
    CT_CHECK_ERR(posix_trace_start(trid), EINVAL);
}

CT_TEST(trid_invalid, "shutdown.trid-invalid", "TRC",
        "posix_trace_shutdown,posix_trace_get_status,posix_trace_start,posix_trace_stop,"
        "posix_trace_clear")
{
    trace_id_t trid = ct_dead_stream();
    struct posix_trace_status_info st;
    CT_CHECK_ERR(posix_trace_get_status(trid, &st), EINVAL);
    CT_CHECK_ERR(posix_trace_start(trid), EINVAL);
    CT_CHECK_ERR(posix_trace_stop(trid), EINVAL);
    CT_CHECK_ERR(posix_trace_clear(trid), EINVAL);
}

CT_TEST(trid_invalid_running, "shutdown.trid-invalid", "TRC",
        "posix_trace_shutdown,posix_trace_get_status,posix_trace_get_attr")
{
    /* Shut down while running, with unread events. */
    trace_id_t trid;
    trace_attr_t a;
    struct posix_trace_status_info st;
    trace_event_id_t id = ct_open_id("ct-unread");
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "unread", 6);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_ERR(posix_trace_get_status(trid, &st), EINVAL);
    CT_CHECK_ERR(posix_trace_get_attr(trid, &a), EINVAL);
}

CT_TEST(einval, "shutdown.EINVAL", "TRC", "posix_trace_shutdown")
{
    trace_id_t trid = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_shutdown(trid), EINVAL);
}

CT_TEST(frees, "shutdown.frees", "TRC",
        "posix_trace_create,posix_trace_start,posix_trace_event,posix_trace_shutdown")
{
    /* Streams shut down with unread events in them give back everything:
     * many times {TRACE_SYS_MAX} create/record/shutdown rounds never fail. */
    long max = ct_limit_trace_sys_max();
    long rounds = 3 * (max > 0 && max < 400 ? max : CT_MIN_TRACE_SYS_MAX) + 10;
    trace_event_id_t id = ct_open_id("ct-frees");
    char data[32];
    memset(data, 'f', sizeof data);
    for (long i = 0; i < rounds; i++) {
        trace_id_t t[2];
        for (int k = 0; k < 2; k++) {
            int rc = posix_trace_create(0, NULL, &t[k]);
            CT_CHECK(rc == 0, "round %ld of %ld: create returned %d (%s) though every earlier"
                     " stream was shut down ({TRACE_SYS_MAX} = %ld)", i + 1, rounds, rc,
                     ct_errname(rc), max);
            CT_SETUP_OK(posix_trace_start(t[k]));
        }
        for (int e = 0; e < 50; e++)
            posix_trace_event(id, data, sizeof data);
        for (int k = 0; k < 2; k++)
            CT_CHECK_OK(posix_trace_shutdown(t[k]));
    }
    ct_note("%ld rounds of two streams", rounds);
}

/* The descriptors open in this process: their numbers (up to FD_SCAN) and
 * the files they are. */
#define FD_SCAN 256
struct fds {
    int open[FD_SCAN];
    struct stat st[FD_SCAN];
};

static void fds_now(struct fds *f)
{
    for (int i = 0; i < FD_SCAN; i++)
        f->open[i] = fcntl(i, F_GETFD) != -1 && fstat(i, &f->st[i]) == 0;
}

CT_TEST(leaves_descriptors, "shutdown.leaves-descriptors", "TRC",
        "posix_trace_create,posix_trace_start,posix_trace_event,posix_trace_shutdown")
{
    /* Streams given back free what is theirs (S0110), and only that: every
     * descriptor the program had open before (0, 1 and 2 made sure of)
     * is still open, on the same file, after streams of every full policy
     * were created, recorded into and shut down. */
    for (int i = 0; i < 3; i++)
        if (fcntl(i, F_GETFD) == -1 && open("/dev/null", O_RDWR) != i)
            CT_UNRESOLVED("descriptor %d is closed and /dev/null could not take its place", i);
    struct fds before, after;
    fds_now(&before);
    const int pol[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_LOOP };
    trace_event_id_t id = ct_open_id("ct-leaves-fds");
    for (int round = 0; round < 3; round++) {
        trace_attr_t a;
        trace_id_t t;
        CT_SETUP_OK(posix_trace_attr_init(&a));
        CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, pol[round]));
        CT_SETUP_OK(posix_trace_create(0, &a, &t));
        CT_SETUP_OK(posix_trace_start(t));
        for (unsigned i = 0; i < 20; i++)
            ct_record_seq(id, i);
        CT_CHECK_OK(posix_trace_shutdown(t));
        posix_trace_attr_destroy(&a);
    }
    fds_now(&after);
    for (int i = 0; i < FD_SCAN; i++)
        CT_CHECK(!before.open[i] || (after.open[i] && after.st[i].st_dev == before.st[i].st_dev &&
                                     after.st[i].st_ino == before.st[i].st_ino),
                 "descriptor %d, open before any stream was created, is %s after three"
                 " streams were created, recorded into and shut down", i,
                 after.open[i] ? "open on another file" : "closed");
}

CT_TEST(returns_after_free, "shutdown.returns-after-free", "TRC",
        "posix_trace_create,posix_trace_shutdown")
{
    /* Fill the system with streams, shut one down, create at once. */
    long max = ct_limit_trace_sys_max();
    long cap = max > 0 ? max + 1 : 1024;
    if (cap > 4097)
        CT_UNRESOLVED("{TRACE_SYS_MAX} = %ld: too many streams for a test", max);
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    (void)posix_trace_attr_setstreamsize(&a, 4096);
    trace_id_t *t = calloc((size_t)cap, sizeof *t);
    if (t == NULL)
        CT_UNRESOLVED("out of memory");
    long n = 0;
    int rc = 0;
    while (n < cap && (rc = posix_trace_create(0, &a, &t[n])) == 0)
        n++;
    if (rc != EAGAIN)
        CT_UNRESOLVED("after %ld creates, create returned %s, not EAGAIN: the system was"
                      " never full ({TRACE_SYS_MAX} = %ld)", n, ct_errname(rc), max);
    if (n == 0)
        CT_UNRESOLVED("not even one stream could be created (EAGAIN at once)");
    for (long k = 0; k < 3 && k < n; k++) {
        CT_SETUP_OK(posix_trace_shutdown(t[n - 1 - k]));
        rc = posix_trace_create(0, &a, &t[n - 1 - k]);
        CT_CHECK(rc == 0, "with %ld streams in existence (EAGAIN for one more), create right"
                 " after a shutdown returned %d (%s): shutdown must free the stream before it"
                 " returns", n, rc, ct_errname(rc));
    }
    for (long k = 0; k < n; k++)
        CT_CHECK_OK(posix_trace_shutdown(t[k]));
    free(t);
}

/* ---- readers blocked in getnext / timedgetnext ------------------------------------------ */

struct reader {
    trace_id_t trid;
    int timed;
    atomic_int started, done;
    int rc;
};

static void *reader_main(void *arg)
{
    struct reader *r = arg;
    struct posix_trace_event_info info;
    char data[16];
    size_t len;
    int unavailable;
    r->started = 1;
    if (r->timed) {
        struct timespec abst = ct_abstime_in_ms(10000);
        r->rc = posix_trace_timedgetnext_event(r->trid, &info, data, sizeof data, &len,
                                               &unavailable, &abst);
    } else {
        r->rc = posix_trace_getnext_event(r->trid, &info, data, sizeof data, &len,
                                          &unavailable);
    }
    r->done = 1;
    return NULL;
}

/* Waits up to ms for r to finish. */
static int finished_within(struct reader *r, long ms)
{
    for (long waited = 0; waited < ms; waited += 5) {
        if (r->done)
            return 1;
        ct_sleep_ms(5);
    }
    return r->done;
}

static void unblocks(int timed)
{
    struct reader r = { .timed = timed, .rc = -1 };
    pthread_t th;
    CT_SETUP_OK(posix_trace_create(0, NULL, &r.trid));     /* empty, suspended */
    CT_SETUP_OK(pthread_create(&th, NULL, reader_main, &r));
    ct_sleep_ms(100);
    if (r.done)
        CT_UNRESOLVED("%s on an empty stream returned %d (%s) at once, without blocking",
                      timed ? "timedgetnext" : "getnext", r.rc, ct_errname(r.rc));
    CT_CHECK_OK(posix_trace_shutdown(r.trid));
    if (!finished_within(&r, 1000))
        CT_FAIL("a thread blocked in %s is still blocked 1 s after shutdown of its stream:"
                " expected it to return EINVAL", timed ? "timedgetnext" : "getnext");
    pthread_join(th, NULL);
    CT_CHECK(r.rc == EINVAL, "the thread blocked in %s when the stream was shut down got %d"
             " (%s), expected EINVAL", timed ? "timedgetnext" : "getnext", r.rc,
             ct_errname(r.rc));
}

CT_TEST(unblocks_getnext, "shutdown.EINVAL-unblocks-readers", "TRC",
        "posix_trace_shutdown,posix_trace_getnext_event")
{
    unblocks(0);
}

CT_TEST(unblocks_timedgetnext, "shutdown.EINVAL-unblocks-readers", "TRC",
        "posix_trace_shutdown,posix_trace_timedgetnext_event")
{
    unblocks(1);
}

CT_TEST(unblocks_two_readers, "shutdown.EINVAL-unblocks-readers", "TRC",
        "posix_trace_shutdown,posix_trace_getnext_event,posix_trace_timedgetnext_event")
{
    /* Both kinds at once, on one stream; a second stream stays untouched. */
    trace_id_t trid, other;
    struct reader r[2] = { { .timed = 0, .rc = -1 }, { .timed = 1, .rc = -1 } };
    pthread_t th[2];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_create(0, NULL, &other));
    for (int i = 0; i < 2; i++) {
        r[i].trid = trid;
        CT_SETUP_OK(pthread_create(&th[i], NULL, reader_main, &r[i]));
    }
    ct_sleep_ms(100);
    if (r[0].done || r[1].done)
        CT_UNRESOLVED("a reader returned before the shutdown, without blocking");
    CT_CHECK_OK(posix_trace_shutdown(trid));
    for (int i = 0; i < 2; i++) {
        if (!finished_within(&r[i], 1000))
            CT_FAIL("the %s reader is still blocked 1 s after shutdown",
                    r[i].timed ? "timedgetnext" : "getnext");
        pthread_join(th[i], NULL);
        CT_CHECK(r[i].rc == EINVAL, "the %s reader got %d (%s) at shutdown, expected EINVAL",
                 r[i].timed ? "timedgetnext" : "getnext", r[i].rc, ct_errname(r[i].rc));
    }
    struct posix_trace_status_info st;
    CT_CHECK_OK(posix_trace_get_status(other, &st));
    CT_CHECK_OK(posix_trace_shutdown(other));
}
