/* SPDX-License-Identifier: MIT */
/*
 * wrap.c -- what each full policy gives back, field by field, after the
 * stream or the log has wrapped or filled (issue 31, kinds 1 and 2):
 *
 *   log.events-intact      a LOOP log after it wrapped, an UNTIL_FULL log
 *                          after it filled, an APPEND log: every user event
 *                          read back (open + getnext) is whole;
 *   stream.events-intact   the same for a LOOP stream that wrapped, an
 *                          UNTIL_FULL stream that filled (getnext and
 *                          trygetnext) and a FLUSH stream's log;
 *   log.status-after-flushes, stream.status-after-fills
 *                          the status after each of many flushes, and after
 *                          each of many fills and drains of a small stream.
 *
 * "Whole": the identifier the event was recorded with (by name in a log),
 * its data (a sequence number, then bytes derived from it), the data length
 * and truncation status (ruling 16: kept whole and NOT_TRUNCATED, or cut to
 * max-data-size and TRUNCATED_RECORD), posix_pid getpid(), posix_thread_id
 * the recording thread, one posix_prog_address for the one call site that
 * records (xsh211.user-prog-address), and timestamps that do not go back
 * (one thread records them one after another, S0217).  Which events a
 * policy keeps is checked only as far as the standard promises: a LOOP keeps
 * the newest (a run without gap ending with the last recorded; the oldest is
 * gone), an UNTIL_FULL the oldest (a run without gap starting with the
 * first), an APPEND log and a FLUSH stream every one.  How many is never
 * assumed.
 *
 * Portable: capacities are read back or counted (get_status FULL), never
 * assumed; the helpers of ct_log.h and ct_stream.h do the rest.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ct.h"
#include "ct_stream.h"
#include "ct_log.h"

/* ---- events with a sequence number, and their judge --------------------------------- */

/* The DATA_LEN bytes of event seq: the number, then bytes derived from it
 * (another derivation than ct_log.c's record(): these events come from this
 * file's one call site, put()). */
static void wrap_data(unsigned seq, unsigned char *d)
{
    unsigned x = seq * 40503u + 0x9e3779b9u;
    memcpy(d, &seq, sizeof seq);
    for (size_t i = sizeof seq; i < DATA_LEN; i++) {
        x = x * 1103515245u + 12345u;
        d[i] = (unsigned char)(x >> 16);
    }
}

/* The one call site of posix_trace_event for the events judged here. */
static void put(trace_event_id_t id, unsigned seq)
{
    unsigned char d[DATA_LEN];
    wrap_data(seq, d);
    posix_trace_event(id, d, DATA_LEN);
}

struct judge {
    const char *what;           /* "a LOOP log after it wrapped" */
    size_t maxdata;             /* max-data-size in force */
    int n;                      /* user events judged */
    void *addr;                 /* the posix_prog_address of the first */
    struct timespec last;       /* the timestamp of the last */
    unsigned first, prev;       /* sequence numbers: of the first, of the last */
    int gap;                    /* a sequence number that did not follow prev + 1 */
    unsigned gap_at, gap_after;
};

static void judge_init(struct judge *j, const char *what, size_t maxdata)
{
    memset(j, 0, sizeof *j);
    j->what = what;
    j->maxdata = maxdata;
    if (maxdata < sizeof(unsigned))
        CT_UNRESOLVED("max-data-size %zu cannot hold the tests' sequence numbers", maxdata);
}

static int later_or_same(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec >= b->tv_nsec);
}

