/* SPDX-License-Identifier: MIT */
/*
 * bench_compare.c -- the reference's side of 'make bench-compare' (issue 19
 * item 5; bench/compare.py runs it beside LTTng-UST's, bench/lttng/): one
 * workload a run, its figure on one line "CASE VALUE UNIT", so that the
 * driver can alternate the two tracers run by run and take medians.
 *
 *   bench_compare record-sim N        ns per 8-byte event, simulated clock
 *   bench_compare record-real N       the same, real clock
 *   bench_compare threads T N         T threads, N events in all, one stream:
 *                                     events/s in all (and ns per event)
 *   bench_compare filtered N          ns per event of a type filtered out
 *   bench_compare nostream N          ns per event, no stream in the process
 *   bench_compare log N DIR           N events through a FLUSH stream of 1 MiB
 *                                     into a log in DIR: bytes on disk per
 *                                     event in the log, the share of the N
 *                                     events in it, and the rate at which
 *                                     posix_trace_getnext_event reads it back
 *
 * Without arguments (as 'make bench' runs every bench) it runs each case once
 * with small counts.  The streams have 8 MiB, as LTTng-UST's session has
 * 8 x 1 MiB sub-buffers, and are LOOP (an overwriting ring, as the recording
 * cases of the other tracer).
 */
#include <errno.h>
#include <fcntl.h>
#include <posixtrace_sim.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <trace.h>
#include <unistd.h>

#define STREAM_BYTES (8u << 20)
#define FLUSH_STREAM_BYTES (1u << 20)

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what, int err)
{
    fprintf(stderr, "bench_compare: %s: %s\n", what, strerror(err));
    exit(1);
}

static trace_attr_t stream_attr(int sim, int policy, size_t size)
{
    trace_attr_t a;
    struct timespec start = { 1000, 0 };
    posix_trace_attr_init(&a);
    posix_trace_attr_setstreamsize(&a, size);
    posix_trace_attr_setstreamfullpolicy(&a, policy);
    if (sim)
        posixtrace_attr_setsimclock(&a, &start, 1);
    return a;
}

static trace_id_t started_stream(int sim)
{
    trace_attr_t a = stream_attr(sim, POSIX_TRACE_LOOP, STREAM_BYTES);
    trace_id_t t;
    int err = posix_trace_create(0, &a, &t);
    if (err != 0)
        die("posix_trace_create", err);
    posix_trace_attr_destroy(&a);
    posix_trace_start(t);
    return t;
}

/* n events of 8 bytes. */
static void record_n(trace_event_id_t id, long n)
{
    unsigned long long payload;
    for (long i = 0; i < n; i++) {
        /* Not payload++: its address is passed, so that would make each
         * event wait for the last one's store (store forwarding, ~1 ns). */
        payload = 0x0123456789abcdefULL ^ (unsigned long long)i;
        posix_trace_event(id, &payload, sizeof payload);
    }
}

/* ns per posix_trace_event(id, 8 bytes) over n events, after n / 4 not
 * timed (the stream's pages touched once: bench/lttng does the same). */
static double ns_per_event(trace_event_id_t id, long n)
{
    record_n(id, n / 4);
    double t0 = now_s();
    record_n(id, n);
    return (now_s() - t0) * 1e9 / (double)n;
}

struct worker {
    trace_event_id_t id;
    long n;
    pthread_barrier_t *go;
};

static void *record_thread(void *arg)
{
    struct worker *w = arg;
    pthread_barrier_wait(w->go);
    record_n(w->id, w->n);
    return NULL;
}

/* threads threads record n events in all into one stream; events/s in all,
 * from the common start to the last one's end. */
static double threads_rate(trace_event_id_t id, int threads, long n)
{
    pthread_t th[64];
    struct worker w;
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
    w.id = id;
    w.n = n / threads;
    w.go = &go;
    record_n(id, n / 4);                        /* the pages touched, not timed */
    for (int i = 0; i < threads; i++)
        if (pthread_create(&th[i], NULL, record_thread, &w) != 0)
            die("pthread_create", EAGAIN);
    pthread_barrier_wait(&go);
    double t0 = now_s();
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    double s = now_s() - t0;
    pthread_barrier_destroy(&go);
    return (double)(w.n * threads) / s;
}

