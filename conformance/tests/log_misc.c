/* SPDX-License-Identifier: MIT */
/*
 * log_misc.c -- the rest of the Trace Log option: its <trace.h> members,
 * constants and prototypes (XBD <trace.h>), its option macro and sysconf()
 * name (XBD <unistd.h>), its two system events (XSH 2.11.2), the file
 * timestamps of a log (XSH 2.11), and posix_trace_clear() of a stream with
 * log (XSH posix_trace_clear).
 *
 * The header checks are made by the compile probe conformance/probes/
 * log_misc.c, one part per rule (ct_probe.h): a TRL member, constant or
 * function that <trace.h> lacks, or declares with another type, fails its
 * own rule, with the compiler's first error line (with TRL, CT_HAVE_TRL).
 *
 * Portable: _POSIX_TRACE_LOG is read after <unistd.h> alone and again after
 * <trace.h>; its two rules are checked whatever the option's support (they
 * need TRC only).  File timestamps are compared after sleeping past the file
 * system's timestamp granularity, measured first on a file of the same
 * directory; a file system that does not update access times (noatime, or
 * relatime once the file was read) makes the access-time test UNSUPPORTED.
 * clear of an APPEND log is unspecified and not checked.
 *
 * Not tested here, and why:
 *   the TRC header rules: header_trace_h.c, unistd_limits.c.
 */
#include <unistd.h>

/* _POSIX_TRACE_LOG after <unistd.h> alone. */
#ifdef _POSIX_TRACE_LOG
static const int u_trl_defined = 1;
static const long u_trl_value = (long)(_POSIX_TRACE_LOG);
#else
static const int u_trl_defined = 0;
static const long u_trl_value = 0;
#endif

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <trace.h>
#include "ct.h"
#include "ct_log.h"
#include "ct_stream.h"
#include "ct_probe.h"
#include "ct_trace_h.h"


/* ---- <trace.h>: members, constants and prototypes, decided by the probe ------------- */

#if CT_HAVE_TRL && CT_PROBE_PROTOTYPES_TRL
CT_PROTOTYPES_TRL(CT_PROTO_POINTER)
#endif
#if CT_PROBE_CONSTANTS_TRL
int ct_probe_log_misc_CONSTANTS_TRL(void);
#endif

