/* SPDX-License-Identifier: MIT */
/*
 * log_shutdown.c -- posix_trace_shutdown() of a stream with log (XSH
 * posix_trace_create): it stops the stream, flushes what is left, waits for
 * the flush, and closes a log that holds the stream's attributes, event type
 * mapping and status and that posix_trace_open() recognises; its errors.
 *
 * Portable: logs are temporary regular files read back with
 * posix_trace_open(); nothing of their format is assumed.  Events are
 * recognised by name (eventid_get_name on the log's trid) and by the
 * sequence numbers in their data.  Sizes read back from a log are at least
 * those set (ruling 22).  Write faults run in a child: EFBIG with
 * RLIMIT_FSIZE 1 and SIGXFSZ ignored; ENOSPC on a small tmpfs filled up
 * (needs root and Linux's mount -t tmpfs, UNTESTED otherwise); a log writer
 * the fault does not reach passes by writing the whole log.
 *
 * Not tested here, and why:
 *   shutdown without log, of an invalid trid, and readers it unblocks:
 *   shutdown.c (TRC rules).
 *   get_status on an opened log in general: log_open.c.
 */
#include <fcntl.h>
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
#include "ct_stream.h"


/* ---- what shutdown does to the log -------------------------------------------------- */

CT_TEST(log_ends_with_stop, "shutdown.log-ends-with-stop", "TRC,TRL",
        "posix_trace_shutdown,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* Shut down while RUNNING, with and without an explicit flush before. */
    for (int k = 0; k < 2; k++) {
        char path[PATH_BUF];
        trace_event_id_t id = open_id("ct.shut.user");
        trace_id_t trid = log_stream(NULL, path, NULL), log;
        CT_SETUP_OK(posix_trace_start(trid));
        for (unsigned i = 0; i < 5; i++)
            record(id, i);
        if (k == 1)
            flush_wait(trid, NULL);
        int n = shutdown_read(trid, path, &log);
        int last = last_named(log, n, "ct.shut.user");
        if (last < 0)
            CT_FAIL("the log of a stream shut down while running holds none of its 5 user"
                    " events (%d events read)", n);
        int stop = find_ev(log, n, last + 1, POSIX_TRACE_STOP);
        CT_CHECK(stop >= 0, "shutdown of a RUNNING stream with log%s: no POSIX_TRACE_STOP"
                 " after the last user event (event %d of %d read): shutdown stops the"
                 " stream as posix_trace_stop would", k ? " (flushed before)" : "",
                 last + 1, n);
    }
#else
    NO_TRL();
#endif
}

CT_TEST(log_flushed, "shutdown.log-flushed", "TRC,TRL",
        "posix_trace_shutdown,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* Never flushed explicitly: as many events as the stream holds, with the
     * default attributes and with stream-full-policy UNTIL_FULL. */
    for (int k = 0; k < 2; k++) {
        char path[PATH_BUF];
        trace_attr_t a;
        int fd;
        trace_event_id_t id = open_id("ct.shut.flushed");
        if (k == 1)
            log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
        trace_id_t trid = log_stream(k == 1 ? &a : NULL, path, &fd), log;
        CT_SETUP_OK(posix_trace_start(trid));
        long n = lossless(trid);
        if (n > 5000)
            n = 5000;
        for (long i = 0; i < n; i++)
            record(id, (unsigned)i);
        int got = shutdown_read(trid, path, &log);
        static unsigned seqs[MAXREC];
        int c = user_seqs(log, got, "ct.shut.flushed", seqs, MAXREC), gap = -1;
        for (int i = 0; i < c && gap < 0; i++)
            if (seqs[i] != (unsigned)i)
                gap = i;
        CT_CHECK(c == n && gap < 0, "%s: %ld events recorded, never flushed, then shut"
                 " down: the log holds %d of them%s (%s)", k ? "stream-full-policy"
                 " UNTIL_FULL" : "default attributes", n, c, gap >= 0 ? ", not in order" : "",
                 seq_list(seqs, c));
        if (close(fd) != 0)
            ct_note("close() of the log's descriptor after shutdown failed: %s (the"
                    " implementation closed it)", ct_errname(errno));
    }
#else
    NO_TRL();
#endif
}

