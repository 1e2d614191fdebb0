/* SPDX-License-Identifier: MIT */
/*
 * check_log_writefail.c -- a trace log whose writes fail (issue 20, items 1
 * and 2; LOGFORMAT sections 2, 6 and 7): create_withlog under a file size
 * limit below its header returns EFBIG and leaves the caller's signal state
 * as it was; a log cut by RLIMIT_FSIZE in the middle of a segment keeps
 * every whole record on disk, and its final status counts exactly what it
 * holds.
 */
#include "check_log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "log/log_format.h"
#include "log/log_reader.h"

/* Under valgrind (CK_FORK=no, the check-valgrind run) the loops run fewer
 * rounds. */
static int light(void)
{
    const char *f = getenv("CK_FORK");
    return f != NULL && strcmp(f, "no") == 0;
}

static int set_fsize(rlim_t limit, char *msg, size_t len)
{
    struct rlimit rl;
    getrlimit(RLIMIT_FSIZE, &rl);
    rl.rlim_cur = limit;
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) {
        snprintf(msg, len, "setrlimit: %s", strerror(errno));
        return 1;
    }
    return 0;
}

/* ---- create_withlog under a file size limit -------------------------------------- */

struct xfsz_arg {
    int fd;
    int blocked_pending;        /* the caller blocks SIGXFSZ and has one pending */
};

/* S0117, S0119 and XSH 2.3 (an implementation may give an error for a
 * condition of its own): create_withlog whose header and metadata area
 * pass RLIMIT_FSIZE returns EFBIG, with SIGXFSZ at its default action (it
 * would kill the process); the caller's signal mask, pending signals and
 * SIGXFSZ's action are as before. */
static int xfsz_child(void *p, char *msg, size_t len)
{
    struct xfsz_arg *a = p;
    sigset_t one, before, after, pending;
    sigemptyset(&one);
    sigaddset(&one, SIGXFSZ);
    signal(SIGXFSZ, SIG_DFL);
    if (a->blocked_pending) {
        pthread_sigmask(SIG_BLOCK, &one, NULL);
        raise(SIGXFSZ);
    }
    pthread_sigmask(SIG_BLOCK, NULL, &before);
    if (set_fsize(1000, msg, len) != 0)
        return 1;
    trace_id_t trid;
    int rc = posix_trace_create_withlog(0, NULL, a->fd, &trid);
    if (rc != EFBIG) {
        snprintf(msg, len, "create_withlog under a 1000-byte file size limit: %d, not EFBIG "
                 "(%d)", rc, EFBIG);
        return 1;
    }
    pthread_sigmask(SIG_BLOCK, NULL, &after);
    for (int sig = 1; sig < 65; sig++)
        if (sigismember(&before, sig) != sigismember(&after, sig)) {
            snprintf(msg, len, "the signal mask changed (signal %d)", sig);
            return 1;
        }
    sigpending(&pending);
    if (sigismember(&pending, SIGXFSZ) != a->blocked_pending) {
        snprintf(msg, len, "SIGXFSZ pending: %d, expected %d", sigismember(&pending, SIGXFSZ),
                 a->blocked_pending);
        return 1;
    }
    struct sigaction sa;
    sigaction(SIGXFSZ, NULL, &sa);
    if (sa.sa_handler != SIG_DFL) {
        snprintf(msg, len, "SIGXFSZ's action changed");
        return 1;
    }
    if (a->blocked_pending) {
        const struct timespec now = { 0, 0 };
        sigtimedwait(&one, NULL, &now);        /* the caller's own, taken back */
    }
    return 0;
}

START_TEST(test_create_withlog_efbig)
{
    for (int blocked = 0; blocked < 2; blocked++) {
        int fd = lu_tmpfile();
        struct xfsz_arg a = { fd, blocked };
        tu_run_in_child(xfsz_child, &a);
        close(fd);
    }
}
END_TEST

/* ---- a log cut by RLIMIT_FSIZE in the middle of a segment ------------------------ */

struct fsize_arg {
    int fd;
    rlim_t limit;               /* 0: none (the reference run) */
    uint32_t seed;
    int policy;                 /* log-full-policy */
    int result_fd;              /* where the child writes the events it recorded */
};

static uint32_t next_rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* A deterministic scenario (simulated clock and origins): 3000 user events
 * of 4 to 40 bytes, flushed every 50 to 400 events, each flush awaited;
 * shutdown then returns 0 or EFBIG (S0120). */
