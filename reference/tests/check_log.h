/* SPDX-License-Identifier: MIT */
/*
 * check_log.h -- helpers of the trace log's unit tests (check_log_*.c):
 * streams with a log on a temporary file, logs opened and read back whole,
 * waiting for a flush.  Rules: S-IDs of spec/posix/SHALL_STATEMENTS.tsv
 * and the sections of reference/log/LOGFORMAT.md.
 */
#ifndef CHECK_LOG_H
#define CHECK_LOG_H

#include "test_util.h"

#include <stdint.h>

/* An assertion for loops: Check's ck_assert_* record every passing check
 * (a write to the runner in fork mode), too slow for millions of them. */
#define LU_CHECK(cond, ...) \
    do { \
        if (!(cond)) \
            ck_abort_msg(__VA_ARGS__); \
    } while (0)

/* Options of lu_create(); zero fields take the defaults noted. */
struct lu_opts {
    int    stream_policy;   /* 0: not set (FLUSH with a log, ruling 17) */
    int    log_policy;      /* 0: not set (LOOP) */
    size_t streamsize;      /* 0: default (65536) */
    size_t maxdata;         /* 0: default (256) */
    size_t logsize;         /* 0: default (1 MiB) */
    int    sim;             /* simulated clock, TU_SIM_START_SEC, TU_SIM_STEP_NS */
    pid_t  simorigin;       /* > 0: deterministic origins with this pid */
    const char *name;       /* trace name, NULL: default */
};

/* A temporary regular file, open O_RDWR and already unlinked. */
int lu_tmpfile(void);

/* Creates a started-or-not stream with log on fd (asserts success). */
trace_id_t lu_create(const struct lu_opts *o, int fd);

/* Shuts trid down (asserting 0) and opens its log, on fd (asserts success). */
trace_id_t lu_shutdown_open(trace_id_t trid, int fd);

/* Opens the log on fd (asserts success). */
trace_id_t lu_open(int fd);

/* One event read back from a log. */
struct lu_ev {
    struct posix_trace_event_info info;
    unsigned char data[512];
    size_t len;
};

/* Reads every event of the opened log trid (getnext until unavailable);
 * *evs is malloc'ed (free it).  Returns the count. */
size_t lu_read_log(trace_id_t trid, struct lu_ev **evs);

/* Polls get_status until the flush status is NOT_FLUSHING (at most 20 s,
 * else the test fails); returns that status, with the overrun statuses and
 * the flush error that any of the polls read (get_status resets them). */
struct posix_trace_status_info lu_wait_flushed(trace_id_t trid);

/* Records a user event whose data is the 32-bit value v followed by pad
 * bytes of a pattern derived from v (len = 4 + pad). */
void lu_event_seq(trace_event_id_t id, uint32_t v, size_t pad);
/* The value of such an event; -1 if its data is not that of lu_event_seq
 * (wrong length, wrong pattern). */
int64_t lu_ev_seq(const struct lu_ev *ev, size_t pad);

/* Records lu_event_seq(id, v, pad) for every v in [from, to): the runs of
 * numbered events that the tests later find again in the log. */
void lu_event_seqs(trace_event_id_t id, uint32_t from, uint32_t to, size_t pad);

/* Flushes trid (asserting 0) and waits for the flush to end: the returned
 * status is lu_wait_flushed's. */
struct posix_trace_status_info lu_flush_wait(trace_id_t trid);

/* A log read back whole: the opened log, its events (malloc'ed) and their
 * count.  Close it with lu_log_close. */
struct lu_log {
    trace_id_t log;
    struct lu_ev *evs;
    size_t n;
};

/* Opens the log on fd and reads every event (the stream may run on). */
struct lu_log lu_open_read(int fd);

/* Shuts trid down (asserting 0), opens its log on fd, reads every event. */
struct lu_log lu_shutdown_read(trace_id_t trid, int fd);

/* Frees the events, closes the log (asserting 0), then closes fd. */
void lu_log_close(struct lu_log *l, int fd);

/* Asserts that the events of id in l are those of lu_event_seq numbered 0,
 * 1, 2... in order, none lost nor repeated; returns how many there are. */
uint32_t lu_check_seq(const struct lu_log *l, trace_event_id_t id, size_t pad);

/* The id of the user event name (opened if new; asserts a named id).
 * Tests use fixed names: the per-process limit is shared by every suite
 * when they run in one process (CK_FORK=no). */
trace_event_id_t lu_id(const char *name);

/* Counts the events of id in evs[0..n-1]. */
size_t lu_count(const struct lu_ev *evs, size_t n, trace_event_id_t id);

/* tracedump's text of the log on fd (LOGFORMAT section 10) names the flush
 * error name ("ENOSPC") and says no "cut or damaged".  0, or 1 with msg. */
int lu_dump_says_flush_error(int fd, const char *name, char *msg, size_t len);

/* The size of the file open on fd. */
long long lu_file_size(int fd);

#endif
