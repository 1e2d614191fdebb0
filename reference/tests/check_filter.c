/* SPDX-License-Identifier: MIT */
/*
 * check_filter.c -- the Trace Event Filter option (TEF): event type sets
 * (posix_trace_eventset_*), a stream's filter (posix_trace_get_filter,
 * posix_trace_set_filter), the FILTER event and the START event's data, and
 * posix_trace_trid_eventid_open (DESIGN: event sets, event filter).
 *
 * User event names are per process and limited: the tests open fixed names
 * (filter.a, ...), so that a CK_FORK=no run does not use up the limit; the
 * test that exhausts it runs in a forked child.
 */
#include "check_log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define SET_SIZE  sizeof(trace_event_set_t)

/* The id of a fixed user event name (opened if new; asserts a named id). */
static trace_event_id_t fixed_id(const char *name)
{
    trace_event_id_t id = 0;
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    ck_assert_uint_gt(id, POSIX_TRACE_UNNAMED_USEREVENT);
    return id;
}

/* A set holding the n ids given (empty + add, both asserted). */
static trace_event_set_t set_of(int n, const trace_event_id_t *ids)
{
    trace_event_set_t s;
    ck_assert_int_eq(posix_trace_eventset_empty(&s), 0);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(posix_trace_eventset_add(ids[i], &s), 0);
    return s;
}

static trace_event_set_t set1(trace_event_id_t a)
{
    return set_of(1, &a);
}

static trace_event_set_t set2(trace_event_id_t a, trace_event_id_t b)
{
    trace_event_id_t ids[2] = { a, b };
    return set_of(2, ids);
}

/* Asserts that the members of s are exactly ids[0..n-1], testing every id
 * below the limit with ismember. */
static void assert_members(const trace_event_set_t *s, const trace_event_id_t *ids, int n,
                           const char *what)
{
    for (trace_event_id_t id = 0; id < __POSIXTRACE_EVENT_ID_LIMIT; id++) {
        int want = 0, is = -1;
        for (int i = 0; i < n; i++)
            want |= ids[i] == id;
        ck_assert_int_eq(posix_trace_eventset_ismember(id, s, &is), 0);
        ck_assert_msg(is != -1, "%s: ismember(%u) did not store", what, id);
        ck_assert_msg((is != 0) == want, "%s: ismember(%u) = %d, expected %s", what, id, is,
                      want ? "member" : "not a member");
    }
}

/* The stream's filter (asserts success). */
static trace_event_set_t filter_of(trace_id_t trid)
{
    trace_event_set_t s;
    memset(&s, 0xa5, sizeof s);
    ck_assert_int_eq(posix_trace_get_filter(trid, &s), 0);
    return s;
}

/* Asserts that ev is a FILTER event carrying old then new (S0186). */
static void assert_filter_event(const struct tu_ev *ev, const trace_event_set_t *old,
                                const trace_event_set_t *new)
{
    ck_assert_int_eq(ev->info.posix_event_id, POSIX_TRACE_FILTER);
    ck_assert_uint_eq(ev->len, 2 * SET_SIZE);
    ck_assert_int_eq(ev->info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
    ck_assert_msg(memcmp(ev->data, old, SET_SIZE) == 0, "FILTER: old set differs");
    ck_assert_msg(memcmp(ev->data + SET_SIZE, new, SET_SIZE) == 0, "FILTER: new set differs");
}

/* Asserts that ev is a START event carrying the filter f (S0285). */
static void assert_start_event(const struct tu_ev *ev, const trace_event_set_t *f)
{
    ck_assert_int_eq(ev->info.posix_event_id, POSIX_TRACE_START);
    ck_assert_uint_eq(ev->len, SET_SIZE);
    ck_assert_msg(memcmp(ev->data, f, SET_SIZE) == 0, "START: data is not the filter in force");
}

/* ---- event sets ------------------------------------------------------------------ */

/* S0158: after empty no identifier is a member, whatever the set held. */
START_TEST(test_eventset_empty)
{
    trace_event_set_t s, zero;
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS), 0);
    ck_assert_int_eq(posix_trace_eventset_empty(&s), 0);
    assert_members(&s, NULL, 0, "empty");
    memset(&zero, 0, sizeof zero);
    ck_assert_mem_eq(&s, &zero, sizeof s);              /* DESIGN: all bits 0 */
}
END_TEST

/* S0156, S0157, S0162: add makes a member and leaves the others; adding a
 * member again and deleting a non-member succeed and change nothing; del
 * removes only its type. */
START_TEST(test_eventset_add_del)
{
    const trace_event_id_t a = POSIX_TRACE_STOP, b = 200;
    const trace_event_id_t ab[2] = { a, b };
    const trace_event_id_t last = __POSIXTRACE_EVENT_ID_LIMIT - 1;
    trace_event_set_t s, before;
    ck_assert_int_eq(posix_trace_eventset_empty(&s), 0);
    ck_assert_int_eq(posix_trace_eventset_add(a, &s), 0);
    assert_members(&s, &a, 1, "add a");
    ck_assert_int_eq(posix_trace_eventset_add(b, &s), 0);
    assert_members(&s, ab, 2, "add a, b");
    before = s;
    ck_assert_int_eq(posix_trace_eventset_add(b, &s), 0);       /* S0157 */
    ck_assert_mem_eq(&s, &before, sizeof s);
    ck_assert_int_eq(posix_trace_eventset_del(a, &s), 0);
    assert_members(&s, &b, 1, "del a");
    before = s;
    ck_assert_int_eq(posix_trace_eventset_del(a, &s), 0);       /* S0157 */
    ck_assert_mem_eq(&s, &before, sizeof s);
    /* the first and the last identifier */
    ck_assert_int_eq(posix_trace_eventset_add(0, &s), 0);
    ck_assert_int_eq(posix_trace_eventset_add(last, &s), 0);
    const trace_event_id_t ends[3] = { 0, b, last };
    assert_members(&s, ends, 3, "add 0, limit - 1");
    ck_assert_int_eq(posix_trace_eventset_del(last, &s), 0);
    ck_assert_int_eq(posix_trace_eventset_del(0, &s), 0);
    assert_members(&s, &b, 1, "del 0, limit - 1");
}
END_TEST

