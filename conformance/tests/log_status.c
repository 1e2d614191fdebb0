/* SPDX-License-Identifier: MIT */
/*
 * log_status.c -- the Trace Log members of posix_trace_status_info (XSH
 * 2.11.1.1): posix_stream_flush_status, posix_log_overrun_status and
 * posix_log_full_status, their values, their initial values, when they
 * change, their reset by get_status (XSH posix_trace_get_attr), and what a
 * stream without log reports in them.
 *
 * Portable: no constant's value is assumed (each member is compared with its
 * constants, ruling 14); a log's capacity is never assumed (an UNTIL_FULL log
 * is filled until it reports FULL, flushing batches that the stream holds
 * without loss).  Every get_status resets the overrun statuses: what each
 * poll reports is kept (struct flushwatch), and the tests that check a reset
 * read the status only once no flush runs.
 *
 * Not tested here, and why:
 *   xsh211.flushing-during-flush  not testable (catalogue): a flush may end
 *   before any status is read; only the values and the end state are checked.
 *   posix_stream_flush_error: log_flush.c (it needs a failing flush).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "ct.h"
#include "ct_log.h"


#if CT_HAVE_TRL

/* What every status read of a tour saw, member by member. */
struct tally {
    long reads;
    long bad_flush, bad_overrun, bad_full;      /* reads with a value outside the set */
    int flush_v, overrun_v, full_v;             /* the first such value */
    long flushing, overrun, full;               /* reads of FLUSHING, OVERRUN, FULL */
};

static struct posix_trace_status_info look(trace_id_t trid, struct tally *t)
{
    struct posix_trace_status_info st = status(trid);
    t->reads++;
    if (st.posix_stream_flush_status == POSIX_TRACE_FLUSHING)
        t->flushing++;
    else if (st.posix_stream_flush_status != POSIX_TRACE_NOT_FLUSHING && !t->bad_flush++)
        t->flush_v = st.posix_stream_flush_status;
    if (st.posix_log_overrun_status == POSIX_TRACE_OVERRUN)
        t->overrun++;
    else if (st.posix_log_overrun_status != POSIX_TRACE_NO_OVERRUN && !t->bad_overrun++)
        t->overrun_v = st.posix_log_overrun_status;
    if (st.posix_log_full_status == POSIX_TRACE_FULL)
        t->full++;
    else if (st.posix_log_full_status != POSIX_TRACE_NOT_FULL && !t->bad_full++)
        t->full_v = st.posix_log_full_status;
    return st;
}

/* Flushes and reads the status every millisecond until NOT_FLUSHING. */
static struct posix_trace_status_info flush_look(trace_id_t trid, struct tally *t)
{
    struct timespec t0;
    clock_gettime(CLOCK_REALTIME, &t0);
    CT_SETUP_OK(posix_trace_flush(trid));
    for (;;) {
        struct posix_trace_status_info st = look(trid, t);
        if (st.posix_stream_flush_status != POSIX_TRACE_FLUSHING)
            return st;
        if (ms_since(&t0) > FLUSH_WAIT_MS)
            CT_UNRESOLVED("a flush did not end within %d ms", FLUSH_WAIT_MS);
        ct_sleep_ms(1);
    }
}

/* Streams with log through their states, every status read tallied: an
 * UNTIL_FULL stream and log created, started, flushed until the log is
 * full and beyond, stopped, cleared; a FLUSH stream with a LOOP log taking
 * several times its size, read after each event. */
