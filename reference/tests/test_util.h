/* SPDX-License-Identifier: MIT */
/*
 * test_util.h -- helpers shared by the Check unit tests of the posixtrace
 * reference implementation (reference/tests/check_*.c).
 *
 * These are the reference's own unit tests: they may rely on every choice
 * recorded in reference/posix/CHOICES.md and on the simulation control header
 * <posixtrace_sim.h>.  Rule identifiers (Snnnn) refer to
 * spec/posix/SHALL_STATEMENTS.tsv.
 */
#ifndef POSIXTRACE_TEST_UTIL_H
#define POSIXTRACE_TEST_UTIL_H

#include "ck.h"
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <trace.h>
#include <posixtrace_sim.h>

/* The simulated clock used by most tests: starts at 1000 s, step 1000 ns. */
#define TU_SIM_START_SEC  1000
#define TU_SIM_STEP_NS    1000L

/* Size of the data buffer of one tu_ev. */
#define TU_DATA_MAX  512

/* One event read back from a stream. */
struct tu_ev {
    struct posix_trace_event_info info;
    unsigned char data[TU_DATA_MAX];
    size_t len;
};

/* Options of tu_stream(); zero fields take the defaults noted. */
struct tu_opts {
    int    policy;       /* 0: LOOP */
    size_t streamsize;   /* 0: DESIGN default (65536) */
    size_t maxdatasize;  /* 0: DESIGN default (256); use maxdata_zero for 0 */
    int    maxdata_zero; /* nonzero: max-data-size 0 */
    int    sim;          /* nonzero: simulated clock */
    long   step_ns;      /* simulated clock step */
    long   start_sec;    /* simulated clock start (0: TU_SIM_START_SEC) */
    const char *name;    /* trace name, NULL: default */
};

/* Creates a stream of the calling process (asserts success). */
trace_id_t tu_stream(const struct tu_opts *o);
/* A LOOP stream with the simulated clock (TU_SIM_START_SEC, TU_SIM_STEP_NS). */
trace_id_t tu_stream_sim(void);
/* Same, started (the START event is in the stream). */
trace_id_t tu_stream_sim_started(void);
/* Shuts the stream down, asserting success. */
void tu_shutdown(trace_id_t trid);

/* Reads one event without blocking: 1 if one was read, 0 if none was
 * available (asserts that trygetnext returned 0). */
int tu_read1(trace_id_t trid, struct tu_ev *ev);
/* Reads every available event (trygetnext) into evs[0..max-1], returns the
 * count; fails the test if more than max are available. */
int tu_read_all(trace_id_t trid, struct tu_ev *evs, int max);
/* Number of available events, read and thrown away. */
int tu_drain(trace_id_t trid);

/* The stream status (asserts success). */
struct posix_trace_status_info tu_status(trace_id_t trid);

/* Timestamp helpers. */
long long tu_ns(struct timespec ts);
struct timespec tu_ts(long long ns);
/* The simulated timestamp of the k-th event (k = 0 first) of a stream made
 * with the default simulated clock. */
long long tu_sim_ts(int k);
/* CLOCK_REALTIME now, and now + ms milliseconds. */
struct timespec tu_now(void);
struct timespec tu_now_plus_ms(long ms);

/* A process-unique user event name "<prefix>.<n>"; buf must hold 64 bytes. */
const char *tu_unique_name(char *buf, const char *prefix);
/* Opens a fresh unique user event name; asserts success and that the id is
 * a named user event (not the unnamed one). */
trace_event_id_t tu_new_event(const char *prefix);

/* Records a user event whose data is the int value v. */
void tu_event_int(trace_event_id_t id, int v);
/* The int carried by an event (asserts len == sizeof(int)). */
int tu_ev_int(const struct tu_ev *ev);

/* Runs fn in a forked child.  fn returns 0 on success, or nonzero after
 * writing a description of the failure into msg.  Fails the test (with that
 * message) if the child fails, crashes or does not exit.  The child ends
 * with _exit(), so no atexit handler or stdio buffer of the parent runs. */
typedef int (*tu_child_fn)(void *arg, char *msg, size_t msglen);
void tu_run_in_child(tu_child_fn fn, void *arg);

/* A pid that does not exist: a child that has been reaped. */
pid_t tu_dead_pid(void);

/* Calls every function that takes a trace stream id (TRC, TEF and the
 * simulation ones) with trid and checks that each returns EINVAL.  Returns 0
 * if so; otherwise describes the first mismatch in msg and returns 1.
 * Usable in a forked child (no Check assertion inside). */
int tu_trid_all_einval(trace_id_t trid, char *msg, size_t msglen);
/* The same, as a Check assertion. */
void tu_assert_trid_invalid(trace_id_t trid, const char *what);

/* Safety net for CK_FORK=no runs, where a failed test does not get to its
 * own clean-up: streams made by tu_stream() (and any id passed to
 * tu_track()) are shut down by tu_cleanup(), ignoring errors.  tu_tcase()
 * makes a TCase with tu_cleanup() as its checked teardown. */
void tu_track(trace_id_t trid);
void tu_cleanup(void);
TCase *tu_tcase(const char *name);

/* Sleeps ms milliseconds. */
void tu_sleep_ms(long ms);

#endif /* POSIXTRACE_TEST_UTIL_H */
