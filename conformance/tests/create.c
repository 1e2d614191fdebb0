/* SPDX-License-Identifier: MIT */
/*
 * create.c -- posix_trace_create() (XSH posix_trace_create): the stream it
 * makes, its attributes, its trace id, its errors; and one attributes object
 * used for several streams (XSH posix_trace_attr_destroy).
 *
 * Portable: attribute defaults, sizes and the clock are read from the
 * implementation; the creation time is compared with CLOCK_REALTIME readings
 * around the call (ruling 11), widened by the clock resolution.  Events are
 * told apart with posix_trace_eventid_equal(), never by value, and no
 * system event beyond those the specification requires is assumed.
 *
 * Not tested here, and why:
 *   create.EINTR   not testable (catalogue); create.ENOMEM: memory.c.
 *   create.EINVAL-child-trid      process.c (fork).
 *   create.EINVAL-flush-policy    a TRL rule; the FLUSH case is also one of
 *                                 the create.EINVAL-attr tests here.
 *   create.EAGAIN, create.several-streams assume that no other process of the
 *   system holds streams while the test runs: {TRACE_SYS_MAX} is system-wide.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "ct.h"
#include "ct_stream.h"

/* ---- helpers -------------------------------------------------------------------- */

/* The stream's posix_stream_status. */
static int status_of(trace_id_t trid)
{
    return ct_status(trid).posix_stream_status;
}

/* The attributes of a stream, read into a's fields we compare. */
struct snap {
    char name[CT_NAME_BUF];
    char version[CT_NAME_BUF];
    struct timespec res;
    size_t streamsize, maxdata;
    int policy;
#if CT_HAVE_TRI
    int inherit;
#endif
};

static void snap_of(trace_id_t trid, struct snap *s)
{
    trace_attr_t sa;
    memset(s, 0, sizeof *s);
    CT_SETUP_OK(posix_trace_attr_init(&sa));
    CT_CHECK_OK(posix_trace_get_attr(trid, &sa));
    CT_CHECK_OK(posix_trace_attr_getname(&sa, s->name));
    CT_CHECK_OK(posix_trace_attr_getgenversion(&sa, s->version));
    CT_CHECK_OK(posix_trace_attr_getclockres(&sa, &s->res));
    CT_CHECK_OK(posix_trace_attr_getstreamsize(&sa, &s->streamsize));
    CT_CHECK_OK(posix_trace_attr_getmaxdatasize(&sa, &s->maxdata));
    CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&sa, &s->policy));
#if CT_HAVE_TRI
    if (ct_option("TRI"))
        CT_CHECK_OK(posix_trace_attr_getinherited(&sa, &s->inherit));
#endif
    CT_CHECK_OK(posix_trace_attr_destroy(&sa));
}

/* FAILs with a message naming the first attribute that differs. */
static void snap_same(const struct snap *a, const struct snap *b, const char *what)
{
    CT_CHECK(strcmp(a->name, b->name) == 0, "%s: trace-name \"%.40s\" vs \"%.40s\"", what,
             a->name, b->name);
    CT_CHECK(strcmp(a->version, b->version) == 0,
             "%s: generation-version \"%.40s\" vs \"%.40s\"", what, a->version, b->version);
    CT_CHECK(a->res.tv_sec == b->res.tv_sec && a->res.tv_nsec == b->res.tv_nsec,
             "%s: clock-resolution %lld.%09ld vs %lld.%09ld", what, (long long)a->res.tv_sec,
             a->res.tv_nsec, (long long)b->res.tv_sec, b->res.tv_nsec);
    CT_CHECK(a->streamsize == b->streamsize, "%s: stream-min-size %zu vs %zu", what,
             a->streamsize, b->streamsize);
    CT_CHECK(a->maxdata == b->maxdata, "%s: max-data-size %zu vs %zu", what, a->maxdata,
             b->maxdata);
    CT_CHECK(a->policy == b->policy, "%s: stream-full-policy %d vs %d", what, a->policy,
             b->policy);
#if CT_HAVE_TRI
    CT_CHECK(a->inherit == b->inherit, "%s: inheritance %d vs %d", what, a->inherit,
             b->inherit);
#endif
}

static int other_policy(int p)
{
    return p == POSIX_TRACE_LOOP ? POSIX_TRACE_UNTIL_FULL : POSIX_TRACE_LOOP;
}

