/* SPDX-License-Identifier: MIT */
/*
 * process.c -- tracing across processes: fork (XSH fork), exec (XSH exec),
 * process exit and termination (XSH _Exit, posix_trace_create; XBD 4.19), and
 * a trace id used in a child (XSH posix_trace_create).
 *
 * How the end of a controller is observed without TRL.  Without a trace log
 * the only portable trace of a stream that was not shut down is that it still
 * counts against {TRACE_SYS_MAX}, which is system-wide.  So a child creates as
 * many streams as it can (up to {TRACE_SYS_MAX}, starts them, records into
 * them) and then exits, is killed, or execs; afterwards another process (the
 * parent; after exec, the new image itself) must be able to create that many
 * streams again.  On an implementation whose limit is per process these tests
 * pass without telling much; they can fail only where streams are a shared
 * resource, which is where the rule matters.  After exec the new image also
 * checks that a trace id of the old image gives EINVAL.  The TRL halves of
 * these rules (the log is complete) belong to the TRL files.
 *
 * Exec needs the path of the running program.  ct.h does not expose argv[0],
 * so the tests use /proc/self/exe (or /proc/curproc/file, /proc/self/path/a.out)
 * and end UNTESTED where none exists.  The new image is this program, started
 * with CT_PROCESS_ROLE in its environment: a constructor of this file then
 * plays the role (before main) and reports on an inherited pipe.
 *
 * Portable: children end with _exit() unless exit() is the point.  The child
 * that must call exit() does it through the framework (see END_EXIT): ct.c's
 * exit guard would otherwise turn its exit() into _exit().  Tests that count
 * streams assume no other process of the system creates streams meanwhile.
 *
 * With TRI, the child of a process traced into a POSIX_TRACE_INHERITED stream
 * is traced too but is still no controller (child_trid_einval_inherited), a
 * traced child stays traced across exec whether it is traced by its pid or by
 * inheritance (exec_still_traced, exec_still_traced_tri), and the new image's
 * eventid_open of a name already mapped in the stream gives the stream's
 * identifier (exec_same_name_tri), and a controller that exits while its
 * child is still traced into its streams, and recording, has them shut down
 * all the same, the child unharmed (exit_shuts_down_child_traced: that child
 * outlives its parent, so the init process reaps it; the test waits for the
 * end of file of its pipe).
 *
 * Not tested here, and why:
 *   fork.inherited*, fork.close-for-child: TRI rules, in inherit.c.
 *   exec.mapping-not-inherited: not testable (catalogue).
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "ct.h"
#include "ct_stream.h"
#include "ct_exec.h"

/* ---- helpers ---------------------------------------------------------------------- */

static int has_data(const struct ct_ev *e, const char *s)
{
    return e->len == strlen(s) && memcmp(e->data, s, e->len) == 0;
}

static void write_ints(int fd, const int *v, int n)
{
    const char *p = (const char *)v;
    size_t left = (size_t)n * sizeof *v;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w <= 0)
            return;
        p += w;
        left -= (size_t)w;
    }
}

/* Reads n ints; returns how many whole ints arrived before EOF. */
static int read_ints(int fd, int *v, int n)
{
    char *p = (char *)v;
    size_t got = 0, want = (size_t)n * sizeof *v;
    while (got < want) {
        ssize_t r = read(fd, p + got, want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    return (int)(got / sizeof *v);
}

static void make_pipe(int p[2])
{
    if (pipe(p) != 0)
        CT_UNRESOLVED("pipe failed: %s", ct_errname(errno));
}

/* The path of this program, for exec; NULL if the system has no way to say. */
static const char *self_exe(void)
{
    static const char *const paths[] = { "/proc/self/exe", "/proc/curproc/file",
                                         "/proc/self/path/a.out" };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (access(paths[i], X_OK) == 0)
            return paths[i];
    return NULL;
}

static void hex_encode(const void *p, size_t n, char *out)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", c[i]);
    out[2 * n] = '\0';
}

static int hex_decode(const char *s, void *p, size_t n)
{
    unsigned char *c = p;
    if (strlen(s) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        c[i] = (unsigned char)v;
    }
    return 0;
}

/* How many streams the tests that count them use: {TRACE_SYS_MAX} when known
 * and not huge, else the minimum. */
static int stream_count(void)
{
    long max = ct_limit_trace_sys_max();
    if (max > 0 && max <= 1024)
        return (int)max;
    ct_note("{TRACE_SYS_MAX} is %ld: the test uses {_POSIX_TRACE_SYS_MAX} = %d streams and"
            " proves less", max, CT_MIN_TRACE_SYS_MAX);
    return CT_MIN_TRACE_SYS_MAX;
}

/* create_many's streams are INHERITED when set (TRI). */
static int many_inherited;

/* Creates up to want streams (small, started, one event each) and leaves them
 * active; returns how many; *rc is the error that stopped it (0: none).
 * Called in children: no CT_ macro. */
static int create_many(int want, int *rc, trace_id_t *first)
{
    trace_attr_t a;
    trace_event_id_t id;
    int k = 0;
    *rc = 0;
    if (posix_trace_attr_init(&a) != 0)
        return 0;
    (void)posix_trace_attr_setstreamsize(&a, 4096);
#if CT_HAVE_TRI
    if (many_inherited && (*rc = posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED)) != 0)
        return 0;
#endif
    if (posix_trace_eventid_open("ct-many", &id) != 0)
        id = POSIX_TRACE_START;     /* not recorded below if so */
    while (k < want) {
        trace_id_t t;
        *rc = posix_trace_create(0, &a, &t);
        if (*rc != 0)
            break;
        if (k == 0 && first)
            *first = t;
        (void)posix_trace_start(t);
        posix_trace_event(id, "many", 4);
        k++;
    }
    posix_trace_attr_destroy(&a);
    return k;
}