static void tour(struct tally *t)
{
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.status.tour");
    unsigned seq = 0;
    memset(t, 0, sizeof *t);
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_UNTIL_FULL);
    small_log(&a);
    trace_id_t trid = log_stream(&a, path, NULL);
    look(trid, t);
    CT_SETUP_OK(posix_trace_start(trid));
    look(trid, t);
    long batch = batch_of(trid), bound = 4 * log_capacity(trid) + 2 * batch + 1000, after = -1;
    for (long done = 0; done < bound && after != 0; done += batch) {
        for (long i = 0; i < batch; i++)
            record(id, seq++);
        look(trid, t);
        struct posix_trace_status_info st = flush_look(trid, t);
        if (after < 0 && st.posix_log_full_status == POSIX_TRACE_FULL)
            after = 3;
        if (after > 0)
            after--;
    }
    CT_SETUP_OK(posix_trace_stop(trid));
    look(trid, t);
    CT_SETUP_OK(posix_trace_clear(trid));
    look(trid, t);
    CT_SETUP_OK(posix_trace_shutdown(trid));

    log_attr(&a, POSIX_TRACE_FLUSH, POSIX_TRACE_LOOP);
    small_log(&a);
    stream_events(&a, 32);
    trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    long n = 4 * lossless(trid) + 40;
    for (long i = 0; i < n; i++) {
        record(id, seq++);
        look(trid, t);
    }
    CT_SETUP_OK(posix_trace_shutdown(trid));
    ct_note("%ld status reads: %ld FLUSHING, %ld log OVERRUN, %ld log FULL", t->reads,
            t->flushing, t->overrun, t->full);
}

#endif /* CT_HAVE_TRL */

/* ---- the values of the members ------------------------------------------------------- */

CT_TEST(flush_status_values, "xsh211.flush-status-values", "TRC,TRL", "posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    struct tally t;
    tour(&t);
    CT_CHECK(t.bad_flush == 0, "%ld of %ld status reads of streams with log gave a"
             " posix_stream_flush_status that is neither POSIX_TRACE_FLUSHING (%d) nor"
             " POSIX_TRACE_NOT_FLUSHING (%d), the first %d", t.bad_flush, t.reads,
             POSIX_TRACE_FLUSHING, POSIX_TRACE_NOT_FLUSHING, t.flush_v);
#else
    NO_TRL();
#endif
}

CT_TEST(log_overrun_values, "xsh211.log-overrun-values", "TRC,TRL", "posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    struct tally t;
    tour(&t);
    CT_CHECK(t.bad_overrun == 0, "%ld of %ld status reads of streams with log gave a"
             " posix_log_overrun_status that is neither POSIX_TRACE_OVERRUN (%d) nor"
             " POSIX_TRACE_NO_OVERRUN (%d), the first %d", t.bad_overrun, t.reads,
             POSIX_TRACE_OVERRUN, POSIX_TRACE_NO_OVERRUN, t.overrun_v);
#else
    NO_TRL();
#endif
}

CT_TEST(log_full_values, "xsh211.log-full-values", "TRC,TRL", "posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    struct tally t;
    tour(&t);
    CT_CHECK(t.bad_full == 0, "%ld of %ld status reads of streams with log gave a"
             " posix_log_full_status that is neither POSIX_TRACE_FULL (%d) nor"
             " POSIX_TRACE_NOT_FULL (%d), the first %d", t.bad_full, t.reads,
             POSIX_TRACE_FULL, POSIX_TRACE_NOT_FULL, t.full_v);
    if (t.full == 0)
        CT_UNRESOLVED("the UNTIL_FULL log never reported FULL: only NOT_FULL was seen"
                      " (log.max-size)");
#else
    NO_TRL();
#endif
}

/* ---- flush status ------------------------------------------------------------------------ */

CT_TEST(not_flushing_idle, "xsh211.not-flushing-idle", "TRC,TRL",
        "posix_trace_get_status,posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    const int pol[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    trace_event_id_t id = open_id("ct.status.idle");
    for (int p = 0; p < 3; p++) {
        char path[PATH_BUF];
        trace_attr_t a;
        unsigned seq = 0;
        log_attr(&a, POSIX_TRACE_UNTIL_FULL, pol[p]);
        trace_id_t trid = log_stream(&a, path, NULL);
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING, "a new stream"
                 " with a %s log reports posix_stream_flush_status %d, expected"
                 " NOT_FLUSHING (%d)", policy_name(pol[p]), st.posix_stream_flush_status,
                 POSIX_TRACE_NOT_FLUSHING);
        CT_SETUP_OK(posix_trace_start(trid));
        flush_batch(trid, id, &seq, 10, NULL);
        /* The flush has ended: it stays so while nothing is flushed. */
        for (int k = 0; k < 5; k++) {
            st = status(trid);
            CT_CHECK(st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING, "%d ms after"
                     " a flush was seen to end (%s log, nothing flushed since),"
                     " posix_stream_flush_status is %d, expected NOT_FLUSHING (%d)", 5 * k,
                     policy_name(pol[p]), st.posix_stream_flush_status,
                     POSIX_TRACE_NOT_FLUSHING);
            ct_sleep_ms(5);
        }
        CT_SETUP_OK(posix_trace_shutdown(trid));
    }
