/* SPDX-License-Identifier: MIT */
/*
 * log_open.c -- reading a trace log (XSH posix_trace_close: posix_trace_open,
 * posix_trace_rewind, posix_trace_close): the trace id open gives, what it may
 * and may not be used for, reading a pre-recorded stream with
 * posix_trace_getnext_event() and its end (XSH posix_trace_getnext_event),
 * and get_status on it (XSH posix_trace_get_attr).
 *
 * Portable: logs are written by the implementation itself (create_withlog,
 * shutdown) into temporary regular files; nothing of their format is
 * assumed, and the files that are "no log" are an empty file, a text file and
 * pseudo-random bytes.  Events are recognised by name and by the sequence
 * numbers in their data; timestamps are compared with one another only.  A
 * trace id is never used after posix_trace_close() (ruling 25).  Reads that
 * could block are watched by a thread that fails the test after 5 s.
 *
 * Not tested here, and why:
 *   open.EINTR   not testable (catalogue).
 *   timedgetnext_event on a log: unspecified (XSH posix_trace_getnext_event).
 *   shutdown.log-* (what the log holds): log_shutdown.c.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "ct.h"
#include "ct_log.h"


#if CT_HAVE_TRL

#define LOG_EVENT "ct.open.event"

/* A log of n user events (LOG_EVENT, data: sequence numbers 0 to n-1),
 * written by a stream with default attributes; its path in path. */
static void make_log(char *path, int n)
{
    trace_event_id_t id = open_id(LOG_EVENT);
    trace_id_t trid = log_stream(NULL, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < n; i++)
        record(id, (unsigned)i);
    CT_SETUP_OK(posix_trace_shutdown(trid));
}

/* A log whose stream lost events (UNTIL_FULL, filled, then more recorded,
 * with no get_status after the loss). */
static void make_overrun_log(char *path)
{
    trace_attr_t a;
    trace_event_id_t id = open_id(LOG_EVENT);
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    stream_events(&a, 32);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    long bound = 8 * lossless(trid) + 1000, i;
    for (i = 0; i < bound; i++) {
        record(id, (unsigned)i);
        if (status(trid).posix_stream_status == POSIX_TRACE_SUSPENDED)
            break;
    }
    if (i == bound)
        CT_UNRESOLVED("an UNTIL_FULL stream was still RUNNING after %ld events", bound);
    for (int k = 0; k < 5; k++)
        record(id, (unsigned)(i + 1 + k));
    CT_SETUP_OK(posix_trace_shutdown(trid));
}

static int ts_before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Do two events read from log t look the same? */
static int same_event(trace_id_t t, const struct rec *a, const struct rec *b)
{
    return posix_trace_eventid_equal(t, a->info.posix_event_id, b->info.posix_event_id) &&
           a->info.posix_pid == b->info.posix_pid &&
           a->info.posix_timestamp.tv_sec == b->info.posix_timestamp.tv_sec &&
           a->info.posix_timestamp.tv_nsec == b->info.posix_timestamp.tv_nsec &&
           a->info.posix_truncation_status == b->info.posix_truncation_status &&
           a->len == b->len && memcmp(a->data, b->data, a->len < sizeof a->data ? a->len :
                                      sizeof a->data) == 0;
}

/* The whole content of a file, for comparing (at most max bytes). */
static size_t slurp(const char *path, unsigned char *buf, size_t max)
{
    int fd = open_or_unresolved(path, O_RDONLY);
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, buf + got, max - got);
        if (r <= 0)
            break;
        got += (size_t)r;
        if (got == max)
            CT_UNRESOLVED("%s is larger than %zu bytes", path, max);
    }
    close(fd);
    return got;
}

static atomic_int returned;

static void *watchdog(void *arg)
{
    for (int i = 0; i < 500; i++) {
        if (atomic_load(&returned))
            return NULL;
        ct_sleep_ms(10);
    }
    CT_FAIL("%s has not returned after 5 s: on a pre-recorded stream it must not block",
            (const char *)arg);
}

