/* SPDX-License-Identifier: MIT */
/*
 * check_record_stress.c -- recording from several threads and a forked
 * child into one stream at once (issue 19: the recording path must keep the
 * standard's rules whatever its locking): each writer's events read back in
 * its order, all events in recording order (the simulated clock is shared by
 * the stream, so its timestamps number the events in the order they were
 * recorded; on CLOCK_REALTIME, where threads stage their events without
 * the lock, the timestamps never go back), every event either read or
 * counted as lost, and the overrun status and OVERFLOW event when one was
 * lost.
 *
 * Helper threads never call Check assertions: they store what they saw and
 * the main thread asserts.  Counts stay modest for valgrind.
 */
#include <posixtrace_counts.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "stream/stream.h"
#include "test_util.h"
#include "posix/stream_table.h"

#define NTHREAD   3             /* writer threads of the test process */
#define NCHILD    2             /* writer threads of its forked child */
#define NWRITER   (NTHREAD + NCHILD)
#define NEVENTS   2000          /* events per writer */

struct payload {
    uint32_t writer;
    uint32_t seq;
};

struct writer {
    uint32_t idx;
    pthread_barrier_t *go;
};

static void *write_events(void *arg)
{
    struct writer *w = arg;
    struct payload p = { w->idx, 0 };
    if (w->go)
        pthread_barrier_wait(w->go);
    for (p.seq = 0; p.seq < NEVENTS; p.seq++)
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, &p, sizeof p);
    return NULL;
}

/* Starts writers first..first+n-1 as threads of the calling process. */
static int start_writers(pthread_t *th, struct writer *w, uint32_t first, int n)
{
    for (int i = 0; i < n; i++) {
        w[i].idx = first + (uint32_t)i;
        w[i].go = NULL;
        if (pthread_create(&th[i], NULL, write_events, &w[i]) != 0)
            return -1;
    }
    return 0;
}

static void join_writers(pthread_t *th, int n)
{
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
}

/* The forked child: NCHILD threads record, then it exits (S0317: it records
 * into the INHERITED stream of its parent). */
static pid_t fork_child_writers(void)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    pthread_t th[NCHILD];
    struct writer w[NCHILD];
    if (start_writers(th, w, NTHREAD, NCHILD) != 0)
        _exit(3);
    join_writers(th, NCHILD);
    _exit(0);
}

/* Starts the stream and its NWRITER writers: the child's (returned) and
 * this process's NTHREAD threads, th and w. */
static pid_t start_all_writers(trace_id_t trid, pthread_t *th, struct writer *w)
{
    ck_assert_int_eq(posix_trace_start(trid), 0);
    pid_t child = fork_child_writers();
    ck_assert_int_ge(child, 0);
    ck_assert_int_eq(start_writers(th, w, 0, NTHREAD), 0);
    return child;
}

static void wait_child(pid_t pid)
{
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child ended with status %d", st);
}

static uint64_t lost_so_far(trace_id_t trid)
{
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    uint64_t lost = s->lost;
    stream_release(s);
    return lost;
}

/* sim: the simulated clock (events recorded under the stream's lock), else
 * CLOCK_REALTIME (events staged without the lock, posix/stage.h). */
static trace_id_t stress_stream(int policy, size_t size, int sim)
{
    trace_attr_t a;
    trace_id_t trid;
    struct timespec start = { TU_SIM_START_SEC, 0 };
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, size), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, policy), 0);
    if (sim)
        ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &start, TU_SIM_STEP_NS), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    posix_trace_attr_destroy(&a);
    return trid;
}

/* What a reader saw of the writers. */
struct tally {
    uint32_t next[NWRITER];     /* the seq each writer's next event must pass */
    uint64_t read, gaps, overflows, last_ts;
    int start_read;
};

