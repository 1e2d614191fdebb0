/* SPDX-License-Identifier: MIT */
/*
 * bench_lttng.c -- LTTng-UST's side of 'make bench-compare' (bench/compare.py
 * sets up the session with lttng(1) and runs this beside
 * reference/bench/bench_compare.c): the same workloads, one a run, the
 * figure on one line "CASE VALUE UNIT".
 *
 *   bench_lttng record N       ns per tracepoint bench:ev8 (8 bytes); whether
 *                              it is recorded, not enabled, or there is no
 *                              session is the driver's doing, so the same
 *                              program gives the three cases
 *   bench_lttng threads T N    T threads, N events in all: events/s in all
 *   bench_lttng burst N        exactly N events at full speed, nothing more
 *                              (the log cases count what reached the trace)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_tp.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* n tracepoints bench:ev8. */
static void record_n(long n)
{
    uint64_t v = 0x0123456789abcdefULL;
    for (long i = 0; i < n; i++) {
        v++;
        tracepoint(bench, ev8, v);
    }
}

/* ns per tracepoint over n, after n / 4 not timed (the buffers' pages
 * touched once, as the reference's bench does). */
static double ns_per_event(long n)
{
    record_n(n / 4);
    double t0 = now_s();
    record_n(n);
    return (now_s() - t0) * 1e9 / (double)n;
}

struct worker {
    long n;
    pthread_barrier_t *go;
};

static void *record_thread(void *arg)
{
    struct worker *w = arg;
    pthread_barrier_wait(w->go);
    record_n(w->n);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "record") == 0) {
        printf("record %.2f ns\n", ns_per_event(atol(argv[2])));
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "burst") == 0) {
        long n = atol(argv[2]);
        double t0 = now_s();
        record_n(n);
        printf("burst %.2f ns\n", (now_s() - t0) * 1e9 / (double)n);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "threads") == 0) {
        int threads = atoi(argv[2]);
        pthread_t th[64];
        pthread_barrier_t go;
        if (threads < 1 || threads > 64)
            return 2;
        struct worker w = { atol(argv[3]) / threads, &go };
        pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
        record_n(w.n * threads / 4);            /* the pages touched, not timed */
        for (int i = 0; i < threads; i++)
            if (pthread_create(&th[i], NULL, record_thread, &w) != 0)
                return 1;
        pthread_barrier_wait(&go);
        double t0 = now_s();
        for (int i = 0; i < threads; i++)
            pthread_join(th[i], NULL);
        double rate = (double)(w.n * threads) / (now_s() - t0);
        printf("threads%d %.0f events/s %.2f ns\n", threads, rate, 1e9 / rate);
        return 0;
    }
    fprintf(stderr, "usage: bench_lttng record N | threads T N | burst N\n");
    return 2;
}