CT_TEST(waits_flush, "shutdown.waits-flush", "TRC,TRL",
        "posix_trace_shutdown,posix_trace_flush,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* A flush is started and not waited for, more events are recorded, and
     * shutdown is called at once: the log opened right after holds all. */
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t e1 = open_id("ct.shut.first"), e2 = open_id("ct.shut.second");
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    trace_id_t trid = log_stream(&a, path, NULL), log;
    CT_SETUP_OK(posix_trace_start(trid));
    long fit = lossless(trid), n1 = fit / 2 ? fit / 2 : 1, n2 = fit / 4 ? fit / 4 : 1;
    for (long i = 0; i < n1; i++)
        record(e1, (unsigned)i);
    CT_SETUP_OK(posix_trace_flush(trid));
    for (long i = 0; i < n2; i++)
        record(e2, (unsigned)i);
    CT_CHECK_OK(posix_trace_shutdown(trid));
    log = open_log(path);
    int n = read_all(log);
    static unsigned seqs[MAXREC];
    int c1 = user_seqs(log, n, "ct.shut.first", seqs, MAXREC);
    int c2 = user_seqs(log, n, "ct.shut.second", seqs, MAXREC);
    CT_CHECK(c1 == n1 && c2 == n2, "shutdown was called while a flush ran: the log opened as"
             " soon as it returned holds %d of the %ld events being flushed and %d of the %ld"
             " recorded after the flush began", c1, n1, c2, n2);
#else
    NO_TRL();
#endif
}

/* ---- what the closed log holds -------------------------------------------------------- */

CT_TEST(log_has_longest_name, "shutdown.log-has-attributes", "TRC,TRL",
        "posix_trace_attr_setname,posix_trace_shutdown,posix_trace_open,posix_trace_get_attr")
{
#if CT_HAVE_TRL
    require_trl();
    /* The longest trace-name a stream can have ({TRACE_NAME_MAX} - 1
     * characters, as the stream itself reports it) comes back whole from
     * its log. */
    long max = ct_limit_trace_name_max();
    if (max < 2 || max > CT_NAME_BUF)
        CT_UNTESTED("{TRACE_NAME_MAX} is %ld: no longest name to try", max);
    char *longest = ct_long_name((size_t)max - 1, 'L');
    char path[PATH_BUF], sname[CT_NAME_BUF], lname[CT_NAME_BUF];
    trace_attr_t a, sa, la;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_UNTIL_FULL);
    CT_SETUP_OK(posix_trace_attr_setname(&a, longest));
    trace_id_t trid = log_stream(&a, path, NULL);
    attrs_of(trid, &sa);
    CT_SETUP_OK(posix_trace_attr_getname(&sa, sname));
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    CT_SETUP_OK(posix_trace_attr_init(&la));
    CT_CHECK_OK(posix_trace_get_attr(log, &la));
    CT_CHECK_OK(posix_trace_attr_getname(&la, lname));
    CT_CHECK(strcmp(sname, lname) == 0, "the stream's trace-name has %zu characters (a name of"
             " {TRACE_NAME_MAX} - 1 = %ld was set); the opened log's has %zu", strlen(sname),
             max - 1, strlen(lname));
    CT_CHECK_OK(posix_trace_close(log));
    free(longest);
#else
    NO_TRL();
#endif
}

CT_TEST(log_has_attributes, "shutdown.log-has-attributes", "TRC,TRL",
        "posix_trace_shutdown,posix_trace_open,posix_trace_get_attr")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_attr_t a, sa, la;
    size_t want_log = 0, want_stream = 0, want_data = 48;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_UNTIL_FULL);
    CT_SETUP_OK(posix_trace_attr_setname(&a, "ct-log-attrs"));
    small_log(&a);
    stream_events(&a, 64);
    if (posix_trace_attr_setmaxdatasize(&a, want_data) != 0)
        CT_SETUP_OK(posix_trace_attr_getmaxdatasize(&a, &want_data));
    CT_SETUP_OK(posix_trace_attr_getlogsize(&a, &want_log));
    CT_SETUP_OK(posix_trace_attr_getstreamsize(&a, &want_stream));
#if CT_HAVE_TRI
    if (ct_option("TRI"))
        CT_SETUP_OK(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED));