/* Checks one event read (in reading order) against the rules. */
static void tally_event(struct tally *t, const struct posix_trace_event_info *ev,
                        const struct payload *p, size_t len, const pid_t *pid_of)
{
    uint64_t ts = (uint64_t)tu_ns(ev->posix_timestamp);
    /* S0216, S0279, S0280: oldest first; OVERFLOW and RESUME take the times
     * of the first lost and the first surviving event. */
    ck_assert_msg(ts >= t->last_ts, "event %u at %llu read after one at %llu",
                  ev->posix_event_id, (unsigned long long)ts, (unsigned long long)t->last_ts);
    t->last_ts = ts;
    if (ev->posix_event_id == POSIX_TRACE_OVERFLOW) {
        t->overflows++;
        return;
    }
    if (ev->posix_event_id == POSIX_TRACE_START)
        t->start_read = 1;
    if (ev->posix_event_id != POSIX_TRACE_UNNAMED_USEREVENT)
        return;                                         /* START, STOP, RESUME */
    ck_assert_uint_eq(len, sizeof *p);                  /* S0121: whole */
    ck_assert_uint_lt(p->writer, NWRITER);
    ck_assert_int_eq(ev->posix_pid, pid_of[p->writer]);
    uint32_t *nx = &t->next[p->writer];
    ck_assert_msg(p->seq >= *nx, "writer %u: event %u read after %u", p->writer, p->seq,
                  *nx - 1);                             /* each writer's order */
    t->gaps += p->seq - *nx;
    *nx = p->seq + 1;
    t->read++;
}

/* Reads every event available; returns how many. */
static uint64_t read_available(trace_id_t trid, struct tally *t, const pid_t *pid_of)
{
    uint64_t n = 0;
    for (;;) {
        struct posix_trace_event_info ev;
        struct payload p;
        size_t len;
        int unavailable;
        ck_assert_int_eq(posix_trace_trygetnext_event(trid, &ev, &p, sizeof p, &len,
                                                      &unavailable), 0);
        if (unavailable)
            return n;
        tally_event(t, &ev, &p, len, pid_of);
        n++;
    }
}

static void pids_of_writers(pid_t *pid_of, pid_t child)
{
    for (int i = 0; i < NWRITER; i++)
        pid_of[i] = i < NTHREAD ? getpid() : child;
}

/* Every event attempted is read or lost, and the stream counted each loss
 * (START too, if it was overwritten before the reader came to it); a loss
 * shows in the overrun status (S0248) and, under LOOP, as OVERFLOW (S0279). */
static void check_accounts(trace_id_t trid, struct tally *t, int policy, int status_read)
{
    for (int i = 0; i < NWRITER; i++)
        t->gaps += NEVENTS - t->next[i];                /* lost at the end of a run */
    uint64_t lost = lost_so_far(trid);
    ck_assert_uint_eq(t->read + t->gaps, (uint64_t)NWRITER * NEVENTS);
    ck_assert_uint_eq(t->gaps + (policy == POSIX_TRACE_LOOP && !t->start_read), lost);
    if (!status_read)                   /* get_status resets it (S0178) */
        ck_assert_int_eq(tu_status(trid).posix_stream_overrun_status,
                         lost ? POSIX_TRACE_OVERRUN : POSIX_TRACE_NO_OVERRUN);
    if (policy == POSIX_TRACE_LOOP)
        ck_assert(lost == 0 || t->overflows > 0);
}

/* S0216, S0217, S0317, S0121: three threads and a forked child's two record
 * into a stream that holds them all: every event is read once, each
 * writer's in its order, all in the order of the shared simulated clock,
 * which advanced by one step per event; nothing lost, NO_OVERRUN. */
START_TEST(test_threads_and_child_all_kept)
{
    trace_id_t trid = stress_stream(POSIX_TRACE_LOOP, 1u << 20, _i == 0);
    pthread_t th[NTHREAD];
    struct writer w[NTHREAD];
    pid_t child = start_all_writers(trid, th, w);
    join_writers(th, NTHREAD);
    wait_child(child);

    pid_t pid_of[NWRITER];
    pids_of_writers(pid_of, child);
    struct tally t = { 0 };
    uint64_t events = read_available(trid, &t, pid_of);
    ck_assert_uint_eq(events, 1u + (uint64_t)NWRITER * NEVENTS);   /* START first */
    ck_assert(t.start_read);
    /* One clock step per event recorded, whoever recorded it. */
    if (_i == 0)
        ck_assert_uint_eq(t.last_ts, (uint64_t)tu_sim_ts((int)events - 1));
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    uint32_t staged = atomic_load(&s->stages_used);    /* which path they took */
    stream_release(s);
    if (_i == 0)
        ck_assert_uint_eq(staged, 0);
    else                                /* a thread that ends gives its buffer back */
        ck_assert_uint_gt(staged, 0);
    check_accounts(trid, &t, POSIX_TRACE_LOOP, 0);
    ck_assert_uint_eq(t.gaps, 0);
    tu_shutdown(trid);
}
END_TEST

