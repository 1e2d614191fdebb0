/* SPDX-License-Identifier: MIT */
/*
 * check_process.c -- streams shared between processes (posix/SHARING.md):
 * several traced processes and threads writing into one stream at once, a
 * traced process killed in the middle of recording, a controller tracing its
 * child by pid.
 *
 * The writers test is the acceptance test of issue 5: 4 processes with 4
 * threads each, POSIXTRACE_STRESS_EVENTS events a thread (default 100,000),
 * read back while they write: every event is read exactly once, in order for
 * its thread, or its loss is accounted for by OVERFLOW and the stream's
 * count of lost events.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <posixtrace_sim.h>
#include "stream/stream.h"
#include "test_util.h"
#include "posix/stream_table.h"

#define NPROC    4
#define NTHREAD  4

struct payload {
    uint32_t proc, thread;
    uint64_t seq;
};

static unsigned long events_per_thread(void)
{
    const char *e = getenv("POSIXTRACE_STRESS_EVENTS");
    unsigned long n = e ? strtoul(e, NULL, 10) : 0;
    return n ? n : 100000;
}

struct writer {
    uint32_t proc, thread;
    unsigned long n;
    trace_event_id_t id;
};

static void *write_events(void *arg)
{
    struct writer *w = arg;
    struct payload p = { w->proc, w->thread, 0 };
    for (p.seq = 0; p.seq < w->n; p.seq++)
        posix_trace_event(w->id, &p, sizeof p);
    return NULL;
}

/* A traced child: NTHREAD threads record n events each, then it exits. */
static void child_writes(uint32_t proc, unsigned long n)
{
    trace_event_id_t id;
    if (posix_trace_eventid_open("stress", &id) != 0)
        _exit(2);
    pthread_t t[NTHREAD];
    struct writer w[NTHREAD];
    for (uint32_t i = 0; i < NTHREAD; i++) {
        w[i] = (struct writer){ proc, i, n, id };
        if (pthread_create(&t[i], NULL, write_events, &w[i]) != 0)
            _exit(3);
    }
    for (int i = 0; i < NTHREAD; i++)
        pthread_join(t[i], NULL);
    _exit(0);
}

static uint64_t lost_so_far(trace_id_t trid)
{
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    uint64_t lost = s->lost;
    stream_release(s);
    return lost;
}

/* S0317, S0128: children forked by a process traced with INHERITED record
 * into its stream, through one mapping of names; S0121: each event whole. */
START_TEST(test_many_writers)
{
    unsigned long n = events_per_thread();
    trace_attr_t a;
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, 4u << 20), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    posix_trace_attr_destroy(&a);
    trace_event_id_t id;
    ck_assert_int_eq(posix_trace_eventid_open("stress", &id), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);

    pid_t pids[NPROC];
    for (uint32_t i = 0; i < NPROC; i++) {
        pids[i] = fork();
        ck_assert_int_ge(pids[i], 0);
        if (pids[i] == 0)
            child_writes(i, n);
    }
    uint64_t *next = calloc(NPROC * NTHREAD, sizeof *next);
    ck_assert_ptr_nonnull(next);
    uint64_t read = 0, gaps = 0, overflows = 0, start_read = 0;
    int running = NPROC;
    for (;;) {
        struct posix_trace_event_info ev;
        struct payload p;
        size_t len;
        int unavailable;
        ck_assert_int_eq(posix_trace_trygetnext_event(trid, &ev, &p, sizeof p, &len,
                                                      &unavailable), 0);
        if (unavailable) {
            if (running == 0)
                break;                  /* all exited, stream empty */
            int st;
            pid_t w = waitpid(-1, &st, WNOHANG);
            if (w > 0) {
                ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                              "writer %ld ended with status %d", (long)w, st);
                running--;
            } else {
                sched_yield();
            }
            continue;
        }
        if (ev.posix_event_id == POSIX_TRACE_OVERFLOW) {
            overflows++;
            continue;
        }
        if (ev.posix_event_id == POSIX_TRACE_START)
            start_read = 1;
        if (ev.posix_event_id != id)
            continue;                   /* START, RESUME */
        ck_assert_uint_eq(len, sizeof p);
        ck_assert_uint_lt(p.proc, NPROC);
        ck_assert_uint_lt(p.thread, NTHREAD);
        ck_assert_int_eq(ev.posix_pid, pids[p.proc]);          /* xbd419.pid */
        uint64_t *nx = &next[p.proc * NTHREAD + p.thread];
        ck_assert_msg(p.seq >= *nx, "proc %u thread %u: event %llu read after %llu",
                      p.proc, p.thread, (unsigned long long)p.seq,
                      (unsigned long long)*nx - 1);
        gaps += p.seq - *nx;
        *nx = p.seq + 1;
        read++;
    }
    uint64_t lost = lost_so_far(trid);
    struct posix_trace_status_info st = tu_status(trid);
    if (lost > 0)                       /* S0248: the loss shows in the status */
        ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
    for (int i = 0; i < NPROC * NTHREAD; i++) {
        gaps += n - next[i];            /* lost at the end of a thread's run */
    }
    free(next);
    printf("process: %d processes x %d threads x %lu events: %llu read, %llu lost"
           " (%llu OVERFLOW)\n", NPROC, NTHREAD, n, (unsigned long long)read,
           (unsigned long long)lost, (unsigned long long)overflows);
    ck_assert_uint_eq(read + gaps, (uint64_t)NPROC * NTHREAD * n);
    /* Every loss counted by the stream; START too, if it was overwritten
     * before the reader came to it. */
    ck_assert_uint_eq(gaps + !start_read, lost);
    ck_assert(lost == 0 || overflows > 0);                     /* S0279 */
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
}
END_TEST

