/* SPDX-License-Identifier: MIT */
/*
 * check_sim.c -- the simulation control of <posixtrace_sim.h>: simulated
 * clock (attributes, timestamps, advance, now, determinism) and simulated
 * CPUs (posix_cpu).  Rules: S0265 (timestamp = time of generation, here
 * the stream's simulated clock) and S0217 (order); the header documents the
 * EINVAL cases.
 */
#define _GNU_SOURCE                     /* sched_setaffinity(), cpu_set_t */
#include <sched.h>
#include "test_util.h"

#include <limits.h>
#include <pthread.h>

static trace_id_t sim_stream(long sec, long nsec, long step)
{
    trace_attr_t a;
    trace_id_t trid;
    struct timespec start;
    start.tv_sec = sec;
    start.tv_nsec = nsec;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &start, step), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    tu_track(trid);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    return trid;
}

/* S0002: the simulated clock is off in a fresh attribute object; set and
 * get give back start and step. */
START_TEST(test_simclock_attr_roundtrip)
{
    trace_attr_t a;
    int en = -1;
    struct timespec st = { 77, 88 }, got = { 0, 0 };
    long step = -5;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posixtrace_attr_getsimclock(&a, &en, NULL, NULL), 0);
    ck_assert_int_eq(en, 0);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &st, 250), 0);
    ck_assert_int_eq(posixtrace_attr_getsimclock(&a, &en, &got, &step), 0);
    ck_assert_int_ne(en, 0);
    ck_assert_int_eq(got.tv_sec, 77);
    ck_assert_int_eq(got.tv_nsec, 88);
    ck_assert_int_eq(step, 250);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0006 (header): setsimclock EINVAL for NULL start, tv_nsec outside
 * 0..999999999, negative step; getsimclock EINVAL for NULL enabled. */
START_TEST(test_simclock_attr_einval)
{
    trace_attr_t a;
    struct timespec big = { 1, 1000000000L }, neg = { 1, -1 }, ok = { 1, 0 };
    int en;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, NULL, 10), EINVAL);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &big, 10), EINVAL);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &neg, 10), EINVAL);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &ok, -1), EINVAL);
    ck_assert_int_eq(posixtrace_attr_getsimclock(&a, NULL, NULL, NULL), EINVAL);
    /* None of the failures enabled the clock. */
    ck_assert_int_eq(posixtrace_attr_getsimclock(&a, &en, NULL, NULL), 0);
    ck_assert_int_eq(en, 0);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &ok, 0), 0);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
}
END_TEST

/* S0265, S0010: the first event is stamped with the start, each event then
 * advances the clock by step; the creation time is the start and the
 * clock resolution 1 ns (header). */
START_TEST(test_sim_start_and_step)
{
    trace_id_t trid = sim_stream(42, 500, 300);
    trace_attr_t got;
    struct timespec ct, res;
    struct tu_ev evs[8];
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 4; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 6);
    for (int k = 0; k < 6; k++)
        ck_assert_msg(tu_ns(evs[k].info.posix_timestamp) == 42000000500LL + 300LL * k,
                      "event %d: %lld", k, tu_ns(evs[k].info.posix_timestamp));
    ck_assert_int_eq(posix_trace_attr_init(&got), 0);
    ck_assert_int_eq(posix_trace_get_attr(trid, &got), 0);
    ck_assert_int_eq(posix_trace_attr_getcreatetime(&got, &ct), 0);
    ck_assert_int_eq(ct.tv_sec, 42);
    ck_assert_int_eq(ct.tv_nsec, 500);
    ck_assert_int_eq(posix_trace_attr_getclockres(&got, &res), 0);
    ck_assert_int_eq(res.tv_sec, 0);
    ck_assert_int_eq(res.tv_nsec, 1);
    ck_assert_int_eq(posix_trace_attr_destroy(&got), 0);
    tu_shutdown(trid);
}
END_TEST

/* S0265: timestamps stay normalised across a second boundary. */
START_TEST(test_sim_second_boundary)
{
    trace_id_t trid = sim_stream(5, 999999000L, 1500);
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_start(trid), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 0);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(evs[0].info.posix_timestamp.tv_sec, 5);
    ck_assert_int_eq(evs[0].info.posix_timestamp.tv_nsec, 999999000L);
    ck_assert_int_eq(evs[1].info.posix_timestamp.tv_sec, 6);
    ck_assert_int_eq(evs[1].info.posix_timestamp.tv_nsec, 500);
    tu_shutdown(trid);
}
END_TEST

