/* SPDX-License-Identifier: MIT */
/*
 * fault_loop -- one logging scenario with the Nth call of one kind failed
 * (issue 20 item 1; harness/tests/test_fault_loop.py runs it for every N).
 *
 *   fault_loop count      runs the scenario with no fault and prints, a kind
 *                         a line, "KIND CALLS": the calls it made
 *   fault_loop KIND N     fails the Nth call of KIND (fault_inject.h) and
 *                         checks the outcome; prints one line, "ok ..." or
 *                         "FAIL[CLASS] why ...", exits 0 or 1
 *   fault_loop fsize N    the same with no call failed but a file size limit
 *                         of N bytes (RLIMIT_FSIZE, SIGXFSZ left at its default
 *                         action, which kills: the writes must not raise it,
 *                         issue 20 item 1): the errors expected are EFBIG
 *
 * The scenario: posix_trace_create_withlog (FLUSH stream policy, a 1 KiB
 * stream that fills and flushes by itself many times, an APPEND log),
 * events recorded, posix_trace_flush, more events, stop, shutdown, then
 * posix_trace_open and every event read.  Calls are counted from
 * posix_trace_attr_init to the last read.  What is checked, each with its
 * rule:
 *   - create_withlog fails only as documented: ENOMEM (S0118,
 *     create_withlog.ENOMEM) when memory, a mapping or a shared memory object
 *     cannot be had; the write's error, ENOSPC (S0119, create_withlog.ENOSPC),
 *     or EIO (reference/log/LOGFORMAT.md section 6) when the log's first
 *     write or truncation fails;
 *   - posix_trace_flush returns 0 (or EFBIG under a file size limit the log
 *     has reached by the stream's own flushes: S0120): the write is the
 *     flusher's, its error is reported by posix_stream_flush_error (S0253,
 *     S0254) or by shutdown (S0120, shutdown.ENOSPC), one of which must say
 *     ENOSPC when a write of the log failed;
 *   - no signal ends the process (SIGXFSZ, SIGBUS, SIGPIPE keep their
 *     default action here: the test sees a death as a signal);
 *   - posix_trace_open returns 0, or ENOMEM when its memory fails (then it
 *     is opened again, the window closed): the log opens;
 *   - the events read are whole and in order (each user event carries its
 *     sequence number, strictly increasing), and their count is exactly the
 *     log's written count (<posixtrace_counts.h>), and written + discarded +
 *     lost is exactly what the stream recorded (counted before shutdown).
 * The failure classes: "log" when the log's contents or counts disagree
 * (what issue 20 item 2 fixes in the log format), "api" for a wrong error
 * number, "read" for a log that does not open or reads garbled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <posixtrace_counts.h>
#include <posixtrace_sim.h>
#include <trace.h>
#include "fault_inject.h"

#define FIRST_EVENTS  200
#define MORE_EVENTS   100

static int fail(const char *cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const char *cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL[%s] ", cls);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    return 1;
}

/* Waits for the flush in progress to end; keeps the first flush error seen. */
static void settle(trace_id_t trid, int *flush_error)
{
    struct posix_trace_status_info st;
    for (int i = 0; i < 20000; i++) {
        if (posix_trace_get_status(trid, &st) != 0)
            return;
        if (st.posix_stream_flush_error != 0 && *flush_error == 0)
            *flush_error = st.posix_stream_flush_error;
        if (st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING)
            return;
        usleep(100);
    }
}

struct outcome {
    int create, eventid, flush, flush_error, shutdown, open, reopened;
    struct posixtrace_counts before, log;
    unsigned long long read, user;
    int disorder;
};

static void record(trace_event_id_t id, unsigned from, unsigned n)
{
    for (unsigned i = from; i < from + n; i++) {
        unsigned long long seq = i;
        posix_trace_event(id, &seq, sizeof seq);
    }
}