#endif
    trace_id_t trid = log_stream(&a, path, NULL);
    attrs_of(trid, &sa);
    CT_SETUP_OK(posix_trace_start(trid));
    record(open_id("ct.shut.attrs"), 1);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    CT_SETUP_OK(posix_trace_attr_init(&la));
    CT_CHECK_OK(posix_trace_get_attr(log, &la));

    char name[CT_NAME_BUF], sver[CT_NAME_BUF], lver[CT_NAME_BUF];
    CT_CHECK_OK(posix_trace_attr_getname(&la, name));
    CT_CHECK(strcmp(name, "ct-log-attrs") == 0, "the opened log's trace-name is \"%.60s\","
             " expected \"ct-log-attrs\"", name);
    CT_SETUP_OK(posix_trace_attr_getgenversion(&sa, sver));
    CT_CHECK_OK(posix_trace_attr_getgenversion(&la, lver));
    CT_CHECK(strcmp(sver, lver) == 0, "the opened log's generation-version is \"%.60s\", the"
             " stream's was \"%.60s\"", lver, sver);
    int sp = -1, lp = -1;
    CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&la, &sp));
    CT_CHECK_OK(posix_trace_attr_getlogfullpolicy(&la, &lp));
    CT_CHECK(sp == POSIX_TRACE_UNTIL_FULL && lp == POSIX_TRACE_UNTIL_FULL, "the opened log's"
             " stream-full-policy is %d (%s) and log-full-policy %d (%s): both were set to"
             " UNTIL_FULL (%d)", sp, policy_name(sp), lp, policy_name(lp),
             POSIX_TRACE_UNTIL_FULL);
    size_t ls = 0, ss = 0, md = 0;
    CT_CHECK_OK(posix_trace_attr_getlogsize(&la, &ls));
    CT_CHECK_OK(posix_trace_attr_getstreamsize(&la, &ss));
    CT_CHECK_OK(posix_trace_attr_getmaxdatasize(&la, &md));
    CT_CHECK(ls >= want_log && ss >= want_stream && md >= want_data, "the opened log's sizes"
             " are log-max-size %zu, stream-min-size %zu, max-data-size %zu; set were %zu,"
             " %zu, %zu (ruling 22: at least those)", ls, ss, md, want_log, want_stream,
             want_data);
    struct timespec sc, lc, sr, lr;
    CT_SETUP_OK(posix_trace_attr_getcreatetime(&sa, &sc));
    CT_CHECK_OK(posix_trace_attr_getcreatetime(&la, &lc));
    CT_CHECK(sc.tv_sec == lc.tv_sec && sc.tv_nsec == lc.tv_nsec, "the opened log's"
             " creation-time is %lld.%09ld, the stream's was %lld.%09ld",
             (long long)lc.tv_sec, lc.tv_nsec, (long long)sc.tv_sec, sc.tv_nsec);
    CT_SETUP_OK(posix_trace_attr_getclockres(&sa, &sr));
    CT_CHECK_OK(posix_trace_attr_getclockres(&la, &lr));
    CT_CHECK(sr.tv_sec == lr.tv_sec && sr.tv_nsec == lr.tv_nsec, "the opened log's"
             " clock-resolution is %lld.%09ld, the stream's was %lld.%09ld",
             (long long)lr.tv_sec, lr.tv_nsec, (long long)sr.tv_sec, sr.tv_nsec);
#if CT_HAVE_TRI
    if (ct_option("TRI")) {
        int inh = -1;
        CT_CHECK_OK(posix_trace_attr_getinherited(&la, &inh));
        CT_CHECK(inh == POSIX_TRACE_INHERITED, "the opened log's inheritance is %d, set was"
                 " POSIX_TRACE_INHERITED (%d)", inh, POSIX_TRACE_INHERITED);
    }
#endif
#else
    NO_TRL();
#endif
}

CT_TEST(log_has_mapping, "shutdown.log-has-mapping", "TRC,TRL",
        "posix_trace_shutdown,posix_trace_open,posix_trace_eventtypelist_getnext_id,"
        "posix_trace_eventid_get_name")
{
#if CT_HAVE_TRL
    require_trl();
    /* Names opened before the stream exists, after, one never recorded;
     * each recorded event carries its own name as data. */
    static const char *const names[4] = { "ct.map.before-create", "ct.map.alpha",
                                          "ct.map.beta", "ct.map.never-recorded" };
    char path[PATH_BUF], got[CT_EVENT_NAME_BUF];
    trace_event_id_t ids[4];
    ids[0] = open_id(names[0]);
    /* Room for the longest name as data: the default max-data-size is
     * implementation-defined (XSH posix_trace_attr_getmaxdatasize, S0052). */
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setmaxdatasize(&a, strlen(names[0])));
    trace_id_t trid = log_stream(&a, path, NULL), log;
    posix_trace_attr_destroy(&a);
    for (int i = 1; i < 4; i++)
        ids[i] = open_id(names[i]);
    CT_SETUP_OK(posix_trace_start(trid));
    for (int r = 0; r < 2; r++)
        for (int i = 2; i >= 0; i--)
            posix_trace_event(ids[i], names[i], strlen(names[i]));
    int n = shutdown_read(trid, path, &log);
    /* The event type list holds the four names. */
    int listed[4] = { 0, 0, 0, 0 }, total = 0, unavailable = 0;
    for (;;) {
        trace_event_id_t id;
        CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(log, &id, &unavailable));
        if (unavailable)
            break;
        if (++total > 100000)
            CT_FAIL("the opened log's event type list never ends");
        if (posix_trace_eventid_get_name(log, id, got) != 0)
            continue;
        for (int i = 0; i < 4; i++)
            listed[i] += strcmp(got, names[i]) == 0;
    }
    for (int i = 0; i < 4; i++)
        CT_CHECK(listed[i] == 1, "the opened log's event type list (%d types) holds \"%s\" %d"
                 " times, expected once: the log keeps the stream's mapping", total,
                 names[i], listed[i]);
    /* Each user event's identifier has its own name in the log. */
    int users = 0;
    for (int i = 0; i < n; i++) {
        const struct rec *r = &recs[i];
        if (r->len < 6 || memcmp(r->data, "ct.map", 6) != 0)
            continue;
        users++;
        CT_CHECK_OK(posix_trace_eventid_get_name(log, r->info.posix_event_id, got));
        CT_CHECK(strlen(got) == r->len && memcmp(got, r->data, r->len) == 0, "event %d of"
                 " the log carries the data \"%.*s\" (recorded with the identifier of that"
                 " name), but its identifier's name in the log is \"%.60s\"", i + 1,
                 (int)r->len, (const char *)r->data, got);
    }
    CT_CHECK(users == 6, "the log holds %d of the 6 user events recorded", users);