/* S0159, S0160: ALL_EVENTS holds every identifier below the limit, user
 * events opened or not; the bits past the limit stay 0 (DESIGN). */
START_TEST(test_eventset_fill_all)
{
    trace_event_set_t s, want;
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS), 0);
    for (trace_event_id_t id = 0; id < __POSIXTRACE_EVENT_ID_LIMIT; id++) {
        int is = 0;
        ck_assert_int_eq(posix_trace_eventset_ismember(id, &s, &is), 0);
        ck_assert_msg(is, "ALL_EVENTS: %u is not a member", id);
    }
    memset(&want, 0, sizeof want);
    for (unsigned id = 0; id < __POSIXTRACE_EVENT_ID_LIMIT; id++)
        want.__bits[id / 64] |= 1ull << (id % 64);
    ck_assert_mem_eq(&s, &want, sizeof s);
}
END_TEST

/* S0159, S0160, S0283, S0285: SYSTEM_EVENTS holds exactly the system events
 * of the supported options (TRC, TEF, TRL): no user event, not even the
 * unnamed one; and it replaces what the set held. */
START_TEST(test_eventset_fill_system)
{
    const trace_event_id_t sys[8] = {
        POSIX_TRACE_START, POSIX_TRACE_STOP, POSIX_TRACE_FILTER, POSIX_TRACE_OVERFLOW,
        POSIX_TRACE_RESUME, POSIX_TRACE_FLUSH_START, POSIX_TRACE_FLUSH_STOP, POSIX_TRACE_ERROR,
    };
    trace_event_set_t s;
    fixed_id("filter.a");
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS), 0);
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_SYSTEM_EVENTS), 0);
    assert_members(&s, sys, 8, "SYSTEM_EVENTS");
}
END_TEST

/* S0159, S0160, S0262, S0266, ruling 15 (DESIGN: event sets): WOPID_EVENTS
 * holds OVERFLOW, RESUME, FLUSH_STOP and ERROR, the system events that are
 * never associated with a process; a subset of SYSTEM_EVENTS. */
START_TEST(test_eventset_fill_wopid)
{
    const trace_event_id_t wopid[4] = {
        POSIX_TRACE_OVERFLOW, POSIX_TRACE_RESUME, POSIX_TRACE_FLUSH_STOP, POSIX_TRACE_ERROR,
    };
    trace_event_set_t s, sys;
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS), 0);
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_WOPID_EVENTS), 0);
    assert_members(&s, wopid, 4, "WOPID_EVENTS");
    ck_assert_int_eq(posix_trace_eventset_fill(&sys, POSIX_TRACE_SYSTEM_EVENTS), 0);
    for (int w = 0; w < (int)(sizeof s.__bits / sizeof s.__bits[0]); w++)
        ck_assert_msg((s.__bits[w] & ~sys.__bits[w]) == 0, "WOPID_EVENTS not in SYSTEM_EVENTS");
}
END_TEST

/* S0262, S0266 (ruling 15): every event of a WOPID_EVENTS type that a LOOP
 * stream reports (OVERFLOW, RESUME) and that an UNTIL_FULL stream records
 * has posix_pid 0 and posix_thread_id 0; START and STOP of calls (not in
 * the set) carry the caller's pid. */
START_TEST(test_wopid_events_have_no_pid)
{
    trace_event_set_t wopid;
    trace_event_id_t id = fixed_id("filter.a");
    struct tu_ev ev;
    pthread_t zero;
    int member_seen = 0, caller_seen = 0;
    memset(&zero, 0, sizeof zero);
    ck_assert_int_eq(posix_trace_eventset_fill(&wopid, POSIX_TRACE_WOPID_EVENTS), 0);
    for (int p = 0; p < 2; p++) {
        struct tu_opts o = { .policy = p ? POSIX_TRACE_UNTIL_FULL : POSIX_TRACE_LOOP,
                             .streamsize = 1024, .sim = 1, .step_ns = TU_SIM_STEP_NS };
        trace_id_t trid = tu_stream(&o);
        ck_assert_int_eq(posix_trace_start(trid), 0);
        for (int i = 0; i < 200; i++)
            tu_event_int(id, i);
        for (int pass = 0; pass < 2; pass++) {
            while (tu_read1(trid, &ev)) {
                int is = 0;
                ck_assert_int_eq(posix_trace_eventset_ismember(ev.info.posix_event_id, &wopid,
                                                               &is), 0);
                if (is) {
                    member_seen++;
                    ck_assert_int_eq(ev.info.posix_pid, 0);
                    ck_assert(memcmp(&ev.info.posix_thread_id, &zero, sizeof zero) == 0);
                } else if (ev.info.posix_pid == getpid()) {
                    caller_seen++;
                }
            }
            tu_event_int(id, -1);                       /* after the restart */
            ck_assert_int_eq(posix_trace_stop(trid), 0);
        }
        tu_shutdown(trid);
    }
    ck_assert_int_ge(member_seen, 2);                   /* OVERFLOW and RESUME */
    ck_assert_int_gt(caller_seen, 0);
}
END_TEST

/* S0164 (may fail: EINVAL, DESIGN): NULL pointers, a what that is none of
 * the three, an identifier at or past the limit; the set is unchanged. */
