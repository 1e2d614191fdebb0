/* SPDX-License-Identifier: MIT */
/*
 * log_policy.c -- what a log does when it runs out of room: log-full-policy
 * LOOP, UNTIL_FULL and APPEND with log-max-size (XSH posix_trace_create, XSH
 * posix_trace_attr_getinherited, XSH posix_trace_attr_getlogsize); and
 * stream-full-policy FLUSH, which flushes a stream as it fills.
 *
 * Portable: a log's capacity is never assumed.  A small log-max-size is
 * asked for (the setter may refuse; the size in force is read back with
 * get_attr, ruling 22), and "far more than fits" is counted from it: every
 * event of these tests carries DATA_LEN bytes of data that no log can store
 * in fewer bytes, so log-max-size / DATA_LEN events certainly fill a log's
 * event space.  UNTIL_FULL logs are filled until get_status reports
 * posix_log_full_status FULL.  Events are flushed in batches that the stream
 * holds without loss, each flush waited for (NOT_FLUSHING), with
 * stream-full-policy UNTIL_FULL so that no automatic flush interferes.  The
 * log file's size is read with stat() on its path, never through the
 * descriptor the implementation uses.
 *
 * Not tested here, and why:
 *   log.max-size-events-only, xsh211.overrun-flush  not testable (catalogue).
 *   posix_log_overrun_status and its reset: log_status.c.
 *   clear of a full log: log_misc.c.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "ct.h"
#include "ct_log.h"



/* ---- log-max-size ---------------------------------------------------------------------- */

CT_TEST(max_size_until_full, "log.max-size", "TRC,TRL",
        "posix_trace_attr_setlogsize,posix_trace_create_withlog,posix_trace_flush,"
        "posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.policy.size");
    unsigned seq = 0;
    long filled;
    trace_id_t trid = full_until_full_log(path, id, &seq, &filled, 1);
    long cap = log_capacity(trid);
    off_t s1 = file_size(path);
    flush_n(trid, id, &seq, 2 * cap);
    off_t s2 = file_size(path);
    struct posix_trace_status_info st = status(trid);
    ct_note("log-max-size %zu: FULL after %ld events, file %lld bytes; %ld events later, %lld"
            " bytes", logsize_of(trid), filled, (long long)s1, 2 * cap, (long long)s2);
    CT_CHECK(st.posix_log_full_status == POSIX_TRACE_FULL, "an UNTIL_FULL log that was FULL"
             " reports posix_log_full_status %d after more flushes, expected FULL (%d)",
             st.posix_log_full_status, POSIX_TRACE_FULL);
    CT_CHECK(s2 <= s1, "an UNTIL_FULL log (log-max-size %zu) reported FULL at %lld bytes, then"
             " grew to %lld bytes as %ld more events were flushed: the log must stop growing"
             " at log-max-size", logsize_of(trid), (long long)s1, (long long)s2, 2 * cap);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

CT_TEST(max_size_loop, "log.max-size", "TRC,TRL",
        "posix_trace_attr_setlogsize,posix_trace_create_withlog,posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    /* Twice the capacity, then twice again: a LOOP log reuses its space. */
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.policy.size-loop");
    trace_id_t trid = small_log_stream(POSIX_TRACE_LOOP, path);
    long cap = log_capacity(trid);
    unsigned seq = 0;
    flush_n(trid, id, &seq, 2 * cap);
    off_t s1 = file_size(path);
    flush_n(trid, id, &seq, 2 * cap);
    off_t s2 = file_size(path);
    ct_note("LOOP log, log-max-size %zu: %lld bytes after %ld events, %lld after %ld",
            logsize_of(trid), (long long)s1, 2 * cap, (long long)s2, 4 * cap);
    CT_CHECK(s2 <= s1, "a LOOP log (log-max-size %zu) of %lld bytes after %ld events (twice"
             " what fits) grew to %lld bytes after %ld more: it must reuse its space",
             logsize_of(trid), (long long)s1, 2 * cap, (long long)s2, 2 * cap);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

/* ---- UNTIL_FULL ---------------------------------------------------------------------- */

CT_TEST(until_full_discards, "log.until-full-discards", "TRC,TRL",
        "posix_trace_flush,posix_trace_create_withlog,posix_trace_attr_setlogfullpolicy,"
        "posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_event_id_t fill = open_id("ct.policy.fill"), late = open_id("ct.policy.after-full");
    unsigned seq = 0, lseq = 0;
    long filled;
    trace_id_t trid = full_until_full_log(path, fill, &seq, &filled, 1), log;
    long n = batch_of(trid);
    struct flushwatch w;
    flush_batch(trid, late, &lseq, n, &w);
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_log_full_status == POSIX_TRACE_FULL, "after a flush into a full"
             " UNTIL_FULL log, posix_log_full_status is %d, expected FULL (%d)",
             st.posix_log_full_status, POSIX_TRACE_FULL);
    int got = shutdown_read(trid, path, &log), after = 0;
    for (int i = 0; i < got; i++)
        after += has_name(log, &recs[i], "ct.policy.after-full");
    CT_CHECK(after == 0, "%d of the %ld events flushed after the UNTIL_FULL log reported FULL"
             " are in the log: they must be discarded", after, n);
#else
    NO_TRL();
#endif
}

