/* SPDX-License-Identifier: MIT */
/*
 * bench_record.c -- how long the reference takes to record and to read an
 * event (make bench).  Figures are ns per event, best of several rounds, one
 * thread on one core: the developers' guide targets at most 20 ns to record
 * 8 bytes, and a filtered-out or unrecorded event nearly free.
 */
#include <posixtrace_sim.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <trace.h>
#include <unistd.h>

#define ROUNDS 5

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static trace_id_t make_stream(int sim, int policy, size_t size, int inherit)
{
    trace_attr_t a;
    trace_id_t t;
    struct timespec start = { 1000, 0 };
    posix_trace_attr_init(&a);
    posix_trace_attr_setstreamsize(&a, size);
    posix_trace_attr_setstreamfullpolicy(&a, policy);
    if (sim)
        posixtrace_attr_setsimclock(&a, &start, 1);
    posix_trace_attr_setinherited(&a, inherit);
    if (posix_trace_create(0, &a, &t) != 0) {
        fprintf(stderr, "bench: posix_trace_create failed\n");
        exit(1);
    }
    posix_trace_attr_destroy(&a);
    return t;
}

/* ns per posix_trace_event(id, 8 bytes), best of ROUNDS rounds of n. */
static double time_record(trace_event_id_t id, long n)
{
    double best = 1e9;
    unsigned long long payload = 0x0123456789abcdefULL;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_s();
        for (long i = 0; i < n; i++)
            posix_trace_event(id, &payload, sizeof payload);
        double ns = (now_s() - t0) * 1e9 / (double)n;
        if (ns < best)
            best = ns;
    }
    return best;
}

/* ns per event to read n events recorded just before. */
static double time_read(trace_id_t t, trace_event_id_t id, long n)
{
    double best = 1e9;
    unsigned long long payload = 1, buf;
    struct posix_trace_event_info ev;
    size_t len;
    int unavailable;
    for (int r = 0; r < ROUNDS; r++) {
        posix_trace_clear(t);
        for (long i = 0; i < n; i++)
            posix_trace_event(id, &payload, sizeof payload);
        double t0 = now_s();
        long got = 0;
        while (posix_trace_trygetnext_event(t, &ev, &buf, sizeof buf, &len, &unavailable) == 0 &&
               !unavailable)
            got++;
        double ns = (now_s() - t0) * 1e9 / (double)(got ? got : 1);
        if (ns < best)
            best = ns;
    }
    return best;
}

/* A thread that only waits for its pipe to close: with it the process is
 * no longer single-threaded, and the locks of private streams take their
 * atomic path (shm_lock.h). */
static void *idle_thread(void *arg)
{
    char c;
    while (read(*(int *)arg, &c, 1) > 0)
        ;
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    trace_event_id_t id;
    posix_trace_eventid_open("bench", &id);

    printf("%-52s %8.1f ns\n", "record, no stream in the process", time_record(id, n));

    trace_id_t t = make_stream(1, POSIX_TRACE_LOOP, 1 << 20, POSIX_TRACE_CLOSE_FOR_CHILD);
    printf("%-52s %8.1f ns\n", "record, stream suspended", time_record(id, n));
    posix_trace_start(t);
    printf("%-52s %8.1f ns\n", "record 8 B, simulated clock, LOOP (wrapping)", time_record(id, n));
    trace_event_set_t filter;                   /* TEF: the event type filtered out */
    posix_trace_eventset_empty(&filter);
    posix_trace_eventset_add(id, &filter);
    posix_trace_set_filter(t, &filter, POSIX_TRACE_SET_EVENTSET);
    printf("%-52s %8.1f ns\n", "record 8 B, filtered out (stream running)", time_record(id, n));
    posix_trace_shutdown(t);

    /* TRI: children may record into it, so its lock is shared between
     * processes and must survive one of them dying (shm.h). */
    t = make_stream(1, POSIX_TRACE_LOOP, 1 << 20, POSIX_TRACE_INHERITED);
    posix_trace_start(t);
    printf("%-52s %8.1f ns\n", "record 8 B, simulated clock, stream shared (INHERITED)",
           time_record(id, n));
    posix_trace_shutdown(t);

    t = make_stream(0, POSIX_TRACE_LOOP, 1 << 20, POSIX_TRACE_CLOSE_FOR_CHILD);
    posix_trace_start(t);
    printf("%-52s %8.1f ns\n", "record 8 B, CLOCK_REALTIME, LOOP (wrapping)", time_record(id, n));
    posix_trace_shutdown(t);

    long fit = (1 << 24) / 48;
    t = make_stream(1, POSIX_TRACE_UNTIL_FULL, 1 << 24, POSIX_TRACE_CLOSE_FOR_CHILD);
    posix_trace_start(t);
    printf("%-52s %8.1f ns\n", "read 8 B events (trygetnext)", time_read(t, id, fit - 1));
    posix_trace_shutdown(t);

    int idle[2];
    pthread_t th;
    if (pipe(idle) != 0 || pthread_create(&th, NULL, idle_thread, &idle[0]) != 0) {
        fprintf(stderr, "bench: cannot start a second thread\n");
        return 1;
    }
    t = make_stream(1, POSIX_TRACE_LOOP, 1 << 20, POSIX_TRACE_CLOSE_FOR_CHILD);
    posix_trace_start(t);
    printf("%-52s %8.1f ns\n", "record 8 B, simulated clock, process of 2 threads",
           time_record(id, n));
    posix_trace_shutdown(t);
    close(idle[1]);
    pthread_join(th, NULL);
    close(idle[0]);
    return 0;
}