#endif /* CT_HAVE_TRL */

/* ---- open ------------------------------------------------------------------------------ */

CT_TEST(connects, "open.connects", "TRC,TRL",
        "posix_trace_open,posix_trace_get_attr,posix_trace_get_status,"
        "posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    make_log(path, 3);
    int fd = open_or_unresolved(path, O_RDONLY);
    trace_id_t log;
    trace_attr_t a;
    struct posix_trace_status_info st;
    struct rec r;
    int unavailable = -1;
    CT_CHECK_OK(posix_trace_open(fd, &log));
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_get_attr(log, &a));
    CT_CHECK_OK(posix_trace_get_status(log, &st));
    CT_CHECK_OK(posix_trace_getnext_event(log, &r.info, r.data, sizeof r.data, &r.len,
                                          &unavailable));
    CT_CHECK(unavailable == 0, "the first getnext_event on a log holding 3 user events"
             " reported no event (unavailable %d)", unavailable);
    CT_CHECK_OK(posix_trace_close(log));
#else
    NO_TRL();
#endif
}

#define MANY_OPEN 40

/* The next user event (LOG_EVENT) of an opened log, skipping the others:
 * 1, or 0 at its end. */
static int next_user(trace_id_t log, struct rec *r)
{
    trace_event_id_t id = open_id(LOG_EVENT);
    while (next_rec(log, r))
        if (is_ev(log, r, id))
            return 1;
    return 0;
}

CT_TEST(many_at_once, "open.connects", "TRC,TRL",
        "posix_trace_open,posix_trace_getnext_event,posix_trace_close")
{
#if CT_HAVE_TRL
    require_trl();
    /* Many logs open at once (more than a first table of them would hold),
     * each read in turn: every trid stays connected to its own log and
     * position.  One log of 3 user events, opened MANY_OPEN times; the k-th
     * trid reads k % 3 + 1 events, then every trid reads on: each must get
     * the events that follow its own position. */
    char path[PATH_BUF];
    make_log(path, 3);
    trace_id_t log[MANY_OPEN];
    int fds[MANY_OPEN], n = 0;
    for (; n < MANY_OPEN; n++) {
        fds[n] = open_or_unresolved(path, O_RDONLY);
        int rc = posix_trace_open(fds[n], &log[n]);
        if (rc != 0) {
            close(fds[n]);
            if (n < 20)
                CT_UNRESOLVED("posix_trace_open of the same log for the %dth time at once"
                              " returned %s", n + 1, ct_errname(rc));
            break;
        }
    }
    struct rec r;
    int read_at[MANY_OPEN];
    for (int k = 0; k < n; k++) {
        read_at[k] = 0;
        for (int i = 0; i <= k % 3; i++)
            read_at[k] += next_user(log[k], &r);
    }
    for (int k = 0; k < n; k++) {
        int more = 0;
        while (next_user(log[k], &r))
            more++;
        CT_CHECK(read_at[k] == k % 3 + 1 && read_at[k] + more == 3, "log %d of %d open at once"
                 " (the same file of 3 user events): %d events read first (%d asked), then %d"
                 " more", k + 1, n, read_at[k], k % 3 + 1, more);
    }
    for (int k = 0; k < n; k++) {
        CT_CHECK_OK(posix_trace_close(log[k]));
        close(fds[k]);
    }
#else
    NO_TRL();
#endif
}

CT_TEST(oldest_first, "open.oldest-first", "TRC,TRL",
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    make_log(path, 10);
    trace_id_t log = open_log(path);
    int n = read_all(log);
    if (n == 0)
        CT_FAIL("the log of 10 user events reads empty");
    for (int i = 1; i < n; i++)
        CT_CHECK(!ts_before(&recs[i].info.posix_timestamp, &recs[0].info.posix_timestamp),
                 "event %d of the log (%lld.%09ld) is older than the first one read after"
                 " open (%lld.%09ld)", i + 1, (long long)recs[i].info.posix_timestamp.tv_sec,
                 recs[i].info.posix_timestamp.tv_nsec,
                 (long long)recs[0].info.posix_timestamp.tv_sec,
                 recs[0].info.posix_timestamp.tv_nsec);
    unsigned seqs[16];
    int k = user_seqs(log, n, LOG_EVENT, seqs, 16);
    CT_CHECK(k == 10 && seqs[0] == 0, "the user events read after open are %s (%d): expected"
             " 0 to 9, oldest first", seq_list(seqs, k), k);
#else
    NO_TRL();
#endif
}

