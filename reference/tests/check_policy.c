/* SPDX-License-Identifier: MIT */
/*
 * check_policy.c -- the stream-full policies LOOP and UNTIL_FULL (DESIGN:
 * stream-full policies), the OVERFLOW / RESUME events with their exact
 * timestamps (simulated clock), overrun and full status, and the lossless
 * guarantee of the event sizes (S0054).
 */
#include "test_util.h"

#include <posixtrace_counts.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#define SMALL 1024  /* stream-min-size of the small streams */

static trace_id_t small_stream(int policy)
{
    struct tu_opts o = { 0 };
    o.policy = policy;
    o.streamsize = SMALL;
    o.sim = 1;
    o.step_ns = TU_SIM_STEP_NS;
    return tu_stream(&o);
}

/* Records user events carrying 0, 1, 2, ... and reads the status after
 * each, until the full status is FULL.  Returns the number of events
 * recorded (the last one, number n-1, made the stream full); *st receives
 * the status read after it. */
static int fill_until_full(trace_id_t trid, int first, struct posix_trace_status_info *st)
{
    for (int n = 0; n < 100000; n++) {
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, first + n);
        *st = tu_status(trid);
        if (st->posix_stream_full_status == POSIX_TRACE_FULL)
            return n + 1;
    }
    ck_abort_msg("stream never became full");
    return -1;
}

static size_t maxuser(size_t len)
{
    trace_attr_t a;
    size_t s = 0;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxusereventsize(&a, len, &s), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    return s;
}

static size_t maxsys(void)
{
    trace_attr_t a;
    size_t s = 0;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_getmaxsystemeventsize(&a, &s), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    return s;
}

static int is_zero_thread(pthread_t t)
{
    pthread_t z;
    memset(&z, 0, sizeof z);
    return memcmp(&t, &z, sizeof t) == 0;
}

/* Checks an OVERFLOW or RESUME event: no process, thread or address, no
 * data (S0262, S0266), timestamp ts. */
static void check_marker(const struct tu_ev *ev, trace_event_id_t id, long long ts)
{
    ck_assert_msg(ev->info.posix_event_id == id, "event id %u, expected %u",
                  ev->info.posix_event_id, id);
    ck_assert_msg(tu_ns(ev->info.posix_timestamp) == ts,
                  "event %u: timestamp %lld, expected %lld", id,
                  tu_ns(ev->info.posix_timestamp), ts);
    ck_assert_int_eq(ev->info.posix_pid, 0);
    ck_assert_msg(is_zero_thread(ev->info.posix_thread_id), "event %u: thread not 0", id);
    ck_assert_ptr_null(ev->info.posix_prog_address);
    ck_assert_uint_eq(ev->len, 0);
}

/* S0032, S0033, S0248, S0244: LOOP: when an event does not fit, the stream
 * stays RUNNING, becomes FULL and OVERRUN (and S0054: not before the sizes
 * allow it). */
START_TEST(test_loop_full_status)
{
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    struct posix_trace_status_info st;
    int n;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n = fill_until_full(trid, 0, &st);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    ck_assert_msg(maxsys() + (size_t)n * maxuser(sizeof(int)) > SMALL,
                  "S0054: loss after %d events of max size %zu (+ START %zu) in %d bytes",
                  n, maxuser(sizeof(int)), maxsys(), SMALL);
    tu_shutdown(trid);
}
END_TEST

/* S0274, S0275, S0279, S0280, S0033, S0216: LOOP overwrites the oldest
 * events; the reader gets OVERFLOW stamped with the first event
 * overwritten (START), RESUME stamped with the first surviving event, then
 * the survivors in order up to the newest one. */