static long long ns_of(const struct timespec *t)
{
    return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* ---- one attributes object, several streams ------------------------------------- */

CT_TEST(multiple_create, "attr_init.multiple-create", "TRC",
        "posix_trace_attr_init,posix_trace_create,posix_trace_get_attr,posix_trace_start,"
        "posix_trace_get_status")
{
    trace_attr_t a;
    trace_id_t t[3];
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setname(&a, "ct-multi"));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL));
    for (int i = 0; i < 3; i++)
        CT_CHECK_OK(posix_trace_create(0, &a, &t[i]));
    for (int i = 0; i < 3; i++) {
        struct snap s;
        snap_of(t[i], &s);
        CT_CHECK(strcmp(s.name, "ct-multi") == 0 && s.policy == POSIX_TRACE_UNTIL_FULL,
                 "stream %d of 3 from one object has trace-name \"%.40s\" and policy %d,"
                 " expected \"ct-multi\" and POSIX_TRACE_UNTIL_FULL (%d)", i + 1, s.name,
                 s.policy, POSIX_TRACE_UNTIL_FULL);
    }
    /* Each is a stream of its own: starting one leaves the others suspended. */
    CT_CHECK_OK(posix_trace_start(t[1]));
    CT_CHECK(status_of(t[0]) == POSIX_TRACE_SUSPENDED && status_of(t[2]) ==
             POSIX_TRACE_SUSPENDED && status_of(t[1]) == POSIX_TRACE_RUNNING,
             "after starting the second of three streams made from one object, their states"
             " are %d, %d, %d: expected SUSPENDED (%d), RUNNING (%d), SUSPENDED",
             status_of(t[0]), status_of(t[1]), status_of(t[2]), POSIX_TRACE_SUSPENDED,
             POSIX_TRACE_RUNNING);
    for (int i = 0; i < 3; i++)
        CT_CHECK_OK(posix_trace_shutdown(t[i]));
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

/* ---- the new stream --------------------------------------------------------------- */

CT_TEST(active, "create.active", "TRC", "posix_trace_create,posix_trace_get_status")
{
    trace_id_t trid;
    trace_attr_t a;
    struct posix_trace_status_info st;
    CT_CHECK_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    CT_CHECK_OK(posix_trace_shutdown(trid));
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_create(0, &a, &trid));
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(suspended, "create.suspended", "TRC",
        "posix_trace_create,posix_trace_get_status,posix_trace_event,"
        "posix_trace_trygetnext_event")
{
    trace_id_t trid;
    struct posix_trace_status_info st;
    struct ct_ev v[8];
    trace_event_id_t id = ct_open_id("ct-suspended");
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED,
             "a new stream's posix_stream_status is %d, expected POSIX_TRACE_SUSPENDED (%d)",
             st.posix_stream_status, POSIX_TRACE_SUSPENDED);
    posix_trace_event(id, "x", 1);
    posix_trace_event(id, "y", 1);
    size_t n = ct_drain(trid, v, 8);
    for (size_t i = 0; i < n && i < 8; i++) {
        CT_CHECK(!ct_is_event(trid, &v[i], id), "posix_trace_event before any start was"
                 " recorded (event %zu of %zu read): a new stream is suspended", i + 1, n);
        CT_CHECK(!ct_is_event(trid, &v[i], POSIX_TRACE_START),
                 "a START event was read from a stream never started");
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(attr_null_defaults, "create.attr-null-defaults", "TRC",
        "posix_trace_create,posix_trace_get_attr,posix_trace_attr_init")
{
    trace_attr_t a;
    trace_id_t tn, tf;
    struct snap sn, sf;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_create(0, NULL, &tn));
    CT_CHECK_OK(posix_trace_create(0, &a, &tf));
    snap_of(tn, &sn);
    snap_of(tf, &sf);
    snap_same(&sn, &sf, "streams created with attr NULL and with a fresh object differ");
    ct_note("default stream: name \"%s\", stream-min-size %zu, max-data-size %zu, policy %d",
            sn.name, sn.streamsize, sn.maxdata, sn.policy);
    CT_CHECK_OK(posix_trace_shutdown(tn));
    CT_CHECK_OK(posix_trace_shutdown(tf));
}