CT_TEST(oldest_first_loop, "open.oldest-first", "TRC,TRL",
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* LOOP logs that wrapped: their oldest event is not the first written.
     * Four logs overflowed by different amounts, so that the oldest event
     * ends at different places of the space the log reuses. */
    trace_event_id_t id = open_id(LOG_EVENT);
    for (int v = 0; v < 4; v++) {
        char path[PATH_BUF];
        trace_attr_t a;
        log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_LOOP);
        mid_log(&a);
        trace_id_t trid = log_stream(&a, path, NULL);
        CT_SETUP_OK(posix_trace_start(trid));
        size_t ls = logsize_of(trid), db = data_bytes(trid);
        if (ls / db > 50000)
            CT_UNRESOLVED("log-max-size in force is %zu bytes: too large to wrap in a test",
                          ls);
        long cap = (long)(ls / db) + 1, total = 3 * cap + v * (cap / 5 + 3);
        long batch = lossless(trid) / 2;
        unsigned seq = 0;
        if (batch < 1)
            batch = 1;
        for (long done = 0; done < total; done += batch)
            flush_batch(trid, id, &seq, batch < total - done ? batch : total - done, NULL);
        CT_SETUP_OK(posix_trace_shutdown(trid));
        trace_id_t log = open_log(path);
        int n = read_all(log);
        if (n == 0)
            CT_FAIL("the wrapped LOOP log reads empty");
        int oldest = 0;
        for (int i = 1; i < n; i++)
            if (ts_before(&recs[i].info.posix_timestamp, &recs[oldest].info.posix_timestamp))
                oldest = i;
        CT_CHECK(oldest == 0, "the first event read from a LOOP log that wrapped (%u events"
                 " of %d bytes into log-max-size %zu) is not its oldest: event %d of %d is"
                 " older", seq, DATA_LEN, ls, oldest + 1, n);
        static unsigned seqs[MAXREC];
        int k = user_seqs(log, n, LOG_EVENT, seqs, MAXREC);
        for (int i = 1; i < k; i++)
            CT_CHECK(seqs[i] > seqs[i - 1], "the user events of a wrapped LOOP log (%u"
                     " flushed) are not read oldest first: %u after %u (%s)", seq, seqs[i],
                     seqs[i - 1], seq_list(seqs, k));
        CT_SETUP_OK(posix_trace_close(log));
    }
#else
    NO_TRL();
#endif
}

CT_TEST(einval_not_a_log, "open.EINVAL", "TRC,TRL", "posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    static const char text[] = "This is a text file, not a trace log.\n"
                               "TRACE_HEADER_BEGIN:: is no magic either.\n";
    char paths[3][PATH_BUF];
    const char *what[3] = { "an empty file", "a text file", "8 KiB of pseudo-random bytes" };
    for (int i = 0; i < 3; i++) {
        tmp_file(paths[i]);
        int fd = open_or_unresolved(paths[i], O_WRONLY);
        if (i == 1 && write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1))
            CT_UNRESOLVED("writing the text file: %s", ct_errname(errno));
        if (i == 2) {
            unsigned char buf[8192];
            unsigned x = 2463534242u;
            for (size_t j = 0; j < sizeof buf; j++) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                buf[j] = (unsigned char)x;
            }
            if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
                CT_UNRESOLVED("writing the random file: %s", ct_errname(errno));
        }
        close(fd);
    }
    for (int i = 0; i < 3; i++) {
        trace_id_t log;
        int fd = open_or_unresolved(paths[i], O_RDONLY);
        int rc = posix_trace_open(fd, &log);
        CT_CHECK(rc == EINVAL, "posix_trace_open of %s returned %d (%s), expected EINVAL: it"
                 " is no trace log", what[i], rc, ct_errname(rc));
        close(fd);
    }