/* S0032, S0248, S0279, S0280: a small LOOP stream read while three threads
 * and a child record into it: losses happen, each is counted once, the
 * reader still gets each writer's events in order and all oldest first. */
START_TEST(test_loop_losses_counted)
{
    trace_id_t trid = stress_stream(POSIX_TRACE_LOOP, 16u << 10, _i == 0);
    pthread_t th[NTHREAD];
    struct writer w[NTHREAD];
    pid_t child = start_all_writers(trid, th, w);

    pid_t pid_of[NWRITER];
    pids_of_writers(pid_of, child);
    struct tally t = { 0 };
    int st, running = 1;
    while (running) {                   /* read while they record */
        if (read_available(trid, &t, pid_of) == 0 && waitpid(child, &st, WNOHANG) == child) {
            ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
            running = 0;
        }
    }
    join_writers(th, NTHREAD);
    read_available(trid, &t, pid_of);
    check_accounts(trid, &t, POSIX_TRACE_LOOP, 0);
    tu_shutdown(trid);
}
END_TEST

/* S0034, S0245, S0248: a small UNTIL_FULL stream that nobody reads while
 * they record: it fills and stops itself, every later event is lost and
 * counted; what was kept is each writer's first events, in order. */
START_TEST(test_until_full_losses_counted)
{
    trace_id_t trid = stress_stream(POSIX_TRACE_UNTIL_FULL, 16u << 10, _i == 0);
    pthread_t th[NTHREAD];
    struct writer w[NTHREAD];
    pid_t child = start_all_writers(trid, th, w);
    join_writers(th, NTHREAD);
    wait_child(child);
    struct posix_trace_status_info st = tu_status(trid);
    ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);

    pid_t pid_of[NWRITER];
    pids_of_writers(pid_of, child);
    struct tally t = { 0 };
    read_available(trid, &t, pid_of);
    ck_assert_uint_gt(t.read, 0);
    check_accounts(trid, &t, POSIX_TRACE_UNTIL_FULL, 1);
    ck_assert_uint_gt(t.gaps, 0);
    tu_shutdown(trid);
}
END_TEST

/* Is the pass bit of id set in s (the recording path's test, stream.h)? */
static int pass_bit(trace_id_t trid, trace_event_id_t id)
{
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    int on = (int)((atomic_load(&s->pass[id / 64u]) >> (id % 64u)) & 1u);
    stream_release(s);
    return on;
}

/* S0122, S0184, S0190-S0192: the bits posix_trace_event() tests without the
 * lock follow the filter and the state at once: clear for a filtered-out
 * type and on a suspended stream, set again when the filter lets the type
 * through, so that the next event is recorded. */
START_TEST(test_pass_bits_follow_filter_and_state)
{
    trace_id_t trid = tu_stream_sim();
    trace_event_id_t a = POSIX_TRACE_UNNAMED_USEREVENT, b;
    ck_assert_int_eq(posix_trace_eventid_open("record_stress.b", &b), 0);
    ck_assert(!pass_bit(trid, a));                      /* suspended */
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert(pass_bit(trid, a) && pass_bit(trid, b));
    trace_event_set_t set;
    ck_assert_int_eq(posix_trace_eventset_empty(&set), 0);
    ck_assert_int_eq(posix_trace_eventset_add(a, &set), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &set, POSIX_TRACE_ADD_EVENTSET), 0);
    ck_assert(!pass_bit(trid, a) && pass_bit(trid, b));
    ck_assert_int_eq(posix_trace_set_filter(trid, &set, POSIX_TRACE_SUB_EVENTSET), 0);
    ck_assert(pass_bit(trid, a));
    tu_event_int(a, 7);
    struct tu_ev ev;
    int found = 0;
    while (tu_read1(trid, &ev))
        found += ev.info.posix_event_id == a;
    ck_assert_int_eq(found, 1);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert(!pass_bit(trid, a) && !pass_bit(trid, b));
    tu_shutdown(trid);
}
END_TEST

