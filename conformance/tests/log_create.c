/* SPDX-License-Identifier: MIT */
/*
 * log_create.c -- posix_trace_create_withlog() (XSH posix_trace_create): the
 * stream with log it makes, its trace id, its default stream-full-policy, its
 * errors; and stream-full-policy FLUSH refused for a stream without log.
 *
 * Portable: logs are written to temporary regular files opened O_WRONLY (the
 * one file type every implementation must take) and read back with
 * posix_trace_open(); nothing of a log's format is assumed.  Events in a log
 * are recognised by their names (posix_trace_eventid_get_name on the log's
 * trace id) and by the sequence numbers the tests put in their data.  An
 * active stream with log is never read, except as ruling 7 allows (the trid
 * usable test).  A full device for ENOSPC is a small tmpfs, mounted with
 * mount(8) if the test may (root on Linux); otherwise that test ends
 * UNTESTED.  The mount is detached (umount -l) as soon as the test's files
 * are open, so nothing is left mounted whatever happens to the test.
 *
 * Not tested here, and why:
 *   create_withlog.EINTR   not testable (catalogue); .ENOMEM: memory.c.
 *   create_withlog.EAGAIN counts on {TRACE_SYS_MAX} being determinate; it
 *   fills the system-wide table with posix_trace_create() first, so streams
 *   of other processes do not matter.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "ct.h"
#include "ct_log.h"


/* ---- the stream ---------------------------------------------------------------------- */

CT_TEST(default_streamfullpolicy, "create_withlog.default-streamfullpolicy", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_get_attr,posix_trace_attr_getstreamfullpolicy")
{
#if CT_HAVE_TRL
    require_trl();
    /* Attr NULL, and a fresh object whose policy was never set (ruling 17). */
    for (int k = 0; k < 2; k++) {
        char path[PATH_BUF];
        trace_attr_t fresh, sa;
        int got = -12345;
        CT_SETUP_OK(posix_trace_attr_init(&fresh));
        trace_id_t trid = log_stream(k == 0 ? NULL : &fresh, path, NULL);
        attrs_of(trid, &sa);
        CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&sa, &got));
        CT_CHECK(got == POSIX_TRACE_FLUSH, "a stream created with log from %s has"
                 " stream-full-policy %d (%s), expected POSIX_TRACE_FLUSH (%d) (ruling 17)",
                 k == 0 ? "attr NULL" : "a fresh attributes object", got, policy_name(got),
                 POSIX_TRACE_FLUSH);
        CT_CHECK_OK(posix_trace_shutdown(trid));
    }
#else
    NO_TRL();
#endif
}

CT_TEST(like_create, "create_withlog.like-create", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_get_status,posix_trace_get_filter,"
        "posix_trace_event,posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF];
    trace_event_id_t before = open_id("ct.create.before-start");
    trace_event_id_t after = open_id("ct.create.after-start");
    trace_id_t trid;
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY);
    CT_CHECK_OK(posix_trace_create_withlog(0, NULL, fd, &trid));
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED, "a new stream with log has"
             " posix_stream_status %d, expected POSIX_TRACE_SUSPENDED (%d)",
             st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN, "a new stream with log"
             " has posix_stream_overrun_status %d, expected POSIX_TRACE_NO_OVERRUN (%d)",
             st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    CT_CHECK(st.posix_stream_full_status == POSIX_TRACE_NOT_FULL, "a new stream with log has"
             " posix_stream_full_status %d, expected POSIX_TRACE_NOT_FULL (%d)",
             st.posix_stream_full_status, POSIX_TRACE_NOT_FULL);