CT_TEST(until_full_last_stop, "log.until-full-last-stop", "TRC,TRL",
        "posix_trace_flush,posix_trace_create_withlog,posix_trace_attr_setlogfullpolicy,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF], name[CT_EVENT_NAME_BUF] = "?";
    trace_event_id_t fill = open_id("ct.policy.fill");
    unsigned seq = 0;
    long filled;
    trace_id_t trid = full_until_full_log(path, fill, &seq, &filled, 0), log;
    flush_n(trid, fill, &seq, batch_of(trid));      /* more, into the full log */
    int n = shutdown_read(trid, path, &log);
    if (n == 0)
        CT_FAIL("the full UNTIL_FULL log holds no event at all");
    posix_trace_eventid_get_name(log, recs[n - 1].info.posix_event_id, name);
    CT_CHECK(is_ev(log, &recs[n - 1], POSIX_TRACE_STOP), "the last of the %d events read"
             " from a full UNTIL_FULL log is \"%.60s\", expected POSIX_TRACE_STOP", n, name);
#else
    NO_TRL();
#endif
}

/* ---- LOOP -------------------------------------------------------------------------- */

CT_TEST(loop, "log.loop", "TRC,TRL",
        "posix_trace_flush,posix_trace_create_withlog,posix_trace_attr_setlogfullpolicy,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* Four logs, overflowed by different amounts (about 4 times what fits,
     * plus 0 to 3 fifths), so that the newest events end at different
     * places of whatever space the log reuses. */
    trace_event_id_t id = open_id("ct.policy.loop");
    for (int v = 0; v < 4; v++) {
        char path[PATH_BUF];
        trace_id_t trid = small_log_stream(POSIX_TRACE_LOOP, path), log;
        long cap = log_capacity(trid), total = 4 * cap + v * (cap / 5 + 3);
        size_t lsz = logsize_of(trid);
        unsigned seq = 0;
        flush_n(trid, id, &seq, total);
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING, "after its LOOP log overflowed"
                 " (%ld events flushed, 4 times what fits), the stream's status is %d,"
                 " expected RUNNING (%d): tracing goes on until stop", total,
                 st.posix_stream_status, POSIX_TRACE_RUNNING);
        int n = shutdown_read(trid, path, &log);
        static unsigned seqs[MAXREC];
        int k = user_seqs(log, n, "ct.policy.loop", seqs, MAXREC);
        if (k == 0)
            CT_FAIL("the LOOP log holds none of the %ld events flushed into it", total);
        CT_CHECK(seqs[k - 1] == (unsigned)total - 1, "the newest event flushed into the LOOP"
                 " log (number %ld) is not its last user event (%u): a LOOP log keeps the"
                 " newest", total - 1, seqs[k - 1]);
        CT_CHECK(seqs[0] != 0, "the LOOP log still holds the oldest event (number 0) after"
                 " %ld events, 4 times its capacity, were flushed (log-max-size %zu, %d bytes"
                 " of data each)", total, lsz, DATA_LEN);
        for (int i = 1; i < k; i++)
            CT_CHECK(seqs[i] == seqs[i - 1] + 1, "the LOOP log's user events (%ld flushed)"
                     " are not the newest ones in order without a gap: event %u follows %u"
                     " (%d kept: %s)", total, seqs[i], seqs[i - 1], k, seq_list(seqs, k));
        ct_note("a LOOP log took events 0 to %ld and keeps %u to %u", total - 1, seqs[0],
                seqs[k - 1]);
    }
#else
    NO_TRL();
#endif
}

/* ---- APPEND ------------------------------------------------------------------------ */

