/* SPDX-License-Identifier: MIT */
/*
 * log_flush.c -- posix_trace_flush() (XSH posix_trace_create): what it copies
 * into the log, that its end can be polled, that tracing goes on meanwhile and
 * that it frees the stream's space; its errors; the FLUSH_START and
 * FLUSH_STOP events it leaves (XSH 2.11.2); and posix_stream_flush_error
 * (XSH 2.11.1.1, XSH posix_trace_get_status).
 *
 * Portable: a flush is asynchronous; its end is get_status reporting
 * NOT_FLUSHING, polled every millisecond for at most 8 s (the harness stops a
 * test at 10 s).  Logs are temporary regular files read back with
 * posix_trace_open() after shutdown; events are recognised by name and by the
 * sequence numbers in their data.
 * A stream's capacity is never assumed: a LOOP stream is filled until
 * get_status says FULL, and batches are kept within what stream-min-size
 * holds without loss (XSH posix_trace_attr_getlogsize).  The streams of these
 * tests use stream-full-policy LOOP or UNTIL_FULL and an APPEND log, so that
 * no automatic flush and no log limit gets in the way of what is checked.
 *
 * Write faults run in a child process: EFBIG with RLIMIT_FSIZE set to 1 byte
 * and SIGXFSZ ignored; ENOSPC with the log on a small tmpfs filled up, which
 * needs root and Linux's mount -t tmpfs (UNTESTED otherwise).  A full device
 * still lets a write fill the room left in the file's last allocation unit,
 * so the batch flushed under it carries more data than one unit
 * (fault_need(), ct_log.h): the flush must need new space.  An
 * implementation may report the error as flush's return value or later in
 * posix_stream_flush_error; a log writer the fault does not reach (another
 * process, space set aside beforehand) passes by writing the whole log.  The
 * asynchronous error path (xsh211.flush-error-first) is provoked with an
 * explicit flush and, if that fails at once, with the automatic flushes of
 * stream-full-policy FLUSH.
 *
 * Not tested here, and why:
 *   xsh211.flush-error-first-kept  not testable (catalogue).
 *   flush status values and FLUSHING while flushing: log_status.c.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "ct.h"
#include "ct_log.h"


/* ---- what a flush does ------------------------------------------------------------------ */