START_TEST(test_eventset_einval)
{
    const trace_event_id_t limit = __POSIXTRACE_EVENT_ID_LIMIT;
    trace_event_set_t s, before;
    int is = 7;
    ck_assert_int_eq(posix_trace_eventset_empty(NULL), EINVAL);
    ck_assert_int_eq(posix_trace_eventset_fill(NULL, POSIX_TRACE_ALL_EVENTS), EINVAL);
    ck_assert_int_eq(posix_trace_eventset_add(POSIX_TRACE_START, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_eventset_del(POSIX_TRACE_START, NULL), EINVAL);
    ck_assert_int_eq(posix_trace_eventset_ismember(POSIX_TRACE_START, NULL, &is), EINVAL);
    ck_assert_int_eq(posix_trace_eventset_empty(&s), 0);
    ck_assert_int_eq(posix_trace_eventset_add(POSIX_TRACE_STOP, &s), 0);
    before = s;
    ck_assert_int_eq(posix_trace_eventset_ismember(POSIX_TRACE_START, &s, NULL), EINVAL);
    const int bad[5] = { 0, 4, -1, 99, POSIX_TRACE_SET_EVENTSET + 100 };
    for (int i = 0; i < 5; i++) {
        if (bad[i] == POSIX_TRACE_WOPID_EVENTS || bad[i] == POSIX_TRACE_SYSTEM_EVENTS ||
            bad[i] == POSIX_TRACE_ALL_EVENTS)
            continue;
        ck_assert_int_eq(posix_trace_eventset_fill(&s, bad[i]), EINVAL);
        ck_assert_mem_eq(&s, &before, sizeof s);
    }
    ck_assert_int_eq(posix_trace_eventset_add(limit, &s), EINVAL);
    ck_assert_int_eq(posix_trace_eventset_add((trace_event_id_t)-1, &s), EINVAL);
    ck_assert_mem_eq(&s, &before, sizeof s);
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS), 0);
    before = s;
    ck_assert_int_eq(posix_trace_eventset_del(limit, &s), EINVAL);
    ck_assert_int_eq(posix_trace_eventset_del(limit + 64, &s), EINVAL);
    ck_assert_mem_eq(&s, &before, sizeof s);
    is = 7;
    ck_assert_int_eq(posix_trace_eventset_ismember(limit, &s, &is), EINVAL);
    ck_assert_int_eq(is, 7);
}
END_TEST

/* The functions work on the caller's object only: a set changed after it
 * was installed does not change the stream's filter (eventset_add page). */
START_TEST(test_eventset_objects_only)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t s = set1(a), f;
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_eventset_add(b, &s), 0);
    ck_assert_int_eq(posix_trace_eventset_del(a, &s), 0);
    f = filter_of(trid);
    assert_members(&f, &a, 1, "filter after the set changed");
    tu_shutdown(trid);
}
END_TEST

/* ---- get_filter and set_filter ---------------------------------------------------- */

/* S0093, S0183, S0185: a new stream's filter is empty, also in a slot
 * where a stream with a filter was shut down, and every event type opened
 * is recorded. */
START_TEST(test_filter_new_stream_empty)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t a = fixed_id("filter.a");
    trace_event_set_t f, zero, all;
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_eventset_fill(&all, POSIX_TRACE_ALL_EVENTS), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &all, POSIX_TRACE_SET_EVENTSET), 0);
    tu_shutdown(trid);
    trid = tu_stream_sim();
    f = filter_of(trid);
    assert_members(&f, NULL, 0, "new stream's filter");
    memset(&zero, 0, sizeof zero);
    ck_assert_mem_eq(&f, &zero, sizeof f);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(a, 1);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 2);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 3);
    ck_assert_int_eq(evs[1].info.posix_event_id, a);
    ck_assert_int_eq(evs[2].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    tu_shutdown(trid);
}
END_TEST

/* S0184, S0189-S0192, S0183, S0193: SET replaces the filter, ADD makes the
 * union, SUB the difference; get_filter gives it back. */
START_TEST(test_set_filter_how)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b"),
                     c = fixed_id("filter.c");
    trace_event_set_t s, f;
    const trace_event_id_t ab[2] = { a, b }, abc[3] = { a, b, c }, bc[2] = { b, c };

    s = set2(a, b);
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET), 0);
    f = filter_of(trid);
    assert_members(&f, ab, 2, "SET {a, b}");
    s = set2(b, c);
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_ADD_EVENTSET), 0);
    f = filter_of(trid);
    assert_members(&f, abc, 3, "ADD {b, c}");
    s = set2(a, POSIX_TRACE_ERROR);             /* ERROR: not in the filter */
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_SUB_EVENTSET), 0);
    f = filter_of(trid);
    assert_members(&f, bc, 2, "SUB {a, ERROR}");
    s = set1(c);
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET), 0);
    f = filter_of(trid);
    assert_members(&f, &c, 1, "SET {c}");
    ck_assert_int_eq(posix_trace_eventset_empty(&s), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET), 0);
    f = filter_of(trid);
    assert_members(&f, NULL, 0, "SET {}");
    /* with a full set: the bits past the limit stay 0 (DESIGN) */
    ck_assert_int_eq(posix_trace_eventset_fill(&s, POSIX_TRACE_ALL_EVENTS), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_ADD_EVENTSET), 0);
    f = filter_of(trid);
    ck_assert_mem_eq(&f, &s, sizeof f);
    ck_assert_int_eq(posix_trace_set_filter(trid, &s, POSIX_TRACE_SUB_EVENTSET), 0);
    f = filter_of(trid);
    assert_members(&f, NULL, 0, "SUB ALL");
    tu_shutdown(trid);
}
END_TEST

/* S0195, S0194, S0189: EINVAL for a bad how, a NULL set, a trace id that is
 * no active stream (shut down, never valid, a pre-recorded log); the filter
 * is left as it was and no FILTER event is recorded. */
