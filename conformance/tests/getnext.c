/* SPDX-License-Identifier: MIT */
/*
 * getnext.c -- posix_trace_getnext_event() on an active stream without log,
 * and what the three readers share: the data buffer and its truncation, the
 * order of events, each event reported once, the space it frees
 * (XSH posix_trace_getnext_event; XSH 2.11.1.1 on posix_truncation_status).
 *
 * Portable: events are told apart by identifier (eventid_equal) and by the
 * sequence numbers the tests put in their data; system events other than
 * START are skipped wherever the rule is about user events; the stream's
 * capacity is never assumed (a stream is filled until get_status says FULL,
 * with a generous bound); the max-data-size in force is read back with
 * get_attr (ruling 22).  The blocking reads are arranged so that a correct
 * implementation never waits long: a sentinel event is recorded last, or a
 * second thread records after 100 ms.
 *
 * Not tested here, and why:
 *   getnext.EINTR       not testable (catalogue).
 *   getnext.prerecorded, getnext.end-of-log  TRL: with the log tests.
 *   readers woken by shutdown (EINVAL)  a shutdown.* rule.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

/* 1 if r is an event of id, else 0: counted, so the non-zero value that
 * posix_trace_eventid_equal() returns for equal ids (any: XSH
 * posix_trace_eventid_equal RETURN VALUE, S0151) is made 1. */
static int is(trace_id_t trid, const struct ct_rec *r, trace_event_id_t id)
{
    return posix_trace_eventid_equal(trid, r->info.posix_event_id, id) != 0;
}

/* The next event, blocking; the call must succeed with an event. */
static void get_next(trace_id_t trid, struct ct_rec *r)
{
    int unavailable = 12345;
    r->len = 0;
    int rc = posix_trace_getnext_event(trid, &r->info, r->data, sizeof r->data, &r->len,
                                       &unavailable);
    CT_CHECK(rc == 0 && unavailable == 0,
             "getnext_event on an active stream returned %s with *unavailable %d, expected 0"
             " and an event", ct_errname(rc), unavailable);
}

/* Blocking read of the next event of type id (one must be in the stream). */
static void get_next_of(trace_id_t trid, trace_event_id_t id, struct ct_rec *r)
{
    do
        get_next(trid, r);
    while (!is(trid, r, id));
}

/* A read meant to find one of the test's events found the stream empty. */
static void expect_event(int unavailable)
{
    if (unavailable)
        CT_UNRESOLVED("the stream is empty: an event the test recorded is missing");
}

static unsigned seq_of(const struct ct_rec *r)
{
    unsigned s = ~0u;
    if (r->len == sizeof s)
        memcpy(&s, r->data, sizeof s);
    return s;
}

static void fill_pattern(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 13 + 5);
}

CT_TEST(reports, "getnext.reports", "TRC",
        "posix_trace_getnext_event,posix_trace_eventid_equal")
{
    static const char payload[] = "getnext.reports";
    trace_event_id_t id = ct_open_id("ct.getnext.reports"), other = ct_open_id("ct.getnext.other");
    trace_id_t trid = ct_stream_for_data(sizeof payload, 1);
    struct ct_rec r;
    pid_t me = getpid();

    posix_trace_event(id, payload, sizeof payload);
    posix_trace_event(other, "", 0);
    do {
        int unavailable = 12345;
        int rc = posix_trace_getnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                           &unavailable);
        CT_CHECK(rc == 0, "getnext_event on a RUNNING stream holding events returned %s",
                 ct_errname(rc));
        CT_CHECK(!is(trid, &r, other), "the event recorded second came out before the first");
    } while (!is(trid, &r, id));
    CT_CHECK(r.len == sizeof payload && memcmp(r.data, payload, sizeof payload) == 0,
             "getnext_event reported the event with data_len %zu and data \"%.*s\", expected"
             " the %zu bytes \"%s\"", r.len, (int)(r.len < CT_REC_DATA ? r.len : CT_REC_DATA),
             (const char *)r.data, sizeof payload, payload);
    CT_CHECK(r.info.posix_pid == me, "posix_pid is %ld, expected the recording process %ld",
             (long)r.info.posix_pid, (long)me);
    get_next(trid, &r);
    CT_CHECK(is(trid, &r, other), "the second user event did not follow (id %s)",
             CT_HEX(r.info.posix_event_id));
}