CT_TEST(default_streamfullpolicy, "create.default-streamfullpolicy", "TRC",
        "posix_trace_create,posix_trace_get_attr,posix_trace_attr_getstreamfullpolicy")
{
    trace_attr_t a;
    trace_id_t tn, tf;
    struct snap sn, sf;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_create(0, NULL, &tn));
    CT_SETUP_OK(posix_trace_create(0, &a, &tf));
    snap_of(tn, &sn);
    snap_of(tf, &sf);
    CT_CHECK(sn.policy == POSIX_TRACE_LOOP, "a stream created without log and attr NULL has"
             " stream-full-policy %d, expected POSIX_TRACE_LOOP (%d)", sn.policy,
             POSIX_TRACE_LOOP);
    CT_CHECK(sf.policy == POSIX_TRACE_LOOP, "a stream created without log from a fresh"
             " object has stream-full-policy %d, expected POSIX_TRACE_LOOP (%d) (ruling 17)",
             sf.policy, POSIX_TRACE_LOOP);
    CT_CHECK_OK(posix_trace_shutdown(tn));
    CT_CHECK_OK(posix_trace_shutdown(tf));
}

/* Changes every attribute of a it can to something else. */
static void change_all(trace_attr_t *a, const struct snap *was)
{
    (void)posix_trace_attr_setname(a, "ct-changed");
    (void)posix_trace_attr_setstreamfullpolicy(a, other_policy(was->policy));
    (void)posix_trace_attr_setstreamsize(a, was->streamsize * 2 + 64);
    (void)posix_trace_attr_setmaxdatasize(a, was->maxdata == 8 ? 16 : 8);
}