static const struct ct_member trl_status_members[4] = {
#if CT_PROBE_STATUS_STREAM_FLUSH_STATUS
    { "STATUS_STREAM_FLUSH_STATUS", "posix_stream_flush_status", "int",
      CT_MEMBER_PRESENT(posix_trace_status_info, posix_stream_flush_status) },
#else
    { "STATUS_STREAM_FLUSH_STATUS", "posix_stream_flush_status", "int", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_STATUS_STREAM_FLUSH_ERROR
    { "STATUS_STREAM_FLUSH_ERROR", "posix_stream_flush_error", "int",
      CT_MEMBER_PRESENT(posix_trace_status_info, posix_stream_flush_error) },
#else
    { "STATUS_STREAM_FLUSH_ERROR", "posix_stream_flush_error", "int", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_STATUS_LOG_OVERRUN_STATUS
    { "STATUS_LOG_OVERRUN_STATUS", "posix_log_overrun_status", "int",
      CT_MEMBER_PRESENT(posix_trace_status_info, posix_log_overrun_status) },
#else
    { "STATUS_LOG_OVERRUN_STATUS", "posix_log_overrun_status", "int", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_STATUS_LOG_FULL_STATUS
    { "STATUS_LOG_FULL_STATUS", "posix_log_full_status", "int",
      CT_MEMBER_PRESENT(posix_trace_status_info, posix_log_full_status) },
#else
    { "STATUS_LOG_FULL_STATUS", "posix_log_full_status", "int", CT_MEMBER_ABSENT },
#endif
};

/* A rule of the TRL members of struct posix_trace_status_info: the member
 * (its probe part) and its place, apart from the other TRL members.  (Not
 * from the TRC members: they are header_trace_h.c's rules, and naming them
 * here would make this file depend on them.) */
static void trl_status_member(int i)
{
#if CT_HAVE_TRL
    ct_check_member("posix_trace_status_info", sizeof(struct posix_trace_status_info),
                    trl_status_members, 4, i);
#else
    (void)i;
    NO_TRL();
#endif
}

CT_TEST(status_posix_stream_flush_status, "trace_h.status.posix_stream_flush_status",
        "TRC,TRL", "")
{
    trl_status_member(0);
}

CT_TEST(status_posix_stream_flush_error, "trace_h.status.posix_stream_flush_error",
        "TRC,TRL", "")
{
    trl_status_member(1);
}

CT_TEST(status_posix_log_overrun_status, "trace_h.status.posix_log_overrun_status",
        "TRC,TRL", "")
{
    trl_status_member(2);
}

CT_TEST(status_posix_log_full_status, "trace_h.status.posix_log_full_status", "TRC,TRL", "")
{
    trl_status_member(3);
}

CT_TEST(constants_trl, "trace_h.constants-trl", "TRC,TRL", "posix_trace_eventid_equal")
{
#if CT_HAVE_TRL && !CT_PROBE_CONSTANTS_TRL
    ct_probe_missing("CONSTANTS_TRL", "a TRL constant of the <trace.h> list is missing or not"
                     " of its type");
#elif CT_HAVE_TRL
    /* Compiled: the constants exist; the policy and status values initialise
     * ints, the two events trace_event_id_t objects.  (APPEND and FLUSH are
     * of different kinds, a log- and a stream-full policy: they may be
     * equal.) */
    CT_CHECK(ct_probe_log_misc_CONSTANTS_TRL() == 1, "the probe part returned 0");
    int v[4] = { POSIX_TRACE_APPEND, POSIX_TRACE_FLUSH, POSIX_TRACE_FLUSHING,
                 POSIX_TRACE_NOT_FLUSHING };
    trace_event_id_t e[2] = { POSIX_TRACE_FLUSH_START, POSIX_TRACE_FLUSH_STOP };
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK(v[2] != v[3], "POSIX_TRACE_FLUSHING and POSIX_TRACE_NOT_FLUSHING are both %d",
             v[2]);
    CT_CHECK(!posix_trace_eventid_equal(trid, e[0], e[1]), "POSIX_TRACE_FLUSH_START and"
             " POSIX_TRACE_FLUSH_STOP are the same event (%s)", CT_HEX(e[0]));
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

/* ---- <unistd.h> and sysconf ----------------------------------------------------------- */

#ifdef _POSIX_TRACE_LOG
static const int t_trl_defined = 1;
static const long t_trl_value = (long)(_POSIX_TRACE_LOG);
#else
static const int t_trl_defined = 0;
static const long t_trl_value = 0;
#endif

CT_TEST(posix_trace_log_macro, "unistd.POSIX_TRACE_LOG", "TRC", "")
{
    /* Checked whatever the option's support: hence option TRC only. */
    CT_CHECK(!u_trl_defined || u_trl_value == -1 || u_trl_value == 0 ||
             u_trl_value == 200809L, "after <unistd.h>, _POSIX_TRACE_LOG is %ld: if defined"
             " it must be -1, 0 or 200809L", u_trl_value);
    CT_CHECK(!t_trl_defined || t_trl_value == -1 || t_trl_value == 0 ||
             t_trl_value == 200809L, "after <unistd.h> and <trace.h>, _POSIX_TRACE_LOG is"
             " %ld: if defined it must be -1, 0 or 200809L", t_trl_value);
    ct_note("_POSIX_TRACE_LOG: after <unistd.h> %s%ld, after <trace.h> %s%ld",
            u_trl_defined ? "" : "undefined ", u_trl_value, t_trl_defined ? "" : "undefined ",
            t_trl_value);
}

CT_TEST(sc_trace_log, "sysconf.SC_TRACE_LOG", "TRC", "sysconf")
{
#ifdef _SC_TRACE_LOG
    /* Checked whatever the option's support: hence option TRC only. */
    errno = 0;
    long v = ct_sysconf(_SC_TRACE_LOG);
    int e = errno;
    CT_CHECK(v == -1 || v == 200809L, "sysconf(_SC_TRACE_LOG) = %ld: expected -1 or 200809L",
             v);
    CT_CHECK(v != -1 || e == 0, "sysconf(_SC_TRACE_LOG) = -1 with errno %s: an option name"
             " must not fail", ct_errname(e));
    ct_note("sysconf(_SC_TRACE_LOG) = %ld", v);
#else
    CT_UNRESOLVED("<unistd.h> does not define _SC_TRACE_LOG (unistd.sc-names)");
#endif
}

/* ---- prototypes: each TRL function called through its pointer ----------------------- */

CT_TEST(prototypes_trl, "trace_h.prototypes-trl", "TRC,TRL",
        "posix_trace_attr_setlogfullpolicy,posix_trace_attr_getlogfullpolicy,"
        "posix_trace_attr_setlogsize,posix_trace_attr_getlogsize,posix_trace_create_withlog,"
        "posix_trace_flush,posix_trace_open,posix_trace_rewind,posix_trace_close")
{
#if CT_HAVE_TRL && !CT_PROBE_PROTOTYPES_TRL
    ct_probe_missing("PROTOTYPES_TRL", "a TRL function is missing from <trace.h> or declared"
                     " with another type");
#elif CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_attr_t a;
    trace_id_t trid, log;
    size_t z = 0;
    int v = -1;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(p_posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND));
    CT_CHECK_OK(p_posix_trace_attr_getlogfullpolicy(&a, &v));
    CT_CHECK(v == POSIX_TRACE_APPEND, "getlogfullpolicy through its pointer gave %d", v);
    CT_CHECK_OK(p_posix_trace_attr_getlogsize(&a, &z));
    CT_CHECK_OK(p_posix_trace_attr_setlogsize(&a, z));
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY);
    CT_CHECK_OK(p_posix_trace_create_withlog(0, &a, fd, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    record(open_id("ct.misc.proto"), 7);
    CT_CHECK_OK(p_posix_trace_flush(trid));
    struct flushwatch w;
    if (!wait_flush(trid, &w))
        CT_UNRESOLVED("the flush did not end within %d ms", FLUSH_WAIT_MS);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    int rfd = open_or_unresolved(path, O_RDONLY);
    CT_CHECK_OK(p_posix_trace_open(rfd, &log));
    int n = read_all(log), k = 0;
    for (int i = 0; i < n; i++)
        k += has_name(log, &recs[i], "ct.misc.proto") && seq_of(&recs[i]) == 7;
    CT_CHECK(k == 1, "the log written and read through the pointers holds %d copies of the"
             " event recorded, expected 1", k);
    CT_CHECK_OK(p_posix_trace_rewind(log));
    CT_CHECK_OK(p_posix_trace_close(log));
#else
    NO_TRL();
#endif
}

/* ---- system events ---------------------------------------------------------------------- */

#if CT_HAVE_TRL
static void check_name(trace_id_t trid, trace_event_id_t id, const char *constant,
                       const char *want, const char *on)
{
    char name[CT_EVENT_NAME_BUF];
    memset(name, 'x', sizeof name);
    int rc = posix_trace_eventid_get_name(trid, id, name);
    CT_CHECK(rc == 0, "eventid_get_name(%s) on %s returned %s, expected 0 and \"%s\"",
             constant, on, ct_errname(rc), want);
    CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, want) == 0,
             "eventid_get_name(%s) on %s gives \"%.60s\", expected \"%s\"", constant, on, name,
             want);
}
#endif

CT_TEST(sysevents_trl, "xsh211.sysevents-trl", "TRC,TRL", "posix_trace_eventid_get_name")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_id_t plain, withlog, log;
    CT_SETUP_OK(posix_trace_create(0, NULL, &plain));
    withlog = log_stream(NULL, path, NULL);
    const trace_id_t on[2] = { plain, withlog };
    const char *what[3] = { "a stream without log", "a stream with log", "an opened log" };
    for (int k = 0; k < 3; k++) {
        if (k == 2) {
            CT_SETUP_OK(posix_trace_shutdown(withlog));
            log = open_log(path);
        }
        trace_id_t t = k < 2 ? on[k] : log;
        check_name(t, POSIX_TRACE_FLUSH_START, "POSIX_TRACE_FLUSH_START",
                   "posix_trace_flush_start", what[k]);
        check_name(t, POSIX_TRACE_FLUSH_STOP, "POSIX_TRACE_FLUSH_STOP",
                   "posix_trace_flush_stop", what[k]);
    }
#else
    NO_TRL();
#endif
}

CT_TEST(sysevents_tef_trl, "xsh211.sysevents-tef-trl", "TRC,TEF,TRL",
        "posix_trace_eventid_get_name")
{
#if CT_HAVE_TRL && CT_HAVE_TEF
    require_trl();
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
    /* POSIX_TRACE_ERROR last: left out where the header lacks it. */
    static const char *const names[8] = {
        "posix_trace_start", "posix_trace_stop", "posix_trace_filter", "posix_trace_overflow",
        "posix_trace_resume", "posix_trace_flush_start", "posix_trace_flush_stop",
        "posix_trace_error"
    };
    static const char *const constants[8] = {
        "POSIX_TRACE_START", "POSIX_TRACE_STOP", "POSIX_TRACE_FILTER", "POSIX_TRACE_OVERFLOW",
        "POSIX_TRACE_RESUME", "POSIX_TRACE_FLUSH_START", "POSIX_TRACE_FLUSH_STOP",
        "POSIX_TRACE_ERROR"
    };
    const trace_event_id_t ids[8] = {
        POSIX_TRACE_START, POSIX_TRACE_STOP, POSIX_TRACE_FILTER, POSIX_TRACE_OVERFLOW,
        POSIX_TRACE_RESUME, POSIX_TRACE_FLUSH_START, POSIX_TRACE_FLUSH_STOP,
#if CT_HAVE_POSIX_TRACE_ERROR
        POSIX_TRACE_ERROR
#endif
    };
    const int n = CT_HAVE_POSIX_TRACE_ERROR ? 8 : 7;
    char path[PATH_BUF];
    trace_id_t trid = log_stream(NULL, path, NULL);
    if (!CT_HAVE_POSIX_TRACE_ERROR)
        ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
    for (int i = 0; i < n; i++) {
        check_name(trid, ids[i], constants[i], names[i], "a stream with log");
        for (int j = i + 1; j < n; j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]), "%s and %s are the"
                     " same event", constants[i], constants[j]);
    }
