/* SPDX-License-Identifier: MIT */
/*
 * check_sigkill.c -- Check suite "sigkill": a recording process killed with
 * SIGKILL at seeded random points (issue 20 item 5), at least 50 kills:
 *
 *   - a stream with a log (LOGFORMAT section 2: a writer may die at any
 *     point): the log must open with posix_trace_open and read back in
 *     order, every event intact, every loss marked; tracedump must read it
 *     (exit status 0 or 1, never 2: "unreadable");
 *   - a stream without a log that a killed child inherited (S0317), read by
 *     the controller that survives: the same, and it keeps working.
 *
 * Only the public API and the tracedump tool check what remains, so the test
 * holds whatever the log's format or the recording path (issues 19, 20).
 *
 * "Intact": each event carries its sequence number, a check word derived
 * from it and the seed, and 0-40 bytes of a pattern derived from it.
 * "In order": sequence numbers only grow and timestamps never go back.
 * "Every loss marked": two events whose numbers are not consecutive have
 * between them an OVERFLOW, RESUME or STOP event (S0279, S0034; LOGFORMAT:
 * a LOOP stream's OVERFLOW and RESUME reach the log too); a LOOP log may
 * begin anywhere (its oldest segments were overwritten).
 *
 * The kill points: half the rounds a time after the recorder is ready
 * (0-25 ms), half an event count at which the recorder kills itself.  The
 * seed: SIGKILL_SEED if set (to replay a failure), else from the clock; every
 * failure message gives it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ck.h"
#include <trace.h>
#include "check_log.h"         /* lu_tmpfile only: the checks use the public API */

#define LOG_ROUNDS     30
#define SHARED_ROUNDS  30
#define MAX_PAD        40
#define TRACEDUMP      "build/bin/tracedump"

extern char **environ;

static uint64_t seed;
static uint64_t events_read, gaps_marked;       /* what the rounds exercised */

static int light(void)          /* under valgrind (CK_FORK=no): fewer rounds */
{
    const char *f = getenv("CK_FORK");
    return f != NULL && strcmp(f, "no") == 0;
}

static uint64_t mix(uint64_t x)  /* splitmix64: the seed's random numbers */
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t pick(int round, int what, uint64_t n)
{
    return mix(seed ^ mix(((uint64_t)round << 8) | (uint64_t)what)) % n;
}

/* ---- the events: what a recorder writes, how a reader checks it ---------- */

struct payload {
    uint64_t seq, check;
    unsigned char pad[MAX_PAD];
};

static uint64_t check_word(uint64_t seq)
{
    return mix(seq ^ seed);
}

static size_t pad_len(uint64_t seq)
{
    return (size_t)(check_word(seq) % (MAX_PAD + 1));
}

static size_t make_payload(uint64_t seq, struct payload *p)
{
    p->seq = seq;
    p->check = check_word(seq);
    size_t n = pad_len(seq);
    for (size_t i = 0; i < n; i++)
        p->pad[i] = (unsigned char)(seq * 31 + i);
    return 2 * sizeof(uint64_t) + n;
}

/* What a reader saw; the first problem is kept with its place. */
struct verdict {
    uint64_t events, gaps, last_seq;   /* gaps: losses, marked (or a LOOP log's start) */
    int have_last, marker, ordered_ts;
    struct timespec last_ts;
    char problem[256];
};

static void problem(struct verdict *v, const char *fmt, unsigned long long a,
                    unsigned long long b)
{
    if (v->problem[0] == '\0')
        snprintf(v->problem, sizeof v->problem, fmt, a, b);
}

static int ts_before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

