/* SPDX-License-Identifier: MIT */
/*
 * check_counts.c -- loss you can count (include/posixtrace_counts.h, issue 20
 * item 4): the accounting equations over many seeded workloads.
 *
 * Each workload is a small stream (LOOP or UNTIL_FULL, a few hundred bytes:
 * it fills, loses and restarts often) that the controller, or 2 or 3 threads
 * at once, record into while the controller reads, stops, starts, filters and clears at random; then the
 * stream is drained.  At every step it checks
 *     recorded = taken + lost + cleared + in_stream
 * and at the end that taken is exactly the number of events
 * posix_trace_getnext_event gave (OVERFLOW and RESUME apart: they are made on
 * the way out), that nothing is left, and that no more user events were
 * read than emitted.
 * A second test does the same for streams with a log: after each flush
 * written + discarded = flushed, and the log, shut down and opened, gives
 * written events.  COUNTS_WORKLOADS (default 10000), COUNTS_LOG_WORKLOADS
 * (default 300) and COUNTS_SEED set the run's size and seed.
 */
#define _DEFAULT_SOURCE                 /* rand_r */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <posixtrace_counts.h>
#include "test_util.h"

static unsigned long env_or(const char *name, unsigned long dflt)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? strtoul(v, NULL, 10) : dflt;
}

static struct posixtrace_counts counts(trace_id_t trid)
{
    struct posixtrace_counts c;
    ck_assert_int_eq(posixtrace_get_counts(trid, &c), 0);
    ck_assert_msg(c.recorded == c.taken + c.lost + c.cleared + c.in_stream,
                  "recorded %llu != taken %llu + lost %llu + cleared %llu + in stream %llu",
                  c.recorded, c.taken, c.lost, c.cleared, c.in_stream);
    return c;
}

struct recorder {
    trace_event_id_t id;
    unsigned n;
};

static void *record_n(void *arg)
{
    const struct recorder *r = arg;
    for (unsigned i = 0; i < r->n; i++)
        posix_trace_event(r->id, &i, sizeof i);
    return NULL;
}

/* Reads what is there; returns the events that came out of the ring (not
 * OVERFLOW, RESUME) and adds the user events among them to *user. */
static unsigned long long drain(trace_id_t trid, unsigned long long *user)
{
    unsigned long long n = 0;
    struct posix_trace_event_info ev;
    unsigned char data[64];
    size_t len;
    int unavailable = 0;
    for (;;) {
        ck_assert_int_eq(posix_trace_trygetnext_event(trid, &ev, data, sizeof data, &len,
                                                      &unavailable), 0);
        if (unavailable)
            return n;
        if (ev.posix_event_id == POSIX_TRACE_OVERFLOW ||
            ev.posix_event_id == POSIX_TRACE_RESUME)
            continue;
        n++;
        if (ev.posix_event_id != POSIX_TRACE_START && ev.posix_event_id != POSIX_TRACE_STOP &&
            ev.posix_event_id != POSIX_TRACE_FILTER)
            (*user)++;
    }
}

/* A pre-recorded log, read to its end: every event counts. */
static unsigned long long read_log(trace_id_t trid, unsigned long long most,
                                   unsigned long long *user)
{
    unsigned long long n = 0;
    struct posix_trace_event_info ev;
    unsigned char data[64];
    size_t len;
    int unavailable = 0;
    while (n < most) {
        ck_assert_int_eq(posix_trace_getnext_event(trid, &ev, data, sizeof data, &len,
                                                   &unavailable), 0);
        if (unavailable)
            return n;
        n++;
        if (ev.posix_event_id > POSIX_TRACE_UNNAMED_USEREVENT)
            (*user)++;
    }
    return n;
}

static unsigned long long drain_log(trace_id_t trid, unsigned long long *user)
{
    return read_log(trid, ~0ull, user);
}