#elif CT_HAVE_TRL
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#else
    NO_TRL();
#endif
}

/* ---- file timestamps ---------------------------------------------------------------------- */

#if CT_HAVE_TRL
static long long ns_of(const struct timespec *t)
{
    return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static struct stat stat_of(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        CT_UNRESOLVED("stat(%s): %s", path, ct_errname(errno));
    return sb;
}

/* Milliseconds to sleep so that a file's timestamps certainly change: the
 * file system's granularity, measured on a file of the same directory. */
static long granularity_ms(void)
{
    char probe[PATH_BUF];
    tmp_file(probe);
    int fd = open_or_unresolved(probe, O_WRONLY);
    struct timespec t0;
    if (write(fd, "x", 1) != 1)
        CT_UNRESOLVED("write to %s: %s", probe, ct_errname(errno));
    struct stat s0 = stat_of(probe);
    clock_gettime(CLOCK_REALTIME, &t0);
    for (;;) {
        ct_sleep_ms(5);
        if (write(fd, "x", 1) != 1)
            CT_UNRESOLVED("write to %s: %s", probe, ct_errname(errno));
        struct stat s1 = stat_of(probe);
        if (ns_of(&s1.st_mtim) > ns_of(&s0.st_mtim)) {
            close(fd);
            return ms_since(&t0) + 10;
        }
        if (ms_since(&t0) > 2500)
            CT_UNRESOLVED("the modification time of %s did not change in 2.5 s of writes",
                          probe);
    }
}
#endif

CT_TEST(log_mtime_ctime, "xsh211.log-mtime-ctime", "TRC,TRL",
        "posix_trace_flush,posix_trace_shutdown")
{
#if CT_HAVE_TRL
    require_trl();
    long g = granularity_ms();
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t id = open_id("ct.misc.mtime");
    unsigned seq = 0;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    struct stat s0 = stat_of(path);
    ct_sleep_ms(g);
    flush_batch(trid, id, &seq, 10, NULL);
    struct stat s1 = stat_of(path);
    CT_CHECK(ns_of(&s1.st_mtim) > ns_of(&s0.st_mtim) && ns_of(&s1.st_ctim) >
             ns_of(&s0.st_ctim), "a flush wrote 10 events to the log %ld ms later, but its"
             " st_mtime went from %lld to %lld ns and st_ctime from %lld to %lld ns: both"
             " must advance", g, ns_of(&s0.st_mtim), ns_of(&s1.st_mtim), ns_of(&s0.st_ctim),
             ns_of(&s1.st_ctim));
    ct_sleep_ms(g);
    for (int i = 0; i < 10; i++)
        record(id, seq++);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    struct stat s2 = stat_of(path);
    CT_CHECK(ns_of(&s2.st_mtim) > ns_of(&s1.st_mtim) && ns_of(&s2.st_ctim) >
             ns_of(&s1.st_ctim), "shutdown flushed 10 events to the log %ld ms after the"
             " last flush, but its st_mtime went from %lld to %lld ns and st_ctime from %lld"
             " to %lld ns: both must advance", g, ns_of(&s1.st_mtim), ns_of(&s2.st_mtim),
             ns_of(&s1.st_ctim), ns_of(&s2.st_ctim));
#else
    NO_TRL();
#endif
}

CT_TEST(log_atime, "xsh211.log-atime", "TRC,TRL", "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    long g = granularity_ms();
    /* Does this file system update access times, and more than once after
     * a change (not relatime)? */
    char probe[PATH_BUF], buf[8];
    tmp_file(probe);
    int pfd = open_or_unresolved(probe, O_RDWR);
    if (write(pfd, "probe", 5) != 5)
        CT_UNRESOLVED("write to %s: %s", probe, ct_errname(errno));
    struct stat p0 = stat_of(probe);
    ct_sleep_ms(g);
    if (pread(pfd, buf, 5, 0) != 5)
        CT_UNRESOLVED("read of %s: %s", probe, ct_errname(errno));
    struct stat p1 = stat_of(probe);
    if (ns_of(&p1.st_atim) <= ns_of(&p0.st_atim))
        CT_UNSUPPORTED("the file system of $TMPDIR does not update access times (noatime):"
                       " the log's cannot be checked");
    ct_sleep_ms(g);
    if (pread(pfd, buf, 5, 0) != 5)
        CT_UNRESOLVED("read of %s: %s", probe, ct_errname(errno));
    struct stat p2 = stat_of(probe);
    int relatime = ns_of(&p2.st_atim) <= ns_of(&p1.st_atim);
    close(pfd);

    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.misc.atime");
    trace_id_t trid = log_stream(NULL, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    for (unsigned i = 0; i < 10; i++)
        record(id, i);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    struct stat s0 = stat_of(path);
    if (relatime && ns_of(&s0.st_atim) > ns_of(&s0.st_mtim))
        CT_UNSUPPORTED("the file system updates access times once after each change"
                       " (relatime), and the implementation already read its log after"
                       " writing it: a later read cannot be seen");
    ct_sleep_ms(g);
    trace_id_t log = open_log(path);
    int n = read_all(log);
    struct stat s1 = stat_of(path);
    CT_CHECK(ns_of(&s1.st_atim) > ns_of(&s0.st_atim), "open and getnext_event read the log"
             " (%d events) %ld ms after it was written, but its st_atime did not advance"
             " (%lld then %lld ns)", n, g, ns_of(&s0.st_atim), ns_of(&s1.st_atim));
#else
    NO_TRL();
#endif
}

/* ---- clear of a stream with log --------------------------------------------------------- */

#if CT_HAVE_TRL
/* Events A are flushed, the stream is cleared (stopped first if stop_first,
 * then started again), events B are recorded, and the log is read into
 * recs[] after shutdown. */
static int clear_scenario(int lp, int stop_first, trace_id_t *log)
{
    char path[PATH_BUF];
    trace_attr_t a;
    trace_event_id_t ea = open_id("ct.clear.before"), eb = open_id("ct.clear.after");
    unsigned sa = 0, sb = 0;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, lp);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    flush_batch(trid, ea, &sa, 10, NULL);
    for (int i = 0; i < 3; i++)
        record(ea, sa++);                       /* not flushed: in the stream */
    if (stop_first)
        CT_SETUP_OK(posix_trace_stop(trid));
    CT_SETUP_OK(posix_trace_clear(trid));
    if (stop_first)
        CT_SETUP_OK(posix_trace_start(trid));
    for (int i = 0; i < 5; i++)
        record(eb, sb++);
    return shutdown_read(trid, path, log);
}
#endif

CT_TEST(clear_log_reinit, "clear.log-reinit", "TRC,TRL",
        "posix_trace_clear,posix_trace_create_withlog,posix_trace_flush,posix_trace_shutdown,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    const int pol[2] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL };
    for (int p = 0; p < 2; p++) {
        trace_id_t log;
        int n = clear_scenario(pol[p], 0, &log), before = 0, after = 0;
        for (int i = 0; i < n; i++) {
            before += has_name(log, &recs[i], "ct.clear.before");
            after += has_name(log, &recs[i], "ct.clear.after");
        }
        CT_CHECK(before == 0, "%s log: 13 events were recorded (10 of them flushed) before"
                 " posix_trace_clear, and the log holds %d of them: clear reinitialises the"
                 " log", policy_name(pol[p]), before);
        CT_CHECK(after == 5, "%s log: the log holds %d of the 5 events recorded after clear",
                 policy_name(pol[p]), after);
    }
#else
    NO_TRL();
#endif
}

CT_TEST(clear_log_first_event, "clear.log-first-event", "TRC,TRL",
        "posix_trace_clear,posix_trace_create_withlog,posix_trace_shutdown,posix_trace_open,"
        "posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* Running through clear: the first event recorded after it is the first
     * user event B0.  Stopped, cleared, started: it is START.  Before it the
     * log may hold only events of the implementation's own (no event of the
     * standard that happened before the clear). */
    const int pol[2] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL };
    const trace_event_id_t std[4] = { POSIX_TRACE_START, POSIX_TRACE_STOP,
                                      POSIX_TRACE_FLUSH_START, POSIX_TRACE_FLUSH_STOP };
    for (int p = 0; p < 2; p++)
        for (int stop_first = 0; stop_first < 2; stop_first++) {
            trace_id_t log;
            char name[CT_EVENT_NAME_BUF];
            int n = clear_scenario(pol[p], stop_first, &log), first = -1;
            for (int i = 0; i < n && first < 0; i++) {
                const struct rec *r = &recs[i];
                if (stop_first ? is_ev(log, r, POSIX_TRACE_START)
                               : has_name(log, r, "ct.clear.after")) {
                    first = i;
                    break;
                }
                int standard = has_name(log, r, "ct.clear.before");
                for (int s = 0; s < 4; s++)
                    standard |= is_ev(log, r, std[s]);
                strcpy(name, "?");
                posix_trace_eventid_get_name(log, r->info.posix_event_id, name);
                CT_CHECK(!standard, "%s log, stream %s through clear: the log's event %d is"
                         " \"%.60s\", recorded before the first event after the clear (%s)",
                         policy_name(pol[p]), stop_first ? "stopped" : "running", i + 1, name,
                         stop_first ? "START" : "the first user event");
            }
            CT_CHECK(first >= 0, "%s log, stream %s through clear: the first event recorded"
                     " after the clear (%s) is not in the log (%d events read)",
                     policy_name(pol[p]), stop_first ? "stopped" : "running",
                     stop_first ? "START" : "user event 0", n);
            if (!stop_first)
                CT_CHECK(seq_of(&recs[first]) == 0, "%s log: the first user event after"
                         " clear in the log is number %u, expected 0", policy_name(pol[p]),
                         seq_of(&recs[first]));
        }
