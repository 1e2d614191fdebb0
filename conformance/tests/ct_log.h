/* SPDX-License-Identifier: MIT */
/*
 * ct_log.h -- helpers shared by the portable tests of the Trace Log option
 * (conformance/tests/log_*.c): temporary log files, streams with log,
 * flushing and waiting for a flush, filling logs, reading opened logs, and
 * write faults (EFBIG under RLIMIT_FSIZE, ENOSPC on a small tmpfs).
 *
 * Declared here, defined once in lib/ct_log.c (built into the tests' helper
 * library, build/harness/obj/libct.a: conformance/tests/README.md).  Like
 * the tests, they use the standard API only and assume nothing of a log's format, a constant's value, a default attribute, a stream's or a
 * log's capacity, or the clock.  A helper that sets up ends the test
 * UNRESOLVED if that fails (CT_SETUP_OK); one that judges ends it FAIL.
 * Everything but NO_TRL() needs TRL at compile time (CT_HAVE_TRL).
 *
 * Events of these tests carry DATA_LEN bytes: a sequence number, then bytes
 * derived from it.  In a log they are recognised by name
 * (posix_trace_eventid_get_name on the log's trace id) and by that number.
 */
#ifndef CT_LOG_H
#define CT_LOG_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ct.h"

#define NO_TRL() CT_UNSUPPORTED("built without TRL: <trace.h> defines _POSIX_TRACE_LOG as -1")
#define PATH_BUF 512
#define DATA_LEN 32             /* the bytes of data every user event of these tests carries */
#define FLUSH_WAIT_MS 8000      /* a flush ends within 8 s (the harness stops a test at 10 s) */

#if CT_HAVE_TRL

void require_trl(void);

/* Temporary files: created in $TMPDIR (the harness gives each test its own)
 * or /tmp, removed when the test process exits. */
/* A new, empty regular file; its path in path (PATH_BUF bytes). */
void tmp_file(char *path);

int open_or_unresolved(const char *path, int flags);

off_t file_size(const char *path);

/* ---- attributes --------------------------------------------------------------------- */

const char *policy_name(int p);

/* Attributes for a stream with log: stream-full-policy sp, log-full-policy
 * lp, and max-data-size raised to DATA_LEN if it is smaller (the setter may
 * refuse: events are then truncated, which these tests tolerate). */
void log_attr(trace_attr_t *a, int sp, int lp);

/* Asks for a small log-max-size; the setter may refuse some sizes (the
 * size in force is read back from the stream, ruling 22). */
void small_log(trace_attr_t *a);

/* Asks for a log-max-size of about 32 KiB: room for several of whatever
 * units a LOOP log reuses (the setter may refuse some sizes). */
void mid_log(trace_attr_t *a);

/* Asks for a stream-min-size of about n events of DATA_LEN bytes. */
void stream_events(trace_attr_t *a, size_t n);

/* The attributes of a stream (or log) in force, into a (initialised here). */
void attrs_of(trace_id_t trid, trace_attr_t *a);

size_t logsize_of(trace_id_t trid);

/* The bytes of data an event of these tests carries in stream trid: at most
 * DATA_LEN, at most max-data-size. */
size_t data_bytes(trace_id_t trid);

/* How many user events of DATA_LEN bytes stream trid holds without loss,
 * keeping room for 8 system events (XSH posix_trace_attr_getlogsize: the
 * maximum sizes of a set of events that add up to at most stream-min-size
 * are recorded without loss). */
long lossless(trace_id_t trid);

/* ---- streams with log, logs ---------------------------------------------------------- */

/* A stream with log (attributes a; NULL: the defaults) on a new temporary
 * file opened O_WRONLY; the path in path, the descriptor in *fdp (if not NULL). */
trace_id_t log_stream(const trace_attr_t *a, char *path, int *fdp);

/* posix_trace_open() on a new O_RDONLY descriptor of path. */
trace_id_t open_log(const char *path);

trace_event_id_t open_id(const char *name);

/* Records event id with DATA_LEN bytes: seq, then bytes derived from it. */
void record(trace_event_id_t id, unsigned seq);

struct posix_trace_status_info status(trace_id_t trid);

/* ---- flushing ---------------------------------------------------------------------- */

/* What the polls of one wait_flush() saw.  Every get_status resets the
 * overrun statuses and flush_error: what a poll reports is kept here. */
