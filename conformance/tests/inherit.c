/* SPDX-License-Identifier: MIT */
/*
 * inherit.c -- the Trace Inherit option (TRI): the inheritance attribute
 * (XSH posix_trace_attr_getinherited), fork with INHERITED and with
 * CLOSE_FOR_CHILD (XSH fork; XBD 4.19), and the identifiers of user event
 * names shared by all the processes traced into one stream (XSH
 * posix_trace_event S0128-S0129, XSH posix_trace_eventid_equal S0146-S0147).
 *
 * How the fork tests work.  The parent creates a stream for itself (pid 0)
 * with the inheritance policy under test, starts it and forks.  The child
 * records events whose data names them ("c-own", ...), talks to the parent
 * through two pipes (one byte a message; every read is bounded by a poll
 * timeout, so a child that dies or hangs ends the test UNRESOLVED instead of
 * hanging it), and ends with _exit().  The parent waits for every child
 * (bounded too: a child that does not end is killed and reaped), then reads
 * the stream and judges the events by their data, their posix_pid and their
 * identifiers.  Identifiers are opaque: the parent compares the identifiers it
 * knows with those of the events read, with posix_trace_eventid_equal(), and
 * asks posix_trace_eventid_get_name() for the names; no identifier crosses a
 * pipe.  fork.inherited-descendants is also checked for the "initial
 * targeted traced process" of XBD 4.19 traced by its pid (create for a
 * child's pid; EPERM there ends that test UNSUPPORTED), and the policy is
 * checked to be each stream's (one process in a CLOSE_FOR_CHILD and an
 * INHERITED stream at once).  Where a test could pass by chance with a
 * per-process numbering of names (parent and child numbering alike from the
 * fork on), the processes open names in orders that make such numberings
 * differ.
 *
 * Portable: no constant's value is assumed (an invalid inheritance policy is
 * computed at run time to differ from both constants), nor the default of
 * any other attribute.  TRI code is in #if CT_HAVE_TRI and every test of it
 * declares TRI; the tests of trid_eventid_open need TEF as well.  Children
 * use no CT_ macro (they would end the child as a test); only the parent
 * judges.  The tests assume a child may be forked and the pipes made.
 *
 * The header: the compile probe conformance/probes/inherit.c checks the two
 * constants and the two prototypes, each rule a part of its own (ct_probe.h:
 * a missing or mistyped one fails trace_h.constants-tri or
 * trace_h.prototypes-tri alone); _POSIX_TRACE_INHERIT is read
 * after <unistd.h> alone and again after <trace.h>, and it and
 * sysconf(_SC_TRACE_INHERIT) are checked whatever the option's support (TRC
 * only).
 *
 * Exact checks (reference only): attr_getinherited's EINVAL and
 * attr_setinherited's EINVAL for an invalid attr need a NULL pointer or a
 * destroyed object, undefined behaviour portably.
 *
 * Not tested here, and why:
 *   attr_init.tri-attributes      attr_init.c.
 *   attr_setinherited.spawn       not testable (ruling 12).
 *   fork.not-traced-without-tri, fork.child-not-controller, exec.*, exit.*,
 *   create.EINVAL-child-trid      process.c (with their TRI variants).
 */
#include <unistd.h>

/* _POSIX_TRACE_INHERIT after <unistd.h> alone. */
#ifdef _POSIX_TRACE_INHERIT
static const int u_tri_defined = 1;
static const long u_tri_value = (long)(_POSIX_TRACE_INHERIT);
#else
static const int u_tri_defined = 0;
static const long u_tri_value = 0;
#endif

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "ct.h"
#include "ct_probe.h"
#include "ct_stream.h"
#include "ct_trace_h.h"

/* ---- <trace.h>, <unistd.h> and sysconf ---------------------------------------------- */

#ifdef _POSIX_TRACE_INHERIT
static const int t_tri_defined = 1;
static const long t_tri_value = (long)(_POSIX_TRACE_INHERIT);
#else
static const int t_tri_defined = 0;
static const long t_tri_value = 0;
#endif

#define NO_TRI() CT_UNSUPPORTED("built without TRI: <trace.h> defines _POSIX_TRACE_INHERIT as -1")

#if CT_HAVE_TRI && CT_PROBE_PROTOTYPES_TRI
CT_PROTOTYPES_TRI(CT_PROTO_POINTER)
#endif
#if CT_PROBE_CONSTANTS_TRI
int ct_probe_inherit_CONSTANTS_TRI(void);
#endif

CT_TEST(posix_trace_inherit_macro, "unistd.POSIX_TRACE_INHERIT", "TRC", "")
{
    /* Checked whatever the option's support: hence option TRC only. */
    CT_CHECK(!u_tri_defined || u_tri_value == -1 || u_tri_value == 0 ||
             u_tri_value == 200809L, "after <unistd.h>, _POSIX_TRACE_INHERIT is %ld: if"
             " defined it must be -1, 0 or 200809L", u_tri_value);
    CT_CHECK(!t_tri_defined || t_tri_value == -1 || t_tri_value == 0 ||
             t_tri_value == 200809L, "after <unistd.h> and <trace.h>, _POSIX_TRACE_INHERIT is"
             " %ld: if defined it must be -1, 0 or 200809L", t_tri_value);
    ct_note("_POSIX_TRACE_INHERIT: after <unistd.h> %s%ld, after <trace.h> %s%ld",
            u_tri_defined ? "" : "undefined ", u_tri_value, t_tri_defined ? "" : "undefined ",
            t_tri_value);
}

CT_TEST(sc_trace_inherit, "sysconf.SC_TRACE_INHERIT", "TRC", "sysconf")
{
#ifdef _SC_TRACE_INHERIT
    /* Checked whatever the option's support: hence option TRC only. */
    errno = 0;
    long v = ct_sysconf(_SC_TRACE_INHERIT);
    int e = errno;
    CT_CHECK(v == -1 || v == 200809L, "sysconf(_SC_TRACE_INHERIT) = %ld: expected -1 or"
             " 200809L", v);
    CT_CHECK(v != -1 || e == 0, "sysconf(_SC_TRACE_INHERIT) = -1 with errno %s: an option"
             " name must not fail", ct_errname(e));
    ct_note("sysconf(_SC_TRACE_INHERIT) = %ld", v);
#else
    CT_UNRESOLVED("<unistd.h> does not define _SC_TRACE_INHERIT (unistd.sc-names)");
#endif
}

