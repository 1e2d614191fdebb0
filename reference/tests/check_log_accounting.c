/* SPDX-License-Identifier: MIT */
/*
 * check_log_accounting.c -- no event is lost unreported, under every
 * policy (LOGFORMAT sections 5 and 7; S0024-S0029, S0032-S0038, S0248,
 * S0257, S0279): seeded random workloads over every stream-full policy
 * (LOOP, UNTIL_FULL, FLUSH) and every log-full policy (LOOP, UNTIL_FULL,
 * APPEND), random sizes, data lengths and flush calls.
 *
 * Each user event carries a sequence number (and data derived from it).
 * After shutdown the log is read back, and every sequence number recorded
 * must be either read exactly once, in order, with its data intact, or lie
 * in a gap that the log explains.  What explains a gap, precisely:
 *
 *   - a gap between two events read (or after the last one read) is
 *     explained by an OVERFLOW event (a LOOP stream overwrote events: S0279)
 *     or a STOP event with data 1 (an UNTIL_FULL or FLUSH stream stopped
 *     itself, or an UNTIL_FULL log filled: S0034, S0027) read after the
 *     event before the gap and before the event after it;
 *   - a gap before the first event read is explained by such an event before
 *     it, or by a LOOP log that wrapped: its final posix_log_full_status is
 *     FULL (its oldest segments were overwritten: S0024).
 *
 * Then the statuses must have said so: events lost by the stream make its
 * overrun status OVERRUN in some get_status or in the final status (S0248);
 * events lost by the log make the log overrun status OVERRUN likewise
 * (S0257) and, for a wrapped LOOP or a full UNTIL_FULL log, the final log
 * full status FULL.  The figures are printed.
 */
#include "check_log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int light(void)
{
    const char *f = getenv("CK_FORK");
    return f != NULL && strcmp(f, "no") == 0;
}

struct rng {
    uint64_t s;
};

static uint32_t rnd(struct rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 33);
}

/* The data of event v of workload seed: pad bytes after the number. */
static size_t pad_of(uint32_t seed, uint32_t v, size_t maxdata)
{
    return ((v * 2654435761u) ^ seed) % (maxdata - 3);
}

/* What a workload did, and what the check found. */
struct tally {
    uint64_t recorded, read, lost_stream, lost_log_prefix, lost_log_suffix;
    uint64_t seeds;
};

struct workload {
    uint32_t seed;
    int sp, lp;
    size_t streamsize, maxdata, logsize;
    uint32_t n;                 /* events a thread records */
    unsigned threads;
    unsigned flush_per_mille;   /* chance of a flush call after an event */
    unsigned status_per_mille;  /* chance of a get_status */
    unsigned sleep_per_mille;   /* chance of a pause of 1 ms */
};

struct seen {                   /* what get_status said during the run */
    int stream_overrun, log_overrun, log_full;
};

struct thread_arg {
    const struct workload *w;
    trace_id_t trid;
    trace_event_id_t id;
    struct seen seen;
    uint32_t seed;
};

static void *record_thread(void *p)
{
    struct thread_arg *a = p;
    const struct workload *w = a->w;
    struct rng r = { a->seed };
    for (uint32_t v = 0; v < w->n; v++) {
        lu_event_seq(a->id, v, pad_of(w->seed, v, w->maxdata));
        uint32_t x = rnd(&r) % 1000;
        if (x < w->flush_per_mille) {
            posix_trace_flush(a->trid);         /* may be EFBIG? not here: 0 */
        } else if (x < w->flush_per_mille + w->status_per_mille) {
            struct posix_trace_status_info st;
            if (posix_trace_get_status(a->trid, &st) == 0) {
                a->seen.stream_overrun |= st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN;
                a->seen.log_overrun |= st.posix_log_overrun_status == POSIX_TRACE_OVERRUN;
                a->seen.log_full |= st.posix_log_full_status == POSIX_TRACE_FULL;
            }
        } else if (x >= 1000 - w->sleep_per_mille) {
            tu_sleep_ms(1);             /* lets the flusher catch up now and then */
        }
    }
    return NULL;
}

static const char *policy_name(int p)
{
    switch (p) {
    case POSIX_TRACE_LOOP: return "LOOP";
    case POSIX_TRACE_UNTIL_FULL: return "UNTIL_FULL";
    case POSIX_TRACE_FLUSH: return "FLUSH";
    default: return "APPEND";
    }
}

/* Per event id (thread) during the check. */
struct track {
    trace_event_id_t id;
    int64_t next;               /* the next number expected */
    int marker;                 /* OVERFLOW or STOP(1) since its last event */
    int any;                    /* an event of it was read */
};