struct later {
    trace_event_id_t id;
    long delay_ms;
    atomic_int recorded;
};

static void *record_later(void *p)
{
    struct later *l = p;
    ct_sleep_ms(l->delay_ms);
    atomic_store(&l->recorded, 1);
    posix_trace_event(l->id, "late", 4);
    return NULL;
}

CT_TEST(blocks, "getnext.blocks", "TRC", "posix_trace_getnext_event,posix_trace_event")
{
    struct later l = { ct_open_id("ct.getnext.blocks"), 100, 0 };
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct ct_rec r;
    pthread_t th;

    while (ct_next_event(trid, &r))
        ;                                       /* START: the stream is empty now */
    double t0 = ct_mono_now();
    CT_SETUP_OK(pthread_create(&th, NULL, record_later, &l));
    for (;;) {
        int unavailable = 12345;
        int rc = posix_trace_getnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                           &unavailable);
        CT_CHECK(rc == 0 && unavailable == 0,
                 "getnext_event on an empty RUNNING stream returned %s with *unavailable %d"
                 " after %.0f ms, before any event was recorded: it shall block",
                 ct_errname(rc), unavailable, (ct_mono_now() - t0) * 1e3);
        if (is(trid, &r, l.id))
            break;
    }
    double waited = ct_mono_now() - t0;
    CT_CHECK(atomic_load(&l.recorded), "getnext_event returned the event before it was"
             " recorded");
    CT_CHECK(r.len == 4 && memcmp(r.data, "late", 4) == 0,
             "the event reported after the wait has data_len %zu, expected the 4 bytes"
             " recorded", r.len);
    ct_note("getnext_event waited %.0f ms for an event recorded after %ld ms", waited * 1e3,
            l.delay_ms);
    pthread_join(th, NULL);
}

CT_TEST(blocks_again, "getnext.blocks", "TRC", "posix_trace_getnext_event,posix_trace_event")
{
    /* The same wait on a stream that this thread and another have already
     * recorded into and that was read empty, three times over: whatever
     * the implementation keeps of the threads that record (buffers of their
     * own, the last one's place), getnext must still block until the next
     * event and return it. */
    trace_id_t trid = ct_new_stream(NULL, 1);
    trace_event_id_t mine = ct_open_id("ct.getnext.mine");
    struct ct_rec r;
    for (int round = 0; round < 3; round++) {
        struct later l = { ct_open_id("ct.getnext.again"), 50, 0 };
        ct_record_seq(mine, (unsigned)round);
        while (ct_next_event(trid, &r))
            ;                                   /* empty again */
        pthread_t th;
        CT_SETUP_OK(pthread_create(&th, NULL, record_later, &l));
        int unavailable = 12345;
        do {
            int rc = posix_trace_getnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                               &unavailable);
            CT_CHECK(rc == 0 && unavailable == 0, "round %d: getnext_event on a stream read"
                     " empty returned %s with *unavailable %d before the other thread"
                     " recorded: it shall block", round + 1, ct_errname(rc), unavailable);
        } while (!is(trid, &r, l.id));
        CT_CHECK(atomic_load(&l.recorded) && r.len == 4 && memcmp(r.data, "late", 4) == 0,
                 "round %d: getnext_event returned an event before it was recorded, or with"
                 " data_len %zu instead of the 4 bytes recorded", round + 1, r.len);
        pthread_join(th, NULL);
    }
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(unavailable_zero, "getnext.unavailable-zero", "TRC", "posix_trace_getnext_event")
{
    trace_event_id_t id = ct_open_id("ct.getnext.zero");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct ct_rec r;
    for (unsigned i = 0; i < 3; i++)
        ct_record_seq(id, i);
    int users = 0;
    while (users < 3) {
        int unavailable = 12345;
        CT_CHECK_OK(posix_trace_getnext_event(trid, &r.info, r.data, sizeof r.data, &r.len,
                                              &unavailable));
        CT_CHECK(unavailable == 0, "getnext_event reported an event and set *unavailable to"
                 " %d, expected 0", unavailable);
        users += is(trid, &r, id);
    }
}