CT_TEST(constants_tri, "trace_h.constants-tri", "TRC,TRI", "posix_trace_attr_setinherited")
{
#if CT_HAVE_TRI && !CT_PROBE_CONSTANTS_TRI
    ct_probe_missing("CONSTANTS_TRI", "<trace.h> does not define POSIX_TRACE_CLOSE_FOR_CHILD"
                     " and POSIX_TRACE_INHERITED as ints");
#elif CT_HAVE_TRI
    /* Compiled: both constants exist and initialise ints; they differ and the
     * setter takes each. */
    int v[2] = { POSIX_TRACE_CLOSE_FOR_CHILD, POSIX_TRACE_INHERITED };
    trace_attr_t a;
    CT_CHECK(ct_probe_inherit_CONSTANTS_TRI() == 1, "the probe part returned 0");
    CT_CHECK(v[0] != v[1], "POSIX_TRACE_CLOSE_FOR_CHILD and POSIX_TRACE_INHERITED are both"
             " %d", v[0]);
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (ct_option("TRI"))
        for (int i = 0; i < 2; i++)
            CT_CHECK_OK(posix_trace_attr_setinherited(&a, v[i]));
#else
    NO_TRI();
#endif
}

CT_TEST(prototypes_tri, "trace_h.prototypes-tri", "TRC,TRI",
        "posix_trace_attr_getinherited,posix_trace_attr_setinherited")
{
#if CT_HAVE_TRI && !CT_PROBE_PROTOTYPES_TRI
    ct_probe_missing("PROTOTYPES_TRI", "a TRI function is missing from <trace.h> or declared"
                     " with another type");
#elif CT_HAVE_TRI
    /* Compiled: the probe's assertions; then each called through its
     * pointer. */
    trace_attr_t a;
    int v = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    if (!ct_option("TRI"))
        CT_UNSUPPORTED("TRI is not supported at run time (the prototypes compiled)");
    CT_CHECK_OK(p_posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED));
    CT_CHECK_OK(p_posix_trace_attr_getinherited(&a, &v));
    CT_CHECK(v == POSIX_TRACE_INHERITED, "getinherited through its pointer gave %d after"
             " setinherited(POSIX_TRACE_INHERITED) (%d)", v, POSIX_TRACE_INHERITED);
#else
    NO_TRI();
#endif
}

/* ---- attributes ----------------------------------------------------------------------- */

#if CT_HAVE_TRI
static const char *policy_name(int p)
{
    return p == POSIX_TRACE_INHERITED        ? "POSIX_TRACE_INHERITED"
           : p == POSIX_TRACE_CLOSE_FOR_CHILD ? "POSIX_TRACE_CLOSE_FOR_CHILD"
                                              : "(no inheritance policy)";
}

/* A value that is neither CLOSE_FOR_CHILD nor INHERITED. */
static int invalid_inheritance(void)
{
    int v = 0x5a5a;
    while (v == POSIX_TRACE_INHERITED || v == POSIX_TRACE_CLOSE_FOR_CHILD)
        v++;
    return v;
}

static void need_tri(void)
{
    if (!ct_option("TRI"))
        CT_UNSUPPORTED("TRI is not supported at run time");
}
#endif

CT_TEST(default_close_for_child, "attr_getinherited.default", "TRC,TRI",
        "posix_trace_attr_init,posix_trace_attr_getinherited")
{
#if CT_HAVE_TRI
    need_tri();
    trace_attr_t a;
    int v = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getinherited(&a, &v));
    CT_CHECK(v == POSIX_TRACE_CLOSE_FOR_CHILD, "a freshly initialised attributes object has"
             " inheritance %d (%s), expected POSIX_TRACE_CLOSE_FOR_CHILD (%d)", v,
             policy_name(v), POSIX_TRACE_CLOSE_FOR_CHILD);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
#else
    NO_TRI();
#endif
}

CT_TEST(roundtrip, "attr_setinherited.roundtrip", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_attr_getinherited")
{
#if CT_HAVE_TRI
    need_tri();
    /* Each value twice, in turns: the getter reports the value last set, not
     * the default or the first value. */
    const int seq[] = { POSIX_TRACE_INHERITED, POSIX_TRACE_CLOSE_FOR_CHILD,
                        POSIX_TRACE_INHERITED, POSIX_TRACE_CLOSE_FOR_CHILD };
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        int got = -12345;
        CT_CHECK_OK(posix_trace_attr_setinherited(&a, seq[i]));
        CT_CHECK_OK(posix_trace_attr_getinherited(&a, &got));
        CT_CHECK(got == seq[i], "set inheritance %d (%s), read back %d (%s)", seq[i],
                 policy_name(seq[i]), got, policy_name(got));
    }
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
#else
    NO_TRI();
#endif
}

CT_TEST(value_set_fresh, "attr_getinherited.value-set", "TRC,TRI",
        "posix_trace_attr_init,posix_trace_attr_getinherited")
{
#if CT_HAVE_TRI
    need_tri();
    trace_attr_t a;
    int got = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getinherited(&a, &got));
    CT_CHECK(got == POSIX_TRACE_CLOSE_FOR_CHILD || got == POSIX_TRACE_INHERITED,
             "a fresh object reports inheritance %d: expected POSIX_TRACE_CLOSE_FOR_CHILD (%d)"
             " or POSIX_TRACE_INHERITED (%d)", got, POSIX_TRACE_CLOSE_FOR_CHILD,
             POSIX_TRACE_INHERITED);
#else
    NO_TRI();
#endif
}