/* In the parent: n streams can be created again (EAGAIN is retried for up to
 * 200 ms: a process that has just ended may take a moment to be cleaned up). */
static void can_create_again(int n, const char *after)
{
    trace_attr_t a;
    trace_id_t *t = calloc((size_t)n, sizeof *t);
    if (t == NULL)
        CT_UNRESOLVED("out of memory");
    CT_SETUP_OK(posix_trace_attr_init(&a));
    (void)posix_trace_attr_setstreamsize(&a, 4096);
    int k = 0, rc = 0;
    for (int waited = 0; k < n;) {
        rc = posix_trace_create(0, &a, &t[k]);
        if (rc == 0) {
            k++;
            continue;
        }
        if (rc != EAGAIN || waited >= 200)
            break;
        ct_sleep_ms(10);
        waited += 10;
    }
    CT_CHECK(k == n, "after %s, this process could create only %d of the %d streams the"
             " controller held (then %s): its streams were not shut down", after, k, n,
             ct_errname(rc));
    for (int i = 0; i < k; i++)
        CT_CHECK_OK(posix_trace_shutdown(t[i]));
    free(t);
}

/* ---- roles played by a new image after exec (before main) ------------------------------ */

/* "shutdown": the old image's streams are gone: its trid gives EINVAL and
 * CT_PROCESS_COUNT streams can be created.  Reports 3 ints: get_status's
 * answer for the old trid, streams created, the error that stopped it. */
static void role_after_exec_shutdown(int fd)
{
    int out[3] = { -1, 0, 0 };
    trace_id_t old;
    struct posix_trace_status_info st;
    const char *hex = getenv("CT_PROCESS_TRID");
    const char *cnt = getenv("CT_PROCESS_COUNT");
    int want = cnt ? atoi(cnt) : 0;
    if (hex && hex_decode(hex, &old, sizeof old) == 0)
        out[0] = posix_trace_get_status(old, &st);
    out[1] = create_many(want, &out[2], NULL);
    write_ints(fd, out, 3);
}

/* "record": record an event from the new image (still traced). */
static void role_after_exec_record(int fd)
{
    trace_event_id_t id;
    int out[1] = { posix_trace_eventid_open("ct-exec-image", &id) };
    if (out[0] == 0)
        posix_trace_event(id, "exec-image", 10);
    write_ints(fd, out, 1);
}

CT_CONSTRUCTOR static void process_role(void)
{
    const char *role = getenv("CT_PROCESS_ROLE");
    const char *fds = getenv("CT_PROCESS_FD");
    if (role == NULL || fds == NULL)
        return;
    int fd = atoi(fds);
    if (strcmp(role, "shutdown") == 0)
        role_after_exec_shutdown(fd);
    else if (strcmp(role, "record") == 0)
        role_after_exec_record(fd);
    _exit(0);
}

/* In a child: exec this program to play role, reporting on fd.  Returns only
 * if exec failed (errno). */
static void exec_role(const char *exe, const char *role, int fd)
{
    char fdbuf[16];
    snprintf(fdbuf, sizeof fdbuf, "%d", fd);
    setenv("CT_PROCESS_ROLE", role, 1);
    setenv("CT_PROCESS_FD", fdbuf, 1);
    char *argv[] = { (char *)"ct-process-role", NULL };
    ct_execv(exe, argv);     /* through the test wrapper, if any */
}

/* ---- a trace id in a child --------------------------------------------------------------- */

CT_TEST(child_trid_einval, "create.EINVAL-child-trid", "TRC",
        "posix_trace_create,posix_trace_get_status,posix_trace_start,posix_trace_stop,"
        "posix_trace_clear,posix_trace_shutdown,fork")
{
    static const char *const calls[5] = { "get_status", "stop", "clear", "start",
                                          "shutdown" };
    trace_id_t trid;
    int p[2], rc[5], st;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        struct posix_trace_status_info si;
        int out[5];
        close(p[0]);
        out[0] = posix_trace_get_status(trid, &si);
        out[1] = posix_trace_stop(trid);
        out[2] = posix_trace_clear(trid);
        out[3] = posix_trace_start(trid);
        out[4] = posix_trace_shutdown(trid);
        write_ints(p[1], out, 5);
        _exit(0);
    }
    close(p[1]);
    int n = read_ints(p[0], rc, 5);
    waitpid(pid, &st, 0);
    if (n != 5)
        CT_UNRESOLVED("the child reported %d of 5 results and ended with %s", n,
                      ct_wait_status(st));
    for (int i = 0; i < 5; i++)
        CT_CHECK(rc[i] == EINVAL, "in a child made by fork, %s with the parent's trid returned"
                 " %d (%s), expected EINVAL", calls[i], rc[i], ct_errname(rc[i]));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* S0094 covers every function of POSIX.1-2008 that takes the trid, not only
 * the controlling ones: in a child, the readers, the getters, the event type
 * list and (TEF) the filter and trid_eventid_open, and (TRL) flush of the
 * parent's stream with log, fail with EINVAL; the parent's stream has events
 * in it, so that a reader that wrongly found the stream would return one
 * (never block).  Afterwards the parent's stream is as before: none of its
 * events consumed, its filter unchanged. */