static void read_log(trace_id_t trid, struct outcome *o)
{
    struct posix_trace_event_info ev;
    unsigned long long data[4], last = 0;
    size_t len;
    int unavailable = 0;
    while (posix_trace_getnext_event(trid, &ev, data, sizeof data, &len, &unavailable) == 0 &&
           !unavailable) {
        o->read++;
        if (ev.posix_event_id > POSIX_TRACE_UNNAMED_USEREVENT && len == sizeof data[0]) {
            if (o->user > 0 && data[0] <= last)
                o->disorder = 1;
            last = data[0];
            o->user++;
        }
    }
}

static int scenario(FILE *log, struct outcome *o)
{
    int fd = fileno(log);
    trace_attr_t attr;
    trace_id_t trid;
    struct timespec start = { 1000, 0 };
    memset(o, 0, sizeof *o);
    o->create = posix_trace_attr_init(&attr);
    if (o->create != 0)
        return 0;
    posix_trace_attr_setstreamfullpolicy(&attr, POSIX_TRACE_FLUSH);
    posix_trace_attr_setlogfullpolicy(&attr, POSIX_TRACE_APPEND);
    posix_trace_attr_setstreamsize(&attr, 1024);
    posix_trace_attr_setmaxdatasize(&attr, 16);
    posixtrace_attr_setsimclock(&attr, &start, 1000);
    posixtrace_attr_setsimorigin(&attr, 4242);
    o->create = posix_trace_create_withlog(0, &attr, fd, &trid);
    posix_trace_attr_destroy(&attr);
    if (o->create != 0)
        return 0;
    trace_event_id_t id;
    o->eventid = posix_trace_eventid_open("fault.loop", &id);
    posix_trace_start(trid);
    if (o->eventid == 0)
        record(id, 1, FIRST_EVENTS);
    o->flush = posix_trace_flush(trid);
    settle(trid, &o->flush_error);
    if (o->eventid == 0)
        record(id, FIRST_EVENTS + 1, MORE_EVENTS);
    posix_trace_stop(trid);
    settle(trid, &o->flush_error);
    posixtrace_get_counts(trid, &o->before);
    o->shutdown = posix_trace_shutdown(trid);

    lseek(fd, 0, SEEK_SET);
    o->open = posix_trace_open(fd, &trid);
    if (o->open == ENOMEM) {
        fault_window(0);                /* the log itself must still open */
        lseek(fd, 0, SEEK_SET);
        o->reopened = posix_trace_open(fd, &trid);
        if (o->reopened != 0)
            return 0;
    } else if (o->open != 0) {
        return 0;
    }
    posixtrace_get_counts(trid, &o->log);
    read_log(trid, o);
    posix_trace_close(trid);
    return 0;
}

static int errno_in(int e, const int *allowed)
{
    for (; *allowed; allowed++)
        if (e == *allowed)
            return 1;
    return 0;
}

static int efbig;           /* fsize mode: the write errors are EFBIG */