START_TEST(test_filter_einval)
{
    trace_id_t trid = tu_stream_sim_started(), dead = tu_stream_sim();
    trace_event_id_t a = fixed_id("filter.a");
    trace_event_set_t s = set1(a), f;
    struct tu_ev evs[4];
    const int bad[4] = { 0, -1, 4, 1000 };
    for (int i = 0; i < 4; i++) {
        if (bad[i] == POSIX_TRACE_SET_EVENTSET || bad[i] == POSIX_TRACE_ADD_EVENTSET ||
            bad[i] == POSIX_TRACE_SUB_EVENTSET)
            continue;
        ck_assert_int_eq(posix_trace_set_filter(trid, &s, bad[i]), EINVAL);
    }
    ck_assert_int_eq(posix_trace_set_filter(trid, NULL, POSIX_TRACE_SET_EVENTSET), EINVAL);
    ck_assert_int_eq(posix_trace_get_filter(trid, NULL), EINVAL);
    f = filter_of(trid);
    assert_members(&f, NULL, 0, "filter after EINVAL");
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 1);     /* START only */
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);

    tu_shutdown(dead);
    ck_assert_int_eq(posix_trace_get_filter(dead, &f), EINVAL);
    ck_assert_int_eq(posix_trace_set_filter(dead, &s, POSIX_TRACE_SET_EVENTSET), EINVAL);
    ck_assert_int_eq(posix_trace_get_filter((trace_id_t)-1, &f), EINVAL);
    ck_assert_int_eq(posix_trace_set_filter(trid + 1, &s, POSIX_TRACE_ADD_EVENTSET), EINVAL);

    /* a pre-recorded stream (TRL): not an active stream */
    int fd = lu_tmpfile();
    struct lu_opts lo = { .sim = 1 };
    trace_id_t withlog = lu_create(&lo, fd);
    trace_id_t log = lu_shutdown_open(withlog, fd);
    ck_assert_int_eq(posix_trace_get_filter(log, &f), EINVAL);
    ck_assert_int_eq(posix_trace_set_filter(log, &s, POSIX_TRACE_SET_EVENTSET), EINVAL);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
    tu_shutdown(trid);
}
END_TEST

/* S0186, S0273, 2.11.2.1 (old_event_filter, new_event_filter): set_filter
 * on a RUNNING stream records FILTER carrying the old and the new filter,
 * for each how, even when the filter does not change; its origin is the
 * caller (pid, thread, address of the call). */
START_TEST(test_filter_event_running)
{
    trace_id_t trid = tu_stream_sim_started();
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t empty, sa = set1(a), sb = set1(b), sab = set2(a, b);
    struct tu_ev evs[8];
    ck_assert_int_eq(posix_trace_eventset_empty(&empty), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sb, POSIX_TRACE_ADD_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SUB_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sb, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 5);
    assert_start_event(&evs[0], &empty);
    assert_filter_event(&evs[1], &empty, &sa);
    assert_filter_event(&evs[2], &sa, &sab);
    assert_filter_event(&evs[3], &sab, &sb);
    assert_filter_event(&evs[4], &sb, &sb);             /* unchanged: still recorded */
    for (int i = 1; i < 5; i++) {
        ck_assert_int_eq(evs[i].info.posix_pid, getpid());
        ck_assert(pthread_equal(evs[i].info.posix_thread_id, pthread_self()));
        ck_assert_ptr_nonnull(evs[i].info.posix_prog_address);
        ck_assert_int_eq(tu_ns(evs[i].info.posix_timestamp), tu_sim_ts(i));
    }
    tu_shutdown(trid);
}
END_TEST

/* S0186, 2.11.2.1: no FILTER event on a SUSPENDED stream, never started
 * or stopped; the new filter is in force all the same. */
START_TEST(test_no_filter_event_suspended)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t sa = set1(a), sb = set1(b);
    struct tu_ev evs[8];
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sb, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_ADD_EVENTSET), 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 2);
    assert_start_event(&evs[0], &sa);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_STOP);
    tu_shutdown(trid);
}
END_TEST

/* S0285, S0283: START carries the filter in force when the stream starts,
 * one trace_event_set_t. */
START_TEST(test_start_carries_filter)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t sa = set1(a), sab = set2(a, b), sys;
    struct tu_ev evs[8];
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sab, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(posix_trace_eventset_fill(&sys, POSIX_TRACE_SYSTEM_EVENTS), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sys, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 5);
    assert_start_event(&evs[0], &sa);
    assert_start_event(&evs[2], &sab);
    assert_start_event(&evs[4], &sys);                  /* START itself is not filtered */
    tu_shutdown(trid);
}
END_TEST

/* S0228, S0285: "full" for start counts START's data.  An UNTIL_FULL stream
 * (2048 bytes, 120 kept for STOP: DESIGN) stopped with 72 bytes free has
 * room for an event without data, not for START with its filter (80):
 * start records nothing and changes nothing but the full status, and the
 * stream starts by itself once read empty. */
START_TEST(test_start_full_counts_filter)
{
    struct tu_opts o = { .policy = POSIX_TRACE_UNTIL_FULL, .streamsize = 1024, .sim = 1,
                         .step_ns = TU_SIM_STEP_NS };
    trace_id_t trid = tu_stream(&o);
    trace_event_set_t empty;
    struct tu_ev evs[64];
    ck_assert_int_eq(posix_trace_eventset_empty(&empty), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 36; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(posix_trace_stop(trid), 0);        /* 80 + 36 * 48 + 48 used */
    ck_assert_int_eq(posix_trace_start(trid), 0);
    struct posix_trace_status_info st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    int n = tu_read_all(trid, evs, 64);
    ck_assert_int_eq(n, 1 + 36 + 1 + 1);                /* START, 36, STOP(0), START */
    ck_assert_int_eq(evs[37].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ev_int(&evs[37]), 0);
    assert_start_event(&evs[38], &empty);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    tu_shutdown(trid);
}
END_TEST

/* S0122, S0291, ruling 20: an event of a type in the filter is not
 * recorded; the others are, in the same stream and in a stream that does
 * not filter it. */
START_TEST(test_filtered_not_recorded)
{
    trace_id_t t1 = tu_stream_sim_started(), t2 = tu_stream_sim_started();
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t sa = set2(a, POSIX_TRACE_UNNAMED_USEREVENT);
    struct tu_ev evs[16];
    ck_assert_int_eq(posix_trace_set_filter(t1, &sa, POSIX_TRACE_SET_EVENTSET), 0);
    tu_event_int(a, 1);
    tu_event_int(b, 2);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 3);
    tu_event_int(a, 4);
    ck_assert_int_eq(tu_read_all(t1, evs, 16), 3);      /* START FILTER b */
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_FILTER);
    ck_assert_int_eq(evs[2].info.posix_event_id, b);
    ck_assert_int_eq(tu_ev_int(&evs[2]), 2);
    ck_assert_int_eq(tu_read_all(t2, evs, 16), 5);      /* START and all four */
    ck_assert_int_eq(evs[1].info.posix_event_id, a);
    ck_assert_int_eq(evs[4].info.posix_event_id, a);
    ck_assert_int_eq(tu_ev_int(&evs[4]), 4);
    /* SUB takes a out of the filter: recorded again */
    trace_event_set_t just_a = set1(a);
    ck_assert_int_eq(posix_trace_set_filter(t1, &just_a, POSIX_TRACE_SUB_EVENTSET), 0);
    tu_event_int(a, 5);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 6);
    ck_assert_int_eq(tu_read_all(t1, evs, 16), 2);      /* FILTER a */
    ck_assert_int_eq(evs[1].info.posix_event_id, a);
    ck_assert_int_eq(tu_ev_int(&evs[1]), 5);
    tu_shutdown(t1);
    tu_shutdown(t2);
}
END_TEST

