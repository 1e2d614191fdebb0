/* SPDX-License-Identifier: MIT */
/*
 * check_kernel_ring.c -- the kernel's buffers in the simulated trace
 * (kernel_sim_ring.c, kernel_sim_logger.c): BUFFER first in each buffer
 * with its sequence number and slot count (KSP-18, KSP-19), the TIME events
 * after it and at wraps (KSP-16, KSP-17), the high-water hand-over and the
 * skip of at most two buffers (KSP-20), drops counted and reported by
 * DROPPED (KSP-22), straddling combine events (KSP-21), ring mode; and
 * ksim_verify_file, which checks these rules on any file, is itself shown
 * to catch a file that breaks them.
 *
 * The tests walk the file's buffers from slot 0 by the slot counts of their
 * BUFFER events, which is how a reader finds them (KSP-24).
 */
#include <stdlib.h>
#include <string.h>
#include "check_kernel.h"

struct buf {
    size_t start;
    uint32_t count, seq;
    unsigned cpu;
};

/* The buffers of t, asserting that each begins with BUFFER and that they
 * fill the file exactly.  Returns how many; *out is malloc'ed. */
static size_t walk(const struct kt_trace *t, struct buf **out)
{
    size_t n = 0, cap = 64, at = 0;
    struct buf *b = malloc(cap * sizeof *b);
    ck_assert_ptr_nonnull(b);
    while (at < t->nslots) {
        const traceevent_t *s = &t->slots[at];
        ck_assert_msg(kt_is_control(s, _TRACE_CONTROL_BUFFER), "KSP-19: slot %zu, where a "
                      "buffer begins, has header 0x%08x, not BUFFER", at, s->header);
        if (n == cap) {
            b = realloc(b, (cap *= 2) * sizeof *b);
            ck_assert_ptr_nonnull(b);
        }
        b[n] = (struct buf){ at, s->data[2], s->data[1], _NTO_TRACE_GETCPU(s->header) };
        ck_assert_msg(b[n].count >= 1 && b[n].count <= _TRACE_BUFFER_SLOTS, "KSP-18: buffer "
                      "%zu says %u slots", n, b[n].count);
        at += b[n].count;
        n++;
    }
    ck_assert_msg(at == t->nslots, "KSP-24: the buffers end at slot %zu, the file at %zu", at,
                  t->nslots);
    *out = b;
    return n;
}

/* The TIME events of buffer b: one per CPU, in CPU order, right after
 * BUFFER, each with the low word at emission equal to its timestamp. */
static void check_head(const struct kt_trace *t, const struct buf *b, unsigned ncpus)
{
    for (unsigned c = 0; c < ncpus; c++) {
        const traceevent_t *s = &t->slots[b->start + 1 + c];
        ck_assert_msg(kt_is_control(s, _TRACE_CONTROL_TIME) && _NTO_TRACE_GETCPU(s->header) == c,
                      "KSP-17: slot %u of buffer %u is 0x%08x, not the TIME of cpu %u", 1 + c,
                      b->seq, s->header, c);
        ck_assert_uint_eq(s->header, (uint32_t)c << 24 | 0x401);     /* KSP-16 */
        ck_assert_uint_eq(s->data[2], s->data[0]);
    }
}

START_TEST(test_buffers_begin_with_buffer)
{
    struct ksim_config c = kt_config(3, 20000, 21);
    struct kt_trace t;
    kt_run(&c, &t);
    struct buf *b;
    size_t n = walk(&t, &b);
    ck_assert_uint_eq(n, t.st.buffers_logged);
    ck_assert_uint_eq(n, t.st.buffer_events);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(b[i].seq, i);                              /* KSP-19 */
        ck_assert_uint_eq(t.slots[b[i].start].header, (uint32_t)b[i].cpu << 24 | 0x402);
        check_head(&t, &b[i], 3);
        /* KSP-20: handed over at the high-water mark, the last at stop. */
        if (i + 1 < n)
            ck_assert_msg(b[i].count >= _TRACE_BUFFER_HIGH_WATER, "buffer %zu handed over at "
                          "%u slots", i, b[i].count);
    }
    free(b);
    kt_free(&t);
}
END_TEST