/* Stages by hand, in stages[slot] of the stream, a 4-byte event seq at ts
 * (white box: what posix/stage.c's stage_record writes, without the lock:
 * a call that takes it would move them into the ring). */
static void stage_by_hand(struct stream *s, unsigned slot, uint64_t ts, uint32_t seq)
{
    struct stage *st = &s->stages[slot];
    atomic_store(&st->owner, 1);                /* no thread of ours takes it */
    uint64_t head = atomic_load(&st->head);
    struct rec_hdr h = { .ts = ts, .id = POSIX_TRACE_UNNAMED_USEREVENT,
                         .pid = (uint32_t)getpid(), .len = sizeof seq, .cpu = -1 };
    unsigned char rec[REC_HDR_SIZE + 8] = { 0 };
    memcpy(rec, &h, sizeof h);
    memcpy(rec + REC_HDR_SIZE, &seq, sizeof seq);
    memcpy(stage_buf(st) + (head & (st->cap - 1)), rec, sizeof rec);
    atomic_store(&st->head, head + sizeof rec);
    atomic_fetch_or(&s->stages_used, 1u << slot);
}

/* S0216, S0217: staged events reach the ring in timestamp order, merged
 * across the threads' buffers, each buffer in its order; one staged with
 * a time older than the ring's last (a thread that took its time, then was
 * slow to publish) is recorded then, with the last time: timestamps read
 * never go back. */
START_TEST(test_staged_merged_oldest_first)
{
    struct tu_opts o = { 0 };
    trace_id_t trid = tu_stream(&o);                    /* CLOCK_REALTIME */
    ck_assert_int_eq(posix_trace_start(trid), 0);
    struct tu_ev ev;
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    uint64_t t0 = (uint64_t)tu_ns(ev.info.posix_timestamp);
    static const struct { unsigned slot; uint64_t dt; uint32_t seq; } staged[] = {
        { 0, 100, 0 }, { 0, 300, 1 }, { 0, 500, 2 },
        { 1, 200, 10 }, { 1, 400, 11 }, { 1, 150, 12 },
    };
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    stream_release(s);
    for (size_t i = 0; i < sizeof staged / sizeof staged[0]; i++)
        stage_by_hand(s, staged[i].slot, t0 + staged[i].dt, staged[i].seq);
    static const uint32_t seq[] = { 0, 10, 1, 11, 12, 2 };
    static const uint64_t dt[] = { 100, 200, 300, 400, 400, 500 };
    for (int i = 0; i < 6; i++) {
        ck_assert(tu_read1(trid, &ev));
        uint32_t got;
        memcpy(&got, ev.data, sizeof got);
        ck_assert_uint_eq(got, seq[i]);
        ck_assert_uint_eq((uint64_t)tu_ns(ev.info.posix_timestamp) - t0, dt[i]);
    }
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

/* S0122: an event staged by a thread that tested the filter just before
 * it changed is not recorded when it reaches the ring after the change
 * (the filter is tested again there), as with the lock. */
START_TEST(test_staged_filtered_out_since)
{
    struct tu_opts o = { 0 };
    trace_id_t trid = tu_stream(&o);                    /* CLOCK_REALTIME */
    ck_assert_int_eq(posix_trace_start(trid), 0);
    trace_event_set_t set;
    ck_assert_int_eq(posix_trace_eventset_empty(&set), 0);
    ck_assert_int_eq(posix_trace_eventset_add(POSIX_TRACE_UNNAMED_USEREVENT, &set), 0);
    ck_assert_int_eq(posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET), 0);
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    stream_release(s);
    struct timespec now = tu_now();
    stage_by_hand(s, 0, (uint64_t)tu_ns(now) + 1000000000u, 1);
    stage_by_hand(s, 0, (uint64_t)tu_ns(now) + 1000000001u, 2);
    struct tu_ev ev;
    int users = 0;
    while (tu_read1(trid, &ev))
        users += ev.info.posix_event_id == POSIX_TRACE_UNNAMED_USEREVENT;
    ck_assert_int_eq(users, 0);
    tu_shutdown(trid);
}
END_TEST