#else
    NO_TRL();
#endif
}

/* ---- log overrun ------------------------------------------------------------------------- */

CT_TEST(log_overrun_initial, "xsh211.log-overrun-initial", "TRC,TRL",
        "posix_trace_get_status,posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    const int pol[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    for (int p = 0; p < 4; p++) {
        char path[PATH_BUF];
        trace_attr_t a;
        if (p < 3)
            log_attr(&a, POSIX_TRACE_UNTIL_FULL, pol[p]);
        trace_id_t trid = log_stream(p < 3 ? &a : NULL, path, NULL);
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_log_overrun_status == POSIX_TRACE_NO_OVERRUN, "a new stream with"
                 " %s%s reports posix_log_overrun_status %d, expected NO_OVERRUN (%d)",
                 p < 3 ? "a log of policy " : "default attributes",
                 p < 3 ? policy_name(pol[p]) : "", st.posix_log_overrun_status,
                 POSIX_TRACE_NO_OVERRUN);
        CT_SETUP_OK(posix_trace_shutdown(trid));
    }
#else
    NO_TRL();
#endif
}

CT_TEST(log_overrun_set, "xsh211.log-overrun-set", "TRC,TRL",
        "posix_trace_get_status,posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.status.overrun");
    unsigned seq = 0;
    long filled;
    trace_id_t trid = full_until_full_log(path, id, &seq, &filled, 0);
    struct flushwatch w;
    long n = batch_of(trid);
    flush_batch(trid, id, &seq, n, &w);
    int seen = w.log_overrun || status(trid).posix_log_overrun_status == POSIX_TRACE_OVERRUN;
    CT_CHECK(seen, "%ld events were flushed into a full UNTIL_FULL log (discarded), and no"
             " status read since (%ld polls, then one more) reported posix_log_overrun_status"
             " OVERRUN (%d)", n, w.polls, POSIX_TRACE_OVERRUN);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

CT_TEST(resets_log_overrun, "get_status.resets-log-overrun", "TRC,TRL",
        "posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    /* Flush into a full UNTIL_FULL log until a read reports the log overrun
     * with no flush running; the next read must report NO_OVERRUN. */
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.status.reset");
    unsigned seq = 0;
    long filled;
    trace_id_t trid = full_until_full_log(path, id, &seq, &filled, 0);
    for (int round = 0; round < 20; round++) {
        struct flushwatch w;
        flush_batch(trid, id, &seq, batch_of(trid), &w);
        /* wait_flush's last read reported NOT_FLUSHING: if it also reported
         * OVERRUN, nothing can overrun the log before the next read. */
        if (!w.log_overrun_last)
            continue;
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_log_overrun_status == POSIX_TRACE_NO_OVERRUN, "a get_status that"
                 " reported posix_log_overrun_status OVERRUN with no flush running was"
                 " followed by one reporting %d, expected NO_OVERRUN (%d)",
                 st.posix_log_overrun_status, POSIX_TRACE_NO_OVERRUN);
        CT_CHECK_OK(posix_trace_shutdown(trid));
        return;
    }
    CT_UNRESOLVED("in 20 flushes into a full UNTIL_FULL log, no status read reported the log"
                  " overrun with no flush running (xsh211.log-overrun-set)");