START_TEST(test_loop_overflow_resume_timestamps)
{
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    struct posix_trace_status_info st;
    struct tu_ev evs[200];
    int n, m, first;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n = fill_until_full(trid, 0, &st);
    m = tu_read_all(trid, evs, 200);
    ck_assert_int_ge(m, 3);
    check_marker(&evs[0], POSIX_TRACE_OVERFLOW, tu_sim_ts(0));
    ck_assert_int_eq(evs[2].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    first = tu_ev_int(&evs[2]);   /* 0 if only START was overwritten */
    ck_assert_int_ge(first, 0);
    check_marker(&evs[1], POSIX_TRACE_RESUME, tu_sim_ts(1 + first));
    ck_assert_int_eq(m - 2, n - first);
    for (int k = 2; k < m; k++) {
        ck_assert_int_eq(evs[k].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        ck_assert_int_eq(tu_ev_int(&evs[k]), first + (k - 2));
        ck_assert_int_eq(tu_ns(evs[k].info.posix_timestamp), tu_sim_ts(1 + first + (k - 2)));
    }
    tu_shutdown(trid);
}
END_TEST

/* S0279, S0280, S0033: after several wraps there is still one OVERFLOW
 * (stamped with the first event overwritten) and one RESUME before the
 * survivors, which end with the newest event. */
START_TEST(test_loop_many_wraps)
{
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    struct tu_ev evs[400];
    int m, first, total = 300;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < total; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    m = tu_read_all(trid, evs, 400);
    ck_assert_int_ge(m, 3);
    check_marker(&evs[0], POSIX_TRACE_OVERFLOW, tu_sim_ts(0));
    first = tu_ev_int(&evs[2]);
    check_marker(&evs[1], POSIX_TRACE_RESUME, tu_sim_ts(1 + first));
    for (int k = 2; k < m; k++) {
        ck_assert_int_eq(evs[k].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        ck_assert_int_eq(tu_ev_int(&evs[k]), first + (k - 2));
    }
    ck_assert_int_eq(tu_ev_int(&evs[m - 1]), total - 1);
    /* S0054: what survives is at least what the sizes promise, less the
     * one event that did not fit. */
    ck_assert_msg((size_t)(m - 2 + 1) * maxuser(sizeof(int)) + maxsys() > SMALL,
                  "only %d events survive in a %d-byte stream", m - 2, SMALL);
    tu_shutdown(trid);
}
END_TEST

/* The common event, 8 bytes on the simulated clock into a LOOP stream, has
 * a path of its own (posix/record.c, record_sim; a record that would wrap
 * past the ring's end leaves it): after many wraps, one OVERFLOW stamped
 * with START and one RESUME (S0279, S0280), then the survivors with their
 * data, times and origin (S0121, S0261: this process and thread, an
 * address), and the events lost counted exactly (posixtrace_counts.h), the
 * last event a bigger one that overwrites several at once. */
START_TEST(test_loop_8byte_events)
{
    const uint64_t base = 0x0123456789abcdefULL;
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    struct tu_ev evs[400];
    int total = 300;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < total; i++) {
        uint64_t v = base + (uint64_t)i;
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, &v, sizeof v);
    }
    unsigned char big[128] = { 0 };
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, big, sizeof big);
    struct posixtrace_counts c;
    ck_assert_int_eq(posixtrace_get_counts(trid, &c), 0);
    int m = tu_read_all(trid, evs, 400);
    ck_assert_int_ge(m, 3);
    ck_assert_uint_eq(evs[2].len, 8);
    uint64_t v0;
    memcpy(&v0, evs[2].data, sizeof v0);
    int first = (int)(v0 - base);
    ck_assert_int_gt(first, 0);
    check_marker(&evs[0], POSIX_TRACE_OVERFLOW, tu_sim_ts(0));
    check_marker(&evs[1], POSIX_TRACE_RESUME, tu_sim_ts(1 + first));
    ck_assert_int_eq(m - 3, total - first);
    ck_assert_uint_eq(evs[m - 1].len, sizeof big);
    ck_assert_msg(c.recorded == (unsigned long long)total + 2 &&
                      c.lost == (unsigned long long)first + 1 &&
                      c.in_stream == (unsigned long long)(m - 2),
                  "recorded %llu, lost %llu, in stream %llu: expected %d, %d, %d", c.recorded,
                  c.lost, c.in_stream, total + 2, first + 1, m - 2);
    for (int k = 2; k < m - 1; k++) {
        const struct posix_trace_event_info *e = &evs[k].info;
        uint64_t v;
        ck_assert_int_eq(e->posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        ck_assert_uint_eq(evs[k].len, 8);
        memcpy(&v, evs[k].data, sizeof v);
        ck_assert_msg(v == base + (uint64_t)(first + k - 2), "event %d: data %llx", k,
                      (unsigned long long)v);
        ck_assert_int_eq(tu_ns(e->posix_timestamp), tu_sim_ts(1 + first + (k - 2)));
        ck_assert_int_eq(e->posix_pid, getpid());
        ck_assert(pthread_equal(e->posix_thread_id, pthread_self()));
        ck_assert_ptr_nonnull(e->posix_prog_address);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0279, S0280: a second overflow, after the reader emptied the stream,
 * is reported with the timestamps of its own first overwritten and first
 * surviving events. */
START_TEST(test_loop_second_overflow)
{
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    struct posix_trace_status_info st;
    struct tu_ev evs[200];
    int n1, n2, m, first;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n1 = fill_until_full(trid, 0, &st);
    (void)tu_read_all(trid, evs, 200);
    /* Events n1, n1+1, ... : the first has sim index 1 + n1. */
    n2 = fill_until_full(trid, n1, &st);
    m = tu_read_all(trid, evs, 200);
    ck_assert_int_ge(m, 3);
    check_marker(&evs[0], POSIX_TRACE_OVERFLOW, tu_sim_ts(1 + n1));
    first = tu_ev_int(&evs[2]);
    ck_assert_int_gt(first, n1);
    check_marker(&evs[1], POSIX_TRACE_RESUME, tu_sim_ts(1 + first));
    ck_assert_int_eq(tu_ev_int(&evs[m - 1]), n1 + n2 - 1);
    for (int k = 2; k < m; k++)
        ck_assert_int_ne(evs[k].info.posix_event_id, POSIX_TRACE_OVERFLOW);
    tu_shutdown(trid);
}
END_TEST

/* S0176, S0248, S0246: the overrun status is reported once by get_status
 * and then reset; the full status stays FULL until a read frees space. */
START_TEST(test_loop_overrun_reset_full_until_read)
{
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    struct posix_trace_status_info st;
    struct tu_ev ev;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 200; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_RUNNING);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    /* OVERFLOW, RESUME, then the first real event frees space. */
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_OVERFLOW);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_RESUME);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    tu_shutdown(trid);
}
END_TEST