/* One user event of the test's type, read back: judged field by field. */
static void judge(struct judge *j, const struct posix_trace_event_info *info,
                  const unsigned char *data, size_t len)
{
    int ts = info->posix_truncation_status;
    unsigned seq = ~0u;
    unsigned char want[DATA_LEN];
    if (len >= sizeof seq)
        memcpy(&seq, data, sizeof seq);
    CT_CHECK(ts == POSIX_TRACE_NOT_TRUNCATED || ts == POSIX_TRACE_TRUNCATED_RECORD,
             "%s: user event %d (sequence number %u) has posix_truncation_status %d, neither"
             " NOT_TRUNCATED (%d) nor TRUNCATED_RECORD (%d), though the whole buffer was"
             " large enough", j->what, j->n, seq, ts, POSIX_TRACE_NOT_TRUNCATED,
             POSIX_TRACE_TRUNCATED_RECORD);
    if (ts == POSIX_TRACE_NOT_TRUNCATED)
        CT_CHECK(len == DATA_LEN, "%s: user event %d (sequence number %u) came back with %zu"
                 " bytes of data marked NOT_TRUNCATED; it was recorded with %d", j->what, j->n,
                 seq, len, DATA_LEN);
    else
        CT_CHECK(j->maxdata < DATA_LEN && len == j->maxdata, "%s: user event %d (sequence"
                 " number %u) came back with %zu bytes marked TRUNCATED_RECORD; it was"
                 " recorded with %d bytes, max-data-size is %zu (ruling 16: a record is cut"
                 " to exactly max-data-size, and only when longer)", j->what, j->n, seq, len,
                 DATA_LEN, j->maxdata);
    wrap_data(seq, want);
    CT_CHECK(len >= sizeof seq && memcmp(data, want, len) == 0, "%s: the data of user event"
             " %d (%zu bytes, sequence number %u) are not the bytes recorded with that"
             " number", j->what, j->n, len, seq);
    CT_CHECK(info->posix_pid == getpid(), "%s: user event %d (sequence number %u) has"
             " posix_pid %ld, expected the recording process %ld", j->what, j->n, seq,
             (long)info->posix_pid, (long)getpid());
    CT_CHECK(pthread_equal(info->posix_thread_id, pthread_self()), "%s: user event %d"
             " (sequence number %u) has a posix_thread_id (%s) that is not the recording"
             " thread's", j->what, j->n, seq, CT_HEX(info->posix_thread_id));
    CT_CHECK(info->posix_prog_address != NULL, "%s: user event %d (sequence number %u) has"
             " a NULL posix_prog_address", j->what, j->n, seq);
    if (j->n == 0)
        j->addr = info->posix_prog_address;
    else
        CT_CHECK(info->posix_prog_address == j->addr, "%s: user event %d (sequence number %u)"
                 " has posix_prog_address %p, the first %p: every one was recorded at the"
                 " same call site", j->what, j->n, seq, info->posix_prog_address, j->addr);
    CT_CHECK(ct_valid_timespec(&info->posix_timestamp), "%s: user event %d has an invalid"
             " timestamp {%lld, %ld}", j->what, j->n, (long long)info->posix_timestamp.tv_sec,
             (long)info->posix_timestamp.tv_nsec);
    if (j->n > 0)
        CT_CHECK(later_or_same(&info->posix_timestamp, &j->last), "%s: user event %d"
                 " (sequence number %u) has timestamp %lld.%09ld, before the one read before"
                 " it (%lld.%09ld): one thread recorded them one after the other (S0217)",
                 j->what, j->n, seq, (long long)info->posix_timestamp.tv_sec,
                 (long)info->posix_timestamp.tv_nsec, (long long)j->last.tv_sec,
                 (long)j->last.tv_nsec);
    j->last = info->posix_timestamp;
    if (j->n == 0)
        j->first = seq;
    else if (seq != j->prev + 1 && !j->gap) {
        j->gap = 1;
        j->gap_at = seq;
        j->gap_after = j->prev;
    }
    j->prev = seq;
    j->n++;
}

static void judge_no_gap(const struct judge *j)
{
    CT_CHECK(!j->gap, "%s: the user events read back are not a run without gap in the order"
             " recorded: %u follows %u (%d read, %u to %u)", j->what, j->gap_at, j->gap_after,
             j->n, j->first, j->prev);
}

/* ---- streams (no log) ------------------------------------------------------------- */

/* A started stream of policy p, asked for max-data-size DATA_LEN and room
 * for about 32 such events (the setters may refuse). */
static trace_id_t small_stream(int p)
{
    trace_attr_t a;
    trace_id_t trid;
    size_t ev = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, p));
    (void)posix_trace_attr_setmaxdatasize(&a, DATA_LEN);
    if (posix_trace_attr_getmaxusereventsize(&a, DATA_LEN, &ev) != 0 || ev == 0)
        ev = 64;
    (void)posix_trace_attr_setstreamsize(&a, 32 * ev);
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    posix_trace_attr_destroy(&a);
    CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

#define FILL_BOUND 200000L

