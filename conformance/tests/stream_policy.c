/* SPDX-License-Identifier: MIT */
/*
 * stream_policy.c -- what a stream does when it runs out of room: the LOOP
 * and UNTIL_FULL stream-full policies, the statuses get_status reports along
 * the way, and the OVERFLOW and RESUME events a reader gets after a loss
 * (XSH posix_trace_attr_getstreamfullpolicy; XSH posix_trace_attr_getmaxdatasize
 * on lossless sizes; XSH 2.11.1.1 posix_trace_status_info; XSH 2.11.2.1).
 *
 * Portable: the stream's capacity is never assumed.  A stream is asked for a
 * small stream-min-size (about 32 events; the setter may refuse, and an
 * implementation may allocate more) and is filled by recording until
 * get_status says FULL (LOOP) or SUSPENDED (UNTIL_FULL), with a bound
 * derived from the stream-min-size in force (get_attr).  Note that every
 * get_status resets the overrun status: the tests that check OVERRUN record
 * the overflowing events after the last get_status before the one that
 * checks.  Timestamps are compared with one another only, and only as the
 * standard relates them: RESUME's equals that of the event reported after
 * it; OVERFLOW's is that of the first event overwritten, which the test
 * separates by 20 ms from every later event and brackets by the START event
 * read before the overflow.
 *
 * Not tested here, and why:
 *   start and stop of a full LOOP stream: ruling 13 (start.*, stop.* rules).
 *   stream.flush-policy, xsh211.overrun-flush: TRL.
 *   which system events are process-independent: system_events.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

#define MAXREC 20000

struct rec {
    struct posix_trace_event_info info;
    size_t len;
    unsigned char data[64];
};

static struct rec recs[MAXREC];         /* what read_all() read */

static const char *policy_name(int policy)
{
    return policy == POSIX_TRACE_LOOP ? "LOOP" : "UNTIL_FULL";
}

/* The stream's status; a get_status that fails ends the test UNRESOLVED
 * (setup), where ct_status() would end it FAIL. */
static struct posix_trace_status_info status(trace_id_t trid)
{
    struct posix_trace_status_info st;
    CT_SETUP_OK(posix_trace_get_status(trid, &st));
    return st;
}

/* How many events may be recorded before the stream must have filled. */
static long fill_bound(trace_id_t trid)
{
    trace_attr_t a;
    size_t size = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_get_attr(trid, &a));
    CT_SETUP_OK(posix_trace_attr_getstreamsize(&a, &size));
    posix_trace_attr_destroy(&a);
    return size < 1000000 ? 4 * (long)size + 100000 : 4000000;
}

static unsigned seq_of(const struct rec *r)
{
    unsigned s = ~0u;
    if (r->len == sizeof s)
        memcpy(&s, r->data, sizeof s);
    return s;
}

/* LOOP: records from *seq on until get_status says FULL; the number recorded,
 * or 0 if the stream did not fill within the bound. */
static long try_fill_loop(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    long bound = fill_bound(trid);
    for (long n = 1; n <= bound; n++) {
        ct_record_seq(id, (*seq)++);
        if (status(trid).posix_stream_full_status == POSIX_TRACE_FULL)
            return n;
    }
    return 0;
}

/* The same, for the tests that need a full stream to begin with. */
static long fill_loop(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    long n = try_fill_loop(trid, id, seq);
    if (n == 0)
        CT_UNRESOLVED("a LOOP stream did not report FULL after %u events"
                      " (xsh211.status-running-full-loop-only)", *seq);
    return n;
}

/* UNTIL_FULL: records from *seq on until get_status says SUSPENDED; the
 * number recorded (the last of them may be lost), or 0 if the stream did not
 * stop within the bound. */
static long try_fill_until_full(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    long bound = fill_bound(trid);
    for (long n = 1; n <= bound; n++) {
        ct_record_seq(id, (*seq)++);
        if (status(trid).posix_stream_status == POSIX_TRACE_SUSPENDED)
            return n;
    }
    return 0;
}

static long fill_until_full(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    long n = try_fill_until_full(trid, id, seq);
    if (n == 0)
        CT_UNRESOLVED("an UNTIL_FULL stream was still RUNNING after %u events"
                      " (stream.until-full-stops)", *seq);
    return n;
}

/* A LOOP stream that has overwritten events: filled, then as many again. */
static void overflow_loop(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    long n = fill_loop(trid, id, seq);
    for (long i = 0; i < 2 * n + 2; i++)
        ct_record_seq(id, (*seq)++);
}