/* S0226, S0229, S0032 (ruling in DESIGN: LOOP is never out of resources):
 * stop and start on a FULL LOOP stream record their events and change the
 * state. */
START_TEST(test_loop_full_stop_start)
{
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    struct posix_trace_status_info st;
    struct tu_ev evs[200];
    int m;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    (void)fill_until_full(trid, 0, &st);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    m = tu_read_all(trid, evs, 200);
    ck_assert_int_eq(evs[m - 1].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ev_int(&evs[m - 1]), 0);
    /* Fill again while running, then start on the full... stop first. */
    ck_assert_int_eq(posix_trace_start(trid), 0);
    (void)fill_until_full(trid, 1000, &st);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(tu_status(trid).posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_RUNNING);
    m = tu_read_all(trid, evs, 200);
    ck_assert_int_eq(evs[m - 2].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(evs[m - 1].info.posix_event_id, POSIX_TRACE_START);
    tu_shutdown(trid);
}
END_TEST

/* S0034, S0245, S0248, S0027 (stream analogue): UNTIL_FULL: the event that
 * does not fit is lost, the stream becomes SUSPENDED, FULL and OVERRUN;
 * the reader gets every recorded event then STOP carrying 1 (automatic
 * stop) with no process or thread. */
START_TEST(test_until_full_stop_after_last)
{
    trace_id_t trid = small_stream(POSIX_TRACE_UNTIL_FULL);
    struct posix_trace_status_info st;
    struct tu_ev evs[200];
    int n, m;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n = fill_until_full(trid, 0, &st);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    /* S0054: events 0..n-1 plus START could not all fit. */
    ck_assert_msg(maxsys() + (size_t)n * maxuser(sizeof(int)) > SMALL,
                  "S0054: event %d lost although the sizes fit", n - 1);
    m = tu_read_all(trid, evs, 200);
    /* START, events 0..n-2, STOP (the restart START comes after). */
    ck_assert_int_ge(m, n + 1);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    for (int k = 0; k < n - 1; k++) {
        ck_assert_int_eq(evs[1 + k].info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        ck_assert_int_eq(tu_ev_int(&evs[1 + k]), k);
        ck_assert_int_eq(tu_ns(evs[1 + k].info.posix_timestamp), tu_sim_ts(1 + k));
    }
    ck_assert_int_eq(evs[n].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ev_int(&evs[n]), 1);
    ck_assert_int_eq(evs[n].info.posix_pid, 0);
    ck_assert_msg(is_zero_thread(evs[n].info.posix_thread_id), "automatic STOP has a thread");
    ck_assert_ptr_null(evs[n].info.posix_prog_address);
    ck_assert_msg(tu_ns(evs[n].info.posix_timestamp) >= tu_ns(evs[n - 1].info.posix_timestamp),
                  "STOP stamped before the last event");
    tu_shutdown(trid);
}
END_TEST

/* S0245, S0248, S0176: events generated while an UNTIL_FULL stream is full
 * are lost and set OVERRUN again after get_status reset it. */
START_TEST(test_until_full_lost_events_overrun)
{
    trace_id_t trid = small_stream(POSIX_TRACE_UNTIL_FULL);
    struct posix_trace_status_info st;
    struct tu_ev evs[200];
    int n, m;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n = fill_until_full(trid, 0, &st);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 5000);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    m = tu_read_all(trid, evs, 200);
    for (int k = 0; k < m; k++)
        ck_assert_msg(evs[k].info.posix_event_id != POSIX_TRACE_UNNAMED_USEREVENT
                      || tu_ev_int(&evs[k]) < n - 1,
                      "lost event %d was recorded", tu_ev_int(&evs[k]));
    tu_shutdown(trid);
}
END_TEST

/* S0228, S0231: start and stop on a full UNTIL_FULL stream return 0,
 * record nothing and change nothing. */
START_TEST(test_until_full_start_stop_ignored)
{
    trace_id_t trid = small_stream(POSIX_TRACE_UNTIL_FULL);
    struct posix_trace_status_info st;
    struct tu_ev evs[200];
    int n, m;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n = fill_until_full(trid, 0, &st);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_FULL);
    /* Read all but the last event: START, events 0..n-2, then STOP(1) is
     * last; nothing else in between. */
    m = 0;
    for (int k = 0; k < n; k++) {
        ck_assert(tu_read1(trid, &evs[m]));
        m++;
    }
    ck_assert(tu_read1(trid, &evs[m]));
    ck_assert_int_eq(evs[m].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ev_int(&evs[m]), 1);
    tu_shutdown(trid);
}
END_TEST

