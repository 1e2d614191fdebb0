/* SPDX-License-Identifier: MIT */
/*
 * golden_logs.c -- the golden trace logs of the reference (vectors/trl/logs/):
 * a few deterministic scenarios whose log files are pinned byte for byte, so
 * that the log format (reference/log/LOGFORMAT.md) is a regression-tested
 * contract.
 *
 *   golden_logs --dir vectors/trl/logs            check: every scenario's log
 *                                                 equals NAME.log
 *   golden_logs --dir vectors/trl/logs --bless    write NAME.log on purpose
 *   golden_logs --dir vectors/trl/logs --repeat N [--load]
 *                                                 the FLUSH scenarios only, each
 *                                                 N times (under load: spinning
 *                                                 processes on every core and a
 *                                                 spinning thread beside the
 *                                                 recorder): one digest each, the
 *                                                 pinned one
 *   ... --keep OUT                                the FLUSH scenarios' logs also
 *                                                 written to OUT/NAME.log, to
 *                                                 read with tracedump
 *
 * The FLUSH scenarios (flush_scenarios[]) are pinned by their SHA-256 in
 * DIR/flush-digests.tsv rather than byte for byte: a FLUSH stream of 2 KiB
 * flushes itself hundreds of times into an APPEND log, a LOOP log that wraps
 * and an UNTIL_FULL log that fills, with and without posix_trace_flush
 * calls.  On the simulated clock every flush happens in the call that
 * decides it (posix/CHOICES.md, "Trace log"; LOGFORMAT section 9), so
 * the log is the same whatever the machine's speed or load, and the stream
 * loses nothing (posixtrace_get_counts' lost is 0).
 *
 * Exact checks of the reference only: the scenarios use the simulated clock,
 * simulated origins and a simulated CPU (posixtrace_sim.h).  Each scenario runs in a child
 * forked from a process that has opened no event name, because names are
 * process-wide and every log records the process's names.  The writer writes
 * little-endian on every host (reference/log/LOGFORMAT.md, "Byte order"), so the
 * same files are checked on a big-endian or 32-bit target too (make
 * check-cross ARCH=s390x|armhf).
 */
#define _GNU_SOURCE                             /* mkstemp, strerror */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <posixtrace_counts.h>
#include <posixtrace_sim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <trace.h>
#include <unistd.h>
#include "../kvec/kvec.h"                       /* kv_sha256_hex */