START_TEST(test_high_water_handover)
{
    /* The kernel leaves a buffer when an event begins past 714 slots: what
     * comes after the mark is what was in progress, at most
     * ncpus * (max event + 1) slots, within the 300-slot reserve. */
    struct ksim_config c = kt_config(12, 30000, 4);
    struct kt_trace t;
    kt_run(&c, &t);
    struct buf *b;
    size_t n = walk(&t, &b);
    unsigned over = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        unsigned past = b[i].count - _TRACE_BUFFER_HIGH_WATER;
        over = past > over ? past : over;
        ck_assert_msg(b[i].count >= _TRACE_BUFFER_HIGH_WATER &&
                      past <= 12 * (ksim_max_event_slots(12) + 1),
                      "buffer %zu: %u slots", i, b[i].count);
    }
    ck_assert_msg(over > 0, "no buffer went past the mark: events in progress never used the "
                  "reserve");
    ck_assert_uint_eq(t.st.events_dropped, 0);
    ck_assert_uint_eq(t.st.skips[1] + t.st.skips[2], 0);   /* a logger that keeps up */
    free(b);
    kt_free(&t);
}
END_TEST

START_TEST(test_skip_at_most_two)
{
    /* Two logger lanes with jitter free buffers out of order: the kernel
     * skips one or two busy buffers; the file keeps sequence order. */
    struct ksim_config c = kt_config(4, 40000, 7);
    c.nbuffers = 5;
    c.logger_every = 650;
    c.logger_lanes = 2;
    c.logger_jitter = 90;
    struct kt_trace t;
    kt_run(&c, &t);
    ck_assert_uint_gt(t.st.skips[1], 0);
    ck_assert_uint_gt(t.st.skips[2], 0);
    /* Every move to another buffer is one of the three; the buffer that
     * reports the last drops at stop, if any, is not a move. */
    uint64_t moves = t.st.skips[0] + t.st.skips[1] + t.st.skips[2];
    ck_assert(moves + 1 == t.st.buffers_started || moves + 2 == t.st.buffers_started);
    struct buf *b;
    size_t n = walk(&t, &b);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(b[i].seq, i);
    struct ksim_verify v;
    char err[512];
    ck_assert_msg(ksim_verify_file(t.file, t.len, 1, &v, err, sizeof err) == 0, "%s", err);
    free(b);
    kt_free(&t);
}
END_TEST

START_TEST(test_drops_reported)
{
    /* KSP-22: every drop is reported by a DROPPED event right after the
     * BUFFER and TIME events of the next buffer; the reports add up to the
     * simulator's count. */
    struct ksim_config c = kt_config(2, 20000, 8);
    c.nbuffers = 3;
    c.logger_every = 600;
    struct kt_trace t;
    kt_run(&c, &t);
    ck_assert_uint_gt(t.st.events_dropped, 0);
    struct buf *b;
    size_t n = walk(&t, &b);
    uint64_t events = 0, slots = 0, reports = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = b[i].start; k < b[i].start + b[i].count; k++) {
            if (!kt_is_control(&t.slots[k], _TRACE_CONTROL_DROPPED))
                continue;
            /* After BUFFER and one TIME per CPU (and a wrap's TIME, if any). */
            size_t head = k - b[i].start;
            ck_assert_msg(head >= 3, "DROPPED at slot %zu of its buffer", head);
            for (size_t j = b[i].start + 3; j < k; j++)
                ck_assert(kt_is_control(&t.slots[j], _TRACE_CONTROL_TIME));
            ck_assert_uint_eq(t.slots[k].header, b[i].cpu << 24 | 0x408);
            events += t.slots[k].data[1];
            slots += t.slots[k].data[2];
            reports++;
        }
    }
    ck_assert_uint_eq(events, t.st.events_dropped);
    ck_assert_uint_eq(slots, t.st.slots_dropped);
    ck_assert_uint_eq(reports, t.st.drop_reports);
    struct kt_decoded d;
    kt_decode(&t, &d);
    ck_assert_uint_eq(d.sum.dropped_events, events);
    ck_assert_uint_eq(d.workload_events + events, 20000);
    free(b);
    kt_free(&t);
}
END_TEST

START_TEST(test_drops_at_the_end_reported)
{
    /* A logger too slow to free anything before tracing stops: the drops
     * since the last buffer began get a buffer of their own at the end,
     * holding BUFFER, the TIME events and DROPPED only. */
    struct ksim_config c = kt_config(2, 3000, 2);
    c.nbuffers = 2;
    c.logger_every = 1000000;
    struct kt_trace t;
    kt_run(&c, &t);
    struct buf *b;
    size_t n = walk(&t, &b);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(b[2].count, 4);
    ck_assert(kt_is_control(&t.slots[b[2].start + 3], _TRACE_CONTROL_DROPPED));
    ck_assert_uint_eq(t.slots[b[2].start + 3].data[1], t.st.events_dropped);
    struct kt_decoded d;
    kt_decode(&t, &d);
    ck_assert_uint_eq(d.workload_events + d.sum.dropped_events, 3000);
    free(b);
    kt_free(&t);
}
END_TEST