/* S0265, S0217: with step 0 every event has the start as timestamp and the
 * order is still the order of recording. */
START_TEST(test_sim_step_zero)
{
    trace_id_t trid = sim_stream(7, 0, 0);
    struct tu_ev evs[8];
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 5; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 6);
    for (int k = 0; k < 6; k++) {
        ck_assert_int_eq(tu_ns(evs[k].info.posix_timestamp), 7000000000LL);
        if (k > 0)
            ck_assert_int_eq(tu_ev_int(&evs[k]), k - 1);
    }
    tu_shutdown(trid);
}
END_TEST

/* S0265: posixtrace_sim_now gives the timestamp of the next event;
 * posixtrace_sim_advance moves it forward. */
START_TEST(test_sim_now_and_advance)
{
    trace_id_t trid = sim_stream(100, 0, 1000);
    struct timespec now;
    struct tu_ev evs[4];
    ck_assert_int_eq(posixtrace_sim_now(trid, &now), 0);
    ck_assert_int_eq(tu_ns(now), 100000000000LL);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    ck_assert_int_eq(posixtrace_sim_now(trid, &now), 0);
    ck_assert_int_eq(tu_ns(now), 100000001000LL);
    ck_assert_int_eq(posixtrace_sim_advance(trid, 2500000000LL), 0);
    ck_assert_int_eq(posixtrace_sim_now(trid, &now), 0);
    ck_assert_int_eq(tu_ns(now), 102500001000LL);
    ck_assert_int_eq(posixtrace_sim_advance(trid, 0), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert_int_eq(tu_read_all(trid, evs, 4), 2);
    ck_assert_int_eq(tu_ns(evs[0].info.posix_timestamp), 100000000000LL);
    ck_assert_int_eq(tu_ns(evs[1].info.posix_timestamp), 102500001000LL);
    ck_assert_int_eq(posixtrace_sim_now(trid, &now), 0);
    ck_assert_int_eq(tu_ns(now), 102500002000LL);
    tu_shutdown(trid);
}
END_TEST

/* S0265 (the simulated clock is the stream's timestamp clock); the EINVAL
 * cases are those of <posixtrace_sim.h>: advance and now give EINVAL for an invalid id, a stream without
 * simulated clock, a negative ns, a NULL now. */
START_TEST(test_sim_advance_now_einval)
{
    trace_id_t sim = sim_stream(1, 0, 1), real;
    struct timespec now;
    ck_assert_int_eq(posix_trace_create(0, NULL, &real), 0);
    tu_track(real);
    ck_assert_int_eq(posixtrace_sim_advance(real, 10), EINVAL);
    ck_assert_int_eq(posixtrace_sim_now(real, &now), EINVAL);
    ck_assert_int_eq(posixtrace_sim_advance(sim, -1), EINVAL);
    ck_assert_int_eq(posixtrace_sim_now(sim, NULL), EINVAL);
    ck_assert_int_eq(posixtrace_sim_now(sim, &now), 0);
    ck_assert_int_eq(tu_ns(now), 1000000000LL);   /* the failed advance did nothing */
    tu_shutdown(real);
    tu_shutdown(sim);
    ck_assert_int_eq(posixtrace_sim_advance(sim, 10), EINVAL);
    ck_assert_int_eq(posixtrace_sim_now(sim, &now), EINVAL);
}
END_TEST

/* S0265: each stream has its own simulated clock: one event recorded into
 * two streams gets each stream's time. */
START_TEST(test_sim_clock_per_stream)
{
    trace_id_t a = sim_stream(10, 0, 100), b = sim_stream(20, 0, 7);
    struct tu_ev evs[4];
    ck_assert_int_eq(posix_trace_start(a), 0);
    ck_assert_int_eq(posixtrace_sim_advance(a, 1000), 0);
    ck_assert_int_eq(posix_trace_start(b), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1);
    ck_assert_int_eq(tu_read_all(a, evs, 4), 2);
    ck_assert_int_eq(tu_ns(evs[1].info.posix_timestamp), 10000001100LL);
    ck_assert_int_eq(tu_read_all(b, evs, 4), 2);
    ck_assert_int_eq(tu_ns(evs[1].info.posix_timestamp), 20000000007LL);
    tu_shutdown(a);
    tu_shutdown(b);
}
END_TEST

/* One scripted run: start, events, advance, stop, start, an overflow,
 * read everything. */
static int scripted_run(struct tu_ev *evs, int max)
{
    struct tu_opts o = { 0 };
    trace_id_t trid;
    int n;
    o.sim = 1;
    o.step_ns = 333;
    o.streamsize = 600;
    o.maxdatasize = 16;
    trid = tu_stream(&o);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 5; i++) {
        char d[24];
        memset(d, 'a' + i, sizeof d);
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, d, (size_t)(i * 5));
    }
    ck_assert_int_eq(posixtrace_sim_advance(trid, 123456), 0);
    ck_assert_int_eq(posix_trace_stop(trid), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 30; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    n = tu_read_all(trid, evs, max);
    tu_shutdown(trid);
    return n;
}

