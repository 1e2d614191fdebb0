/* SPDX-License-Identifier: MIT */
/*
 * check_create.c -- posix_trace_create and posix_trace_shutdown: which
 * processes may be traced, the {TRACE_SYS_MAX} limit, bad attributes, the
 * initial state of a stream, and trace ids that are no longer (or never
 * were, or are not in this process) valid.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* S0082, S0089, S0090, S0116: pid 0 traces the calling process; the id
 * stored in *trid designates an active stream. */
START_TEST(test_create_pid0)
{
    trace_id_t trid = 0;
    struct posix_trace_status_info st;
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0082, S0088: the caller's own pid is accepted (DESIGN: streams), and the
 * stream records the caller's events. */
START_TEST(test_create_own_pid)
{
    trace_id_t trid = 0;
    struct tu_ev ev;
    int rc = posix_trace_create(getpid(), NULL, &trid);
    ck_assert_msg(rc == 0, "create(getpid()): expected 0, got %d", rc);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 5);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_int_eq(ev.info.posix_pid, getpid());
    tu_shutdown(trid);
}
END_TEST

/* S0118 (ESRCH): a pid that does not exist (a reaped child) gives ESRCH. */
START_TEST(test_create_esrch)
{
    trace_id_t trid = 0;
    pid_t dead = tu_dead_pid();
    int rc = posix_trace_create(dead, NULL, &trid);
    ck_assert_msg(rc == ESRCH, "create(dead pid %d): expected ESRCH (%d), got %d",
                  (int)dead, ESRCH, rc);
}
END_TEST

/* S0088, S0118 (EPERM): another existing process (the parent) gives EPERM
 * (DESIGN: only the calling process can be traced). */
START_TEST(test_create_eperm_parent)
{
    trace_id_t trid = 0;
    pid_t pp = getppid();
    int rc = posix_trace_create(pp, NULL, &trid);
    ck_assert_msg(rc == EPERM, "create(parent %d): expected EPERM (%d), got %d",
                  (int)pp, EPERM, rc);
}
END_TEST

/* S0088, S0118 (EPERM): pid 1 exists and is another process: EPERM. */
START_TEST(test_create_eperm_init)
{
    trace_id_t trid = 0;
    int rc;
    if (getpid() == 1)
        return; /* we are init: nothing to test */
    rc = posix_trace_create(1, NULL, &trid);
    ck_assert_msg(rc == EPERM, "create(1): expected EPERM (%d), got %d", EPERM, rc);
}
END_TEST

/* S0118 (EAGAIN): streams can be created until {TRACE_SYS_MAX} exist at
 * once (DESIGN: per process), then EAGAIN; failed creations do not use up
 * a slot; shutting one down frees its slot. */
START_TEST(test_create_eagain_sys_max)
{
    long max = posix_trace_sysconf(_SC_TRACE_SYS_MAX);
    trace_id_t trids[TRACE_SYS_MAX + 8];
    trace_attr_t a, bad;
    int n = 0, rc = 0;

    ck_assert_int_eq(max, TRACE_SYS_MAX);
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 1024), 0);
    /* Failures first: they must not count. */
    memset(&bad, 0, sizeof bad);
    for (int i = 0; i < 3; i++) {
        trace_id_t t;
        ck_assert_int_eq(posix_trace_create(0, &bad, &t), EINVAL);
        ck_assert_int_eq(posix_trace_create(getppid(), &a, &t), EPERM);
    }
    while (n < TRACE_SYS_MAX + 8) {
        rc = posix_trace_create(0, &a, &trids[n]);
        if (rc != 0)
            break;
        tu_track(trids[n]);
        n++;
    }
    ck_assert_msg(rc == EAGAIN, "create #%d: expected EAGAIN (%d), got %d",
                  n + 1, EAGAIN, rc);
    ck_assert_msg(n == max, "streams created before EAGAIN: expected %ld, got %d",
                  max, n);
    /* Still EAGAIN on a second try. */
    {
        trace_id_t t;
        ck_assert_int_eq(posix_trace_create(0, &a, &t), EAGAIN);
    }
    /* Every id is distinct. */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            ck_assert_msg(trids[i] != trids[j], "ids %d and %d are equal (%lu)",
                          i, j, (unsigned long)trids[i]);
    /* Freeing one slot allows one more. */
    tu_shutdown(trids[n / 2]);
    ck_assert_int_eq(posix_trace_create(0, &a, &trids[n / 2]), 0);
    tu_track(trids[n / 2]);
    {
        trace_id_t t;
        ck_assert_int_eq(posix_trace_create(0, &a, &t), EAGAIN);
    }
    for (int i = 0; i < n; i++)
        tu_shutdown(trids[i]);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0083, S0118 (EINVAL): an attribute object that was never initialised
 * gives EINVAL. */
START_TEST(test_create_uninit_attr)
{
    trace_attr_t a;
    trace_id_t trid;
    memset(&a, 0, sizeof a);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), EINVAL);
}
END_TEST