/* One event of the recorder's id (or another event, a marker or not). */
static void saw(struct verdict *v, trace_event_id_t id, trace_event_id_t mine,
                const struct posix_trace_event_info *info, const void *data, size_t len,
                int first_may_skip)
{
    if (v->have_last && ts_before(info->posix_timestamp, v->last_ts))
        problem(v, "a timestamp goes back after event %llu", v->last_seq, 0);
    v->last_ts = info->posix_timestamp;
    if (id == POSIX_TRACE_OVERFLOW || id == POSIX_TRACE_RESUME || id == POSIX_TRACE_STOP) {
        v->marker = 1;
        return;
    }
    if (id != mine)
        return;
    struct payload p;
    if (len < 2 * sizeof(uint64_t) || len > sizeof p) {
        problem(v, "an event of %llu bytes after event %llu: garbled", len, v->last_seq);
        return;
    }
    memcpy(&p, data, len);
    struct payload want;
    if (make_payload(p.seq, &want) != len || memcmp(&p, &want, len) != 0) {
        problem(v, "event %llu (%llu bytes) is garbled", p.seq, len);
        return;
    }
    if (v->have_last && p.seq <= v->last_seq)
        problem(v, "event %llu after event %llu: out of order", p.seq, v->last_seq);
    else if (v->have_last ? p.seq != v->last_seq + 1 && !v->marker
                          : p.seq != 0 && !v->marker && !first_may_skip)
        problem(v, "events %llu to %llu lost, and no OVERFLOW, RESUME or STOP says so",
                v->have_last ? v->last_seq + 1 : 0, p.seq - 1);
    if (v->have_last ? p.seq != v->last_seq + 1 : p.seq != 0)
        v->gaps++;
    v->marker = 0;
    v->have_last = 1;
    v->last_seq = p.seq;
    v->events++;
}

/* ---- a stream with a log --------------------------------------------------- */

static const int stream_policies[] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL,
                                       POSIX_TRACE_FLUSH };
static const int log_policies[] = { POSIX_TRACE_APPEND, POSIX_TRACE_LOOP,
                                    POSIX_TRACE_UNTIL_FULL };

struct log_round {
    int stream_policy, log_policy;
    size_t streamsize, logsize;
    uint64_t flush_every;       /* events between two posix_trace_flush */
    uint64_t kill_at;           /* 0: killed by the parent, at a time */
};

static void log_round_of(int round, struct log_round *r)
{
    r->stream_policy = stream_policies[pick(round, 1, 3)];
    r->log_policy = log_policies[pick(round, 2, 3)];
    r->streamsize = (size_t)(8 + pick(round, 3, 57)) * 1024;
    r->logsize = (size_t)(32 + pick(round, 4, 225)) * 1024;
    r->flush_every = 20 + pick(round, 5, 2000);
    r->kill_at = round % 2 ? 1 + pick(round, 6, 60000) : 0;
}

static void log_recorder(int fd, int ready, const struct log_round *r)
{
    trace_attr_t a;
    trace_id_t trid;
    trace_event_id_t id;
    struct payload p;
    if (posix_trace_attr_init(&a) != 0 ||
        posix_trace_attr_setstreamfullpolicy(&a, r->stream_policy) != 0 ||
        posix_trace_attr_setlogfullpolicy(&a, r->log_policy) != 0 ||
        posix_trace_attr_setstreamsize(&a, r->streamsize) != 0 ||
        posix_trace_attr_setlogsize(&a, r->logsize) != 0 ||
        posix_trace_attr_setmaxdatasize(&a, sizeof p) != 0 ||
        posix_trace_create_withlog(0, &a, fd, &trid) != 0 ||
        posix_trace_eventid_open("sigkill.seq", &id) != 0 || posix_trace_start(trid) != 0)
        _exit(3);
    if (write(ready, "r", 1) != 1)
        _exit(3);
    for (uint64_t seq = 0;; seq++) {
        if (r->kill_at && seq == r->kill_at)
            kill(getpid(), SIGKILL);
        posix_trace_event(id, &p, make_payload(seq, &p));
        if (seq % r->flush_every == r->flush_every - 1)
            posix_trace_flush(trid);
    }
}

/* tracedump on the log (as its standard input): its exit status; -1 if it
 * died of a signal, -2 if it cannot run here (a cross build's tool). */
static int tracedump_status(int fd)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int status;
    char *argv[] = { TRACEDUMP, "--summary", "-", NULL };
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, STDIN_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    int rc = posix_spawn(&pid, TRACEDUMP, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -2;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status) == 127 ? -2 : WEXITSTATUS(status);
}