/* Records events until get_status reports the stream FULL; how many. */
static long fill_stream(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    for (long n = 1; n <= FILL_BOUND; n++) {
        put(id, (*seq)++);
        if (ct_status(trid).posix_stream_full_status == POSIX_TRACE_FULL)
            return n;
    }
    CT_UNRESOLVED("a stream asked for room for 32 events was not FULL after %ld", FILL_BOUND);
}

/* Reads a stream with trygetnext until it is empty, judging the events of
 * type id; the number of events read. */
static long drain_judged(trace_id_t trid, trace_event_id_t id, struct judge *j)
{
    struct ct_rec r;
    long n = 0;
    while (ct_next_event(trid, &r) && n < 4 * FILL_BOUND) {
        n++;
        if (posix_trace_eventid_equal(trid, r.info.posix_event_id, id))
            judge(j, &r.info, r.data, r.len);
    }
    return n;
}

CT_TEST(stream_loop, "stream.events-intact", "TRC",
        "posix_trace_event,posix_trace_trygetnext_event,posix_trace_get_status")
{
    /* Three streams wrapped by different amounts (2 to 3 times what they
     * hold), so that the newest events end at different places. */
    trace_event_id_t id = ct_open_id("ct.wrap.stream-loop");
    for (int v = 0; v < 3; v++) {
        trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
        unsigned seq = 0;
        long n = fill_stream(trid, id, &seq), more = n + v * (n / 3 + 1) + 1;
        for (long i = 0; i < more; i++)
            put(id, seq++);
        struct judge j;
        judge_init(&j, "a LOOP stream after it wrapped", ct_stream_max_data(trid));
        drain_judged(trid, id, &j);
        judge_no_gap(&j);
        CT_CHECK(j.n > 0 && j.prev == seq - 1, "a LOOP stream that took %u events gives back"
                 " %d, the last %u: a LOOP keeps the newest", seq, j.n, j.prev);
        CT_CHECK(j.first > 0, "a LOOP stream that held about %ld events still gives back the"
                 " oldest (0) after %u were recorded", n, seq);
        CT_CHECK_OK(posix_trace_shutdown(trid));
    }
}

CT_TEST(stream_until_full, "stream.events-intact", "TRC",
        "posix_trace_event,posix_trace_getnext_event,posix_trace_get_status")
{
    /* Filled until it stops itself, then 5 events more (lost); read with
     * getnext up to the STOP the full stream reports after its last event
     * (S0034), so that no read can block. */
    trace_event_id_t id = ct_open_id("ct.wrap.stream-until-full");
    trace_id_t trid = small_stream(POSIX_TRACE_UNTIL_FULL);
    unsigned seq = 0;
    long i;
    for (i = 0; i < FILL_BOUND; i++) {
        put(id, seq++);
        if (ct_status(trid).posix_stream_status == POSIX_TRACE_SUSPENDED)
            break;
    }
    if (i == FILL_BOUND)
        CT_UNRESOLVED("an UNTIL_FULL stream was still RUNNING after %ld events", FILL_BOUND);
    for (int k = 0; k < 5; k++)
        put(id, seq++);
    struct judge j;
    judge_init(&j, "an UNTIL_FULL stream after it filled", ct_stream_max_data(trid));
    int stop = 0;
    for (long k = 0; k < 2 * FILL_BOUND && !stop; k++) {
        struct ct_rec r;
        int unavailable = -1;
        CT_CHECK_OK(posix_trace_getnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                              &unavailable));
        CT_CHECK(unavailable == 0, "getnext on a full UNTIL_FULL stream reported no event"
                 " before its STOP");
        if (posix_trace_eventid_equal(trid, r.info.posix_event_id, id))
            judge(&j, &r.info, r.data, r.len);
        else
            stop = posix_trace_eventid_equal(trid, r.info.posix_event_id, POSIX_TRACE_STOP);
    }
    judge_no_gap(&j);
    CT_CHECK(j.n > 0 && j.first == 0, "an UNTIL_FULL stream gives back %d events, the first"
             " %u: it keeps the oldest (0 on)", j.n, j.first);
    CT_CHECK(j.prev <= (unsigned)i, "an UNTIL_FULL stream that stopped itself at event %ld"
             " gives back event %u, recorded after it was full", i, j.prev);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(stream_flush, "stream.events-intact", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_event,posix_trace_shutdown,posix_trace_open,"
        "posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* A FLUSH stream of about 32 events takes 4 times that (each event
     * generated while it can take it: as stream.flush-policy); its log then
     * gives back every one, whole. */
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.wrap.stream-flush");
    log_attr(&a, POSIX_TRACE_FLUSH, POSIX_TRACE_APPEND);
    stream_events(&a, 32);
    trace_id_t trid = log_stream(&a, path, NULL), log;
    CT_SETUP_OK(posix_trace_start(trid));
    long total = 4 * lossless(trid) + 40;
    if (total > 4000)
        total = 4000;
    for (long i = 0; i < total; i++) {
        put(id, (unsigned)i);
        struct posix_trace_status_info st;
        int overrun;
        if (!wait_taking(trid, &st, &overrun, NULL))
            CT_UNRESOLVED("a FLUSH stream did not take events again within %d ms"
                          " (stream.flush-policy)", FLUSH_WAIT_MS);
    }
    size_t md = ct_stream_max_data(trid);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    log = open_log(path);
    struct judge j;
    struct rec r;
    judge_init(&j, "the log of a FLUSH stream that flushed itself", md);
    while (next_rec(log, &r))
        if (has_name(log, &r, "ct.wrap.stream-flush"))
            judge(&j, &r.info, r.data, r.len);
    judge_no_gap(&j);
    CT_CHECK(j.n == total && j.first == 0, "a FLUSH stream took %ld events: its log gives"
             " back %d (the first %u)", total, j.n, j.first);