CT_TEST(value_set_invalid_not_stored, "attr_getinherited.value-set", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_attr_getinherited")
{
#if CT_HAVE_TRI
    need_tri();
    /* Whatever the setter answers for a value that is no policy, of every
     * kind (ct_invalid_ints: 0, -1, the limits of int, next to a policy,
     * another attribute's constant), the getter never reports it; a refused
     * value leaves the policy as it was. */
    const int before[] = { POSIX_TRACE_INHERITED, POSIX_TRACE_CLOSE_FOR_CHILD };
    int bad[CT_INVALID_MAX];
    const char *badname[CT_INVALID_MAX];
    int nbad = ct_invalid_ints(before, 2, bad, badname);
    for (int b = 0; b < nbad; b++)
        for (size_t i = 0; i < 2; i++) {
            trace_attr_t a;
            int got = -12345;
            CT_SETUP_OK(posix_trace_attr_init(&a));
            CT_SETUP_OK(posix_trace_attr_setinherited(&a, before[i]));
            int rc = posix_trace_attr_setinherited(&a, bad[b]);
            CT_CHECK_OK(posix_trace_attr_getinherited(&a, &got));
            CT_CHECK(got != bad[b] && (got == POSIX_TRACE_CLOSE_FOR_CHILD ||
                                       got == POSIX_TRACE_INHERITED),
                     "after setinherited(%d) (%s, no policy; it returned %s), the getter"
                     " reports %d: expected POSIX_TRACE_CLOSE_FOR_CHILD (%d) or"
                     " POSIX_TRACE_INHERITED (%d)", bad[b], badname[b], ct_errname(rc), got,
                     POSIX_TRACE_CLOSE_FOR_CHILD, POSIX_TRACE_INHERITED);
            if (rc != 0)
                CT_CHECK(got == before[i], "a refused setinherited(%d) (%s; %s) changed the"
                         " policy from %s to %s", bad[b], badname[b], ct_errname(rc),
                         policy_name(before[i]), policy_name(got));
            CT_CHECK_OK(posix_trace_attr_destroy(&a));
        }
#else
    NO_TRI();
#endif
}

CT_TEST(setinherited_einval, "attr_setinherited.EINVAL", "TRC,TRI",
        "posix_trace_attr_setinherited")
{
#if CT_HAVE_TRI
    need_tri();
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_MAY_ERR(posix_trace_attr_setinherited(&a, invalid_inheritance()), EINVAL);
#else
    NO_TRI();
#endif
}

CT_TEST(setinherited_einval_destroyed, "attr_setinherited.EINVAL", "TRC,TRI",
        "posix_trace_attr_setinherited")
{
#if CT_HAVE_TRI && CT_EXACT_REFERENCE
    need_tri();
    trace_attr_t d;
    ct_destroyed_attr(&d);
    CT_CHECK_ERR(posix_trace_attr_setinherited(NULL, POSIX_TRACE_INHERITED), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_setinherited(&d, POSIX_TRACE_INHERITED), EINVAL);
#elif CT_HAVE_TRI
    CT_REFERENCE_ONLY();
#else
    NO_TRI();
#endif
}

CT_TEST(getinherited_einval, "attr_getinherited.EINVAL", "TRC,TRI",
        "posix_trace_attr_getinherited")
{
#if CT_HAVE_TRI && CT_EXACT_REFERENCE
    need_tri();
    trace_attr_t a, d;
    int v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    ct_destroyed_attr(&d);
    CT_CHECK_ERR(posix_trace_attr_getinherited(NULL, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getinherited(&a, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getinherited(&d, &v), EINVAL);
#elif CT_HAVE_TRI
    CT_REFERENCE_ONLY();
#else
    NO_TRI();
#endif
}

/* ---- a child and its pipes -------------------------------------------------------------- */

#if CT_HAVE_TRI

/* How long a side waits for the other (ms): well inside the runner's limit. */
#define WAIT_MS 4000

/* Reads n bytes from fd within ms milliseconds: how many arrived (fewer on
 * end of file or time-out). */
static size_t read_within(int fd, void *buf, size_t n, int ms)
{
    double end = ct_mono_now() + ms / 1000.0;
    size_t got = 0;
    while (got < n) {
        int left = (int)((end - ct_mono_now()) * 1000.0);
        if (left <= 0)
            break;
        struct pollfd p = { fd, POLLIN, 0 };
        int r = poll(&p, 1, left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        ssize_t k = read(fd, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    return got;
}

static void write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* The child's side: in reads the parent's messages, out writes to it. */
struct side {
    int in, out;
};

/* In the child: waits for message c from the parent; ends the child if it
 * does not come (the parent gave up). */
static void child_await(const struct side *s, char c)
{
    char got = 0;
    if (read_within(s->in, &got, 1, WAIT_MS) != 1 || got != c)
        _exit(3);
}

static void child_say(const struct side *s, char c)
{
    write_all(s->out, &c, 1);
}

/* The parent's view of a child. */
struct kid {
    pid_t pid;
    int to, from;
    int reaped, status;
};

/* Forks a child that runs body(side, arg) and then _exit(0)s. */
static struct kid kid_start(void (*body)(const struct side *, void *), void *arg)
{
    int down[2], up[2];
    struct kid k;
    signal(SIGPIPE, SIG_IGN);       /* a child that died: EPIPE, not death */
    if (pipe(down) != 0)
        CT_UNRESOLVED("pipe failed: %s", ct_errname(errno));
    if (pipe(up) != 0)
        CT_UNRESOLVED("pipe failed: %s", ct_errname(errno));
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        CT_UNRESOLVED("fork failed: %s", ct_errname(errno));
    if (pid == 0) {
        struct side s = { down[0], up[1] };
        close(down[1]);
        close(up[0]);
        body(&s, arg);
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    k.pid = pid;
    k.to = down[1];
    k.from = up[0];
    k.reaped = 0;
    k.status = 0;
    return k;
}

/* Closes the pipes and reaps the child, killing it if it has not ended
 * within WAIT_MS; its wait status. */
static int kid_end(struct kid *k)
{
    if (k->reaped)
        return k->status;
    if (k->to >= 0)
        close(k->to);
    if (k->from >= 0)
        close(k->from);
    k->to = k->from = -1;
    double end = ct_mono_now() + WAIT_MS / 1000.0;
    for (;;) {
        pid_t r = waitpid(k->pid, &k->status, WNOHANG);
        if (r == k->pid)
            break;
        if (r < 0 && errno != EINTR) {
            k->status = 0;
            break;
        }
        if (ct_mono_now() > end) {
            kill(k->pid, SIGKILL);
            waitpid(k->pid, &k->status, 0);
            break;
        }
        ct_sleep_ms(2);
    }
    k->reaped = 1;
    return k->status;
}

/* In the parent: waits for message c from the child; UNRESOLVED (the child
 * reaped) if it does not come. */
static void kid_await(struct kid *k, char c, const char *what)
{
    char got = 0;
    if (read_within(k->from, &got, 1, WAIT_MS) == 1 && got == c)
        return;
    int st = kid_end(k);
    CT_UNRESOLVED("the child did not report %s (it ended with %s)", what, ct_wait_status(st));
}

static void kid_say(struct kid *k, char c)
{
    write_all(k->to, &c, 1);
}

/* In the parent: the child reports n ints (results of its calls). */
static void kid_ints(struct kid *k, int *v, int n, const char *what)
{
    if (read_within(k->from, v, (size_t)n * sizeof *v, WAIT_MS) == (size_t)n * sizeof *v)
        return;
    int st = kid_end(k);
    CT_UNRESOLVED("the child did not report %s (it ended with %s)", what, ct_wait_status(st));
}

static void send_ints(const struct side *s, const int *v, int n)
{
    write_all(s->out, v, (size_t)n * sizeof *v);
}

/* Ends the child and requires it ended normally (exit status 0). */
static void kid_done(struct kid *k)
{
    int st = kid_end(k);
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
        CT_UNRESOLVED("the child ended with %s", ct_wait_status(st));
}

/* ---- streams and events ------------------------------------------------------------------ */

/* A stream for this process with inheritance policy, started. */
static trace_id_t stream_with(int policy)
{
    trace_attr_t a;
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setinherited(&a, policy));
    CT_SETUP_OK(posix_trace_create(0, &a, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_attr_destroy(&a);
    return trid;
}

/* Records an event of type id with the string s as its data (no NUL). */
static void rec(trace_event_id_t id, const char *s)
{
    posix_trace_event(id, s, strlen(s));
}

/* In a child: opens name and records an event of it with data s; the
 * result of eventid_open. */
static int open_rec(const char *name, const char *s)
{
    trace_event_id_t id;
    int rc = posix_trace_eventid_open(name, &id);
    if (rc == 0)
        rec(id, s);
    return rc;
}

static int has_data(const struct ct_ev *e, const char *s)
{
    return e->len == strlen(s) && memcmp(e->data, s, e->len) == 0;
}

#define MAXEV 256

/* The events of a stream, read once. */
struct evs {
    trace_id_t trid;
    size_t n;
    struct ct_ev v[MAXEV];
};

static void read_all(struct evs *e, trace_id_t trid)
{
    e->trid = trid;
    e->n = ct_drain(trid, e->v, MAXEV);
    if (e->n > MAXEV)
        CT_UNRESOLVED("%zu events in the stream, more than the %d the test reads", e->n,
                      MAXEV);
}

/* How many events have data s. */
static size_t count_data(const struct evs *e, const char *s)
{
    size_t c = 0;
    for (size_t i = 0; i < e->n; i++)
        c += has_data(&e->v[i], s);
    return c;
}

/* The one event with data s; UNRESOLVED if there is none, FAIL if several. */
static const struct ct_ev *the_event(const struct evs *e, const char *s, const char *who)
{
    const struct ct_ev *found = NULL;
    size_t c = 0;
    for (size_t i = 0; i < e->n; i++)
        if (has_data(&e->v[i], s)) {
            found = &e->v[i];
            c++;
        }
    if (c == 0)
        CT_UNRESOLVED("the event \"%s\" %s recorded is not in the stream (%zu events read):"
                      " the test cannot compare its identifier", s, who, e->n);
    CT_CHECK(c == 1, "the event \"%s\" %s recorded once is in the stream %zu times", s, who,
             c);
    return found;
}

/* The event e has a name: eventid_get_name gives name. */
static void check_name(trace_id_t trid, const struct ct_ev *e, const char *name,
                       const char *who)
{
    char got[CT_EVENT_NAME_BUF];
    int rc = posix_trace_eventid_get_name(trid, e->info.posix_event_id, got);
    CT_CHECK(rc == 0 && strcmp(got, name) == 0, "the event %s recorded with the identifier"
             " of \"%s\" (%s) has the name \"%s\" in the stream (get_name: %s)", who, name,
             CT_HEX(e->info.posix_event_id), rc == 0 ? got : "", ct_errname(rc));
}

#endif /* CT_HAVE_TRI */

/* ---- fork with INHERITED ------------------------------------------------------------------ */

#if CT_HAVE_TRI
struct ids {
    trace_event_id_t a, b;
};

/* The child of fork_inherited: records with the parent's identifier and with
 * one of its own. */
static void child_records(const struct side *s, void *arg)
{
    struct ids *ids = arg;
    int rc;
    rec(ids->a, "c-inh");
    rc = open_rec("ct.tri.child", "c-own");
    send_ints(s, &rc, 1);
}

/* Room for the events of a stream (too large for the stack); UNRESOLVED if
 * there is none. */
static struct evs *evs_new(void)
{
    struct evs *e = malloc(sizeof *e);
    if (e == NULL)
        CT_UNRESOLVED("out of memory");
    return e;
}

/* The parent records "p-before", a child (child_records) records its two
 * events, the parent records "p-after".  *rc: the child's eventid_open
 * result.  Returns the child's pid. */
static pid_t record_around_child(struct ids *ids, int *rc)
{
    ids->a = ct_open_id("ct.tri.parent");
    rec(ids->a, "p-before");
    struct kid k = kid_start(child_records, ids);
    kid_ints(&k, rc, 1, "that it recorded");
    kid_done(&k);
    rec(ids->a, "p-after");
    return k.pid;
}
#endif

CT_TEST(fork_inherited, "fork.inherited,xbd419.pid", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_create,posix_trace_event,"
        "posix_trace_trygetnext_event,fork")
{
#if CT_HAVE_TRI
    need_tri();
    CT_RULE("fork.inherited");      /* the checks of reading the stream serve it too */
    struct ids ids;
    struct evs *e = evs_new();
    int rc;
    trace_id_t trid = stream_with(POSIX_TRACE_INHERITED);
    pid_t child = record_around_child(&ids, &rc);
    if (rc != 0)
        CT_UNRESOLVED("eventid_open in the traced child returned %s", ct_errname(rc));
    read_all(e, trid);
    CT_RULE("fork.inherited");
    CT_CHECK(count_data(e, "c-inh") == 1 && count_data(e, "c-own") == 1,
             "a child forked by a process traced with POSIX_TRACE_INHERITED recorded two"
             " events; the stream holds %zu and %zu of them (expected 1 and 1; %zu events"
             " read): the child is traced into its parent's stream", count_data(e, "c-inh"),
             count_data(e, "c-own"), e->n);
    CT_CHECK(count_data(e, "p-before") == 1 && count_data(e, "p-after") == 1,
             "the parent's events before and after the fork are in the stream %zu and %zu"
             " times, expected once each: tracing of the parent continues",
             count_data(e, "p-before"), count_data(e, "p-after"));
    CT_RULE("xbd419.pid");
    for (size_t i = 0; i < e->n; i++) {
        const struct ct_ev *v = &e->v[i];
        if (has_data(v, "c-inh") || has_data(v, "c-own"))
            CT_CHECK(v->info.posix_pid == child, "the child's event \"%.*s\" carries posix_pid"
                     " %ld, expected the child's pid %ld", (int)v->len, (const char *)v->data,
                     (long)v->info.posix_pid, (long)child);
        if (has_data(v, "p-before") || has_data(v, "p-after"))
            CT_CHECK(v->info.posix_pid == getpid(), "the parent's event \"%.*s\" carries"
                     " posix_pid %ld, expected the parent's pid %ld", (int)v->len,
                     (const char *)v->data, (long)v->info.posix_pid, (long)getpid());
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
    free(e);
#else
    NO_TRI();
#endif
}

#if CT_HAVE_TRI
/* The child of fork_inherited_mapping: records with the parent's identifiers
 * as it has them, then with those eventid_open gives it for the same names. */
static void child_maps(const struct side *s, void *arg)
{
    struct ids *ids = arg;
    int rc[2];
    rec(ids->a, "c-copy-a");
    rec(ids->b, "c-copy-b");
    /* In the other order than the parent: a child that numbered its names
     * afresh would give "ct.tri.map-b" the parent's identifier of
     * "ct.tri.map-a". */
    rc[1] = open_rec("ct.tri.map-b", "c-open-b");
    rc[0] = open_rec("ct.tri.map-a", "c-open-a");
    send_ints(s, rc, 2);
}
#endif

CT_TEST(fork_inherited_mapping, "fork.inherited-mapping", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_eventid_open,posix_trace_eventid_equal,"
        "posix_trace_eventid_get_name,fork")
{
#if CT_HAVE_TRI
    need_tri();
    struct ids ids;
    struct evs *e = evs_new();
    int rc[2];
    /* One name opened before the stream exists, one after. */
    ids.a = ct_open_id("ct.tri.map-a");
    trace_id_t trid = stream_with(POSIX_TRACE_INHERITED);
    ids.b = ct_open_id("ct.tri.map-b");
    if (posix_trace_eventid_equal(trid, ids.a, ids.b))
        CT_UNRESOLVED("two names got equal identifiers (%s): eventid_open.unique-per-process"
                      " fails, this test cannot tell them apart", CT_HEX(ids.a));
    struct kid k = kid_start(child_maps, &ids);
    kid_ints(&k, rc, 2, "that it recorded");
    kid_done(&k);
    if (rc[0] != 0 || rc[1] != 0)
        CT_UNRESOLVED("eventid_open in the traced child returned %s and %s", ct_errname(rc[0]),
                      ct_errname(rc[1]));
    rec(ids.a, "p-a");
    read_all(e, trid);
    static const struct {
        const char *data, *name, *who;
        int which;
    } want[] = {
        { "c-copy-a", "ct.tri.map-a", "the child with its copy of the parent's identifier", 0 },
        { "c-copy-b", "ct.tri.map-b", "the child with its copy of the parent's identifier", 1 },
        { "c-open-a", "ct.tri.map-a", "the child after opening the name itself", 0 },
        { "c-open-b", "ct.tri.map-b", "the child after opening the name itself", 1 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct ct_ev *v = the_event(e, want[i].data, want[i].who);
        trace_event_id_t mine = want[i].which ? ids.b : ids.a;
        CT_CHECK(posix_trace_eventid_equal(trid, v->info.posix_event_id, mine),
                 "the event \"%s\" recorded by %s for \"%s\" has identifier %s, not equal to"
                 " the parent's %s for that name (opened before the fork): the child inherits"
                 " the parent's mapping", want[i].data, want[i].who, want[i].name,
                 CT_HEX(v->info.posix_event_id), CT_HEX(mine));
        check_name(trid, v, want[i].name, want[i].who);
    }
    /* And the parent's own event, recorded after, is of the same type. */
    const struct ct_ev *p = the_event(e, "p-a", "the parent");
    const struct ct_ev *c = the_event(e, "c-open-a", "the child");
    CT_CHECK(posix_trace_eventid_equal(trid, p->info.posix_event_id, c->info.posix_event_id),
             "the parent's event for \"ct.tri.map-a\" (%s) and the child's (%s) have"
             " identifiers that are not equal", CT_HEX(p->info.posix_event_id),
             CT_HEX(c->info.posix_event_id));
    CT_CHECK_OK(posix_trace_shutdown(trid));
    free(e);
#else
    NO_TRI();
#endif
}

#if CT_HAVE_TRI
/* The child of the descendants tests: forks a grandchild that records, waits
 * for it, records, and reports the grandchild's pid and how it ended. */
static void child_forks(const struct side *s, void *arg)
{
    struct ids *ids = arg;
    int out[3] = { 0, 0, 0 };      /* grandchild pid, its exit status, child's rc */
    fflush(stdout);
    pid_t g = fork();
    if (g == 0) {
        rec(ids->a, "g-inh");
        (void)open_rec("ct.tri.grandchild", "g-own");
        _exit(0);
    }
    if (g > 0) {
        int st = 0;
        double end = ct_mono_now() + WAIT_MS / 2000.0;
        while (waitpid(g, &st, WNOHANG) == 0) {
            if (ct_mono_now() > end) {
                kill(g, SIGKILL);
                waitpid(g, &st, 0);
                break;
            }
            ct_sleep_ms(2);
        }
        out[1] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    out[0] = (int)g;
    rec(ids->a, "c-inh");
    out[2] = open_rec("ct.tri.child", "c-own");
    send_ints(s, out, 3);
}

/* Checks that the stream holds the child's and the grandchild's events, with
 * their pids. */
static void check_descendants(trace_id_t trid, pid_t child, const int *out, const char *how)
{
    struct evs *e = evs_new();
    if (out[0] <= 0)
        CT_UNRESOLVED("the traced child could not fork: %s", ct_errname(-out[0]));
    if (out[1] != 0)
        CT_UNRESOLVED("the grandchild ended with status %d", out[1]);
    pid_t g = (pid_t)out[0];
    read_all(e, trid);
    size_t gc = 0, cc = 0;
    for (size_t i = 0; i < e->n; i++) {
        const struct ct_ev *v = &e->v[i];
        if (has_data(v, "g-inh") || has_data(v, "g-own")) {
            gc++;
            CT_CHECK(v->info.posix_pid == g, "the grandchild's event \"%.*s\" carries posix_pid"
                     " %ld, expected the grandchild's pid %ld", (int)v->len,
                     (const char *)v->data, (long)v->info.posix_pid, (long)g);
        }
        if (has_data(v, "c-inh") || has_data(v, "c-own")) {
            cc++;
            CT_CHECK(v->info.posix_pid == child, "the child's event \"%.*s\" carries posix_pid"
                     " %ld, expected the child's pid %ld", (int)v->len, (const char *)v->data,
                     (long)v->info.posix_pid, (long)child);
        }
    }
    if (cc != 2)
        CT_UNRESOLVED("the stream holds %zu of the 2 events of the child (%s): the child is"
                      " not traced to begin with (fork.inherited)", cc, how);
    CT_CHECK(gc == 2, "the stream holds %zu of the 2 events recorded by a grandchild of %s,"
             " expected both: with POSIX_TRACE_INHERITED the traced process is traced"
             " together with all its future children", gc, how);
    free(e);
}
#endif

CT_TEST(fork_inherited_descendants, "fork.inherited-descendants", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_create,posix_trace_event,fork")
{
#if CT_HAVE_TRI
    need_tri();
    struct ids ids;
    int out[3];
    trace_id_t trid = stream_with(POSIX_TRACE_INHERITED);
    ids.a = ct_open_id("ct.tri.parent");
    struct kid k = kid_start(child_forks, &ids);
    kid_ints(&k, out, 3, "its grandchild");
    kid_done(&k);
    if (out[2] != 0)
        CT_UNRESOLVED("eventid_open in the traced child returned %s", ct_errname(out[2]));
    check_descendants(trid, k.pid, out, "the traced process");
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRI();
#endif
}

#if CT_HAVE_TRI
/* The child of descendants_of_target: waits to be traced, then as above. */
static void target_forks(const struct side *s, void *arg)
{
    child_await(s, 'g');
    struct ids *ids = arg;
    if (posix_trace_eventid_open("ct.tri.parent", &ids->a) != 0) {
        int out[3] = { 0, 0, -1 };
        send_ints(s, out, 3);
        return;
    }
    child_forks(s, ids);
}
#endif

CT_TEST(descendants_of_target, "fork.inherited-descendants", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_create,posix_trace_event,fork")
{
#if CT_HAVE_TRI
    need_tri();
    /* The initial targeted process is another one: the stream is created for
     * the child's pid; the child's own child is traced too. */
    struct ids ids;
    trace_attr_t a;
    trace_id_t trid;
    int out[3];
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED));
    struct kid k = kid_start(target_forks, &ids);
    int rc = posix_trace_create(k.pid, &a, &trid);
    if (rc != 0) {
        kid_end(&k);
        if (rc == EPERM)
            CT_UNSUPPORTED("create for a child's pid returned EPERM: this implementation"
                           " traces no process other than the caller");
        CT_UNRESOLVED("create for the child's pid returned %s", ct_errname(rc));
    }
    CT_SETUP_OK(posix_trace_start(trid));
    kid_say(&k, 'g');
    kid_ints(&k, out, 3, "its grandchild");
    kid_done(&k);
    if (out[2] != 0)
        CT_UNRESOLVED("eventid_open in the traced child returned %s", ct_errname(out[2]));
    check_descendants(trid, k.pid, out, "a process traced by its pid");
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRI();
#endif
}

/* ---- fork with CLOSE_FOR_CHILD ------------------------------------------------------------ */

CT_TEST(fork_close_for_child, "fork.close-for-child", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_event,posix_trace_trygetnext_event,fork")
{
#if CT_HAVE_TRI
    need_tri();
    struct ids ids;
    struct evs *e = evs_new();
    int rc;
    trace_id_t trid = stream_with(POSIX_TRACE_CLOSE_FOR_CHILD);
    pid_t child = record_around_child(&ids, &rc);
    read_all(e, trid);
    for (size_t i = 0; i < e->n; i++) {
        const struct ct_ev *v = &e->v[i];
        CT_CHECK(v->info.posix_pid != child && !has_data(v, "c-inh") && !has_data(v, "c-own"),
                 "a stream with POSIX_TRACE_CLOSE_FOR_CHILD holds an event of the child"
                 " (\"%.*s\", posix_pid %ld; the child is %ld): the child is not traced into"
                 " it", (int)(v->len < 32 ? v->len : 32), (const char *)v->data,
                 (long)v->info.posix_pid, (long)child);
    }
    CT_CHECK(count_data(e, "p-before") == 1 && count_data(e, "p-after") == 1,
             "the parent's events before and after the fork are in the stream %zu and %zu"
             " times, expected once each: tracing of the parent continues",
             count_data(e, "p-before"), count_data(e, "p-after"));
    CT_CHECK_OK(posix_trace_shutdown(trid));
    free(e);
#else
    NO_TRI();
#endif
}

CT_TEST(fork_two_policies, "fork.close-for-child,fork.inherited", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_event,posix_trace_trygetnext_event,fork")
{
#if CT_HAVE_TRI
    need_tri();
    /* The policy is the stream's: one process traced into two streams, one of
     * each policy; its child goes into the INHERITED one only. */
    CT_RULE("fork.close-for-child");  /* and the checks of reading its stream */
    struct ids ids;
    struct evs *e = evs_new();
    int rc;
    trace_id_t closed = stream_with(POSIX_TRACE_CLOSE_FOR_CHILD);
    trace_id_t inh = stream_with(POSIX_TRACE_INHERITED);
    record_around_child(&ids, &rc);
    if (rc != 0)
        CT_UNRESOLVED("eventid_open in the child returned %s", ct_errname(rc));
    read_all(e, closed);
    CT_RULE("fork.close-for-child");
    CT_CHECK(count_data(e, "c-inh") + count_data(e, "c-own") == 0,
             "the POSIX_TRACE_CLOSE_FOR_CHILD stream holds %zu events of the child, whose"
             " parent is also traced into a POSIX_TRACE_INHERITED stream: the policy is each"
             " stream's", count_data(e, "c-inh") + count_data(e, "c-own"));
    CT_CHECK(count_data(e, "p-before") == 1 && count_data(e, "p-after") == 1,
             "the CLOSE_FOR_CHILD stream holds the parent's events %zu and %zu times, expected"
             " once each", count_data(e, "p-before"), count_data(e, "p-after"));
    read_all(e, inh);
    CT_RULE("fork.inherited");
    CT_CHECK(count_data(e, "c-inh") == 1 && count_data(e, "c-own") == 1,
             "the POSIX_TRACE_INHERITED stream holds the child's two events %zu and %zu times,"
             " expected once each (the parent is also traced into a CLOSE_FOR_CHILD stream)",
             count_data(e, "c-inh"), count_data(e, "c-own"));
    CT_CHECK(count_data(e, "p-before") == 1 && count_data(e, "p-after") == 1,
             "the INHERITED stream holds the parent's events %zu and %zu times, expected"
             " once each", count_data(e, "p-before"), count_data(e, "p-after"));
    CT_CHECK_OK(posix_trace_shutdown(closed));
    CT_CHECK_OK(posix_trace_shutdown(inh));
    free(e);
#else
    NO_TRI();
#endif
}

/* ---- identifiers shared by the processes of a stream ---------------------------------------- */

#if CT_HAVE_TRI
/* The child of unique_tri: opens names of its own before and after the
 * parent opens its own. */
static void child_opens_names(const struct side *s, void *arg)
{
    int rc[4];
    (void)arg;
    rc[0] = open_rec("ct.tri.c1", "c1");
    rc[1] = open_rec("ct.tri.c2", "c2");
    rc[2] = open_rec("ct.tri.c3", "c3");
    child_say(s, '1');
    child_await(s, '2');
    rc[3] = open_rec("ct.tri.c4", "c4");
    send_ints(s, rc, 4);
}

/* Every pair of events among data[0..n) (each read once) of distinct names
 * has unequal identifiers, and each event's identifier has its name. */
static void check_all_distinct(const struct evs *e, const char *const *data,
                               const char *const *names, size_t n, const char *const *who)
{
    const struct ct_ev *v[16];
    for (size_t i = 0; i < n; i++) {
        v[i] = the_event(e, data[i], who[i]);
        check_name(e->trid, v[i], names[i], who[i]);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            CT_CHECK(!posix_trace_eventid_equal(e->trid, v[i]->info.posix_event_id,
                                                v[j]->info.posix_event_id),
                     "\"%s\" (opened by %s) and \"%s\" (opened by %s) have equal identifiers"
                     " (%s) in the stream that traces both processes: identifiers are unique"
                     " across the processes of a stream", names[i], who[i], names[j], who[j],
                     CT_HEX(v[i]->info.posix_event_id));
}
#endif

CT_TEST(unique_tri, "eventid_open.unique-per-stream-tri", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_eventid_open,posix_trace_eventid_equal,"
        "posix_trace_eventid_get_name,fork")
{
#if CT_HAVE_TRI
    need_tri();
    struct evs *e = evs_new();
    int rc[4];
    trace_id_t trid = stream_with(POSIX_TRACE_INHERITED);
    trace_event_id_t pre = ct_open_id("ct.tri.pre");
    struct kid k = kid_start(child_opens_names, NULL);
    kid_await(&k, '1', "its first names");
    /* The parent's new names, after the child opened three of its own: a
     * per-process numbering would give them the child's identifiers. */
    rec(ct_open_id("ct.tri.p1"), "p1");
    rec(ct_open_id("ct.tri.p2"), "p2");
    rec(ct_open_id("ct.tri.p3"), "p3");
    rec(pre, "pre");
    kid_say(&k, '2');
    kid_ints(&k, rc, 4, "its names");
    kid_done(&k);
    for (int i = 0; i < 4; i++)
        if (rc[i] != 0)
            CT_UNRESOLVED("eventid_open in the traced child returned %s", ct_errname(rc[i]));
    rec(ct_open_id("ct.tri.p4"), "p4");
    read_all(e, trid);
    static const char *const data[] = { "pre", "c1", "c2", "c3", "p1", "p2", "p3", "c4", "p4" };
    static const char *const names[] = { "ct.tri.pre", "ct.tri.c1", "ct.tri.c2", "ct.tri.c3",
                                         "ct.tri.p1", "ct.tri.p2", "ct.tri.p3", "ct.tri.c4",
                                         "ct.tri.p4" };
    static const char *const who[] = { "the parent before the fork", "the child",
                                       "the child", "the child", "the parent", "the parent",
                                       "the parent", "the child", "the parent" };
    check_all_distinct(e, data, names, 9, who);
    CT_CHECK_OK(posix_trace_shutdown(trid));
    free(e);
#else
    NO_TRI();
#endif
}

#if CT_HAVE_TRI
/* The child of same_name_tri: opens "s1" before the parent, "s2" after.  A
 * name of its own first: a child numbering its names apart from its parent
 * then numbers "s1" and "s2" unlike the parent does. */
static void child_same_names(const struct side *s, void *arg)
{
    int rc[2];
    (void)arg;
    (void)open_rec("ct.tri.c-extra", "c-extra");
    rc[0] = open_rec("ct.tri.s1", "c-s1");
    child_say(s, '1');
    child_await(s, '2');
    rc[1] = open_rec("ct.tri.s2", "c-s2");
    send_ints(s, rc, 2);
}

/* The events with data a and b have equal identifiers, equal to id. */
static void check_same(const struct evs *e, const char *name, const char *a, const char *b,
                       trace_event_id_t id, const char *order)
{
    const struct ct_ev *va = the_event(e, a, "the child");
    const struct ct_ev *vb = the_event(e, b, "the parent");
    CT_CHECK(posix_trace_eventid_equal(e->trid, va->info.posix_event_id, id) &&
             posix_trace_eventid_equal(e->trid, vb->info.posix_event_id, id),
             "\"%s\", opened %s, has identifier %s in the child's event and %s in the"
             " parent's, and the parent's eventid_open gave %s: a name already mapped for the"
             " processes of the stream keeps its identifier", name, order,
             CT_HEX(va->info.posix_event_id), CT_HEX(vb->info.posix_event_id), CT_HEX(id));
}
#endif

CT_TEST(same_name_tri, "eventid_open.same-name-same-id-tri", "TRC,TRI",
        "posix_trace_attr_setinherited,posix_trace_eventid_open,posix_trace_eventid_equal,fork")
{
#if CT_HAVE_TRI
    need_tri();
    struct evs *e = evs_new();
    int rc[2];
    trace_id_t trid = stream_with(POSIX_TRACE_INHERITED);
    struct kid k = kid_start(child_same_names, NULL);
    kid_await(&k, '1', "its first name");
    trace_event_id_t s1 = ct_open_id("ct.tri.s1");   /* the child opened it first */
    rec(s1, "p-s1");
    trace_event_id_t s2 = ct_open_id("ct.tri.s2");   /* the parent opens it first */
    rec(s2, "p-s2");
    kid_say(&k, '2');
    kid_ints(&k, rc, 2, "its names");
    kid_done(&k);
    if (rc[0] != 0 || rc[1] != 0)
        CT_UNRESOLVED("eventid_open in the traced child returned %s and %s", ct_errname(rc[0]),
                      ct_errname(rc[1]));
    read_all(e, trid);
    check_same(e, "ct.tri.s1", "c-s1", "p-s1", s1, "first by the child after the fork, then by"
               " the parent");
    check_same(e, "ct.tri.s2", "c-s2", "p-s2", s2, "first by the parent after the fork, then by"
               " the child");
    CT_CHECK_OK(posix_trace_shutdown(trid));
    free(e);
#else
    NO_TRI();
#endif
}

/* ---- trid_eventid_open with TEF and TRI --------------------------------------------------- */

#if CT_HAVE_TRI && CT_HAVE_TEF
static void need_tef(void)
{
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
}
#endif

CT_TEST(trid_unique_tri, "trid_eventid_open.unique-tri", "TRC,TEF,TRI",
        "posix_trace_trid_eventid_open,posix_trace_eventid_open,posix_trace_eventid_equal,"
        "posix_trace_attr_setinherited,fork")
{
#if CT_HAVE_TRI && CT_HAVE_TEF
    need_tri();
    need_tef();
    struct evs *e = evs_new();
    int rc[4];
    trace_event_id_t n1, n2;
    trace_id_t trid = stream_with(POSIX_TRACE_INHERITED);
    rec(ct_open_id("ct.tri.pre"), "pre");
    struct kid k = kid_start(child_opens_names, NULL);
    kid_await(&k, '1', "its first names");
    /* The controller's name, after the child opened three names of its own
     * and before it opens a fourth. */
    CT_CHECK_OK(posix_trace_trid_eventid_open(trid, "ct.tri.n1", &n1));
    rec(ct_open_id("ct.tri.p1"), "p1");
    kid_say(&k, '2');
    kid_ints(&k, rc, 4, "its names");
    kid_done(&k);
    for (int i = 0; i < 4; i++)
        if (rc[i] != 0)
            CT_UNRESOLVED("eventid_open in the traced child returned %s", ct_errname(rc[i]));
    CT_CHECK_OK(posix_trace_trid_eventid_open(trid, "ct.tri.n2", &n2));
    read_all(e, trid);
    static const char *const data[] = { "pre", "c1", "c2", "c3", "p1", "c4" };
    static const char *const who[] = { "the parent", "the child", "the child", "the child",
                                       "the parent", "the child" };
    CT_CHECK(!posix_trace_eventid_equal(trid, n1, n2), "trid_eventid_open gave \"ct.tri.n1\""
             " and \"ct.tri.n2\" equal identifiers (%s)", CT_HEX(n1));
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++) {
        const struct ct_ev *v = the_event(e, data[i], who[i]);
        CT_CHECK(!posix_trace_eventid_equal(trid, v->info.posix_event_id, n1) &&
                 !posix_trace_eventid_equal(trid, v->info.posix_event_id, n2),
                 "the identifier of the event \"%s\" (%s, recorded by %s) equals one that"
                 " trid_eventid_open gave the controller for another name (\"ct.tri.n1\" %s,"
                 " \"ct.tri.n2\" %s): identifiers are unique across the processes of the"
                 " stream", data[i], CT_HEX(v->info.posix_event_id), who[i], CT_HEX(n1),
                 CT_HEX(n2));
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
    free(e);
#else
    CT_UNSUPPORTED("built without TEF or TRI: trid_eventid_open's inheritance variant needs"
                   " both");
#endif
}

CT_TEST(trid_same_name_tri, "trid_eventid_open.same-name-same-id-tri", "TRC,TEF,TRI",
        "posix_trace_trid_eventid_open,posix_trace_eventid_open,posix_trace_eventid_equal,"
        "posix_trace_attr_setinherited,fork")
{
#if CT_HAVE_TRI && CT_HAVE_TEF
    need_tri();
    need_tef();
    struct evs *e = evs_new();
    int rc[2];
    trace_event_id_t s1, s2;
    trace_id_t trid = stream_with(POSIX_TRACE_INHERITED);
    struct kid k = kid_start(child_same_names, NULL);
    kid_await(&k, '1', "its first name");
    /* "ct.tri.s1": opened by the child only; "ct.tri.s2": by the controller
     * first, then by the child. */
    CT_CHECK_OK(posix_trace_trid_eventid_open(trid, "ct.tri.s1", &s1));
    CT_CHECK_OK(posix_trace_trid_eventid_open(trid, "ct.tri.s2", &s2));
    kid_say(&k, '2');
    kid_ints(&k, rc, 2, "its names");
    kid_done(&k);
    if (rc[0] != 0 || rc[1] != 0)
        CT_UNRESOLVED("eventid_open in the traced child returned %s and %s", ct_errname(rc[0]),
                      ct_errname(rc[1]));
    read_all(e, trid);
    const struct ct_ev *c1 = the_event(e, "c-s1", "the child");
    const struct ct_ev *c2 = the_event(e, "c-s2", "the child");
    CT_CHECK(posix_trace_eventid_equal(trid, c1->info.posix_event_id, s1),
             "\"ct.tri.s1\", opened by the traced child, has identifier %s in its event, but"
             " trid_eventid_open gave the controller %s: a name already mapped for a process"
             " of the stream keeps its identifier", CT_HEX(c1->info.posix_event_id),
             CT_HEX(s1));
    CT_CHECK(posix_trace_eventid_equal(trid, c2->info.posix_event_id, s2),
             "\"ct.tri.s2\", opened by the controller with trid_eventid_open (%s) and then by"
             " the traced child, has identifier %s in the child's event",
             CT_HEX(s2), CT_HEX(c2->info.posix_event_id));
    CT_CHECK_OK(posix_trace_shutdown(trid));
    free(e);
#else
    CT_UNSUPPORTED("built without TEF or TRI: trid_eventid_open's inheritance variant needs"
                   " both");
#endif
}