#define CHILD_CALLS 14
CT_TEST(child_trid_einval_all, "create.EINVAL-child-trid", "TRC",
        "posix_trace_create,posix_trace_get_attr,posix_trace_eventid_get_name,"
        "posix_trace_eventtypelist_getnext_id,posix_trace_eventtypelist_rewind,"
        "posix_trace_getnext_event,posix_trace_timedgetnext_event,"
        "posix_trace_trygetnext_event,posix_trace_get_filter,posix_trace_set_filter,"
        "posix_trace_trid_eventid_open,posix_trace_flush,fork")
{
    static const char *const calls[CHILD_CALLS] = {
        "get_attr", "eventid_get_name", "eventtypelist_getnext_id", "eventtypelist_rewind",
        "trygetnext_event", "timedgetnext_event", "getnext_event", "get_filter",
        "set_filter(SET_EVENTSET)", "set_filter(ADD_EVENTSET)", "set_filter(SUB_EVENTSET)",
        "trid_eventid_open", "flush (a stream with log)", "get_status (a stream with log)" };
    trace_id_t trid, logged;
    trace_event_id_t id = ct_open_id("ct-child-all");
    memset(&logged, 0, sizeof logged);
    int p[2], rc[CHILD_CALLS], st, tef = 0, trl = 0, fd = -1;
#if CT_HAVE_TEF
    tef = ct_option("TEF");
#endif
#if CT_HAVE_TRL
    trl = ct_option("TRL");
    char path[] = "/tmp/ct-child-all-XXXXXX";
    if (trl) {
        fd = mkstemp(path);
        if (fd < 0)
            CT_UNRESOLVED("mkstemp(%s) failed: %s", path, ct_errname(errno));
        unlink(path);
        CT_SETUP_OK(posix_trace_create_withlog(0, NULL, fd, &logged));
    }
#endif
    trid = ct_new_stream(NULL, 1);
    posix_trace_event(id, "kept", 4);
    CT_SETUP_OK(posix_trace_stop(trid));
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        int out[CHILD_CALLS];
        trace_attr_t a;
        trace_event_id_t got;
        char name[CT_EVENT_NAME_BUF];
        struct ct_rec r;
        int unavailable;
        struct timespec past = { 0, 0 };
        close(p[0]);
        for (int i = 0; i < CHILD_CALLS; i++)
            out[i] = -1;            /* not tried: the option is not supported */
        out[0] = posix_trace_attr_init(&a) ? -2 : posix_trace_get_attr(trid, &a);
        out[1] = posix_trace_eventid_get_name(trid, POSIX_TRACE_START, name);
        out[2] = posix_trace_eventtypelist_getnext_id(trid, &got, &unavailable);
        out[3] = posix_trace_eventtypelist_rewind(trid);
        out[4] = posix_trace_trygetnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                              &unavailable);
        out[5] = posix_trace_timedgetnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                                &unavailable, &past);
        out[6] = posix_trace_getnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                           &unavailable);
#if CT_HAVE_TEF
        if (tef) {
            trace_event_set_t s;
            out[7] = posix_trace_get_filter(trid, &s);
            if (posix_trace_eventset_empty(&s) != 0 || posix_trace_eventset_add(id, &s) != 0) {
                out[8] = out[9] = out[10] = -2;
            } else {
                out[8] = posix_trace_set_filter(trid, &s, POSIX_TRACE_SET_EVENTSET);
                out[9] = posix_trace_set_filter(trid, &s, POSIX_TRACE_ADD_EVENTSET);
                out[10] = posix_trace_set_filter(trid, &s, POSIX_TRACE_SUB_EVENTSET);
            }
            out[11] = posix_trace_trid_eventid_open(trid, "ct-child-all.child", &got);
        }
#endif
#if CT_HAVE_TRL
        if (trl) {
            struct posix_trace_status_info si;
            out[12] = posix_trace_flush(logged);
            out[13] = posix_trace_get_status(logged, &si);
        }