#else
    NO_TRL();
#endif
}

CT_TEST(stream_flush_child, "stream.events-intact", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_event,posix_trace_shutdown,posix_trace_open,"
        "posix_trace_getnext_event,fork")
{
#if CT_HAVE_TRL
    require_trl();
    /* As stream_flush, with the events recorded by another process: a
     * child the FLUSH stream traces (created for its pid) fills it many
     * times over, one event at a time, each once the stream is running and
     * not full or flushing; the stream flushes itself all the same (S0038),
     * so its log holds far more than the stream does, in order.  Not every
     * one: the flush that the child's event starts runs in another process,
     * and an event that finds the stream full meanwhile may be lost (S0038:
     * FLUSH is UNTIL_FULL with flushes; seen on s390x under qemu-user). */
    char path[PATH_BUF];
    int go[2], done[2];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.wrap.child-flush");
    if (pipe(go) != 0 || pipe(done) != 0)
        CT_UNRESOLVED("pipe: %s", ct_errname(errno));
    pid_t pid = ct_fork();
    if (pid == 0) {
        char c;
        close(go[1]);
        close(done[0]);
        for (unsigned i = 0; read(go[0], &c, 1) == 1; i++) {
            put(id, i);
            if (write(done[1], "x", 1) != 1)
                break;
        }
        _exit(0);
    }
    close(go[0]);
    close(done[1]);
    log_attr(&a, POSIX_TRACE_FLUSH, POSIX_TRACE_APPEND);
    stream_events(&a, 32);
    trace_id_t trid, log;
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY | O_TRUNC);
    int rc = posix_trace_create_withlog(pid, &a, fd, &trid);
    if (rc == EPERM) {
        close(go[1]);
        waitpid(pid, NULL, 0);
        CT_UNSUPPORTED("create_withlog for a child's pid: EPERM (the caller may not trace it)");
    }
    CT_SETUP_OK(rc);
    CT_SETUP_OK(posix_trace_start(trid));
    long held = lossless(trid), total = 4 * held + 40;
    if (total > 4000)
        total = 4000;
    for (long i = 0; i < total; i++) {
        char c;
        if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) != 1)
            CT_UNRESOLVED("the child recording the events stopped at %ld of %ld", i, total);
        struct posix_trace_status_info st;
        int overrun;
        if (!wait_taking(trid, &st, &overrun, NULL)) {
            close(go[1]);
            waitpid(pid, NULL, 0);
            CT_FAIL("a FLUSH stream filled by the traced child (%ld events) did not take"
                    " events again within %d ms: it never flushed itself (S0038)", i + 1,
                    FLUSH_WAIT_MS);
        }
    }
    close(go[1]);
    waitpid(pid, NULL, 0);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    close(fd);
    log = open_log(path);
    struct rec r;
    long n = 0, out_of_order = -1;
    unsigned prev = 0;
    while (next_rec(log, &r))
        if (has_name(log, &r, "ct.wrap.child-flush")) {
            unsigned seq = seq_of(&r);
            if (out_of_order < 0 && ((n > 0 && seq <= prev) || seq >= (unsigned)total ||
                                     r.info.posix_pid != pid))
                out_of_order = n;
            prev = seq;
            n++;
        }
    CT_CHECK(out_of_order < 0, "the log of a FLUSH stream filled by a traced child gives back"
             " its event %ld out of the order recorded or as another process's", out_of_order);
    CT_CHECK(n >= 2 * held, "the traced child recorded %ld events into a FLUSH stream that"
             " holds about %ld, each once the stream was running and not full or flushing: its"
             " log gives back only %ld (the stream did not flush itself as the child filled"
             " it)", total, held, n);