static void run_workload(const struct workload *w, struct tally *t)
{
    static const char *names[] = { "log.acct.t0", "log.acct.t1", "log.acct.t2" };
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = w->sp;
    o.log_policy = w->lp;
    o.streamsize = w->streamsize;
    o.maxdata = w->maxdata;
    o.logsize = w->logsize;
    trace_id_t trid = lu_create(&o, fd);
    struct thread_arg args[3];
    pthread_t tids[3];
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (unsigned i = 0; i < w->threads; i++) {
        args[i] = (struct thread_arg){ w, trid, lu_id(names[i]), { 0, 0, 0 },
                                       w->seed * 7919u + i };
        if (w->threads == 1)
            record_thread(&args[i]);
        else
            ck_assert_int_eq(pthread_create(&tids[i], NULL, record_thread, &args[i]), 0);
    }
    if (w->threads > 1)
        for (unsigned i = 0; i < w->threads; i++)
            ck_assert_int_eq(pthread_join(tids[i], NULL), 0);
    struct seen seen = { 0, 0, 0 };
    for (unsigned i = 0; i < w->threads; i++) {
        seen.stream_overrun |= args[i].seen.stream_overrun;
        seen.log_overrun |= args[i].seen.log_overrun;
        seen.log_full |= args[i].seen.log_full;
    }
    trace_id_t log = lu_shutdown_open(trid, fd);
    struct posix_trace_status_info fin = tu_status(log);
    struct lu_ev *evs;
    size_t n = lu_read_log(log, &evs);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);

    struct track tr[3];
    for (unsigned i = 0; i < w->threads; i++)
        tr[i] = (struct track){ args[i].id, 0, 0, 0 };
    uint64_t lost_stream = 0, prefix = 0, suffix = 0, read = 0;
    int wrapped = w->lp == POSIX_TRACE_LOOP && fin.posix_log_full_status == POSIX_TRACE_FULL;
    char what[160];
    snprintf(what, sizeof what, "seed %u (stream %s %zu, log %s %zu, max-data %zu, %u x %u "
             "events)", w->seed, policy_name(w->sp), w->streamsize, policy_name(w->lp),
             w->logsize, w->maxdata, w->threads, w->n);
    for (size_t i = 0; i < n; i++) {
        const struct lu_ev *e = &evs[i];
        trace_event_id_t eid = e->info.posix_event_id;
        int stop1 = 0;
        if (eid == POSIX_TRACE_STOP && e->len == sizeof(int)) {
            int d;
            memcpy(&d, e->data, sizeof d);
            stop1 = d == 1;
        }
        if (eid == POSIX_TRACE_OVERFLOW || stop1) {
            for (unsigned k = 0; k < w->threads; k++)
                tr[k].marker = 1;
            continue;
        }
        unsigned k = 0;
        while (k < w->threads && tr[k].id != eid)
            k++;
        if (k == w->threads)
            continue;                   /* a system event */
        uint32_t v;
        LU_CHECK(e->len >= 4, "%s: a user event of %zu bytes", what, e->len);
        memcpy(&v, e->data, 4);
        LU_CHECK(v < w->n, "%s: event number %u was never recorded", what, v);
        LU_CHECK(lu_ev_seq(e, pad_of(w->seed, v, w->maxdata)) == v,
                 "%s: event %u: its data is not what was recorded", what, v);
        LU_CHECK((int64_t)v >= tr[k].next, "%s: event %u read again or out of order "
                 "(expected %lld or later)", what, v, (long long)tr[k].next);
        if ((int64_t)v > tr[k].next) {
            uint64_t gap = v - (uint64_t)tr[k].next;
            if (tr[k].marker)
                lost_stream += gap;     /* (or an UNTIL_FULL log's STOP: not before an event) */
            else if (!tr[k].any && wrapped)
                prefix += gap;
            else
                ck_abort_msg("%s: events %lld to %u lost without an OVERFLOW, an automatic "
                             "STOP or a wrapped LOOP log before them", what,
                             (long long)tr[k].next, v - 1);
        }
        tr[k].next = v + 1;
        tr[k].marker = 0;
        tr[k].any = 1;
        read++;
    }
    for (unsigned k = 0; k < w->threads; k++) {
        if (tr[k].next == (int64_t)w->n)
            continue;
        uint64_t gap = w->n - (uint64_t)tr[k].next;
        if (!tr[k].any && wrapped) {
            prefix += gap;
            continue;
        }
        LU_CHECK(tr[k].marker, "%s: events %lld to %u lost at the end without an OVERFLOW or "
                 "an automatic STOP after the last one read", what, (long long)tr[k].next,
                 w->n - 1);
        if (w->lp == POSIX_TRACE_UNTIL_FULL && fin.posix_log_full_status == POSIX_TRACE_FULL)
            suffix += gap;
        else
            lost_stream += gap;
    }
    /* The statuses said so. */
    if (lost_stream > 0 && w->lp != POSIX_TRACE_UNTIL_FULL)
        LU_CHECK(seen.stream_overrun ||
                 fin.posix_stream_overrun_status == POSIX_TRACE_OVERRUN,
                 "%s: %llu events lost by the stream, its overrun status never OVERRUN",
                 what, (unsigned long long)lost_stream);
    if (prefix > 0)
        LU_CHECK(seen.log_overrun || fin.posix_log_overrun_status == POSIX_TRACE_OVERRUN,
                 "%s: the LOOP log wrapped, its overrun status never OVERRUN", what);
    if (suffix > 0)
        LU_CHECK((seen.log_overrun || fin.posix_log_overrun_status == POSIX_TRACE_OVERRUN) &&
                 fin.posix_log_full_status == POSIX_TRACE_FULL,
                 "%s: the UNTIL_FULL log discarded events without saying so", what);
    if (w->lp == POSIX_TRACE_UNTIL_FULL && fin.posix_log_full_status == POSIX_TRACE_FULL)
        LU_CHECK(n > 0 && evs[n - 1].info.posix_event_id == POSIX_TRACE_STOP,
                 "%s: a full UNTIL_FULL log does not end with STOP", what);
    LU_CHECK(read + lost_stream + prefix + suffix == (uint64_t)w->n * w->threads,
             "%s: %llu read + %llu lost != %u recorded", what, (unsigned long long)read,
             (unsigned long long)(lost_stream + prefix + suffix), w->n * w->threads);
    t->seeds++;
    t->recorded += (uint64_t)w->n * w->threads;
    t->read += read;
    t->lost_stream += lost_stream;
    t->lost_log_prefix += prefix;
    t->lost_log_suffix += suffix;
    free(evs);
}