#else
    NO_TRL();
#endif
}

/* ---- the trace id from open ------------------------------------------------------------- */

CT_TEST(trid_usable, "open.trid-usable", "TRC,TRL",
        "posix_trace_open,posix_trace_close,posix_trace_eventid_equal,"
        "posix_trace_eventid_get_name,posix_trace_eventtypelist_getnext_id,"
        "posix_trace_eventtypelist_rewind,posix_trace_get_attr,posix_trace_get_status,"
        "posix_trace_getnext_event,posix_trace_rewind")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF], name[CT_EVENT_NAME_BUF];
    make_log(path, 3);
    trace_id_t log = open_log(path);
    trace_attr_t a;
    struct posix_trace_status_info st;
    trace_event_id_t id;
    struct rec r;
    int unavailable;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_get_attr(log, &a));
    CT_CHECK_OK(posix_trace_get_status(log, &st));
    CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(log, &id, &unavailable));
    CT_CHECK_OK(posix_trace_eventtypelist_rewind(log));
    CT_CHECK_OK(posix_trace_eventid_get_name(log, POSIX_TRACE_START, name));
    CT_CHECK(strcmp(name, "posix_trace_start") == 0, "eventid_get_name(START) on a log gives"
             " \"%.60s\"", name);
    CT_CHECK(posix_trace_eventid_equal(log, POSIX_TRACE_START, POSIX_TRACE_START) != 0,
             "eventid_equal(log, START, START) returned 0");
    CT_CHECK(posix_trace_eventid_equal(log, POSIX_TRACE_START, POSIX_TRACE_STOP) == 0,
             "eventid_equal(log, START, STOP) returned non-zero");
    CT_CHECK_OK(posix_trace_getnext_event(log, &r.info, r.data, sizeof r.data, &r.len,
                                          &unavailable));
    CT_CHECK_OK(posix_trace_rewind(log));
    CT_CHECK_OK(posix_trace_close(log));
#else
    NO_TRL();
#endif
}

CT_TEST(trid_no_control, "open.trid-no-control", "TRC,TRL",
        "posix_trace_open,posix_trace_start,posix_trace_stop,posix_trace_shutdown,"
        "posix_trace_clear,posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    static unsigned char before[4 << 20], after[4 << 20];
    static struct rec first[64];
    make_log(path, 5);
    size_t nb = slurp(path, before, sizeof before);
    trace_id_t log = open_log(path);
    int n = read_all(log);
    if (n > 64)
        CT_UNRESOLVED("the log of 5 events holds %d", n);
    memcpy(first, recs, (size_t)n * sizeof recs[0]);
    CT_CHECK_ERR(posix_trace_start(log), EINVAL);
    CT_CHECK_ERR(posix_trace_stop(log), EINVAL);
    CT_CHECK_ERR(posix_trace_clear(log), EINVAL);
    CT_CHECK_ERR(posix_trace_flush(log), EINVAL);
    CT_CHECK_ERR(posix_trace_shutdown(log), EINVAL);
    /* The log is as it was: read again, and byte for byte. */
    CT_CHECK_OK(posix_trace_rewind(log));
    int m = read_all(log);
    CT_CHECK(m == n, "after start, stop, clear, flush and shutdown were refused, the log"
             " reads %d events, before %d", m, n);
    for (int i = 0; i < n; i++)
        CT_CHECK(same_event(log, &first[i], &recs[i]), "event %d of %d of the log differs"
                 " after start, stop, clear, flush and shutdown were refused", i + 1, n);
    CT_CHECK_OK(posix_trace_close(log));
    size_t na = slurp(path, after, sizeof after);
    CT_CHECK(na == nb && memcmp(before, after, nb) == 0, "the log file changed (%zu bytes,"
             " then %zu) though every control function was refused on its trid", nb, na);
#else
    NO_TRL();
#endif
}