/* Reads every event (trygetnext) into recs[]; their number. */
static int read_all(trace_id_t trid)
{
    int n = 0, unavailable;
    for (;;) {
        if (n == MAXREC)
            CT_UNRESOLVED("the stream holds more than %d events", MAXREC);
        struct rec *r = &recs[n];
        CT_SETUP_OK(posix_trace_trygetnext_event(trid, &r->info, r->data, sizeof r->data,
                                                 &r->len, &unavailable));
        if (unavailable)
            return n;
        n++;
    }
}

/* 1 if event i is of id, else 0 (counted: posix_trace_eventid_equal() returns
 * any non-zero value for equal ids, XSH posix_trace_eventid_equal RETURN VALUE, S0151). */
static int is(trace_id_t trid, int i, trace_event_id_t id)
{
    return posix_trace_eventid_equal(trid, recs[i].info.posix_event_id, id) != 0;
}

/* Index of the first event of type id at or after from, or -1. */
static int find(trace_id_t trid, int n, int from, trace_event_id_t id)
{
    for (int i = from; i < n; i++)
        if (is(trid, i, id))
            return i;
    return -1;
}

static double ts_sec(const struct rec *r)
{
    return (double)r->info.posix_timestamp.tv_sec + r->info.posix_timestamp.tv_nsec / 1e9;
}

static int ts_equal(const struct rec *a, const struct rec *b)
{
    return ct_same_time(&a->info.posix_timestamp, &b->info.posix_timestamp);
}

/* ---- Lossless recording ---------------------------------------------------- */

CT_TEST(min_size_lossless, "stream.min-size-lossless", "TRC",
        "posix_trace_attr_setstreamsize,posix_trace_attr_getmaxusereventsize,"
        "posix_trace_attr_getmaxsystemeventsize,posix_trace_event,posix_trace_getnext_event")
{
    static const int policies[2] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL };
    trace_event_id_t id = ct_open_id("ct.policy.lossless");
    for (int p = 0; p < 2; p++) {
        trace_attr_t attr;
        trace_id_t trid;
        size_t size = 0, sys = 0, user = 0;
        unsigned seq = 0;
        CT_SETUP_OK(posix_trace_attr_init(&attr));
        CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&attr, policies[p]));
        if (posix_trace_attr_setstreamsize(&attr, 8192) != 0)
            ct_note("attr_setstreamsize(8192) refused: the default is used");
        CT_SETUP_OK(posix_trace_attr_getstreamsize(&attr, &size));
        CT_SETUP_OK(posix_trace_attr_getmaxsystemeventsize(&attr, &sys));
        CT_SETUP_OK(posix_trace_attr_getmaxusereventsize(&attr, sizeof seq, &user));
        if (user == 0 || size < 2 * sys + 2 * user)
            CT_UNRESOLVED("stream-min-size %zu, system events up to %zu bytes, user events of"
                          " %zu bytes: not even START, STOP and two user events fit", size,
                          sys, user);
        long n = (long)((size - 2 * sys) / user);
        if (n > 10000)
            n = 10000;                  /* still within the sum: fewer events */
        ct_note("%s: stream-min-size %zu, system event <= %zu, user event <= %zu bytes:"
                " START, %ld user events, STOP", policy_name(policies[p]), size, sys, user, n);
        CT_SETUP_OK(posix_trace_create(0, &attr, &trid));
        CT_SETUP_OK(posix_trace_start(trid));
        for (long i = 0; i < n; i++)
            ct_record_seq(id, seq++);
        CT_SETUP_OK(posix_trace_stop(trid));
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
                 "%s: events whose maximum sizes add up to no more than stream-min-size %zu"
                 " (START, %ld user events of at most %zu bytes, STOP) overran the stream"
                 " (overrun status %d)", policy_name(policies[p]), size, n, user,
                 st.posix_stream_overrun_status);
        int got = read_all(trid);
        long users = 0;
        for (int i = 0; i < got; i++) {
            if (!is(trid, i, id))
                continue;
            CT_CHECK(seq_of(&recs[i]) == (unsigned)users,
                     "%s: user event %ld read carries sequence number %u: an event was lost"
                     " though the sizes add up to no more than stream-min-size %zu",
                     policy_name(policies[p]), users, seq_of(&recs[i]), size);
            users++;
        }
        CT_CHECK(users == n, "%s: %ld of the %ld user events were read back (stream-min-size"
                 " %zu, user events of at most %zu bytes)", policy_name(policies[p]), users,
                 n, size, user);
        CT_CHECK(find(trid, got, 0, POSIX_TRACE_START) >= 0 &&
                 find(trid, got, 0, POSIX_TRACE_STOP) >= 0,
                 "%s: START or STOP is missing from the events read back",
                 policy_name(policies[p]));
        CT_SETUP_OK(posix_trace_shutdown(trid));
        posix_trace_attr_destroy(&attr);
    }
}