#define CHECK(call)                                                             \
    do {                                                                        \
        int rc_ = (call);                                                       \
        if (rc_ != 0) {                                                         \
            fprintf(stderr, "golden_logs: %s: %s\n", #call, strerror(rc_));    \
            _exit(2);                                                           \
        }                                                                       \
    } while (0)

struct scenario {
    const char *name;
    int stream_policy, log_policy;
    size_t logsize, maxdata;
    int events, flush_every;
};

static const struct scenario scenarios[] = {
    /* Three data sizes and a truncated event, in an APPEND log. */
    { "append-basic", POSIX_TRACE_LOOP, POSIX_TRACE_APPEND, 0, 32, 4, 0 },
    /* A LOOP log that wraps several times over its segments. */
    { "loop-wrap", POSIX_TRACE_LOOP, POSIX_TRACE_LOOP, 8192, 16, 600, 50 },
    /* An UNTIL_FULL log that fills up and ends with STOP. */
    { "until-full", POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, 8192, 16, 600, 50 },
};
#define NSCENARIOS (sizeof scenarios / sizeof scenarios[0])

/* FLUSH streams of 2 KiB (a ring of 4 KiB, a flush mark at about 2 KiB) on
 * the simulated clock (1 us a step) with simulated origins: FLUSH_EVENTS
 * events of 8 to 40 bytes, so that the stream crosses its mark some 200
 * times.  flush_every: posix_trace_flush after so many events (0: never). */
struct flush_scenario {
    const char *name;
    int log_policy;
    size_t logsize;
    int flush_every;
    int threads;            /* 1, or 2 taking turns of TURN events */
};

#define TURN 10

#define FLUSH_EVENTS 8000

static const struct flush_scenario flush_scenarios[] = {
    { "flush-append",             POSIX_TRACE_APPEND,     0,         0, 1 },
    { "flush-append-calls",       POSIX_TRACE_APPEND,     0,         333, 1 },
    /* 64 KiB: a LOOP log that wraps several times. */
    { "flush-loop-wrap",          POSIX_TRACE_LOOP,       64 << 10,  0, 1 },
    { "flush-loop-wrap-calls",    POSIX_TRACE_LOOP,       64 << 10,  333, 1 },
    /* 64 KiB: an UNTIL_FULL log that fills within the first 1,000 events
     * (the rest discarded by the log, none lost by the stream). */
    { "flush-until-full",         POSIX_TRACE_UNTIL_FULL, 64 << 10,  0, 1 },
    { "flush-until-full-calls",   POSIX_TRACE_UNTIL_FULL, 64 << 10,  333, 1 },
    /* Two threads of the controller taking turns (the program fixes the
     * order of their calls: LOGFORMAT section 9), each with its own CPU. */
    { "flush-append-2threads",    POSIX_TRACE_APPEND,     0,         333, 2 },
};
#define NFLUSH (sizeof flush_scenarios / sizeof flush_scenarios[0])

static void wait_flushed(trace_id_t t)
{
    struct posix_trace_status_info st;
    for (int i = 0; i < 10000; i++) {
        CHECK(posix_trace_get_status(t, &st));
        if (st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING)
            return;
        usleep(1000);
    }
    fprintf(stderr, "golden_logs: a flush did not complete in 10 s\n");
    _exit(2);
}

/* Writes the scenario's log to fd (in a fresh child process). */
static void write_log(const struct scenario *sc, int fd)
{
    trace_attr_t a;
    trace_id_t t;
    trace_event_id_t alpha, beta;
    struct timespec start = { 1000, 0 };
    CHECK(posix_trace_attr_init(&a));
    CHECK(posix_trace_attr_setname(&a, sc->name));
    CHECK(posixtrace_attr_setsimclock(&a, &start, 10));
    CHECK(posixtrace_attr_setsimorigin(&a, 4242));
    CHECK(posix_trace_attr_setstreamfullpolicy(&a, sc->stream_policy));
    CHECK(posix_trace_attr_setlogfullpolicy(&a, sc->log_policy));
    CHECK(posix_trace_attr_setmaxdatasize(&a, sc->maxdata));
    if (sc->logsize)
        CHECK(posix_trace_attr_setlogsize(&a, sc->logsize));
    CHECK(posixtrace_sim_setcpu(2));
    CHECK(posix_trace_eventid_open("alpha", &alpha));
    CHECK(posix_trace_eventid_open("beta", &beta));
    CHECK(posix_trace_create_withlog(0, &a, fd, &t));
    CHECK(posix_trace_start(t));
    if (sc->events == 4) {
        static const unsigned char bytes[64] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+";
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, NULL, 0);
        posix_trace_event(alpha, bytes, 8);
        posix_trace_event(beta, bytes, 17);
        posix_trace_event(beta, bytes, 64);       /* TRUNCATED_RECORD at 32 */
    } else {
        for (int i = 0; i < sc->events; i++) {
            /* The data are bytes, little-endian on every host (the same
             * as the bytes of v on the host the logs were pinned on), so
             * that the logs are the same everywhere. */
            unsigned long long v = (unsigned long long)i * 0x9e3779b97f4a7c15ULL;
            unsigned char le[8];
            for (int k = 0; k < 8; k++)
                le[k] = (unsigned char)(v >> (8 * k));
            posix_trace_event(i % 3 ? alpha : beta, le, sizeof le);
            if (sc->flush_every && (i + 1) % sc->flush_every == 0) {
                CHECK(posix_trace_flush(t));
                wait_flushed(t);
            }
        }
    }
    CHECK(posix_trace_stop(t));
    CHECK(posix_trace_shutdown(t));
    CHECK(posix_trace_attr_destroy(&a));
}

/* A thread that only burns CPU beside the recorder (--load): the flusher
 * thread of a simulated clock must not matter, however it is scheduled. */
static void *spin(void *arg)
{
    atomic_int *stop = arg;
    volatile unsigned long n = 0;
    while (!atomic_load_explicit(stop, memory_order_relaxed))
        n++;
    return NULL;
}

/* The recorders of a FLUSH scenario: one thread, or two that take turns of
 * TURN events (turn: whose it is), so that the order of their calls is the
 * program's. */