/* One read by getnext (0), trygetnext (1) or timedgetnext (2). */
static int read_with(int how, trace_id_t trid, struct posix_trace_event_info *info,
                     void *data, size_t n, size_t *len, int *unavailable)
{
    struct timespec later = ct_abstime_in_ms(1000);
    switch (how) {
    case 0:
        return posix_trace_getnext_event(trid, info, data, n, len, unavailable);
    case 1:
        return posix_trace_trygetnext_event(trid, info, data, n, len, unavailable);
    default:
        return posix_trace_timedgetnext_event(trid, info, data, n, len, unavailable, &later);
    }
}

static const char *const reader[3] = { "getnext_event", "trygetnext_event",
                                       "timedgetnext_event" };

/* "The argument num_bytes shall be the size of the buffer pointed to by the
 * data argument" (S0212): the buffer is exactly num_bytes long, followed by
 * guard bytes that must be intact -- with num_bytes 8 (less than the data),
 * 0, and exactly the length recorded. */
CT_TEST(buffer_bound, "getnext.buffer-bound", "TRC",
        "posix_trace_getnext_event,posix_trace_trygetnext_event,posix_trace_timedgetnext_event")
{
    trace_event_id_t id = ct_open_id("ct.getnext.bound");
    trace_id_t trid = ct_new_stream(NULL, 1);
    unsigned char payload[24];
    const size_t sizes[] = { 8, 0, sizeof payload };
    const size_t nsizes = sizeof sizes / sizeof sizes[0];
    fill_pattern(payload, sizeof payload);
    /* One event per reader and size. */
    for (size_t i = 0; i < 3 * nsizes; i++)
        posix_trace_event(id, payload, sizeof payload);

    for (int how = 0; how < 3; how++) {
        for (size_t k = 0; k < nsizes; k++) {
            struct ct_guarded buf = ct_guarded_new(sizes[k], "num_bytes (S0212)");
            struct posix_trace_event_info info;
            size_t len;
            int unavailable, rc;
            char what[96];
            do {                            /* skip START and any other event */
                ct_guarded_reset(&buf);
                rc = read_with(how, trid, &info, buf.p, sizes[k], &len, &unavailable);
                CT_SETUP_OK(rc);
                expect_event(unavailable);
                snprintf(what, sizeof what, "%s with num_bytes %zu (an event with %zu bytes"
                         " of data)", reader[how], sizes[k], len);
                ct_guard_check(&buf, what);
            } while (!posix_trace_eventid_equal(trid, info.posix_event_id, id));
            ct_guarded_free(&buf);
        }
    }
}

CT_TEST(full_data, "getnext.full-data", "TRC",
        "posix_trace_getnext_event,posix_trace_trygetnext_event")
{
    trace_event_id_t id = ct_open_id("ct.getnext.full");
    unsigned char payload[40], buf[200];
    trace_id_t trid = ct_stream_for_data(sizeof payload, 1);
    fill_pattern(payload, sizeof payload);
    posix_trace_event(id, payload, sizeof payload);
    posix_trace_event(id, payload, sizeof payload);
    size_t sizes[2] = { sizeof payload, sizeof buf };   /* exact, larger */

    for (int how = 0; how < 2; how++) {
        struct posix_trace_event_info info;
        size_t len;
        int unavailable;
        do {
            len = 0;
            memset(buf, 0, sizeof buf);
            CT_SETUP_OK(read_with(how, trid, &info, buf, sizes[how], &len, &unavailable));
            expect_event(unavailable);
        } while (!posix_trace_eventid_equal(trid, info.posix_event_id, id));
        CT_CHECK(len == sizeof payload && memcmp(buf, payload, sizeof payload) == 0,
                 "%s with num_bytes %zu reported %zu bytes%s of an event of %zu bytes:"
                 " expected all of them", reader[how], sizes[how], len,
                 len == sizeof payload ? " (other contents)" : "", sizeof payload);
    }
}