static void run_all(unsigned threads, unsigned seeds_per_combination, uint32_t base)
{
    static const int sps[] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_FLUSH };
    static const int lps[] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    struct tally total = { 0 };
    for (unsigned c = 0; c < 9; c++) {
        struct tally t = { 0 };
        for (unsigned k = 0; k < seeds_per_combination; k++) {
            struct workload w;
            w.seed = base + c * 1000 + k;
            struct rng r = { w.seed * 0x9e3779b97f4a7c15ull + 1 };
            w.sp = sps[c / 3];
            w.lp = lps[c % 3];
            w.streamsize = 1024 + rnd(&r) % 32768;
            w.maxdata = 8 + rnd(&r) % 249;
            w.logsize = rnd(&r) % 2 ? 1 + rnd(&r) % 65536 : 65536 + rnd(&r) % (2 << 20);
            w.n = (500 + rnd(&r) % 5500) / threads;
            w.threads = threads;
            w.flush_per_mille = rnd(&r) % 50;
            w.status_per_mille = rnd(&r) % 10;
            w.sleep_per_mille = rnd(&r) % 4;
            run_workload(&w, &t);
        }
        printf("accounting (%u thread%s): stream %-10s log %-10s: %llu seeds, %llu events "
               "recorded, %llu read, lost %llu by the stream, %llu by the LOOP log, %llu by "
               "the UNTIL_FULL log\n", threads, threads > 1 ? "s" : "",
               policy_name(sps[c / 3]), policy_name(lps[c % 3]),
               (unsigned long long)t.seeds, (unsigned long long)t.recorded,
               (unsigned long long)t.read, (unsigned long long)t.lost_stream,
               (unsigned long long)t.lost_log_prefix, (unsigned long long)t.lost_log_suffix);
        total.seeds += t.seeds;
        total.recorded += t.recorded;
        total.read += t.read;
        total.lost_stream += t.lost_stream;
        total.lost_log_prefix += t.lost_log_prefix;
        total.lost_log_suffix += t.lost_log_suffix;
    }
    printf("accounting (%u thread%s): total: %llu seeds, %llu events recorded, %llu read, "
           "%llu lost and explained\n", threads, threads > 1 ? "s" : "",
           (unsigned long long)total.seeds, (unsigned long long)total.recorded,
           (unsigned long long)total.read,
           (unsigned long long)(total.lost_stream + total.lost_log_prefix +
                                total.lost_log_suffix));
}

START_TEST(test_accounting_one_thread)
{
    run_all(1, light() ? 2 : 40, 1);
}
END_TEST

START_TEST(test_accounting_three_threads)
{
    run_all(3, light() ? 1 : 10, 500000);
}
END_TEST

Suite *suite_log_accounting(void)
{
    Suite *s = suite_create("log_accounting");
    TCase *tc = tu_tcase("accounting");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_accounting_one_thread);
    tcase_add_test(tc, test_accounting_three_threads);
    suite_add_tcase(s, tc);
    return s;
}