#else
    NO_TRL();
#endif
}

/* ---- logs ------------------------------------------------------------------------- */

#if CT_HAVE_TRL
/* Records n events (sequence numbers from *seq on) in batches the stream
 * holds without loss, each flushed and waited for. */
static void feed(trace_id_t trid, trace_event_id_t id, unsigned *seq, long n,
                 struct flushwatch *w)
{
    long b = batch_of(trid);
    while (n > 0) {
        long k = n < b ? n : b;
        for (long i = 0; i < k; i++)
            put(id, (*seq)++);
        flush_wait(trid, w);
        n -= k;
    }
}

/* Shuts trid down, opens its log and judges its events named name. */
static void judge_log(trace_id_t trid, const char *path, const char *name, struct judge *j,
                      const char *what)
{
    size_t md = ct_stream_max_data(trid);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    struct rec r;
    judge_init(j, what, md);
    while (next_rec(log, &r))
        if (has_name(log, &r, name))
            judge(j, &r.info, r.data, r.len);
    CT_CHECK_OK(posix_trace_close(log));
}
#endif

CT_TEST(log_loop, "log.events-intact", "TRC,TRL",
        "posix_trace_flush,posix_trace_create_withlog,posix_trace_attr_setlogfullpolicy,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* Three logs wrapped by different amounts (3 times what fits, plus 0 to
     * 2 thirds): the newest events end at different places of whatever the
     * log reuses, and every one read back must be whole. */
    trace_event_id_t id = open_id("ct.wrap.log-loop");
    for (int v = 0; v < 3; v++) {
        char path[PATH_BUF];
        trace_id_t trid = small_log_stream(POSIX_TRACE_LOOP, path);
        long cap = log_capacity(trid), total = 3 * cap + v * (cap / 3 + 7);
        unsigned seq = 0;
        feed(trid, id, &seq, total, NULL);
        struct judge j;
        judge_log(trid, path, "ct.wrap.log-loop", &j, "a LOOP log after it wrapped");
        judge_no_gap(&j);
        CT_CHECK(j.n > 0 && j.prev == (unsigned)total - 1, "a LOOP log that took %ld events"
                 " gives back %d, the last %u: a LOOP log keeps the newest", total, j.n,
                 j.prev);
        CT_CHECK(j.first > 0, "a LOOP log still gives back the oldest event (0) after %ld,"
                 " 3 times what it holds, were flushed", total);
    }
#else
    NO_TRL();
#endif
}