/* ---- LOOP ------------------------------------------------------------------- */

CT_TEST(loop_keeps_running, "stream.loop-keeps-running", "TRC",
        "posix_trace_event,posix_trace_get_status")
{
    trace_event_id_t id = ct_open_id("ct.policy.loop");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    unsigned seq = 0;
    long n = fill_loop(trid, id, &seq);
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING,
             "a LOOP stream that filled up (FULL after %ld events) has stream status %d,"
             " expected RUNNING (%d)", n, st.posix_stream_status, POSIX_TRACE_RUNNING);
    for (long i = 0; i < 3 * n; i++) {
        ct_record_seq(id, seq++);
        st = status(trid);
        CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING,
                 "a full LOOP stream stopped %ld events after it filled (status %d, expected"
                 " RUNNING %d): it loops until posix_trace_stop", i + 1,
                 st.posix_stream_status, POSIX_TRACE_RUNNING);
    }
}

CT_TEST(loop_overwrites_oldest, "stream.loop-overwrites-oldest", "TRC",
        "posix_trace_event,posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.oldest");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    unsigned seq = 0;
    overflow_loop(trid, id, &seq);
    int n = read_all(trid), users = 0;
    unsigned first = 0, prev = 0;
    for (int i = 0; i < n; i++) {
        if (!is(trid, i, id))
            continue;
        unsigned s = seq_of(&recs[i]);
        if (users == 0)
            first = s;
        else
            CT_CHECK(s == prev + 1, "after an overflow the events read jump from sequence"
                     " number %u to %u: the newest events are kept, in order", prev, s);
        prev = s;
        users++;
    }
    CT_CHECK(users > 0, "after %u events into a LOOP stream, none was read back", seq);
    CT_CHECK(first > 0, "the oldest event (sequence number 0) survived %u events recorded"
             " into a LOOP stream that held %d", seq, users);
    CT_CHECK(prev == seq - 1, "the last event read carries sequence number %u, expected the"
             " newest recorded, %u", prev, seq - 1);
}

/* ---- UNTIL_FULL ------------------------------------------------------------- */

CT_TEST(until_full_stops, "stream.until-full-stops", "TRC",
        "posix_trace_event,posix_trace_get_status")
{
    trace_event_id_t id = ct_open_id("ct.policy.until");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    unsigned seq = 0;
    long n = try_fill_until_full(trid, id, &seq);
    CT_CHECK(n > 0, "an UNTIL_FULL stream was still RUNNING after %u events: it shall stop"
             " when its resources are exhausted", seq);
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
             st.posix_stream_full_status == POSIX_TRACE_FULL,
             "an UNTIL_FULL stream that stopped after %ld events reports status %d and full"
             " status %d, expected SUSPENDED (%d) and FULL (%d)", n, st.posix_stream_status,
             st.posix_stream_full_status, POSIX_TRACE_SUSPENDED, POSIX_TRACE_FULL);
    unsigned stopped_at = seq;
    for (int i = 0; i < 10; i++)
        ct_record_seq(id, seq++);
    int got = read_all(trid);
    for (int i = 0; i < got; i++)
        CT_CHECK(!is(trid, i, id) || seq_of(&recs[i]) < stopped_at,
                 "event %u, recorded after the UNTIL_FULL stream stopped itself (after event"
                 " %u), was read back", seq_of(&recs[i]), stopped_at - 1);
}

/* An UNTIL_FULL stream filled until it stopped itself and read empty: recs[]
 * holds the n events read; *last the index of the last user event. */
static int until_full_read(trace_id_t trid, trace_event_id_t id, int *last)
{
    unsigned seq = 0;
    fill_until_full(trid, id, &seq);
    int n = read_all(trid);
    *last = -1;
    for (int i = 0; i < n; i++)
        if (is(trid, i, id))
            *last = i;
    if (*last < 0)
        CT_UNRESOLVED("no user event was read back from the full UNTIL_FULL stream");
    return n;
}