struct recorders {
    const struct flush_scenario *sc;
    trace_id_t t;
    trace_event_id_t ids[3];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int turn, next;         /* next: the next event to record */
};

static void record_one(struct recorders *r, int i)
{
    unsigned char data[40];
    size_t len = 8 + (size_t)(i * 7 % 33);              /* 8 to 40 bytes */
    for (size_t k = 0; k < len; k++)
        data[k] = (unsigned char)(i * 31 + (int)k);
    posix_trace_event(r->ids[i % 3], data, len);
    if (r->sc->flush_every && (i + 1) % r->sc->flush_every == 0)
        CHECK(posix_trace_flush(r->t));
}

/* Thread me's share (0 or 1) of the events. */
static void record_turns(struct recorders *r, int me)
{
    if (r->sc->threads < 2) {
        for (int i = 0; i < FLUSH_EVENTS; i++)
            record_one(r, i);
        return;
    }
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (r->turn != me && r->next < FLUSH_EVENTS)
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->next >= FLUSH_EVENTS)
            break;
        for (int k = 0; k < TURN && r->next < FLUSH_EVENTS; k++)
            record_one(r, r->next++);
        r->turn = 1 - me;
        pthread_cond_broadcast(&r->cv);
    }
    pthread_mutex_unlock(&r->mu);
}

static void *second_recorder(void *arg)
{
    CHECK(posixtrace_sim_setcpu(2));    /* the first records on CPU 1 */
    record_turns(arg, 1);
    return NULL;
}

/* Writes the FLUSH scenario's log to fd (in a fresh child process); exits
 * 3 if the stream lost an event (it must not: its log takes every one). */
static void write_flush_log(const struct flush_scenario *sc, int fd, int load)
{
    trace_attr_t a;
    struct recorders r = { .sc = sc, .ids = { POSIX_TRACE_UNNAMED_USEREVENT, 0, 0 } };
    struct timespec start = { 1000, 0 };
    pthread_t spinner, second;
    atomic_int spin_stop = 0;
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    if (load && pthread_create(&spinner, NULL, spin, &spin_stop) != 0)
        load = 0;
    CHECK(posix_trace_attr_init(&a));
    CHECK(posix_trace_attr_setname(&a, sc->name));
    CHECK(posixtrace_attr_setsimclock(&a, &start, 1000));
    CHECK(posixtrace_attr_setsimorigin(&a, 4242));
    CHECK(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_FLUSH));
    CHECK(posix_trace_attr_setlogfullpolicy(&a, sc->log_policy));
    CHECK(posix_trace_attr_setstreamsize(&a, 2048));
    CHECK(posix_trace_attr_setmaxdatasize(&a, 40));
    if (sc->logsize)
        CHECK(posix_trace_attr_setlogsize(&a, sc->logsize));
    CHECK(posixtrace_sim_setcpu(1));
    CHECK(posix_trace_eventid_open("alpha", &r.ids[1]));
    CHECK(posix_trace_eventid_open("beta", &r.ids[2]));
    CHECK(posix_trace_create_withlog(0, &a, fd, &r.t));
    CHECK(posix_trace_start(r.t));
    if (sc->threads > 1)
        CHECK(pthread_create(&second, NULL, second_recorder, &r));
    record_turns(&r, 0);
    if (sc->threads > 1)
        CHECK(pthread_join(second, NULL));
    struct posixtrace_counts c;
    CHECK(posixtrace_get_counts(r.t, &c));
    CHECK(posix_trace_stop(r.t));
    CHECK(posix_trace_shutdown(r.t));
    CHECK(posix_trace_attr_destroy(&a));
    if (load) {
        atomic_store(&spin_stop, 1);
        pthread_join(spinner, NULL);
    }
    if (c.lost != 0) {
        fprintf(stderr, "golden_logs: %s: the stream lost %llu of %llu events "
                "(its log could take them)\n", sc->name, c.lost, c.recorded);
        _exit(3);
    }
}

/* Reads a whole file; NULL with errno set on failure. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            unsigned char *p = realloc(buf, cap);
            if (p == NULL) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Runs one scenario in a child; 0 if its log is as pinned (or, blessing,
 * was written), 1 otherwise. */