/* A running stream of this process that its children inherit (S0317). */
static trace_id_t start_inherited_stream(void)
{
    trace_attr_t a;
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    posix_trace_attr_destroy(&a);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    return trid;
}

/* A traced process killed while it records (possibly holding the stream's
 * lock) must leave the stream usable: the lock is robust. */
START_TEST(test_writer_killed)
{
    trace_id_t trid = start_inherited_stream();
    for (int round = 0; round < 20; round++) {
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            uint64_t x = 0;
            for (;;)
                posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, &x, sizeof x), x++;
        }
        struct timespec d = { 0, 1000000 + round * 200000 };
        nanosleep(&d, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        /* The controller can still use the stream. */
        struct posix_trace_status_info st;
        ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);
        struct tu_ev ev;
        while (tu_read1(trid, &ev))
            ;
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, "x", 1);
    }
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
}
END_TEST

/* A traced process killed while it holds the stream's lock, for sure: the
 * controller takes the lock over once it sees the owner has gone
 * (shm_lock.h), and the stream keeps working. */
START_TEST(test_lock_holder_killed)
{
    trace_id_t trid = start_inherited_stream();
    struct stream *s = stream_acquire(trid);
    ck_assert_ptr_nonnull(s);
    stream_release(s);
    int locked[2];
    ck_assert_int_eq(pipe(locked), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, "c", 1);  /* attached */
        shm_lock(&s->lock);             /* the stream is mapped where it was */
        if (write(locked[1], "l", 1) == 1)
            pause();
        _exit(1);
    }
    char c;
    ck_assert_int_eq(read(locked[0], &c, 1), 1);
    kill(pid, SIGKILL);
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    close(locked[0]);
    close(locked[1]);
    struct posix_trace_status_info st;
    ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, "p", 1);
    struct tu_ev ev[4];
    ck_assert_int_eq(tu_read_all(trid, ev, 4), 3);             /* START, c, p */
    ck_assert_int_eq(ev[2].info.posix_pid, getpid());
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
}
END_TEST

/* S0086, S0089: a stream created for a child's pid records that child's
 * events; S0088: a process that is not a child cannot be traced. */
START_TEST(test_trace_child_by_pid)
{
    int go[2];
    ck_assert_int_eq(pipe(go), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char c;
        close(go[1]);
        if (read(go[0], &c, 1) == 1)
            posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, "child", 5);
        _exit(0);
    }
    close(go[0]);
    trace_id_t trid, other;
    ck_assert_int_eq(posix_trace_create(pid, NULL, &trid), 0);
    ck_assert_int_eq(posix_trace_create(getppid(), NULL, &other), EPERM);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, "parent", 6);   /* not traced */
    ck_assert_int_eq(write(go[1], "r", 1), 1);
    close(go[1]);
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    struct tu_ev ev[8];
    int m = tu_read_all(trid, ev, 8);
    ck_assert_int_eq(m, 2);                                    /* START, child */
    ck_assert_int_eq(ev[1].info.posix_pid, pid);
    ck_assert_uint_eq(ev[1].len, 5);
    ck_assert_int_eq(posix_trace_create(pid, NULL, &other), ESRCH);   /* reaped */
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
}
END_TEST

/* The name of a shared object as the library makes them, for creator pid;
 * creates it.  0, or -1 if the system has no named shared memory. */