/* S0122 ("no effect"), S0245: a filtered event reaching an UNTIL_FULL
 * stream that stopped itself is not lost: the overrun status stays
 * NO_OVERRUN, while an event that is not filtered sets it. */
START_TEST(test_filtered_no_overrun)
{
    struct tu_opts o = { .policy = POSIX_TRACE_UNTIL_FULL, .streamsize = 1024, .sim = 1,
                         .step_ns = TU_SIM_STEP_NS };
    trace_id_t trid = tu_stream(&o);
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t sa = set1(a);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 100; i++)
        tu_event_int(b, i);
    struct posix_trace_status_info st = tu_status(trid);   /* resets the overrun */
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    tu_event_int(a, 1);
    ck_assert_int_eq(tu_status(trid).posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    tu_event_int(b, 1);
    ck_assert_int_eq(tu_status(trid).posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    tu_shutdown(trid);
}
END_TEST

/* S0226, S0229, S0063 (ruling 19: the reference keeps the filter): the
 * filter survives stop, start and clear. */
START_TEST(test_filter_survives_stop_start_clear)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t sa = set1(a), f;
    struct tu_ev evs[8];
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_clear(trid), 0);
    f = filter_of(trid);
    assert_members(&f, &a, 1, "filter after stop, start, clear");
    tu_event_int(a, 1);
    tu_event_int(b, 2);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 1);
    ck_assert_int_eq(evs[0].info.posix_event_id, b);
    tu_shutdown(trid);
}
END_TEST

/* DESIGN (event filter): the trace system's own events are recorded
 * whatever the filter: START, STOP, FILTER, OVERFLOW and RESUME of a LOOP
 * stream, the automatic STOP and START of UNTIL_FULL, FLUSH_START and
 * FLUSH_STOP of a stream with log.  posix_trace_event() of a system id, in
 * the filter, records nothing (the filter applies to all it records). */