#else
    NO_TRL();
#endif
}

/* ---- streams without log --------------------------------------------------------------- */

CT_TEST(no_log_log_status, "xsh211.no-log-log-status", "TRC,TRL",
        "posix_trace_get_status,posix_trace_create")
{
#if CT_HAVE_TRL
    require_trl();
    /* New, running with events, and (LOOP) full and overwritten. */
    trace_attr_t a;
    trace_id_t trid;
    trace_event_id_t id = open_id("ct.status.nolog");
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_LOOP));
    stream_events(&a, 32);
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    const char *when = "new";
    long bound = 8 * lossless(trid) + 1000, i = 0, full_at = -1;
    for (int stage = 0; stage < 3; stage++) {
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_log_overrun_status == POSIX_TRACE_NO_OVERRUN &&
                 st.posix_log_full_status == POSIX_TRACE_NOT_FULL, "a stream without log"
                 " (%s) reports posix_log_overrun_status %d and posix_log_full_status %d:"
                 " expected NO_OVERRUN (%d) and NOT_FULL (%d)", when,
                 st.posix_log_overrun_status, st.posix_log_full_status,
                 POSIX_TRACE_NO_OVERRUN, POSIX_TRACE_NOT_FULL);
        if (stage == 0) {
            CT_SETUP_OK(posix_trace_start(trid));
            for (unsigned k = 0; k < 5; k++)
                record(id, k);
            when = "running, 5 events";
        } else if (stage == 1) {
            for (; i < bound && full_at < 0; i++) {
                record(id, (unsigned)i);
                struct posix_trace_status_info s2 = status(trid);
                CT_CHECK(s2.posix_log_overrun_status == POSIX_TRACE_NO_OVERRUN &&
                         s2.posix_log_full_status == POSIX_TRACE_NOT_FULL, "a stream without"
                         " log, %ld events into filling it, reports log overrun %d and log"
                         " full status %d: expected NO_OVERRUN and NOT_FULL", i + 1,
                         s2.posix_log_overrun_status, s2.posix_log_full_status);
                if (s2.posix_stream_full_status == POSIX_TRACE_FULL)
                    full_at = i;
            }
            for (long k = 0; k < 2 * (full_at + 1); k++)
                record(id, (unsigned)k);
            when = "LOOP, full and overwritten";
        }
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

/* ---- a log below its capacity ------------------------------------------------------------- */

#if CT_HAVE_TRL
/* What a log of about 32 KiB (mid_log) holds, learnt from the
 * implementation: the events an UNTIL_FULL one took before it reported
 * FULL (at least 8, else UNRESOLVED). */
static long mid_capacity(char *path, trace_event_id_t id, unsigned *seq)
{
    trace_attr_t a;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_UNTIL_FULL);
    mid_log(&a);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    long filled = fill_log(trid, id, seq, 4 * log_capacity(trid) + 2 * batch_of(trid) + 1000);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    if (filled < 8)
        CT_UNRESOLVED("an UNTIL_FULL log never reported FULL, or took only %ld events"
                      " (log.max-size)", filled);
    return filled;
}
#endif

