/* SPDX-License-Identifier: MIT */
/*
 * ct_stream.h -- helpers shared by the portable tests of the Trace option:
 * making streams, reading their events, their status, timespecs, stream-full
 * policies and the return-convention checks of attributes objects.
 *
 * Declared here, defined once in lib/ct_stream.c (built into the tests' helper
 * library, build/harness/obj/libct.a: conformance/tests/README.md).  Like the
 * tests, they use the standard API only and assume no constant's value, no
 * type's representation, no default attribute value and no clock.  A helper
 * that sets up ends the test UNRESOLVED if that fails (CT_SETUP_OK); one that
 * checks ends it FAIL (CT_CHECK...).
 */
#ifndef CT_STREAM_H
#define CT_STREAM_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ct.h"

/* ---- Event types and streams ------------------------------------------------------ */

/* A string of n characters (n >= 3), distinct for distinct tags; the test's
 * to free.  UNRESOLVED if there is no memory. */
char *ct_long_name(size_t n, char tag);

/* {TRACE_EVENT_NAME_MAX}, or the test ends UNTESTED (ruling 24). */
size_t ct_event_name_max(void);

/* The identifier of the user event type name (posix_trace_eventid_open). */
trace_event_id_t ct_open_id(const char *name);

/* A stream created from attr (NULL: the defaults), started if start. */
trace_id_t ct_new_stream(const trace_attr_t *attr, int start);

/* Opens distinct names "PREFIX.1", "PREFIX.2", ... with open (eventid_open
 * or trid_eventid_open, named fn in messages) until the unnamed user event
 * comes back (S0127, S0145, ruling 21).  XBD <limits.h>: {TRACE_USER_EVENT_MAX}
 * is the "Maximum number of user trace event type identifiers that may
 * simultaneously exist in a traced process, including the predefined user
 * trace event POSIX_TRACE_UNNAMED_USER_EVENT".  The predefined event always
 * exists, so exactly {TRACE_USER_EVENT_MAX}-1 names get identifiers of their
 * own (S0125: until the limit is reached a new name gets a unique one), and
 * name {TRACE_USER_EVENT_MAX} gets the unnamed event; past the limit every
 * new name gets it and a name mapped before keeps its identifier; the named
 * identifiers are distinct.  The test's process has opened no other name.
 * With an indeterminate or huge limit only {_POSIX_TRACE_USER_EVENT_MAX}
 * names are opened. */
typedef int (*ct_open_fn)(trace_id_t trid, const char *name, trace_event_id_t *id);

void ct_check_user_event_limit(trace_id_t trid, ct_open_fn open, const char *fn,
                               const char *prefix);

/* A name of exactly {TRACE_EVENT_NAME_MAX} characters (made of tag) opens
 * with open (fn in messages), and eventid_get_name gives it back whole
 * (S0124 for eventid_open, S0142 for trid_eventid_open, S0138 for
 * get_name; ruling 24: the limit excludes the NUL). */
void ct_check_name_max_opens(ct_open_fn open, const char *fn, char tag);

/* How many identifiers the event type list of trid holds (rewound first,
 * then walked to its end; UNRESOLVED past 100000). */
size_t ct_typelist_count(trace_id_t trid);

/* A trace id that no longer names a stream (ruling 25): use it before the
 * next posix_trace_create of the process. */
trace_id_t ct_dead_stream(void);

/* A stream with the given stream-full-policy, not started, asked for a
 * stream-min-size of 2048 bytes (the setter may refuse). */
trace_id_t ct_small_stream(int policy);

/* A stream with the given policy, asked for room for about 32 events carrying
 * an unsigned (the setter may refuse: the default is kept); started if start. */
trace_id_t ct_stream_for_32(int policy, int start);

/* The stream's max-data-size in force (get_attr, ruling 22). */
size_t ct_stream_max_data(trace_id_t trid);

/* A stream whose events keep `bytes` bytes of data, started if start: the
 * default max-data-size is implementation-defined (XSH
 * posix_trace_attr_getmaxdatasize, S0052; data beyond it may be truncated,
 * S0059), so it is asked for; a stream that still keeps less ends the test
 * UNRESOLVED. */
trace_id_t ct_stream_for_data(size_t bytes, int start);

/* ---- Status ---------------------------------------------------------------------- */

/* The stream's status; posix_trace_get_status must succeed (a check, FAIL). */
struct posix_trace_status_info ct_status(trace_id_t trid);

/* "RUNNING", "SUSPENDED" or "(invalid)" for a posix_stream_status value. */
const char *ct_state_name(int s);

/* Records id (16 bytes of data) into the running stream until ct_status()
 * reports it FULL; the number of events recorded (UNRESOLVED after 200000). */