#endif
        write_ints(p[1], out, CHILD_CALLS);
        _exit(0);
    }
    close(p[1]);
    int n = read_ints(p[0], rc, CHILD_CALLS);
    waitpid(pid, &st, 0);
    if (n != CHILD_CALLS)
        CT_UNRESOLVED("the child reported %d of %d results and ended with %s", n, CHILD_CALLS,
                      ct_wait_status(st));
    for (int i = 0; i < CHILD_CALLS; i++) {
        if (rc[i] == -1 && ((i >= 7 && i <= 11 && !tef) || (i >= 12 && !trl)))
            continue;
        if (rc[i] == -2)
            CT_UNRESOLVED("the child could not set up the call to %s", calls[i]);
        CT_CHECK(rc[i] == EINVAL, "in a child made by fork, %s with the parent's trid returned"
                 " %d (%s), expected EINVAL", calls[i], rc[i], ct_errname(rc[i]));
    }

    /* The parent's stream lost nothing to the child's calls. */
    struct ct_rec r;
    int found = 0;
    while (!found && ct_next_event(trid, &r))
        found = posix_trace_eventid_equal(trid, r.info.posix_event_id, id) && r.len == 4 &&
                memcmp(r.data, "kept", 4) == 0;
    CT_CHECK(found, "after the child's failed calls, the event the parent recorded before the"
             " fork is no longer in its stream");
#if CT_HAVE_TEF
    if (tef) {
        trace_event_set_t s;
        int member = -1;
        CT_CHECK_OK(posix_trace_get_filter(trid, &s));
        CT_CHECK_OK(posix_trace_eventset_ismember(id, &s, &member));
        CT_CHECK(member == 0, "the child's failed set_filter calls put the user event in the"
                 " parent's filter");
    }
#endif
    CT_CHECK_OK(posix_trace_shutdown(trid));
    if (fd >= 0) {
        CT_CHECK_OK(posix_trace_shutdown(logged));
        close(fd);
    }
}

CT_TEST(child_trid_einval_inherited, "create.EINVAL-child-trid,fork.child-not-controller",
        "TRC,TRI", "posix_trace_attr_setinherited,posix_trace_create,posix_trace_get_status,"
        "posix_trace_start,posix_trace_stop,posix_trace_clear,posix_trace_shutdown,fork")
{
#if CT_HAVE_TRI
    /* The child is traced into the stream (INHERITED) but does not control it. */
    static const char *const calls[5] = { "get_status", "stop", "clear", "start",
                                          "shutdown" };
    if (!ct_option("TRI"))
        CT_UNSUPPORTED("TRI is not supported at run time");
    trace_attr_t a;
    trace_id_t trid;
    trace_event_id_t id = ct_open_id("ct-parent");
    int p[2], rc[6], st;
    struct posix_trace_status_info si;
    struct ct_ev v[64];
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED));
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "before", 6);
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        int out[6];
        close(p[0]);
        out[0] = posix_trace_get_status(trid, &si);
        out[1] = posix_trace_stop(trid);
        out[2] = posix_trace_clear(trid);
        out[3] = posix_trace_start(trid);
        out[4] = posix_trace_shutdown(trid);
        posix_trace_event(id, "child", 5);
        out[5] = 1;
        write_ints(p[1], out, 6);
        _exit(0);
    }
    close(p[1]);
    int n = read_ints(p[0], rc, 6);
    waitpid(pid, &st, 0);
    if (n != 6)
        CT_UNRESOLVED("the child reported %d of 6 results and ended with %s", n,
                      ct_wait_status(st));
    CT_RULE("create.EINVAL-child-trid");
    for (int i = 0; i < 5; i++)
        CT_CHECK(rc[i] == EINVAL, "in a child made by fork and traced into its parent's"
                 " POSIX_TRACE_INHERITED stream, %s with the parent's trid returned %d (%s),"
                 " expected EINVAL", calls[i], rc[i], ct_errname(rc[i]));
    CT_RULE("fork.child-not-controller");
    CT_CHECK_OK(posix_trace_get_status(trid, &si));
    CT_CHECK(si.posix_stream_status == POSIX_TRACE_RUNNING, "the parent's stream is %s after"
             " its traced child's stop and shutdown, expected RUNNING",
             ct_state_name(si.posix_stream_status));
    posix_trace_event(id, "after", 5);
    size_t m = ct_drain(trid, v, 64), before = 0, after = 0, child = 0, stops = 0;
    for (size_t i = 0; i < m && i < 64; i++) {
        before += ct_is_event(trid, &v[i], id) && has_data(&v[i], "before");
        after += ct_is_event(trid, &v[i], id) && has_data(&v[i], "after");
        child += has_data(&v[i], "child");
        stops += ct_is_event(trid, &v[i], POSIX_TRACE_STOP);
    }
    CT_CHECK(before == 1 && after == 1 && stops == 0, "the parent's stream holds %zu of the"
             " event recorded before the fork (cleared by the child?), %zu of the one after"
             " (still recording?) and %zu STOP events (expected 1, 1, 0)", before, after,
             stops);
    if (child != 1)
        ct_note("the event the child recorded after its calls is in the stream %zu times"
                " (fork.inherited says 1)", child);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    CT_UNSUPPORTED("built without TRI: <trace.h> defines _POSIX_TRACE_INHERIT as -1");
#endif
}

/* ---- fork -------------------------------------------------------------------------------- */