CT_TEST(until_full_stop_reported, "stream.until-full-stop-reported", "TRC",
        "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.stop-reported");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    int last, n = until_full_read(trid, id, &last);
    CT_CHECK(last + 1 < n && is(trid, last + 1, POSIX_TRACE_STOP),
             "reading the UNTIL_FULL stream that stopped itself: the event after the last"
             " user event (event %d of %d read) is %s, expected POSIX_TRACE_STOP", last + 1, n,
             last + 1 < n ? ct_hex(&recs[last + 1].info.posix_event_id,
                                   sizeof recs[last + 1].info.posix_event_id)
                          : "missing (end of stream)");
}

CT_TEST(stop_data_auto, "xsh211.stop-data-auto", "TRC", "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.stop-auto");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    int last, n = until_full_read(trid, id, &last);
    int stop = find(trid, n, last, POSIX_TRACE_STOP), value = 0;
    if (stop < 0)
        CT_UNRESOLVED("no STOP event after the last user event (stream.until-full-stop-reported)");
    CT_CHECK(recs[stop].len == sizeof value,
             "the STOP event of the automatic stop carries %zu bytes of data, expected an int"
             " (%zu bytes)", recs[stop].len, sizeof value);
    memcpy(&value, recs[stop].data, sizeof value);
    CT_CHECK(value != 0, "the STOP event of an UNTIL_FULL stream that stopped itself carries"
             " %d, expected a non-zero int (an automatic stop)", value);
}

CT_TEST(until_full_restart, "stream.until-full-restart", "TRC",
        "posix_trace_getnext_event,posix_trace_get_status")
{
    trace_event_id_t id = ct_open_id("ct.policy.restart");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    int last;
    until_full_read(trid, id, &last);
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING,
             "an UNTIL_FULL stream that stopped itself and was then read empty has status %d,"
             " expected RUNNING (%d): it shall restart when empty", st.posix_stream_status,
             POSIX_TRACE_RUNNING);
}

CT_TEST(until_full_start_reported, "stream.until-full-start-reported", "TRC",
        "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.start-reported");
    trace_event_id_t after = ct_open_id("ct.policy.after-restart");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    int last, n = until_full_read(trid, id, &last);
    int stop = find(trid, n, last, POSIX_TRACE_STOP);
    if (stop < 0)
        CT_UNRESOLVED("no STOP event after the last user event (stream.until-full-stop-reported)");
    int started = find(trid, n, stop, POSIX_TRACE_START) >= 0;
    /* The stream restarted when read empty; what it records now follows. */
    posix_trace_event(after, "", 0);
    int more = read_all(trid), x = find(trid, more, 0, after);
    if (x < 0)
        CT_UNRESOLVED("the event recorded after the restart was not read back (status"
                      " RUNNING is stream.until-full-restart)");
    if (!started)
        started = find(trid, x, 0, POSIX_TRACE_START) >= 0;
    CT_CHECK(started, "after the automatic STOP, the first event recorded after the restart"
             " was read without a POSIX_TRACE_START before it");
}

CT_TEST(until_full_reuses_read, "stream.until-full-reuses-read", "TRC",
        "posix_trace_getnext_event,posix_trace_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.reuse");
    trace_event_id_t again = ct_open_id("ct.policy.reuse.again");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    int last, n = until_full_read(trid, id, &last), held = 0;
    for (int i = 0; i < n; i++)
        held += is(trid, i, id);
    if (held < 3)
        CT_UNRESOLVED("the full UNTIL_FULL stream held only %d user events", held);
    status(trid);                                   /* resets the overrun status */
    for (int i = 0; i < held - 1; i++)
        ct_record_seq(again, (unsigned)i);
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN &&
             st.posix_stream_status == POSIX_TRACE_RUNNING,
             "the full UNTIL_FULL stream held %d user events; read empty, it took %d events"
             " of the same size with overrun status %d and status %d, expected NO_OVERRUN (%d)"
             " and RUNNING (%d): the space of the events read was not reused", held, held - 1,
             st.posix_stream_overrun_status, st.posix_stream_status, POSIX_TRACE_NO_OVERRUN,
             POSIX_TRACE_RUNNING);
    int got = read_all(trid), k = 0;
    for (int i = 0; i < got; i++)
        if (is(trid, i, again)) {
            CT_CHECK(seq_of(&recs[i]) == (unsigned)k, "event %d recorded after the restart"
                     " reads back as %u", k, seq_of(&recs[i]));
            k++;
        }
    CT_CHECK(k == held - 1, "%d of the %d events recorded after the restart were read back",
             k, held - 1);
}