/* S0083, S0118 (EINVAL): a destroyed attribute object gives EINVAL. */
START_TEST(test_create_destroyed_attr)
{
    trace_attr_t a;
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), EINVAL);
}
END_TEST

/* S0039, S0118 (EINVAL): the FLUSH policy is invalid for a stream without
 * a log: posix_trace_create gives EINVAL. */
START_TEST(test_create_flush_without_log)
{
    trace_attr_t a;
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_FLUSH), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), EINVAL);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0092, S0247, S0244: a new stream is suspended, not full, without
 * overrun, and empty; an event recorded before start is not recorded
 * (S0122). */
START_TEST(test_create_suspended)
{
    trace_id_t trid;
    struct posix_trace_status_info st;
    struct tu_ev ev;
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert(!tu_read1(trid, &ev));
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0084: a NULL attr gives a stream with the default attributes (DESIGN:
 * attribute defaults). */
START_TEST(test_create_null_attr_defaults)
{
    trace_id_t trid;
    trace_attr_t got;
    char name[TRACE_NAME_MAX], ver[TRACE_NAME_MAX];
    size_t s;
    int p;
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getname(&got, name), 0);
    ck_assert_str_eq(name, "");
    ck_assert_int_eq(posix_trace_attr_getgenversion(&got, ver), 0);
    ck_assert_str_eq(ver, "posixtrace-reference 0.1");
    ck_assert_int_eq(posix_trace_attr_getstreamsize(&got, &s), 0);
    ck_assert_uint_eq(s, 65536);
    ck_assert_int_eq(posix_trace_attr_getmaxdatasize(&got, &s), 0);
    ck_assert_uint_eq(s, 256);
    ck_assert_int_eq(posix_trace_attr_getstreamfullpolicy(&got, &p), 0);
    ck_assert_int_eq(p, POSIX_TRACE_LOOP);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0087, S0010, S0009: the creation time is CLOCK_REALTIME at creation. */
START_TEST(test_create_creation_time)
{
    trace_id_t trid;
    trace_attr_t got;
    struct timespec before, after, ct = { 0, 0 };
    before = tu_now();
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    after = tu_now();
    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getcreatetime(&got, &ct), 0);
    ck_assert_msg(tu_ns(ct) >= tu_ns(before) && tu_ns(ct) <= tu_ns(after),
                  "creation time %lld not within [%lld, %lld]", tu_ns(ct),
                  tu_ns(before), tu_ns(after));
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0090, S0091: several streams exist at once with distinct ids and are
 * controlled independently. */
START_TEST(test_create_several_independent)
{
    trace_id_t t1, t2;
    ck_assert_int_eq(posix_trace_create(0, NULL, &t1), 0);
    ck_assert_int_eq(posix_trace_create(0, NULL, &t2), 0);
    ck_assert_msg(t1 != t2, "two streams got the same id %lu", (unsigned long)t1);
    ck_assert_int_eq(posix_trace_start(t2), 0);
    ck_assert_int_eq(tu_status(t1).posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(tu_status(t2).posix_stream_status, POSIX_TRACE_RUNNING);
    tu_shutdown(t2);
    ck_assert_int_eq(tu_status(t1).posix_stream_status, POSIX_TRACE_SUSPENDED);
    tu_shutdown(t1);
}
END_TEST

/* S0108, S0120, S0153, S0171, S0182, S0221, S0234, S0071: after shutdown
 * the id is invalid: every function taking a trid gives EINVAL. */
START_TEST(test_shutdown_invalidates)
{
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_shutdown(trid);
    tu_assert_trid_invalid(trid, "after shutdown");
}
END_TEST

/* S0107, S0110, S0120: shutdown of a running stream that still holds
 * unread events succeeds and frees them (valgrind checks the freeing);
 * a second shutdown gives EINVAL. */
START_TEST(test_shutdown_with_unread_events)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    o.streamsize = 4096;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 200; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
    ck_assert_int_eq(posix_trace_shutdown(trid), EINVAL);
}
END_TEST

/* S0107: after shutdown, events are no longer recorded anywhere (another
 * stream created afterwards starts empty). */
START_TEST(test_shutdown_stops_tracing)
{
    trace_id_t t1, t2;
    struct tu_ev ev;
    ck_assert_int_eq(posix_trace_create(0, NULL, &t1), 0);
    ck_assert_int_eq(posix_trace_start(t1), 0);
    tu_shutdown(t1);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert_int_eq(posix_trace_create(0, NULL, &t2), 0);
    ck_assert(!tu_read1(t2, &ev));
    tu_shutdown(t2);
}
END_TEST

/* S0108, S0091: an id stays invalid even when a new stream reuses the
 * resources (DESIGN: shutdown), and the new stream is not reachable through
 * the old id. */
START_TEST(test_stale_id_after_reuse)
{
    trace_id_t old, fresh;
    ck_assert_int_eq(posix_trace_create(0, NULL, &old), 0);
    tu_shutdown(old);
    ck_assert_int_eq(posix_trace_create(0, NULL, &fresh), 0);
    ck_assert_msg(fresh != old, "new stream got the old id %lu", (unsigned long)old);
    ck_assert_int_eq(posix_trace_start(old), EINVAL);
    ck_assert_int_eq(tu_status(fresh).posix_stream_status, POSIX_TRACE_SUSPENDED);
    tu_assert_trid_invalid(old, "stale id");
    ck_assert_int_eq(tu_status(fresh).posix_stream_status, POSIX_TRACE_SUSPENDED);
    tu_shutdown(fresh);
}
END_TEST

/* S0071, S0120, S0153, S0171, S0182, S0221, S0234: ids that were never
 * returned by create are refused with EINVAL everywhere. */
START_TEST(test_bogus_ids)
{
    trace_id_t live;
    ck_assert_int_eq(posix_trace_create(0, NULL, &live), 0);
    tu_assert_trid_invalid(0, "id 0");
    tu_assert_trid_invalid((trace_id_t)-1, "id ~0");
    tu_assert_trid_invalid(live + 1, "live id + 1");
    tu_assert_trid_invalid(live ^ 0x5a5a0000UL, "scrambled id");
    ck_assert_int_eq(tu_status(live).posix_stream_status, POSIX_TRACE_SUSPENDED);
    tu_shutdown(live);
}
END_TEST

static int child_trid_einval(void *arg, char *msg, size_t len)
{
    return tu_trid_all_einval(*(trace_id_t *)arg, msg, len);
}

/* S0094, S0320: a trace id used in a child process gives EINVAL from every
 * function (checked inside the child); the parent's stream is intact. */
START_TEST(test_id_in_child_einval)
{
    trace_id_t trid;
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 42);
    tu_run_in_child(child_trid_einval, &trid);
    /* The child's shutdown attempt did nothing to the parent's stream. */
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 42);
    tu_shutdown(trid);
}
END_TEST