CT_TEST(child_not_controller, "fork.child-not-controller", "TRC",
        "posix_trace_start,posix_trace_stop,posix_trace_clear,posix_trace_shutdown,"
        "posix_trace_get_status,fork")
{
    trace_id_t run, susp;
    trace_event_id_t id = ct_open_id("ct-parent");
    int p[2], rc[5], st;
    struct posix_trace_status_info si;
    struct ct_ev v[64];
    CT_SETUP_OK(posix_trace_create(0, NULL, &run));
    CT_SETUP_OK(posix_trace_create(0, NULL, &susp));
    CT_SETUP_OK(posix_trace_start(run));
    posix_trace_event(id, "before", 6);
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        int out[5];
        close(p[0]);
        out[0] = posix_trace_stop(run);
        out[1] = posix_trace_clear(run);
        out[2] = posix_trace_shutdown(run);
        out[3] = posix_trace_start(susp);
        out[4] = posix_trace_shutdown(susp);
        write_ints(p[1], out, 5);
        _exit(0);
    }
    close(p[1]);
    int n = read_ints(p[0], rc, 5);
    waitpid(pid, &st, 0);
    if (n != 5)
        CT_UNRESOLVED("the child reported %d of 5 results and ended with %s", n,
                      ct_wait_status(st));
    static const char *const calls[5] = { "stop", "clear", "shutdown", "start", "shutdown" };
    for (int i = 0; i < 5; i++)
        CT_CHECK(rc[i] != 0, "the child's %s with its parent's trid succeeded: the child of a"
                 " controller does not control its parent's streams", calls[i]);
    /* The parent's streams are as they were. */
    CT_CHECK_OK(posix_trace_get_status(run, &si));
    CT_CHECK(si.posix_stream_status == POSIX_TRACE_RUNNING, "the parent's running stream is"
             " %d after its child's stop, expected POSIX_TRACE_RUNNING",
             si.posix_stream_status);
    CT_CHECK_OK(posix_trace_get_status(susp, &si));
    CT_CHECK(si.posix_stream_status == POSIX_TRACE_SUSPENDED, "the parent's suspended stream"
             " is %d after its child's start, expected POSIX_TRACE_SUSPENDED",
             si.posix_stream_status);
    posix_trace_event(id, "after", 5);
    size_t m = ct_drain(run, v, 64), before = 0, after = 0, stops = 0;
    for (size_t i = 0; i < m && i < 64; i++) {
        before += ct_is_event(run, &v[i], id) && has_data(&v[i], "before");
        after += ct_is_event(run, &v[i], id) && has_data(&v[i], "after");
        stops += ct_is_event(run, &v[i], POSIX_TRACE_STOP);
    }
    CT_CHECK(before == 1 && after == 1 && stops == 0, "the parent's stream holds %zu of the"
             " event recorded before the fork (cleared?), %zu of the one after (still"
             " recording?) and %zu STOP events (expected 1, 1, 0)", before, after, stops);
    m = ct_drain(susp, v, 64);
    for (size_t i = 0; i < m && i < 64; i++)
        CT_CHECK(!ct_is_event(susp, &v[i], POSIX_TRACE_START), "the child's start recorded a"
                 " START in the parent's suspended stream");
    CT_CHECK_OK(posix_trace_shutdown(run));
    CT_CHECK_OK(posix_trace_shutdown(susp));
}

CT_TEST(not_traced_without_tri, "fork.not-traced-without-tri", "TRC",
        "posix_trace_event,posix_trace_trygetnext_event,fork")
{
    if (ct_option("TRI"))
        CT_UNSUPPORTED("TRI is supported: a child may be traced (inheritance policy);"
                       " fork.close-for-child covers that case");
    trace_id_t t[2];
    trace_event_id_t id = ct_open_id("ct-fork");
    int p[2], st, done;
    struct ct_ev v[64];
    for (int k = 0; k < 2; k++) {
        CT_SETUP_OK(posix_trace_create(0, NULL, &t[k]));
        CT_SETUP_OK(posix_trace_start(t[k]));
    }
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        trace_event_id_t own;
        int out = 1;
        close(p[0]);
        posix_trace_event(id, "child", 5);
        if (posix_trace_eventid_open("ct-fork-child", &own) == 0)
            posix_trace_event(own, "child", 5);
        write_ints(p[1], &out, 1);
        _exit(0);
    }
    close(p[1]);
    int n = read_ints(p[0], &done, 1);
    waitpid(pid, &st, 0);
    if (n != 1)
        CT_UNRESOLVED("the child ended with %s before recording", ct_wait_status(st));
    posix_trace_event(id, "parent", 6);
    for (int k = 0; k < 2; k++) {
        size_t m = ct_drain(t[k], v, 64), parent = 0;
        for (size_t i = 0; i < m && i < 64; i++) {
            CT_CHECK(v[i].info.posix_pid != pid && !has_data(&v[i], "child"),
                     "stream %d of the parent holds an event of its child (pid %ld, %zu"
                     " bytes): without TRI a child is traced into none of them", k + 1,
                     (long)v[i].info.posix_pid, v[i].len);
            parent += ct_is_event(t[k], &v[i], id) && has_data(&v[i], "parent");
        }
        CT_CHECK(parent == 1, "stream %d holds %zu copies of the parent's event recorded after"
                 " the child ended, expected 1", k + 1, parent);
        CT_CHECK_OK(posix_trace_shutdown(t[k]));
    }
}