/* ---- Status values ---------------------------------------------------------- */

static void check_values(trace_id_t trid, const char *when)
{
    struct posix_trace_status_info st = status(trid);
    CT_RULE("xsh211.stream-status-values");
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING ||
             st.posix_stream_status == POSIX_TRACE_SUSPENDED,
             "%s: posix_stream_status %d, expected RUNNING (%d) or SUSPENDED (%d)", when,
             st.posix_stream_status, POSIX_TRACE_RUNNING, POSIX_TRACE_SUSPENDED);
    CT_RULE("xsh211.full-status-values");
    CT_CHECK(st.posix_stream_full_status == POSIX_TRACE_FULL ||
             st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "%s: posix_stream_full_status %d, expected FULL (%d) or NOT_FULL (%d)", when,
             st.posix_stream_full_status, POSIX_TRACE_FULL, POSIX_TRACE_NOT_FULL);
    CT_RULE("xsh211.overrun-status-values");
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN ||
             st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "%s: posix_stream_overrun_status %d, expected OVERRUN (%d) or NO_OVERRUN (%d)",
             when, st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN,
             POSIX_TRACE_NO_OVERRUN);
    CT_RULE(NULL);
}

CT_TEST(status_values,
        "xsh211.stream-status-values,xsh211.full-status-values,xsh211.overrun-status-values",
        "TRC", "posix_trace_get_status")
{
    trace_event_id_t id = ct_open_id("ct.policy.values");
    char when[96];
    for (int p = 0; p < 2; p++) {
        int policy = p == 0 ? POSIX_TRACE_LOOP : POSIX_TRACE_UNTIL_FULL;
        trace_id_t trid = ct_stream_for_32(policy, 0);
        long bound = fill_bound(trid), i;
        unsigned seq = 0;
        snprintf(when, sizeof when, "%s, after create", policy_name(policy));
        check_values(trid, when);
        CT_SETUP_OK(posix_trace_start(trid));
        snprintf(when, sizeof when, "%s, after start", policy_name(policy));
        check_values(trid, when);
        /* Record until the stream is full and as much again, reading the
         * status twice after each event (before and after its reset). */
        long full_at = -1;
        for (i = 0; i < bound && (full_at < 0 || i < 2 * full_at + 4); i++) {
            struct posix_trace_status_info st;
            ct_record_seq(id, seq++);
            snprintf(when, sizeof when, "%s, after event %ld", policy_name(policy), i + 1);
            CT_SETUP_OK(posix_trace_get_status(trid, &st));
            if (full_at < 0 && st.posix_stream_full_status == POSIX_TRACE_FULL)
                full_at = i + 1;
            check_values(trid, when);
        }
        while (read_all(trid) > 0) {
            snprintf(when, sizeof when, "%s, after reading", policy_name(policy));
            check_values(trid, when);
        }
        posix_trace_stop(trid);
        snprintf(when, sizeof when, "%s, after stop", policy_name(policy));
        check_values(trid, when);
    }
}

CT_TEST(running_notfull, "xsh211.status-running-notfull", "TRC",
        "posix_trace_get_status,posix_trace_start")
{
    trace_event_id_t id = ct_open_id("ct.policy.running");
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_SETUP_OK(posix_trace_start(trid));
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING &&
             st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "a stream just started reports status %d and full status %d, expected RUNNING (%d)"
             " and NOT_FULL (%d)", st.posix_stream_status, st.posix_stream_full_status,
             POSIX_TRACE_RUNNING, POSIX_TRACE_NOT_FULL);
    for (unsigned i = 0; i < 3; i++)
        ct_record_seq(id, i);
    st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING &&
             st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "a started stream holding 3 small events reports status %d and full status %d,"
             " expected RUNNING (%d) and NOT_FULL (%d)", st.posix_stream_status,
             st.posix_stream_full_status, POSIX_TRACE_RUNNING, POSIX_TRACE_NOT_FULL);
}