/* What one thread reads back of a LOOP stream of 4 KiB after recording n
 * events of 8 bytes without a read: the first and last sequence numbers
 * after OVERFLOW and RESUME, the counts, and the overrun status. */
struct loop_result {
    int overflow, resume;           /* seen, in that order, before the events */
    uint32_t first, last, nread;
    int contiguous;                 /* each event the one after the last */
    struct posixtrace_counts counts;
    int overrun;
};

static struct loop_result record_then_read(int sim, uint32_t n, int *lane)
{
    struct tu_opts o = { .sim = sim, .streamsize = 4096 };
    trace_id_t trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    struct tu_ev ev;
    ck_assert(tu_read1(trid, &ev));                     /* START */
    struct payload p = { 0, 0 };
    for (p.seq = 0; p.seq < n; p.seq++)
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, &p, sizeof p);
    struct stream *s = stream_acquire(trid);    /* moves what was staged */
    ck_assert_ptr_nonnull(s);
    *lane = s->stages_used != 0 && s->stages[0].cap >= 2 * s->ring.cap;
    stream_release(s);
    struct loop_result r = { .contiguous = 1 };
    ck_assert_int_eq(posixtrace_get_counts(trid, &r.counts), 0);
    struct posix_trace_status_info st;
    ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);
    r.overrun = st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN;
    while (tu_read1(trid, &ev)) {
        if (ev.info.posix_event_id == POSIX_TRACE_OVERFLOW) {
            r.overflow = r.nread == 0 && !r.resume;
            continue;
        }
        if (ev.info.posix_event_id == POSIX_TRACE_RESUME) {
            r.resume = r.nread == 0 && r.overflow;
            continue;
        }
        memcpy(&p, ev.data, sizeof p);
        if (r.nread++ == 0)
            r.first = p.seq;
        else if (p.seq != r.last + 1)
            r.contiguous = 0;
        r.last = p.seq;
    }
    tu_shutdown(trid);
    return r;
}

/* S0032, S0248, S0279: a thread's lane (posix/stage.c) keeps what the ring
 * would: the same workload on the simulated clock (recorded into the ring
 * under the lock) and on CLOCK_REALTIME (into the thread's lane, which
 * drops its oldest when full, n events being many lanes' worth) reads back
 * the same events, newest kept, after one OVERFLOW and RESUME, with the
 * same counts and overrun status. */
START_TEST(test_lane_keeps_what_the_ring_keeps)
{
    const uint32_t n = 20000;
    int lane_sim, lane_real;
    struct loop_result ring = record_then_read(1, n, &lane_sim);
    struct loop_result lane = record_then_read(0, n, &lane_real);
    ck_assert(!lane_sim && lane_real);                  /* each took its path */
    ck_assert(ring.overflow && ring.resume && ring.contiguous && ring.overrun);
    ck_assert_uint_eq(ring.last, n - 1);
    ck_assert_msg(lane.overflow && lane.resume && lane.contiguous && lane.overrun,
                  "lane: OVERFLOW %d RESUME %d contiguous %d overrun %d", lane.overflow,
                  lane.resume, lane.contiguous, lane.overrun);
    ck_assert_uint_eq(lane.last, n - 1);
    ck_assert_uint_eq(lane.nread, ring.nread);
    ck_assert_uint_eq(lane.first, ring.first);
    ck_assert_uint_eq(lane.counts.recorded, ring.counts.recorded);
    ck_assert_uint_eq(lane.counts.lost, ring.counts.lost);
    ck_assert_uint_eq(lane.counts.in_stream, ring.counts.in_stream);
}
END_TEST