/* S0036, S0037: once the reader has read the last event of a full
 * UNTIL_FULL stream, it restarts: START is recorded, RUNNING, NOT_FULL;
 * new events are recorded after that START. */
START_TEST(test_until_full_restart_when_empty)
{
    trace_id_t trid = small_stream(POSIX_TRACE_UNTIL_FULL);
    struct posix_trace_status_info st;
    struct tu_ev evs[200], ev;
    int n, m;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n = fill_until_full(trid, 0, &st);
    /* Read everything up to the automatic STOP. */
    for (m = 0; m < n + 1; m++)
        ck_assert(tu_read1(trid, &evs[m]));
    ck_assert_int_eq(evs[n].info.posix_event_id, POSIX_TRACE_STOP);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_RUNNING);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 777);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    ck_assert_msg(tu_ns(ev.info.posix_timestamp) >= tu_ns(evs[n].info.posix_timestamp),
                  "restart START stamped before the STOP");
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
    ck_assert_int_eq(tu_ev_int(&ev), 777);
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0036, S0245: a partial read does not restart the stream (DESIGN: it
 * restarts when the reader has read the last event); events meanwhile are
 * still lost. */
START_TEST(test_until_full_no_restart_before_empty)
{
    trace_id_t trid = small_stream(POSIX_TRACE_UNTIL_FULL);
    struct posix_trace_status_info st;
    struct tu_ev ev, evs[200];
    int n, m;
    ck_assert_int_eq(posix_trace_start(trid), 0);
    n = fill_until_full(trid, 0, &st);
    ck_assert(tu_read1(trid, &ev));
    ck_assert(tu_read1(trid, &ev));
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 888);
    m = tu_read_all(trid, evs, 200);
    ck_assert_int_eq(m, n - 1 + 1); /* events 1..n-2, STOP, restart START */
    for (int k = 0; k < m; k++)
        ck_assert_msg(evs[k].info.posix_event_id != POSIX_TRACE_UNNAMED_USEREVENT
                      || tu_ev_int(&evs[k]) != 888, "event recorded while full");
    ck_assert_int_eq(evs[m - 2].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(evs[m - 1].info.posix_event_id, POSIX_TRACE_START);
    tu_shutdown(trid);
}
END_TEST

/* Records START, events of data lengths lens[0..n-1] (data filled with the
 * event index), STOP, and checks that all are read back without loss. */