CT_TEST(running_full_loop_only, "xsh211.status-running-full-loop-only", "TRC",
        "posix_trace_get_status")
{
    trace_event_id_t id = ct_open_id("ct.policy.loop-only");
    trace_id_t loop = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    unsigned seq = 0;
    CT_CHECK(try_fill_loop(loop, id, &seq) > 0,
             "a LOOP stream never reported FULL in %u events", seq);
    struct posix_trace_status_info st = status(loop);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_RUNNING &&
             st.posix_stream_full_status == POSIX_TRACE_FULL,
             "a filled LOOP stream reports status %d and full status %d, expected RUNNING (%d)"
             " and FULL (%d)", st.posix_stream_status, st.posix_stream_full_status,
             POSIX_TRACE_RUNNING, POSIX_TRACE_FULL);
    CT_SETUP_OK(posix_trace_shutdown(loop));

    trace_id_t until = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    long bound = fill_bound(until), stopped_at = -1;
    for (long i = 0; i < bound && (stopped_at < 0 || i < stopped_at + 10); i++) {
        ct_record_seq(id, seq++);
        st = status(until);
        CT_CHECK(!(st.posix_stream_status == POSIX_TRACE_RUNNING &&
                   st.posix_stream_full_status == POSIX_TRACE_FULL),
                 "an UNTIL_FULL stream reports RUNNING and FULL after %ld events: that"
                 " combination cannot occur unless the policy is LOOP", i + 1);
        if (stopped_at < 0 && st.posix_stream_status == POSIX_TRACE_SUSPENDED)
            stopped_at = i;
    }
    if (stopped_at < 0)
        CT_UNRESOLVED("the UNTIL_FULL stream never stopped (stream.until-full-stops)");
    for (int k = 0; k < 3; k++) {
        struct rec r;
        int unavailable;
        CT_SETUP_OK(posix_trace_trygetnext_event(until, &r.info, r.data, sizeof r.data,
                                                 &r.len, &unavailable));
        st = status(until);
        CT_CHECK(!(st.posix_stream_status == POSIX_TRACE_RUNNING &&
                   st.posix_stream_full_status == POSIX_TRACE_FULL),
                 "a full UNTIL_FULL stream reports RUNNING and FULL after %d reads", k + 1);
    }
}

CT_TEST(suspended_notfull, "xsh211.status-suspended-notfull", "TRC",
        "posix_trace_get_status,posix_trace_create,posix_trace_stop")
{
    trace_event_id_t id = ct_open_id("ct.policy.suspended");
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
             st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "a new stream reports status %d and full status %d, expected SUSPENDED (%d) and"
             " NOT_FULL (%d)", st.posix_stream_status, st.posix_stream_full_status,
             POSIX_TRACE_SUSPENDED, POSIX_TRACE_NOT_FULL);
    CT_SETUP_OK(posix_trace_start(trid));
    ct_record_seq(id, 1);
    CT_SETUP_OK(posix_trace_stop(trid));
    st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
             st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "a stream stopped with room left reports status %d and full status %d, expected"
             " SUSPENDED (%d) and NOT_FULL (%d)", st.posix_stream_status,
             st.posix_stream_full_status, POSIX_TRACE_SUSPENDED, POSIX_TRACE_NOT_FULL);
}

CT_TEST(suspended_notfull_clear, "xsh211.status-suspended-notfull", "TRC",
        "posix_trace_get_status,posix_trace_clear")
{
    trace_event_id_t id = ct_open_id("ct.policy.cleared");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    unsigned seq = 0;
    fill_until_full(trid, id, &seq);
    struct posix_trace_status_info st = status(trid);
    if (st.posix_stream_status != POSIX_TRACE_SUSPENDED ||
        st.posix_stream_full_status != POSIX_TRACE_FULL)
        CT_UNRESOLVED("the filled UNTIL_FULL stream is not SUSPENDED and FULL (status %d,"
                      " full status %d)", st.posix_stream_status, st.posix_stream_full_status);
    CT_SETUP_OK(posix_trace_clear(trid));
    st = status(trid);
    CT_CHECK(st.posix_stream_status == POSIX_TRACE_SUSPENDED &&
             st.posix_stream_full_status == POSIX_TRACE_NOT_FULL,
             "a SUSPENDED and FULL stream, cleared, reports status %d and full status %d,"
             " expected SUSPENDED (%d: clear keeps the status) and NOT_FULL (%d)",
             st.posix_stream_status, st.posix_stream_full_status, POSIX_TRACE_SUSPENDED,
             POSIX_TRACE_NOT_FULL);
}