START_TEST(test_system_events_not_filtered)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t b = fixed_id("filter.b");
    trace_event_set_t sys;
    struct tu_ev evs[64];
    int n, seen[9] = { 0 };
    ck_assert_int_eq(posix_trace_eventset_fill(&sys, POSIX_TRACE_SYSTEM_EVENTS), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sys, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sys, POSIX_TRACE_ADD_EVENTSET), 0);
    posix_trace_event(POSIX_TRACE_STOP, NULL, 0);       /* filtered */
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    n = tu_read_all(trid, evs, 64);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_FILTER);
    ck_assert_int_eq(evs[2].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ev_int(&evs[2]), 0);
    tu_shutdown(trid);

    /* LOOP: OVERFLOW and RESUME */
    struct tu_opts lo = { .policy = POSIX_TRACE_LOOP, .streamsize = 1024, .sim = 1,
                          .step_ns = TU_SIM_STEP_NS };
    trid = tu_stream(&lo);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sys, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 200; i++)
        tu_event_int(b, i);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    n = tu_read_all(trid, evs, 64);
    for (int i = 0; i < n; i++)
        if (evs[i].info.posix_event_id < 9)
            seen[evs[i].info.posix_event_id]++;
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_OVERFLOW);
    ck_assert_int_eq(evs[1].info.posix_event_id, POSIX_TRACE_RESUME);
    ck_assert_int_eq(seen[POSIX_TRACE_STOP], 1);
    tu_shutdown(trid);

    /* UNTIL_FULL: the automatic STOP, and START when a reader empties it */
    struct tu_opts uo = { .policy = POSIX_TRACE_UNTIL_FULL, .streamsize = 1024, .sim = 1,
                          .step_ns = TU_SIM_STEP_NS };
    trid = tu_stream(&uo);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sys, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 200; i++)
        tu_event_int(b, i);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_SUSPENDED);
    n = tu_read_all(trid, evs, 64);     /* emptying it restarts it: START is read last */
    ck_assert_int_ge(n, 4);
    ck_assert_int_eq(evs[n - 2].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ev_int(&evs[n - 2]), 1);
    assert_start_event(&evs[n - 1], &sys);
    ck_assert_int_eq(evs[n - 1].info.posix_pid, 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
    tu_shutdown(trid);

    /* with a log: FLUSH_START and FLUSH_STOP */
    int fd = lu_tmpfile();
    struct lu_opts wo = { .sim = 1 };
    trid = lu_create(&wo, fd);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sys, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(b, 1);
    ck_assert_int_eq(posix_trace_flush(trid), 0);
    lu_wait_flushed(trid);
    trace_id_t log = lu_shutdown_open(trid, fd);
    struct lu_ev *lev;
    size_t ln = lu_read_log(log, &lev);
    ck_assert_uint_eq(lu_count(lev, ln, POSIX_TRACE_START), 1);
    ck_assert_uint_eq(lu_count(lev, ln, POSIX_TRACE_FLUSH_START), 1);
    ck_assert_uint_eq(lu_count(lev, ln, POSIX_TRACE_FLUSH_STOP), 1);
    ck_assert_uint_eq(lu_count(lev, ln, POSIX_TRACE_STOP), 1);
    ck_assert_uint_eq(lu_count(lev, ln, b), 1);
    free(lev);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* S0184, S0186 with a log (create_withlog lists set_filter): the filter of
 * a stream with log works, and FILTER and START reach the log with their
 * data. */
START_TEST(test_filter_with_log)
{
    int fd = lu_tmpfile();
    struct lu_opts wo = { .sim = 1 };
    trace_id_t trid = lu_create(&wo, fd);
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    trace_event_set_t sa = set1(a), empty;
    ck_assert_int_eq(posix_trace_eventset_empty(&empty), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SET_EVENTSET), 0);
    tu_event_int(a, 1);
    tu_event_int(b, 2);
    trace_id_t log = lu_shutdown_open(trid, fd);
    struct lu_ev *lev;
    size_t n = lu_read_log(log, &lev);
    ck_assert_uint_eq(n, 4);                            /* START FILTER b STOP */
    ck_assert_int_eq(lev[0].info.posix_event_id, POSIX_TRACE_START);
    ck_assert_uint_eq(lev[0].len, SET_SIZE);
    ck_assert_mem_eq(lev[0].data, &empty, SET_SIZE);
    ck_assert_int_eq(lev[1].info.posix_event_id, POSIX_TRACE_FILTER);
    ck_assert_uint_eq(lev[1].len, 2 * SET_SIZE);
    ck_assert_mem_eq(lev[1].data, &empty, SET_SIZE);
    ck_assert_mem_eq(lev[1].data + SET_SIZE, &sa, SET_SIZE);
    ck_assert_int_eq(lev[2].info.posix_event_id, b);
    ck_assert_int_eq(lev[3].info.posix_event_id, POSIX_TRACE_STOP);
    free(lev);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* S0186, S0034 (DESIGN: event filter): FILTER is an event like the others
 * for the stream-full policy: on an UNTIL_FULL stream without room for it,
 * it is lost and the stream stops itself; the filter changes all the same.
 * The stream (DESIGN: event sizes): 1024 + 120 bytes (the STOP reserve)
 * rounded up to 2048; after START (80) and 37 events of 48 bytes, 72 bytes
 * are free: room for one more such event, not for FILTER (120). */
START_TEST(test_filter_event_until_full)
{
    struct tu_opts o = { .policy = POSIX_TRACE_UNTIL_FULL, .streamsize = 1024, .sim = 1,
                         .step_ns = TU_SIM_STEP_NS };
    trace_event_id_t a = fixed_id("filter.a");
    trace_event_set_t sa = set1(a), f;
    struct tu_ev evs[64];
    for (int k = 0; k < 2; k++) {
        trace_id_t trid = tu_stream(&o);
        int n, filters = 0;
        ck_assert_int_eq(posix_trace_start(trid), 0);
        for (int i = 0; i < 37; i++)
            tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
        ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
        if (k == 0) {
            /* the control: one more 48-byte event still fits */
            tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 37);
            ck_assert_int_eq(tu_status(trid).posix_stream_status, POSIX_TRACE_RUNNING);
            tu_shutdown(trid);
            continue;
        }
        ck_assert_int_eq(posix_trace_set_filter(trid, &sa, POSIX_TRACE_SET_EVENTSET), 0);
        f = filter_of(trid);
        assert_members(&f, &a, 1, "filter set on a full stream");
        struct posix_trace_status_info st = tu_status(trid);
        ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
        ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
        ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
        n = tu_read_all(trid, evs, 64);
        ck_assert_int_eq(n, 1 + 37 + 1 + 1);            /* START, 37, STOP, START */
        for (int i = 0; i < n; i++)
            filters += evs[i].info.posix_event_id == POSIX_TRACE_FILTER;
        ck_assert_int_eq(filters, 0);
        ck_assert_int_eq(evs[38].info.posix_event_id, POSIX_TRACE_STOP);
        ck_assert_int_eq(tu_ev_int(&evs[38]), 1);
        assert_start_event(&evs[39], &sa);              /* the restart: the new filter */
        tu_shutdown(trid);
    }
}
END_TEST

/* S0122, S0186, S0183: set_filter racing posix_trace_event.  Every event
 * recorded after a FILTER event is outside that FILTER's new set, and each
 * FILTER's old set is the previous one's new set: the filter and its
 * events change atomically with respect to recording. */
struct racer {
    trace_id_t trid;
    trace_event_set_t s[2];
    int rounds;
};

static void *toggle_filter(void *arg)
{
    struct racer *r = arg;
    for (int i = 0; i < r->rounds; i++)
        if (posix_trace_set_filter(r->trid, &r->s[i & 1], POSIX_TRACE_SET_EVENTSET) != 0)
            return arg;
    return NULL;
}

