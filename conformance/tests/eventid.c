/* SPDX-License-Identifier: MIT */
/*
 * eventid.c -- trace event type identifiers: posix_trace_eventid_open(),
 * posix_trace_eventid_equal(), posix_trace_eventid_get_name()
 * (XSH posix_trace_event, XSH posix_trace_eventid_equal; XSH 2.11 on the
 * process's mapping of names to identifiers).
 *
 * Portable: identifiers are opaque (compared with eventid_equal, printed in
 * hex); {TRACE_EVENT_NAME_MAX} and {TRACE_USER_EVENT_MAX} are asked of the
 * implementation (ct_limit_*); the tests that need a limit end UNTESTED when
 * it is indeterminate (rulings 21 and 24).  Each test runs in a process of
 * its own, so the names a test opens are the only ones of its process.
 *
 * Not tested here, and why:
 *   eventid_open.unique-per-stream-tri, eventid_open.same-name-same-id-tri
 *                      TRI: inherit.c, with the fork tests.
 *   eventid_open.ENOMEM and the like: no such error is listed.
 *   trid_eventid_open.*  TEF: trid_eventid.c; only the return
 *                      convention (eventid_equal.return-convention) is here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "ct.h"
#include "ct_stream.h"

CT_TEST(open_maps, "eventid_open.maps", "TRC",
        "posix_trace_eventid_open,posix_trace_eventid_get_name")
{
    char name[CT_EVENT_NAME_BUF];
    trace_event_id_t before, after;
    CT_CHECK_OK(posix_trace_eventid_open("ct.maps.before", &before));
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_CHECK_OK(posix_trace_eventid_open("ct.maps.after", &after));

    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, before, name));
    CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, "ct.maps.before") == 0,
             "eventid_get_name of the id opened as \"ct.maps.before\" gives \"%.60s\"", name);
    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, after, name));
    CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, "ct.maps.after") == 0,
             "eventid_get_name of the id opened as \"ct.maps.after\" (with the stream"
             " active) gives \"%.60s\"", name);
}

/* eventid_open as the ct_check_* helpers open names (no trace id). */
static int open_in_process(trace_id_t trid, const char *name, trace_event_id_t *id)
{
    (void)trid;
    return posix_trace_eventid_open(name, id);
}

CT_TEST(open_name_max, "eventid_open.name-max", "TRC",
        "posix_trace_eventid_open,posix_trace_eventid_get_name")
{
    ct_check_name_max_opens(open_in_process, "eventid_open", 'M');
}

CT_TEST(open_unique, "eventid_open.unique-per-process", "TRC",
        "posix_trace_eventid_open,posix_trace_eventid_equal")
{
    enum { N = 8 };
    trace_event_id_t ids[N];
    char name[32];
    trace_id_t trid = ct_new_stream(NULL, 0);
    trace_event_id_t sys[16];
    const char *sysname[16];
    int nsys = 0;
#define SYS(c) (sys[nsys] = (c), sysname[nsys++] = #c)
    SYS(POSIX_TRACE_START);
    SYS(POSIX_TRACE_STOP);
    SYS(POSIX_TRACE_OVERFLOW);
    SYS(POSIX_TRACE_RESUME);
#if CT_HAVE_POSIX_TRACE_ERROR
    SYS(POSIX_TRACE_ERROR);
#else
    ct_note("%s", CT_NO_POSIX_TRACE_ERROR_NOTE);
#endif
    SYS(CT_UNNAMED);
#if CT_HAVE_TEF
    if (ct_option("TEF"))
        SYS(POSIX_TRACE_FILTER);
#endif
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        SYS(POSIX_TRACE_FLUSH_START);
        SYS(POSIX_TRACE_FLUSH_STOP);
    }
#endif
#undef SYS

    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "ct.unique.%d", i);
        CT_CHECK_OK(posix_trace_eventid_open(name, &ids[i]));
    }
    for (int i = 0; i < N; i++) {
        for (int j = i + 1; j < N; j++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], ids[j]),
                     "the names ct.unique.%d and ct.unique.%d got equal identifiers (%s, %s)",
                     i, j, CT_HEX(ids[i]), CT_HEX(ids[j]));
        for (int k = 0; k < nsys; k++)
            CT_CHECK(!posix_trace_eventid_equal(trid, ids[i], sys[k]),
                     "the user name ct.unique.%d got an identifier equal to %s (%s)", i,
                     sysname[k], CT_HEX(ids[i]));
    }
}