/* Reads the stream to its end, failing on a timestamp older than the one
 * before it (the first compared with `last`); says whether an OVERFLOW was
 * among them. */
static int read_rest_in_time_order(trace_id_t trid, uint64_t last)
{
    struct tu_ev ev;
    int overflow = 0;
    while (tu_read1(trid, &ev)) {
        uint64_t t = (uint64_t)tu_ns(ev.info.posix_timestamp);
        ck_assert_msg(t >= last, "event %d read at %llu, after one at %llu",
                      (int)ev.info.posix_event_id, (unsigned long long)t,
                      (unsigned long long)last);
        last = t;
        overflow |= ev.info.posix_event_id == POSIX_TRACE_OVERFLOW;
    }
    return overflow;
}

/* A small LOOP stream on CLOCK_REALTIME, started, its START read: says the
 * stream (for stage_by_hand), START's time and a count of 8-byte events
 * more than its ring holds that a lane holds. */
static trace_id_t lane_test_stream(struct stream **sp, uint64_t *t0, uint64_t *n)
{
    struct tu_opts o = { .streamsize = 4096 };
    trace_id_t trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    struct tu_ev ev;
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    *t0 = (uint64_t)tu_ns(ev.info.posix_timestamp);
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    *n = s->ring.cap / (REC_HDR_SIZE + 8) + 10;
    ck_assert_uint_ge(s->stages[1].cap, (*n + 1) * (REC_HDR_SIZE + 8));
    stream_release(s);
    *sp = s;
    return trid;
}

/* S0279: the OVERFLOW of events a lane dropped carries the timestamp of
 * the first of them, the oldest event lost, as the ring's does (lane_trim
 * keeps it while it walks the lane). */
START_TEST(test_lane_overflow_has_first_lost_time)
{
    uint64_t t0, n;
    struct stream *s;
    trace_id_t trid = lane_test_stream(&s, &t0, &n);
    for (uint32_t i = 0; i < n; i++)            /* more than the ring holds */
        stage_by_hand(s, 1, t0 + 1 + i, 100 + i);
    struct tu_ev ev;
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_OVERFLOW);
    ck_assert_msg((uint64_t)tu_ns(ev.info.posix_timestamp) == t0 + 1,
                  "OVERFLOW at %llu, the first event lost at %llu",
                  (unsigned long long)tu_ns(ev.info.posix_timestamp),
                  (unsigned long long)(t0 + 1));
    tu_shutdown(trid);
}
END_TEST

/* S0279, S0216: events a lane drops that were staged long before they
 * reached the ring (a thread slow to publish them, or killed: the sigkill
 * suite saw it under qemu) give an OVERFLOW no older than the events read
 * before it: timestamps read never go back. */
START_TEST(test_lane_overflow_never_goes_back)
{
    uint64_t t0, n;
    struct stream *s;
    trace_id_t trid = lane_test_stream(&s, &t0, &n);
    struct tu_ev ev;
    struct payload p = { 0, 0 };
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, &p, sizeof p);
    ck_assert(tu_read1(trid, &ev));
    uint64_t last = (uint64_t)tu_ns(ev.info.posix_timestamp);
    for (uint32_t i = 0; i < n; i++)            /* staged at t0 + 1 + i: before `last` */
        stage_by_hand(s, 1, t0 + 1 + i, 100 + i);
    ck_assert(read_rest_in_time_order(trid, last));
    tu_shutdown(trid);
}
END_TEST

/* S0279, S0216: the same after a RESUME. A RESUME takes the time of the
 * ring's oldest event, newer than the last user event read before the
 * OVERFLOW; a lane's drop of events older than it, accounted after it, gives
 * an OVERFLOW no older than that RESUME (make check in a loop, run 21, saw
 * one 0.7 ms older on CLOCK_REALTIME). */