CT_TEST(full_data_status, "getnext.full-data-status", "TRC",
        "posix_trace_getnext_event,posix_trace_trygetnext_event,posix_trace_attr_setmaxdatasize")
{
    trace_attr_t attr;
    trace_event_id_t whole = ct_open_id("ct.getnext.whole"), cut = ct_open_id("ct.getnext.cut");
    CT_SETUP_OK(posix_trace_attr_init(&attr));
    CT_SETUP_OK(posix_trace_attr_setmaxdatasize(&attr, 16));
    trace_id_t trid = ct_new_stream(&attr, 1);
    size_t m = ct_stream_max_data(trid);
    if (m > CT_REC_DATA - 32)
        CT_UNRESOLVED("max-data-size set to 16 reads back from the stream as %zu", m);
    unsigned char payload[CT_REC_DATA];
    fill_pattern(payload, sizeof payload);
    for (int how = 0; how < 2; how++) {
        posix_trace_event(whole, payload, m);
        posix_trace_event(cut, payload, m + 24);
    }

    for (int how = 0; how < 2; how++) {
        for (int k = 0; k < 2; k++) {
            trace_event_id_t want = k == 0 ? whole : cut;
            struct ct_rec r;
            int unavailable;
            do {
                CT_SETUP_OK(read_with(how, trid, &r.info, r.data, sizeof r.data, &r.len,
                                      &unavailable));
                expect_event(unavailable);
            } while (!is(trid, &r, want));
            int st = r.info.posix_truncation_status;
            if (k == 0)
                CT_CHECK(st == POSIX_TRACE_NOT_TRUNCATED && r.len == m,
                         "%s, buffer of %zu bytes, event of %zu bytes (= max-data-size):"
                         " truncation status %d and data_len %zu, expected NOT_TRUNCATED (%d)"
                         " and %zu", reader[how], sizeof r.data, m, st, r.len,
                         POSIX_TRACE_NOT_TRUNCATED, m);
            else
                CT_CHECK((st == POSIX_TRACE_TRUNCATED_RECORD && r.len == m) ||
                         (st == POSIX_TRACE_NOT_TRUNCATED && r.len == m + 24),
                         "%s, buffer of %zu bytes, event of %zu bytes recorded with"
                         " max-data-size %zu: truncation status %d, data_len %zu; expected"
                         " TRUNCATED_RECORD (%d) with %zu bytes, or NOT_TRUNCATED (%d) with"
                         " all %zu (ruling 16)", reader[how], sizeof r.data, m + 24, m, st,
                         r.len, POSIX_TRACE_TRUNCATED_RECORD, m, POSIX_TRACE_NOT_TRUNCATED,
                         m + 24);
        }
    }
}

CT_TEST(truncated_read, "getnext.truncated-read", "TRC",
        "posix_trace_getnext_event,posix_trace_trygetnext_event")
{
    trace_event_id_t id = ct_open_id("ct.getnext.short-buffer");
    unsigned char payload[32], buf[64];
    trace_id_t trid = ct_stream_for_data(sizeof payload, 1);
    fill_pattern(payload, sizeof payload);
    size_t sizes[4] = { 10, 10, 0, 31 };
    for (int i = 0; i < 4; i++)
        posix_trace_event(id, payload, sizeof payload);

    for (int i = 0; i < 4; i++) {
        int how = i % 2;
        struct posix_trace_event_info info;
        size_t len;
        int unavailable;
        do {
            len = 12345;
            memset(buf, 0, sizeof buf);
            CT_SETUP_OK(read_with(how, trid, &info, buf, sizes[i], &len, &unavailable));
            expect_event(unavailable);
        } while (!posix_trace_eventid_equal(trid, info.posix_event_id, id));
        CT_CHECK(len == sizes[i] && memcmp(buf, payload, sizes[i]) == 0,
                 "%s with num_bytes %zu, event of %zu bytes: data_len %zu%s, expected the first"
                 " %zu bytes", reader[how], sizes[i], sizeof payload, len,
                 len == sizes[i] ? " (other contents)" : "", sizes[i]);
        CT_CHECK(info.posix_truncation_status == POSIX_TRACE_TRUNCATED_READ,
                 "%s with num_bytes %zu, event of %zu bytes: truncation status %d, expected"
                 " POSIX_TRACE_TRUNCATED_READ (%d)", reader[how], sizes[i], sizeof payload,
                 info.posix_truncation_status, POSIX_TRACE_TRUNCATED_READ);
    }
}