long ct_fill(trace_id_t trid, trace_event_id_t id);

/* ---- Events read into an array ---------------------------------------------------- */

/* An event read with at most 32 bytes of its data: small enough to hold a
 * whole stream in an array. */
struct ct_ev {
    struct posix_trace_event_info info;
    size_t len;
    unsigned char data[32];
};

/* Reads every event available now (trygetnext, which must succeed), keeping
 * the first max in v; returns how many there were. */
size_t ct_drain(trace_id_t trid, struct ct_ev *v, size_t max);

/* Is e an event of type id? */
int ct_is_event(trace_id_t trid, const struct ct_ev *e, trace_event_id_t id);

/* How many of v[0..n) are events of type id. */
size_t ct_count(trace_id_t trid, const struct ct_ev *v, size_t n,
                trace_event_id_t id);

/* ---- Events read one at a time ---------------------------------------------------- */

/* The data buffer of a struct ct_rec, in bytes. */
#define CT_REC_DATA 512

/* An event read on its own, with up to CT_REC_DATA bytes of its data. */
struct ct_rec {
    struct posix_trace_event_info info;
    size_t len;
    unsigned char data[CT_REC_DATA];
};

/* The next event, without blocking (trygetnext, a setup): 1, or 0 if the
 * stream is empty. */
int ct_next_event(trace_id_t trid, struct ct_rec *r);

/* The next event of type id, skipping the others: 1, or 0 if none is left. */
int ct_next_of(trace_id_t trid, trace_event_id_t id, struct ct_rec *r);

/* Records an event of type id whose data is the sequence number seq. */
void ct_record_seq(trace_event_id_t id, unsigned seq);

/* ---- Time ------------------------------------------------------------------------ */

/* CLOCK_MONOTONIC now, in seconds: how long a call took. */
double ct_mono_now(void);

/* Is t a valid timespec: tv_sec >= 0 and tv_nsec in 0..999999999? */
int ct_valid_timespec(const struct timespec *t);

/* Are a and b the same time? */
int ct_same_time(const struct timespec *a, const struct timespec *b);

/* ---- Stream-full policies --------------------------------------------------------- */

/* Is p one of the stream-full-policy values a header defines (LOOP,
 * UNTIL_FULL and, where defined, FLUSH)? */
int ct_is_policy_constant(int p);

/* A value distinct from LOOP, UNTIL_FULL and FLUSH. */
int ct_invalid_policy(void);

/* The invalid values of an int argument whose valid values are
 * valid[0..nvalid), of every kind a program can pass: 0, 1, -1, 2, INT_MIN,
 * INT_MAX, one below the smallest and one above the largest valid value,
 * each valid value plus and minus one, 0x5a5a, and every int constant of
 * <trace.h> of the options the build knows (another attribute's policies,
 * the status values, a what, a how), none equal to a valid value, none
 * twice; names[i] says what out[i] is.  Returns how many (at most
 * CT_INVALID_MAX). */
#define CT_INVALID_MAX 64
int ct_invalid_ints(const int *valid, int nvalid, int *out, const char **names);

/* ---- The return convention and the reference's exact checks ------------------------ */

/* call must return 0; errno is cleared before it and reported after it (a
 * function that fails with -1 and errno shows up in the message). */
#define CT_SUCCEEDS(call)                                                         \
    do {                                                                          \
        int ct_rc_;                                                               \
        errno = 0;                                                                \
        ct_rc_ = (call);                                                          \
        CT_CHECK(ct_rc_ == 0, "%s returned %d (%s), errno %s: expected 0 on success", \
                 #call, ct_rc_, ct_errname(ct_rc_), ct_errname(errno));           \
    } while (0)

/* 1 when the implementation under test is the reference (the build defines
 * CT_HAVE_POSIX_TRACE_SYSCONF for it): the checks whose only triggers are
 * undefined behaviour portably (NULL, a destroyed object) run there only. */
#ifdef CT_HAVE_POSIX_TRACE_SYSCONF
#define CT_EXACT_REFERENCE 1
#else
#define CT_EXACT_REFERENCE 0
#endif

/* First in a test made only of such checks: ends it UNTESTED elsewhere. */
#if CT_EXACT_REFERENCE
#define CT_REFERENCE_ONLY() ((void)0)
#else
#define CT_REFERENCE_ONLY()                                                          \
    CT_UNTESTED("exact check: the only triggers (NULL, a destroyed object) are undefined" \
                " behaviour portably; runs against the reference only")
#endif

/* An attributes object that was initialised and then destroyed (using it is
 * undefined behaviour portably: for the reference's exact checks). */
void ct_destroyed_attr(trace_attr_t *a);

#endif /* CT_STREAM_H */