static void read_log(int fd, int round, const struct log_round *r, int *dumped)
{
    trace_id_t trid;
    trace_event_id_t mine;
    int rc = posix_trace_open(fd, &trid);
    ck_assert_msg(rc == 0, "SIGKILL_SEED=%llu round %d: the log of a killed recorder does "
                  "not open: %s", (unsigned long long)seed, round, strerror(rc));
    int have_id = 0;                /* a log maps names by its type list (S0153) */
    struct verdict v;
    memset(&v, 0, sizeof v);
    for (;;) {
        struct posix_trace_event_info info;
        struct payload p;
        size_t len;
        int unavailable;
        rc = posix_trace_getnext_event(trid, &info, &p, sizeof p, &len, &unavailable);
        ck_assert_msg(rc == 0, "SIGKILL_SEED=%llu round %d: reading the log: %s",
                      (unsigned long long)seed, round, strerror(rc));
        if (unavailable)
            break;
        char name[TRACE_EVENT_NAME_MAX];
        if (!have_id &&
            posix_trace_eventid_get_name(trid, info.posix_event_id, name) == 0 &&
            strcmp(name, "sigkill.seq") == 0) {
            mine = info.posix_event_id;
            have_id = 1;
        }
        saw(&v, info.posix_event_id, have_id ? mine : info.posix_event_id + 1, &info, &p, len,
            r->log_policy == POSIX_TRACE_LOOP);
    }
    ck_assert_int_eq(posix_trace_close(trid), 0);
    events_read += v.events;
    gaps_marked += v.gaps;
    ck_assert_msg(v.problem[0] == '\0', "SIGKILL_SEED=%llu round %d (stream policy %d, log "
                  "policy %d, killed %s %llu): %s", (unsigned long long)seed, round,
                  r->stream_policy, r->log_policy, r->kill_at ? "at event" : "by time",
                  (unsigned long long)r->kill_at, v.problem);
    if (access(TRACEDUMP, X_OK) == 0) {
        int st = tracedump_status(fd);
        ck_assert_msg(st == 0 || st == 1 || st == -2, "SIGKILL_SEED=%llu round %d: tracedump "
                      "cannot read the log of a killed recorder (exit status %d)",
                      (unsigned long long)seed, round, st);
        *dumped += st != -2;
    }
}

/* Forks a recorder.  In the child: 0, and *ready the end of a pipe to write
 * "r" to once it records; in the parent: the pid, and *ready the end to read. */
static pid_t fork_recorder(int *ready)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    close(p[pid == 0 ? 0 : 1]);
    *ready = p[pid == 0 ? 1 : 0];
    return pid;
}

static void sleep_us(long us)
{
    struct timespec d = { us / 1000000, (us % 1000000) * 1000 };
    while (nanosleep(&d, &d) != 0 && errno == EINTR)
        ;
}

/* Waits for the recorder's "ready", kills it (unless it kills itself). */
static void kill_recorder(pid_t pid, int ready, long after_us, int round)
{
    char c;
    ssize_t n = read(ready, &c, 1);
    if (n == 1 && after_us >= 0) {
        sleep_us(after_us);
        kill(pid, SIGKILL);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
                  "SIGKILL_SEED=%llu round %d: the recorder did not start (status %d)",
                  (unsigned long long)seed, round, status);
}

START_TEST(test_killed_with_log)
{
    int rounds = light() ? 4 : LOG_ROUNDS, dumped = 0;
    for (int round = 0; round < rounds; round++) {
        struct log_round r;
        log_round_of(round, &r);
        int fd = lu_tmpfile(), ready;
        pid_t pid = fork_recorder(&ready);
        if (pid == 0)
            log_recorder(fd, ready, &r);
        kill_recorder(pid, ready, r.kill_at ? -1 : (long)pick(round, 7, 25000), round);
        close(ready);
        read_log(fd, round, &r, &dumped);
        close(fd);
    }
    printf("sigkill: %d recorders with a log killed (seed %llu), tracedump read %d; "
           "%llu events read, %llu marked gaps\n", rounds, (unsigned long long)seed, dumped,
           (unsigned long long)events_read, (unsigned long long)gaps_marked);
    events_read = gaps_marked = 0;
}
END_TEST

/* ---- a stream without a log, inherited by the killed child ----------------- */

