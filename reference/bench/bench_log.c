/* SPDX-License-Identifier: MIT */
/*
 * bench_log.c -- the trace log's size and speed (make bench): bytes on disk
 * per 8-byte event (reference/log/LOGFORMAT.md section 3; issue 19 asks for
 * at most 20), the header and metadata apart, and how fast the flusher
 * writes a full stream out (events and megabytes per second).  One thread,
 * or two recording at once; the simulated clock or the real one.
 */
#include <posixtrace_sim.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <trace.h>
#include <unistd.h>

#define EVENTS 400000L          /* a thread's, in a stream that holds them all */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *record(void *arg)
{
    (void)arg;
    unsigned long long payload = 0x0123456789abcdefULL;
    for (long i = 0; i < EVENTS; i++)
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, &payload, sizeof payload);
    return NULL;
}

static void run(int sim, int threads)
{
    char path[] = "/tmp/bench_log_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("bench_log: mkstemp");
        exit(1);
    }
    unlink(path);
    trace_attr_t a;
    trace_id_t t;
    struct timespec start = { 1000, 0 };
    posix_trace_attr_init(&a);
    posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL);
    posix_trace_attr_setstreamsize(&a, (size_t)threads * EVENTS * 64 + (1 << 20));
    posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
    if (sim)
        posixtrace_attr_setsimclock(&a, &start, 100);
    if (posix_trace_create_withlog(0, &a, fd, &t) != 0 || posix_trace_start(t) != 0) {
        fprintf(stderr, "bench_log: posix_trace_create_withlog failed\n");
        exit(1);
    }
    posix_trace_attr_destroy(&a);
    off_t fixed = lseek(fd, 0, SEEK_END);
    pthread_t th[2];
    for (int i = 0; i < threads; i++)
        pthread_create(&th[i], NULL, record, NULL);
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    double t0 = now_s();
    posix_trace_shutdown(t);                /* writes the whole stream */
    double s = now_s() - t0;
    off_t end = lseek(fd, 0, SEEK_END);
    double n = (double)threads * EVENTS, bytes = (double)(end - fixed);
    printf("log, %s clock, %d thread%s: %.2f bytes on disk per 8-byte event (header and "
           "metadata %lld bytes apart); written at %.1f M events/s, %.0f MB/s\n",
           sim ? "simulated" : "real", threads, threads > 1 ? "s" : "", bytes / n,
           (long long)fixed, n / s / 1e6, bytes / s / 1e6);
    close(fd);
}

int main(void)
{
    run(1, 1);
    run(0, 1);
    run(0, 2);
    return 0;
}