START_TEST(test_ring_mode)
{
    /* Ring mode overwrites the oldest buffers and hands over all that are
     * left when tracing stops, oldest first: consecutive sequence numbers
     * ending with the last buffer started. */
    struct ksim_config c = kt_config(2, 20000, 11);
    c.mode = KSIM_RING;
    c.nbuffers = 4;
    c.logger_every = 1000000;   /* irrelevant: nothing is handed over before stop */
    struct kt_trace t;
    kt_run(&c, &t);
    struct buf *b;
    size_t n = walk(&t, &b);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(t.st.buffers_handed, 4);
    ck_assert_uint_eq(t.st.buffers_overwritten, t.st.buffers_started - 4);
    ck_assert_uint_eq(t.st.events_dropped, 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(b[i].seq, t.st.buffers_started - 4 + i);
    struct kt_decoded d;
    kt_decode(&t, &d);
    ck_assert_uint_eq(d.workload_events + t.st.events_overwritten, 20000);
    /* The rests of events begun in overwritten buffers are incomplete events,
     * not errors (KSP-14). */
    ck_assert_uint_eq(d.sum.errors, 0);
    ck_assert_uint_eq(d.sum.incomplete_events, d.tails);
    struct ksim_verify v;
    char err[512];
    ck_assert_msg(ksim_verify_file(t.file, t.len, 0, &v, err, sizeof err) == 0, "%s", err);
    free(b);
    kt_free(&t);
}
END_TEST

START_TEST(test_time_at_wraps)
{
    /* KSP-17: a TIME event before a CPU's first event after its low word
     * wraps; decoders then rebuild times that only go forward. */
    struct ksim_config c = kt_config(4, 20000, 12);
    c.wrap_early = 1;
    c.gap_ns = 300000;      /* wraps every ~14000 steps as well */
    struct kt_trace t;
    kt_run(&c, &t);
    ck_assert_uint_ge(t.st.time_at_wrap, 4 + 4);
    uint32_t high[SLOT_NCPUS] = { 0 };
    int known[SLOT_NCPUS] = { 0 };
    unsigned rises = 0;
    for (size_t i = 0; i < t.nslots; i++) {
        const traceevent_t *s = &t.slots[i];
        if (!kt_is_control(s, _TRACE_CONTROL_TIME))
            continue;
        unsigned cpu = _NTO_TRACE_GETCPU(s->header);
        if (known[cpu]) {
            ck_assert_msg(s->data[1] == high[cpu] || s->data[1] == high[cpu] + 1,
                          "cpu %u: high word 0x%x after 0x%x", cpu, s->data[1], high[cpu]);
            rises += s->data[1] != high[cpu];
        }
        high[cpu] = s->data[1];
        known[cpu] = 1;
    }
    ck_assert_uint_ge(rises, 8);
    struct kt_decoded d;
    kt_decode(&t, &d);
    ck_assert_msg(!d.time_went_back, "KSP-9: a CPU's decoded time did not increase");
    ck_assert_uint_eq(d.sum.errors, 0);
    kt_free(&t);
}
END_TEST

START_TEST(test_straddling_reassembled)
{
    /* KSP-21: combine events of several CPUs straddle buffers; the decoder
     * reassembles every one. */
    struct ksim_config c = kt_config(6, 20000, 13);
    struct kt_trace t;
    kt_run(&c, &t);
    ck_assert_uint_gt(t.st.straddling_events, 10);
    struct kt_decoded d;
    kt_decode(&t, &d);
    ck_assert_uint_eq(d.sum.errors, 0);
    ck_assert_uint_eq(d.sum.incomplete_events, 0);
    ck_assert_uint_eq(d.sum.combine_events, t.st.combine_events);
    kt_free(&t);
}
END_TEST

/* The first simple workload event from slot `from` on, itself followed by
 * a simple slot: replacing it breaks no combine event. */
static size_t simple_slot(const struct kt_trace *t, size_t from)
{
    for (size_t i = from; i + 1 < t->nslots; i++)
        if (_TRACE_GET_STRUCT(t->slots[i].header) == _TRACE_STRUCT_S &&
            _TRACE_GET_STRUCT(t->slots[i + 1].header) == _TRACE_STRUCT_S &&
            _NTO_TRACE_GETEVENT_C(t->slots[i].header) != _TRACE_CONTROL_C)
            return i;
    ck_abort_msg("no simple slot after %zu", from);
    return 0;
}

/* ksim_verify_file on t with slot i's header replaced: it must find a
 * problem naming rule. */
static void spoiled(struct kt_trace *t, size_t i, uint32_t header, const char *rule)
{
    unsigned char *p = t->file + t->info->slots_offset + 16 * i, keep[4];
    memcpy(keep, p, 4);
    for (int k = 0; k < 4; k++)
        p[k] = (unsigned char)(header >> (8 * k));
    struct ksim_verify v;
    char err[512] = "";
    int rc = ksim_verify_file(t->file, t->len, 1, &v, err, sizeof err);
    memcpy(p, keep, 4);
    ck_assert_msg(rc != 0 && strstr(err, rule) != NULL, "slot %zu as 0x%08x: expected a %s "
                  "problem, got %d \"%s\"", i, header, rule, rc, err);
}

START_TEST(test_verify_finds_problems)
{
    struct ksim_config c = kt_config(2, 3000, 14);
    struct kt_trace t;
    kt_run(&c, &t);
    struct ksim_verify v;
    char err[512];
    ck_assert_msg(ksim_verify_file(t.file, t.len, 1, &v, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(v.workload_events, 3000);
    struct buf *b;
    size_t n = walk(&t, &b);
    ck_assert_uint_ge(n, 3);
    spoiled(&t, b[1].start, 0x00001801, "KSP-19");          /* BUFFER made a USER event */
    spoiled(&t, b[1].start + 2, 0x00001801, "KSP-17");      /* a TIME made a USER event */
    spoiled(&t, b[1].start + 1, 0x00000408, "KSP-17");      /* a TIME made DROPPED */
    size_t k = simple_slot(&t, b[1].start + 4);
    spoiled(&t, k, 0x00000408, "KSP-22");                   /* DROPPED amid the events */
    k = simple_slot(&t, b[0].start + 20);
    spoiled(&t, k, 0x00000402, "KSP-19");                   /* BUFFER amid the events */
    /* A slot count that overruns the file (KSP-24), and sequence numbers
     * that skip (KSP-19, linear mode). */
    unsigned char *p = t.file + t.info->slots_offset + 16 * b[n - 1].start;
    p[12] = (unsigned char)(p[12] + 1);
    ck_assert_int_ne(ksim_verify_file(t.file, t.len, 1, &v, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "KSP-24") || strstr(err, "KSP-18"), "%s", err);
    p[12] = (unsigned char)(p[12] - 1);
    p = t.file + t.info->slots_offset + 16 * b[n - 1].start;
    p[8] = (unsigned char)(p[8] + 5);
    ck_assert_int_ne(ksim_verify_file(t.file, t.len, 1, &v, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "KSP-19") != NULL, "%s", err);
    /* Without the linear-mode rule a gap is only counted (ring mode). */
    ck_assert_int_eq(ksim_verify_file(t.file, t.len, 0, &v, err, sizeof err), 0);
    ck_assert_uint_eq(v.seq_gaps, 5);
    p[8] = (unsigned char)(p[8] - 5);
    p = t.file + t.info->slots_offset + 16 * b[1].start;
    p[8] = (unsigned char)(p[8] - 1);       /* sequence 0 again: it must increase */
    ck_assert_int_ne(ksim_verify_file(t.file, t.len, 0, &v, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "KSP-19") != NULL, "%s", err);
    p[8] = (unsigned char)(p[8] + 1);
    free(b);
    kt_free(&t);
}
END_TEST

Suite *suite_kernel_ring(void)
{
    Suite *s = suite_create("kernel_ring");
    TCase *tc = tcase_create("ring");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_buffers_begin_with_buffer);
    tcase_add_test(tc, test_high_water_handover);
    tcase_add_test(tc, test_skip_at_most_two);
    tcase_add_test(tc, test_drops_reported);
    tcase_add_test(tc, test_drops_at_the_end_reported);
    tcase_add_test(tc, test_ring_mode);
    tcase_add_test(tc, test_time_at_wraps);
    tcase_add_test(tc, test_straddling_reassembled);
    tcase_add_test(tc, test_verify_finds_problems);
    suite_add_tcase(s, tc);
    return s;
}