/* ---- rewind ---------------------------------------------------------------------------- */

CT_TEST(rewind_resets, "rewind.resets", "TRC,TRL", "posix_trace_rewind,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    static struct rec first[256];
    make_log(path, 20);
    trace_id_t log = open_log(path);
    int n = read_all(log);
    if (n > 256 || n < 20)
        CT_UNRESOLVED("the log of 20 user events holds %d events", n);
    memcpy(first, recs, (size_t)n * sizeof recs[0]);
    /* Part way, at the end, and at once: rewind goes back to the oldest. */
    const int part[3] = { 3, n, 0 };
    for (int k = 0; k < 3; k++) {
        CT_CHECK_OK(posix_trace_rewind(log));
        for (int i = 0; i < part[k]; i++)
            if (!next_rec(log, &recs[i]))
                CT_FAIL("after rewind, the log ended after %d events, it holds %d", i, n);
        CT_CHECK_OK(posix_trace_rewind(log));
        int m = read_all(log);
        CT_CHECK(m == n, "after reading %d events and rewinding, %d events are read, the log"
                 " holds %d", part[k], m, n);
        for (int i = 0; i < n; i++)
            CT_CHECK(same_event(log, &first[i], &recs[i]), "after reading %d events and"
                     " rewinding, event %d of %d differs from the first reading", part[k],
                     i + 1, n);
    }
#else
    NO_TRL();
#endif
}

CT_TEST(rewind_einval, "rewind.EINVAL", "TRC,TRL", "posix_trace_rewind")
{
#if CT_HAVE_TRL
    require_trl();
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_MAY_ERR(posix_trace_rewind(trid), EINVAL);
#else
    NO_TRL();
#endif
}

/* ---- close ----------------------------------------------------------------------------- */

CT_TEST(close_deallocates, "close.deallocates", "TRC,TRL", "posix_trace_close,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    make_log(path, 3);
    long max = ct_limit_trace_sys_max(), times = max > 0 ? 4 * max + 8 : 256;
    if (times > 4096)
        times = 4096;
    for (long i = 0; i < times; i++) {
        trace_id_t log;
        int fd = open_or_unresolved(path, O_RDONLY);
        int rc = posix_trace_open(fd, &log);
        CT_CHECK(rc == 0, "opening the same log for the %ld-th time (each opened log closed"
                 " before the next; {TRACE_SYS_MAX} = %ld) returned %d (%s)", i + 1, max, rc,
                 ct_errname(rc));
        rc = posix_trace_close(log);
        CT_CHECK(rc == 0, "posix_trace_close of an opened log (the %ld-th) returned %d (%s)",
                 i + 1, rc, ct_errname(rc));
        close(fd);
    }
#else
    NO_TRL();
#endif
}

CT_TEST(close_einval_shall_fail, "close.EINVAL-shall-fail", "TRC,TRL", "posix_trace_close")
{
#if CT_HAVE_TRL
    require_trl();
    /* Ruling 5: the trid of an active stream (create) is no trace log. */
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_ERR(posix_trace_close(trid), EINVAL);
    struct posix_trace_status_info st;
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    CT_CHECK_OK(posix_trace_shutdown(trid));
    /* Nor is the trid of a stream shut down (ruling 25: before any other
     * create). */
    CT_CHECK_ERR(posix_trace_close(trid), EINVAL);
#else
    NO_TRL();
#endif
}

CT_TEST(close_einval, "close.EINVAL", "TRC,TRL", "posix_trace_close")
{
#if CT_HAVE_TRL
    require_trl();
    /* The trid of an active stream with log is no trace log either. */
    char path[PATH_BUF];
    trace_id_t trid = log_stream(NULL, path, NULL);
    CT_CHECK_MAY_ERR(posix_trace_close(trid), EINVAL);
#else
    NO_TRL();
#endif
}