CT_TEST(log_prog_address, "log.events-intact", "TRC,TRL",
        "posix_trace_create,posix_trace_create_withlog,posix_trace_trygetnext_event,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* One event, recorded once into two streams of this process, one with
     * log and one without: the log gives back the posix_prog_address the
     * stream gives, all of it (a program's code may lie above 4 GiB). */
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.wrap.log-address");
    trace_id_t plain = ct_new_stream(NULL, 1);
    trace_id_t logged = small_log_stream(POSIX_TRACE_LOOP, path), log;
    record(id, 7);
    struct ct_rec r;
    if (!ct_next_of(plain, id, &r))
        CT_UNRESOLVED("the event recorded is not in the stream without log");
    void *in_stream = r.info.posix_prog_address;
    int n = shutdown_read(logged, path, &log);
    int at = find_ev(log, n, 0, id);
    CT_CHECK(at >= 0, "the event recorded into a stream with log is not in its log (%d events"
             " read)", n);
    CT_CHECK(recs[at].info.posix_prog_address == in_stream, "the event's posix_prog_address"
             " read from the log is %p, the stream without log gave %p for the same event",
             recs[at].info.posix_prog_address, in_stream);
#else
    NO_TRL();
#endif
}

CT_TEST(log_until_full, "log.events-intact", "TRC,TRL",
        "posix_trace_flush,posix_trace_create_withlog,posix_trace_attr_setlogfullpolicy,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.wrap.log-until-full");
    trace_id_t trid = small_log_stream(POSIX_TRACE_UNTIL_FULL, path);
    long cap = log_capacity(trid), bound = 4 * cap + 2 * batch_of(trid) + 1000, n = 0;
    unsigned seq = 0;
    struct flushwatch w;
    memset(&w, 0, sizeof w);
    while (n < bound && !w.log_full) {
        feed(trid, id, &seq, batch_of(trid), &w);
        n += batch_of(trid);
    }
    if (!w.log_full)
        CT_UNRESOLVED("an UNTIL_FULL log never reported FULL after %u events (log.max-size)",
                      seq);
    unsigned late = seq, b = (unsigned)batch_of(trid);
    feed(trid, id, &seq, 2 * (long)b, NULL);    /* discarded */
    struct judge j;
    judge_log(trid, path, "ct.wrap.log-until-full", &j, "an UNTIL_FULL log after it filled");
    judge_no_gap(&j);
    CT_CHECK(j.n > 0 && j.first == 0, "an UNTIL_FULL log gives back %d events, the first %u:"
             " it keeps the oldest flushed (0 on)", j.n, j.first);
    CT_CHECK(j.prev < late, "an UNTIL_FULL log gives back event %u, flushed after the log"
             " reported FULL (the %u flushed from %u on are discarded)", j.prev, 2 * b, late);
#else
    NO_TRL();
#endif
}

CT_TEST(log_append, "log.events-intact", "TRC,TRL",
        "posix_trace_flush,posix_trace_create_withlog,posix_trace_attr_setlogfullpolicy,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.wrap.log-append");
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    small_log(&a);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    long total = 3 * log_capacity(trid);
    if (total < 1000)
        total = 1000;
    unsigned seq = 0;
    feed(trid, id, &seq, total, NULL);
    struct judge j;
    judge_log(trid, path, "ct.wrap.log-append", &j, "an APPEND log past log-max-size");
    judge_no_gap(&j);
    CT_CHECK(j.n == total && j.first == 0, "an APPEND log that took %ld events gives back"
             " %d, the first %u: every one", total, j.n, j.first);
#else
    NO_TRL();
#endif
}

/* ---- status after many flushes ------------------------------------------------------ */

#define ROUNDS 40

CT_TEST(status_append_flushes, "log.status-after-flushes", "TRC,TRL",
        "posix_trace_flush,posix_trace_get_status,posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    /* An APPEND log takes ROUNDS batches, each small enough for the stream:
     * after each flush, every status read shows no error, no loss, no full
     * stream or log, and the flush ends. */
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.wrap.status-append");
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    stream_events(&a, 32);
    small_log(&a);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    long b = batch_of(trid);
    unsigned seq = 0;
    for (int r = 1; r <= ROUNDS; r++) {
        for (long i = 0; i < b; i++)
            put(id, seq++);
        CT_CHECK_OK(posix_trace_flush(trid));
        struct flushwatch w;
        CT_CHECK(wait_flush(trid, &w), "flush %d of %d did not end within %d ms", r, ROUNDS,
                 FLUSH_WAIT_MS);
        struct posix_trace_status_info st = status(trid);
        observe(&w, &st);
        CT_CHECK(!w.bad, "after flush %d: %s, not a value of its set", r, w.what);
        CT_CHECK(w.flush_error == 0, "after flush %d of %d into an APPEND log,"
                 " posix_stream_flush_error is %d (%s): every flush succeeded", r, ROUNDS,
                 w.flush_error, ct_errname(w.flush_error));
        CT_CHECK(!w.log_overrun, "after flush %d of %d into an APPEND log,"
                 " posix_log_overrun_status was OVERRUN: no event was lost", r, ROUNDS);
        CT_CHECK(!w.log_full, "after flush %d of %d (%u events) into an APPEND log,"
                 " posix_log_full_status is FULL: an APPEND log has no size limit", r,
                 ROUNDS, seq);
        CT_CHECK(st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING, "flush %d ended,"
                 " then get_status reports posix_stream_flush_status %d, expected"
                 " NOT_FLUSHING", r, st.posix_stream_flush_status);
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING &&
                 st.posix_stream_full_status == POSIX_TRACE_NOT_FULL &&
                 st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN, "after flush %d"
                 " of %d (%ld events each, half of what the stream holds), the stream is %s,"
                 " %s, overrun status %d: expected RUNNING, NOT_FULL, NO_OVERRUN", r,
                 ROUNDS, b, ct_state_name(st.posix_stream_status),
                 st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL",
                 st.posix_stream_overrun_status);
    }
    struct judge j;
    judge_log(trid, path, "ct.wrap.status-append", &j, "an APPEND log after many flushes");
    judge_no_gap(&j);
    CT_CHECK(j.n == (int)seq, "an APPEND log that took %u events in %d flushes gives back %d",
             seq, ROUNDS, j.n);