/* S0265, S0216, S0217: two identical runs give identical event sequences
 * and timestamps (the purpose of the simulated clock). */
START_TEST(test_sim_deterministic)
{
    static struct tu_ev r1[64], r2[64];
    int n1 = scripted_run(r1, 64), n2 = scripted_run(r2, 64);
    ck_assert_int_eq(n1, n2);
    ck_assert_int_gt(n1, 3);
    for (int k = 0; k < n1; k++) {
        ck_assert_uint_eq(r1[k].info.posix_event_id, r2[k].info.posix_event_id);
        ck_assert_int_eq(tu_ns(r1[k].info.posix_timestamp), tu_ns(r2[k].info.posix_timestamp));
        ck_assert_int_eq(r1[k].info.posix_truncation_status, r2[k].info.posix_truncation_status);
        ck_assert_uint_eq(r1[k].len, r2[k].len);
        ck_assert_mem_eq(r1[k].data, r2[k].data, r1[k].len);
    }
}
END_TEST

struct cpu_arg {
    trace_id_t trid;
    int cpu;
    int set_rc, get;
};

static void *cpu_thread(void *p)
{
    struct cpu_arg *a = p;
    a->set_rc = posixtrace_sim_setcpu(a->cpu);
    a->get = posixtrace_sim_getcpu();
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, a->cpu);
    return NULL;
}

/* S0261 (posix_cpu is an added member, 2.11.1 allows it): events carry the
 * simulated CPU of the recording thread; the setting is per thread. */
START_TEST(test_sim_cpu_per_thread)
{
    trace_id_t trid = tu_stream_sim_started();
    struct cpu_arg ta = { 0, 7, -1, -1 };
    pthread_t th;
    struct tu_ev evs[8];
    ta.trid = trid;
    ck_assert_int_eq(posixtrace_sim_setcpu(3), 0);
    ck_assert_int_eq(posixtrace_sim_getcpu(), 3);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 3);
    ck_assert_int_eq(pthread_create(&th, NULL, cpu_thread, &ta), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    ck_assert_int_eq(ta.set_rc, 0);
    ck_assert_int_eq(ta.get, 7);
    ck_assert_int_eq(posixtrace_sim_getcpu(), 3);  /* unaffected by the thread */
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 3);
    ck_assert_int_eq(posixtrace_sim_setcpu(-1), 0);
    ck_assert_int_eq(posixtrace_sim_getcpu(), -1);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 4);
    for (int k = 1; k < 4; k++)
        ck_assert_msg(evs[k].info.posix_cpu == tu_ev_int(&evs[k]),
                      "event %d: posix_cpu %d, expected %d", k, evs[k].info.posix_cpu,
                      tu_ev_int(&evs[k]));
    tu_shutdown(trid);
}
END_TEST

/* S0261: the bounds 0 and 1023 are valid simulated CPUs; without one, an
 * event carries the real CPU (0..1023) or -1. */
START_TEST(test_sim_cpu_bounds_and_real)
{
    trace_id_t trid = tu_stream_sim_started();
    struct tu_ev evs[8];
    ck_assert_int_eq(posixtrace_sim_setcpu(0), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 0);
    ck_assert_int_eq(posixtrace_sim_setcpu(1023), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, 1023);
    ck_assert_int_eq(posixtrace_sim_setcpu(-1), 0);
    tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, -1);
    ck_assert_int_eq(tu_read_all(trid, evs, 8), 4);
    ck_assert_int_eq(evs[1].info.posix_cpu, 0);
    ck_assert_int_eq(evs[2].info.posix_cpu, 1023);
    ck_assert_msg(evs[3].info.posix_cpu >= -1 && evs[3].info.posix_cpu < 1024,
                  "real posix_cpu %d", evs[3].info.posix_cpu);
    tu_shutdown(trid);
}
END_TEST