CT_TEST(return_convention, "close.return-convention", "TRC,TRL",
        "posix_trace_close,posix_trace_open,posix_trace_rewind")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF], empty[PATH_BUF];
    trace_id_t log, trid;
    int rc;
    make_log(path, 2);
    int fd = open_or_unresolved(path, O_RDONLY);
    errno = 0;
    rc = posix_trace_open(fd, &log);
    CT_CHECK(rc == 0, "open of a log returned %d (%s), errno %s: expected 0", rc,
             ct_errname(rc), ct_errname(errno));
    rc = posix_trace_rewind(log);
    CT_CHECK(rc == 0, "rewind of an opened log returned %d (%s), expected 0", rc,
             ct_errname(rc));
    rc = posix_trace_close(log);
    CT_CHECK(rc == 0, "close of an opened log returned %d (%s), expected 0", rc,
             ct_errname(rc));
    /* Failure: the error number itself, not -1 and errno. */
    tmp_file(empty);
    int efd = open_or_unresolved(empty, O_RDONLY);
    errno = 0;
    rc = posix_trace_open(efd, &log);
    CT_CHECK(rc == EINVAL, "open of an empty file returned %d (%s), errno %s: expected the"
             " error number EINVAL as return value", rc, ct_errname(rc), ct_errname(errno));
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    errno = 0;
    rc = posix_trace_close(trid);
    CT_CHECK(rc == EINVAL, "close of an active stream's trid returned %d (%s), errno %s:"
             " expected the error number EINVAL as return value", rc, ct_errname(rc),
             ct_errname(errno));
    errno = 0;
    rc = posix_trace_rewind(trid);
    CT_CHECK(rc == 0 || rc == EINVAL, "rewind of an active stream's trid returned %d (%s),"
             " errno %s: expected 0 or the error number EINVAL", rc, ct_errname(rc),
             ct_errname(errno));
#else
    NO_TRL();
#endif
}

/* ---- get_status on a pre-recorded stream ---------------------------------------------- */