/* ---- exit, _exit, _Exit, termination ----------------------------------------------------- */

enum ending { END_EXIT, END__EXIT, END__EXIT_C99, END_KILL };

static void controller_ends(enum ending how, const char *what)
{
    int want = stream_count(), p[2], got[2], st;
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        int out[2];
        close(p[0]);
        out[0] = create_many(want, &out[1], NULL);
        write_ints(p[1], out, 2);
        close(p[1]);
        switch (how) {
        case END_EXIT: {
            /* A plain exit() here would meet the framework's exit guard, which
             * (in a forked child too) ends the process with _exit() before
             * the implementation's exit-time work can run.  Ending the
             * "test" through the framework calls exit() with the guard
             * disarmed; its RESULT line goes to /dev/null. */
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0)
                dup2(null, STDOUT_FILENO);
            CT_UNTESTED("child of exit_shuts_down: ends with exit()");
        }
        case END__EXIT:
            _exit(0);
        case END__EXIT_C99:
            _Exit(0);
        case END_KILL:
            raise(SIGKILL);
            _exit(1);
        }
        _exit(1);
    }
    close(p[1]);
    int n = read_ints(p[0], got, 2);
    waitpid(pid, &st, 0);
    if (n != 2)
        CT_UNRESOLVED("the child ended with %s before reporting", ct_wait_status(st));
    if (got[0] == 0)
        CT_UNRESOLVED("the child could not create a stream: %s", ct_errname(got[1]));
    if (how == END_KILL && !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL))
        CT_UNRESOLVED("the child was not killed by SIGKILL (%s)", ct_wait_status(st));
    ct_note("the child held %d streams (wanted %d; %s) when it ended by %s", got[0], want,
            got[1] ? ct_errname(got[1]) : "no error", what);
    can_create_again(got[0], what);
}

CT_TEST(exit_shuts_down, "exit.shuts-down", "TRC", "posix_trace_create,exit")
{
    controller_ends(END_EXIT, "exit()");
}

CT_TEST(underscore_exit_shuts_down, "exit.shuts-down", "TRC", "posix_trace_create,_exit")
{
    controller_ends(END__EXIT, "_exit()");
}

CT_TEST(c99_exit_shuts_down, "exit.shuts-down", "TRC", "posix_trace_create,_Exit")
{
    controller_ends(END__EXIT_C99, "_Exit()");
}

CT_TEST(killed_shuts_down, "exit.terminated-shuts-down", "TRC", "posix_trace_create")
{
    controller_ends(END_KILL, "SIGKILL");
}

#if CT_HAVE_TRI
/* In the traced grandchild of exit_shuts_down_child_traced: records until the
 * test says (a byte on in) that the controller has ended, then records 100
 * events more (after the shutdown), reports on out how many it recorded
 * after the word, and waits for the end of file of in (at most 5 s each). */
static void record_across_exit(int in, int out)
{
    trace_event_id_t id;
    char c;
    int after = 0;
    if (posix_trace_eventid_open("ct-alive", &id) != 0)
        id = POSIX_TRACE_START;
    for (int ms = 0; ms < 5000; ms++) {
        struct pollfd pf = { in, POLLIN, 0 };
        if (poll(&pf, 1, 1) > 0)
            break;
        posix_trace_event(id, "before", 6);
    }
    if (read(in, &c, 1) != 1)
        return;
    for (; after < 100; after++)
        posix_trace_event(id, "after", 5);
    write_ints(out, &after, 1);
    struct pollfd pf = { in, POLLIN, 0 };
    (void)poll(&pf, 1, 5000);
}
#endif

