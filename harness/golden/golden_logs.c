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
 *
 * Exact checks of the reference only: the scenarios use the simulated clock,
 * simulated origins and a simulated CPU (posixtrace_sim.h), and stream and
 * log policies whose flushes happen only when asked (a FLUSH-policy stream
 * flushes by itself, racing the recorder).  Each scenario runs in a child
 * forked from a process that has opened no event name, because names are
 * process-wide and every log records the process's names.  The writer writes
 * little-endian on every host (reference/log/LOGFORMAT.md, "Byte order"), so the
 * same files are checked on a big-endian or 32-bit target too (make
 * check-cross ARCH=s390x|armhf).
 */
#define _GNU_SOURCE                             /* mkstemp, strerror */
#include <errno.h>
#include <fcntl.h>
#include <posixtrace_sim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <trace.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
    const char *dir = "vectors/trl/logs";
    int bless = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--bless") == 0)
            bless = 1;
        else {
            fprintf(stderr, "usage: golden_logs [--dir DIR] [--bless]\n");
            return 2;
        }
    }
    int failed = 0;
    for (size_t i = 0; i < NSCENARIOS; i++)
        failed += run(&scenarios[i], dir, bless);
    printf("%zu passed, %d failed\n", NSCENARIOS - (size_t)failed, failed);
    return failed ? 1 : 0;
}