START_TEST(test_filter_race)
{
    struct tu_opts o = { .policy = POSIX_TRACE_UNTIL_FULL, .streamsize = 4u << 20 };
    trace_event_id_t a = fixed_id("filter.a"), b = fixed_id("filter.b");
    struct racer r = { .trid = tu_stream(&o), .s = { set1(a), set1(b) }, .rounds = 4000 };
    pthread_t th;
    ck_assert_int_eq(posix_trace_start(r.trid), 0);
    ck_assert_int_eq(pthread_create(&th, NULL, toggle_filter, &r), 0);
    for (int i = 0; i < 40000; i++)
        tu_event_int(i & 1 ? b : a, i);
    void *res = &r;
    ck_assert_int_eq(pthread_join(th, &res), 0);
    ck_assert_ptr_null(res);
    ck_assert_int_eq(posix_trace_stop(r.trid), 0);
    ck_assert_int_eq(tu_status(r.trid).posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);

    trace_event_set_t cur;
    struct tu_ev ev;
    long users = 0, filters = 0;
    ck_assert(tu_read1(r.trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    memcpy(&cur, ev.data, SET_SIZE);
    while (tu_read1(r.trid, &ev)) {
        trace_event_id_t id = ev.info.posix_event_id;
        if (id == POSIX_TRACE_FILTER) {
            LU_CHECK(memcmp(ev.data, &cur, SET_SIZE) == 0,
                     "FILTER #%ld: old set is not the filter in force", filters);
            memcpy(&cur, ev.data + SET_SIZE, SET_SIZE);
            filters++;
        } else if (id == a || id == b) {
            int is = 1;
            posix_trace_eventset_ismember(id, &cur, &is);
            LU_CHECK(!is, "event %u (#%ld) recorded while in the filter", id, users);
            users++;
        }
    }
    ck_assert_int_eq(filters, r.rounds);
    ck_assert_int_gt(users, 0);
    tu_shutdown(r.trid);
}
END_TEST

/* ---- trid_eventid_open -------------------------------------------------------------- */

/* S0140, S0143, S0144, S0149, S0137: trid_eventid_open maps a name as
 * eventid_open does in the traced process, in either order, on a stream
 * with or without log; eventid_get_name gives the name back. */
START_TEST(test_trid_eventid_open_maps)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t x = 0, y = 0, z = 0, w = 0;
    char name[TRACE_EVENT_NAME_MAX + 1];
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, "filter.trid.first", &x), 0);
    ck_assert_uint_gt(x, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_int_eq(posix_trace_eventid_open("filter.trid.first", &y), 0);
    ck_assert_uint_eq(x, y);
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, "filter.trid.first", &y), 0);
    ck_assert_uint_eq(x, y);
    ck_assert_int_eq(posix_trace_eventid_open("filter.trid.second", &z), 0);
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, "filter.trid.second", &w), 0);
    ck_assert_uint_eq(z, w);
    ck_assert_uint_ne(x, z);                            /* S0143: distinct names */
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, x, name), 0);
    ck_assert_str_eq(name, "filter.trid.first");
    /* another stream of the same traced process, one with log: the same mapping */
    int fd = lu_tmpfile();
    struct lu_opts wo = { .sim = 1 };
    trace_id_t withlog = lu_create(&wo, fd);
    ck_assert_int_eq(posix_trace_trid_eventid_open(withlog, "filter.trid.first", &y), 0);
    ck_assert_uint_eq(x, y);
    ck_assert_int_eq(posix_trace_shutdown(withlog), 0);
    close(fd);
    tu_shutdown(trid);
}
END_TEST

/* S0142, S0154 (ruling 24): a name of TRACE_EVENT_NAME_MAX characters is
 * mapped whole; one more gives ENAMETOOLONG.  NULL arguments: EINVAL. */
START_TEST(test_trid_eventid_open_name_max)
{
    trace_id_t trid = tu_stream_sim();
    char name[TRACE_EVENT_NAME_MAX + 2], got[TRACE_EVENT_NAME_MAX + 1];
    trace_event_id_t id = 0, id2 = 0;
    memset(name, 'f', TRACE_EVENT_NAME_MAX);
    name[TRACE_EVENT_NAME_MAX] = '\0';
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, name, &id), 0);
    ck_assert_int_eq(posix_trace_eventid_get_name(trid, id, got), 0);
    ck_assert_str_eq(got, name);
    ck_assert_int_eq(posix_trace_eventid_open(name, &id2), 0);
    ck_assert_uint_eq(id, id2);
    name[TRACE_EVENT_NAME_MAX] = 'f';
    name[TRACE_EVENT_NAME_MAX + 1] = '\0';
    id = 12345;
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, name, &id), ENAMETOOLONG);
    ck_assert_uint_eq(id, 12345);
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, NULL, &id), EINVAL);
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, "filter.a", NULL), EINVAL);
    tu_shutdown(trid);
}
END_TEST

/* S0141, S0153: EINVAL for a trace id that is no active stream: shut down,
 * never valid, a pre-recorded log; checked before the name (a name too long
 * with a bad trace id gives EINVAL). */