START_TEST(test_lane_overflow_after_resume_never_goes_back)
{
    uint64_t t0, n;
    struct stream *s;
    trace_id_t trid = lane_test_stream(&s, &t0, &n);
    struct tu_ev ev;
    /* Lane 1 overflows the ring: its oldest are dropped, the ring holds
     * events from t0 + 1000 + 11 on, newer than the last one read (START). */
    for (uint32_t i = 0; i < n; i++)
        stage_by_hand(s, 1, t0 + 1000 + i, 100 + i);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_OVERFLOW);
    ck_assert(tu_read1(trid, &ev));
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_RESUME);
    uint64_t last = (uint64_t)tu_ns(ev.info.posix_timestamp);
    ck_assert_uint_gt(last, t0 + 1000);
    /* Lane 2 stages events older than that RESUME, more than the ring
     * holds: it drops its oldest, accounted at the next read. */
    for (uint32_t i = 0; i < n; i++)
        stage_by_hand(s, 2, t0 + 1 + i, 100000 + i);
    ck_assert(read_rest_in_time_order(trid, last));
    tu_shutdown(trid);
}
END_TEST

/* A drain a killed process left half done (posix/stage.c, step_begin): it
 * had put a staged event into the ring, its head moved, and was killed
 * before the buffer's tail moved past it.  Staged here by hand: events 0-4
 * put into the ring through buffer 2, event 4 staged in buffer 1 too, and
 * the step written down as the drainer would have.  The next drain finishes the
 * step: events 0-9 are read once each, in order (S0216); without it, event 4
 * twice (the sigkill suite: "event 207 after event 324: out of order"). */
START_TEST(test_drain_killed_midway_finished)
{
    struct tu_opts o = { .policy = POSIX_TRACE_UNTIL_FULL, .streamsize = 65536 };
    trace_id_t trid = tu_stream(&o);                    /* CLOCK_REALTIME */
    ck_assert_int_eq(posix_trace_start(trid), 0);
    struct tu_ev ev;
    ck_assert(tu_read1(trid, &ev));                     /* START */
    uint64_t t0 = (uint64_t)tu_ns(ev.info.posix_timestamp);
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    stream_release(s);
    struct posix_trace_status_info st;
    for (uint32_t i = 0; i < 4; i++)
        stage_by_hand(s, 2, t0 + 1 + i, i);
    ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);     /* drains: 0-3 */
    uint64_t head_before = s->ring.head;
    stage_by_hand(s, 2, t0 + 5, 4);
    ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);     /* 4 */
    ck_assert_uint_gt(s->ring.head, head_before);
    /* Buffer 1 still holds event 4, then 5-9: the killed drainer's. */
    uint64_t tail = atomic_load(&s->stages[1].tail);
    for (uint32_t i = 4; i < 10; i++)
        stage_by_hand(s, 1, t0 + 1 + i, i);
    s->drain_head = head_before;
    s->drain_tail = tail + REC_HDR_SIZE + 8;
    atomic_store(&s->drain_stage, 2);
    for (uint32_t want = 0; want < 10; want++) {
        ck_assert(tu_read1(trid, &ev));
        ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_UNNAMED_USEREVENT);
        uint32_t got;
        memcpy(&got, ev.data, sizeof got);
        ck_assert_uint_eq(got, want);
    }
    ck_assert(!tu_read1(trid, &ev));
    tu_shutdown(trid);
}
END_TEST

Suite *suite_record_stress(void)
{
    Suite *s = suite_create("record_stress");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    /* Run 0 on the simulated clock, run 1 on CLOCK_REALTIME. */
    tcase_add_loop_test(tc, test_threads_and_child_all_kept, 0, 2);
    tcase_add_loop_test(tc, test_loop_losses_counted, 0, 2);
    tcase_add_loop_test(tc, test_until_full_losses_counted, 0, 2);
    tcase_add_test(tc, test_pass_bits_follow_filter_and_state);
    tcase_add_test(tc, test_staged_merged_oldest_first);
    tcase_add_test(tc, test_staged_filtered_out_since);
    tcase_add_test(tc, test_lane_keeps_what_the_ring_keeps);
    tcase_add_test(tc, test_lane_overflow_has_first_lost_time);
    tcase_add_test(tc, test_lane_overflow_never_goes_back);
    tcase_add_test(tc, test_lane_overflow_after_resume_never_goes_back);
    tcase_add_test(tc, test_drain_killed_midway_finished);
    suite_add_tcase(s, tc);
    return s;
}