/* S0261: without a simulated CPU, an event carries the CPU its thread ran
 * on when it was recorded (origin.h reads it from the kernel's rseq word
 * where there is one).  The thread is pinned to each CPU it may use in turn
 * (up to 8), on either clock: the simulated one records under the lock, the
 * real one stages (stage.c). */
START_TEST(test_real_cpu_is_the_pinned_one)
{
    cpu_set_t allowed;
    ck_assert_int_eq(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    for (int sim = 0; sim <= 1; sim++) {
        struct tu_opts o = { .sim = sim };
        trace_id_t trid = tu_stream(&o);
        ck_assert_int_eq(posix_trace_start(trid), 0);
        int pinned[8], n = 0;
        for (int cpu = 0; cpu < CPU_SETSIZE && n < 8; cpu++) {
            if (!CPU_ISSET(cpu, &allowed))
                continue;
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
            tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, cpu);
            pinned[n++] = cpu;
        }
        ck_assert_int_eq(sched_setaffinity(0, sizeof allowed, &allowed), 0);
        struct tu_ev evs[10];
        ck_assert_int_eq(tu_read_all(trid, evs, 10), n + 1);      /* START first */
        for (int k = 0; k < n; k++)
            ck_assert_msg(evs[k + 1].info.posix_cpu == pinned[k],
                          "%s clock: event recorded on CPU %d says posix_cpu %d",
                          sim ? "simulated" : "real", pinned[k], evs[k + 1].info.posix_cpu);
        tu_shutdown(trid);
    }
}
END_TEST

/* S0261 (posix_cpu, an added member); <posixtrace_sim.h>: setcpu refuses
 * values outside -1..1023 with EINVAL and keeps the previous setting. */
START_TEST(test_sim_setcpu_einval)
{
    ck_assert_int_eq(posixtrace_sim_setcpu(5), 0);
    ck_assert_int_eq(posixtrace_sim_setcpu(-2), EINVAL);
    ck_assert_int_eq(posixtrace_sim_setcpu(1024), EINVAL);
    ck_assert_int_eq(posixtrace_sim_setcpu(INT_MAX), EINVAL);
    ck_assert_int_eq(posixtrace_sim_setcpu(INT_MIN), EINVAL);
    ck_assert_int_eq(posixtrace_sim_getcpu(), 5);
    ck_assert_int_eq(posixtrace_sim_setcpu(-1), 0);
    ck_assert_int_eq(posixtrace_sim_getcpu(), -1);
}
END_TEST

/* S0205 (header): timeouts of timedgetnext use the real CLOCK_REALTIME even
 * on a stream with a simulated clock. */
START_TEST(test_sim_timeout_real_clock)
{
    trace_id_t trid = sim_stream(1, 0, 1);
    struct posix_trace_event_info info;
    char buf[4];
    size_t len;
    int unav;
    struct timespec abst = tu_now_plus_ms(40), after;
    ck_assert_int_eq(posix_trace_timedgetnext_event(trid, &info, buf, sizeof buf, &len, &unav, &abst), ETIMEDOUT);
    after = tu_now();
    ck_assert_msg(tu_ns(after) >= tu_ns(abst), "returned before abstime");
    ck_assert_msg(tu_ns(after) - tu_ns(abst) < 2000000000LL, "returned far after abstime");
    tu_shutdown(trid);
}
END_TEST

Suite *suite_sim(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tu_tcase("clock");
    tcase_add_test(tc, test_simclock_attr_roundtrip);
    tcase_add_test(tc, test_simclock_attr_einval);
    tcase_add_test(tc, test_sim_start_and_step);
    tcase_add_test(tc, test_sim_second_boundary);
    tcase_add_test(tc, test_sim_step_zero);
    tcase_add_test(tc, test_sim_now_and_advance);
    tcase_add_test(tc, test_sim_advance_now_einval);
    tcase_add_test(tc, test_sim_clock_per_stream);
    tcase_add_test(tc, test_sim_deterministic);
    tcase_add_test(tc, test_sim_timeout_real_clock);
    suite_add_tcase(s, tc);

    tc = tu_tcase("cpu");
    tcase_add_test(tc, test_sim_cpu_per_thread);
    tcase_add_test(tc, test_sim_cpu_bounds_and_real);
    tcase_add_test(tc, test_real_cpu_is_the_pinned_one);
    tcase_add_test(tc, test_sim_setcpu_einval);
    suite_add_tcase(s, tc);
    return s;
}