CT_TEST(truncated_read_overrides, "getnext.truncated-read-overrides", "TRC",
        "posix_trace_getnext_event,posix_trace_trygetnext_event,posix_trace_attr_setmaxdatasize")
{
    trace_attr_t attr;
    trace_event_id_t id = ct_open_id("ct.getnext.cut-twice");
    CT_SETUP_OK(posix_trace_attr_init(&attr));
    CT_SETUP_OK(posix_trace_attr_setmaxdatasize(&attr, 16));
    trace_id_t trid = ct_new_stream(&attr, 1);
    size_t m = ct_stream_max_data(trid);
    if (m < 2 || m > CT_REC_DATA - 32)
        CT_UNRESOLVED("max-data-size set to 16 reads back from the stream as %zu", m);
    unsigned char payload[CT_REC_DATA], buf[CT_REC_DATA];
    fill_pattern(payload, sizeof payload);
    posix_trace_event(id, payload, m + 16);
    posix_trace_event(id, payload, m + 16);

    for (int how = 0; how < 2; how++) {
        struct posix_trace_event_info info;
        size_t len, n = m / 2;
        int unavailable;
        do {
            CT_SETUP_OK(read_with(how, trid, &info, buf, n, &len, &unavailable));
            expect_event(unavailable);
        } while (!posix_trace_eventid_equal(trid, info.posix_event_id, id));
        CT_CHECK(info.posix_truncation_status == POSIX_TRACE_TRUNCATED_READ && len == n,
                 "%s with num_bytes %zu, event of %zu bytes recorded with max-data-size %zu:"
                 " truncation status %d and data_len %zu, expected TRUNCATED_READ (%d), which"
                 " overrides TRUNCATED_RECORD, and %zu", reader[how], n, m + 16, m,
                 info.posix_truncation_status, len, POSIX_TRACE_TRUNCATED_READ, n);
    }
}

CT_TEST(oldest_first, "getnext.oldest-first", "TRC",
        "posix_trace_getnext_event,posix_trace_start")
{
    trace_event_id_t id = ct_open_id("ct.getnext.oldest");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct ct_rec r;
    for (unsigned i = 1; i <= 3; i++)
        ct_record_seq(id, i);

    get_next(trid, &r);
    CT_CHECK(is(trid, &r, POSIX_TRACE_START),
             "the first event read from a stream started once is %s, expected the"
             " POSIX_TRACE_START of posix_trace_start, the oldest event",
             CT_HEX(r.info.posix_event_id));
    for (unsigned i = 1; i <= 3; i++) {
        get_next_of(trid, id, &r);
        CT_CHECK(seq_of(&r) == i, "user event %u read, expected %u: oldest first", seq_of(&r),
                 i);
    }
}

CT_TEST(generation_order, "getnext.generation-order", "TRC",
        "posix_trace_getnext_event,posix_trace_event")
{
    enum { N = 50 };
    trace_event_id_t id = ct_open_id("ct.getnext.order");
    trace_id_t trid = ct_new_stream(NULL, 1);
    struct ct_rec r;
    struct timespec prev = { 0, 0 };
    for (unsigned i = 0; i < N; i++)
        ct_record_seq(id, i);
    for (unsigned i = 0; i < N; i++) {
        get_next_of(trid, id, &r);
        CT_CHECK(seq_of(&r) == i, "event %u of %d read carries sequence number %u: events of"
                 " one thread are reported in the order they were generated", i, N,
                 seq_of(&r));
        const struct timespec *t = &r.info.posix_timestamp;
        CT_CHECK(i == 0 || t->tv_sec > prev.tv_sec ||
                 (t->tv_sec == prev.tv_sec && t->tv_nsec >= prev.tv_nsec),
                 "event %u has timestamp {%lld s, %ld ns}, before the previous event's"
                 " {%lld s, %ld ns}", i, (long long)t->tv_sec, t->tv_nsec,
                 (long long)prev.tv_sec, prev.tv_nsec);
        prev = *t;
    }
}