/* ---- Overrun status --------------------------------------------------------- */

CT_TEST(overrun_initial, "xsh211.overrun-initial", "TRC",
        "posix_trace_get_status,posix_trace_create")
{
    for (int p = 0; p < 2; p++) {
        int policy = p == 0 ? POSIX_TRACE_LOOP : POSIX_TRACE_UNTIL_FULL;
        trace_id_t trid = ct_stream_for_32(policy, 0);
        struct posix_trace_status_info st = status(trid);
        CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
                 "a new %s stream reports overrun status %d, expected NO_OVERRUN (%d)",
                 policy_name(policy), st.posix_stream_overrun_status, POSIX_TRACE_NO_OVERRUN);
    }
}

CT_TEST(overrun_loop, "xsh211.overrun-loop", "TRC", "posix_trace_get_status")
{
    trace_event_id_t id = ct_open_id("ct.policy.overrun-loop");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    unsigned seq = 0;
    long n = fill_loop(trid, id, &seq);
    for (long i = 0; i < 2 * n + 2; i++)
        ct_record_seq(id, seq++);          /* certainly overwrites: no get_status between */
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN,
             "a LOOP stream full after %ld events took %ld more (overwriting): overrun status"
             " %d, expected OVERRUN (%d)", n, 2 * n + 2, st.posix_stream_overrun_status,
             POSIX_TRACE_OVERRUN);
}

CT_TEST(overrun_until_full, "xsh211.overrun-until-full", "TRC", "posix_trace_get_status")
{
    trace_event_id_t id = ct_open_id("ct.policy.overrun-until");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_UNTIL_FULL, 1);
    unsigned seq = 0;
    fill_until_full(trid, id, &seq);
    status(trid);                               /* resets the overrun status */
    ct_record_seq(id, seq++);                      /* generated while full */
    struct posix_trace_status_info st = status(trid);
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN,
             "an event generated while the UNTIL_FULL stream is full (SUSPENDED and FULL):"
             " overrun status %d, expected OVERRUN (%d)", st.posix_stream_overrun_status,
             POSIX_TRACE_OVERRUN);
}

/* ---- OVERFLOW and RESUME ---------------------------------------------------- */

/* A LOOP stream that lost events, read empty: recs[] holds what was read;
 * *ovf and *res the indexes of the first OVERFLOW and of the first RESUME
 * after it (-1 if missing). */
static int read_overflowed(trace_id_t trid, trace_event_id_t id, int *ovf, int *res)
{
    unsigned seq = 0;
    overflow_loop(trid, id, &seq);
    int n = read_all(trid);
    *ovf = find(trid, n, 0, POSIX_TRACE_OVERFLOW);
    *res = *ovf < 0 ? -1 : find(trid, n, *ovf + 1, POSIX_TRACE_RESUME);
    return n;
}

CT_TEST(overflow_event, "xsh211.overflow-event", "TRC", "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.overflow");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    int ovf, res, n = read_overflowed(trid, id, &ovf, &res);
    int first_user = find(trid, n, 0, id);
    CT_CHECK(ovf >= 0, "after a LOOP stream overwrote events, no POSIX_TRACE_OVERFLOW event"
             " was read (%d events read)", n);
    CT_CHECK(first_user < 0 || ovf < first_user,
             "POSIX_TRACE_OVERFLOW is event %d read, after the oldest surviving event (event"
             " %d, sequence number %u)", ovf + 1, first_user + 1, seq_of(&recs[first_user]));
}

CT_TEST(resume_event, "xsh211.resume-event", "TRC", "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.resume");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    int ovf, res, n = read_overflowed(trid, id, &ovf, &res);
    if (ovf < 0)
        CT_UNRESOLVED("no OVERFLOW event was read (xsh211.overflow-event)");
    int next_user = find(trid, n, ovf + 1, id);
    CT_CHECK(res >= 0, "POSIX_TRACE_OVERFLOW (event %d read) is not followed by a"
             " POSIX_TRACE_RESUME", ovf + 1);
    CT_CHECK(next_user < 0 || res < next_user,
             "after POSIX_TRACE_OVERFLOW (event %d), a user event (event %d) came before"
             " POSIX_TRACE_RESUME (event %d)", ovf + 1, next_user + 1, res + 1);
}

