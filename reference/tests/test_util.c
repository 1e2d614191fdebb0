/* SPDX-License-Identifier: MIT */
/*
 * test_util.c -- helpers shared by the reference's Check unit tests.
 * See test_util.h.
 */
#include "test_util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

trace_id_t tu_stream(const struct tu_opts *o)
{
    trace_attr_t attr;
    trace_id_t trid = 0;
    int rc;

    ck_assert_int_eq(posix_trace_attr_init(&attr), 0);
    if (o->policy != 0)
        ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&attr, o->policy), 0);
    if (o->streamsize != 0)
        ck_assert_int_eq(posix_trace_attr_setstreamsize(&attr, o->streamsize), 0);
    if (o->maxdata_zero)
        ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&attr, 0), 0);
    else if (o->maxdatasize != 0)
        ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&attr, o->maxdatasize), 0);
    if (o->name != NULL)
        ck_assert_int_eq(posix_trace_attr_setname(&attr, o->name), 0);
    if (o->sim) {
        struct timespec start;
        start.tv_sec = o->start_sec != 0 ? o->start_sec : TU_SIM_START_SEC;
        start.tv_nsec = 0;
        ck_assert_int_eq(posixtrace_attr_setsimclock(&attr, &start, o->step_ns), 0);
    }
    rc = posix_trace_create(0, &attr, &trid);
    ck_assert_msg(rc == 0, "posix_trace_create: expected 0, got %d (%s)",
                  rc, strerror(rc));
    ck_assert_int_eq(posix_trace_attr_destroy(&attr), 0);
    tu_track(trid);
    return trid;
}

trace_id_t tu_stream_sim(void)
{
    struct tu_opts o = { 0 };
    o.sim = 1;
    o.step_ns = TU_SIM_STEP_NS;
    return tu_stream(&o);
}

trace_id_t tu_stream_sim_started(void)
{
    trace_id_t trid = tu_stream_sim();
    ck_assert_int_eq(posix_trace_start(trid), 0);
    return trid;
}

void tu_shutdown(trace_id_t trid)
{
    int rc = posix_trace_shutdown(trid);
    ck_assert_msg(rc == 0, "posix_trace_shutdown: expected 0, got %d", rc);
}

int tu_read1(trace_id_t trid, struct tu_ev *ev)
{
    int unavailable = -12345;
    int rc;

    memset(ev, 0, sizeof *ev);
    rc = posix_trace_trygetnext_event(trid, &ev->info, ev->data,
                                      sizeof ev->data, &ev->len, &unavailable);
    ck_assert_msg(rc == 0, "trygetnext: expected 0, got %d (%s)", rc,
                  strerror(rc));
    ck_assert_msg(unavailable != -12345, "trygetnext did not set *unavailable");
    return unavailable == 0;
}

int tu_read_all(trace_id_t trid, struct tu_ev *evs, int max)
{
    int n = 0;
    struct tu_ev extra;

    while (n < max && tu_read1(trid, &evs[n]))
        n++;
    if (n == max)
        ck_assert_msg(!tu_read1(trid, &extra),
                      "more than %d events in the stream (next id %u)", max,
                      extra.info.posix_event_id);
    return n;
}

int tu_drain(trace_id_t trid)
{
    struct tu_ev ev;
    int n = 0;
    while (tu_read1(trid, &ev))
        n++;
    return n;
}

struct posix_trace_status_info tu_status(trace_id_t trid)
{
    struct posix_trace_status_info st;
    memset(&st, 0x5a, sizeof st);
    ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);
    return st;
}

long long tu_ns(struct timespec ts)
{
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct timespec tu_ts(long long ns)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(ns / 1000000000LL);
    ts.tv_nsec = (long)(ns % 1000000000LL);
    return ts;
}

long long tu_sim_ts(int k)
{
    return (long long)TU_SIM_START_SEC * 1000000000LL + (long long)k * TU_SIM_STEP_NS;
}

struct timespec tu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts;
}

struct timespec tu_now_plus_ms(long ms)
{
    return tu_ts(tu_ns(tu_now()) + (long long)ms * 1000000LL);
}

const char *tu_unique_name(char *buf, const char *prefix)
{
    static unsigned counter;
    snprintf(buf, 64, "%.40s.%u", prefix, ++counter);
    return buf;
}

trace_event_id_t tu_new_event(const char *prefix)
{
    char name[64];
    trace_event_id_t id = 0;
    int rc;

    tu_unique_name(name, prefix);
    rc = posix_trace_eventid_open(name, &id);
    ck_assert_msg(rc == 0, "eventid_open(%s): expected 0, got %d", name, rc);
    ck_assert_msg(id > POSIX_TRACE_UNNAMED_USEREVENT,
                  "eventid_open(%s): expected a named user id (> %u), got %u "
                  "(the per-process name limit must not be reached here)",
                  name, POSIX_TRACE_UNNAMED_USEREVENT, id);
    return id;
}

void tu_event_int(trace_event_id_t id, int v)
{
    posix_trace_event(id, &v, sizeof v);
}

int tu_ev_int(const struct tu_ev *ev)
{
    int v;
    ck_assert_msg(ev->len == sizeof(int),
                  "event %u: data_len expected %zu, got %zu",
                  ev->info.posix_event_id, sizeof(int), ev->len);
    memcpy(&v, ev->data, sizeof v);
    return v;
}