CT_TEST(open_same_name, "eventid_open.same-name-same-id", "TRC",
        "posix_trace_eventid_open,posix_trace_eventid_equal")
{
    trace_event_id_t first, other, again;
    trace_id_t trid = ct_new_stream(NULL, 0);
    CT_SETUP_OK(posix_trace_eventid_open("ct.same", &first));
    CT_SETUP_OK(posix_trace_eventid_open("ct.same.other", &other));
    int rc = posix_trace_eventid_open("ct.same", &again);
    CT_CHECK(rc == 0, "opening \"ct.same\" a second time returned %s, expected 0",
             ct_errname(rc));
    CT_CHECK(posix_trace_eventid_equal(trid, first, again),
             "opening \"ct.same\" a second time gave %s, not equal to the first %s",
             CT_HEX(again), CT_HEX(first));
    CT_CHECK(!posix_trace_eventid_equal(trid, other, again),
             "the second \"ct.same\" equals the id of \"ct.same.other\"");
}

CT_TEST(open_limit_unnamed, "eventid_open.limit-unnamed", "TRC",
        "posix_trace_eventid_open,posix_trace_eventid_equal")
{
    ct_check_user_event_limit(ct_new_stream(NULL, 0), open_in_process, "eventid_open",
                              "ct.limit");
}

CT_TEST(open_before_stream, "eventid_open.before-stream", "TRC",
        "posix_trace_eventid_open,posix_trace_create,posix_trace_eventid_get_name,"
        "posix_trace_event,posix_trace_getnext_event")
{
    trace_event_id_t id;
    char name[CT_EVENT_NAME_BUF], data[8];
    struct posix_trace_event_info info;
    size_t len;
    int unavailable, found = 0;

    CT_CHECK_OK(posix_trace_eventid_open("ct.early", &id));     /* no stream yet */
    trace_id_t trid = ct_new_stream(NULL, 1);
    posix_trace_event(id, "e", 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    do {
        CT_SETUP_OK(posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len,
                                                 &unavailable));
        if (unavailable == 0 && len == 1 && data[0] == 'e')
            found = 1;
    } while (unavailable == 0 && !found);
    CT_CHECK(found, "the event recorded with the id opened before the stream existed was"
             " not read back");
    CT_CHECK(posix_trace_eventid_equal(trid, info.posix_event_id, id),
             "the event comes out with id %s, expected the id %s opened before the stream"
             " was created", CT_HEX(info.posix_event_id), CT_HEX(id));
    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, info.posix_event_id, name));
    CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, "ct.early") == 0,
             "the stream names the id \"%.60s\", expected \"ct.early\"", name);
}

CT_TEST(open_return_convention, "eventid_open.return-convention", "TRC",
        "posix_trace_eventid_open")
{
    trace_event_id_t id;
    errno = 0;
    int rc = posix_trace_eventid_open("ct.convention", &id);
    CT_CHECK(rc == 0, "a successful eventid_open returned %d (%s), errno %s; expected 0", rc,
             ct_errname(rc), ct_errname(errno));
    long max = ct_limit_trace_event_name_max();
    if (max < 3 || max > (1L << 20)) {
        ct_note("{TRACE_EVENT_NAME_MAX} is %ld: the failure case is not tried", max);
        return;
    }
    char *name = ct_long_name((size_t)max + 1, 'R');
    errno = 0;
    rc = posix_trace_eventid_open(name, &id);
    CT_CHECK(rc == ENAMETOOLONG,
             "eventid_open of a name of {TRACE_EVENT_NAME_MAX}+1 = %ld characters returned %d"
             " (%s), errno %s: expected the error number ENAMETOOLONG itself", max + 1, rc,
             ct_errname(rc), ct_errname(errno));
    free(name);
}

/* A call that fails maps nothing: the stream's event type list (the
 * identifiers of the names the process mapped) is as long after it as
 * before. */