#else
    NO_TRL();
#endif
}

CT_TEST(status_until_full_flushes, "log.status-after-flushes", "TRC,TRL",
        "posix_trace_flush,posix_trace_get_status,posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    /* An UNTIL_FULL log, once FULL, takes ROUNDS more flushes: after each,
     * the log is still FULL, the flush ended without error, some status
     * read during it reported the events it discarded (log OVERRUN), and
     * the read after its end reports NO_OVERRUN (nothing lost since). */
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.wrap.status-until-full");
    unsigned seq = 0;
    long filled;
    trace_id_t trid = full_until_full_log(path, id, &seq, &filled, 0);
    long b = batch_of(trid);
    for (int r = 1; r <= ROUNDS / 2; r++) {
        for (long i = 0; i < b; i++)
            put(id, seq++);
        CT_CHECK_OK(posix_trace_flush(trid));
        struct flushwatch w;
        CT_CHECK(wait_flush(trid, &w), "flush %d into a full log did not end within %d ms", r,
                 FLUSH_WAIT_MS);
        CT_CHECK(!w.bad, "during flush %d into a full log: %s, not a value of its set", r,
                 w.what);
        CT_CHECK(w.flush_error == 0, "flush %d into a full UNTIL_FULL log reported"
                 " posix_stream_flush_error %d (%s): discarding is no error", r, w.flush_error,
                 ct_errname(w.flush_error));
        CT_CHECK(w.log_full, "after flush %d of %ld more events into a full UNTIL_FULL log,"
                 " posix_log_full_status is NOT_FULL: it stays FULL", r, b);
        CT_CHECK(w.log_overrun, "flush %d discarded %ld events (the UNTIL_FULL log is full),"
                 " yet no status read during it reported posix_log_overrun_status OVERRUN", r,
                 b);
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_log_overrun_status == POSIX_TRACE_NO_OVERRUN, "after flush %d"
                 " ended and its OVERRUN was read, the next get_status (nothing flushed"
                 " since) reports posix_log_overrun_status %d, expected NO_OVERRUN", r,
                 st.posix_log_overrun_status);
        CT_CHECK(st.posix_log_full_status == POSIX_TRACE_FULL &&
                 st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING &&
                 st.posix_stream_status == POSIX_TRACE_RUNNING, "after flush %d into a full"
                 " log: log full status %d, flush status %d, stream %s: expected FULL,"
                 " NOT_FLUSHING, RUNNING", r, st.posix_log_full_status,
                 st.posix_stream_flush_status, ct_state_name(st.posix_stream_status));
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

CT_TEST(status_loop_fills, "stream.status-after-fills", "TRC",
        "posix_trace_event,posix_trace_get_status,posix_trace_trygetnext_event")
{
    /* A small LOOP stream filled, overrun, read empty, ROUNDS times: each
     * time FULL and OVERRUN, then NO_OVERRUN on the next read, then NOT_FULL
     * and NO_OVERRUN once empty, and it holds as much as the first time
     * (half at least: the events it reports take room too). */
    trace_event_id_t id = ct_open_id("ct.wrap.status-loop");
    trace_id_t trid = small_stream(POSIX_TRACE_LOOP);
    unsigned seq = 0;
    long first = 0;
    for (int r = 1; r <= ROUNDS; r++) {
        long n = fill_stream(trid, id, &seq);
        if (r == 1)
            first = n;
        CT_CHECK(2 * n >= first, "round %d: a LOOP stream read empty reported FULL after %ld"
                 " events, the first time after %ld: the room read is free again", r, n,
                 first);
        for (long i = 0; i < n; i++)
            put(id, seq++);
        struct posix_trace_status_info st = ct_status(trid);
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING &&
                 st.posix_stream_full_status == POSIX_TRACE_FULL &&
                 st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN, "round %d: a LOOP"
                 " stream that wrapped is %s, %s, overrun status %d: expected RUNNING, FULL,"
                 " OVERRUN", r, ct_state_name(st.posix_stream_status),
                 st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL",
                 st.posix_stream_overrun_status);
        st = ct_status(trid);
        CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN, "round %d: the"
                 " get_status after the one that reported OVERRUN reports %d, expected"
                 " NO_OVERRUN (ruling 14)", r, st.posix_stream_overrun_status);
        struct judge j;
        judge_init(&j, "a LOOP stream filled and read many times", ct_stream_max_data(trid));
        drain_judged(trid, id, &j);
        judge_no_gap(&j);
        CT_CHECK(j.n > 0 && j.prev == seq - 1, "round %d: the last event read is %u, expected"
                 " the newest %u", r, j.prev, seq - 1);
        st = ct_status(trid);
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING &&
                 st.posix_stream_full_status == POSIX_TRACE_NOT_FULL &&
                 st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN, "round %d: a LOOP"
                 " stream read empty is %s, %s, overrun status %d: expected RUNNING,"
                 " NOT_FULL, NO_OVERRUN", r, ct_state_name(st.posix_stream_status),
                 st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL",
                 st.posix_stream_overrun_status);
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(status_until_full_fills, "stream.status-after-fills", "TRC",
        "posix_trace_event,posix_trace_get_status,posix_trace_getnext_event,"
        "posix_trace_trygetnext_event")
{
    /* A small UNTIL_FULL stream filled until it stops itself, then one event
     * more (lost), then read empty, ROUNDS times: each time SUSPENDED, FULL,
     * OVERRUN, then NO_OVERRUN on the next read; once read empty, RUNNING
     * again (S0036) and NOT_FULL; and it holds as much as the first time
     * (half at least). */
    trace_event_id_t id = ct_open_id("ct.wrap.status-until-full");
    trace_id_t trid = small_stream(POSIX_TRACE_UNTIL_FULL);
    unsigned seq = 0;
    long first = 0;
    for (int r = 1; r <= ROUNDS; r++) {
        long n;
        for (n = 1; n <= FILL_BOUND; n++) {
            put(id, seq++);
            if (ct_status(trid).posix_stream_status == POSIX_TRACE_SUSPENDED)
                break;
        }
        if (n > FILL_BOUND)
            CT_UNRESOLVED("round %d: an UNTIL_FULL stream was RUNNING after %ld events", r,
                          FILL_BOUND);
        if (r == 1)
            first = n;
        CT_CHECK(2 * n >= first, "round %d: an UNTIL_FULL stream read empty stopped itself"
                 " after %ld events, the first time after %ld: the room read is free again",
                 r, n, first);
        put(id, seq++);
        struct posix_trace_status_info st = ct_status(trid);
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
                 st.posix_stream_full_status == POSIX_TRACE_FULL &&
                 st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN, "round %d: an"
                 " UNTIL_FULL stream that stopped itself, then lost an event, is %s, %s,"
                 " overrun status %d: expected SUSPENDED, FULL, OVERRUN", r,
                 ct_state_name(st.posix_stream_status),
                 st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL",
                 st.posix_stream_overrun_status);
        st = ct_status(trid);
        CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN, "round %d: the"
                 " get_status after the one that reported OVERRUN reports %d, expected"
                 " NO_OVERRUN (ruling 14)", r, st.posix_stream_overrun_status);
        struct judge j;
        judge_init(&j, "an UNTIL_FULL stream filled and read many times",
                   ct_stream_max_data(trid));
        drain_judged(trid, id, &j);
        judge_no_gap(&j);
        CT_CHECK(j.n > 0 && j.prev < seq - 1, "round %d: the events read end with %u (%d"
                 " read); %u was recorded while the stream was full", r, j.prev, j.n, seq - 1);
        st = ct_status(trid);
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING &&
                 st.posix_stream_full_status == POSIX_TRACE_NOT_FULL &&
                 st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN, "round %d: an"
                 " UNTIL_FULL stream read empty is %s, %s, overrun status %d: expected"
                 " RUNNING (S0036), NOT_FULL, NO_OVERRUN", r,
                 ct_state_name(st.posix_stream_status),
                 st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL",
                 st.posix_stream_overrun_status);
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
}