CT_TEST(exit_shuts_down_child_traced, "exit.shuts-down", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_create,posix_trace_event,exit,fork")
{
#if CT_HAVE_TRI
    /* The controller's streams are INHERITED and its child is still traced
     * into them, and recording, when the controller ends: they are shut down
     * all the same (they no longer count against {TRACE_SYS_MAX}), and the
     * child's events after that have no effect and do it no harm. */
    if (!ct_option("TRI"))
        CT_UNSUPPORTED("TRI is not supported at run time");
    int want = stream_count(), p[2], q[2], got[3], st, after = -1;
    signal(SIGPIPE, SIG_IGN);       /* a grandchild that died: EPIPE, not death */
    make_pipe(p);
    make_pipe(q);
    pid_t pid = ct_fork();
    if (pid == 0) {
        int out[3] = { 0, 0, -1 };
        close(p[0]);
        close(q[1]);
        many_inherited = 1;
        out[0] = create_many(want, &out[1], NULL);
        fflush(stdout);
        pid_t g = fork();
        if (g == 0) {
            record_across_exit(q[0], p[1]);
            _exit(0);
        }
        out[2] = g > 0 ? (int)g : -errno;
        write_ints(p[1], out, 3);
        /* exit(), through the framework (see controller_ends). */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, STDOUT_FILENO);
        CT_UNTESTED("controller of exit_shuts_down_child_traced: ends with exit()");
    }
    close(p[1]);
    close(q[0]);
    int n = read_ints(p[0], got, 3);
    waitpid(pid, &st, 0);
    if (n != 3)
        CT_UNRESOLVED("the controller ended with %s before reporting", ct_wait_status(st));
    if (got[0] == 0)
        CT_UNRESOLVED("the controller could not create a stream: %s", ct_errname(got[1]));
    if (got[2] <= 0)
        CT_UNRESOLVED("the controller could not fork: %s", ct_errname(-got[2]));
    ct_note("the controller held %d INHERITED streams and its traced child %d recorded into"
            " them when it ended by exit()", got[0], got[2]);
    /* The grandchild is not this process's child (the init process reaps
     * it): it ends on the end of file of q, at the latest when this test
     * ends; the end of file of p says it has. */
    n = write(q[1], "g", 1) == 1 ? read_ints(p[0], &after, 1) : 0;
    CT_CHECK(n == 1 && after == 100, "the controller's traced child, still alive, did not"
             " report the 100 events it recorded after the controller ended (%s): recording"
             " into streams that were shut down has no effect, and does the process no harm",
             n == 1 ? "it reported another count" : "it died");
    can_create_again(got[0], "exit() of a controller whose traced child lives on");
    close(q[1]);
    (void)read_ints(p[0], &after, 1);   /* end of file: the grandchild has ended */
    close(p[0]);
#else
    CT_UNSUPPORTED("built without TRI: <trace.h> defines _POSIX_TRACE_INHERIT as -1");
#endif
}

/* ---- exec -------------------------------------------------------------------------------- */

CT_TEST(exec_shuts_down, "exec.shuts-down", "TRC", "posix_trace_create,execv")
{
    const char *exe = self_exe();
    if (exe == NULL)
        CT_UNTESTED("no way to name the running program for exec (no /proc/self/exe or the"
                    " like; ct.h does not pass argv[0])");
    int want = stream_count(), p[2], got[5], st;
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        int out[2];
        trace_id_t first;
        char hex[2 * sizeof first + 1], cnt[16];
        close(p[0]);
        out[0] = create_many(want, &out[1], &first);
        write_ints(p[1], out, 2);
        hex_encode(&first, sizeof first, hex);
        snprintf(cnt, sizeof cnt, "%d", out[0]);
        setenv("CT_PROCESS_TRID", hex, 1);
        setenv("CT_PROCESS_COUNT", cnt, 1);
        exec_role(exe, "shutdown", p[1]);
        int fail[3] = { -2, errno, 0 };
        write_ints(p[1], fail, 3);
        _exit(127);
    }
    close(p[1]);
    int n = read_ints(p[0], got, 5);
    waitpid(pid, &st, 0);
    if (n < 2)
        CT_UNRESOLVED("the child ended with %s before reporting", ct_wait_status(st));
    if (got[0] == 0)
        CT_UNRESOLVED("the child could not create a stream: %s", ct_errname(got[1]));
    if (n != 5)
        CT_UNRESOLVED("the new image reported %d of 3 results and ended with %s", n - 2,
                      ct_wait_status(st));
    if (got[2] == -2)
        CT_UNRESOLVED("exec of %s failed: %s", exe, ct_errname(got[3]));
    ct_note("the controller held %d streams when it called exec", got[0]);
    CT_CHECK(got[2] == EINVAL, "in the new image, get_status with a trid of the old image"
             " returned %d (%s), expected EINVAL: the streams of a controller that execs are"
             " shut down", got[2], ct_errname(got[2]));
    CT_CHECK(got[3] == got[0], "the new image could create only %d of the %d streams the old"
             " image held (then %s): they were not shut down by exec", got[3], got[0],
             ct_errname(got[4]));
}

/* Checks that stream trid holds, from process pid, the event recorded before
 * exec (else UNRESOLVED: the process was not traced) and the one recorded by
 * the new image.  With image_id (TRI), the new image's event must be of that
 * type instead (else UNRESOLVED if it is missing). */