#if CT_HAVE_TEF
    if (ct_option("TEF")) {
        trace_event_set_t set;
        const trace_event_id_t ids[3] = { POSIX_TRACE_START, POSIX_TRACE_STOP, before };
        const char *names[3] = { "POSIX_TRACE_START", "POSIX_TRACE_STOP", "a user event" };
        CT_CHECK_OK(posix_trace_get_filter(trid, &set));
        for (int i = 0; i < 3; i++) {
            int member = -1;
            CT_CHECK_OK(posix_trace_eventset_ismember(ids[i], &set, &member));
            CT_CHECK(member == 0, "the filter of a new stream with log contains %s: it must"
                     " be empty", names[i]);
        }
    }
#endif
    /* Suspended: an event before start is not recorded; one after is. */
    record(before, 1);
    CT_SETUP_OK(posix_trace_start(trid));
    record(after, 2);
    trace_id_t log;
    int n = shutdown_read(trid, path, &log), nb = 0, na = 0;
    for (int i = 0; i < n; i++) {
        nb += has_name(log, &recs[i], "ct.create.before-start");
        na += has_name(log, &recs[i], "ct.create.after-start");
    }
    CT_CHECK(nb == 0, "the log holds %d event(s) recorded before the first start: a new"
             " stream with log must be suspended", nb);
    CT_CHECK(na == 1, "the log holds %d copies of the event recorded after start, expected 1"
             " (%d events read)", na, n);
#else
    NO_TRL();
#endif
}