CT_TEST(below_capacity, "xsh211.log-status-below-capacity", "TRC,TRL",
        "posix_trace_get_status,posix_trace_flush,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* What a log of these attributes holds is learnt from the implementation:
     * an UNTIL_FULL log is filled until it reports FULL.  Then a log of each
     * policy with the same attributes takes a quarter of that, flushed batch
     * by batch (in as many pieces as the log has room for, so that a LOOP
     * log moves on from its first piece of space): nothing is lost, so every
     * status read says NOT_FULL and NO_OVERRUN, and the log gives back every
     * event, in order. */
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.status.below");
    unsigned seq = 0;
    trace_attr_t a;
    trace_id_t trid;
    long filled = mid_capacity(path, id, &seq);
    const int pol[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    for (int p = 0; p < 3; p++) {
        log_attr(&a, POSIX_TRACE_UNTIL_FULL, pol[p]);
        mid_log(&a);
        trid = log_stream(&a, path, NULL);
        CT_SETUP_OK(posix_trace_start(trid));
        long want = filled / 4, batch = batch_of(trid), sent = 0;
        if (batch > want / 4 && want >= 4)
            batch = want / 4;                   /* at least four flushes */
        unsigned first = seq;
        while (sent < want) {
            struct flushwatch w;
            long n = batch < want - sent ? batch : want - sent;
            flush_batch(trid, id, &seq, n, &w);
            sent += n;
            struct posix_trace_status_info st = status(trid);
            CT_CHECK(!w.log_full && !w.log_overrun &&
                     st.posix_log_full_status == POSIX_TRACE_NOT_FULL &&
                     st.posix_log_overrun_status == POSIX_TRACE_NO_OVERRUN,
                     "a %s log that has taken %ld events, a quarter of what an UNTIL_FULL log"
                     " of the same attributes took before it was FULL (%ld), reports %s and %s",
                     policy_name(pol[p]), sent, filled,
                     w.log_full || st.posix_log_full_status == POSIX_TRACE_FULL ?
                     "posix_log_full_status FULL" : "NOT_FULL",
                     w.log_overrun || st.posix_log_overrun_status == POSIX_TRACE_OVERRUN ?
                     "posix_log_overrun_status OVERRUN (events lost)" : "NO_OVERRUN");
        }
        CT_SETUP_OK(posix_trace_shutdown(trid));
        trace_id_t log = open_log(path);
        struct rec r;
        unsigned next = first, n = 0, bad = 0;
        while (next_rec(log, &r)) {
            if (!is_ev(log, &r, id))
                continue;
            unsigned v = seq_of(&r);
            bad += v != next;
            next = v + 1;
            n++;
        }
        CT_CHECK(n == (unsigned)want && bad == 0, "the %s log, below its capacity, gives back"
                 " %u of the %ld events flushed into it (%u out of order)", policy_name(pol[p]),
                 n, want, bad);
        CT_SETUP_OK(posix_trace_close(log));
    }
#else
    NO_TRL();
#endif
}

/* ---- what a LOOP log holds after it wrapped --------------------------------------------- */

CT_TEST(loop_holds_after_wrap, "log.loop-holds-after-wrap", "TRC,TRL",
        "posix_trace_flush,posix_trace_shutdown,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* A LOOP log reuses the space of its oldest events only (S0025): once
     * it has wrapped it still holds most of what it can hold.  What that is
     * is learnt from an UNTIL_FULL log of the same attributes (events taken
     * before FULL); a LOOP log that has taken a quarter more than that must
     * give back at least a quarter of it, the newest events, in order, the
     * last one flushed last.  (A quarter: an implementation may reuse its
     * space in a few large pieces -- the reference's smallest LOOP log has
     * two -- and the piece being reused holds nothing readable.) */
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.status.loopheld");
    unsigned seq = 0;
    trace_attr_t a;
    trace_id_t trid;
    long filled = mid_capacity(path, id, &seq);
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_LOOP);
    mid_log(&a);
    trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    unsigned first = seq;
    flush_n(trid, id, &seq, filled + filled / 4);
    unsigned last = seq - 1;
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    struct rec r;
    unsigned n = 0, bad = 0, end = 0;
    while (next_rec(log, &r)) {
        if (!is_ev(log, &r, id))
            continue;
        unsigned v = seq_of(&r);
        bad += n > 0 && v != end + 1;
        end = v;
        n++;
    }
    CT_CHECK(n >= (unsigned)(filled / 4) && bad == 0 && end == last, "a LOOP log that took %ld"
             " events (%u to %u), a quarter more than an UNTIL_FULL log of the same attributes"
             " took before it was FULL (%ld), gives back %u of them (at least %ld expected, the"
             " newest), %u out of order, the last %u", filled + filled / 4, first, last, filled,
             n, filled / 4, bad, end);
    CT_CHECK_OK(posix_trace_close(log));
#else
    NO_TRL();
#endif
}