/* One workload of the stream test. */
static void workload(unsigned seed, trace_event_id_t id)
{
    unsigned r = seed;
    int until_full = rand_r(&r) % 2;
    trace_attr_t attr;
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_attr_init(&attr), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(
                         &attr, until_full ? POSIX_TRACE_UNTIL_FULL : POSIX_TRACE_LOOP), 0);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&attr, 16), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&attr, 64 + (size_t)(rand_r(&r) % 512)), 0);
    ck_assert_int_eq(posix_trace_create(0, &attr, &trid), 0);
    posix_trace_attr_destroy(&attr);

    unsigned long long emitted = 0, read = 0, user_read = 0, cleared = 0;
    int filtered = 0;
    int steps = 1 + rand_r(&r) % 8;
    for (int k = 0; k < steps; k++) {
        switch (rand_r(&r) % 6) {
        case 0:
            ck_assert_int_eq(posix_trace_start(trid), 0);
            break;
        case 1:
            ck_assert_int_eq(posix_trace_stop(trid), 0);
            break;
        case 2: {
            trace_event_set_t set;
            ck_assert_int_eq(posix_trace_eventset_empty(&set), 0);
            filtered = rand_r(&r) % 4 == 0;
            if (filtered)
                ck_assert_int_eq(posix_trace_eventset_add(id, &set), 0);
            ck_assert_int_eq(posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET), 0);
            break;
        }
        case 3:
            if (rand_r(&r) % 4 == 0) {
                struct posixtrace_counts c = counts(trid);
                ck_assert_int_eq(posix_trace_clear(trid), 0);
                cleared += c.in_stream;
                ck_assert_int_eq(counts(trid).cleared, cleared);
            }
            break;
        default: {
            /* One step in four, 2 or 3 threads record at once while the
             * controller reads; else the controller records itself (a
             * thread costs more than the workload). */
            unsigned nthreads = rand_r(&r) % 4 == 0 ? 2 + (unsigned)rand_r(&r) % 2 : 0;
            struct recorder rec = { id, 1 + (unsigned)rand_r(&r) % 40 };
            pthread_t t[3];
            for (unsigned i = 0; i < nthreads; i++)
                ck_assert_int_eq(pthread_create(&t[i], NULL, record_n, &rec), 0);
            if (nthreads == 0)
                record_n(&rec);
            if (rand_r(&r) % 2)
                read += drain(trid, &user_read);
            for (unsigned i = 0; i < nthreads; i++)
                pthread_join(t[i], NULL);
            if (!filtered)
                emitted += (unsigned long long)(nthreads ? nthreads : 1) * rec.n;
            break;
        }
        }
        counts(trid);
    }
    read += drain(trid, &user_read);
    struct posixtrace_counts c = counts(trid);
    ck_assert_msg(c.taken == read, "seed %u: taken %llu, read %llu", seed, c.taken, read);
    ck_assert_int_eq(c.in_stream, 0);
    ck_assert_int_eq(c.cleared, cleared);
    /* Every user event read was emitted (not all while the stream ran: an
     * UNTIL_FULL stream stopped by itself restarts once read empty, S0036,
     * even after a posix_trace_stop, which then had no effect, S0230). */
    ck_assert_msg(user_read <= emitted, "seed %u: %llu user events read, %llu emitted", seed,
                  user_read, emitted);
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
}

START_TEST(test_stream_counts_over_seeded_workloads)
{
    unsigned long n = env_or("COUNTS_WORKLOADS", 10000);
    unsigned seed = (unsigned)env_or("COUNTS_SEED", 20);
    trace_event_id_t id;
    ck_assert_int_eq(posix_trace_eventid_open("counts.ev", &id), 0);
    for (unsigned long i = 0; i < n; i++)
        workload(seed * 1000003u + (unsigned)i, id);
}
END_TEST

/* A stream with a log: after each flush, written + discarded = flushed;
 * shut down and opened, the log gives its written events. */
