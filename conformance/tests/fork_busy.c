/* SPDX-License-Identifier: MIT */
/*
 * fork_busy.c -- fork() meeting the trace calls: a fork while another thread
 * of the process is inside trace calls, and forks of forks.
 *
 * fork() must return in the parent and the child whatever the other threads
 * are doing, and the child is a process of its own: it is no controller of
 * its parent's streams (S0320), it is traced into none of them without
 * inheritance (S0319), and it can trace itself and its own children (a
 * process may use the whole API: xsh 2.11).  An implementation that keeps
 * locks or lists of its own across fork must leave them in order; these
 * tests fork while another thread holds them and let children fork again.
 * The child of a process with several threads may only call
 * async-signal-safe functions (xsh fork): there it only ends, with _exit;
 * the children that use the API are forked by single-threaded processes.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "ct.h"
#include "ct_stream.h"

/* What a child checks of its own use of the API; its exit status says
 * which step failed (0: all of them held). */
enum child_step { CHILD_OK, CHILD_CREATE, CHILD_START, CHILD_READ, CHILD_SHUTDOWN,
                  CHILD_PARENT_STREAM, CHILD_FORK, CHILD_GRANDCHILD };

static const char *const child_steps[] = {
    "ok", "its posix_trace_create(0, NULL) failed",
    "its posix_trace_start failed", "its own event did not come back from its stream",
    "its posix_trace_shutdown failed",
    "its posix_trace_shutdown of its parent's stream succeeded (S0320)", "its fork failed", "a grandchild it forked did not end with status 0",
};

/* The child's own stream: created, started, one event recorded and read
 * back, shut down. */
static int child_own_stream(void)
{
    trace_id_t t;
    struct ct_rec r;
    if (posix_trace_create(0, NULL, &t) != 0)
        return CHILD_CREATE;
    if (posix_trace_start(t) != 0)
        return CHILD_START;
    trace_event_id_t id = ct_open_id("ct-fork-child");
    ct_record_seq(id, 77);
    if (!ct_next_of(t, id, &r))
        return CHILD_READ;
    if (posix_trace_shutdown(t) != 0)
        return CHILD_SHUTDOWN;
    return CHILD_OK;
}

static const char *child_end(int st)
{
    if (WIFEXITED(st) && WEXITSTATUS(st) < (int)(sizeof child_steps / sizeof *child_steps))
        return child_steps[WEXITSTATUS(st)];
    return ct_wait_status(st);
}

/* ---- a fork while another thread is inside trace calls ------------------------------- */

struct busy {
    trace_id_t trid;
    trace_event_id_t id;
    atomic_int stop;
    atomic_long calls;
};

/* Calls into the library without pause: the status, an event, a read. */
static void *busy_main(void *arg)
{
    struct busy *b = arg;
    struct posix_trace_status_info si;
    struct posix_trace_event_info info;
    char data[16];
    size_t len;
    int unavailable;
    while (!atomic_load(&b->stop)) {
        (void)posix_trace_get_status(b->trid, &si);
        posix_trace_event(b->id, "busy", 4);
        (void)posix_trace_trygetnext_event(b->trid, &info, data, sizeof data, &len,
                                           &unavailable);
        atomic_fetch_add(&b->calls, 1);
    }
    return NULL;
}

CT_TEST(fork_while_busy, "fork.during-trace-calls", "TRC",
        "fork,posix_trace_get_status,posix_trace_event,posix_trace_trygetnext_event")
{
    struct busy b = { .stop = 0, .calls = 0 };
    CT_SETUP_OK(posix_trace_create(0, NULL, &b.trid));
    CT_SETUP_OK(posix_trace_start(b.trid));
    b.id = ct_open_id("ct-fork-busy");
    pthread_t th;
    if (pthread_create(&th, NULL, busy_main, &b) != 0)
        CT_UNRESOLVED("pthread_create failed");
    /* Forks while the other thread is in its loop: fork must return in
     * both, and the child (of a process with two threads) ends at once. */
    int failed = 0, rounds = 40;
    char what[200] = "";
    for (int i = 0; i < rounds && !failed; i++) {
        long seen = atomic_load(&b.calls);
        while (atomic_load(&b.calls) < seen + 3)
            sched_yield();                  /* the other thread is at work */
        pid_t pid = ct_fork();
        if (pid == 0)
            _exit(CHILD_OK);
        int st;
        if (waitpid(pid, &st, 0) != pid)
            CT_UNRESOLVED("waitpid failed: %s", ct_errname(errno));
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
            failed = 1;
            snprintf(what, sizeof what, "fork %d of %d, made while another thread was in a"
                     " trace call: the child (which only calls _exit(0)) ended with %s",
                     i + 1, rounds, ct_wait_status(st));
        }
    }
    atomic_store(&b.stop, 1);
    pthread_join(th, NULL);
    CT_CHECK(!failed, "%s", what);
    /* The parent's stream still works: running, and an event recorded now
     * comes back. */
    struct posix_trace_status_info si;
    CT_CHECK_OK(posix_trace_get_status(b.trid, &si));
    CT_CHECK(si.posix_stream_status == POSIX_TRACE_RUNNING, "the parent's stream is %s after"
             " its children's forks, expected RUNNING", ct_state_name(si.posix_stream_status));
    struct ct_rec r;
    while (ct_next_event(b.trid, &r))
        ;
    trace_event_id_t last = ct_open_id("ct-fork-busy-after");
    ct_record_seq(last, 9);
    CT_CHECK(ct_next_of(b.trid, last, &r), "an event recorded after the forks is not in the"
             " parent's stream");
    CT_CHECK_OK(posix_trace_shutdown(b.trid));
}