static int fsize_child(void *p, char *msg, size_t len)
{
    struct fsize_arg *a = p;
    trace_attr_t at;
    trace_id_t trid;
    trace_event_id_t id;
    struct timespec start = { TU_SIM_START_SEC, 0 };
    posix_trace_attr_init(&at);
    posix_trace_attr_setstreamfullpolicy(&at, POSIX_TRACE_UNTIL_FULL);
    posix_trace_attr_setstreamsize(&at, 1 << 20);
    posix_trace_attr_setlogfullpolicy(&at, a->policy);
    posix_trace_attr_setlogsize(&at, 1 << 20);
    posix_trace_attr_setmaxdatasize(&at, 64);
    posixtrace_attr_setsimclock(&at, &start, TU_SIM_STEP_NS);
    posixtrace_attr_setsimorigin(&at, 4242);
    posix_trace_eventid_open("log.writefail.fsize", &id);
    int rc = posix_trace_create_withlog(0, &at, a->fd, &trid);
    if (rc != 0 || posix_trace_start(trid) != 0) {
        snprintf(msg, len, "create_withlog: %d", rc);
        return 1;
    }
    if (a->limit != 0 && set_fsize(a->limit, msg, len) != 0)
        return 1;
    uint32_t s = a->seed, next_flush = 50 + next_rnd(&s) % 350;
    /* START, the user events, FLUSH_START and FLUSH_STOP of each flush, and
     * the STOP of shutdown. */
    uint64_t recorded = 2;
    for (uint32_t v = 0; v < 3000; v++) {
        lu_event_seq(id, v, next_rnd(&s) % 37);
        recorded++;
        if (v == next_flush) {
            next_flush += 50 + next_rnd(&s) % 350;
            if (posix_trace_flush(trid) != 0)
                continue;                       /* EFBIG at once: nothing flushed */
            recorded += 2;
            struct posix_trace_status_info st;
            do
                posix_trace_get_status(trid, &st);
            while (st.posix_stream_flush_status == POSIX_TRACE_FLUSHING);
        }
    }
    rc = posix_trace_shutdown(trid);
    if (rc != 0 && rc != EFBIG) {
        snprintf(msg, len, "shutdown: %d", rc);
        return 1;
    }
    if (pwrite(a->result_fd, &recorded, sizeof recorded, 0) != (ssize_t)sizeof recorded) {
        snprintf(msg, len, "pwrite: %s", strerror(errno));
        return 1;
    }
    return 0;
}

/* What fsize_child recorded. */
static uint64_t recorded_by(const struct fsize_arg *a)
{
    uint64_t n = 0;
    ck_assert_int_eq(pread(a->result_fd, &n, sizeof n, 0), sizeof n);
    return n;
}

/* Every event of the log on fd: id, the data's first word, the end offset
 * of its record; and the log's last status. */
struct fs_ev {
    uint32_t id, v;
    uint64_t end;
};

static uint64_t seg_off;        /* the first segment's offset and the segments' size, */
static uint32_t seg_bytes;      /* as read */

static size_t read_events(int fd, struct fs_ev *out, size_t max, struct log_status *st)
{
    struct log_source src = { .fd = fd };
    struct log_reader *r;
    char err[256];
    ck_assert_msg(log_reader_open(&src, NULL, NULL, &r, err, sizeof err) == 0, "%s", err);
    int have;
    *st = *log_reader_status(r, &have);
    ck_assert_int_eq(have, 1);
    seg_off = log_reader_geometry(r)->seg_off;
    seg_bytes = log_reader_geometry(r)->seg_bytes;
    struct log_event ev;
    size_t n = 0;
    while (log_reader_next(r, &ev)) {
        LU_CHECK(n < max, "more than %zu events", max);
        uint32_t l = ev.h.len & REC_LEN_MASK;
        out[n].id = ev.h.id;
        out[n].v = 0;
        if (l >= 4)
            memcpy(&out[n].v, ev.data, 4);
        out[n].end = ev.offset + 16u * log_event_slots(l);
        n++;
    }
    log_reader_close(r);
    return n;
}

/* Issue 20 item 2, LOGFORMAT sections 2 and 7, S0120: under a file size
 * limit that falls in the middle of a segment, the log opens, holds every
 * record written whole before the limit (those of the same scenario run
 * without a limit that end below the file's size), its final status counts
 * exactly the events it holds and names the write error (EFBIG); the
 * events that could not be written are counted as discarded. */