CT_TEST(log_to_fd, "create_withlog.log-to-fd", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_shutdown,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    /* The log goes to the file of file_desc, here a duplicate of a higher
     * number whose original is closed, and to no other file open meanwhile. */
    char path[PATH_BUF], other[PATH_BUF];
    trace_event_id_t id = open_id("ct.create.to-fd");
    tmp_file(path);
    tmp_file(other);
    int ofd = open_or_unresolved(other, O_WRONLY);
    int fd0 = open_or_unresolved(path, O_WRONLY);
    int fd = fcntl(fd0, F_DUPFD, 40);
    if (fd < 0)
        CT_UNRESOLVED("fcntl(F_DUPFD, 40): %s", ct_errname(errno));
    close(fd0);
    trace_id_t trid, log;
    CT_CHECK_OK(posix_trace_create_withlog(0, NULL, fd, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    for (unsigned i = 0; i < 5; i++)
        record(id, i);
    int n = shutdown_read(trid, path, &log);
    unsigned seqs[16];
    int k = user_seqs(log, n, "ct.create.to-fd", seqs, 16);
    CT_CHECK(k == 5 && seqs[0] == 0 && seqs[4] == 4, "the log opened on the file of file_desc"
             " (descriptor %d) holds user events %s (%d of them), expected 0 1 2 3 4", fd,
             seq_list(seqs, k), k);
    CT_CHECK(file_size(other) == 0, "a file opened beside the log (not given to"
             " create_withlog) was written: %lld bytes", (long long)file_size(other));
    close(ofd);
#else
    NO_TRL();
#endif
}

CT_TEST(trid_unique, "create_withlog.trid-unique", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_start,posix_trace_get_status,"
        "posix_trace_shutdown,posix_trace_open")
{
#if CT_HAVE_TRL
    require_trl();
    char pa[PATH_BUF], pb[PATH_BUF];
    trace_event_id_t ea = open_id("ct.create.in-a"), eb = open_id("ct.create.in-b");
    trace_id_t a = log_stream(NULL, pa, NULL), b = log_stream(NULL, pb, NULL);
    CT_CHECK_OK(posix_trace_start(a));
    struct posix_trace_status_info sa = status(a), sb = status(b);
    CT_CHECK(sa.posix_stream_status == POSIX_TRACE_RUNNING &&
             sb.posix_stream_status == POSIX_TRACE_SUSPENDED,
             "after starting the first of two streams with log, their states are %d and %d:"
             " expected RUNNING (%d) and SUSPENDED (%d)", sa.posix_stream_status,
             sb.posix_stream_status, POSIX_TRACE_RUNNING, POSIX_TRACE_SUSPENDED);
    record(ea, 1);                      /* in a's log only: b is suspended */
    CT_CHECK_OK(posix_trace_shutdown(a));
    sb = status(b);
    CT_CHECK(sb.posix_stream_status == POSIX_TRACE_SUSPENDED, "after shutting the other"
             " stream down, the second stream's status is %d, expected SUSPENDED (%d)",
             sb.posix_stream_status, POSIX_TRACE_SUSPENDED);
    CT_CHECK_OK(posix_trace_start(b));
    record(eb, 2);
    CT_CHECK_OK(posix_trace_shutdown(b));
    trace_id_t la = open_log(pa), lb = open_log(pb);
    int n = read_all(la), a_in_a = 0, b_in_a = 0;
    for (int i = 0; i < n; i++) {
        a_in_a += has_name(la, &recs[i], "ct.create.in-a");
        b_in_a += has_name(la, &recs[i], "ct.create.in-b");
    }
    n = read_all(lb);
    int a_in_b = 0, b_in_b = 0;
    for (int i = 0; i < n; i++) {
        a_in_b += has_name(lb, &recs[i], "ct.create.in-a");
        b_in_b += has_name(lb, &recs[i], "ct.create.in-b");
    }
    CT_CHECK(a_in_a == 1 && b_in_a == 0 && a_in_b == 0 && b_in_b == 1,
             "each stream recorded while only it ran: the first log holds %d of its event and"
             " %d of the other's, the second %d of the first's and %d of its own; expected"
             " 1, 0, 0, 1", a_in_a, b_in_a, a_in_b, b_in_b);
#else
    NO_TRL();
#endif
}

/* ---- the trace id -------------------------------------------------------------------- */

#if CT_HAVE_TRL
static atomic_int reader_returned;

static void *reader_watchdog(void *arg)
{
    const char *what = arg;
    for (int i = 0; i < 500; i++) {
        if (atomic_load(&reader_returned))
            return NULL;
        ct_sleep_ms(10);
    }
    CT_FAIL("%s on a stream with log, with an event recorded and an abstime past, has not"
            " returned after 5 s (ruling 7: it reports the event or fails with EINVAL)", what);
}
#endif

CT_TEST(trid_usable, "create_withlog.trid-usable", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_clear,posix_trace_eventid_equal,"
        "posix_trace_eventid_get_name,posix_trace_eventtypelist_getnext_id,"
        "posix_trace_eventtypelist_rewind,posix_trace_flush,posix_trace_get_attr,"
        "posix_trace_get_status,posix_trace_getnext_event,posix_trace_shutdown,"
        "posix_trace_start,posix_trace_stop,posix_trace_timedgetnext_event,"
        "posix_trace_trid_eventid_open,posix_trace_get_filter,posix_trace_set_filter")
{
#if CT_HAVE_TRL
    require_trl();
    char path[PATH_BUF], name[CT_EVENT_NAME_BUF];
    trace_attr_t sa;
    trace_event_id_t id, user = open_id("ct.create.usable");
    struct posix_trace_event_info info;
    unsigned char data[64];
    size_t len;
    int unavailable, rc;
    pthread_t dog;
    trace_id_t trid = log_stream(NULL, path, NULL);
    CT_SETUP_OK(posix_trace_attr_init(&sa));
    CT_CHECK_OK(posix_trace_get_attr(trid, &sa));
    status(trid);
    CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
    CT_CHECK_OK(posix_trace_eventtypelist_rewind(trid));
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, POSIX_TRACE_START, name));
    CT_CHECK(posix_trace_eventid_equal(trid, POSIX_TRACE_START, POSIX_TRACE_START) != 0,
             "eventid_equal(trid, START, START) returned 0 on a create_withlog trid");
#if CT_HAVE_TEF
    if (ct_option("TEF")) {
        trace_event_set_t set;
        CT_CHECK_OK(posix_trace_trid_eventid_open(trid, "ct.create.usable-tef", &id));
        CT_CHECK_OK(posix_trace_get_filter(trid, &set));
        CT_CHECK_OK(posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET));
    }