/* ---- forks of forks ---------------------------------------------------------------- */

/* In a child of a process that uses the API: fork grandchildren (more than
 * a first table or list of children would hold), each using the API and
 * ending, then the child's own stream. */
static int child_forks_again(trace_id_t parents, int grandchildren)
{
    for (int i = 0; i < grandchildren; i++) {
        fflush(stdout);
        pid_t g = fork();
        if (g < 0)
            return CHILD_FORK;
        if (g == 0)
            _exit(child_own_stream());
        int st;
        if (waitpid(g, &st, 0) != g || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return CHILD_GRANDCHILD;
    }
    if (posix_trace_shutdown(parents) == 0)
        return CHILD_PARENT_STREAM;
    return child_own_stream();
}

CT_TEST(fork_of_fork, "fork.child-forks-again", "TRC",
        "fork,posix_trace_create,posix_trace_start,posix_trace_event,posix_trace_shutdown")
{
    trace_id_t t;
    CT_SETUP_OK(posix_trace_create(0, NULL, &t));
    CT_SETUP_OK(posix_trace_start(t));
    trace_event_id_t id = ct_open_id("ct-fork-of-fork");
    ct_record_seq(id, 1);
    /* Several children, each forking many times: the parent's own list of
     * children grows too. */
    for (int c = 0; c < 4; c++) {
        pid_t pid = ct_fork();
        if (pid == 0)
            _exit(child_forks_again(t, 24));
        int st;
        if (waitpid(pid, &st, 0) != pid)
            CT_UNRESOLVED("waitpid failed: %s", ct_errname(errno));
        CT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %d of 4, which forked 24"
                 " children of its own, each creating, using and shutting down a stream: %s",
                 c + 1, child_end(st));
        ct_record_seq(id, 2 + (unsigned)c);
    }
    struct ct_rec r;
    unsigned n = 0;
    while (ct_next_of(t, id, &r))
        n++;
    CT_CHECK(n == 5, "the parent's stream holds %u of the 5 events it recorded between its"
             " children's forks", n);
    CT_CHECK_OK(posix_trace_shutdown(t));
}

/* ---- a child that ends with exit(), its parent's stream with log ------------------- */

CT_TEST(child_exit_leaves_log, "fork.child-not-controller", "TRC,TRL",
        "fork,exit,posix_trace_create_withlog,posix_trace_event,posix_trace_shutdown,"
        "posix_trace_open,posix_trace_getnext_event")
{
#if CT_HAVE_TRL
    if (!ct_option("TRL"))
        CT_UNSUPPORTED("not run: TRL is not supported");
    /* The child of a controller controls none of its parent's streams
     * (S0320): when it ends with exit() -- which runs the exit handlers an
     * implementation may have, as a controller's exit shuts its streams
     * down (S0111) -- the parent's stream with log is not shut down,
     * flushed or written by it.  The parent's log then holds each of the
     * parent's events once, in order. */
    char path[] = "ct-fork-log-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        CT_UNRESOLVED("mkstemp failed: %s", ct_errname(errno));
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND));
    trace_id_t t;
    CT_SETUP_OK(posix_trace_create_withlog(0, &a, fd, &t));
    CT_SETUP_OK(posix_trace_start(t));
    trace_event_id_t id = ct_open_id("ct-fork-log");
    unsigned seq = 0;
    for (int c = 0; c < 3; c++) {
        for (int i = 0; i < 5; i++)
            ct_record_seq(id, seq++);
        pid_t pid = ct_fork();
        if (pid == 0)
            exit(0);
        int st;
        if (waitpid(pid, &st, 0) != pid)
            CT_UNRESOLVED("waitpid failed: %s", ct_errname(errno));
        CT_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %d, which only called exit(0),"
                 " ended with %s", c + 1, ct_wait_status(st));
        struct posix_trace_status_info si;
        CT_CHECK(posix_trace_get_status(t, &si) == 0 &&
                 si.posix_stream_status == POSIX_TRACE_RUNNING, "the parent's stream with log"
                 " is not RUNNING any more after its child %d called exit(0)", c + 1);
    }
    for (int i = 0; i < 5; i++)
        ct_record_seq(id, seq++);
    CT_CHECK_OK(posix_trace_shutdown(t));
    int rfd = open(path, O_RDONLY);
    unlink(path);
    close(fd);
    if (rfd < 0)
        CT_UNRESOLVED("cannot open the log again: %s", ct_errname(errno));
    trace_id_t log;
    CT_CHECK_OK(posix_trace_open(rfd, &log));
    struct posix_trace_event_info info;
    unsigned char data[64];
    size_t len;
    int unavailable = 0;
    unsigned next = 0, bad = 0;
    while (posix_trace_getnext_event(log, &info, data, sizeof data, &len, &unavailable) == 0 &&
           !unavailable) {
        unsigned v;
        if (!posix_trace_eventid_equal(log, info.posix_event_id, id) || len < sizeof v)
            continue;
        memcpy(&v, data, sizeof v);
        bad += v != next;
        next = v + 1;
    }
    CT_CHECK(next == seq && bad == 0, "the parent's log holds its events up to %u of %u, %u"
             " of them out of place (repeated or missing), after three children ended with"
             " exit(0)", next, seq, bad);
    CT_CHECK_OK(posix_trace_close(log));
    close(rfd);
#else
    CT_UNSUPPORTED("built without TRL: <trace.h> defines no _POSIX_TRACE_LOG");
#endif
}