static void traced_across_exec(trace_id_t trid, pid_t pid, const trace_event_id_t *image_id)
{
    struct ct_ev v[64];
    size_t m = ct_drain(trid, v, 64), before = 0, after = 0;
    const struct ct_ev *image = NULL;
    for (size_t i = 0; i < m && i < 64; i++) {
        if (v[i].info.posix_pid != pid)
            continue;
        before += has_data(&v[i], "before-exec");
        if (has_data(&v[i], "exec-image")) {
            after++;
            image = &v[i];
        }
    }
    if (before != 1)
        CT_UNRESOLVED("the event the child recorded before exec is there %zu times: the child"
                      " was not traced to begin with", before);
    if (image_id == NULL) {
        CT_CHECK(after == 1, "the event the new image recorded after exec is in the stream %zu"
                 " times, expected once: a traced process stays traced across exec", after);
    } else {
        if (after != 1)
            CT_UNRESOLVED("the event the new image recorded after exec is in the stream %zu"
                          " times (exec.still-traced says once)", after);
        CT_CHECK(posix_trace_eventid_equal(trid, image->info.posix_event_id, *image_id),
                 "the new image's eventid_open(\"ct-exec-image\") gave identifier %s (read"
                 " from its event), not the %s the parent has for that name in the same"
                 " POSIX_TRACE_INHERITED stream: a name already mapped for the processes"
                 " traced into a stream keeps its identifier",
                 CT_HEX(image->info.posix_event_id), CT_HEX(*image_id));
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* In a child: record an event, then exec the "record" role. */
static void child_records_and_execs(const char *exe, int fd)
{
    trace_event_id_t id;
    if (posix_trace_eventid_open("ct-before-exec", &id) == 0)
        posix_trace_event(id, "before-exec", 11);
    exec_role(exe, "record", fd);
    _exit(127);
}

/* Waits for the new image's report on fd; UNRESOLVED unless it recorded. */
static void wait_for_image(int fd, pid_t pid)
{
    int got[1], st;
    int n = read_ints(fd, got, 1);
    waitpid(pid, &st, 0);
    if (n != 1)
        CT_UNRESOLVED("the new image did not report (exec failed?); the child ended with %s",
                      ct_wait_status(st));
    if (got[0] != 0)
        CT_UNRESOLVED("eventid_open in the new image returned %s", ct_errname(got[0]));
}

static const char *exe_or_untested(void)
{
    const char *exe = self_exe();
    if (exe == NULL)
        CT_UNTESTED("no way to name the running program for exec (no /proc/self/exe or the"
                    " like; ct.h does not pass argv[0])");
    return exe;
}

#if CT_HAVE_TRI
/* With TRI: the child is traced by inheritance (ruling 4: INHERITED).  With
 * same_name, the parent opens the new image's name after the fork, before it
 * lets the child go on: the name is mapped in the stream, not in the child's
 * inherited mapping; the parent opens two other names first, so a new image
 * numbering its names afresh or apart from the stream would number it unlike
 * the parent. */
static void still_traced_tri(const char *exe, int same_name)
{
    trace_attr_t a;
    trace_id_t trid;
    trace_event_id_t image_id;
    int p[2], go[2];
    char c;
    if (!ct_option("TRI"))
        CT_UNSUPPORTED("TRI is not supported at run time");
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED));
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    make_pipe(p);
    make_pipe(go);
    pid_t pid = ct_fork();
    if (pid == 0) {
        close(p[0]);
        close(go[1]);
        if (read(go[0], &c, 1) != 1 || c != 'r')
            _exit(0);
        child_records_and_execs(exe, p[1]);
    }
    close(p[1]);
    close(go[0]);
    if (same_name) {
        /* Two names first: the new image's is not the first name of the
         * stream, nor the first the parent opened after the fork. */
        (void)ct_open_id("ct-exec-parent-1");
        (void)ct_open_id("ct-exec-parent-2");
        image_id = ct_open_id("ct-exec-image");
    }
    CT_SETUP_OK(write(go[1], "r", 1) == 1 ? 0 : errno);
    close(go[1]);
    wait_for_image(p[0], pid);
    traced_across_exec(trid, pid, same_name ? &image_id : NULL);
}
#endif

CT_TEST(exec_still_traced, "exec.still-traced", "TRC",
        "posix_trace_create,posix_trace_event,posix_trace_trygetnext_event,execv")
{
    const char *exe = exe_or_untested();
    int go[2], p[2], st;
    char c;
    trace_id_t trid;
    make_pipe(go);
    make_pipe(p);
    pid_t pid = ct_fork();
    if (pid == 0) {
        close(go[1]);
        close(p[0]);
        if (read(go[0], &c, 1) != 1 || c != 'r')
            _exit(0);
        child_records_and_execs(exe, p[1]);
    }
    close(go[0]);
    close(p[1]);
    /* Trace the child by its pid (TRC); EPERM: this implementation traces
     * only the caller (exec_still_traced_tri traces a child by inheritance). */
    int rc = posix_trace_create(pid, NULL, &trid);
    if (rc != 0) {
        close(go[1]);
        waitpid(pid, &st, 0);
        if (rc == EPERM)
            CT_UNSUPPORTED("create for a child's pid returned EPERM: no process other than"
                           " the caller can be traced by its pid here");
        CT_UNRESOLVED("create for the child's pid returned %s", ct_errname(rc));
    }
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(write(go[1], "r", 1) == 1 ? 0 : errno);
    wait_for_image(p[0], pid);
    traced_across_exec(trid, pid, NULL);
}

CT_TEST(exec_still_traced_tri, "exec.still-traced", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_create,posix_trace_event,"
        "posix_trace_trygetnext_event,fork,execv")
{
#if CT_HAVE_TRI
    still_traced_tri(exe_or_untested(), 0);
#else
    CT_UNSUPPORTED("built without TRI: <trace.h> defines _POSIX_TRACE_INHERIT as -1");
#endif
}

CT_TEST(exec_same_name_tri, "eventid_open.same-name-same-id-tri", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_eventid_open,posix_trace_eventid_equal,"
        "fork,execv")
{
#if CT_HAVE_TRI
    still_traced_tri(exe_or_untested(), 1);
#else
    CT_UNSUPPORTED("built without TRI: <trace.h> defines _POSIX_TRACE_INHERIT as -1");
#endif
}