#endif
    CT_CHECK_OK(posix_trace_start(trid));
    /* Ruling 7: with an event present the readers report it or fail with
     * EINVAL; a watchdog fails the test if one blocks. */
    record(user, 1);
    CT_SETUP_OK(pthread_create(&dog, NULL, reader_watchdog, "getnext_event"));
    rc = posix_trace_getnext_event(trid, &info, data, sizeof data, &len, &unavailable);
    atomic_store(&reader_returned, 1);
    pthread_join(dog, NULL);
    CT_CHECK(rc == EINVAL || (rc == 0 && unavailable == 0), "getnext_event on a stream with"
             " log holding an event returned %s (unavailable %d): expected the event"
             " (0, unavailable 0) or EINVAL (ruling 7)", ct_errname(rc), unavailable);
    record(user, 2);
    struct timespec past;
    clock_gettime(CLOCK_REALTIME, &past);
    past.tv_sec -= 1;
    atomic_store(&reader_returned, 0);
    CT_SETUP_OK(pthread_create(&dog, NULL, reader_watchdog, "timedgetnext_event"));
    rc = posix_trace_timedgetnext_event(trid, &info, data, sizeof data, &len, &unavailable,
                                        &past);
    atomic_store(&reader_returned, 1);
    pthread_join(dog, NULL);
    CT_CHECK(rc == EINVAL || rc == ETIMEDOUT || (rc == 0 && unavailable == 0),
             "timedgetnext_event on a stream with log holding an event returned %s"
             " (unavailable %d): expected the event, EINVAL or ETIMEDOUT (ruling 7)",
             ct_errname(rc), unavailable);
    CT_CHECK_OK(posix_trace_flush(trid));
    struct flushwatch w;
    if (!wait_flush(trid, &w))
        CT_UNRESOLVED("the flush did not end within %d ms", FLUSH_WAIT_MS);
    CT_CHECK_OK(posix_trace_stop(trid));
    CT_CHECK_OK(posix_trace_clear(trid));
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

/* ---- errors -------------------------------------------------------------------------- */

CT_TEST(einval_flush_policy, "create.EINVAL-flush-policy", "TRC,TRL",
        "posix_trace_create,posix_trace_attr_setstreamfullpolicy,posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    trace_attr_t a;
    trace_id_t trid;
    char path[PATH_BUF];
    CT_SETUP_OK(posix_trace_attr_init(&a));
    int rc = posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_FLUSH);
    if (rc == EINVAL) {
        ct_note("attr_setstreamfullpolicy refuses POSIX_TRACE_FLUSH (ruling 18 accepts it)");
        return;
    }
    CT_CHECK(rc == 0, "attr_setstreamfullpolicy(POSIX_TRACE_FLUSH) returned %d (%s):"
             " expected 0 or EINVAL", rc, ct_errname(rc));
    /* Ruling 18: create refuses the object; create_withlog takes it. */
    CT_CHECK_ERR(posix_trace_create(0, &a, &trid), EINVAL);
    trid = log_stream(&a, path, NULL);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