START_TEST(test_fsize_mid_segment)
{
    enum { MAX = 8000 };
    static struct fs_ev ref[MAX], got[MAX];
    const int policies[] = { POSIX_TRACE_APPEND, POSIX_TRACE_UNTIL_FULL };
    int runs = 0, cut = 0, limits = light() ? 1 : 4;
    for (unsigned p = 0; p < 2; p++)
        for (uint32_t seed = 1; seed <= (light() ? 1u : 3u); seed++) {
            struct fsize_arg a = { lu_tmpfile(), 0, seed, policies[p], lu_tmpfile() };
            tu_run_in_child(fsize_child, &a);
            struct log_status rst, st;
            size_t nref = read_events(a.fd, ref, MAX, &rst);
            long long full = lu_file_size(a.fd);
            ck_assert_uint_eq(nref, rst.events);
            ck_assert_int_eq(rst.write_error, 0);
            ck_assert_uint_eq(nref + rst.stream_lost + rst.log_lost, recorded_by(&a));
            close(a.fd);
            uint32_t s = seed * 7919u;
            for (int k = 0; k < limits; k++) {
                /* A limit anywhere past the metadata area, not on a slot. */
                struct fsize_arg b = { lu_tmpfile(), 0, seed, policies[p], a.result_fd };
                b.limit = (rlim_t)(66400 + next_rnd(&s) % (uint32_t)(full - 66400));
                tu_run_in_child(fsize_child, &b);
                long long size = lu_file_size(b.fd);
                size_t n = read_events(b.fd, got, MAX, &st);
                size_t expect = 0;
                while (expect < nref && ref[expect].end <= (uint64_t)size)
                    expect++;
                LU_CHECK(st.complete, "limit %llu: the log was not shut down",
                         (unsigned long long)b.limit);
                LU_CHECK(n == st.events, "limit %llu: %zu events read, the final status says "
                         "%llu written", (unsigned long long)b.limit, n,
                         (unsigned long long)st.events);
                LU_CHECK(n == expect, "limit %llu (file %lld bytes): %zu events read, %zu "
                         "written whole", (unsigned long long)b.limit, size, n, expect);
                for (size_t i = 0; i < n; i++)
                    LU_CHECK(got[i].id == ref[i].id && got[i].v == ref[i].v,
                             "limit %llu: event %zu differs", (unsigned long long)b.limit, i);
                LU_CHECK(st.write_error == EFBIG && st.log_lost > 0 &&
                         st.st.posix_log_overrun_status == POSIX_TRACE_OVERRUN,
                         "limit %llu: write error %d, %llu discarded", (unsigned long long)b.limit,
                         st.write_error, (unsigned long long)st.log_lost);
                LU_CHECK(n + st.stream_lost + st.log_lost == recorded_by(&b),
                         "limit %llu: %zu events read, %llu lost by the stream, %llu discarded "
                         "by the log: not the %llu recorded", (unsigned long long)b.limit, n,
                         (unsigned long long)st.stream_lost, (unsigned long long)st.log_lost,
                         (unsigned long long)recorded_by(&b));
                char msg[256];
                LU_CHECK(k > 0 || !lu_dump_says_flush_error(b.fd, "EFBIG", msg, sizeof msg),
                         "limit %llu: %s", (unsigned long long)b.limit, msg);
                cut += (size - (long long)seg_off) % 16 != 0;
                runs++;
                close(b.fd);
            }
            close(a.result_fd);
        }
    printf("test_fsize_mid_segment: %d logs cut by RLIMIT_FSIZE, %d inside a slot\n", runs,
           cut);
}
END_TEST

/* ---- a segment whose BUFFER slot was never written --------------------------------- */

/* LOGFORMAT section 2: a segment slot whose BUFFER slot is zeros (never
 * written: the write that had put its records there failed before it, or
 * the writer died) holds segment number `slot`, its records up to the first
 * zero slot: the last segment of a log, its BUFFER slot blanked, then cut at
 * every slot boundary and inside slots, gives back exactly the events
 * written whole before the cut. */
static void blank_last_buffer_slot(int policy)
{
    enum { MAX = 8000 };
    static struct fs_ev ref[MAX], got[MAX];
    struct fsize_arg a = { lu_tmpfile(), 0, 5, policy, lu_tmpfile() };
    tu_run_in_child(fsize_child, &a);
    struct log_status st;
    size_t nref = read_events(a.fd, ref, MAX, &st);
    long long size = lu_file_size(a.fd);
    uint64_t last = seg_off + (uint64_t)(size - (long long)seg_off - 1) / seg_bytes * seg_bytes;
    ck_assert_uint_gt(last, seg_off);                   /* more than one segment */
    static const unsigned char zero[16];
    ck_assert_int_eq(pwrite(a.fd, zero, 16, (off_t)last), 16);
    int checked = 0;
    for (long long cut = size; cut > (long long)last;
         cut -= cut % 16 == (long long)last % 16 ? 7 : 9) {
        ck_assert_int_eq(ftruncate(a.fd, cut), 0);
        size_t n = read_events(a.fd, got, MAX, &st);
        size_t expect = 0;
        while (expect < nref && ref[expect].end <= (uint64_t)cut)
            expect++;
        LU_CHECK(n == expect, "policy %d, cut at %lld: %zu events read, %zu written whole",
                 policy, cut, n, expect);
        for (size_t i = 0; i < n; i++)
            LU_CHECK(got[i].id == ref[i].id && got[i].v == ref[i].v, "policy %d, cut at %lld: "
                     "event %zu differs", policy, cut, i);
        checked++;
    }
    ck_assert_int_gt(checked, 100);
    close(a.fd);
    close(a.result_fd);
}

/* APPEND, and LOOP before its ring wraps (the blanked slot then holds the
 * newest segment, which the reading of the ring ends with). */
START_TEST(test_segment_without_buffer_slot)
{
    blank_last_buffer_slot(POSIX_TRACE_APPEND);
    blank_last_buffer_slot(POSIX_TRACE_LOOP);
}
END_TEST

Suite *suite_log_writefail(void)
{
    Suite *s = suite_create("log_writefail");
    TCase *tc = tu_tcase("writefail");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_create_withlog_efbig);
    tcase_add_test(tc, test_fsize_mid_segment);
    tcase_add_test(tc, test_segment_without_buffer_slot);
    suite_add_tcase(s, tc);
    return s;
}