static int run(const struct scenario *sc, const char *dir, int bless)
{
    char tmp[] = "/tmp/golden_log_XXXXXX", want[4096];
    snprintf(want, sizeof want, "%s/%s.log", dir, sc->name);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        perror("golden_logs: mkstemp");
        return 1;
    }
    fflush(NULL);                       /* the child must not print our lines again */
    pid_t pid = fork();
    if (pid == 0) {
        write_log(sc, fd);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fd);
    size_t glen = 0, wlen = 0;
    unsigned char *got = slurp(tmp, &glen), *exp = NULL;
    unlink(tmp);
    int bad = 1;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || got == NULL) {
        printf("FAIL %s: the scenario did not run (status %d)\n", sc->name, st);
    } else if (bless) {
        FILE *f = fopen(want, "wb");
        bad = f == NULL || fwrite(got, 1, glen, f) != glen;
        bad |= f != NULL && fclose(f) != 0;
        printf("%s %s: %zu bytes written to %s\n", bad ? "FAIL" : "BLESSED", sc->name, glen, want);
    } else if ((exp = slurp(want, &wlen)) == NULL) {
        printf("FAIL %s: cannot read %s: %s\n", sc->name, want, strerror(errno));
    } else {
        size_t i = 0;
        while (i < glen && i < wlen && got[i] == exp[i])
            i++;
        if (i == glen && i == wlen) {
            bad = 0;
            printf("PASS %s (%zu bytes)\n", sc->name, glen);
        } else if (i < glen && i < wlen) {
            printf("FAIL %s: the log differs from %s at byte %zu (expected 0x%02x, got 0x%02x); "
                   "if the change is meant, 'make bless-logs' and review with tracedump\n",
                   sc->name, want, i, exp[i], got[i]);
        } else {
            printf("FAIL %s: the log has %zu bytes, %s has %zu (equal up to there); "
                   "if the change is meant, 'make bless-logs'\n", sc->name, glen, want, wlen);
        }
    }
    free(got);
    free(exp);
    return bad;
}

/* ---- the FLUSH scenarios, pinned by digest ---------------------------------------- */

/* Runs a FLUSH scenario once in a child; its log's SHA-256 in hex (65
 * bytes) and length.  0, or 1 if the scenario failed. */
static int flush_digest(const struct flush_scenario *sc, int load, const char *keep,
                        char hex[65], size_t *len)
{
    char tmp[] = "/tmp/golden_flush_XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0) {
        perror("golden_logs: mkstemp");
        return 1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        write_flush_log(sc, fd, load);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fd);
    unsigned char *got = slurp(tmp, len);
    unlink(tmp);
    if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || got == NULL) {
        printf("FAIL %s: the scenario did not run (status %d)\n", sc->name, st);
        free(got);
        return 1;
    }
    if (keep != NULL) {                 /* --keep: the log itself, for tracedump */
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.log", keep, sc->name);
        FILE *f = fopen(path, "wb");
        if (f == NULL || fwrite(got, 1, *len, f) != *len || fclose(f) != 0)
            printf("WARN %s: cannot write %s\n", sc->name, path);
    }
    kv_sha256_hex(got, *len, hex);
    free(got);
    return 0;
}

/* The pinned digest of scenario name in the table (NAME, SHA-256, bytes: a
 * line each, # comments); 0 if found. */
static int pinned_digest(const char *table, const char *name, char hex[65], size_t *len)
{
    FILE *f = fopen(table, "r");
    if (f == NULL)
        return -1;
    char line[512], n[128], h[128];
    unsigned long long bytes;
    int found = -1;
    while (found != 0 && fgets(line, sizeof line, f) != NULL)
        if (line[0] != '#' && sscanf(line, "%127s %127s %llu", n, h, &bytes) == 3 &&
            strcmp(n, name) == 0 && strlen(h) == 64) {
            memcpy(hex, h, 65);
            *len = (size_t)bytes;
            found = 0;
        }
    fclose(f);
    return found;
}

/* Load on every core: two spinning processes a processor, killed by
 * stop_load. */
static int start_load(pid_t *pids, int max)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int n = cpus > 0 ? (int)(2 * cpus) : 4;
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            volatile unsigned long k = 0;
            for (;;)
                if (++k % 100000 == 0)
                    getppid();          /* a system call now and then */
        }
        if (pids[i] < 0)
            return i;
    }
    return n;
}