CT_TEST(open_enametoolong, "eventid_open.ENAMETOOLONG", "TRC",
        "posix_trace_eventid_open,posix_trace_eventtypelist_getnext_id")
{
    size_t max = ct_event_name_max();
    trace_id_t trid = ct_new_stream(NULL, 0);
    ct_open_id("ct.enametoolong.known");
    size_t before = ct_typelist_count(trid);
    char *name = ct_long_name(max + 1, 'L');
    trace_event_id_t id;
    CT_CHECK_ERR(posix_trace_eventid_open(name, &id), ENAMETOOLONG);
    free(name);
    name = ct_long_name(max + 100, 'L');
    CT_CHECK_ERR(posix_trace_eventid_open(name, &id), ENAMETOOLONG);
    free(name);
    size_t after = ct_typelist_count(trid);
    CT_CHECK(after == before, "the stream's event type list held %zu identifiers before two"
             " eventid_open calls that failed with ENAMETOOLONG, and %zu after: a failed call"
             " mapped a name", before, after);
}

CT_TEST(equal_compares, "eventid_equal.compares", "TRC", "posix_trace_eventid_equal")
{
    trace_id_t trid = ct_new_stream(NULL, 0);
    trace_event_id_t a = ct_open_id("ct.equal.a"), b = ct_open_id("ct.equal.b");
    trace_event_id_t a2 = a, start = POSIX_TRACE_START, stop = POSIX_TRACE_STOP;

    CT_CHECK(posix_trace_eventid_equal(trid, start, start) != 0,
             "eventid_equal(POSIX_TRACE_START, POSIX_TRACE_START) returned 0");
    CT_CHECK(posix_trace_eventid_equal(trid, start, stop) == 0,
             "eventid_equal(POSIX_TRACE_START, POSIX_TRACE_STOP) returned non-zero");
    CT_CHECK(posix_trace_eventid_equal(trid, a, a2) != 0,
             "eventid_equal of a user id and a copy of it returned 0");
    CT_CHECK(posix_trace_eventid_equal(trid, a, b) == 0 &&
             posix_trace_eventid_equal(trid, b, a) == 0,
             "eventid_equal of two user ids opened under different names returned non-zero");
    CT_CHECK(posix_trace_eventid_equal(trid, a, start) == 0,
             "eventid_equal of a user id and POSIX_TRACE_START returned non-zero");
}

CT_TEST(equal_return_convention, "eventid_equal.return-convention", "TRC",
        "posix_trace_eventid_get_name,posix_trace_trid_eventid_open")
{
    char name[CT_EVENT_NAME_BUF];
    trace_id_t live = ct_new_stream(NULL, 0);
    errno = 0;
    int rc = posix_trace_eventid_get_name(live, POSIX_TRACE_START, name);
    CT_CHECK(rc == 0, "a successful eventid_get_name returned %d (%s), errno %s; expected 0",
             rc, ct_errname(rc), ct_errname(errno));
#if CT_HAVE_TEF
    trace_event_id_t id;
    if (ct_option("TEF")) {
        errno = 0;
        rc = posix_trace_trid_eventid_open(live, "ct.trid.convention", &id);
        CT_CHECK(rc == 0, "a successful trid_eventid_open returned %d (%s), errno %s;"
                 " expected 0", rc, ct_errname(rc), ct_errname(errno));
    }
#endif
    trace_id_t dead = ct_dead_stream();
    errno = 0;
    rc = posix_trace_eventid_get_name(dead, POSIX_TRACE_START, name);
    CT_CHECK(rc == EINVAL, "eventid_get_name on a shut-down trid returned %d (%s), errno %s:"
             " expected the error number EINVAL itself", rc, ct_errname(rc),
             ct_errname(errno));
#if CT_HAVE_TEF
    if (ct_option("TEF")) {
        errno = 0;
        rc = posix_trace_trid_eventid_open(dead, "ct.trid.convention2", &id);
        CT_CHECK(rc == EINVAL, "trid_eventid_open on a shut-down trid returned %d (%s),"
                 " errno %s: expected the error number EINVAL itself", rc, ct_errname(rc),
                 ct_errname(errno));
    }
#endif
}