#else
    NO_TRL();
#endif
}

CT_TEST(clear_log_not_full, "clear.log-not-full", "TRC,TRL",
        "posix_trace_clear,posix_trace_get_status")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_event_id_t id = open_id("ct.clear.fill");
    unsigned seq = 0;
    long filled;
    trace_id_t trid = full_until_full_log(path, id, &seq, &filled, 0);
    struct posix_trace_status_info st = status(trid);
    if (st.posix_log_full_status != POSIX_TRACE_FULL)
        CT_UNRESOLVED("the filled UNTIL_FULL log does not report FULL");
    int running = st.posix_stream_status;
    CT_CHECK_OK(posix_trace_clear(trid));
    st = status(trid);
    CT_CHECK(st.posix_log_full_status == POSIX_TRACE_NOT_FULL, "posix_trace_clear of a stream"
             " whose log was FULL (after %ld events): posix_log_full_status is %d, expected"
             " NOT_FULL (%d)", filled, st.posix_log_full_status, POSIX_TRACE_NOT_FULL);
    CT_CHECK(st.posix_stream_status == running, "posix_trace_clear changed the stream's"
             " status from %d to %d", running, st.posix_stream_status);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

/* ---- an event cut at recording, read back from the log ----------------------------- */

CT_TEST(truncated_record_in_log, "log.truncated-record", "TRC,TRL",
        "posix_trace_attr_setmaxdatasize,posix_trace_event,posix_trace_shutdown,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* A stream with log whose max-data-size is small; between two short
     * events, one with more data than that.  Read back from the log: all
     * three, in order, the long one either cut to exactly max-data-size and
     * marked TRUNCATED_RECORD or whole and NOT_TRUNCATED (ruling 16), the
     * short ones whole. */
    char path[PATH_BUF];
    trace_attr_t a;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    (void)posix_trace_attr_setmaxdatasize(&a, 16);
    trace_id_t trid = log_stream(&a, path, NULL);
    trace_attr_t in_force;
    size_t md = 0;
    attrs_of(trid, &in_force);
    CT_SETUP_OK(posix_trace_attr_getmaxdatasize(&in_force, &md));
    if (md + 8 > 60)
        CT_UNRESOLVED("max-data-size in force is %zu: too large for this test's buffers", md);
    trace_event_id_t id = open_id("ct.log.cut");
    unsigned char longer[64];
    for (size_t i = 0; i < sizeof longer; i++)
        longer[i] = (unsigned char)(0x40 + i);
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "first", 5);
    posix_trace_event(id, longer, md + 8);
    posix_trace_event(id, "last", 4);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    struct rec r;
    int seen = 0;
    while (next_rec(log, &r)) {
        if (!posix_trace_eventid_equal(log, r.info.posix_event_id, id))
            continue;
        if (seen == 1) {
            int cut = r.info.posix_truncation_status == POSIX_TRACE_TRUNCATED_RECORD;
            int whole = r.info.posix_truncation_status == POSIX_TRACE_NOT_TRUNCATED;
            CT_CHECK((cut && r.len == md && memcmp(r.data, longer, md) == 0) ||
                     (whole && r.len == md + 8 && memcmp(r.data, longer, md + 8) == 0),
                     "an event of %zu bytes recorded with max-data-size %zu is read back from"
                     " the log with %zu bytes and posix_truncation_status %d: expected %zu bytes"
                     " and TRUNCATED_RECORD, or all %zu and NOT_TRUNCATED (ruling 16)", md + 8,
                     md, r.len, r.info.posix_truncation_status, md, md + 8);
        } else {
            const char *want = seen == 0 ? "first" : "last";
            CT_CHECK(seen < 3 && r.len == strlen(want) && memcmp(r.data, want, r.len) == 0 &&
                     r.info.posix_truncation_status == POSIX_TRACE_NOT_TRUNCATED,
                     "event %d of 3 read back from the log is not the short event \"%s\" whole"
                     " (%zu bytes, status %d)", seen + 1, seen < 3 ? want : "-", r.len,
                     r.info.posix_truncation_status);
        }
        seen++;
    }
    CT_CHECK(seen == 3, "the log gives back %d of the 3 events recorded (the one longer than"
             " max-data-size between two short ones)", seen);
    CT_CHECK_OK(posix_trace_close(log));