CT_TEST(prerecorded_final, "get_status.prerecorded-final", "TRC,TRL",
        "posix_trace_get_status,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    char clean[PATH_BUF], lost[PATH_BUF];
    struct posix_trace_status_info sc, sl;
    make_log(clean, 3);
    make_overrun_log(lost);
    trace_id_t lc = open_log(clean), ll = open_log(lost);
    CT_CHECK_OK(posix_trace_get_status(lc, &sc));
    CT_CHECK_OK(posix_trace_get_status(ll, &sl));
    CT_CHECK(sc.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN &&
             sc.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "the log of a stream that lost nothing and never filled reports overrun %d and"
             " full status %d: expected NO_OVERRUN (%d) and NOT_FULL (%d)",
             sc.posix_stream_overrun_status, sc.posix_stream_full_status,
             POSIX_TRACE_NO_OVERRUN, POSIX_TRACE_NOT_FULL);
    CT_CHECK(sl.posix_stream_overrun_status == POSIX_TRACE_OVERRUN, "the log of a stream"
             " that lost events (no status read since) reports overrun %d, expected OVERRUN"
             " (%d)", sl.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    CT_CHECK(sc.posix_stream_status == POSIX_TRACE_SUSPENDED &&
             sl.posix_stream_status == POSIX_TRACE_SUSPENDED, "the logs of completed"
             " (shut down) streams report posix_stream_status %d and %d, expected"
             " SUSPENDED (%d)", sc.posix_stream_status, sl.posix_stream_status,
             POSIX_TRACE_SUSPENDED);
    ct_note("the log of the stream that filled reports full status %s",
            sl.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL");
    /* The log's own full status is part of the completed stream's status:
     * an UNTIL_FULL log that was FULL when its stream was shut down says so
     * when opened, and one that never filled says NOT_FULL. */
    char full[PATH_BUF];
    unsigned seq = 0;
    long filled;
    trace_event_id_t fill = open_id("ct.open.fill");
    trace_id_t ft = full_until_full_log(full, fill, &seq, &filled, 0), lf;
    shutdown_read(ft, full, &lf);
    struct posix_trace_status_info sf;
    CT_CHECK_OK(posix_trace_get_status(lf, &sf));
    CT_CHECK(sf.posix_log_full_status == POSIX_TRACE_FULL, "the opened log of a stream whose"
             " UNTIL_FULL log was FULL (%ld events flushed) reports posix_log_full_status %d,"
             " expected FULL (%d)", filled, sf.posix_log_full_status, POSIX_TRACE_FULL);
    CT_CHECK(sc.posix_log_full_status == POSIX_TRACE_NOT_FULL, "the opened log of a stream"
             " whose log never filled reports posix_log_full_status %d, expected NOT_FULL (%d)",
             sc.posix_log_full_status, POSIX_TRACE_NOT_FULL);
#else
    NO_TRL();
#endif
}

CT_TEST(prerecorded_no_reset, "get_status.prerecorded-no-reset", "TRC,TRL",
        "posix_trace_get_status,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    make_overrun_log(path);
    trace_id_t log = open_log(path);
    struct posix_trace_status_info first, st;
    CT_CHECK_OK(posix_trace_get_status(log, &first));
    for (int k = 2; k <= 4; k++) {
        CT_CHECK_OK(posix_trace_get_status(log, &st));
        CT_CHECK(st.posix_stream_status == first.posix_stream_status &&
                 st.posix_stream_full_status == first.posix_stream_full_status &&
                 st.posix_stream_overrun_status == first.posix_stream_overrun_status &&
                 st.posix_stream_flush_status == first.posix_stream_flush_status &&
                 st.posix_stream_flush_error == first.posix_stream_flush_error &&
                 st.posix_log_overrun_status == first.posix_log_overrun_status &&
                 st.posix_log_full_status == first.posix_log_full_status,
                 "get_status number %d on an opened log differs from the first (overrun %d"
                 " then %d, log overrun %d then %d, flush error %d then %d): a pre-recorded"
                 " stream's status is never reset", k, first.posix_stream_overrun_status,
                 st.posix_stream_overrun_status, first.posix_log_overrun_status,
                 st.posix_log_overrun_status, first.posix_stream_flush_error,
                 st.posix_stream_flush_error);
    }
    CT_CHECK(first.posix_stream_overrun_status == POSIX_TRACE_OVERRUN, "the log of a stream"
             " that lost events reports overrun %d, expected OVERRUN (%d)",
             first.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
#else
    NO_TRL();
#endif
}

/* ---- getnext_event on a pre-recorded stream ------------------------------------------- */

CT_TEST(getnext_prerecorded, "getnext.prerecorded", "TRC,TRL",
        "posix_trace_getnext_event,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    /* 20 user events with data of 1 to 20 bytes (at most max-data-size):
     * bytes i, i+1, ...; read back in order, whole, from this process. */
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.open.data");
    log_attr(&a, POSIX_TRACE_FLUSH, POSIX_TRACE_LOOP);
    trace_id_t trid = log_stream(&a, path, NULL), log;
    size_t md = data_bytes(trid);
    int lmax = md < 20 ? (int)md : 20;
    CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < 20; i++) {
        unsigned char d[20];
        for (int j = 0; j < 20; j++)
            d[j] = (unsigned char)(i + j);
        posix_trace_event(id, d, (size_t)(i % lmax) + 1);
    }
    int n = shutdown_read(trid, path, &log), k = 0;
    const struct rec *prev = NULL;
    for (int i = 0; i < n; i++) {
        const struct rec *r = &recs[i];
        if (prev)
            CT_CHECK(!ts_before(&r->info.posix_timestamp, &prev->info.posix_timestamp),
                     "event %d of the log is older than event %d before it", i + 1, i);
        prev = r;
        if (!has_name(log, r, "ct.open.data"))
            continue;
        int len = k % lmax + 1;
        int ok = r->len == (size_t)len && r->info.posix_pid == getpid() &&
                 r->info.posix_truncation_status == POSIX_TRACE_NOT_TRUNCATED;
        for (int j = 0; ok && j < len; j++)
            ok = r->data[j] == (unsigned char)(k + j);
        CT_CHECK(ok, "user event %d read from the log has %zu bytes of data (first %d), pid"
                 " %ld, truncation %d: expected %d bytes %d, %d, ..., pid %ld, NOT_TRUNCATED"
                 " (%d)", k + 1, r->len, r->len ? r->data[0] : -1, (long)r->info.posix_pid,
                 r->info.posix_truncation_status, len, k, k + 1, (long)getpid(),
                 POSIX_TRACE_NOT_TRUNCATED);
        k++;
    }
    CT_CHECK(k == 20, "the log holds %d of the 20 user events recorded (%d events read)", k,
             n);
#else
    NO_TRL();
#endif
}

/* getnext_event on a pre-recorded stream writes no more than num_bytes
 * either ("The argument num_bytes shall be the size of the buffer pointed to
 * by the data argument", S0212): buffers of exactly num_bytes (8, 0, the
 * events' DATA_LEN) followed by guard bytes, for every event of the log. */
CT_TEST(getnext_prerecorded_bound, "getnext.buffer-bound", "TRC,TRL",
        "posix_trace_getnext_event,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    const size_t sizes[] = { 8, 0, DATA_LEN };
    make_log(path, 3);
    trace_id_t log = open_log(path);
    size_t k = 0;
    for (int reads = 0; k < 3 && reads < 1000; reads++) {
        struct ct_guarded buf = ct_guarded_new(sizes[k], "num_bytes (S0212)");
        struct posix_trace_event_info info;
        size_t len = 0;
        int unavailable = -1;
        char what[96];
        CT_SETUP_OK(posix_trace_getnext_event(log, &info, buf.p, sizes[k], &len,
                                              &unavailable));
        if (unavailable)
            CT_UNRESOLVED("the log ended after %zu of the 3 user events recorded", k);
        snprintf(what, sizeof what, "getnext_event on a log with num_bytes %zu (an event"
                 " with %zu bytes of data)", sizes[k], len);
        ct_guard_check(&buf, what);
        ct_guarded_free(&buf);
        if (has_name(log, &(struct rec){ .info = info }, LOG_EVENT))
            k++;
    }
    posix_trace_close(log);
#else
    NO_TRL();
#endif
}

CT_TEST(end_of_log, "getnext.end-of-log", "TRC,TRL",
        "posix_trace_getnext_event,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    make_log(path, 4);
    trace_id_t log = open_log(path);
    read_all(log);
    pthread_t dog;
    CT_SETUP_OK(pthread_create(&dog, NULL, watchdog, "getnext_event after the last event"));
    for (int k = 0; k < 2; k++) {
        struct rec r;
        int unavailable = 0;
        r.len = 12345;
        int rc = posix_trace_getnext_event(log, &r.info, r.data, sizeof r.data, &r.len,
                                           &unavailable);
        CT_CHECK(rc == 0 && unavailable != 0, "getnext_event after the last event of a log"
                 " (call %d) returned %s with unavailable %d: expected 0 and a non-zero"
                 " unavailable", k + 1, ct_errname(rc), unavailable);
    }
    atomic_store(&returned, 1);
    pthread_join(dog, NULL);
#else
    NO_TRL();
#endif
}

CT_TEST(trygetnext_einval, "trygetnext.EINVAL-not-active", "TRC,TRL",
        "posix_trace_trygetnext_event,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    make_log(path, 2);
    trace_id_t log = open_log(path);
    struct rec r;
    int unavailable;
    CT_CHECK_ERR(posix_trace_trygetnext_event(log, &r.info, r.data, sizeof r.data, &r.len,
                                              &unavailable), EINVAL);
#else
    NO_TRL();
#endif
}