static void log_workload(unsigned seed, trace_event_id_t id)
{
    unsigned r = seed;
    static const int logpol[] = { POSIX_TRACE_APPEND, POSIX_TRACE_UNTIL_FULL };
    static const int strpol[] = { POSIX_TRACE_FLUSH, POSIX_TRACE_UNTIL_FULL };
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    trace_attr_t attr;
    trace_id_t trid;
    ck_assert_int_eq(posix_trace_attr_init(&attr), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&attr, strpol[rand_r(&r) % 2]), 0);
    int logpolicy = logpol[rand_r(&r) % 2];
    ck_assert_int_eq(posix_trace_attr_setlogfullpolicy(&attr, logpolicy), 0);
    ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&attr, 16), 0);
    ck_assert_int_eq(posix_trace_attr_setstreamsize(&attr, 256 + (size_t)(rand_r(&r) % 1024)), 0);
    ck_assert_int_eq(posix_trace_attr_setlogsize(&attr, 4096 + (size_t)(rand_r(&r) % 8192)), 0);
    ck_assert_int_eq(posix_trace_create_withlog(0, &attr, fileno(f), &trid), 0);
    posix_trace_attr_destroy(&attr);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    int rounds = 1 + rand_r(&r) % 4;
    for (int k = 0; k < rounds; k++) {
        unsigned nthreads = 1 + (unsigned)rand_r(&r) % 3;
        struct recorder rec = { id, 1 + (unsigned)rand_r(&r) % 60 };
        pthread_t t[3];
        for (unsigned i = 0; i < nthreads; i++)
            ck_assert_int_eq(pthread_create(&t[i], NULL, record_n, &rec), 0);
        for (unsigned i = 0; i < nthreads; i++)
            pthread_join(t[i], NULL);
        ck_assert_int_eq(posix_trace_flush(trid), 0);
        struct posix_trace_status_info st;
        do {                            /* the flush ends (S0251) */
            ck_assert_int_eq(posix_trace_get_status(trid, &st), 0);
        } while (st.posix_stream_flush_status == POSIX_TRACE_FLUSHING && usleep(200) == 0);
        struct posixtrace_counts c = counts(trid);
        ck_assert_msg(c.written + c.discarded == c.flushed,
                      "seed %u: written %llu + discarded %llu != flushed %llu", seed,
                      c.written, c.discarded, c.flushed);
        /* The flush over, every event taken out of the stream reached the
         * writer, and the writer had no other but the STOP an UNTIL_FULL
         * log writes of its own once full (S0027). */
        unsigned long long own_stop = logpolicy == POSIX_TRACE_UNTIL_FULL &&
                                      st.posix_log_full_status == POSIX_TRACE_FULL;
        ck_assert_msg(c.taken + own_stop == c.flushed,
                      "seed %u: taken %llu (+ %llu) != flushed %llu", seed, c.taken, own_stop,
                      c.flushed);
    }
    ck_assert_int_eq(posix_trace_shutdown(trid), 0);
    ck_assert_int_eq(lseek(fileno(f), 0, SEEK_SET), 0);
    ck_assert_int_eq(posix_trace_open(fileno(f), &trid), 0);
    /* Asked part way through (it reads the log through to count what it
     * holds): the reading goes on where it was. */
    unsigned long long user = 0, n = read_log(trid, (unsigned)rand_r(&r) % 200, &user);
    struct posixtrace_counts c;
    ck_assert_int_eq(posixtrace_get_counts(trid, &c), 0);
    n += drain_log(trid, &user);
    ck_assert_msg(n == c.written, "seed %u: %llu events read, %llu written", seed, n,
                  c.written);
    ck_assert_int_eq(c.flushed, c.written + c.discarded);
    ck_assert_int_eq(posix_trace_close(trid), 0);
    fclose(f);
}

START_TEST(test_log_counts_over_seeded_workloads)
{
    unsigned long n = env_or("COUNTS_LOG_WORKLOADS", 300);
    unsigned seed = (unsigned)env_or("COUNTS_SEED", 20);
    trace_event_id_t id;
    ck_assert_int_eq(posix_trace_eventid_open("counts.log", &id), 0);
    for (unsigned long i = 0; i < n; i++)
        log_workload(seed * 7919u + (unsigned)i, id);
}
END_TEST

START_TEST(test_counts_einval)
{
    struct posixtrace_counts c;
    trace_id_t trid = tu_stream_sim();
    ck_assert_int_eq(posixtrace_get_counts(trid, NULL), EINVAL);
    tu_shutdown(trid);
    ck_assert_int_eq(posixtrace_get_counts(trid, &c), EINVAL);     /* shut down */
}
END_TEST

Suite *suite_counts(void)
{
    Suite *s = suite_create("counts");
    TCase *tc = tcase_create("counts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_stream_counts_over_seeded_workloads);
    tcase_add_test(tc, test_log_counts_over_seeded_workloads);
    tcase_add_test(tc, test_counts_einval);
    suite_add_tcase(s, tc);
    return s;
}