static int judge(int kind, unsigned long n, const struct outcome *o)
{
    static const int create_errs[FAULT_KINDS][3] = {
        [FAULT_WRITE] = { ENOSPC }, [FAULT_FSYNC] = { EIO }, [FAULT_FTRUNCATE] = { EIO, ENOMEM },
        [FAULT_MMAP] = { ENOMEM }, [FAULT_MALLOC] = { ENOMEM, EAGAIN }, [FAULT_SHM_OPEN] = { ENOMEM },
        [FAULT_OPEN] = { ENOMEM },
    };
    static const int io_err[FAULT_KINDS] = {
        [FAULT_WRITE] = ENOSPC, [FAULT_FSYNC] = EIO, [FAULT_FTRUNCATE] = EIO,
    };
    const char *k = efbig ? "fsize" : fault_kind_names[kind];
    int io = efbig ? EFBIG : io_err[kind];
    if (o->create != 0) {
        if (efbig ? o->create != EFBIG : !errno_in(o->create, create_errs[kind]))
            return fail("api", "%s #%lu: create_withlog returned %d (%s)", k, n, o->create,
                        strerror(o->create));
        printf("ok %s #%lu: create_withlog %s\n", k, n, strerror(o->create));
        return 0;
    }
    if (o->eventid != 0 && o->eventid != ENOMEM)
        return fail("api", "%s #%lu: eventid_open returned %d", k, n, o->eventid);
    /* Under a file size limit the log may have reached it, by the stream's
     * own flushes, before posix_trace_flush: EFBIG then (S0120, flush.EFBIG);
     * how far they got depends on timing. */
    if (o->flush != 0 && !(efbig && o->flush == EFBIG))
        return fail("api", "%s #%lu: posix_trace_flush returned %d (its errors are the "
                    "flusher's: S0253)", k, n, o->flush);
    for (const int *e = (const int[]){ o->flush_error, o->shutdown, 0 }; *e; e++)
        if (*e != io && !(kind == FAULT_MALLOC && *e == ENOMEM))
            return fail("api", "%s #%lu: flush error or shutdown %d (%s), not the fault's",
                        k, n, *e, strerror(*e));
    if (io && (efbig || fault_injected()) && o->flush_error == 0 && o->shutdown == 0 &&
        o->before.written + o->before.discarded == o->before.flushed &&
        o->log.discarded > 0)
        return fail("api", "%s #%lu: a write failed, events were discarded, and no call "
                    "said so (S0253, S0120)", k, n);
    if (o->open != 0 && !(o->open == ENOMEM && o->reopened == 0))
        return fail("read", "%s #%lu: posix_trace_open returned %d (%s), reopened %d", k, n,
                    o->open, strerror(o->open), o->reopened);
    if (o->disorder)
        return fail("read", "%s #%lu: user events out of order or repeated", k, n);
    if (o->read != o->log.written)
        return fail("log", "%s #%lu: %llu events read, the log says %llu written "
                    "(%llu discarded)", k, n, o->read, o->log.written, o->log.discarded);
    if (o->log.written + o->log.discarded + o->log.lost != o->before.recorded)
        return fail("log", "%s #%lu: written %llu + discarded %llu + lost %llu != recorded "
                    "%llu", k, n, o->log.written, o->log.discarded, o->log.lost,
                    o->before.recorded);
    printf("ok %s #%lu: flush error %d shutdown %d open %d read %llu (user %llu) written %llu "
           "discarded %llu lost %llu\n", k, n, o->flush_error, o->shutdown, o->open, o->read,
           o->user, o->log.written, o->log.discarded, o->log.lost);
    return 0;
}

int main(int argc, char **argv)
{
    int counting = argc == 2 && strcmp(argv[1], "count") == 0;
    efbig = argc == 3 && strcmp(argv[1], "fsize") == 0;
    int kind = efbig ? FAULT_WRITE : argc == 3 ? fault_kind_of(argv[1]) : -1;
    char *end = NULL;
    unsigned long n = argc == 3 ? strtoul(argv[2], &end, 10) : 0;
    if (!counting && (kind < 0 || end == argv[2] || *end != '\0' || n == 0)) {
        fprintf(stderr, "usage: fault_loop count | fault_loop KIND N (KIND: write, fsync, "
                "ftruncate, mmap, malloc, shm_open, open; N >= 1)\n");
        return 2;
    }
    FILE *log = tmpfile();
    if (log == NULL) {
        perror("fault_loop: tmpfile");
        return 2;
    }
    struct outcome o;
    if (efbig) {
        struct rlimit lim = { (rlim_t)n, RLIM_INFINITY };
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
            perror("fault_loop: setrlimit");
            return 2;
        }
    } else if (!counting) {
        fault_arm((enum fault_kind)kind, n);
    }
    fault_window(1);
    scenario(log, &o);
    fault_window(0);
    if (counting) {
        for (int k = 0; k < FAULT_KINDS; k++)
            printf("%s %lu\n", fault_kind_names[k], fault_calls((enum fault_kind)k));
        return judge(FAULT_WRITE, 0, &o);
    }
    if (!efbig && !fault_injected())
        printf("note: the run made fewer than %lu %s calls\n", n, fault_kind_names[kind]);
    return judge(kind, n, &o);
}