/* n events through a FLUSH stream of 1 MiB into a log in dir (APPEND: it
 * keeps all), at full speed; then the log read back. */
static void log_case(trace_event_id_t *id, long n, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_compare.log", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        die(path, errno);
    trace_attr_t a = stream_attr(0, POSIX_TRACE_FLUSH, FLUSH_STREAM_BYTES);
    posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND);
    trace_id_t t;
    int err = posix_trace_create_withlog(0, &a, fd, &t);
    if (err != 0)
        die("posix_trace_create_withlog", err);
    posix_trace_attr_destroy(&a);
    posix_trace_eventid_open("bench.log", id);
    posix_trace_start(t);
    record_n(*id, n);
    posix_trace_shutdown(t);

    struct stat st;
    fstat(fd, &st);
    lseek(fd, 0, SEEK_SET);
    if ((err = posix_trace_open(fd, &t)) != 0)
        die("posix_trace_open", err);
    struct posix_trace_event_info ev;
    unsigned long long buf;
    size_t len;
    int unavailable = 0;
    long got = 0, ours = 0;
    double t0 = now_s();
    while (posix_trace_getnext_event(t, &ev, &buf, sizeof buf, &len, &unavailable) == 0 &&
           !unavailable) {
        got++;
        ours += ev.posix_event_id == *id;
    }
    double s = now_s() - t0;
    posix_trace_close(t);
    close(fd);
    unlink(path);
    printf("log-bytes-per-event %.2f B\n", ours ? (double)st.st_size / (double)ours : 0.0);
    printf("log-kept %.4f fraction\n", (double)ours / (double)n);
    printf("log-events %ld events\n", ours);
    printf("readback %.0f events/s\n", got / (s > 0 ? s : 1e-9));
}

static long arg_count(int argc, char **argv, int i, long dflt)
{
    return argc > i ? atol(argv[i]) : dflt;
}

static int run_case(const char *c, int argc, char **argv)
{
    trace_event_id_t id;
    posix_trace_eventid_open("bench", &id);
    if (strcmp(c, "nostream") == 0) {
        printf("nostream %.2f ns\n", ns_per_event(id, arg_count(argc, argv, 2, 10000000)));
        return 0;
    }
    if (strcmp(c, "log") == 0) {
        log_case(&id, arg_count(argc, argv, 2, 10000000), argc > 3 ? argv[3] : ".");
        return 0;
    }
    if (strcmp(c, "threads") == 0) {
        int threads = (int)arg_count(argc, argv, 2, 2);
        if (threads < 1 || threads > 64)
            return 2;
        trace_id_t t = started_stream(0);
        double rate = threads_rate(id, threads, arg_count(argc, argv, 3, 4000000));
        printf("threads%d %.0f events/s %.2f ns\n", threads, rate, 1e9 / rate);
        posix_trace_shutdown(t);
        return 0;
    }
    int sim = strcmp(c, "record-sim") == 0;
    if (!sim && strcmp(c, "record-real") != 0 && strcmp(c, "filtered") != 0)
        return 2;
    trace_id_t t = started_stream(sim);
    if (strcmp(c, "filtered") == 0) {       /* TEF: the type filtered out */
        trace_event_set_t filter;
        posix_trace_eventset_empty(&filter);
        posix_trace_eventset_add(id, &filter);
        posix_trace_set_filter(t, &filter, POSIX_TRACE_SET_EVENTSET);
    }
    printf("%s %.2f ns\n", c, ns_per_event(id, arg_count(argc, argv, 2, 10000000)));
    posix_trace_shutdown(t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        int st = run_case(argv[1], argc, argv);
        if (st == 2)
            fprintf(stderr, "usage: bench_compare record-sim|record-real|filtered|nostream N\n"
                            "       bench_compare threads T N | log N DIR\n");
        return st;
    }
    /* 'make bench': each case once, small. */
    char *small[][4] = { { "", "nostream", "1000000", NULL }, { "", "record-sim", "1000000", NULL },
                         { "", "record-real", "1000000", NULL }, { "", "filtered", "1000000", NULL },
                         { "", "threads", "2", "1000000" }, { "", "log", "1000000", "/tmp" } };
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        int n = small[i][3] ? 4 : 3;
        if (run_case(small[i][1], n, small[i]) != 0)
            return 1;
    }
    return 0;
}