struct flushwatch {
    int done;               /* a poll reported NOT_FLUSHING */
    long polls, ms;
    int saw_flushing;
    int flush_error;        /* the first non-zero posix_stream_flush_error, or 0 */
    int log_overrun;        /* some poll reported posix_log_overrun_status OVERRUN */
    int log_overrun_last;   /* the last poll did */
    int log_full;           /* the last poll reported posix_log_full_status FULL */
    int bad;                /* some poll reported a value outside a member's set */
    char what[160];         /* which */
};

long ms_since(const struct timespec *t0);

/* Notes in w a status read from a stream with log. */
void observe(struct flushwatch *w, const struct posix_trace_status_info *st);

/* Polls get_status every millisecond until it reports NOT_FLUSHING, for at
 * most FLUSH_WAIT_MS; 1 if it did. */
int wait_flush(trace_id_t trid, struct flushwatch *w);

/* Polls get_status every millisecond until the stream can take an event
 * again: RUNNING, NOT_FULL and NOT_FLUSHING (a FLUSH stream that filled
 * flushes itself and goes on), for at most FLUSH_WAIT_MS; 1 if it did.
 * *last: the last status read; *overrun: whether some poll reported
 * posix_stream_overrun_status OVERRUN; *waits (may be NULL) counts the
 * polls that found it not ready. */
int wait_taking(trace_id_t trid, struct posix_trace_status_info *last, int *overrun,
                long *waits);

/* posix_trace_flush() and its end: setup for the tests of other rules. */
void flush_wait(trace_id_t trid, struct flushwatch *w);

/* Records n events (id, sequence numbers from *seq on) and flushes them. */
void flush_batch(trace_id_t trid, trace_event_id_t id, unsigned *seq, long n,
          struct flushwatch *w);

/* ---- filling logs ----------------------------------------------------------------------- */

#define MAX_FILL_EVENTS 400000L

/* A started stream (stream-full-policy UNTIL_FULL) with a small log of
 * policy lp (LOOP: about 32 KiB, so that it reuses its space piecewise). */
trace_id_t small_log_stream(int lp, char *path);

/* Events of DATA_LEN bytes that certainly fill log-max-size (each needs at
 * least its data in the log); UNRESOLVED if too many for a test. */
long log_capacity(trace_id_t trid);

long batch_of(trace_id_t trid);

/* Flushes batches until get_status reports the log FULL; the number of
 * events flushed, or 0 if the log never reported FULL within bound events. */
long fill_log(trace_id_t trid, trace_event_id_t id, unsigned *seq, long bound);

/* Flushes n events in batches. */
void flush_n(trace_id_t trid, trace_event_id_t id, unsigned *seq, long n);

/* An UNTIL_FULL log filled until get_status reports it FULL; the events
 * flushed in *filled.  If it never does: FAIL for the rule about that
 * (log.max-size), UNRESOLVED for the others. */
trace_id_t full_until_full_log(char *path, trace_event_id_t id, unsigned *seq,
                        long *filled, int fail);

/* ---- reading a log ------------------------------------------------------------------- */

struct rec {
    struct posix_trace_event_info info;
    size_t len;
    unsigned char data[64];
};

/* The next event of an opened log: 1, or 0 at its end. */
int next_rec(trace_id_t trid, struct rec *r);

int is_ev(trace_id_t trid, const struct rec *r, trace_event_id_t id);

/* Does the event's identifier have this name in trid's mapping? */
int has_name(trace_id_t trid, const struct rec *r, const char *name);

unsigned seq_of(const struct rec *r);

#define MAXREC 60000
extern struct rec recs[MAXREC];

/* Reads the rest of an opened log into recs[]; the number read. */
int read_all(trace_id_t trid);

/* The sequence numbers of the events named name among recs[0..n), in the
 * order read, into seqs (at most max); their number. */
int user_seqs(trace_id_t trid, int n, const char *name, unsigned *seqs, int max);

/* Index of the first event of type id in recs[from..n), or -1. */
int find_ev(trace_id_t trid, int n, int from, trace_event_id_t id);

/* Index of the last event named name in recs[0..n), or -1. */
int last_named(trace_id_t trid, int n, const char *name);

/* Shuts trid down, opens its log at path and reads it into recs[]. */
int shutdown_read(trace_id_t trid, const char *path, trace_id_t *logp);

/* "0 1 2 ... 9" for a message: the first sequence numbers of seqs. */
const char *seq_list(const unsigned *seqs, int k);