static int make_named_object(char *name, size_t size, pid_t pid)
{
    snprintf(name, size, "/posixtrace.%ld.999999.0", (long)pid);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int name_exists(const char *name)
{
    int fd = shm_open(name, O_RDWR, 0);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

/* A stream created for another process keeps its object's name until that
 * process opens it.  If both processes die first, the next stream created
 * for a pid removes the name; a name whose creator runs stays. */
START_TEST(test_orphan_names_removed)
{
    pid_t gone = fork();
    ck_assert_int_ge(gone, 0);
    if (gone == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(gone, NULL, 0), gone);
    char orphan[64], mine[64];
    if (make_named_object(orphan, sizeof orphan, gone) != 0)
        return;                                 /* no /dev/shm: nothing to leak */
    ck_assert_int_eq(make_named_object(mine, sizeof mine, getpid()), 0);
    int go[2];
    ck_assert_int_eq(pipe(go), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        char c;
        close(go[1]);
        while (read(go[0], &c, 1) > 0)
            ;
        _exit(0);
    }
    close(go[0]);
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_create(child, NULL, &trid), 0);
    ck_assert(!name_exists(orphan));
    ck_assert(name_exists(mine));
    shm_unlink(mine);
    close(go[1]);
    ck_assert_int_eq(waitpid(child, NULL, 0), child);
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
}
END_TEST

/* ---- determinism across processes ---------------------------------------------- */

/* The scenario: who records, in this order ('P' the controller, 'A' and 'B'
 * two children traced by inheritance).  A token passed through pipes, not
 * the host's scheduler, decides the interleaving. */
static const char script[] = "PABAPBBA";

static void child_plays(char who, int in, int out)
{
    char c;
    unsigned n = 0;
    while (read(in, &c, 1) == 1 && c == who) {
        unsigned char d[2] = { (unsigned char)who, (unsigned char)n++ };
        posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, d, sizeof d);
        if (write(out, "k", 1) != 1)
            break;
    }
    _exit(0);
}

/* Runs the script once; returns the events read (count in *n). */
static void run_script(struct tu_ev *ev, int *n)
{
    trace_attr_t a;
    trace_id_t trid;
    struct timespec start = { TU_SIM_START_SEC, 0 };
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
    ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &start, TU_SIM_STEP_NS), 0);
    ck_assert_int_eq(posixtrace_attr_setsimorigin(&a, 100), 0);
    ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
    posix_trace_attr_destroy(&a);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    int to[2][2], back[2];
    pid_t pid[2];
    ck_assert_int_eq(pipe(back), 0);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(pipe(to[i]), 0);
        pid[i] = fork();
        ck_assert_int_ge(pid[i], 0);
        if (pid[i] == 0) {
            for (int j = 0; j <= i; j++)
                close(to[j][1]);        /* EOF when the controller closes its end */
            child_plays("AB"[i], to[i][0], back[1]);
        }
        close(to[i][0]);
    }
    unsigned np = 0;
    for (const char *w = script; *w; w++) {
        char k;
        if (*w == 'P') {
            unsigned char d[2] = { 'P', (unsigned char)np++ };
            posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, d, sizeof d);
            continue;
        }
        ck_assert_int_eq(write(to[*w - 'A'][1], w, 1), 1);
        ck_assert_int_eq(read(back[0], &k, 1), 1);
    }
    for (int i = 0; i < 2; i++) {
        close(to[i][1]);                /* the child reads EOF and exits */
        ck_assert_int_eq(waitpid(pid[i], NULL, 0), pid[i]);
    }
    close(back[0]);
    close(back[1]);
    *n = tu_read_all(trid, ev, 16);
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
}

/* The same scenario of three processes gives the same events, timestamps
 * and (deterministic) origins on every run, and those pinned here. */
START_TEST(test_deterministic_processes)
{
    struct tu_ev first[16], again[16];
    int n1, n2;
    run_script(first, &n1);
    run_script(again, &n2);
    ck_assert_int_eq(n1, 1 + (int)strlen(script));             /* START + script */
    ck_assert_int_eq(n2, n1);
    /* Processes are numbered by their first event: P 100, A 101, B 102. */
    for (int i = 1; i < n1; i++) {
        char who = script[i - 1];
        ck_assert_int_eq(first[i].data[0], who);
        ck_assert_int_eq(first[i].info.posix_pid, who == 'P' ? 100 : who == 'A' ? 101 : 102);
        ck_assert_int_eq(tu_ns(first[i].info.posix_timestamp),
                         TU_SIM_START_SEC * 1000000000LL + i * TU_SIM_STEP_NS);
    }
    for (int i = 0; i < n1; i++) {
        ck_assert_int_eq(first[i].info.posix_event_id, again[i].info.posix_event_id);
        ck_assert_int_eq(first[i].info.posix_pid, again[i].info.posix_pid);
        ck_assert(first[i].info.posix_thread_id == again[i].info.posix_thread_id);
        ck_assert_int_eq(tu_ns(first[i].info.posix_timestamp),
                         tu_ns(again[i].info.posix_timestamp));
        ck_assert_uint_eq(first[i].len, again[i].len);
        ck_assert_mem_eq(first[i].data, again[i].data, first[i].len);
    }
}
END_TEST

Suite *suite_process(void)
{
    Suite *s = suite_create("process");
    TCase *tc = tcase_create("process");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_trace_child_by_pid);
    tcase_add_test(tc, test_orphan_names_removed);
    tcase_add_test(tc, test_deterministic_processes);
    tcase_add_test(tc, test_many_writers);
    suite_add_tcase(s, tc);
    /* Without robust locks these hang: let them fail soon. */
    TCase *killed = tcase_create("killed");
    tcase_set_timeout(killed, 120);
    tcase_add_test(killed, test_writer_killed);
    tcase_add_test(killed, test_lock_holder_killed);
    suite_add_tcase(s, killed);
    return s;
}