CT_TEST(attr_snapshot_changed, "create.attr-snapshot", "TRC",
        "posix_trace_create,posix_trace_get_attr,posix_trace_attr_setname,"
        "posix_trace_attr_setstreamsize,posix_trace_attr_setstreamfullpolicy,"
        "posix_trace_attr_setmaxdatasize")
{
    trace_attr_t a;
    trace_id_t trid;
    struct snap before, after;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setname(&a, "ct-snap"));
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    snap_of(trid, &before);
    change_all(&a, &before);
    snap_of(trid, &after);
    snap_same(&before, &after, "a stream's attributes changed when its attributes object"
              " was modified after create");
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(attr_snapshot_destroyed, "create.attr-snapshot", "TRC",
        "posix_trace_create,posix_trace_get_attr,posix_trace_attr_destroy")
{
    trace_attr_t a;
    trace_id_t trid;
    struct snap before, after;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setname(&a, "ct-destroyed"));
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    snap_of(trid, &before);
    change_all(&a, &before);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
    memset(&a, 0xa5, sizeof a);       /* what was the object is now other data */
    snap_of(trid, &after);
    snap_same(&before, &after, "a stream's attributes changed when its attributes object"
              " was destroyed after create");
    CT_CHECK(strcmp(after.name, "ct-destroyed") == 0, "trace-name is \"%.40s\", expected"
             " \"ct-destroyed\"", after.name);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(creation_time_realtime, "create.creation-time-realtime", "TRC",
        "posix_trace_create,posix_trace_get_attr,posix_trace_attr_getcreatetime")
{
    struct timespec t0, t1, ct, res = { 0, 0 }, clockres;
    trace_attr_t sa;
    trace_id_t trid;
    CT_SETUP_OK(clock_gettime(CLOCK_REALTIME, &t0) == 0 ? 0 : errno);
    CT_CHECK_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(clock_gettime(CLOCK_REALTIME, &t1) == 0 ? 0 : errno);
    CT_SETUP_OK(posix_trace_attr_init(&sa));
    CT_CHECK_OK(posix_trace_get_attr(trid, &sa));
    CT_CHECK_OK(posix_trace_attr_getcreatetime(&sa, &ct));
    CT_CHECK_OK(posix_trace_attr_getclockres(&sa, &clockres));
    if (clock_getres(CLOCK_REALTIME, &res) != 0)
        res.tv_sec = 0, res.tv_nsec = 0;
    long long w = ns_of(&res) > ns_of(&clockres) ? ns_of(&res) : ns_of(&clockres);
    long long lo = ns_of(&t0) - w, hi = ns_of(&t1) + w, c = ns_of(&ct);
    CT_CHECK(c >= lo && c <= hi, "creation-time %lld.%09ld is outside the CLOCK_REALTIME"
             " readings around create, %lld.%09ld .. %lld.%09ld (widened by %lld ns): it is"
             " not CLOCK_REALTIME at creation (ruling 11)", (long long)ct.tv_sec, ct.tv_nsec,
             (long long)t0.tv_sec, t0.tv_nsec, (long long)t1.tv_sec, t1.tv_nsec, w);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- pid ------------------------------------------------------------------------------- */

/* Creates a stream for pid, starts it, records one event, and checks the
 * event is read back with posix_pid equal to getpid(). */
static void traces_caller(pid_t pid)
{
    trace_id_t trid;
    struct ct_ev v[64];
    trace_event_id_t id = ct_open_id("ct-self");
    CT_CHECK_OK(posix_trace_create(pid, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, "self", 4);
    CT_SETUP_OK(posix_trace_stop(trid));
    size_t n = ct_drain(trid, v, 64), found = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        if (!ct_is_event(trid, &v[i], id))
            continue;
        found++;
        CT_CHECK(v[i].info.posix_pid == getpid(), "the event recorded by this process in a"
                 " stream created with pid %ld has posix_pid %ld, expected getpid() = %ld",
                 (long)pid, (long)v[i].info.posix_pid, (long)getpid());
    }
    CT_CHECK(found == 1, "a stream created with pid %ld, started, holds %zu copies of the"
             " event this process recorded, expected 1 (%zu events read)", (long)pid, found, n);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(pid_zero_self, "create.pid-zero-self", "TRC",
        "posix_trace_create,posix_trace_event,posix_trace_trygetnext_event")
{
    traces_caller(0);
}

CT_TEST(pid_target_self, "create.pid-target", "TRC",
        "posix_trace_create,posix_trace_event,posix_trace_trygetnext_event")
{
    traces_caller(getpid());
}

CT_TEST(pid_target_child, "create.pid-target", "TRC",
        "posix_trace_create,posix_trace_start,posix_trace_event,posix_trace_trygetnext_event")
{
    int go[2], done[2];
    char c;
    trace_id_t trid;
    CT_SETUP_OK(pipe(go) == 0 && pipe(done) == 0 ? 0 : errno);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        CT_UNRESOLVED("fork failed: %s", ct_errname(errno));
    if (pid == 0) {
        close(go[1]);
        close(done[0]);
        if (read(go[0], &c, 1) == 1 && c == 'r') {
            trace_event_id_t id;
            if (posix_trace_eventid_open("ct-child", &id) == 0)
                posix_trace_event(id, "child!", 6);
        }
        (void)!write(done[1], "d", 1);
        _exit(0);
    }
    close(go[0]);
    close(done[1]);
    int rc = posix_trace_create(pid, NULL, &trid);
    if (rc == EPERM) {
        (void)!write(go[1], "q", 1);
        waitpid(pid, NULL, 0);
        CT_UNSUPPORTED("create for a child's pid returned EPERM: this implementation does"
                       " not let the caller trace another process");
    }
    if (rc != 0) {
        (void)!write(go[1], "q", 1);
        waitpid(pid, NULL, 0);
        CT_CHECK_OK(rc);
    }
    CT_SETUP_OK(posix_trace_start(trid));
    CT_SETUP_OK(write(go[1], "r", 1) == 1 ? 0 : errno);
    CT_SETUP_OK(read(done[0], &c, 1) == 1 ? 0 : EIO);
    CT_SETUP_OK(waitpid(pid, NULL, 0) == pid ? 0 : errno);
    struct ct_ev v[64];
    size_t n = ct_drain(trid, v, 64), found = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if (v[i].info.posix_pid == pid && v[i].len == 6 && memcmp(v[i].data, "child!", 6) == 0)
            found++;
    CT_CHECK(found == 1, "a stream created for child %ld holds %zu copies of the event the"
             " child recorded, expected 1 (%zu events read)", (long)pid, found, n);
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

/* ---- the trace id ------------------------------------------------------------------------ */

CT_TEST(trid_usable, "create.trid-usable", "TRC",
        "posix_trace_create,posix_trace_clear,posix_trace_eventid_equal,"
        "posix_trace_eventid_get_name,posix_trace_eventtypelist_getnext_id,"
        "posix_trace_eventtypelist_rewind,posix_trace_get_attr,posix_trace_get_status,"
        "posix_trace_getnext_event,posix_trace_shutdown,posix_trace_start,posix_trace_stop,"
        "posix_trace_timedgetnext_event,posix_trace_trygetnext_event,"
        "posix_trace_trid_eventid_open,posix_trace_get_filter,posix_trace_set_filter")
{
    trace_id_t trid;
    trace_attr_t sa;
    struct posix_trace_status_info st;
    struct posix_trace_event_info info;
    trace_event_id_t id;
    char name[CT_EVENT_NAME_BUF];
    unsigned char data[64];
    size_t len;
    int unavailable;
    struct timespec abst;

    CT_CHECK_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_attr_init(&sa));
    CT_CHECK_OK(posix_trace_get_attr(trid, &sa));
    CT_CHECK_OK(posix_trace_get_status(trid, &st));
    CT_CHECK_OK(posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable));
    CT_CHECK_OK(posix_trace_eventtypelist_rewind(trid));
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, POSIX_TRACE_START, name));
    CT_CHECK(posix_trace_eventid_equal(trid, POSIX_TRACE_START, POSIX_TRACE_START) != 0,
             "eventid_equal(trid, START, START) returned 0 on a create trid");