CT_TEST(reported_once, "getnext.reported-once", "TRC",
        "posix_trace_getnext_event,posix_trace_trygetnext_event")
{
    enum { N = 20, SENTINEL = 1000 };
    trace_event_id_t id = ct_open_id("ct.getnext.once");
    trace_id_t trid = ct_new_stream(NULL, 1);
    int seen[N] = { 0 };
    struct ct_rec r;
    for (unsigned i = 0; i < N; i++)
        ct_record_seq(id, i);
    ct_record_seq(id, SENTINEL);

    /* Alternate the two readers up to the sentinel (so getnext never waits). */
    for (int k = 0, done = 0; !done; k++) {
        if (k % 2 == 0)
            get_next(trid, &r);
        else if (!ct_next_event(trid, &r))
            CT_FAIL("trygetnext_event found the stream empty before the last event recorded");
        if (!is(trid, &r, id))
            continue;
        unsigned s = seq_of(&r);
        if (s == SENTINEL) {
            done = 1;
            continue;
        }
        CT_CHECK(s < N, "a user event with sequence number %u was read; 0..%d were recorded",
                 s, N - 1);
        CT_CHECK(!seen[s], "the event with sequence number %u was reported twice", s);
        seen[s] = 1;
    }
    for (int i = 0; i < N; i++)
        CT_CHECK(seen[i], "the event with sequence number %d was never reported", i);
    /* Once more from the start: nothing is reported again. */
    while (ct_next_event(trid, &r))
        CT_CHECK(!is(trid, &r, id), "after every event was read, user event %u was reported"
                 " again", seq_of(&r));
}

/* Records sequence numbers from *seq on until get_status reports FULL;
 * the number recorded. */
static long fill_until_full(trace_id_t trid, trace_event_id_t id, unsigned *seq)
{
    trace_attr_t a;
    size_t size = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_get_attr(trid, &a));
    CT_SETUP_OK(posix_trace_attr_getstreamsize(&a, &size));
    long bound = size < 100000000 ? 4 * (long)size + 100000 : 400000000;
    for (long n = 1; n <= bound; n++) {
        struct posix_trace_status_info st;
        ct_record_seq(id, (*seq)++);
        CT_SETUP_OK(posix_trace_get_status(trid, &st));
        if (st.posix_stream_full_status == POSIX_TRACE_FULL)
            return n;
    }
    CT_UNRESOLVED("a LOOP stream of stream-min-size %zu did not report FULL after %ld events",
                  size, bound);
}

CT_TEST(frees_space, "getnext.frees-space", "TRC",
        "posix_trace_getnext_event,posix_trace_get_status,posix_trace_event")
{
    trace_event_id_t id = ct_open_id("ct.getnext.frees");
    trace_id_t trid = ct_stream_for_32(POSIX_TRACE_LOOP, 1);
    struct posix_trace_status_info st;
    struct ct_rec r;
    unsigned seq = 0;
    long filled = fill_until_full(trid, id, &seq);
    long held = 0;
    while (ct_next_event(trid, &r))
        held += is(trid, &r, id);
    ct_note("FULL after %ld events; %ld were held and read", filled, held);
    if (held < 3)
        CT_UNRESOLVED("the full stream held only %ld user events", held);

    CT_SETUP_OK(posix_trace_get_status(trid, &st));     /* resets the overrun status */
    unsigned first = seq;
    for (long i = 0; i < held - 1; i++)
        ct_record_seq(id, seq++);
    CT_SETUP_OK(posix_trace_get_status(trid, &st));
    CT_CHECK(st.posix_stream_overrun_status == POSIX_TRACE_NO_OVERRUN,
             "the full stream held %ld events; once read empty, %ld events of the same size"
             " overran it (overrun status %d, expected NO_OVERRUN %d): reading did not free"
             " their space", held, held - 1, st.posix_stream_overrun_status,
             POSIX_TRACE_NO_OVERRUN);
    for (unsigned s = first; s < seq; s++) {
        int got = 0;
        while (!got && ct_next_event(trid, &r))
            got = is(trid, &r, id);
        CT_CHECK(got && seq_of(&r) == s,
                 "after the stream was read empty, %ld events were recorded; event %u of them"
                 " is %s", held - 1, s - first, got ? "out of order" : "missing");
    }
}