void tu_run_in_child(tu_child_fn fn, void *arg)
{
    int pfd[2];
    pid_t pid;
    int status = 0;
    char msg[512];
    ssize_t got = 0, r;
    int waited = 0;

    ck_assert_int_eq(pipe(pfd), 0);
    fflush(NULL);
    pid = fork();
    ck_assert_msg(pid >= 0, "fork failed: %s", strerror(errno));
    if (pid == 0) {
        char cmsg[512];
        int rc;
        close(pfd[0]);
        cmsg[0] = '\0';
        rc = fn(arg, cmsg, sizeof cmsg);
        if (rc != 0) {
            size_t len = strlen(cmsg);
            if (write(pfd[1], cmsg, len) < 0)
                rc = 99;
        }
        close(pfd[1]);
        _exit(rc == 0 ? 0 : (rc > 0 && rc < 100 ? rc : 1));
    }
    close(pfd[1]);
    while ((size_t)got < sizeof msg - 1
           && (r = read(pfd[0], msg + got, sizeof msg - 1 - (size_t)got)) > 0)
        got += r;
    msg[got > 0 ? got : 0] = '\0';
    close(pfd[0]);
    /* The child has closed its end: it is exiting.  Wait for it (up to
     * about 20 s, valgrind included). */
    for (int i = 0; i < 2000; i++) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            waited = 1;
            break;
        }
        tu_sleep_ms(10);
    }
    if (!waited) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        ck_abort_msg("child %d did not exit", (int)pid);
    }
    ck_assert_msg(WIFEXITED(status), "child died (status 0x%x)", status);
    ck_assert_msg(WEXITSTATUS(status) == 0, "child failed (exit %d): %s",
                  WEXITSTATUS(status), msg);
}

pid_t tu_dead_pid(void)
{
    int status;
    pid_t pid;

    fflush(NULL);
    pid = fork();
    ck_assert_msg(pid >= 0, "fork failed: %s", strerror(errno));
    if (pid == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    /* Make sure it is really gone (reaped). */
    ck_assert_int_eq(kill(pid, 0), -1);
    ck_assert_int_eq(errno, ESRCH);
    return pid;
}

void tu_sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

int tu_trid_all_einval(trace_id_t trid, char *msg, size_t msglen)
{
    struct posix_trace_event_info info;
    struct posix_trace_status_info st;
    trace_attr_t attr;
    trace_event_set_t set;
    trace_event_id_t id;
    struct timespec ts, abst;
    char name[TRACE_EVENT_NAME_MAX + 1];
    unsigned char data[16];
    size_t len;
    int unav, rc, attr_ok;

#define CHECK_EINVAL(call)                                                    \
    do {                                                                      \
        rc = (call);                                                          \
        if (rc != EINVAL) {                                                   \
            snprintf(msg, msglen, "trid %lu: %s: expected EINVAL (%d), got %d", \
                     (unsigned long)trid, #call, EINVAL, rc);                 \
            if (attr_ok)                                                      \
                posix_trace_attr_destroy(&attr);                              \
            return 1;                                                         \
        }                                                                     \
    } while (0)

    attr_ok = posix_trace_attr_init(&attr) == 0;
    abst = tu_now_plus_ms(200);
    CHECK_EINVAL(posix_trace_start(trid));
    CHECK_EINVAL(posix_trace_stop(trid));
    CHECK_EINVAL(posix_trace_clear(trid));
    CHECK_EINVAL(posix_trace_get_status(trid, &st));
    CHECK_EINVAL(posix_trace_get_attr(trid, &attr));
    CHECK_EINVAL(posix_trace_eventid_get_name(trid, POSIX_TRACE_START, name));
    CHECK_EINVAL(posix_trace_eventtypelist_getnext_id(trid, &id, &unav));
    CHECK_EINVAL(posix_trace_eventtypelist_rewind(trid));
    CHECK_EINVAL(posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len, &unav));
    CHECK_EINVAL(posix_trace_timedgetnext_event(trid, &info, data, sizeof data, &len, &unav, &abst));
    CHECK_EINVAL(posix_trace_getnext_event(trid, &info, data, sizeof data, &len, &unav));
    CHECK_EINVAL(posixtrace_sim_advance(trid, 10));
    CHECK_EINVAL(posixtrace_sim_now(trid, &ts));
    /* TEF (S0195, S0153) */
    posix_trace_eventset_empty(&set);
    CHECK_EINVAL(posix_trace_get_filter(trid, &set));
    CHECK_EINVAL(posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET));
    CHECK_EINVAL(posix_trace_trid_eventid_open(trid, "tu.invalid.trid", &id));
    CHECK_EINVAL(posix_trace_shutdown(trid));
#undef CHECK_EINVAL
    if (attr_ok)
        posix_trace_attr_destroy(&attr);
    return 0;
}

void tu_assert_trid_invalid(trace_id_t trid, const char *what)
{
    char msg[256];
    msg[0] = '\0';
    ck_assert_msg(tu_trid_all_einval(trid, msg, sizeof msg) == 0, "%s: %s", what, msg);
}

#define TU_TRACK_MAX 256
static trace_id_t tracked[TU_TRACK_MAX];
static int ntracked;

void tu_track(trace_id_t trid)
{
    if (ntracked < TU_TRACK_MAX)
        tracked[ntracked++] = trid;
}

void tu_cleanup(void)
{
    for (int i = 0; i < ntracked; i++)
        (void)posix_trace_shutdown(tracked[i]);
    ntracked = 0;
    (void)posixtrace_sim_setcpu(-1);
}

TCase *tu_tcase(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, NULL, tu_cleanup);
    return tc;
}