#else
    NO_TRL();
#endif
}

CT_TEST(log_has_status, "shutdown.log-has-status", "TRC,TRL",
        "posix_trace_shutdown,posix_trace_open,posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    /* An UNTIL_FULL stream (never flushed) fills and stops; events generated
     * then are lost (overrun).  No get_status after the loss: the status the
     * stream had at shutdown still says OVERRUN, and so must the log's. */
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.shut.overrun");
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
        record(id, (unsigned)(i + 1 + k));          /* lost: the stream is full */
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    struct posix_trace_status_info st;
    CT_CHECK_OK(posix_trace_get_status(log, &st));
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN, "events were lost by the"
             " full stream before shutdown (no status read since), yet the opened log's"
             " posix_stream_overrun_status is %d, expected OVERRUN (%d): the log keeps the"
             " stream's final status", st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
#else
    NO_TRL();
#endif
}

CT_TEST(log_recognisable, "shutdown.log-recognisable", "TRC,TRL",
        "posix_trace_shutdown,posix_trace_open,posix_trace_close")
{
#if CT_HAVE_TRL
    require_trl();
    const int pol[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    trace_event_id_t id = open_id("ct.shut.recognised");
    for (int p = 0; p < 3; p++)
        for (int with_events = 0; with_events < 2; with_events++) {
            char path[PATH_BUF];
            trace_attr_t a;
            trace_id_t log;
            log_attr(&a, POSIX_TRACE_UNTIL_FULL, pol[p]);
            trace_id_t trid = log_stream(&a, path, NULL);
            if (with_events) {
                CT_SETUP_OK(posix_trace_start(trid));
                for (unsigned i = 0; i < 3; i++)
                    record(id, i);
            }
            CT_SETUP_OK(posix_trace_shutdown(trid));
            int fd = open_or_unresolved(path, O_RDONLY);
            int rc = posix_trace_open(fd, &log);
            CT_CHECK(rc == 0, "posix_trace_open of a log written by shutdown (log-full-policy"
                     " %s, %s) returned %d (%s), expected 0", policy_name(pol[p]),
                     with_events ? "3 events recorded" : "never started", rc, ct_errname(rc));
            CT_CHECK_OK(posix_trace_close(log));
            close(fd);
        }
    /* And a file that is no log is not taken for one. */
    char empty[PATH_BUF];
    trace_id_t log;
    tmp_file(empty);
    int fd = open_or_unresolved(empty, O_RDONLY);
    CT_CHECK_ERR(posix_trace_open(fd, &log), EINVAL);
#else
    NO_TRL();
#endif
}

/* ---- errors ---------------------------------------------------------------------------- */

CT_TEST(efbig, "shutdown.EFBIG", "TRC,TRL", "posix_trace_shutdown")
{
#if CT_HAVE_TRL
    require_trl();
    struct fault_out o;
    fault_run(FAULT_EFBIG, MODE_SHUTDOWN, &o);
    judge_shutdown(&o, EFBIG, "RLIMIT_FSIZE 1 (SIGXFSZ ignored)");
#else
    NO_TRL();
#endif
}

CT_TEST(enospc, "shutdown.ENOSPC", "TRC,TRL", "posix_trace_shutdown")
{
#if CT_HAVE_TRL
    require_trl();
    struct fault_out o;
    fault_run(FAULT_ENOSPC, MODE_SHUTDOWN, &o);
    judge_shutdown(&o, ENOSPC, "a full device");
#else
    NO_TRL();
#endif
}