static void stop_load(const pid_t *pids, int n)
{
    for (int i = 0; i < n; i++) {
        kill(pids[i], SIGKILL);
        waitpid(pids[i], NULL, 0);
    }
}

/* Every FLUSH scenario repeat times (blessing: once, into the table): each
 * gives one digest, the pinned one.  Returns the number of failures. */
static int run_flush_scenarios(const char *dir, int bless, int repeat, int load,
                               const char *keep)
{
    char table[4096];
    snprintf(table, sizeof table, "%s/flush-digests.tsv", dir);
    FILE *out = NULL;
    if (bless) {
        out = fopen(table, "w");
        if (out == NULL) {
            printf("FAIL cannot write %s: %s\n", table, strerror(errno));
            return 1;
        }
        fprintf(out, "# The SHA-256 of the golden logs of FLUSH streams on the simulated clock\n"
                "# (harness/golden/golden_logs.c, flush_scenarios): scenario, digest, bytes.\n"
                "# Written by 'make bless-logs'.\n");
    }
    pid_t loaders[256];
    int nload = load ? start_load(loaders, 256) : 0;
    int failed = 0;
    for (size_t i = 0; i < NFLUSH; i++) {
        const struct flush_scenario *sc = &flush_scenarios[i];
        char want[65] = "", got[65];
        size_t wlen = 0, glen = 0;
        if (!bless && pinned_digest(table, sc->name, want, &wlen) != 0) {
            printf("FAIL %s: no digest in %s ('make bless-logs')\n", sc->name, table);
            failed++;
            continue;
        }
        int bad = 0, distinct = 0, wrong = 0, runs = bless ? 1 : repeat;
        char seen[8][65];
        for (int r = 0; r < runs; r++) {
            if (flush_digest(sc, load, keep, got, &glen) != 0) {
                bad = 1;
                break;
            }
            int k = 0;
            while (k < distinct && strcmp(seen[k], got) != 0)
                k++;
            if (k == distinct && distinct < 8)
                memcpy(seen[distinct++], got, 65);
            if (!bless && (strcmp(got, want) != 0 || glen != wlen) && wrong++ == 0)
                printf("FAIL %s: run %d of %d: sha256 %s (%zu bytes), pinned %s (%zu bytes); "
                       "if the change is meant, 'make bless-logs'\n", sc->name, r + 1, runs,
                       got, glen, want, wlen);
        }
        if (!bad && bless) {
            fprintf(out, "%s\t%s\t%zu\n", sc->name, got, glen);
            printf("BLESSED %s: sha256 %s (%zu bytes)\n", sc->name, got, glen);
        } else if (!bad && (wrong > 0 || distinct > 1)) {
            printf("FAIL %s: %d run%s%s, %d distinct digest%s, %d not the pinned one\n",
                   sc->name, runs, runs > 1 ? "s" : "", load ? " under load" : "", distinct,
                   distinct > 1 ? "s" : "", wrong);
            bad = 1;
        } else if (!bad) {
            printf("PASS %s: %d run%s%s, %d distinct digest (%zu bytes)\n", sc->name, runs,
                   runs > 1 ? "s" : "", load ? " under load" : "", distinct, glen);
        }
        failed += bad;
    }
    stop_load(loaders, nload);
    if (out != NULL && fclose(out) != 0)
        failed++;
    return failed;
}

int main(int argc, char **argv)
{
    const char *dir = "vectors/trl/logs", *keep = NULL;
    int bless = 0, repeat = 0, load = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--bless") == 0)
            bless = 1;
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--load") == 0)
            load = 1;
        else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            keep = argv[++i];
        else {
            fprintf(stderr, "usage: golden_logs [--dir DIR] [--bless | --repeat N [--load]] [--keep DIR]\n");
            return 2;
        }
    }
    int failed = 0;
    size_t total = NFLUSH;
    if (repeat == 0) {
        total += NSCENARIOS;
        for (size_t i = 0; i < NSCENARIOS; i++)
            failed += run(&scenarios[i], dir, bless);
    }
    failed += run_flush_scenarios(dir, bless, repeat ? repeat : 1, load, keep);
    printf("%zu passed, %d failed\n", total - (size_t)failed, failed);
    return failed ? 1 : 0;
}