CT_TEST(append, "log.append", "TRC,TRL",
        "posix_trace_flush,posix_trace_create_withlog,posix_trace_attr_setlogfullpolicy,"
        "posix_trace_attr_setlogsize,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.policy.append");
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    static const size_t tiny[] = { 512, 1024, 4096, 8192, 65536 };
    size_t asked = 0;
    for (size_t i = 0; i < sizeof tiny / sizeof tiny[0] && !asked; i++)
        if (posix_trace_attr_setlogsize(&a, tiny[i]) == 0)
            asked = tiny[i];
    if (!asked)
        ct_note("setlogsize refused 512 to 65536 bytes: the default is used");
    trace_id_t trid = log_stream(&a, path, NULL), log;
    CT_SETUP_OK(posix_trace_start(trid));
    size_t lsz = logsize_of(trid);
    /* Four times what log-max-size holds, and at least 2000 events (64000
     * bytes of data), whatever the implementation rounds the size to. */
    long total = 4 * log_capacity(trid);
    if (total < 2000)
        total = 2000;
    unsigned seq = 0;
    flush_n(trid, id, &seq, total);
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_log_overrun_status == POSIX_TRACE_NO_OVERRUN, "an APPEND log reports"
             " posix_log_overrun_status %d after %ld events were flushed, expected"
             " NO_OVERRUN (%d): no event is lost", st.posix_log_overrun_status, total,
             POSIX_TRACE_NO_OVERRUN);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    log = open_log(path);
    /* Read as it goes: the log may hold more than recs[] does. */
    struct rec r;
    long k = 0, bad = -1;
    while (next_rec(log, &r))
        if (has_name(log, &r, "ct.policy.append")) {
            if (bad < 0 && seq_of(&r) != (unsigned)k)
                bad = k;
            k++;
        }
    CT_CHECK(k == total && bad < 0, "an APPEND log with log-max-size %zu holds %ld of the %ld"
             " events (%d bytes each) flushed into it%s: log-max-size must be ignored",
             lsz, k, total, DATA_LEN,
             bad >= 0 ? ", not in order or with a gap" : "");
#else
    NO_TRL();
#endif
}

/* ---- stream-full-policy FLUSH -------------------------------------------------------- */

CT_TEST(flush_policy, "stream.flush-policy", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_event,posix_trace_shutdown,posix_trace_open,"
        "posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* A stream of about 32 events, policy FLUSH, takes 4 times what it
     * holds, never flushed explicitly.  After each event the test waits
     * while a flush runs or the stream is full (so no event is generated
     * while it cannot be taken): a FLUSH stream flushes itself and restarts. */
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.policy.flush");
    log_attr(&a, POSIX_TRACE_FLUSH, POSIX_TRACE_APPEND);
    stream_events(&a, 32);
    trace_id_t trid = log_stream(&a, path, NULL), log;
    CT_SETUP_OK(posix_trace_start(trid));
    long total = 4 * lossless(trid) + 40, waits = 0;
    if (total > MAXREC / 2)
        total = MAXREC / 2;
    for (long i = 0; i < total; i++) {
        record(id, (unsigned)i);
        struct posix_trace_status_info st;
        int overrun, ready = wait_taking(trid, &st, &overrun, &waits);
        CT_CHECK(!overrun, "a FLUSH stream lost an event (overrun status OVERRUN) after %ld"
                 " events, though none was generated while it was full or flushing", i + 1);
        if (!ready)
            CT_FAIL("a FLUSH stream is %s, %s and %s %ld ms after event %ld: it must"
                    " flush itself as it fills and go on",
                    st.posix_stream_status == POSIX_TRACE_RUNNING ? "RUNNING" : "SUSPENDED",
                    st.posix_stream_full_status == POSIX_TRACE_FULL ? "FULL" : "NOT_FULL",
                    st.posix_stream_flush_status == POSIX_TRACE_FLUSHING ? "FLUSHING"
                    : "NOT_FLUSHING", (long)FLUSH_WAIT_MS, i + 1);
    }
    ct_note("%ld events into a FLUSH stream holding about %ld; %ld waits for a flush", total,
            lossless(trid), waits);
    int n = shutdown_read(trid, path, &log);
    static unsigned seqs[MAXREC];
    int k = user_seqs(log, n, "ct.policy.flush", seqs, MAXREC), gap = -1;
    for (int i = 0; i < k && gap < 0; i++)
        if (seqs[i] != (unsigned)i)
            gap = i;
    CT_CHECK(k == total && gap < 0, "a FLUSH stream took %ld events (several times its"
             " stream-min-size): the log holds %d of them%s", total, k,
             gap >= 0 ? ", with a gap or out of order" : "");
#else
    NO_TRL();
#endif
}