CT_TEST(eagain, "create_withlog.EAGAIN", "TRC,TRL", "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    long max = ct_limit_trace_sys_max();
    if (max <= 0)
        CT_UNSUPPORTED("{TRACE_SYS_MAX} is indeterminate: no count of streams must fail");
    if (max > 4096)
        CT_UNRESOLVED("{TRACE_SYS_MAX} = %ld: too many streams to create in a test", max);
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    (void)posix_trace_attr_setstreamsize(&a, 4096);     /* small streams, if allowed */
    trace_id_t *t = calloc((size_t)max + 1, sizeof *t), extra;
    if (t == NULL)
        CT_UNRESOLVED("out of memory");
    /* Fill the system's table: create until EAGAIN or {TRACE_SYS_MAX}. */
    long i;
    int rc = 0;
    for (i = 0; i < max; i++)
        if ((rc = posix_trace_create(0, &a, &t[i])) != 0)
            break;
    if (rc != 0 && rc != EAGAIN)
        CT_UNRESOLVED("create number %ld returned %s", i + 1, ct_errname(rc));
    ct_note("%ld streams exist ({TRACE_SYS_MAX} = %ld)", i, max);
    char path[PATH_BUF];
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY);
    CT_CHECK_ERR(posix_trace_create_withlog(0, &a, fd, &extra), EAGAIN);
    while (i-- > 0)
        CT_SETUP_OK(posix_trace_shutdown(t[i]));
    free(t);
#else
    NO_TRL();
#endif
}

#if CT_HAVE_TRL
/* Values distinct from every policy constant of the header. */
static int is_any_policy(int v)
{
    return v == POSIX_TRACE_LOOP || v == POSIX_TRACE_UNTIL_FULL || v == POSIX_TRACE_FLUSH ||
           v == POSIX_TRACE_APPEND;
}

static int invalid_policy(void)
{
    int v = 0x5a5a;
    while (is_any_policy(v))
        v++;
    return v;
}
#endif

CT_TEST(einval_attr_stream_policy, "create_withlog.EINVAL-attr", "TRC,TRL",
        "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    trace_attr_t a;
    trace_id_t trid;
    char path[PATH_BUF];
    int bad = invalid_policy();
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (posix_trace_attr_setstreamfullpolicy(&a, bad) != 0)
        CT_UNSUPPORTED("the setter refuses stream-full-policy %d: no object holding it can"
                       " reach create_withlog", bad);
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY);
    CT_CHECK_ERR(posix_trace_create_withlog(0, &a, fd, &trid), EINVAL);
#else
    NO_TRL();
#endif
}

CT_TEST(einval_attr_log_policy, "create_withlog.EINVAL-attr", "TRC,TRL",
        "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    /* A log-full-policy that is none of LOOP, UNTIL_FULL, APPEND: a value
     * that is no policy, and POSIX_TRACE_FLUSH (a stream policy) where it
     * differs from the three. */
    int bad[2] = { invalid_policy(), POSIX_TRACE_FLUSH };
    int nbad = (POSIX_TRACE_FLUSH == POSIX_TRACE_LOOP || POSIX_TRACE_FLUSH ==
                POSIX_TRACE_UNTIL_FULL || POSIX_TRACE_FLUSH == POSIX_TRACE_APPEND) ? 1 : 2;
    int tried = 0;
    for (int i = 0; i < nbad; i++) {
        trace_attr_t a;
        trace_id_t trid;
        char path[PATH_BUF];
        CT_SETUP_OK(posix_trace_attr_init(&a));
        if (posix_trace_attr_setlogfullpolicy(&a, bad[i]) != 0)
            continue;
        tried++;
        tmp_file(path);
        int fd = open_or_unresolved(path, O_WRONLY);
        CT_CHECK_ERR(posix_trace_create_withlog(0, &a, fd, &trid), EINVAL);
    }
    if (!tried)
        CT_UNSUPPORTED("the setter refuses every invalid log-full-policy (%d, and FLUSH):"
                       " no object holding one can reach create_withlog", bad[0]);
#else
    NO_TRL();
#endif
}

CT_TEST(eperm, "create_withlog.EPERM", "TRC,TRL", "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    trace_id_t trid;
    char path[PATH_BUF];
    if (getpid() == 1)
        CT_UNRESOLVED("the test runs as process 1");
    if (kill(1, 0) != 0 && errno == ESRCH)
        CT_UNRESOLVED("there is no process 1");
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY);
    int rc = posix_trace_create_withlog(1, NULL, fd, &trid);
    if (rc == 0) {
        ct_note("create_withlog for process 1 succeeded (euid %ld): the implementation grants"
                " the privilege", (long)geteuid());
        CT_CHECK_OK(posix_trace_shutdown(trid));
        return;
    }
    CT_CHECK(rc == EPERM, "create_withlog for process 1 (euid %ld) returned %d (%s): expected"
             " EPERM, or 0 if the caller may trace it", (long)geteuid(), rc, ct_errname(rc));