static void lossless(int policy, size_t streamsize, const size_t *lens, int n,
                     size_t maxdata)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    static unsigned char data[1024];
    struct posix_trace_event_info info;
    unsigned char buf[1024];
    size_t len;
    int unav;
    struct posix_trace_status_info st;

    o.policy = policy;
    o.streamsize = streamsize;
    o.maxdatasize = maxdata;
    o.sim = 1;
    o.step_ns = 1;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < n; i++) {
        memset(data, i & 0xff, lens[i]);
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, lens[i]);
    }
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    ck_assert_int_eq(st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_START);
    for (int i = 0; i < n; i++) {
        size_t want = lens[i] < maxdata ? lens[i] : maxdata;
        ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len, &unav), 0);
        ck_assert_msg(unav == 0, "event %d of %d missing", i, n);
        ck_assert_msg(info.posix_event_id == POSIX_TRACE_UNNAMED_USEREVENT,
                      "event %d: id %u (lost events?)", i, info.posix_event_id);
        ck_assert_uint_eq(len, want);
        if (want > 0)
            ck_assert_int_eq(buf[0], i & 0xff);
    }
    ck_assert_int_eq(posix_trace_trygetnext_event(trid, &info, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(info.posix_event_id, POSIX_TRACE_STOP);
    tu_shutdown(trid);
}

/* S0054, S0053, S0055: events whose maximum sizes (START and STOP counted
 * as system events) add up to exactly stream-min-size are all kept (LOOP). */
START_TEST(test_s0054_exact_loop)
{
    size_t lens[50];
    size_t ss = 2 * maxsys() + 50 * maxuser(24);
    for (int i = 0; i < 50; i++)
        lens[i] = 24;
    lossless(POSIX_TRACE_LOOP, ss, lens, 50, 256);
}
END_TEST

/* S0054: the same with UNTIL_FULL. */
START_TEST(test_s0054_exact_until_full)
{
    size_t lens[50];
    size_t ss = 2 * maxsys() + 50 * maxuser(24);
    for (int i = 0; i < 50; i++)
        lens[i] = 24;
    lossless(POSIX_TRACE_UNTIL_FULL, ss, lens, 50, 256);
}
END_TEST

/* S0054, S0055: mixed data sizes (0 .. beyond max-data-size) whose maximum
 * sizes add up to stream-min-size are all kept. */
START_TEST(test_s0054_mixed_sizes)
{
    size_t lens[60], ss = 2 * maxsys();
    for (int i = 0; i < 60; i++) {
        lens[i] = (size_t)((i * 37) % 300);
        ss += maxuser(lens[i] < 200 ? lens[i] : 200) ;
    }
    /* maxuser() uses the default max-data-size 256; the stream uses 200,
     * so recompute with min(len, 200), which is what the stream needs. */
    lossless(POSIX_TRACE_UNTIL_FULL, ss, lens, 60, 200);
    lossless(POSIX_TRACE_LOOP, ss, lens, 60, 200);
}
END_TEST

/* S0054: the smallest stream sizes still hold what they promise: a
 * stream-min-size of exactly START + STOP keeps both. */
START_TEST(test_s0054_tiny_stream)
{
    lossless(POSIX_TRACE_UNTIL_FULL, 2 * maxsys(), NULL, 0, 256);
    lossless(POSIX_TRACE_LOOP, 2 * maxsys(), NULL, 0, 256);
}
END_TEST

Suite *suite_policy(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tu_tcase("loop");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_loop_full_status);
    tcase_add_test(tc, test_loop_overflow_resume_timestamps);
    tcase_add_test(tc, test_loop_many_wraps);
    tcase_add_test(tc, test_loop_8byte_events);
    tcase_add_test(tc, test_loop_second_overflow);
    tcase_add_test(tc, test_loop_overrun_reset_full_until_read);
    tcase_add_test(tc, test_loop_full_stop_start);
    suite_add_tcase(s, tc);

    tc = tu_tcase("until_full");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_until_full_stop_after_last);
    tcase_add_test(tc, test_until_full_lost_events_overrun);
    tcase_add_test(tc, test_until_full_start_stop_ignored);
    tcase_add_test(tc, test_until_full_restart_when_empty);
    tcase_add_test(tc, test_until_full_no_restart_before_empty);
    suite_add_tcase(s, tc);

    tc = tu_tcase("s0054");
    tcase_add_test(tc, test_s0054_exact_loop);
    tcase_add_test(tc, test_s0054_exact_until_full);
    tcase_add_test(tc, test_s0054_mixed_sizes);
    tcase_add_test(tc, test_s0054_tiny_stream);
    suite_add_tcase(s, tc);
    return s;
}