CT_TEST(get_name_returns, "eventid_get_name.returns-name", "TRC",
        "posix_trace_eventid_get_name")
{
    char name[CT_EVENT_NAME_BUF];
    trace_id_t trid = ct_new_stream(NULL, 1);
    trace_event_id_t id = ct_open_id("ct.get-name");
    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, id, name));
    CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, "ct.get-name") == 0,
             "eventid_get_name on a RUNNING stream gives \"%.60s\", expected \"ct.get-name\"",
             name);
}

#if CT_HAVE_TRL
/* The log of a stream with log of this process that recorded id once, opened
 * with posix_trace_open on *fd (the caller closes both). */
static trace_id_t log_with_event(trace_event_id_t id, int *fd)
{
    char path[] = "/tmp/ct-eventid-log-XXXXXX";
    trace_id_t trid, log;
    if (!ct_option("TRL"))
        CT_UNSUPPORTED("TRL is not supported: no trace log to open");
    *fd = mkstemp(path);
    if (*fd < 0)
        CT_UNRESOLVED("mkstemp(%s) failed: %s", path, ct_errname(errno));
    unlink(path);
    CT_SETUP_OK(posix_trace_create_withlog(0, NULL, *fd, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "", 0);
    CT_SETUP_OK(posix_trace_shutdown(trid));
    if (lseek(*fd, 0, SEEK_SET) != 0)
        CT_UNRESOLVED("lseek on the log failed: %s", ct_errname(errno));
    CT_SETUP_OK(posix_trace_open(*fd, &log));
    return log;
}
#endif

CT_TEST(get_name_log, "eventid_get_name.returns-name", "TRC,TRL",
        "posix_trace_eventid_get_name,posix_trace_create_withlog,posix_trace_open")
{
#if CT_HAVE_TRL
    char name[CT_EVENT_NAME_BUF];
    int fd;
    trace_event_id_t id = ct_open_id("ct.get-name.log");
    trace_id_t log = log_with_event(id, &fd);
    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_eventid_get_name(log, id, name));
    CT_CHECK(memchr(name, '\0', sizeof name) && strcmp(name, "ct.get-name.log") == 0,
             "eventid_get_name on the opened log gives \"%.60s\", expected"
             " \"ct.get-name.log\"", name);
    posix_trace_close(log);
    close(fd);
#else
    CT_UNSUPPORTED("built without TRL: <trace.h> defines _POSIX_TRACE_LOG as -1");
#endif
}

/* The output buffer: XSH gives eventid_get_name's caller no size of its own;
 * S0138 says "The name of the trace event shall have a maximum of
 * {TRACE_EVENT_NAME_MAX} characters", a limit without the NUL (Interpretation
 * #173; ruling 24).  So the least a caller may pass is {TRACE_EVENT_NAME_MAX}+1
 * bytes, and a name of exactly {TRACE_EVENT_NAME_MAX} characters must fit in
 * them: the tests pass exactly that many, followed by guard bytes, for every
 * event type of a stream or a log (system events included); where names the
 * stream or log (messages). */
static void check_names_fit(trace_id_t trid, size_t max, const char *where)
{
    struct ct_guarded buf = ct_guarded_new(max + 1, "{TRACE_EVENT_NAME_MAX}+1 (S0138)");
    int n = 0, unavailable = 0;
    while (n < 100000) {
        trace_event_id_t id;
        char what[160];
        CT_SETUP_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
        if (unavailable)
            break;
        n++;
        ct_guarded_reset(&buf);
        int rc = posix_trace_eventid_get_name(trid, id, (char *)buf.p);
        if (rc != 0)
            continue;           /* a listed id with no name: xbd419.event-has-type */
        snprintf(what, sizeof what, "eventid_get_name of id %s on %s", CT_HEX(id), where);
        ct_guard_check(&buf, what);
        CT_CHECK(ct_guarded_has_nul(&buf),
                 "the name of id %s on %s has more than {TRACE_EVENT_NAME_MAX} = %zu"
                 " characters", CT_HEX(id), where, max);
    }
    CT_CHECK(n > 0, "the event type list of %s is empty", where);
    ct_guarded_free(&buf);
}