#else
    NO_TRL();
#endif
}

CT_TEST(esrch, "create_withlog.ESRCH", "TRC,TRL", "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    trace_id_t trid;
    char path[PATH_BUF];
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        CT_UNRESOLVED("fork failed: %s", ct_errname(errno));
    if (pid == 0)
        _exit(0);
    CT_SETUP_OK(waitpid(pid, NULL, 0) == pid ? 0 : errno);
    if (!(kill(pid, 0) != 0 && errno == ESRCH))
        CT_UNRESOLVED("pid %ld was reused at once: no pid is known not to exist", (long)pid);
    CT_CHECK_ERR(posix_trace_create_withlog(pid, NULL, fd, &trid), ESRCH);
#else
    NO_TRL();
#endif
}

CT_TEST(ebadf, "create_withlog.EBADF", "TRC,TRL", "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    trace_id_t trid;
    char path[PATH_BUF];
    tmp_file(path);
    /* Open for reading only. */
    int rfd = open_or_unresolved(path, O_RDONLY);
    CT_CHECK_ERR(posix_trace_create_withlog(0, NULL, rfd, &trid), EBADF);
    /* A descriptor just closed (nothing is opened before the call). */
    int cfd = open_or_unresolved(path, O_WRONLY);
    close(cfd);
    CT_CHECK_ERR(posix_trace_create_withlog(0, NULL, cfd, &trid), EBADF);
    /* No descriptor at all. */
    CT_CHECK_ERR(posix_trace_create_withlog(0, NULL, -1, &trid), EBADF);
    /* The read-only descriptor again, as descriptor 0: its number is a
     * descriptor like any other. */
    int saved = dup(0);
    if (dup2(rfd, 0) != 0)
        CT_UNRESOLVED("dup2 onto descriptor 0 failed: %s", ct_errname(errno));
    int rc = posix_trace_create_withlog(0, NULL, 0, &trid);
    if (saved >= 0) {
        dup2(saved, 0);
        close(saved);
    } else {
        close(0);
    }
    CT_CHECK(rc == EBADF, "create_withlog with a read-only descriptor numbered 0 returned %s,"
             " expected EBADF", ct_errname(rc));
    if (rc == 0)
        posix_trace_shutdown(trid);
    close(rfd);
#else
    NO_TRL();
#endif
}

#if CT_HAVE_TRL
static atomic_int drain_stop;

/* Reads the FIFO (non-blocking descriptor) until told to stop. */
static void *drain(void *arg)
{
    int fd = *(int *)arg;
    char buf[4096];
    while (!atomic_load(&drain_stop))
        if (read(fd, buf, sizeof buf) <= 0)
            ct_sleep_ms(1);
    return NULL;
}
#endif