START_TEST(test_trid_eventid_open_einval)
{
    trace_id_t dead = tu_stream_sim();
    trace_event_id_t id = 12345;
    char longname[TRACE_EVENT_NAME_MAX + 2];
    memset(longname, 'g', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    tu_shutdown(dead);
    ck_assert_int_eq(posix_trace_trid_eventid_open(dead, "filter.a", &id), EINVAL);
    ck_assert_int_eq(posix_trace_trid_eventid_open(dead, longname, &id), EINVAL);
    ck_assert_int_eq(posix_trace_trid_eventid_open((trace_id_t)-1, "filter.a", &id), EINVAL);
    ck_assert_uint_eq(id, 12345);
    int fd = lu_tmpfile();
    struct lu_opts wo = { .sim = 1 };
    trace_id_t log = lu_shutdown_open(lu_create(&wo, fd), fd);
    ck_assert_int_eq(posix_trace_trid_eventid_open(log, "filter.a", &id), EINVAL);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* The child of test_trid_eventid_open_child: opens a name, sends its id up,
 * waits for the go, opens a second name (mapped already by the controller),
 * sends its id, records both; exits 0, or nonzero on an error. */
static void child_names(int up, int go)
{
    trace_event_id_t pad, x, y;
    char c;
    /* a name of its own first: its ids differ from the controller's */
    if (posix_trace_eventid_open("filter.child.pad", &pad) != 0)
        _exit(1);
    if (posix_trace_eventid_open("filter.child.x", &x) != 0 || write(up, &x, sizeof x) != sizeof x)
        _exit(2);
    if (read(go, &c, 1) != 1)
        _exit(3);
    if (posix_trace_eventid_open("filter.child.y", &y) != 0 || write(up, &y, sizeof y) != sizeof y)
        _exit(4);
    posix_trace_event(x, "x", 1);
    posix_trace_event(y, "y", 1);
    _exit(0);
}

/* S0146, S0147, S0141 (TRI; DESIGN: name spaces), S0122: a controller
 * tracing its child by pid maps names in the child's name space: a name the
 * child opened gets the child's id, a name the controller opens first keeps
 * its id when the child opens it; and the filter applies to the child's
 * events, recorded in the shared stream. */
START_TEST(test_trid_eventid_open_child)
{
    int up[2], go[2];
    ck_assert_int_eq(pipe(up), 0);
    ck_assert_int_eq(pipe(go), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(up[0]);
        close(go[1]);
        child_names(up[1], go[0]);
    }
    close(up[1]);
    close(go[0]);
    trace_event_id_t cx = 0, cy = 0, px = 0, py = 0;
    ck_assert_int_eq(read(up[0], &cx, sizeof cx), (ssize_t)sizeof cx);
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_create(pid, NULL, &trid), 0);
    tu_track(trid);
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, "filter.child.x", &px), 0);
    ck_assert_uint_eq(px, cx);
    ck_assert_int_eq(posix_trace_trid_eventid_open(trid, "filter.child.y", &py), 0);
    ck_assert_uint_ne(py, px);
    trace_event_set_t f = set1(py);
    ck_assert_int_eq(posix_trace_set_filter(trid, &f, POSIX_TRACE_SET_EVENTSET), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(write(go[1], "g", 1), 1);
    ck_assert_int_eq(read(up[0], &cy, sizeof cy), (ssize_t)sizeof cy);
    ck_assert_uint_eq(cy, py);
    int status = -1;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(up[0]);
    close(go[1]);
    struct tu_ev evs[8];
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 2);     /* START, x: y is filtered */
    assert_start_event(&evs[0], &f);
    ck_assert_int_eq(evs[1].info.posix_event_id, cx);
    ck_assert_int_eq(evs[1].info.posix_pid, pid);
    tu_shutdown(trid);
}
END_TEST

/* In a forked child (no Check assertion): the child has no stream of its
 * parent (S0094), so it makes its own. */
static int child_trid_limit(void *arg, char *msg, size_t len)
{
    trace_id_t trid;
    trace_event_id_t id = 0, via_process = 0;
    char name[64];
    int named = 0, rc;
    (void)arg;
    rc = posix_trace_create(0, NULL, &trid);
    if (rc != 0) {
        snprintf(msg, len, "posix_trace_create: %d", rc);
        return 1;
    }
    for (int i = 0; i < TRACE_USER_EVENT_MAX + 10; i++) {
        snprintf(name, sizeof name, "filter.limit.%d", i);
        rc = i % 2 ? posix_trace_trid_eventid_open(trid, name, &id)
                   : posix_trace_eventid_open(name, &id);
        if (rc != 0) {
            snprintf(msg, len, "open(%s): %d", name, rc);
            return 2;
        }
        if (id == POSIX_TRACE_UNNAMED_USEREVENT)
            break;
        named++;
    }
    if (id != POSIX_TRACE_UNNAMED_USEREVENT) {
        snprintf(msg, len, "the limit was never reached (%d names)", named);
        return 3;
    }
    rc = posix_trace_trid_eventid_open(trid, "filter.limit.more", &id);
    posix_trace_eventid_open("filter.limit.more", &via_process);
    if (rc != 0 || id != POSIX_TRACE_UNNAMED_USEREVENT || via_process != id) {
        snprintf(msg, len, "past the limit: rc %d, id %u, eventid_open %u", rc, id,
                 via_process);
        return 4;
    }
    posix_trace_shutdown(trid);
    return 0;
}

/* S0145, S0148, S0127 (ruling 21): once the process's user event ids are
 * used up, trid_eventid_open of a new name returns 0 and the unnamed user
 * event, as eventid_open does.  In a forked child: it uses up the names. */
START_TEST(test_trid_eventid_open_limit)
{
    tu_run_in_child(child_trid_limit, NULL);
}
END_TEST

Suite *suite_filter(void)
{
    Suite *s = suite_create("filter");
    TCase *tc = tu_tcase("eventset");
    tcase_add_test(tc, test_eventset_empty);
    tcase_add_test(tc, test_eventset_add_del);
    tcase_add_test(tc, test_eventset_fill_all);
    tcase_add_test(tc, test_eventset_fill_system);
    tcase_add_test(tc, test_eventset_fill_wopid);
    tcase_add_test(tc, test_wopid_events_have_no_pid);
    tcase_add_test(tc, test_eventset_einval);
    tcase_add_test(tc, test_eventset_objects_only);
    suite_add_tcase(s, tc);
    tc = tu_tcase("filter");
    tcase_add_test(tc, test_filter_new_stream_empty);
    tcase_add_test(tc, test_set_filter_how);
    tcase_add_test(tc, test_filter_einval);
    tcase_add_test(tc, test_filter_event_running);
    tcase_add_test(tc, test_no_filter_event_suspended);
    tcase_add_test(tc, test_start_carries_filter);
    tcase_add_test(tc, test_start_full_counts_filter);
    tcase_add_test(tc, test_filtered_not_recorded);
    tcase_add_test(tc, test_filtered_no_overrun);
    tcase_add_test(tc, test_filter_survives_stop_start_clear);
    tcase_add_test(tc, test_system_events_not_filtered);
    tcase_add_test(tc, test_filter_with_log);
    tcase_add_test(tc, test_filter_event_until_full);
    tcase_add_test(tc, test_filter_race);
    suite_add_tcase(s, tc);
    tc = tu_tcase("trid_eventid_open");
    tcase_add_test(tc, test_trid_eventid_open_maps);
    tcase_add_test(tc, test_trid_eventid_open_name_max);
    tcase_add_test(tc, test_trid_eventid_open_einval);
    tcase_add_test(tc, test_trid_eventid_open_limit);
    tcase_add_test(tc, test_trid_eventid_open_child);
    suite_add_tcase(s, tc);
    return s;
}