CT_TEST(get_name_max, "eventid_get_name.name-max", "TRC",
        "posix_trace_eventid_get_name,posix_trace_eventtypelist_getnext_id")
{
    size_t max = ct_event_name_max();
    char *longest = ct_long_name(max, 'G');
    ct_open_id("ct.name-max.short");
    if (max <= 4096)
        ct_open_id(longest);
    check_names_fit(ct_new_stream(NULL, 0), max, "a stream");
    free(longest);
}

CT_TEST(get_name_max_log, "eventid_get_name.name-max", "TRC,TRL",
        "posix_trace_eventid_get_name,posix_trace_eventtypelist_getnext_id,posix_trace_open")
{
#if CT_HAVE_TRL
    size_t max = ct_event_name_max();
    char *longest = ct_long_name(max, 'L');
    int fd;
    if (max > 4096)
        CT_UNTESTED("{TRACE_EVENT_NAME_MAX} = %zu: too long a name for the log", max);
    trace_id_t log = log_with_event(ct_open_id(longest), &fd);
    check_names_fit(log, max, "an opened log");
    posix_trace_close(log);
    close(fd);
    free(longest);
#else
    CT_UNSUPPORTED("built without TRL: <trace.h> defines _POSIX_TRACE_LOG as -1");
#endif
}

CT_TEST(get_name_stable, "eventid_get_name.stable", "TRC", "posix_trace_eventid_get_name")
{
    char first[CT_EVENT_NAME_BUF], again[CT_EVENT_NAME_BUF];
    trace_id_t trid = ct_new_stream(NULL, 1);
    trace_event_id_t ids[2] = { POSIX_TRACE_STOP, ct_open_id("ct.stable") };
    const char *what[2] = { "POSIX_TRACE_STOP", "a user id" };

    for (int k = 0; k < 2; k++) {
        CT_CHECK_OK(posix_trace_eventid_get_name(trid, ids[k], first));
        for (int i = 0; i < 3; i++) {
            ct_open_id(i == 0 ? "ct.stable.other" : "ct.stable");
            memset(again, 'x', sizeof again);
            CT_CHECK_OK(posix_trace_eventid_get_name(trid, ids[k], again));
            CT_CHECK(strcmp(first, again) == 0,
                     "eventid_get_name of %s gave \"%.60s\", then \"%.60s\"", what[k], first,
                     again);
        }
    }
}

CT_TEST(get_name_einval_trid, "eventid_get_name.EINVAL-trid", "TRC",
        "posix_trace_eventid_get_name")
{
    char name[CT_EVENT_NAME_BUF];
    trace_event_id_t id = ct_open_id("ct.einval");
    trace_id_t dead = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_eventid_get_name(dead, POSIX_TRACE_START, name), EINVAL);
    CT_CHECK_ERR(posix_trace_eventid_get_name(dead, id, name), EINVAL);
}

/* An identifier with no name in this process: one that a child process
 * opened for a name this process never opens.  The child is gone before the
 * caller creates a stream, so nothing of it is traced there. */
static trace_event_id_t foreign_id(void)
{
    int fds[2];
    trace_event_id_t foreign;
    if (pipe(fds) != 0)
        CT_UNRESOLVED("pipe failed: %s", ct_errname(errno));
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        CT_UNRESOLVED("fork failed: %s", ct_errname(errno));
    if (pid == 0) {
        trace_event_id_t id;
        int ok = posix_trace_eventid_open("ct.child.only", &id) == 0 &&
                 write(fds[1], &id, sizeof id) == (ssize_t)sizeof id;
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], &foreign, sizeof foreign);
    int status;
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != (ssize_t)sizeof foreign || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        CT_UNRESOLVED("the child could not open an event name");
    return foreign;
}