START_TEST(test_killed_sharing_a_stream)
{
    int rounds = light() ? 4 : SHARED_ROUNDS;
    for (int round = 0; round < rounds; round++) {
        int policy = pick(round, 11, 2) ? POSIX_TRACE_LOOP : POSIX_TRACE_UNTIL_FULL;
        uint64_t kill_at = round % 2 ? 1 + pick(round, 12, 40000) : 0;
        trace_attr_t a;
        trace_id_t trid;
        trace_event_id_t id;
        struct payload p;
        ck_assert_int_eq(posix_trace_attr_init(&a), 0);
        ck_assert_int_eq(posix_trace_attr_setinherited(&a, POSIX_TRACE_INHERITED), 0);
        ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, policy), 0);
        ck_assert_int_eq(posix_trace_attr_setstreamsize(&a,
                         (size_t)(8 + pick(round, 13, 121)) * 1024), 0);
        ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, sizeof p), 0);
        ck_assert_int_eq(posix_trace_create(0, &a, &trid), 0);
        posix_trace_attr_destroy(&a);
        ck_assert_int_eq(posix_trace_eventid_open("sigkill.seq", &id), 0);
        ck_assert_int_eq(posix_trace_start(trid), 0);
        int ready;
        pid_t pid = fork_recorder(&ready);
        if (pid == 0) {
            if (write(ready, "r", 1) != 1)
                _exit(3);
            for (uint64_t seq = 0;; seq++) {
                if (kill_at && seq == kill_at)
                    kill(getpid(), SIGKILL);
                posix_trace_event(id, &p, make_payload(seq, &p));
            }
        }
        kill_recorder(pid, ready, kill_at ? -1 : (long)pick(round, 14, 20000), round);
        close(ready);

        /* The survivor reads what the child left, then records and reads
         * one event more: the stream still works. */
        struct verdict v;
        memset(&v, 0, sizeof v);
        struct posix_trace_event_info info;
        size_t len;
        int unavailable, own = 0;
        uint64_t last = 1ull << 40;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1)
                posix_trace_event(id, &p, make_payload(last, &p));
            for (;;) {
                int rc = posix_trace_trygetnext_event(trid, &info, &p, sizeof p, &len,
                                                      &unavailable);
                ck_assert_msg(rc == 0, "SIGKILL_SEED=%llu round %d: reading: %s",
                              (unsigned long long)seed, round, strerror(rc));
                if (unavailable)
                    break;
                if (info.posix_event_id == id && info.posix_pid == getpid() &&
                    len >= sizeof(uint64_t) && p.seq == last) {
                    own++;
                    continue;
                }
                saw(&v, info.posix_event_id, id, &info, &p, len, 0);
            }
        }
        ck_assert_msg(v.problem[0] == '\0', "SIGKILL_SEED=%llu round %d (policy %d, killed "
                      "%s %llu): %s", (unsigned long long)seed, round, policy,
                      kill_at ? "at event" : "by time", (unsigned long long)kill_at,
                      v.problem);
        events_read += v.events;
        gaps_marked += v.gaps;
        ck_assert_msg(own == 1,
                      "SIGKILL_SEED=%llu round %d: the survivor's own event was not read "
                      "back", (unsigned long long)seed, round);
        ck_assert_int_eq(posix_trace_shutdown(trid), 0);
    }
    printf("sigkill: %d recorders sharing a stream killed (seed %llu); %llu events read, "
           "%llu marked gaps\n", rounds, (unsigned long long)seed,
           (unsigned long long)events_read, (unsigned long long)gaps_marked);
}
END_TEST

Suite *suite_sigkill(void);

Suite *suite_sigkill(void)
{
    const char *s = getenv("SIGKILL_SEED");
    if (s != NULL && *s != '\0') {
        seed = strtoull(s, NULL, 0);
    } else {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        seed = mix((uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec) % 1000000007u;
    }
    Suite *suite = suite_create("sigkill");
    TCase *tc = tcase_create("killed");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_killed_with_log);
    tcase_add_test(tc, test_killed_sharing_a_stream);
    suite_add_tcase(suite, tc);
    return suite;
}