#if CT_HAVE_TEF
    if (ct_option("TEF")) {
        trace_event_set_t set;
        CT_CHECK_OK(posix_trace_trid_eventid_open(trid, "ct-trid", &id));
        CT_CHECK_OK(posix_trace_get_filter(trid, &set));
        CT_CHECK_OK(posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET));
    }
#endif
    CT_CHECK_OK(posix_trace_start(trid));
    CT_CHECK_OK(posix_trace_stop(trid));
    /* START and STOP are in the stream: no read below can block. */
    CT_CHECK_OK(posix_trace_getnext_event(trid, &info, data, sizeof data, &len, &unavailable));
    abst = ct_abstime_in_ms(100);
    CT_CHECK_OK(posix_trace_timedgetnext_event(trid, &info, data, sizeof data, &len,
                                               &unavailable, &abst));
    CT_CHECK_OK(posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len,
                                             &unavailable));
    CT_CHECK_OK(posix_trace_clear(trid));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(several_streams, "create.several-streams", "TRC",
        "posix_trace_create,posix_trace_shutdown")
{
    trace_id_t t[CT_MIN_TRACE_SYS_MAX];
    int i;
    for (i = 0; i < CT_MIN_TRACE_SYS_MAX; i++) {
        int rc = posix_trace_create(0, NULL, &t[i]);
        CT_CHECK(rc == 0, "create number %d of {_POSIX_TRACE_SYS_MAX} = %d returned %d (%s):"
                 " a process may hold that many streams at once", i + 1, CT_MIN_TRACE_SYS_MAX,
                 rc, ct_errname(rc));
    }
    /* All of them are distinct live streams. */
    CT_CHECK_OK(posix_trace_start(t[0]));
    for (i = 1; i < CT_MIN_TRACE_SYS_MAX; i++)
        CT_CHECK(status_of(t[i]) == POSIX_TRACE_SUSPENDED,
                 "stream %d is not SUSPENDED after starting stream 1 only", i + 1);
    for (i = 0; i < CT_MIN_TRACE_SYS_MAX; i++)
        CT_CHECK_OK(posix_trace_shutdown(t[i]));
}

/* ---- return convention and errors -------------------------------------------------------- */

CT_TEST(return_convention, "create.return-convention", "TRC",
        "posix_trace_create,posix_trace_shutdown,posix_trace_create_withlog,posix_trace_flush")
{
    trace_id_t trid;
    int rc;
    errno = 0;
    rc = posix_trace_create(0, NULL, &trid);
    CT_CHECK(rc == 0, "create returned %d (%s), errno %s: expected 0", rc, ct_errname(rc),
             ct_errname(errno));
    errno = 0;
    rc = posix_trace_shutdown(trid);
    CT_CHECK(rc == 0, "shutdown returned %d (%s), errno %s: expected 0", rc, ct_errname(rc),
             ct_errname(errno));
    /* Failure: the error number itself (EINVAL for a shut-down trid, ruling 25). */
    errno = 0;
    rc = posix_trace_shutdown(trid);
    CT_CHECK(rc == EINVAL, "shutdown of a shut-down trid returned %d (%s), errno %s:"
             " expected the error number EINVAL as return value", rc, ct_errname(rc),
             ct_errname(errno));
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        FILE *f = tmpfile();
        if (f == NULL)
            CT_UNRESOLVED("tmpfile: %s", ct_errname(errno));
        rc = posix_trace_create_withlog(0, NULL, fileno(f), &trid);
        CT_CHECK(rc == 0, "create_withlog returned %d (%s), expected 0", rc, ct_errname(rc));
        rc = posix_trace_flush(trid);
        CT_CHECK(rc == 0, "flush returned %d (%s), expected 0", rc, ct_errname(rc));
        rc = posix_trace_shutdown(trid);
        CT_CHECK(rc == 0, "shutdown returned %d (%s), expected 0", rc, ct_errname(rc));
    }