CT_TEST(resume_timestamp, "xsh211.resume-timestamp", "TRC", "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.resume-ts");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    int ovf, res, n = read_overflowed(trid, id, &ovf, &res);
    if (res < 0 || res + 1 >= n)
        CT_UNRESOLVED("no RESUME event followed by an event was read (xsh211.resume-event)");
    const struct timespec *r = &recs[res].info.posix_timestamp,
                          *e = &recs[res + 1].info.posix_timestamp;
    CT_CHECK(ts_equal(&recs[res], &recs[res + 1]),
             "POSIX_TRACE_RESUME has timestamp {%lld s, %ld ns}, the first event reported"
             " after it {%lld s, %ld ns}: expected equal", (long long)r->tv_sec, r->tv_nsec,
             (long long)e->tv_sec, e->tv_nsec);
}

CT_TEST(resume_before_first_valid, "xsh211.resume-before-first-valid", "TRC",
        "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.first-valid");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    int ovf, res, n = read_overflowed(trid, id, &ovf, &res);
    if (res < 0)
        CT_UNRESOLVED("no RESUME event was read (xsh211.resume-event)");
    unsigned oldest = ~0u;
    for (int i = 0; i < n; i++)
        if (is(trid, i, id) && seq_of(&recs[i]) < oldest)
            oldest = seq_of(&recs[i]);
    CT_CHECK(res + 1 < n && is(trid, res + 1, id) && seq_of(&recs[res + 1]) == oldest,
             "the event after POSIX_TRACE_RESUME (event %d of %d) is not the oldest surviving"
             " event (user event %u)%s", res + 1, n, oldest,
             res + 1 < n && is(trid, res + 1, id) ? ": another user event" : "");
}

CT_TEST(overflow_timestamp, "xsh211.overflow-timestamp", "TRC",
        "posix_trace_getnext_event,posix_trace_attr_getclockres")
{
    trace_event_id_t id = ct_open_id("ct.policy.overflow-ts");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    trace_attr_t a;
    struct timespec res_ts;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_get_attr(trid, &a));
    CT_SETUP_OK(posix_trace_attr_getclockres(&a, &res_ts));
    double resolution = (double)res_ts.tv_sec + res_ts.tv_nsec / 1e9;

    /* Read START (so that event 0 is the oldest in the stream and the first
     * overwritten), record event 0, wait 20 ms, then overflow the stream. */
    int n = read_all(trid), s = find(trid, n, 0, POSIX_TRACE_START);
    if (s < 0)
        CT_UNRESOLVED("no START event was read from the started stream");
    struct rec start = recs[s];
    unsigned seq = 0;
    ct_record_seq(id, seq++);
    ct_sleep_ms(20);
    overflow_loop(trid, id, &seq);
    n = read_all(trid);
    int ovf = find(trid, n, 0, POSIX_TRACE_OVERFLOW);
    int res = ovf < 0 ? -1 : find(trid, n, ovf + 1, POSIX_TRACE_RESUME);
    if (res < 0)
        CT_UNRESOLVED("no OVERFLOW followed by RESUME was read (xsh211.overflow-event,"
                      " xsh211.resume-event)");
    double t_start = ts_sec(&start), t_ovf = ts_sec(&recs[ovf]), t_res = ts_sec(&recs[res]);
    CT_CHECK(t_ovf >= t_start - resolution,
             "OVERFLOW's timestamp %.9f is earlier than the START event (%.9f) recorded before"
             " every overwritten event: expected the timestamp of the first event overwritten",
             t_ovf, t_start);
    CT_CHECK(t_ovf <= t_res - 0.020 + resolution,
             "OVERFLOW's timestamp %.9f is not the first overwritten event's: that event was"
             " recorded 20 ms before every later one, and the first surviving event (RESUME,"
             " %.9f) is only %.6f s later", t_ovf, t_res, t_res - t_ovf);
}

CT_TEST(overflow_resume_no_data, "xsh211.overflow-resume-no-data", "TRC",
        "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.policy.no-data");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    int ovf, res;
    read_overflowed(trid, id, &ovf, &res);
    if (ovf < 0 || res < 0)
        CT_UNRESOLVED("no OVERFLOW followed by RESUME was read (xsh211.overflow-event,"
                      " xsh211.resume-event)");
    CT_CHECK(recs[ovf].len == 0, "POSIX_TRACE_OVERFLOW carries %zu bytes of data, expected none",
             recs[ovf].len);
    CT_CHECK(recs[res].len == 0, "POSIX_TRACE_RESUME carries %zu bytes of data, expected none",
             recs[res].len);
}