CT_TEST(einval_filetype_fifo, "create_withlog.EINVAL-filetype", "TRC,TRL",
        "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    /* Which file types suit which log policy is implementation-defined: a
     * FIFO cannot be rewritten in place, so it is the likeliest file type a
     * LOOP or UNTIL_FULL log cannot use.  An implementation may accept it
     * (UNSUPPORTED then); one that refuses must say EINVAL. */
    char path[PATH_BUF];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/ct-fifo-%ld", dir && *dir ? dir : "/tmp", (long)getpid());
    unlink(path);
    if (mkfifo(path, 0600) != 0)
        CT_UNRESOLVED("mkfifo(%s): %s", path, ct_errname(errno));
    int rfd = open(path, O_RDONLY | O_NONBLOCK);
    int wfd = rfd < 0 ? -1 : open(path, O_WRONLY);
    unlink(path);
    if (rfd < 0 || wfd < 0)
        CT_UNRESOLVED("opening the FIFO: %s", ct_errname(errno));
    pthread_t th;
    CT_SETUP_OK(pthread_create(&th, NULL, drain, &rfd));
    const int pol[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    int refused = 0, refuses[3] = { 0, 0, 0 };
    char accepted[64] = "";
    for (int i = 0; i < 3; i++) {
        trace_attr_t a;
        trace_id_t trid;
        CT_SETUP_OK(posix_trace_attr_init(&a));
        CT_SETUP_OK(posix_trace_attr_setlogfullpolicy(&a, pol[i]));
        int rc = posix_trace_create_withlog(0, &a, wfd, &trid);
        if (rc == 0) {
            CT_CHECK_OK(posix_trace_shutdown(trid));
            strcat(accepted, " ");
            strcat(accepted, policy_name(pol[i]));
            continue;
        }
        CT_CHECK(rc == EINVAL, "create_withlog on a FIFO with log-full-policy %s returned %d"
                 " (%s): expected EINVAL (the file type does not suit the policy) or 0",
                 policy_name(pol[i]), rc, ct_errname(rc));
        refuses[i] = 1;
        refused++;
    }
    /* The same FIFO at descriptor 0 (standard input, a valid descriptor
     * like any other) is the same file type: refused the same. */
    int saved = refused ? dup(0) : -1;
    if (refused && saved >= 0 && dup2(wfd, 0) == 0) {
        for (int i = 0; i < 3; i++) {
            trace_attr_t a;
            trace_id_t trid;
            if (!refuses[i])
                continue;
            CT_SETUP_OK(posix_trace_attr_init(&a));
            CT_SETUP_OK(posix_trace_attr_setlogfullpolicy(&a, pol[i]));
            int rc = posix_trace_create_withlog(0, &a, 0, &trid);
            if (rc == 0)
                posix_trace_shutdown(trid);
            dup2(saved, 0);
            CT_CHECK(rc == EINVAL, "create_withlog on the FIFO at descriptor 0 with"
                     " log-full-policy %s returned %d (%s), though the same FIFO at descriptor"
                     " %d was refused with EINVAL", policy_name(pol[i]), rc, ct_errname(rc),
                     wfd);
            dup2(wfd, 0);
        }
        dup2(saved, 0);
    }
    if (saved >= 0)
        close(saved);
    atomic_store(&drain_stop, 1);
    pthread_join(th, NULL);
    if (!refused)
        CT_UNSUPPORTED("a FIFO is accepted for every log-full-policy:%s; no file type is"
                       " known to be unsuitable here", accepted);
    ct_note("a FIFO is refused (EINVAL) for %d policies, accepted for:%s", refused,
            accepted[0] ? accepted : " none");
#else
    NO_TRL();
#endif
}

CT_TEST(enospc, "create_withlog.ENOSPC", "TRC,TRL", "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    /* A log created on a device with no space left at all. */
    trace_id_t trid;
    fs_mount(256);
    int fd = fs_open("log", O_WRONLY);
    int filler = fs_open("filler", O_WRONLY);
    fs_detach();
    fs_fill(filler);
    int rc = posix_trace_create_withlog(0, NULL, fd, &trid);
    if (rc == 0) {
        struct stat sb;
        fstat(fd, &sb);
        posix_trace_shutdown(trid);
        CT_UNSUPPORTED("create_withlog succeeded on a full device (the log file has %lld"
                       " bytes): this implementation needs no space to create a log",
                       (long long)sb.st_size);
    }
    CT_CHECK(rc == ENOSPC, "create_withlog on a full device returned %d (%s): expected ENOSPC"
             " (or 0 where creating a log needs no space)", rc, ct_errname(rc));
#else
    NO_TRL();
#endif
}