CT_TEST(get_name_einval_noname, "eventid_get_name.EINVAL-noname", "TRC",
        "posix_trace_eventid_get_name")
{
    char name[CT_EVENT_NAME_BUF];
    trace_event_id_t foreign = foreign_id();
    trace_id_t trid = ct_new_stream(NULL, 0);
    memset(name, 0, sizeof name);
    int rc = posix_trace_eventid_get_name(trid, foreign, name);
    CT_CHECK(rc == EINVAL,
             "eventid_get_name of id %s, which only another (exited) process mapped, for a"
             " name this process never opened: returned %s%s%.60s%s, expected EINVAL (not"
             " associated with any name in this stream)", CT_HEX(foreign), ct_errname(rc),
             rc == 0 ? " with the name \"" : "", rc == 0 ? name : "", rc == 0 ? "\"" : "");
}

/* The same on a trace log: the log's mapping (the stream's, written at
 * shutdown, S0114) has no name for the foreign identifier (S0137, S0155). */
CT_TEST(get_name_einval_noname_log, "eventid_get_name.EINVAL-noname", "TRC,TRL",
        "posix_trace_eventid_get_name,posix_trace_create_withlog,posix_trace_open")
{
#if CT_HAVE_TRL
    char name[CT_EVENT_NAME_BUF];
    int fd;
    /* The log's own name is opened first: the child inherits it, and the
     * name it opens is one more, which this process never opens. */
    trace_event_id_t mine = ct_open_id("ct.noname.log");
    trace_event_id_t foreign = foreign_id();
    trace_id_t log = log_with_event(mine, &fd);
    memset(name, 0, sizeof name);
    int rc = posix_trace_eventid_get_name(log, foreign, name);
    CT_CHECK(rc == EINVAL,
             "eventid_get_name on an opened log of id %s, which only another (exited) process"
             " mapped: returned %s%s%.60s%s, expected EINVAL (not associated with any name in"
             " the log)", CT_HEX(foreign), ct_errname(rc), rc == 0 ? " with the name \"" : "",
             rc == 0 ? name : "", rc == 0 ? "\"" : "");
    posix_trace_close(log);
    close(fd);
#else
    CT_UNSUPPORTED("built without TRL: <trace.h> defines _POSIX_TRACE_LOG as -1");
#endif
}

CT_TEST(process_mapping, "xsh211.process-mapping", "TRC",
        "posix_trace_eventid_open,posix_trace_eventid_equal,posix_trace_create,"
        "posix_trace_shutdown")
{
    trace_event_id_t early = ct_open_id("ct.process.mapping"), id1, id2;
    trace_id_t s1 = ct_new_stream(NULL, 1);
    CT_CHECK_OK(posix_trace_eventid_open("ct.process.mapping", &id1));
    CT_CHECK(posix_trace_eventid_equal(s1, early, id1),
             "with a first stream, the name opened before it maps to %s, not to the %s it"
             " got before", CT_HEX(id1), CT_HEX(early));
    CT_SETUP_OK(posix_trace_shutdown(s1));
    trace_id_t s2 = ct_new_stream(NULL, 1);
    CT_CHECK_OK(posix_trace_eventid_open("ct.process.mapping", &id2));
    CT_CHECK(posix_trace_eventid_equal(s2, early, id2),
             "in a second stream created after the first was shut down, the name maps to %s,"
             " not to the %s it got before any stream existed", CT_HEX(id2), CT_HEX(early));

    /* The events recorded with the first id carry it in the second stream. */
    struct posix_trace_event_info info;
    char data[8], name[CT_EVENT_NAME_BUF];
    size_t len;
    int unavailable, found = 0;
    posix_trace_event(early, "p", 1);
    CT_SETUP_OK(posix_trace_stop(s2));
    do {
        CT_SETUP_OK(posix_trace_trygetnext_event(s2, &info, data, sizeof data, &len,
                                                 &unavailable));
        found = unavailable == 0 && len == 1 && data[0] == 'p';
    } while (unavailable == 0 && !found);
    CT_CHECK(found, "the event recorded in the second stream was not read back");
    CT_CHECK(posix_trace_eventid_equal(s2, info.posix_event_id, id2),
             "the event recorded with the early id comes out as %s, not %s",
             CT_HEX(info.posix_event_id), CT_HEX(id2));
    CT_CHECK_OK(posix_trace_eventid_get_name(s2, info.posix_event_id, name));
    CT_CHECK(strcmp(name, "ct.process.mapping") == 0,
             "the second stream names the id \"%.60s\", expected \"ct.process.mapping\"", name);
}