#endif
}

CT_TEST(eagain, "create.EAGAIN", "TRC", "posix_trace_create")
{
    long max = ct_limit_trace_sys_max();
    if (max <= 0)
        CT_UNSUPPORTED("{TRACE_SYS_MAX} is indeterminate: no count of streams must fail");
    if (max > 4096)
        CT_UNRESOLVED("{TRACE_SYS_MAX} = %ld: too many streams to create in a test", max);
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    (void)posix_trace_attr_setstreamsize(&a, 4096);  /* small streams, if allowed */
    trace_id_t *t = calloc((size_t)max + 1, sizeof *t);
    if (t == NULL)
        CT_UNRESOLVED("out of memory");
    long i;
    int rc = 0;
    for (i = 0; i <= max; i++) {
        rc = posix_trace_create(0, &a, &t[i]);
        if (rc != 0)
            break;
    }
    CT_CHECK(i <= max, "%ld creates succeeded, one more than {TRACE_SYS_MAX} = %ld", i, max);
    CT_CHECK(rc == EAGAIN, "create number %ld returned %d (%s), expected EAGAIN"
             " ({TRACE_SYS_MAX} = %ld)", i + 1, rc, ct_errname(rc), max);
    if (i < max)
        ct_note("EAGAIN after %ld streams, below {TRACE_SYS_MAX} = %ld: other streams exist"
                " in the system", i, max);
    while (i-- > 0)
        CT_CHECK_OK(posix_trace_shutdown(t[i]));
    free(t);
}

CT_TEST(einval_attr_bad_policy, "create.EINVAL-attr", "TRC", "posix_trace_create")
{
    trace_attr_t a;
    trace_id_t trid;
    int bad = ct_invalid_policy();
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (posix_trace_attr_setstreamfullpolicy(&a, bad) != 0)
        CT_UNSUPPORTED("the setter refuses stream-full-policy %d: no object holding it can"
                       " reach create", bad);
    CT_CHECK_ERR(posix_trace_create(0, &a, &trid), EINVAL);
}

CT_TEST(einval_attr_flush, "create.EINVAL-attr", "TRC", "posix_trace_create")
{
#ifdef POSIX_TRACE_FLUSH
    trace_attr_t a;
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_FLUSH) != 0)
        CT_UNSUPPORTED("the setter refuses POSIX_TRACE_FLUSH (ruling 18): create never sees"
                       " it");
    /* FLUSH "shall be invalid" for a stream without log (S0039, ruling 18). */
    CT_CHECK_ERR(posix_trace_create(0, &a, &trid), EINVAL);
#else
    CT_UNSUPPORTED("<trace.h> does not define POSIX_TRACE_FLUSH (a TRL constant)");
#endif
}

CT_TEST(eperm, "create.EPERM", "TRC", "posix_trace_create")
{
    trace_id_t trid;
    if (getpid() == 1)
        CT_UNRESOLVED("the test runs as process 1");
    if (kill(1, 0) != 0 && errno == ESRCH)
        CT_UNRESOLVED("there is no process 1");
    int rc = posix_trace_create(1, NULL, &trid);
    if (rc == 0) {
        ct_note("create for process 1 succeeded (euid %ld): the implementation grants the"
                " privilege", (long)geteuid());
        CT_CHECK_OK(posix_trace_shutdown(trid));
        return;
    }
    CT_CHECK(rc == EPERM, "create for process 1 (euid %ld) returned %d (%s): expected EPERM,"
             " or 0 if the caller may trace it", (long)geteuid(), rc, ct_errname(rc));
}

CT_TEST(esrch, "create.ESRCH", "TRC", "posix_trace_create")
{
    trace_id_t trid;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        CT_UNRESOLVED("fork failed: %s", ct_errname(errno));
    if (pid == 0)
        _exit(0);
    CT_SETUP_OK(waitpid(pid, NULL, 0) == pid ? 0 : errno);
    if (!(kill(pid, 0) != 0 && errno == ESRCH))
        CT_UNRESOLVED("pid %ld was reused at once: no pid is known not to exist", (long)pid);
    CT_CHECK_ERR(posix_trace_create(pid, NULL, &trid), ESRCH);
}