#else
    NO_TRL();
#endif
}

/* ---- timestamps read back from a log, far apart ------------------------------------- */

CT_TEST(timestamps_far_apart, "log.timestamps-spacing", "TRC,TRL",
        "posix_trace_event,posix_trace_shutdown,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    /* posix_timestamp is the time the event was generated (S0265): two
     * events generated 4.6 s apart -- more than 2^32 nanoseconds, so that a
     * log that kept only part of each time could not hide it -- come back
     * from the log about 4.6 s apart (at least 4.4 s, at most 60 s: the
     * trace clock is the implementation's, its rate is time's). */
    char path[PATH_BUF];
    trace_attr_t a;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
    trace_id_t trid = log_stream(&a, path, NULL);
    trace_event_id_t id = open_id("ct.log.spacing");
    CT_SETUP_OK(posix_trace_start(trid));
    double t0 = ct_mono_now();
    record(id, 0);
    ct_sleep_ms(4600);
    record(id, 1);
    double real = ct_mono_now() - t0;
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    struct rec r;
    struct timespec ts[2];
    int n = 0;
    while (next_rec(log, &r))
        if (posix_trace_eventid_equal(log, r.info.posix_event_id, id) && n < 2)
            ts[n++] = r.info.posix_timestamp;
    if (n != 2)
        CT_UNRESOLVED("the log gives back %d of the 2 events recorded", n);
    double apart = (double)(ts[1].tv_sec - ts[0].tv_sec) + (ts[1].tv_nsec - ts[0].tv_nsec) / 1e9;
    CT_CHECK(apart >= 4.4 && apart <= 60.0 + real, "two events generated %.3f s apart come"
             " back from the log with timestamps %.3f s apart (%lld.%09ld and %lld.%09ld)",
             real, apart, (long long)ts[0].tv_sec, ts[0].tv_nsec, (long long)ts[1].tv_sec,
             ts[1].tv_nsec);
    CT_CHECK_OK(posix_trace_close(log));
#else
    NO_TRL();
#endif
}