/* S0319, S0320, S0111: a child that records events and then exits (running
 * the exit-time shutdown of the streams it inherited a copy of) neither
 * records into nor shuts down the parent's stream. */
START_TEST(test_child_exit_leaves_parent_stream)
{
    trace_id_t trid;
    struct tu_ev evs[4];
    pid_t pid;
    int status;
    ck_assert_int_eq(posix_trace_create(0, NULL, &trid), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    fflush(NULL);
    pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 99);
        exit(0);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child status 0x%x", status);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 1);
    ck_assert_int_eq(evs[1].info.posix_pid, getpid());
    tu_shutdown(trid);
}
END_TEST

/* S0090, S0117: a NULL trid pointer gives EINVAL and creates no stream
 * (the reference checks it; DESIGN does not list it). */
START_TEST(test_create_null_trid)
{
    trace_id_t trids[TRACE_SYS_MAX];
    int n = 0;
    ck_assert_int_eq(posix_trace_create(0, NULL, NULL), EINVAL);
    /* No slot was used: TRACE_SYS_MAX streams can still be created. */
    while (n < TRACE_SYS_MAX && posix_trace_create(0, NULL, &trids[n]) == 0)
        tu_track(trids[n++]);
    ck_assert_int_eq(n, TRACE_SYS_MAX);
    for (int i = 0; i < n; i++)
        tu_shutdown(trids[i]);
}
END_TEST

Suite *suite_createshutdown(void)
{
    Suite *s = suite_create("create");
    TCase *tc;

    tc = tu_tcase("pid");
    tcase_add_test(tc, test_create_pid0);
    tcase_add_test(tc, test_create_own_pid);
    tcase_add_test(tc, test_create_esrch);
    tcase_add_test(tc, test_create_eperm_parent);
    tcase_add_test(tc, test_create_eperm_init);
    suite_add_tcase(s, tc);

    tc = tu_tcase("limits_attrs");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_create_eagain_sys_max);
    tcase_add_test(tc, test_create_uninit_attr);
    tcase_add_test(tc, test_create_destroyed_attr);
    tcase_add_test(tc, test_create_flush_without_log);
    tcase_add_test(tc, test_create_null_trid);
    suite_add_tcase(s, tc);

    tc = tu_tcase("new_stream");
    tcase_add_test(tc, test_create_suspended);
    tcase_add_test(tc, test_create_null_attr_defaults);
    tcase_add_test(tc, test_create_creation_time);
    tcase_add_test(tc, test_create_several_independent);
    suite_add_tcase(s, tc);

    tc = tu_tcase("shutdown");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_shutdown_invalidates);
    tcase_add_test(tc, test_shutdown_with_unread_events);
    tcase_add_test(tc, test_shutdown_stops_tracing);
    tcase_add_test(tc, test_stale_id_after_reuse);
    tcase_add_test(tc, test_bogus_ids);
    tcase_add_test(tc, test_id_in_child_einval);
    tcase_add_test(tc, test_child_exit_leaves_parent_stream);
    suite_add_tcase(s, tc);
    return s;
}