CT_TEST(return_convention, "getnext.return-convention", "TRC",
        "posix_trace_getnext_event,posix_trace_timedgetnext_event,posix_trace_trygetnext_event")
{
    trace_event_id_t id = ct_open_id("ct.getnext.convention");
    trace_id_t live = ct_new_stream(NULL, 1);
    struct ct_rec r;
    int unavailable, rc;
    for (int i = 0; i < 3; i++)
        posix_trace_event(id, "", 0);
    for (int how = 0; how < 3; how++) {
        errno = 0;
        rc = read_with(how, live, &r.info, r.data, sizeof r.data, &r.len, &unavailable);
        CT_CHECK(rc == 0, "a successful %s returned %d (%s), errno %s; expected 0",
                 reader[how], rc, ct_errname(rc), ct_errname(errno));
    }
    trace_id_t dead = ct_dead_stream();
    for (int how = 0; how < 3; how++) {
        errno = 0;
        rc = read_with(how, dead, &r.info, r.data, sizeof r.data, &r.len, &unavailable);
        CT_CHECK(rc == EINVAL, "%s on a shut-down trid returned %d (%s), errno %s: expected"
                 " the error number EINVAL itself", reader[how], rc, ct_errname(rc),
                 ct_errname(errno));
    }
}

CT_TEST(einval, "getnext.EINVAL", "TRC", "posix_trace_getnext_event")
{
    struct ct_rec r;
    int unavailable;
    trace_id_t dead = ct_dead_stream();
    CT_CHECK_ERR(posix_trace_getnext_event(dead, &r.info, r.data, sizeof r.data, &r.len,
                                           &unavailable), EINVAL);
}

CT_TEST(truncation_values, "xsh211.truncation-values", "TRC",
        "posix_trace_getnext_event,posix_trace_attr_setmaxdatasize")
{
    trace_attr_t attr;
    trace_event_id_t id = ct_open_id("ct.getnext.values");
    unsigned char payload[64];
    fill_pattern(payload, sizeof payload);
    CT_SETUP_OK(posix_trace_attr_init(&attr));
    if (posix_trace_attr_setmaxdatasize(&attr, 16) != 0)
        ct_note("attr_setmaxdatasize(16) refused: the default max-data-size is used");
    trace_id_t trid = ct_new_stream(&attr, 1);
    size_t sizes[4] = { 0, 8, 16, 64 };
    for (int i = 0; i < 4; i++)
        posix_trace_event(id, payload, sizes[i]);
    CT_SETUP_OK(posix_trace_stop(trid));
    CT_SETUP_OK(posix_trace_start(trid));
    posix_trace_event(id, payload, sizeof payload);
    CT_SETUP_OK(posix_trace_stop(trid));

    /* Every event, read with buffers large and small. */
    size_t bufs[3] = { sizeof payload + 16, 4, 0 };
    struct ct_rec r;
    int unavailable, n = 0;
    for (;; n++) {
        CT_SETUP_OK(posix_trace_trygetnext_event(trid, &r.info, r.data, bufs[n % 3], &r.len,
                                                 &unavailable));
        if (unavailable)
            break;
        int st = r.info.posix_truncation_status;
        CT_CHECK(st == POSIX_TRACE_NOT_TRUNCATED || st == POSIX_TRACE_TRUNCATED_RECORD ||
                 st == POSIX_TRACE_TRUNCATED_READ,
                 "event %d (id %s, read with num_bytes %zu): truncation status %d, expected"
                 " NOT_TRUNCATED (%d), TRUNCATED_RECORD (%d) or TRUNCATED_READ (%d)", n + 1,
                 CT_HEX(r.info.posix_event_id), bufs[n % 3], st, POSIX_TRACE_NOT_TRUNCATED,
                 POSIX_TRACE_TRUNCATED_RECORD, POSIX_TRACE_TRUNCATED_READ);
    }
    if (n < 9)
        CT_UNRESOLVED("only %d events read; at least 9 were recorded", n);
}