#if CT_HAVE_TRL
/* A started stream with log: stream-full-policy sp, an APPEND log. */
static trace_id_t started(int sp, size_t events, char *path)
{
    trace_attr_t a;
    log_attr(&a, sp, POSIX_TRACE_APPEND);
    if (events)
        stream_events(&a, events);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

/* LOOP: records events until get_status says FULL; their number. */
static long fill_loop(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    long bound = 8 * lossless(trid) + 1000;
    for (long n = 1; n <= bound; n++) {
        record(id, (*seq)++);
        if (status(trid).posix_stream_full_status == POSIX_TRACE_FULL)
            return n;
    }
    CT_UNRESOLVED("a LOOP stream did not report FULL after %ld events", bound);
}
#endif

CT_TEST(copies_to_log, "flush.copies-to-log", "TRC,TRL",
        "posix_trace_flush,posix_trace_get_status,posix_trace_shutdown,posix_trace_open,"
        "posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* Ten events are flushed; then the LOOP stream is filled and overwritten
     * twice over: only the log can still hold the ten. */
    char path[PATH_BUF];
    trace_event_id_t copied = open_id("ct.flush.copied"), later = open_id("ct.flush.later");
    trace_id_t trid = started(POSIX_TRACE_LOOP, 32, path), log;
    unsigned seq = 0, lseq = 0, seqs[16];
    for (int i = 0; i < 10; i++)
        record(copied, seq++);
    CT_CHECK_OK(posix_trace_flush(trid));
    struct flushwatch w;
    if (!wait_flush(trid, &w))
        CT_UNRESOLVED("the flush did not end within %d ms (flush.completion-pollable)",
                      FLUSH_WAIT_MS);
    long k = fill_loop(trid, later, &lseq);
    for (long i = 0; i < 2 * k + 2; i++)
        record(later, lseq++);
    int n = shutdown_read(trid, path, &log);
    int c = user_seqs(log, n, "ct.flush.copied", seqs, 16);
    CT_CHECK(c == 10 && seqs[0] == 0 && seqs[9] == 9, "10 events (0 to 9) were recorded"
             " before a flush that completed, then the LOOP stream was overwritten (%ld"
             " events): the log holds %d of them: %s", 3 * k + 2, c, seq_list(seqs, c));
#else
    NO_TRL();
#endif
}

CT_TEST(leaves_pending_signals, "flush.leaves-pending-signals", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_flush,posix_trace_shutdown")
{
#if CT_HAVE_TRL
    require_trl();
    /* A SIGXFSZ the program holds blocked and pending before it writes a
     * log (its own, raised for the process) is still pending after flushes
     * and the shutdown: a library that writes files may block SIGXFSZ
     * around its writes, but what it takes it must be what its own writes
     * raised, not the caller's. */
    sigset_t one, old, pending;
    sigemptyset(&one);
    sigaddset(&one, SIGXFSZ);
    if (pthread_sigmask(SIG_BLOCK, &one, &old) != 0)
        CT_UNRESOLVED("pthread_sigmask failed");
    if (kill(getpid(), SIGXFSZ) != 0)
        CT_UNRESOLVED("kill(getpid(), SIGXFSZ) failed: %s", ct_errname(errno));
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.flush.pending");
    trace_id_t trid = started(POSIX_TRACE_LOOP, 32, path);
    unsigned seq = 0;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 10; i++)
            record(id, seq++);
        CT_CHECK_OK(posix_trace_flush(trid));
        struct flushwatch w;
        if (!wait_flush(trid, &w))
            CT_UNRESOLVED("the flush did not end within %d ms (flush.completion-pollable)",
                          FLUSH_WAIT_MS);
        sigemptyset(&pending);
        CT_CHECK(sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1,
                 "a SIGXFSZ the program had pending (blocked) is no longer pending after"
                 " flush %d of a stream with log: the library took the caller's signal",
                 round + 1);
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
    sigemptyset(&pending);
    CT_CHECK(sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1,
             "a SIGXFSZ the program had pending (blocked) is no longer pending after the"
             " shutdown of a stream with log");
    /* Take it, then the mask as it was. */
    int sig;
    (void)sigwait(&one, &sig);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
#else
    NO_TRL();
#endif
}

CT_TEST(completion_pollable, "flush.completion-pollable", "TRC,TRL",
        "posix_trace_flush,posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    /* Three flushes: with events, at once again with nothing new, and of a
     * stopped stream.  Each must be seen to end. */
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.flush.poll");
    trace_id_t trid = started(POSIX_TRACE_UNTIL_FULL, 0, path);
    unsigned seq = 0;
    long n = lossless(trid) / 2;
    const char *what[3] = { "a flush of a running stream holding events",
                            "a second flush right after the first", "a flush of a stopped stream" };
    for (int k = 0; k < 3; k++) {
        struct flushwatch w;
        if (k == 0)
            for (long i = 0; i < n; i++)
                record(id, seq++);
        if (k == 2)
            CT_SETUP_OK(posix_trace_stop(trid));
        CT_CHECK_OK(posix_trace_flush(trid));
        CT_CHECK(wait_flush(trid, &w), "%s: get_status still reports FLUSHING after %ld ms"
                 " (%ld polls): the end of a flush must be observable", what[k], w.ms, w.polls);
        ct_note("%s ended after %ld ms, %ld polls%s", what[k], w.ms, w.polls,
                w.saw_flushing ? " (FLUSHING seen)" : "");
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

CT_TEST(traces_during_flush, "flush.traces-during-flush", "TRC,TRL",
        "posix_trace_flush,posix_trace_event,posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    /* Half a stream is flushed; a quarter more is recorded right after flush
     * returns (there is room for it even if nothing was freed yet). */
    char path[PATH_BUF];
    trace_event_id_t a = open_id("ct.flush.before"), c = open_id("ct.flush.during");
    trace_id_t trid = started(POSIX_TRACE_UNTIL_FULL, 0, path), log;
    long fit = lossless(trid), na = fit / 2 > 0 ? fit / 2 : 1, nc = fit / 4 > 0 ? fit / 4 : 1;
    unsigned sa = 0, sc = 0;
    for (long i = 0; i < na; i++)
        record(a, sa++);
    CT_CHECK_OK(posix_trace_flush(trid));
    for (long i = 0; i < nc; i++)
        record(c, sc++);
    struct flushwatch w;
    int flushing_after = wait_flush(trid, &w) && w.saw_flushing;
    if (!w.done)
        CT_UNRESOLVED("the flush did not end within %d ms", FLUSH_WAIT_MS);
    ct_note("%ld events recorded right after flush returned%s", nc,
            flushing_after ? "; the flush was still running after them" : "");
    int n = shutdown_read(trid, path, &log);
    static unsigned seqs[MAXREC];
    int k = user_seqs(log, n, "ct.flush.during", seqs, MAXREC);
    int inorder = k == (int)nc;
    for (int i = 0; inorder && i < k; i++)
        inorder = seqs[i] == (unsigned)i;
    CT_CHECK(inorder, "%ld events were recorded right after posix_trace_flush returned (the"
             " stream had room for them): the log holds %d of them: %s", nc, k,
             seq_list(seqs, k));
    int ka = user_seqs(log, n, "ct.flush.before", seqs, MAXREC);
    CT_CHECK(ka == (int)na, "the log holds %d of the %ld events flushed", ka, na);
#else
    NO_TRL();
#endif
}

CT_TEST(frees_space, "flush.frees-space", "TRC,TRL",
        "posix_trace_flush,posix_trace_get_status,posix_trace_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* A LOOP stream of about 32 events is filled (k events until FULL) and
     * flushed; three quarters of k events then fit without overwriting. */
    char path[PATH_BUF];
    trace_event_id_t fill = open_id("ct.flush.fill"), again = open_id("ct.flush.again");
    trace_id_t trid = started(POSIX_TRACE_LOOP, 32, path), log;
    unsigned fs = 0, as = 0;
    long k = fill_loop(trid, fill, &fs);
    struct flushwatch w;
    flush_wait(trid, &w);
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_full_status == POSIX_TRACE_NOT_FULL, "after a completed flush of"
             " a full stream (%ld events), posix_stream_full_status is %d, expected NOT_FULL"
             " (%d): the flushed events' space must be free", k, st.posix_stream_full_status,
             POSIX_TRACE_NOT_FULL);
    long m = 3 * k / 4 > 0 ? 3 * k / 4 : 1;
    for (long i = 0; i < m; i++)
        record(again, as++);
    st = status(trid);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "the stream reported FULL after %ld events; after a completed flush, %ld events"
             " overwrote others (posix_stream_overrun_status %d, expected NO_OVERRUN %d): the"
             " space of flushed events was not made available", k, m,
             st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    int n = shutdown_read(trid, path, &log);
    static unsigned seqs[MAXREC];
    int got = user_seqs(log, n, "ct.flush.again", seqs, MAXREC);
    CT_CHECK(got == (int)m && seqs[0] == 0 && seqs[got - 1] == (unsigned)m - 1,
             "the log holds %d of the %ld events recorded after the flush: %s", got, m,
             seq_list(seqs, got));
#else
    NO_TRL();
#endif
}

/* ---- FLUSH_START and FLUSH_STOP ----------------------------------------------------- */

#if CT_HAVE_TRL
/* Five events A, flush, five events B, flush, five events C; the log read
 * into recs[]; its trid in *log. */
static int three_batches(trace_id_t *log)
{
    char path[PATH_BUF];
    trace_event_id_t id[3] = { open_id("ct.flush.A"), open_id("ct.flush.B"),
                               open_id("ct.flush.C") };
    trace_id_t trid = started(POSIX_TRACE_UNTIL_FULL, 0, path);
    for (int b = 0; b < 3; b++) {
        for (unsigned i = 0; i < 5; i++)
            record(id[b], i);
        if (b < 2)
            flush_wait(trid, NULL);
    }
    return shutdown_read(trid, path, log);
}
#endif

CT_TEST(flush_start_event, "xsh211.flush-start-event", "TRC,TRL",
        "posix_trace_flush,posix_trace_shutdown,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    trace_id_t log;
    int n = three_batches(&log);
    const char *names[3] = { "ct.flush.A", "ct.flush.B", "ct.flush.C" };
    for (int b = 0; b < 2; b++) {
        int last = last_named(log, n, names[b]), first_next = -1;
        for (int i = 0; i < n && first_next < 0; i++)
            if (has_name(log, &recs[i], names[b + 1]))
                first_next = i;
        if (last < 0 || first_next < 0)
            CT_UNRESOLVED("the log lacks the events of batch %d or %d (%d events read)", b + 1,
                          b + 2, n);
        int fs = find_ev(log, n, last + 1, POSIX_TRACE_FLUSH_START);
        CT_CHECK(fs >= 0 && fs < first_next, "flush number %d of a running stream: no"
                 " POSIX_TRACE_FLUSH_START between the last event recorded before it (event"
                 " %d of %d read) and the first after it (event %d)%s", b + 1, last + 1, n,
                 first_next + 1, fs >= 0 ? "; one comes later" : "");
    }
#else
    NO_TRL();
#endif
}

CT_TEST(flush_stop_event, "xsh211.flush-stop-event", "TRC,TRL",
        "posix_trace_flush,posix_trace_shutdown,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    trace_id_t log;
    int n = three_batches(&log), starts = 0;
    /* The last STOP is shutdown's: a FLUSH_START after it belongs to the
     * final flush, whose end the closed log may not record. */
    int stop = -1;
    for (int i = n - 1; i >= 0 && stop < 0; i--)
        if (is_ev(log, &recs[i], POSIX_TRACE_STOP))
            stop = i;
    if (stop < 0)
        stop = n;
    for (int i = 0; i < stop; i++) {
        if (!is_ev(log, &recs[i], POSIX_TRACE_FLUSH_START))
            continue;
        starts++;
        int fe = find_ev(log, n, i + 1, POSIX_TRACE_FLUSH_STOP);
        CT_CHECK(fe >= 0, "POSIX_TRACE_FLUSH_START (event %d of %d read) is not followed by a"
                 " POSIX_TRACE_FLUSH_STOP", i + 1, n);
    }
    if (starts < 2)
        CT_UNRESOLVED("the log holds %d FLUSH_START events before shutdown's STOP after two"
                      " explicit flushes (xsh211.flush-start-event)", starts);
    /* And no FLUSH_STOP ends a flush that did not begin: each one closes a
     * FLUSH_START before it (S0276, S0277), the shutdown's flush too. */
    int open = 0;
    for (int i = 0; i < n; i++) {
        if (is_ev(log, &recs[i], POSIX_TRACE_FLUSH_START))
            open++;
        else if (is_ev(log, &recs[i], POSIX_TRACE_FLUSH_STOP)) {
            CT_CHECK(open > 0, "POSIX_TRACE_FLUSH_STOP (event %d of %d read) ends a flush that"
                     " no POSIX_TRACE_FLUSH_START began", i + 1, n);
            open--;
        }
    }
#else
    NO_TRL();
#endif
}

/* ---- errors ---------------------------------------------------------------------------- */

CT_TEST(einval_no_log, "flush.EINVAL-no-log", "TRC,TRL", "posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_ERR(posix_trace_flush(trid), EINVAL);
    CT_SETUP_OK(posix_trace_start(trid));
    CT_CHECK_ERR(posix_trace_flush(trid), EINVAL);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

CT_TEST(einval, "flush.EINVAL", "TRC,TRL", "posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    /* A trid from open: a log, not an active stream. */
    trace_id_t trid = log_stream(NULL, path, NULL);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    CT_CHECK_ERR(posix_trace_flush(log), EINVAL);
    CT_SETUP_OK(posix_trace_close(log));
    /* A stream with log shut down, used before any other create (ruling 25). */
    trid = log_stream(NULL, path, NULL);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    CT_CHECK_ERR(posix_trace_flush(trid), EINVAL);
#else
    NO_TRL();
#endif
}

CT_TEST(efbig, "flush.EFBIG", "TRC,TRL", "posix_trace_flush,posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    struct fault_out o;
    fault_run(FAULT_EFBIG, MODE_FLUSH, &o);
    judge_flush(&o, EFBIG, "RLIMIT_FSIZE 1 (SIGXFSZ ignored)");
#else
    NO_TRL();
#endif
}

CT_TEST(enospc, "flush.ENOSPC", "TRC,TRL", "posix_trace_flush,posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    struct fault_out o;
    fault_run(FAULT_ENOSPC, MODE_FLUSH, &o);
    judge_flush(&o, ENOSPC, "a full device");
#else
    NO_TRL();
#endif
}

/* ---- posix_stream_flush_error ----------------------------------------------------------- */

CT_TEST(flush_error_zero, "xsh211.flush-error-zero", "TRC,TRL",
        "posix_trace_get_status,posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.flush.ok");
    trace_id_t trid = started(POSIX_TRACE_UNTIL_FULL, 0, path);
    unsigned seq = 0;
    long n = lossless(trid) / 2;
    for (int k = 0; k < 3; k++) {
        struct flushwatch w;
        flush_batch(trid, id, &seq, n, &w);
        CT_CHECK(w.flush_error == 0, "flush %d of 3 succeeded (an ordinary file with room),"
                 " yet get_status reported posix_stream_flush_error %d (%s), expected 0",
                 k + 1, w.flush_error, ct_errname(w.flush_error));
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_stream_flush_error == 0, "after flush %d of 3 succeeded and ended,"
                 " posix_stream_flush_error is %d (%s), expected 0", k + 1,
                 st.posix_stream_flush_error, ct_errname(st.posix_stream_flush_error));
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

#if CT_HAVE_TRL
/* A run in which posix_stream_flush_error reported a failed flush: an
 * explicit flush under RLIMIT_FSIZE, or, if that flush failed at once (its
 * return value), the automatic flushes of a FLUSH stream.  Ends the test when
 * no flush error can be provoked. */
static void provoke_flush_error(struct fault_out *o)
{
    fault_run(FAULT_EFBIG, MODE_FLUSH, o);
    if (o->flush_rc == 0 && o->flush_error != 0)
        return;
    if (o->flush_rc == 0 && o->batch1_in_log == o->batch1 && o->open_rc == 0)
        CT_UNSUPPORTED("a flush under RLIMIT_FSIZE 1 wrote the whole log: the log's writer is"
                       " not bound by the limit, no flush error can be provoked");
    if (o->flush_rc == 0)
        return;                 /* no error reported, events lost: judged by the caller */
    ct_note("the explicit flush failed at once (%s): no flush operation ran; trying the"
            " automatic flushes of stream-full-policy FLUSH", ct_errname(o->flush_rc));
    fault_run(FAULT_EFBIG, MODE_AUTO, o);
    if (o->flush_error == 0 && o->open_rc == 0 && o->batch2_in_log == o->batch2)
        CT_UNSUPPORTED("the automatic flushes under RLIMIT_FSIZE 1 wrote the whole log: no"
                       " flush error can be provoked");
}
#endif

CT_TEST(flush_error_first, "xsh211.flush-error-first", "TRC,TRL",
        "posix_trace_get_status,posix_trace_flush")
{
#if CT_HAVE_TRL
    require_trl();
    struct fault_out o;
    provoke_flush_error(&o);
    CT_CHECK(o.flush_error == EFBIG, "a flush failed under RLIMIT_FSIZE 1 (SIGXFSZ ignored;"
             " %ld of %ld events reached the log), and posix_stream_flush_error reported %d"
             " (%s): expected EFBIG, the error of the failed flush", o.batch2_in_log +
             o.batch1_in_log, o.batch2 + o.batch1, o.flush_error, ct_errname(o.flush_error));
#else
    NO_TRL();
#endif
}

CT_TEST(resets_flush_error, "get_status.resets-flush-error", "TRC,TRL",
        "posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    struct fault_out o;
    provoke_flush_error(&o);
    if (o.flush_error == 0)
        CT_UNRESOLVED("no read of get_status reported the failed flush's error"
                      " (xsh211.flush-error-first)");
    if (!o.idle)
        CT_UNRESOLVED("the failing flushes did not end within %d ms", FLUSH_WAIT_MS);
    CT_CHECK(o.error_after == 0, "a get_status reported posix_stream_flush_error %s; once"
             " no flush ran, the next reads reported %d (%s): expected 0, the member is reset"
             " by each read", ct_errname(o.flush_error), o.error_after,
             ct_errname(o.error_after));
#else
    NO_TRL();
#endif
}