/* ---- a full device: a small tmpfs (ENOSPC tests) ---------------------------------------- */

/* Mounts a tmpfs of kib KiB on a new directory (fs_dir); the test ends
 * UNTESTED if it may not (it needs root and Linux's mount -t tmpfs). */
void fs_mount(int kib);

/* Opens (creating) the file name on the tmpfs. */
int fs_open(const char *name, int flags);

/* Detaches the tmpfs from the file tree: the files open on it live on, and
 * nothing stays mounted whatever happens to the test. */
void fs_detach(void);

/* The device's allocation unit, in bytes: the most a write may add to a file
 * on a full device without failing (the room left in the file's last unit).
 * The larger of the fundamental block size and the preferred I/O size, at
 * least 4096 and at most 1 MiB (a batch must fit in a stream). */
long fs_unit(int fd);

/* Writes to fd (a file on the tmpfs) until the device is full. */
void fs_fill(int fd);


/* ---- write faults: EFBIG (RLIMIT_FSIZE) and ENOSPC (a full tmpfs) --------------------- */


/* The scenario runs in a child process (the file size limit must not touch
 * the test's own output), which reports here.  The child never uses the
 * framework's checks: it records what happened and the parent judges. */
enum fault_kind { FAULT_EFBIG, FAULT_ENOSPC };
enum fault_mode {
    MODE_FLUSH,         /* batch 1, fault, explicit flush, batch 2, shutdown */
    MODE_AUTO,          /* FLUSH stream policy: fault, record until a flush error shows */
    MODE_SHUTDOWN       /* batch 1, fault, shutdown */
};

struct fault_out {
    char setup[160];        /* non-empty: the child's setup failed, and how */
    int flush_rc;           /* MODE_FLUSH: what posix_trace_flush returned */
    int flush_error;        /* the first non-zero posix_stream_flush_error read */
    int error_after;        /* flush_error of the two reads once idle after it (first non-0) */
    int idle;               /* the flushes ended (NOT_FLUSHING) within the wait */
    int shutdown_rc;
    int open_rc;            /* posix_trace_open of the log after shutdown */
    long batch1, batch1_in_log;     /* recorded before the fault; found in the log */
    long batch2, batch2_in_log;     /* recorded under the fault; found in the log */
    long unit;              /* ENOSPC: the device's allocation unit (bytes); else 0 */
};

#define FAULT_B1 "ct.fault.before"
#define FAULT_B2 "ct.fault.under"

void fault_setup_failed(struct fault_out *o, const char *what, int err);

#define SETUP_FAILED(what, rc)                  \
    do {                                        \
        fault_setup_failed(o, what, rc);        \
        return;                                 \
    } while (0)

/* The first non-zero flush_error of one status read; 0 and the rest. */
int fault_poll(trace_id_t trid, struct fault_out *o, int *flushing);

/* Waits for the end of the flushes, keeping the first error seen; then, if
 * an error was seen, reads flush_error twice more (error_after). */
void fault_wait(trace_id_t trid, struct fault_out *o);

void fault_on(int kind, int filler);

long fault_count(trace_id_t log, const char *name, long n);

/* How many events of DATA_LEN bytes carry more data than unit bytes: a
 * flush of them must take at least one new unit of the device, whatever room
 * is left in the log file's last unit (S0120: ENOSPC when "no space left on
 * the device" -- a flush that fits in space the file already has
 * legitimately succeeds). */
long fault_need(long unit);

void fault_child(int kind, int mode, int wfd, int rfd, int filler, long unit,
          struct fault_out *o);

/* Runs the scenario in a child; the test ends UNTESTED when kind is ENOSPC
 * and no full device can be made, UNRESOLVED when the child's setup fails. */
void fault_run(int kind, int mode, struct fault_out *o);

/* Under a full device, a write that fits in the room the log file already has
 * succeeds: the fault is only made if the batch flushed carries more data than
 * one allocation unit; UNRESOLVED, saying so, if the stream could not hold
 * that many events. */
void fault_batch_needs_space(const struct fault_out *o, const char *fault);

/* The verdict on a flush under a fault that must give err. */
void judge_flush(const struct fault_out *o, int err, const char *fault);

/* The verdict on a shutdown under a fault that must give err. */
void judge_shutdown(const struct fault_out *o, int err, const char *fault);

#endif /* CT_HAVE_TRL */

#endif /* CT_LOG_H */
