/* SPDX-License-Identifier: MIT */
/*
 * check_slot.c -- the slot codec (reference/slot/slot_codec.h) and the trace file
 * header (reference/slot/trace_file.h) against the kernel slot protocol, rules
 * KSP-1..KSP-25 of spec/kernel-slot-protocol.md.
 *
 * Each test names the rules it checks.  Random inputs come from a seeded
 * xorshift generator, so every run sees the same inputs.
 *
 * Not tested here: KSP-18 and KSP-20 (buffer sizes and the kernel's
 * hand-over policy) belong to the kernel simulator, which will have its own
 * tests; only their constants are checked.  Out-of-memory paths of the
 * decoder (SLOT_ERR_NO_MEMORY) are not provoked: that would need an
 * allocator that fails on demand.
 */
#include "ck.h"
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slot/slot_codec.h"
#include "slot/trace_file.h"

Suite *suite_slot(void);

/* ---- helpers ----------------------------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static unsigned rnd_below(uint64_t *s, unsigned n)
{
    return (unsigned)(rnd(s) % n);
}

static traceevent_t slot(uint32_t flag, unsigned cpu, unsigned cls, unsigned ev, uint32_t ts,
                         uint32_t d1, uint32_t d2)
{
    traceevent_t t = { slot_header(flag, cpu, cls, ev), { ts, d1, d2 } };
    return t;
}

#define S_(c, cl, e, ts, a, b)  slot(_TRACE_STRUCT_S, c, cl, e, ts, a, b)
#define CB_(c, cl, e, ts, a, b) slot(_TRACE_STRUCT_CB, c, cl, e, ts, a, b)
#define CC_(c, cl, e, ts, a, b) slot(_TRACE_STRUCT_CC, c, cl, e, ts, a, b)
#define CE_(c, cl, e, ts, a, b) slot(_TRACE_STRUCT_CE, c, cl, e, ts, a, b)

/* An event as received, with its words copied. */
struct rec {
    struct slot_event ev;
    uint32_t *w;
};

#define SINK_ERRS 64

/* Collects what a decoder delivers, and checks on the way what must hold
 * of any delivery, whatever the input. */
struct sink {
    struct rec *ev;
    size_t nev, cap;
    int keep;                       /* store events (else count and check only) */
    uint64_t nslots_delivered;
    uint64_t word_sum;              /* makes every delivered word be read */
    uint64_t last_offset;
    int any;
    struct slot_error err[SINK_ERRS];
    char msg[SINK_ERRS][256];
    size_t nerr;
    char bad[200];                  /* first broken invariant, if any */
};

static void sink_bad(struct sink *k, const char *what, unsigned long long v)
{
    if (k->bad[0] == '\0')
        snprintf(k->bad, sizeof k->bad, "%s (%llu)", what, v);
}

static void on_ev(void *user, const struct slot_event *e)
{
    struct sink *k = user;
    if (e->words == NULL)
        sink_bad(k, "words NULL", e->offset);
    if (e->nslots == 0 || e->nwords != 2 * e->nslots)
        sink_bad(k, "nwords is not 2 * nslots (KSP-12)", e->nwords);
    if (e->cpu > 63 || e->cls > 7 || e->event > 1023)
        sink_bad(k, "field out of range", e->header);
    /* A combine event begins with its CB, or, incomplete, with the CC/CE
     * that continues an event begun before a buffer gap (KSP-14). */
    unsigned flag = _TRACE_GET_STRUCT(e->header);
    if (e->combine != (flag != _TRACE_STRUCT_S) ||
        (flag != _TRACE_STRUCT_S && flag != _TRACE_STRUCT_CB && e->complete))
        sink_bad(k, "struct flag of the first slot", e->header);
    if (!e->combine && (!e->complete || e->nslots != 1))
        sink_bad(k, "simple event not one complete slot", e->offset);
    if (k->any && e->offset <= k->last_offset)
        sink_bad(k, "events not in the order of their first slots (KSP-13)", e->offset);
    if (_NTO_TRACE_GETCPU(e->header) != e->cpu)
        sink_bad(k, "cpu differs from the header's", e->cpu);
    k->any = 1;
    k->last_offset = e->offset;
    k->nslots_delivered += e->nslots;
    for (uint32_t i = 0; i < e->nwords && e->words; i++)    /* every word readable */
        k->word_sum += e->words[i];
    if (!k->keep)
        return;
    if (k->nev == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 64;
        k->ev = realloc(k->ev, k->cap * sizeof *k->ev);
        ck_assert_ptr_nonnull(k->ev);
    }
    struct rec *r = &k->ev[k->nev++];
    r->ev = *e;
    r->w = malloc(e->nwords * sizeof(uint32_t));
    ck_assert_ptr_nonnull(r->w);
    memcpy(r->w, e->words, e->nwords * sizeof(uint32_t));
    r->ev.words = r->w;
}

static void on_err(void *user, const struct slot_error *e)
{
    struct sink *k = user;
    char tmp[256];
    int n = slot_error_format(e, tmp, sizeof tmp);
    if (n <= 0 || strncmp(tmp, "offset ", 7) != 0)
        sink_bad(k, "error message does not start with \"offset \"", e->offset);
    if (k->nerr < SINK_ERRS) {
        k->err[k->nerr] = *e;
        memcpy(k->msg[k->nerr], tmp, sizeof tmp);
    }
    k->nerr++;
}

static void sink_free(struct sink *k)
{
    for (size_t i = 0; i < k->nev; i++)
        free(k->ev[i].w);
    free(k->ev);
    memset(k, 0, sizeof *k);
}

/* Decodes n slots (at offsets 0, 16, ...) into k with the given bounds (0:
 * defaults); fills *sum. */
static void decode_into(const traceevent_t *s, size_t n, struct sink *k, size_t max_events,
                        size_t max_words, struct slot_summary *sum)
{
    struct slot_decoder d;
    struct slot_decoder_config cfg = { on_ev, on_err, k, max_events, max_words };
    ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
    slot_decoder_feed(&d, s, n, 0);
    slot_decoder_finish(&d);
    slot_decoder_summary(&d, sum);
    slot_decoder_free(&d);
}

static void decode(const traceevent_t *s, size_t n, struct sink *k, struct slot_summary *sum)
{
    k->keep = 1;
    decode_into(s, n, k, 0, 0, sum);
    ck_assert_msg(k->bad[0] == '\0', "delivery invariant broken: %s", k->bad);
}

/* Every slot fed is accounted for exactly once: in a delivered event, as a
 * slot dropped after its event was abandoned, or as an error of its own. */
static void assert_slots_accounted(const struct sink *k, const struct slot_summary *sum,
                                   uint64_t fed)
{
    uint64_t own = sum->errors_by_kind[SLOT_ERR_RESERVED_CLASS] +
                   sum->errors_by_kind[SLOT_ERR_NO_OPEN_COMBINE];
    ck_assert_msg(sum->slots == fed, "slots counted %llu, fed %llu",
                  (unsigned long long)sum->slots, (unsigned long long)fed);
    ck_assert_msg(k->nslots_delivered + sum->discarded_slots + own == fed,
                  "slots: %llu delivered + %llu discarded + %llu reported != %llu fed",
                  (unsigned long long)k->nslots_delivered,
                  (unsigned long long)sum->discarded_slots, (unsigned long long)own,
                  (unsigned long long)fed);
    ck_assert_uint_eq(sum->errors, k->nerr);
}

static void assert_event(const struct rec *r, unsigned cpu, unsigned cls, unsigned ev,
                         uint64_t time, uint64_t offset, int combine, int complete,
                         uint32_t nslots)
{
    ck_assert_msg(r->ev.cpu == cpu && r->ev.cls == cls && r->ev.event == ev,
                  "event at offset %llu: cpu/class/event %u/%u/%u, expected %u/%u/%u",
                  (unsigned long long)r->ev.offset, r->ev.cpu, r->ev.cls, r->ev.event,
                  cpu, cls, ev);
    ck_assert_msg(r->ev.time == time, "event at offset %llu: time 0x%llx, expected 0x%llx",
                  (unsigned long long)r->ev.offset, (unsigned long long)r->ev.time,
                  (unsigned long long)time);
    ck_assert_msg(r->ev.offset == offset, "offset %llu, expected %llu",
                  (unsigned long long)r->ev.offset, (unsigned long long)offset);
    ck_assert_int_eq(r->ev.combine, combine);
    ck_assert_int_eq(r->ev.complete, complete);
    ck_assert_uint_eq(r->ev.nslots, nslots);
}

/* ---- §1 the slot --------------------------------------------------------------- */

/* KSP-1: a slot is 16 bytes, header then data[0..2]. */
START_TEST(test_slot_layout)
{
    ck_assert_uint_eq(sizeof(traceevent_t), 16);
    ck_assert_uint_eq(sizeof(__traceentry), 4);
    ck_assert_uint_eq(offsetof(traceevent_t, header), 0);
    ck_assert_uint_eq(offsetof(traceevent_t, data), 4);
    ck_assert_uint_eq(sizeof(((traceevent_t *)0)->data), 12);
}
END_TEST

/* KSP-2: the accessors read the fields of the table, the class and the
 * flag kept in place; the reserved bits 23-15 change nothing. */
START_TEST(test_header_accessors)
{
    uint32_t h = 0xC100180Cu;
    ck_assert_uint_eq(_NTO_TRACE_GETCPU(h), 1);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT_C(h), 0x1800);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT_C(h), _TRACE_USER_C);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT(h), 12);
    ck_assert_uint_eq(_TRACE_GET_STRUCT(h), _TRACE_STRUCT_CE);

    uint32_t r = h | 0x00FF8000u;   /* reserved bits set */
    ck_assert_uint_eq(_NTO_TRACE_GETCPU(r), 1);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT_C(r), _TRACE_USER_C);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT(r), 12);
    ck_assert_uint_eq(_TRACE_GET_STRUCT(r), _TRACE_STRUCT_CE);

    uint32_t all = 0xFFFFFFFFu;
    ck_assert_uint_eq(_NTO_TRACE_GETCPU(all), 63);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT_C(all), 0x1Fu << 10);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT(all), 0x3FF);
    ck_assert_uint_eq(_TRACE_GET_STRUCT(all), 3u << 30);
    ck_assert_uint_eq(_TRACE_GET_STRUCT(0x7FFFFFFFu), _TRACE_STRUCT_CB);
    ck_assert_uint_eq(_TRACE_GET_STRUCT(0x80000000u), _TRACE_STRUCT_CC);
    ck_assert_uint_eq(_NTO_TRACE_GETCPU(0x3F000000u), 63);
    ck_assert_uint_eq(_NTO_TRACE_GETCPU(0x00FFFFFFu), 0);
}
END_TEST

/* KSP-2: the setters modify the lvalue: clear the field, or in the value,
 * leave every other bit alone. */
START_TEST(test_header_setters)
{
    __traceentry h = 0xFFFFFFFFu;
    _NTO_TRACE_SETEVENT(h, 5);
    ck_assert_uint_eq(h, 0xFFFFFC05u);
    _NTO_TRACE_SETEVENT(h, 0x7FF);          /* masked to 10 bits */
    ck_assert_uint_eq(h, 0xFFFFFFFFu);
    _NTO_TRACE_SETEVENT_C(h, _TRACE_INT_C);
    ck_assert_uint_eq(h, 0xFFFF8FFFu);
    ck_assert_uint_eq(_NTO_TRACE_GETEVENT_C(h), _TRACE_INT_C);

    h = 0;
    _NTO_TRACE_SETEVENT_C(h, _TRACE_USER_C);
    _NTO_TRACE_SETEVENT(h, 12);
    _NTO_TRACE_SETCPU(h, 1);
    _TRACE_SET_STRUCT(h, _TRACE_STRUCT_CB);
    ck_assert_uint_eq(h, 0x4100180Cu);
    _TRACE_SET_STRUCT(h, _TRACE_STRUCT_CE);
    _NTO_TRACE_SETCPU(h, 63);
    ck_assert_uint_eq(h, 0xFF00180Cu);
    _NTO_TRACE_SETEVENT_C(h, _TRACE_EMPTY_C);
    ck_assert_uint_eq(h, 0xFF00000Cu);
    ck_assert_uint_eq(slot_header(_TRACE_STRUCT_CC, 1, SLOT_CLASS_USER, 12), 0x8100180Cu);
}
END_TEST

/* KSP-2, KSP-5, KSP-6, KSP-16, KSP-18..20, KSP-22: the constants. */
START_TEST(test_constants)
{
    ck_assert_uint_eq(_TRACE_STRUCT_S, 0x00000000u);
    ck_assert_uint_eq(_TRACE_STRUCT_CB, 0x40000000u);
    ck_assert_uint_eq(_TRACE_STRUCT_CC, 0x80000000u);
    ck_assert_uint_eq(_TRACE_STRUCT_CE, 0xC0000000u);
    const uint32_t cls[] = { _TRACE_EMPTY_C, _TRACE_CONTROL_C, _TRACE_KER_CALL_C, _TRACE_INT_C,
                             _TRACE_PR_TH_C, _TRACE_SYSTEM_C, _TRACE_USER_C, _TRACE_COMM_C };
    for (uint32_t i = 0; i < 8; i++)
        ck_assert_msg(cls[i] == i << 10, "internal class %u is 0x%x", i, cls[i]);
    ck_assert_int_eq(_NTO_TRACE_EMPTY, 0);
    ck_assert_int_eq(_NTO_TRACE_CONTROL, 1);
    ck_assert_int_eq(_NTO_TRACE_KERCALL, 2);
    ck_assert_int_eq(_NTO_TRACE_KERCALLENTER, 3);
    ck_assert_int_eq(_NTO_TRACE_KERCALLEXIT, 4);
    ck_assert_int_eq(_NTO_TRACE_KERCALLINT, 5);
    ck_assert_int_eq(_NTO_TRACE_INT, 6);
    ck_assert_int_eq(_NTO_TRACE_INTENTER, 7);
    ck_assert_int_eq(_NTO_TRACE_INTEXIT, 8);
    ck_assert_int_eq(_NTO_TRACE_PROCESS, 9);
    ck_assert_int_eq(_NTO_TRACE_THREAD, 10);
    ck_assert_int_eq(_NTO_TRACE_VTHREAD, 11);
    ck_assert_int_eq(_NTO_TRACE_USER, 12);
    ck_assert_int_eq(_NTO_TRACE_SYSTEM, 13);
    ck_assert_int_eq(_NTO_TRACE_COMM, 14);
    ck_assert_int_eq(_NTO_TRACE_INT_HANDLER_ENTER, 15);
    ck_assert_int_eq(_NTO_TRACE_INT_HANDLER_EXIT, 16);
    ck_assert_int_eq(_TRACE_CONTROL_TIME, 1);
    ck_assert_int_eq(_TRACE_CONTROL_BUFFER, 2);
    ck_assert_int_eq(_TRACE_CONTROL_DROPPED, 8);
    /* KSP-16, KSP-19, KSP-22: the headers of the CONTROL events. */
    ck_assert_uint_eq(slot_header(_TRACE_STRUCT_S, 2, SLOT_CLASS_CONTROL, _TRACE_CONTROL_TIME),
                      (2u << 24) | 0x401);
    ck_assert_uint_eq(slot_header(0, 2, SLOT_CLASS_CONTROL, _TRACE_CONTROL_BUFFER),
                      (2u << 24) | 0x402);
    ck_assert_uint_eq(slot_header(0, 2, SLOT_CLASS_CONTROL, _TRACE_CONTROL_DROPPED),
                      (2u << 24) | 0x408);
    ck_assert_int_eq(_TRACE_BUFFER_BYTES, 16384);
    ck_assert_int_eq(_TRACE_BUFFER_SLOTS, 1014);
    ck_assert_int_eq(_TRACE_BUFFER_HIGH_WATER, 714);
    ck_assert_int_eq(_TRACE_BUFFER_RESERVE, 300);
    /* The 1014 slots and a header fit a 16 KiB buffer. */
    ck_assert_int_le(_TRACE_BUFFER_SLOTS * 16, _TRACE_BUFFER_BYTES);
}
END_TEST

/* KSP-6: external classes and codes map onto internal ones as the table
 * says; classes naming several events, and codes out of range, do not. */
START_TEST(test_external_map)
{
    static const struct { int ext; unsigned code, cls, ev; } ok[] = {
        { _NTO_TRACE_EMPTY, 0, SLOT_CLASS_EMPTY, 0 },
        { _NTO_TRACE_CONTROL, _TRACE_CONTROL_TIME, SLOT_CLASS_CONTROL, 1 },
        { _NTO_TRACE_CONTROL, _TRACE_CONTROL_DROPPED, SLOT_CLASS_CONTROL, 8 },
        { _NTO_TRACE_KERCALLENTER, 0, SLOT_CLASS_KER_CALL, 0 },
        { _NTO_TRACE_KERCALLENTER, 127, SLOT_CLASS_KER_CALL, 127 },
        { _NTO_TRACE_KERCALLEXIT, 5, SLOT_CLASS_KER_CALL, 133 },
        { _NTO_TRACE_KERCALLEXIT, 127, SLOT_CLASS_KER_CALL, 255 },
        { _NTO_TRACE_KERCALLINT, 5, SLOT_CLASS_KER_CALL, 261 },
        { _NTO_TRACE_INTENTER, 77, SLOT_CLASS_INT, 1 },
        { _NTO_TRACE_INTEXIT, 0, SLOT_CLASS_INT, 2 },
        { _NTO_TRACE_INT_HANDLER_ENTER, 0, SLOT_CLASS_INT, 3 },
        { _NTO_TRACE_INT_HANDLER_EXIT, 0, SLOT_CLASS_INT, 4 },
        { _NTO_TRACE_PROCESS, 64, SLOT_CLASS_PR_TH, 64 },
        { _NTO_TRACE_PROCESS, 128, SLOT_CLASS_PR_TH, 128 },
        { _NTO_TRACE_PROCESS, 192, SLOT_CLASS_PR_TH, 192 },
        { _NTO_TRACE_PROCESS, 256, SLOT_CLASS_PR_TH, 256 },
        { _NTO_TRACE_PROCESS, 320, SLOT_CLASS_PR_TH, 320 },
        { _NTO_TRACE_THREAD, 0, SLOT_CLASS_PR_TH, 0 },
        { _NTO_TRACE_THREAD, 23, SLOT_CLASS_PR_TH, 23 },
        { _NTO_TRACE_THREAD, 24, SLOT_CLASS_PR_TH, 24 },
        { _NTO_TRACE_THREAD, 25, SLOT_CLASS_PR_TH, 25 },
        { _NTO_TRACE_VTHREAD, 3, SLOT_CLASS_PR_TH, 29 },
        { _NTO_TRACE_USER, 1023, SLOT_CLASS_USER, 1023 },
        { _NTO_TRACE_SYSTEM, 7, SLOT_CLASS_SYSTEM, 7 },
        { _NTO_TRACE_COMM, 9, SLOT_CLASS_COMM, 9 },
    };
    static const struct { int ext; unsigned code; } bad[] = {
        { _NTO_TRACE_KERCALL, 0 }, { _NTO_TRACE_INT, 0 }, { _NTO_TRACE_KERCALLENTER, 128 },
        { _NTO_TRACE_KERCALLEXIT, 200 }, { _NTO_TRACE_PROCESS, 65 }, { _NTO_TRACE_PROCESS, 0 },
        { _NTO_TRACE_THREAD, 26 }, { _NTO_TRACE_VTHREAD, 26 }, { _NTO_TRACE_USER, 1024 },
        { -1, 0 }, { 17, 0 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        unsigned c = 99, e = 99;
        int rc = slot_external_to_internal(ok[i].ext, ok[i].code, &c, &e);
        ck_assert_msg(rc == 0 && c == ok[i].cls && e == ok[i].ev,
                      "external %d code %u: rc %d, class %u event %u; expected %u %u",
                      ok[i].ext, ok[i].code, rc, c, e, ok[i].cls, ok[i].ev);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned c = 99, e = 99;
        int rc = slot_external_to_internal(bad[i].ext, bad[i].code, &c, &e);
        ck_assert_msg(rc == EINVAL && c == 99 && e == 99,
                      "external %d code %u: rc %d, expected EINVAL", bad[i].ext, bad[i].code, rc);
    }
}
END_TEST

/* ---- encoding ---------------------------------------------------------------- */

/* KSP-4: a CPU above 63 is refused with ERANGE and nothing written; 63 is
 * fine; the event code is masked to 10 bits; a reserved class is refused. */
START_TEST(test_encode_ranges)
{
    traceevent_t out[4];
    uint32_t w[3] = { 1, 2, 3 };
    size_t n = 99;
    struct slot_key k = { 64, SLOT_CLASS_USER, 1, 7 };

    memset(out, 0xAB, sizeof out);
    ck_assert_int_eq(slot_encode_words(&k, w, 3, out, 4, &n), ERANGE);
    ck_assert_int_eq(slot_encode_bytes(&k, "ab", 2, out, 4, &n), ERANGE);
    ck_assert_int_eq(slot_encode_string(&k, "ab", out, 4, &n), ERANGE);
    k.cpu = 1000;
    ck_assert_int_eq(slot_encode_words(&k, w, 1, out, 4, &n), ERANGE);
    ck_assert_uint_eq(out[0].header, 0xABABABABu);
    ck_assert_uint_eq(out[0].data[0], 0xABABABABu);

    k.cpu = 63;
    k.event = 0x40C;
    ck_assert_int_eq(slot_encode_words(&k, w, 1, out, 4, &n), 0);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0].header, 0x3F00180Cu);

    k.cls = SLOT_NCLASSES;      /* 8: reserved (KSP-5) */
    ck_assert_int_eq(slot_encode_words(&k, w, 1, out, 4, &n), EINVAL);
    k.cls = _TRACE_USER_C;      /* the shifted constant by mistake */
    ck_assert_int_eq(slot_encode_words(&k, w, 1, out, 4, &n), EINVAL);
    k.cls = SLOT_CLASS_USER;
    ck_assert_int_eq(slot_encode_words(&k, NULL, 1, out, 4, &n), EINVAL);
    ck_assert_int_eq(slot_encode_words(&k, NULL, 0, out, 4, &n), 0);
    ck_assert_int_eq(slot_encode_words(NULL, w, 1, out, 4, &n), EINVAL);
    ck_assert_int_eq(slot_encode_words(&k, w, 1, out, 4, NULL), EINVAL);
    ck_assert_int_eq(slot_encode_string(&k, NULL, out, 4, &n), EINVAL);

    /* Too small an output: ENOSPC, the count needed, nothing written. */
    memset(out, 0xAB, sizeof out);
    n = 0;
    ck_assert_int_eq(slot_encode_words(&k, w, 3, out, 1, &n), ENOSPC);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(out[0].header, 0xABABABABu);
    ck_assert_int_eq(slot_encode_words(&k, w, 3, NULL, 0, &n), ENOSPC);
    ck_assert_uint_eq(n, 2);
}
END_TEST

/* KSP-7, KSP-3: up to two words is one S slot, unused words 0, the
 * timestamp low word in data[0]. */
START_TEST(test_encode_simple)
{
    uint32_t w[2] = { 0x11111111u, 0x22222222u };
    for (size_t nw = 0; nw <= 2; nw++) {
        traceevent_t out[2];
        size_t n = 0;
        struct slot_key k = { 5, SLOT_CLASS_KER_CALL, 130, 0xDEADBEEFu };
        memset(out, 0xAB, sizeof out);
        ck_assert_int_eq(slot_encode_words(&k, w, nw, out, 2, &n), 0);
        ck_assert_uint_eq(n, 1);
        ck_assert_uint_eq(out[0].header, slot_header(_TRACE_STRUCT_S, 5, 2, 130));
        ck_assert_uint_eq(_TRACE_GET_STRUCT(out[0].header), _TRACE_STRUCT_S);
        ck_assert_uint_eq(out[0].data[0], 0xDEADBEEFu);
        ck_assert_uint_eq(out[0].data[1], nw >= 1 ? w[0] : 0);
        ck_assert_uint_eq(out[0].data[2], nw >= 2 ? w[1] : 0);
        ck_assert_uint_eq(out[1].header, 0xABABABABu);     /* nothing more written */
    }
}
END_TEST

/* KSP-8, KSP-3, KSP-9: n >= 3 words take ceil(n/2) slots CB, CC..., CE;
 * every slot has the same header but the flag and the same timestamp; a
 * lone last word is padded with 0. */
START_TEST(test_encode_combine)
{
    uint32_t w[41];
    for (uint32_t i = 0; i < 41; i++)
        w[i] = 0x1000u + i;
    for (size_t nw = 3; nw <= 41; nw++) {
        traceevent_t out[32];
        size_t n = 0, want = (nw + 1) / 2;
        struct slot_key k = { 7, SLOT_CLASS_COMM, 33, 0x01020304u };
        ck_assert_int_eq(slot_encode_words(&k, w, nw, out, 32, &n), 0);
        ck_assert_msg(n == want, "%zu words: %zu slots, expected %zu", nw, n, want);
        for (size_t i = 0; i < n; i++) {
            uint32_t flag = i == 0 ? _TRACE_STRUCT_CB : i == n - 1 ? _TRACE_STRUCT_CE
                                                                   : _TRACE_STRUCT_CC;
            ck_assert_msg(out[i].header == (slot_header(0, 7, SLOT_CLASS_COMM, 33) | flag),
                          "%zu words, slot %zu: header 0x%08x", nw, i, out[i].header);
            ck_assert_uint_eq(out[i].data[0], 0x01020304u);
            ck_assert_uint_eq(out[i].data[1], w[2 * i]);
            ck_assert_uint_eq(out[i].data[2], 2 * i + 1 < nw ? w[2 * i + 1] : 0);
        }
        ck_assert_uint_eq(slot_count(nw), want);
    }
    ck_assert_uint_eq(slot_count(0), 1);
    ck_assert_uint_eq(slot_count(2), 1);
    ck_assert_uint_eq(slot_count(3), 2);
    ck_assert_uint_eq(slot_count_bytes(8), 1);
    ck_assert_uint_eq(slot_count_bytes(9), 2);
    ck_assert_uint_eq(slot_count_bytes(17), 3);
}
END_TEST

/* KSP-8: the first worked example, byte for byte: CPU 1, user code
 * 12, five words A-E. */
START_TEST(test_worked_example_words)
{
    const uint32_t A = 0xAAAAAAA1u, B = 0xBBBBBBB2u, C = 0xCCCCCCC3u, D = 0xDDDDDDD4u,
                   E = 0xEEEEEEE5u, T = 0x00C0FFEEu;
    const uint32_t w[5] = { A, B, C, D, E };
    const traceevent_t want[3] = {
        { 0x4100180Cu, { T, A, B } },
        { 0x8100180Cu, { T, C, D } },
        { 0xC100180Cu, { T, E, 0 } },
    };
    traceevent_t out[3];
    size_t n = 0;
    struct slot_key k = { 1, SLOT_CLASS_USER, 12, T };
    unsigned cls, ev;

    ck_assert_int_eq(slot_external_to_internal(_NTO_TRACE_USER, 12, &cls, &ev), 0);
    k.cls = cls;
    k.event = ev;
    ck_assert_int_eq(slot_encode_words(&k, w, 5, out, 3, &n), 0);
    ck_assert_uint_eq(n, 3);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(out[i].header == want[i].header, "slot %d header 0x%08x, expected 0x%08x",
                      i, out[i].header, want[i].header);
    ck_assert_mem_eq(out, want, sizeof want);
}
END_TEST

/* Stores word w little-endian at p (the order of a little-endian file). */
static void le32(unsigned char *p, uint32_t w)
{
    p[0] = (unsigned char)w;
    p[1] = (unsigned char)(w >> 8);
    p[2] = (unsigned char)(w >> 16);
    p[3] = (unsigned char)(w >> 24);
}

/* KSP-11, KSP-10: the second worked example: CPU 0, string event
 * code 3 (USER class: 0x1803 is 6 << 10 | 3), "hello world". */
START_TEST(test_worked_example_string)
{
    const uint32_t T = 0x12345678u;
    const traceevent_t want[2] = {
        { 0x40001803u, { T, 0x6c6c6568u /* "hell" */, 0x6f77206fu /* "o wo" */ } },
        { 0xC0001803u, { T, 0x00646c72u /* "rld\0" */, 0 } },
    };
    traceevent_t out[2];
    size_t n = 0;
    struct slot_key k = { 0, SLOT_CLASS_USER, 3, T };

    ck_assert_int_eq(slot_encode_string(&k, "hello world", out, 2, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(out[0].header, 0x40001803u);
    ck_assert_uint_eq(out[1].header, 0xC0001803u);
    ck_assert_mem_eq(out, want, sizeof want);

    /* The payload words, as a little-endian file stores them, are the
     * string's bytes in order with the NUL and zero padding. */
    unsigned char bytes[16];
    le32(bytes, out[0].data[1]);
    le32(bytes + 4, out[0].data[2]);
    le32(bytes + 8, out[1].data[1]);
    le32(bytes + 12, out[1].data[2]);
    ck_assert_mem_eq(bytes, "hello world\0\0\0\0\0", 16);
}
END_TEST

/* KSP-10: bytes are rounded up to whole words, padding 0, word i made of
 * bytes 4i..4i+3 little-endian ("hell" is 0x6c6c6568), at every length. */
START_TEST(test_encode_bytes)
{
    unsigned char src[64];
    for (int i = 0; i < 64; i++)
        src[i] = (unsigned char)(0xA0 + i);
    struct slot_key k = { 2, SLOT_CLASS_USER, 40, 9 };
    traceevent_t out[8];
    size_t n = 0;

    ck_assert_int_eq(slot_encode_bytes(&k, "hell", 4, out, 8, &n), 0);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(out[0].data[1], 0x6c6c6568u);
    ck_assert_uint_eq(out[0].data[2], 0);

    for (size_t len = 0; len <= 64; len++) {
        ck_assert_int_eq(slot_encode_bytes(&k, src, len, out, 8, &n), 0);
        size_t words = (len + 3) / 4;
        ck_assert_msg(n == slot_count(words), "%zu bytes: %zu slots", len, n);
        for (size_t i = 0; i < 2 * n; i++) {
            uint32_t w = out[i / 2].data[1 + i % 2], expect = 0;
            for (size_t b = 0; b < 4; b++)
                if (4 * i + b < len)
                    expect |= (uint32_t)src[4 * i + b] << (8 * b);
            ck_assert_msg(w == expect, "%zu bytes, word %zu: 0x%08x, expected 0x%08x",
                          len, i, w, expect);
        }
    }
    ck_assert_int_eq(slot_encode_bytes(&k, NULL, 1, out, 8, &n), EINVAL);
    ck_assert_int_eq(slot_encode_bytes(&k, NULL, 0, out, 8, &n), 0);
}
END_TEST

/* KSP-11: a string with its NUL, 8 bytes a slot: up to 7 characters one S
 * slot, then CB/CE, then CB/CC.../CE. */
START_TEST(test_encode_string_sizes)
{
    static const struct { const char *s; size_t slots; } cases[] = {
        { "", 1 }, { "a", 1 }, { "1234567", 1 }, { "12345678", 2 },
        { "123456789012345", 2 }, { "1234567890123456", 3 },
        { "12345678901234567890123", 3 }, { "123456789012345678901234", 4 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        traceevent_t out[8];
        size_t n = 0;
        struct slot_key k = { 3, SLOT_CLASS_USER, 1, 1 };
        ck_assert_int_eq(slot_encode_string(&k, cases[i].s, out, 8, &n), 0);
        ck_assert_msg(n == cases[i].slots, "\"%s\": %zu slots, expected %zu", cases[i].s, n,
                      cases[i].slots);
        ck_assert_uint_eq(_TRACE_GET_STRUCT(out[0].header),
                          n == 1 ? _TRACE_STRUCT_S : _TRACE_STRUCT_CB);
        /* The bytes read back: the string, its NUL, then zeros. */
        unsigned char b[64];
        for (size_t j = 0; j < n; j++) {
            le32(b + 8 * j, out[j].data[1]);
            le32(b + 8 * j + 4, out[j].data[2]);
        }
        size_t len = strlen(cases[i].s);
        ck_assert_mem_eq(b, cases[i].s, len);
        for (size_t j = len; j < 8 * n; j++)
            ck_assert_msg(b[j] == 0, "\"%s\": byte %zu is %u", cases[i].s, j, b[j]);
    }
}
END_TEST

/* KSP-9: no two events of one CPU share a timestamp: a clock that has not
 * moved (or went back) gives the last one plus one; CPUs are independent;
 * the high word changing is reported (KSP-17's TIME event). */
START_TEST(test_clock)
{
    struct slot_clock c;
    uint64_t ts = 0;
    int hi = -1;

    slot_clock_init(&c);
    ck_assert_int_eq(slot_clock_stamp(&c, 0, 100, &ts, &hi), 0);
    ck_assert_uint_eq(ts, 100);
    ck_assert_int_eq(hi, 0);
    ck_assert_int_eq(slot_clock_stamp(&c, 0, 100, &ts, &hi), 0);
    ck_assert_uint_eq(ts, 101);
    ck_assert_int_eq(slot_clock_stamp(&c, 0, 100, &ts, NULL), 0);
    ck_assert_uint_eq(ts, 102);
    ck_assert_int_eq(slot_clock_stamp(&c, 0, 50, &ts, NULL), 0);     /* went back */
    ck_assert_uint_eq(ts, 103);
    ck_assert_int_eq(slot_clock_stamp(&c, 0, 200, &ts, NULL), 0);
    ck_assert_uint_eq(ts, 200);
    ck_assert_int_eq(slot_clock_stamp(&c, 1, 100, &ts, NULL), 0);    /* another CPU */
    ck_assert_uint_eq(ts, 100);
    ck_assert_int_eq(slot_clock_stamp(&c, 63, 0, &ts, NULL), 0);
    ck_assert_uint_eq(ts, 0);
    ck_assert_int_eq(slot_clock_stamp(&c, 63, 0, &ts, NULL), 0);
    ck_assert_uint_eq(ts, 1);

    ck_assert_int_eq(slot_clock_stamp(&c, 2, 0xFFFFFFFFull, &ts, &hi), 0);
    ck_assert_int_eq(hi, 0);                                        /* first stamp */
    ck_assert_int_eq(slot_clock_stamp(&c, 2, 0xFFFFFFFFull, &ts, &hi), 0);
    ck_assert_uint_eq(ts, 0x100000000ull);
    ck_assert_int_eq(hi, 1);                                        /* the +1 wrapped */
    ck_assert_int_eq(slot_clock_stamp(&c, 2, 0x100000005ull, &ts, &hi), 0);
    ck_assert_int_eq(hi, 0);

    ck_assert_int_eq(slot_clock_stamp(&c, 64, 1, &ts, &hi), ERANGE);
    ck_assert_int_eq(slot_clock_stamp(NULL, 0, 1, &ts, &hi), EINVAL);
}
END_TEST

/* ---- decoding ------------------------------------------------------------------ */

/* KSP-12, KSP-7, KSP-8: the decoder gives back the fields and 2 words a
 * slot, the padding included; a simple event's fields. */
START_TEST(test_decode_basic)
{
    traceevent_t s[4];
    size_t n = 0;
    uint32_t w[3] = { 7, 8, 9 };
    struct slot_key k = { 4, SLOT_CLASS_SYSTEM, 1000, 0x500 };
    struct sink got = { 0 };
    struct slot_summary sum;

    s[0] = S_(3, SLOT_CLASS_INT, _TRACE_INT_ENTRY, 0x400, 0x55, 0x66);
    ck_assert_int_eq(slot_encode_words(&k, w, 3, s + 1, 3, &n), 0);
    ck_assert_uint_eq(n, 2);
    decode(s, 3, &got, &sum);
    ck_assert_uint_eq(got.nev, 2);
    ck_assert_uint_eq(got.nerr, 0);
    assert_event(&got.ev[0], 3, SLOT_CLASS_INT, 1, 0x400, 0, 0, 1, 1);
    ck_assert_uint_eq(got.ev[0].ev.header, s[0].header);
    ck_assert_uint_eq(got.ev[0].ev.nwords, 2);
    ck_assert_uint_eq(got.ev[0].w[0], 0x55);
    ck_assert_uint_eq(got.ev[0].w[1], 0x66);
    assert_event(&got.ev[1], 4, SLOT_CLASS_SYSTEM, 1000, 0x500, 16, 1, 1, 2);
    ck_assert_uint_eq(got.ev[1].ev.nwords, 4);      /* KSP-12: no length recorded */
    const uint32_t want[4] = { 7, 8, 9, 0 };
    ck_assert_mem_eq(got.ev[1].w, want, sizeof want);
    ck_assert_uint_eq(sum.events, 2);
    ck_assert_uint_eq(sum.events_per_cpu[3], 1);
    ck_assert_uint_eq(sum.events_per_cpu[4], 1);
    ck_assert_uint_eq(sum.events_per_class[SLOT_CLASS_INT], 1);
    ck_assert_uint_eq(sum.events_per_class[SLOT_CLASS_SYSTEM], 1);
    ck_assert_uint_eq(sum.combine_events, 1);
    ck_assert_uint_eq(sum.errors, 0);
    assert_slots_accounted(&got, &sum, 3);
    sink_free(&got);
}
END_TEST

/* KSP-2: the reserved bits 23-15 are ignored: the fields read the same, and
 * the slots of one combine event match whatever their reserved bits. */
START_TEST(test_decode_reserved_bits)
{
    const uint32_t junk = 0x00FF8000u;
    traceevent_t s[3] = {
        S_(9, SLOT_CLASS_COMM, 1000, 5, 1, 2),
        CB_(9, SLOT_CLASS_COMM, 3, 6, 1, 2),
        CE_(9, SLOT_CLASS_COMM, 3, 6, 3, 4),
    };
    s[0].header |= junk;
    s[1].header |= 0x00008000u;
    s[2].header |= 0x00400000u;
    struct sink got = { 0 };
    struct slot_summary sum;
    decode(s, 3, &got, &sum);
    ck_assert_uint_eq(got.nerr, 0);
    ck_assert_uint_eq(got.nev, 2);
    assert_event(&got.ev[0], 9, SLOT_CLASS_COMM, 1000, 5, 0, 0, 1, 1);
    assert_event(&got.ev[1], 9, SLOT_CLASS_COMM, 3, 6, 16, 1, 1, 2);
    sink_free(&got);
}
END_TEST

/* KSP-13: combine events of different CPUs interleave with each other and
 * with simple events; each CC/CE goes to its own CPU's event; events come
 * out in the order of their first slots, so simple events wait behind an
 * open combine event. */
START_TEST(test_decode_interleaved)
{
    const traceevent_t s[] = {
        CB_(0, SLOT_CLASS_USER, 5, 100, 1, 2),      /* 0: A opens (cpu 0) */
        S_(1, SLOT_CLASS_KER_CALL, 3, 50, 10, 11),  /* 16: waits behind A */
        CB_(1, SLOT_CLASS_USER, 5, 100, 21, 22),    /* 32: B, same key but cpu 1 */
        CC_(1, SLOT_CLASS_USER, 5, 100, 23, 24),
        CC_(0, SLOT_CLASS_USER, 5, 100, 3, 4),
        S_(2, SLOT_CLASS_COMM, 1, 70, 30, 31),      /* 80: waits */
        CE_(1, SLOT_CLASS_USER, 5, 100, 25, 0),     /* B complete, still behind A */
        CE_(0, SLOT_CLASS_USER, 5, 100, 5, 0),      /* A complete: all four out */
        S_(3, SLOT_CLASS_PR_TH, 24, 9, 0, 0),       /* 128: straight out */
    };
    struct sink got = { 0 };
    struct slot_summary sum;

    decode(s, sizeof s / sizeof s[0], &got, &sum);
    ck_assert_uint_eq(got.nerr, 0);
    ck_assert_uint_eq(got.nev, 5);
    assert_event(&got.ev[0], 0, SLOT_CLASS_USER, 5, 100, 0, 1, 1, 3);
    assert_event(&got.ev[1], 1, SLOT_CLASS_KER_CALL, 3, 50, 16, 0, 1, 1);
    assert_event(&got.ev[2], 1, SLOT_CLASS_USER, 5, 100, 32, 1, 1, 3);
    assert_event(&got.ev[3], 2, SLOT_CLASS_COMM, 1, 70, 80, 0, 1, 1);
    assert_event(&got.ev[4], 3, SLOT_CLASS_PR_TH, 24, 9, 128, 0, 1, 1);
    const uint32_t a[6] = { 1, 2, 3, 4, 5, 0 }, b[6] = { 21, 22, 23, 24, 25, 0 };
    ck_assert_mem_eq(got.ev[0].w, a, sizeof a);
    ck_assert_mem_eq(got.ev[2].w, b, sizeof b);
    ck_assert_uint_eq(got.ev[1].w[0], 10);
    ck_assert_uint_eq(sum.max_held_events, 4);
    assert_slots_accounted(&got, &sum, sizeof s / sizeof s[0]);
    sink_free(&got);
}
END_TEST

/* Decodes s and expects exactly one error, of kind `kind`, at offset `off`,
 * whose message begins with `prefix`. */
static void expect_one_error(const traceevent_t *s, size_t n, struct sink *got,
                             struct slot_summary *sum, enum slot_error_kind kind,
                             uint64_t off, const char *prefix)
{
    decode(s, n, got, sum);
    ck_assert_msg(got->nerr == 1, "%zu errors, expected 1 (first: %s)", got->nerr,
                  got->nerr ? got->msg[0] : "-");
    ck_assert_int_eq(got->err[0].kind, kind);
    ck_assert_msg(got->err[0].offset == off, "error at offset %llu, expected %llu",
                  (unsigned long long)got->err[0].offset, (unsigned long long)off);
    ck_assert_msg(strncmp(got->msg[0], prefix, strlen(prefix)) == 0,
                  "message \"%s\" does not begin with \"%s\"", got->msg[0], prefix);
    ck_assert_uint_eq(sum->errors_by_kind[kind], 1);
    ck_assert_uint_eq(sum->errors, 1);
    assert_slots_accounted(got, sum, n);
}

/* KSP-14: a CE matching no open combine event is reported once, with its
 * offset and the rule, and decoding goes on. */
START_TEST(test_error_orphan_ce)
{
    const traceevent_t s[] = {
        S_(0, SLOT_CLASS_USER, 1, 10, 0, 0),
        CE_(1, SLOT_CLASS_USER, 12, 20, 0, 0),
        S_(0, SLOT_CLASS_USER, 2, 30, 0, 0),
    };
    struct sink got = { 0 };
    struct slot_summary sum;
    expect_one_error(s, 3, &got, &sum, SLOT_ERR_NO_OPEN_COMBINE, 16,
                     "offset 16: KSP-14: CE matches no open combine event");
    ck_assert_uint_eq(got.nev, 2);
    ck_assert_uint_eq(got.ev[1].ev.event, 2);
    ck_assert_str_eq(got.err[0].rule, "KSP-14");
    sink_free(&got);

    /* The example message of the brief, at an offset of the caller's. */
    struct slot_decoder d;
    struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
    got.keep = 1;
    ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
    slot_decoder_feed(&d, s + 1, 1, 1234);
    slot_decoder_finish(&d);
    slot_decoder_free(&d);
    ck_assert_uint_eq(got.nerr, 1);
    ck_assert_msg(strncmp(got.msg[0], "offset 1234: KSP-14: CE matches no open combine event",
                          53) == 0, "message: %s", got.msg[0]);
    sink_free(&got);
}
END_TEST

/* KSP-14, KSP-13: a CC with no open event, and a CC/CE whose timestamp,
 * class or event differs from the CPU's open event, match nothing; the open
 * event stays open and completes. */
START_TEST(test_error_orphan_cc_and_mismatch)
{
    const traceevent_t s[] = {
        CC_(2, SLOT_CLASS_COMM, 4, 5, 0, 0),        /* 0: no open event */
        CB_(2, SLOT_CLASS_COMM, 4, 6, 1, 2),        /* 16 */
        CE_(2, SLOT_CLASS_COMM, 4, 7, 0, 0),        /* 32: other timestamp */
        CE_(2, SLOT_CLASS_COMM, 5, 6, 0, 0),        /* 48: other event */
        CE_(2, SLOT_CLASS_USER, 4, 6, 0, 0),        /* 64: other class */
        CE_(3, SLOT_CLASS_COMM, 4, 6, 0, 0),        /* 80: other CPU */
        CE_(2, SLOT_CLASS_COMM, 4, 6, 3, 4),        /* 96: the right one */
    };
    struct sink got = { 0 };
    struct slot_summary sum;
    decode(s, 7, &got, &sum);
    ck_assert_uint_eq(got.nerr, 5);
    const uint64_t offs[5] = { 0, 32, 48, 64, 80 };
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(got.err[i].kind, SLOT_ERR_NO_OPEN_COMBINE);
        ck_assert_uint_eq(got.err[i].offset, offs[i]);
    }
    ck_assert_msg(strncmp(got.msg[0], "offset 0: KSP-14: CC matches no open combine event", 50)
                  == 0, "message: %s", got.msg[0]);
    ck_assert_uint_eq(got.nev, 1);
    assert_event(&got.ev[0], 2, SLOT_CLASS_COMM, 4, 6, 16, 1, 1, 2);
    const uint32_t w[4] = { 1, 2, 3, 4 };
    ck_assert_mem_eq(got.ev[0].w, w, sizeof w);
    assert_slots_accounted(&got, &sum, 7);
    sink_free(&got);
}
END_TEST

/* KSP-14: a CB still open at the end is reported once (at its offset) and
 * delivered incomplete with what it received, and the events held behind
 * it come out after it. */
START_TEST(test_error_left_open)
{
    const traceevent_t s[] = {
        CB_(0, SLOT_CLASS_USER, 1, 10, 1, 2),
        S_(1, SLOT_CLASS_USER, 2, 20, 0, 0),
        CC_(0, SLOT_CLASS_USER, 1, 10, 3, 4),
        S_(1, SLOT_CLASS_USER, 3, 30, 0, 0),
    };
    struct sink got = { 0 };
    struct slot_summary sum;
    expect_one_error(s, 4, &got, &sum, SLOT_ERR_LEFT_OPEN, 0,
                     "offset 0: KSP-14: combine event left open at the end of the trace");
    ck_assert_uint_eq(got.nev, 3);
    assert_event(&got.ev[0], 0, SLOT_CLASS_USER, 1, 10, 0, 1, 0, 2);
    const uint32_t w[4] = { 1, 2, 3, 4 };
    ck_assert_mem_eq(got.ev[0].w, w, sizeof w);
    ck_assert_uint_eq(got.ev[1].ev.event, 2);
    ck_assert_uint_eq(got.ev[2].ev.event, 3);
    ck_assert_uint_eq(sum.incomplete_events, 1);
    ck_assert_uint_eq(got.err[0].count, 2);
    sink_free(&got);
}
END_TEST

/* KSP-14: a CB followed on the same CPU by another event's CB before its
 * CE: reported once at the second CB, naming the first; the first event is
 * abandoned (delivered incomplete) and its late CE is dropped, not
 * reported again; the second completes. */
START_TEST(test_error_nested_cb)
{
    const traceevent_t s[] = {
        CB_(5, SLOT_CLASS_USER, 1, 10, 1, 2),       /* 0: X */
        CB_(5, SLOT_CLASS_USER, 2, 11, 5, 6),       /* 16: Y, before X's CE */
        CE_(5, SLOT_CLASS_USER, 1, 10, 3, 4),       /* 32: X's late CE */
        CE_(5, SLOT_CLASS_USER, 2, 11, 7, 8),       /* 48: Y's */
        CB_(6, SLOT_CLASS_USER, 1, 10, 1, 2),       /* 64: other CPU, same key as X */
        CE_(6, SLOT_CLASS_USER, 1, 10, 3, 4),
    };
    struct sink got = { 0 };
    struct slot_summary sum;
    expect_one_error(s, 6, &got, &sum, SLOT_ERR_NESTED_CB, 16,
                     "offset 16: KSP-14: CB on cpu 5 before the CE of the combine event begun "
                     "at offset 0");
    ck_assert_uint_eq(got.err[0].other_offset, 0);
    ck_assert_uint_eq(got.nev, 3);
    assert_event(&got.ev[0], 5, SLOT_CLASS_USER, 1, 10, 0, 1, 0, 1);
    assert_event(&got.ev[1], 5, SLOT_CLASS_USER, 2, 11, 16, 1, 1, 2);
    assert_event(&got.ev[2], 6, SLOT_CLASS_USER, 1, 10, 64, 1, 1, 2);
    ck_assert_uint_eq(sum.discarded_slots, 1);
    sink_free(&got);
}
END_TEST

/* KSP-5: a slot of a reserved class (8-31), whatever its flag, is reported
 * once and ignored; decoding goes on. */
START_TEST(test_error_reserved_class)
{
    for (unsigned cls = 8; cls < 32; cls++) {
        for (uint32_t flag = 0; flag < 4; flag++) {
            const traceevent_t s[] = {
                S_(0, SLOT_CLASS_USER, 1, 10, 0, 0),
                slot(flag << 30, 1, cls, 3, 15, 0, 0),
                S_(0, SLOT_CLASS_USER, 2, 20, 0, 0),
            };
            struct sink got = { 0 };
            struct slot_summary sum;
            expect_one_error(s, 3, &got, &sum, SLOT_ERR_RESERVED_CLASS, 16,
                             "offset 16: KSP-5: reserved class");
            ck_assert_msg(strstr(got.msg[0], "class") != NULL, "%s", got.msg[0]);
            ck_assert_uint_eq(got.nev, 2);
            ck_assert_str_eq(got.err[0].rule, "KSP-5");
            sink_free(&got);
        }
    }
}
END_TEST

/* Memory bound: past max_held_events events held back, the oldest open
 * combine event is abandoned (reported once, delivered incomplete), which
 * releases what waited behind it; its later slots are dropped silently. */
START_TEST(test_hold_limit_events)
{
    traceevent_t s[40];
    size_t n = 0;
    s[n++] = CB_(0, SLOT_CLASS_USER, 1, 1, 1, 2);
    for (int i = 0; i < 30; i++)
        s[n++] = S_(1, SLOT_CLASS_USER, 2, 100 + (uint32_t)i, (uint32_t)i, 0);
    s[n++] = CE_(0, SLOT_CLASS_USER, 1, 1, 3, 4);
    s[n++] = S_(1, SLOT_CLASS_USER, 3, 200, 0, 0);

    struct sink got = { 0 };
    struct slot_summary sum;
    got.keep = 1;
    decode_into(s, n, &got, 8, 0, &sum);
    ck_assert_msg(got.bad[0] == '\0', "%s", got.bad);
    ck_assert_uint_eq(got.nerr, 1);
    ck_assert_int_eq(got.err[0].kind, SLOT_ERR_HOLD_LIMIT);
    ck_assert_uint_eq(got.err[0].offset, 0);
    ck_assert_uint_le(sum.max_held_events, 8);
    ck_assert_uint_eq(got.nev, 32);
    assert_event(&got.ev[0], 0, SLOT_CLASS_USER, 1, 1, 0, 1, 0, 1);
    for (int i = 0; i < 30; i++)
        ck_assert_uint_eq(got.ev[1 + i].w[0], (uint32_t)i);
    ck_assert_uint_eq(got.ev[31].ev.event, 3);
    ck_assert_uint_eq(sum.discarded_slots, 1);
    assert_slots_accounted(&got, &sum, n);
    sink_free(&got);
}
END_TEST

/* Memory bound: a combine event growing past max_held_words is abandoned
 * once; its remaining slots are dropped silently; what follows decodes. */
START_TEST(test_hold_limit_words)
{
    enum { N = 300 };
    traceevent_t s[N + 3];
    size_t n = 0;
    s[n++] = CB_(0, SLOT_CLASS_USER, 1, 1, 0, 1);
    for (uint32_t i = 1; i < N; i++)
        s[n++] = CC_(0, SLOT_CLASS_USER, 1, 1, 2 * i, 2 * i + 1);
    s[n++] = CE_(0, SLOT_CLASS_USER, 1, 1, 0, 0);
    s[n++] = CB_(0, SLOT_CLASS_USER, 2, 2, 7, 7);
    s[n++] = CE_(0, SLOT_CLASS_USER, 2, 2, 7, 7);

    struct sink got = { 0 };
    struct slot_summary sum;
    got.keep = 1;
    decode_into(s, n, &got, 0, 64, &sum);
    ck_assert_msg(got.bad[0] == '\0', "%s", got.bad);
    ck_assert_uint_eq(got.nerr, 1);
    ck_assert_int_eq(got.err[0].kind, SLOT_ERR_HOLD_LIMIT);
    ck_assert_uint_eq(got.nev, 2);
    ck_assert_int_eq(got.ev[0].ev.complete, 0);
    ck_assert_uint_le(got.ev[0].ev.nwords, 64);
    for (uint32_t i = 0; i < got.ev[0].ev.nwords; i++)
        ck_assert_uint_eq(got.ev[0].w[i], i);
    assert_event(&got.ev[1], 0, SLOT_CLASS_USER, 2, 2, (N + 1) * 16, 1, 1, 2);
    assert_slots_accounted(&got, &sum, n);
    sink_free(&got);
}
END_TEST

/* KSP-15, KSP-16, KSP-17: the 64-bit time: high word 0 until a TIME event
 * states one; a low word going back without TIME counts a wrap; after a
 * TIME event, going back is not a wrap; each CPU has its own. */
START_TEST(test_decode_time)
{
    const traceevent_t s[] = {
        S_(0, SLOT_CLASS_USER, 0, 0xFFFFFF00u, 0, 0),                  /* 0x0_FFFFFF00 */
        S_(0, SLOT_CLASS_USER, 1, 0x00000010u, 0, 0),                  /* wrap: 0x1_00000010 */
        S_(1, SLOT_CLASS_CONTROL, _TRACE_CONTROL_TIME, 0x50, 7, 0x50), /* cpu 1: high 7 */
        S_(1, SLOT_CLASS_USER, 2, 0x60, 0, 0),                         /* 0x7_00000060 */
        S_(0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_TIME, 0x5, 9, 0x5),   /* back, but TIME */
        S_(0, SLOT_CLASS_USER, 3, 0x6, 0, 0),                          /* 0x9_00000006 */
        CB_(0, SLOT_CLASS_USER, 4, 0x2, 0, 0),                         /* wrap: 0xA_00000002 */
        CE_(0, SLOT_CLASS_USER, 4, 0x2, 0, 0),
        S_(1, SLOT_CLASS_USER, 5, 0x61, 0, 0),                         /* 0x7_00000061 */
    };
    const uint64_t want[] = { 0xFFFFFF00ull, 0x100000010ull, 0x700000050ull, 0x700000060ull,
                              0x900000005ull, 0x900000006ull, 0xA00000002ull, 0x700000061ull };
    struct sink got = { 0 };
    struct slot_summary sum;
    decode(s, sizeof s / sizeof s[0], &got, &sum);
    ck_assert_uint_eq(got.nerr, 0);
    ck_assert_uint_eq(got.nev, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_msg(got.ev[i].ev.time == want[i], "event %d: time 0x%llx, expected 0x%llx",
                      i, (unsigned long long)got.ev[i].ev.time, (unsigned long long)want[i]);
    ck_assert_uint_eq(sum.wraps, 2);
    ck_assert_uint_eq(sum.time_events, 2);
    sink_free(&got);
}
END_TEST

/* KSP-19, KSP-22: CONTROL events are delivered, BUFFER events counted with
 * the gaps in their sequence numbers, DROPPED events summed. */
START_TEST(test_decode_control)
{
    const traceevent_t s[] = {
        S_(0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_BUFFER, 1, 10, 714),
        S_(0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_TIME, 2, 0, 2),
        S_(0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_BUFFER, 3, 11, 700),
        S_(0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_DROPPED, 4, 5, 9),
        S_(1, SLOT_CLASS_CONTROL, _TRACE_CONTROL_BUFFER, 5, 14, 600),   /* 12, 13 missing */
        S_(1, SLOT_CLASS_CONTROL, _TRACE_CONTROL_DROPPED, 6, 2, 3),
        S_(1, SLOT_CLASS_CONTROL, 5, 7, 0, 0),                          /* another code */
    };
    struct sink got = { 0 };
    struct slot_summary sum;
    decode(s, 7, &got, &sum);
    ck_assert_uint_eq(got.nerr, 0);
    ck_assert_uint_eq(got.nev, 7);
    ck_assert_uint_eq(got.ev[3].ev.event, _TRACE_CONTROL_DROPPED);
    ck_assert_uint_eq(got.ev[3].w[0], 5);
    ck_assert_uint_eq(sum.buffers, 3);
    ck_assert_uint_eq(sum.buffer_seq_gaps, 2);
    ck_assert_uint_eq(sum.dropped_events, 7);
    ck_assert_uint_eq(sum.dropped_slots, 12);
    ck_assert_uint_eq(sum.time_events, 1);
    ck_assert_uint_eq(sum.events_per_class[SLOT_CLASS_CONTROL], 7);
    sink_free(&got);
}
END_TEST

/* KSP-21: a combine event straddling two buffers, the new buffer's BUFFER
 * and TIME slots between its parts, is reassembled; the control events come
 * after it (first-slot order) but their state applies at once. */
START_TEST(test_decode_straddle)
{
    const traceevent_t s[] = {
        CB_(0, SLOT_CLASS_USER, 9, 0xFFFFFFF0u, 1, 2),
        CC_(0, SLOT_CLASS_USER, 9, 0xFFFFFFF0u, 3, 4),
        S_(0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_BUFFER, 0xFFFFFFF8u, 2, 500),
        S_(0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_TIME, 0x00000003u, 1, 3),
        CE_(0, SLOT_CLASS_USER, 9, 0xFFFFFFF0u, 5, 6),
        S_(0, SLOT_CLASS_USER, 1, 0x00000009u, 0, 0),
    };
    struct sink got = { 0 };
    struct slot_summary sum;
    decode(s, 6, &got, &sum);
    ck_assert_uint_eq(got.nerr, 0);
    ck_assert_uint_eq(got.nev, 4);
    assert_event(&got.ev[0], 0, SLOT_CLASS_USER, 9, 0xFFFFFFF0u, 0, 1, 1, 3);
    const uint32_t w[6] = { 1, 2, 3, 4, 5, 6 };
    ck_assert_mem_eq(got.ev[0].w, w, sizeof w);
    assert_event(&got.ev[1], 0, SLOT_CLASS_CONTROL, 2, 0xFFFFFFF8u, 32, 0, 1, 1);
    assert_event(&got.ev[2], 0, SLOT_CLASS_CONTROL, 1, 0x100000003ull, 48, 0, 1, 1);
    assert_event(&got.ev[3], 0, SLOT_CLASS_USER, 1, 0x100000009ull, 80, 0, 1, 1);
    ck_assert_uint_eq(sum.wraps, 0);
    sink_free(&got);
}
END_TEST

/* ---- round trips --------------------------------------------------------------- */

/* A seeded workload: events on ncpus CPUs, their slots interleaved at
 * random (a CPU never starts an event before its last one is out), with
 * TIME events when a CPU's high word changes (or, half the time, none: the
 * decoder then counts the wrap itself) and buffer switches (BUFFER, TIME)
 * that may fall inside a combine event (KSP-21). */
struct gen {
    uint64_t rng;
    unsigned ncpus;
    struct slot_clock clk;
    uint64_t now[SLOT_NCPUS];
    traceevent_t pend[SLOT_NCPUS][8];
    unsigned npend[SLOT_NCPUS], ipend[SLOT_NCPUS];
    int started[SLOT_NCPUS];
    uint32_t buffer_seq;
    traceevent_t *out;
    size_t nout, cap;
    struct rec *want;           /* expected events, in first-slot order */
    size_t nwant;
    uint64_t time_events;
};

static void gen_emit(struct gen *g, traceevent_t s)
{
    ck_assert_uint_lt(g->nout, g->cap);
    g->out[g->nout++] = s;
}

static void gen_expect(struct gen *g, const traceevent_t *first, size_t nslots, uint64_t ts,
                       const uint32_t *words)
{
    struct rec *r = &g->want[g->nwant++];
    memset(r, 0, sizeof *r);
    r->ev.time = ts;
    r->ev.offset = g->nout * 16;
    r->ev.header = first->header;
    r->ev.cpu = _NTO_TRACE_GETCPU(first->header);
    r->ev.cls = _NTO_TRACE_GETEVENT_C(first->header) >> 10;
    r->ev.event = _NTO_TRACE_GETEVENT(first->header);
    r->ev.nslots = (uint32_t)nslots;
    r->ev.nwords = (uint32_t)(2 * nslots);
    r->ev.combine = nslots > 1;
    r->ev.complete = 1;
    r->w = calloc(2 * nslots, sizeof(uint32_t));
    ck_assert_ptr_nonnull(r->w);
    memcpy(r->w, words, 2 * nslots * sizeof(uint32_t));
}

/* A simple CONTROL event emitted at once. */
static void gen_control(struct gen *g, unsigned cpu, unsigned ev, uint64_t ts, uint32_t d1,
                        uint32_t d2)
{
    traceevent_t s = S_(cpu, SLOT_CLASS_CONTROL, ev, (uint32_t)ts, d1, d2);
    uint32_t w[2] = { d1, d2 };
    gen_expect(g, &s, 1, ts, w);
    gen_emit(g, s);
    g->time_events += ev == _TRACE_CONTROL_TIME;
}

/* A timestamp for a new event of cpu, with the TIME event it may need. */
static uint64_t gen_stamp(struct gen *g, unsigned cpu)
{
    uint64_t ts;
    int hi;
    ck_assert_int_eq(slot_clock_stamp(&g->clk, cpu, g->now[cpu], &ts, &hi), 0);
    if (!g->started[cpu]) {
        g->started[cpu] = 1;
        if ((ts >> 32) != 0 || rnd_below(&g->rng, 2)) {    /* KSP-17: at start */
            gen_control(g, cpu, _TRACE_CONTROL_TIME, ts, (uint32_t)(ts >> 32), (uint32_t)ts);
            ck_assert_int_eq(slot_clock_stamp(&g->clk, cpu, g->now[cpu], &ts, &hi), 0);
        }
    }
    while (hi && rnd_below(&g->rng, 2)) {               /* KSP-17: at a wrap */
        gen_control(g, cpu, _TRACE_CONTROL_TIME, ts, (uint32_t)(ts >> 32), (uint32_t)ts);
        ck_assert_int_eq(slot_clock_stamp(&g->clk, cpu, g->now[cpu], &ts, &hi), 0);
    }
    return ts;
}

static void gen_advance(struct gen *g, unsigned cpu)
{
    switch (rnd_below(&g->rng, 8)) {
    case 0: case 1: break;                                  /* clock did not move */
    case 2: g->now[cpu] += 0x40000000u + rnd_below(&g->rng, 0x40000000u); break;
    default: g->now[cpu] += 1 + rnd_below(&g->rng, 5000); break;
    }
}

/* Starts a new event on cpu: its first slot goes out now. */
static void gen_event(struct gen *g, unsigned cpu)
{
    static const unsigned classes[] = { SLOT_CLASS_EMPTY, SLOT_CLASS_KER_CALL, SLOT_CLASS_INT,
                                        SLOT_CLASS_PR_TH, SLOT_CLASS_SYSTEM, SLOT_CLASS_USER,
                                        SLOT_CLASS_COMM, SLOT_CLASS_CONTROL };
    uint32_t words[16] = { 0 };
    unsigned nw = rnd_below(&g->rng, 3) ? rnd_below(&g->rng, 3) : rnd_below(&g->rng, 15);
    struct slot_key k;
    size_t n = 0;

    gen_advance(g, cpu);
    uint64_t ts = gen_stamp(g, cpu);
    k.cpu = cpu;
    k.cls = classes[rnd_below(&g->rng, 8)];
    k.event = rnd_below(&g->rng, 1024);
    if (k.cls == SLOT_CLASS_CONTROL)
        k.event = 16 + rnd_below(&g->rng, 100);     /* not TIME, BUFFER, DROPPED */
    k.ts_low = (uint32_t)ts;
    for (unsigned i = 0; i < nw; i++)
        words[i] = (uint32_t)rnd(&g->rng);
    if (rnd_below(&g->rng, 4) == 0) {               /* a string event */
        char str[40];
        unsigned len = rnd_below(&g->rng, 30);
        for (unsigned i = 0; i < len; i++)
            str[i] = (char)('a' + rnd_below(&g->rng, 26));
        str[len] = '\0';
        k.cls = SLOT_CLASS_USER;
        ck_assert_int_eq(slot_encode_string(&k, str, g->pend[cpu], 8, &n), 0);
    } else {
        ck_assert_int_eq(slot_encode_words(&k, words, nw, g->pend[cpu], 8, &n), 0);
    }
    uint32_t pw[16];
    for (size_t i = 0; i < n; i++) {
        pw[2 * i] = g->pend[cpu][i].data[1];
        pw[2 * i + 1] = g->pend[cpu][i].data[2];
    }
    gen_expect(g, &g->pend[cpu][0], n, ts, pw);
    gen_emit(g, g->pend[cpu][0]);
    g->npend[cpu] = (unsigned)n;
    g->ipend[cpu] = 1;
}

/* Generates about `events` events; returns the number of slots. */
static size_t gen_run(struct gen *g, uint64_t seed, unsigned ncpus, size_t events)
{
    memset(g, 0, sizeof *g);
    g->rng = seed * 0x9E3779B97F4A7C15ull + 1;
    g->ncpus = ncpus;
    slot_clock_init(&g->clk);
    for (unsigned c = 0; c < ncpus; c++)
        g->now[c] = rnd_below(&g->rng, 3) == 0 ? rnd(&g->rng) >> 8 : 0xFFFF0000u + c;
    g->cap = events * 12 + 64;
    g->out = malloc(g->cap * sizeof *g->out);
    g->want = malloc(g->cap * sizeof *g->want);
    ck_assert_ptr_nonnull(g->out);
    ck_assert_ptr_nonnull(g->want);
    size_t started = 0;
    for (;;) {
        unsigned cpu = rnd_below(&g->rng, ncpus);
        if (rnd_below(&g->rng, 200) == 0 && g->started[cpu]) {    /* buffer switch */
            gen_advance(g, cpu);
            uint64_t ts = gen_stamp(g, cpu);
            gen_control(g, cpu, _TRACE_CONTROL_BUFFER, ts, ++g->buffer_seq, 714);
            ck_assert_int_eq(slot_clock_stamp(&g->clk, cpu, g->now[cpu], &ts, NULL), 0);
            gen_control(g, cpu, _TRACE_CONTROL_TIME, ts, (uint32_t)(ts >> 32), (uint32_t)ts);
            continue;
        }
        if (g->ipend[cpu] < g->npend[cpu]) {
            gen_emit(g, g->pend[cpu][g->ipend[cpu]++]);
            continue;
        }
        if (started == events)
            break;
        gen_event(g, cpu);
        started++;
    }
    for (int again = 1; again;) {     /* the rest of the open events */
        again = 0;
        for (unsigned c = 0; c < ncpus; c++)
            if (g->ipend[c] < g->npend[c]) {
                gen_emit(g, g->pend[c][g->ipend[c]++]);
                again = 1;
            }
    }
    return g->nout;
}

static void gen_free(struct gen *g)
{
    for (size_t i = 0; i < g->nwant; i++)
        free(g->want[i].w);
    free(g->want);
    free(g->out);
}

/* Compares what was decoded with what was generated. */
static void assert_same_events(const struct sink *got, const struct gen *g, uint64_t seed,
                               uint64_t base)
{
    ck_assert_msg(got->nev == g->nwant, "seed %llu: %zu events decoded, %zu generated",
                  (unsigned long long)seed, got->nev, g->nwant);
    for (size_t i = 0; i < g->nwant; i++) {
        const struct slot_event *a = &got->ev[i].ev, *b = &g->want[i].ev;
        ck_assert_msg(a->offset == b->offset + base && a->header == b->header &&
                      a->time == b->time && a->nslots == b->nslots &&
                      a->combine == b->combine && a->complete == 1 && a->cpu == b->cpu &&
                      a->cls == b->cls && a->event == b->event,
                      "seed %llu, event %zu: got offset %llu header 0x%08x time 0x%llx "
                      "slots %u; expected offset %llu header 0x%08x time 0x%llx slots %u",
                      (unsigned long long)seed, i, (unsigned long long)a->offset, a->header,
                      (unsigned long long)a->time, a->nslots,
                      (unsigned long long)(b->offset + base), b->header,
                      (unsigned long long)b->time, b->nslots);
        ck_assert_msg(memcmp(got->ev[i].w, g->want[i].w, b->nwords * sizeof(uint32_t)) == 0,
                      "seed %llu, event %zu: payload differs", (unsigned long long)seed, i);
    }
}

/* KSP-7..13, KSP-17, KSP-21: seeded random workloads on 1 to 64 CPUs, with
 * interleaved combine events, string events, wraps with and without TIME
 * events and buffer switches inside combine events, decode to exactly the
 * events encoded, in order, with no error. */
START_TEST(test_round_trip_random)
{
    static const unsigned cpus[] = { 1, 2, 3, 4, 8, 64 };
    for (uint64_t seed = 1; seed <= 48; seed++) {
        struct gen g;
        struct sink got = { 0 };
        struct slot_summary sum;
        size_t n = gen_run(&g, seed, cpus[seed % 6], 1500);
        decode(g.out, n, &got, &sum);
        ck_assert_msg(got.nerr == 0, "seed %llu: %zu errors, first: %s",
                      (unsigned long long)seed, got.nerr, got.msg[0]);
        assert_same_events(&got, &g, seed, 0);
        ck_assert_uint_eq(sum.time_events, g.time_events);
        ck_assert_uint_eq(sum.events, g.nwant);
        ck_assert_uint_eq(sum.incomplete_events, 0);
        assert_slots_accounted(&got, &sum, n);
        sink_free(&got);
        gen_free(&g);
    }
}
END_TEST

/* The same, fed one slot at a time: the decoder is a stream. */
START_TEST(test_round_trip_one_at_a_time)
{
    struct gen g;
    struct sink got = { 0 };
    struct slot_decoder d;
    struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
    size_t n = gen_run(&g, 777, 4, 2000);

    got.keep = 1;
    ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
    for (size_t i = 0; i < n; i++)
        slot_decoder_feed(&d, &g.out[i], 1, 16 * i);
    slot_decoder_finish(&d);
    slot_decoder_free(&d);
    ck_assert_uint_eq(got.nerr, 0);
    assert_same_events(&got, &g, 777, 0);
    sink_free(&got);
    gen_free(&g);
}
END_TEST

/* ---- the trace file (§6) ------------------------------------------------------- */

static const struct trace_file_attr extras[] = {
    { "SIM_SEED", "42" }, { "SIM_MODE", "linear buffers" },
};

static struct trace_file_meta test_meta(const void *syspage, size_t len)
{
    struct trace_file_meta m = {
        .file_name = "/tmp/trace.kev", .date = "Sun Nov 22 10:13:00 2026",
        .boot_date = "Sun Nov 22 09:00:00 2026", .cycles_per_sec = 1000000000ull,
        .cpu_num = 4, .sysname = "QNX", .nodename = "localhost", .sys_release = "6.4.1",
        .sys_version = "2009/05/20-17:35:56EDT", .machine = "x86pc",
        .syspage = syspage, .syspage_len = len, .extra = extras, .nextra = 2,
    };
    return m;
}

static int host_is_big(void)
{
    uint32_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

/* A whole file in memory: header, system page, slots (host order). */
static unsigned char *make_file(const struct trace_file_meta *m, const traceevent_t *s,
                                size_t n, size_t *len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(trace_file_write_header(f, m), 0);
    ck_assert_uint_eq(fwrite(s, sizeof *s, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
    *len = size;
    return (unsigned char *)buf;
}

/* KSP-23, KSP-24: the header is the keys in order, back to back, with the
 * caller's values and the extras after SYSPAGE_LEN; the system page follows
 * it; the parser gives everything back. */
START_TEST(test_header_round_trip)
{
    const char syspage[] = "SYSPAGE-BYTES\0\1\2TRACE_X::";     /* anything goes in it */
    struct trace_file_meta m = test_meta(syspage, sizeof syspage);
    char text[1024];
    size_t len = 0;
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), 0);
    char want[1024];
    snprintf(want, sizeof want,
             "TRACE_HEADER_BEGIN::TRACE_FILE_NAME::/tmp/trace.kevTRACE_DATE::Sun Nov 22 "
             "10:13:00 2026TRACE_VER_MAJOR::1TRACE_VER_MINOR::01TRACE_%s::TRUE"
             "TRACE_ENCODING::16 byte eventsTRACE_BOOT_DATE::Sun Nov 22 09:00:00 2026"
             "TRACE_CYCLES_PER_SEC::1000000000TRACE_CPU_NUM::4TRACE_SYSNAME::QNX"
             "TRACE_NODENAME::localhostTRACE_SYS_RELEASE::6.4.1"
             "TRACE_SYS_VERSION::2009/05/20-17:35:56EDTTRACE_MACHINE::x86pc"
             "TRACE_SYSPAGE_LEN::%zuTRACE_SIM_SEED::42TRACE_SIM_MODE::linear buffers"
             "TRACE_PAD::TRACE_HEADER_END::", host_is_big() ? "BIG_ENDIAN" : "LITTLE_ENDIAN",
             sizeof syspage);
    ck_assert_uint_eq(len, strlen(want));
    ck_assert_mem_eq(text, want, len);

    /* Too small a buffer: ENOSPC with the length needed. */
    size_t need = 0;
    ck_assert_int_eq(trace_file_header_build(&m, text, 10, &need), ENOSPC);
    ck_assert_uint_eq(need, len);

    const traceevent_t s[2] = { S_(0, 6, 1, 5, 6, 7), S_(3, 6, 2, 8, 9, 10) };
    size_t flen;
    unsigned char *file = make_file(&m, s, 2, &flen);
    ck_assert_uint_eq(flen, len + sizeof syspage + 32);
    ck_assert_mem_eq(file + len, syspage, sizeof syspage);

    static struct trace_file_info info;
    char err[256];
    ck_assert_int_eq(trace_file_parse(file, flen, flen, &info, err, sizeof err), 0);
    ck_assert_int_eq(info.big_endian, host_is_big());
    ck_assert_int_eq(info.swap, 0);
    ck_assert_uint_eq(info.cycles_per_sec, 1000000000ull);
    ck_assert_uint_eq(info.cpu_num, 4);
    ck_assert_uint_eq(info.header_len, len);
    ck_assert_uint_eq(info.syspage_len, sizeof syspage);
    ck_assert_uint_eq(info.slots_offset, len + sizeof syspage);
    ck_assert_uint_eq(info.nslots, 2);
    ck_assert_uint_eq(info.cut_bytes, 0);
    ck_assert_uint_eq(info.nattrs, 17);
    ck_assert_str_eq(trace_file_key(&info, 0), "FILE_NAME");
    ck_assert_str_eq(trace_file_value_at(&info, 0), "/tmp/trace.kev");
    ck_assert_str_eq(trace_file_key(&info, 16), "SIM_MODE");
    ck_assert_ptr_null(trace_file_key(&info, 17));
    ck_assert_str_eq(trace_file_value(&info, "SYSNAME"), "QNX");
    ck_assert_str_eq(trace_file_value(&info, "NODENAME"), "localhost");
    ck_assert_str_eq(trace_file_value(&info, "SYS_VERSION"), "2009/05/20-17:35:56EDT");
    ck_assert_str_eq(trace_file_value(&info, "ENCODING"), "16 byte events");
    ck_assert_str_eq(trace_file_value(&info, "VER_MINOR"), "01");
    ck_assert_str_eq(trace_file_value(&info, "SIM_MODE"), "linear buffers");
    ck_assert_ptr_null(trace_file_value(&info, "NOPE"));

    /* Decoding the file gives the slots back, at their file offsets. */
    struct slot_decoder d;
    struct sink got = { .keep = 1 };
    struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
    ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
    ck_assert_int_eq(trace_file_decode(file, flen, &d, &info, err, sizeof err), 0);
    slot_decoder_free(&d);
    ck_assert_uint_eq(got.nev, 2);
    ck_assert_uint_eq(got.nerr, 0);
    ck_assert_uint_eq(got.ev[0].ev.offset, info.slots_offset);
    ck_assert_uint_eq(got.ev[1].ev.offset, info.slots_offset + 16);
    ck_assert_uint_eq(got.ev[1].ev.cpu, 3);
    ck_assert_uint_eq(got.ev[1].w[1], 10);
    sink_free(&got);
    free(file);

    /* NULL strings are written empty; no extras. */
    struct trace_file_meta e = { .cycles_per_sec = 1, .cpu_num = 1 };
    ck_assert_int_eq(trace_file_header_build(&e, text, sizeof text, &len), 0);
    ck_assert_int_eq(trace_file_parse(text, len, len, &info, err, sizeof err), 0);
    ck_assert_str_eq(trace_file_value(&info, "FILE_NAME"), "");
    ck_assert_str_eq(trace_file_value(&info, "MACHINE"), "");
    ck_assert_uint_eq(info.nslots, 0);
    ck_assert_uint_eq(info.nattrs, 15);
}
END_TEST

/* KSP-23: the writer ends the header with TRACE_PAD:: and 0-12 filler bytes
 * (QNX's stock traceprinter reads it: KERNEL.md "Stock QNX tools"); the
 * parser skips the key, and reads a header without it alike. */
START_TEST(test_header_pad_for_stock_parsers)
{
    static struct trace_file_info padded, plain;
    char text[2048], old[2048], err[256];
    size_t len;
    struct trace_file_meta m = test_meta(NULL, 0);

    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), 0);
    text[len] = '\0';
    const char *pad = strstr(text, "TRACE_PAD::"), *end = strstr(text, "TRACE_HEADER_END::");
    ck_assert_ptr_nonnull(pad);
    ck_assert_uint_le((size_t)(end - pad), sizeof "TRACE_PAD::" - 1 + TRACE_FILE_PAD_MAX);
    ck_assert_int_eq(trace_file_qnx_outcome(text, len, NULL), TRACE_QNX_PARSED);
    ck_assert_int_eq(trace_file_parse(text, len, len, &padded, err, sizeof err), 0);
    ck_assert_ptr_null(trace_file_value(&padded, "PAD"));

    size_t n = (size_t)(pad - text);        /* the same header as written before the pad */
    memcpy(old, text, n);
    memcpy(old + n, end, len - (size_t)(end - text));
    size_t oldlen = n + len - (size_t)(end - text);
    ck_assert_int_eq(trace_file_parse(old, oldlen, oldlen, &plain, err, sizeof err), 0);
    ck_assert_uint_eq(plain.nattrs, padded.nattrs);
    for (unsigned i = 0; i < plain.nattrs; i++)
        ck_assert_str_eq(trace_file_value_at(&plain, i), trace_file_value_at(&padded, i));
    ck_assert_uint_eq(padded.header_len - plain.header_len, (size_t)(end - pad));
}
END_TEST

/* KSP-23: the writer refuses what a reader could not read back. */
START_TEST(test_header_writer_refuses)
{
    char text[1024];
    size_t len;
    struct trace_file_meta m = test_meta(NULL, 0);
    m.cpu_num = 0;
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), EINVAL);
    m.cpu_num = 65;
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), EINVAL);
    m = test_meta(NULL, 0);
    m.cycles_per_sec = 0;
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), EINVAL);
    m = test_meta(NULL, 0);
    m.nodename = "hostTRACE_X::y";
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), EINVAL);
    m = test_meta(NULL, 0);
    m.nodename = "TRACE_lower::ok";     /* not a key: lower case */
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), 0);
    static const struct trace_file_attr bad_keys[][1] = {
        { { "lower", "v" } }, { { "", "v" } }, { { "CPU_NUM", "3" } },
        { { "HEADER_END", "" } }, { { "BIG_ENDIAN", "TRUE" } }, { { "A-B", "v" } },
        { { "OK", "xTRACE_Y::" } }, { { "PAD", "" } },    /* the writer's own last key */
    };
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++) {
        m = test_meta(NULL, 0);
        m.extra = bad_keys[i];
        m.nextra = 1;
        ck_assert_msg(trace_file_header_build(&m, text, sizeof text, &len) == EINVAL,
                      "extra key \"%s\" accepted", bad_keys[i][0].key);
    }
    m = test_meta(NULL, 5);     /* a system page length without the bytes */
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), EINVAL);
    ck_assert_int_eq(trace_file_header_build(NULL, text, sizeof text, &len), EINVAL);
}
END_TEST

/* Parses text (as a whole file) and expects rc and a message that begins
 * "offset <off>: KSP-25: " and contains `what`. */
static void expect_reject(const char *text, size_t len, int rc, uint64_t off, const char *what)
{
    static struct trace_file_info info;
    char err[512], prefix[64];
    int got = trace_file_parse(text, len, len, &info, err, sizeof err);
    ck_assert_msg(got == rc, "expected %d, got %d (%s) for: %.*s", rc, got, err,
                  (int)(len < 200 ? len : 200), text);
    snprintf(prefix, sizeof prefix, "offset %llu: KSP-25: ", (unsigned long long)off);
    ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0, "message \"%s\" does not begin "
                  "with \"%s\"", err, prefix);
    ck_assert_msg(strstr(err, what) != NULL, "message \"%s\" does not say \"%s\"", err, what);
}

/* Builds the standard header with key `key`'s token+value replaced by
 * `repl` (the whole "TRACE_KEY::value" text; "" removes it). */
static size_t header_with(char *out, size_t cap, const char *key, const char *repl)
{
    char text[1024], tok[64];
    size_t len;
    struct trace_file_meta m = test_meta(NULL, 0);
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), 0);
    text[len] = '\0';
    snprintf(tok, sizeof tok, "TRACE_%s::", key);
    char *at = strstr(text, tok);
    ck_assert_ptr_nonnull(at);
    char *next = strstr(at + strlen(tok), "TRACE_");
    ck_assert_ptr_nonnull(next);
    int n = snprintf(out, cap, "%.*s%s%s", (int)(at - text), text, repl, next);
    ck_assert_int_lt(n, (int)cap);
    return (size_t)n;
}

/* Offset of the token of `key` in the standard header. */
static uint64_t key_offset(const char *key)
{
    char text[1024], tok[64];
    size_t len;
    struct trace_file_meta m = test_meta(NULL, 0);
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &len), 0);
    text[len] = '\0';
    snprintf(tok, sizeof tok, "TRACE_%s::", key);
    return (uint64_t)(strstr(text, tok) - text);
}

/* KSP-25: a missing or malformed header, an unknown encoding or version,
 * and a SYSPAGE_LEN past the end of the file are rejected with a message
 * naming the byte offset. */
START_TEST(test_header_rejections)
{
    char t[2048];
    size_t n;
    const char *endian = host_is_big() ? "BIG_ENDIAN" : "LITTLE_ENDIAN";

    expect_reject("", 0, EINVAL, 0, "no trace header");
    expect_reject("hello", 5, EINVAL, 0, "no trace header");
    expect_reject("TRACE_HEADER_BEGIN:", 19, EINVAL, 0, "no trace header");
    expect_reject("TRACE_HEADER_BEGIN::", 20, EINVAL, 20, "not terminated");
    expect_reject("TRACE_HEADER_BEGIN::xTRACE_FILE_NAME::a", 39, EINVAL, 20,
                  "expected TRACE_<KEY>::");
    expect_reject("TRACE_HEADER_BEGIN::TRACE_HEADER_END::", 38, EINVAL, 20,
                  "TRACE_FILE_NAME:: missing");
    expect_reject("TRACE_HEADER_BEGIN::TRACE_HEADER_BEGIN::TRACE_HEADER_END::", 58, EINVAL,
                  20, "repeated");

    /* The header cut short: no END. */
    n = header_with(t, sizeof t, "MACHINE", "TRACE_MACHINE::x86pc");
    expect_reject(t, n - 18, EINVAL, n - 18, "not terminated");

    /* Keys out of order, missing, repeated. */
    n = header_with(t, sizeof t, "DATE", "");
    expect_reject(t, n, EINVAL, key_offset("DATE"), "expected TRACE_DATE::, found "
                  "TRACE_VER_MAJOR::");
    n = header_with(t, sizeof t, "SYSPAGE_LEN", "");
    expect_reject(t, n, EINVAL, key_offset("SYSPAGE_LEN"), "expected TRACE_SYSPAGE_LEN::");
    n = header_with(t, sizeof t, "CPU_NUM", "TRACE_NODENAME::aTRACE_CPU_NUM::4");
    expect_reject(t, n, EINVAL, key_offset("CPU_NUM"), "expected TRACE_CPU_NUM::");
    n = header_with(t, sizeof t, "SIM_SEED", "TRACE_SYSNAME::QNX");
    expect_reject(t, n, EINVAL, key_offset("SIM_SEED"), "TRACE_SYSNAME:: repeated");
    n = header_with(t, sizeof t, "SIM_SEED", "TRACE_SIM_MODE::x");
    expect_reject(t, n, EINVAL, key_offset("SIM_SEED") + 17, "TRACE_SIM_MODE:: repeated");

    /* Bad values. */
    char repl[128];
    snprintf(repl, sizeof repl, "TRACE_%s::FALSE", endian);
    n = header_with(t, sizeof t, endian, repl);
    expect_reject(t, n, EINVAL, key_offset(endian), "not TRUE");
    n = header_with(t, sizeof t, endian, "TRACE_MIDDLE_ENDIAN::TRUE");
    expect_reject(t, n, EINVAL, key_offset(endian), "TRACE_MIDDLE_ENDIAN");
    n = header_with(t, sizeof t, "CYCLES_PER_SEC", "TRACE_CYCLES_PER_SEC::0");
    expect_reject(t, n, EINVAL, key_offset("CYCLES_PER_SEC"), "not a positive decimal");
    n = header_with(t, sizeof t, "CYCLES_PER_SEC", "TRACE_CYCLES_PER_SEC::12a");
    expect_reject(t, n, EINVAL, key_offset("CYCLES_PER_SEC"), "not a positive decimal");
    n = header_with(t, sizeof t, "CYCLES_PER_SEC",
                    "TRACE_CYCLES_PER_SEC::18446744073709551616");
    expect_reject(t, n, EINVAL, key_offset("CYCLES_PER_SEC"), "not a positive decimal");
    n = header_with(t, sizeof t, "CPU_NUM", "TRACE_CPU_NUM::0");
    expect_reject(t, n, EINVAL, key_offset("CPU_NUM"), "1 to 64");
    n = header_with(t, sizeof t, "CPU_NUM", "TRACE_CPU_NUM::65");
    expect_reject(t, n, EINVAL, key_offset("CPU_NUM"), "1 to 64");
    n = header_with(t, sizeof t, "SYSPAGE_LEN", "TRACE_SYSPAGE_LEN::");
    expect_reject(t, n, EINVAL, key_offset("SYSPAGE_LEN"), "not a decimal");
    n = header_with(t, sizeof t, "SYSNAME", "TRACE_SYSNAME::QZX");
    t[key_offset("SYSNAME") + 16] = '\0';       /* a NUL in place of the Z */
    expect_reject(t, n, EINVAL, key_offset("SYSNAME") + 15, "NUL");

    /* Unknown version and encoding: ENOTSUP. */
    n = header_with(t, sizeof t, "VER_MAJOR", "TRACE_VER_MAJOR::2");
    expect_reject(t, n, ENOTSUP, key_offset("VER_MAJOR"), "unknown version");
    n = header_with(t, sizeof t, "VER_MINOR", "TRACE_VER_MINOR::02");
    expect_reject(t, n, ENOTSUP, key_offset("VER_MINOR"), "unknown version");
    n = header_with(t, sizeof t, "ENCODING", "TRACE_ENCODING::32 byte events");
    expect_reject(t, n, ENOTSUP, key_offset("ENCODING"), "unknown encoding");

    /* SYSPAGE_LEN past the end of the file; exactly at the end is fine. */
    n = header_with(t, sizeof t, "SYSPAGE_LEN", "TRACE_SYSPAGE_LEN::10");
    memset(t + n, 'S', 10);
    expect_reject(t, n + 9, EINVAL, key_offset("SYSPAGE_LEN"), "past the end of the file");
    static struct trace_file_info info;
    char err[256];
    ck_assert_int_eq(trace_file_parse(t, n + 10, n + 10, &info, err, sizeof err), 0);
    ck_assert_uint_eq(info.nslots, 0);
    ck_assert_uint_eq(info.slots_offset, n + 10);

    /* No END within TRACE_FILE_HEADER_MAX bytes: a value of SIM_SEED so long
     * that the rest of the header lies beyond them. */
    struct trace_file_meta m = test_meta(NULL, 0);
    char std[1024];
    size_t slen, big = TRACE_FILE_HEADER_MAX + 100;
    ck_assert_int_eq(trace_file_header_build(&m, std, sizeof std, &slen), 0);
    size_t pre = key_offset("SIM_SEED") + strlen("TRACE_SIM_SEED::"), rest = slen - pre;
    char *b = malloc(big);
    ck_assert_ptr_nonnull(b);
    memcpy(b, std, pre);
    memset(b + pre, 'x', big - pre - rest);
    memcpy(b + big - rest, std + pre, rest);
    expect_reject(b, big, EINVAL, TRACE_FILE_HEADER_MAX, "in the first 16384 bytes");
    free(b);
}
END_TEST

/* KSP-25: a file whose last slot is cut short is read up to the last whole
 * slot and the cut is reported once, at its offset. */
START_TEST(test_file_cut_slot)
{
    struct trace_file_meta m = test_meta("sp", 2);
    const traceevent_t s[3] = { S_(0, 6, 1, 1, 0, 0), S_(0, 6, 2, 2, 0, 0),
                                S_(0, 6, 3, 3, 0, 0) };
    size_t flen;
    unsigned char *file = make_file(&m, s, 3, &flen);
    static struct trace_file_info info;
    char err[256];

    for (unsigned cut = 1; cut < 16; cut++) {
        struct slot_decoder d;
        struct sink got = { .keep = 1 };
        struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
        size_t len = flen - 16 + cut;
        ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
        ck_assert_int_eq(trace_file_decode(file, len, &d, &info, err, sizeof err), 0);
        slot_decoder_free(&d);
        ck_assert_uint_eq(info.nslots, 2);
        ck_assert_uint_eq(info.cut_bytes, cut);
        ck_assert_uint_eq(got.nev, 2);
        ck_assert_uint_eq(got.nerr, 1);
        ck_assert_int_eq(got.err[0].kind, SLOT_ERR_CUT_SLOT);
        ck_assert_uint_eq(got.err[0].offset, flen - 16);
        char want[128];
        snprintf(want, sizeof want, "offset %zu: KSP-25: last slot cut short (%u of 16 bytes)",
                 flen - 16, cut);
        ck_assert_msg(strncmp(got.msg[0], want, strlen(want)) == 0, "message: %s", got.msg[0]);
        sink_free(&got);
    }
    free(file);
}
END_TEST

static uint32_t swap32(uint32_t x)
{
    return (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24);
}

/* KSP-1, KSP-23: a file in the other byte order (declared in its header)
 * decodes to the same events; payload bytes read the same (KSP-10). */
START_TEST(test_file_other_byte_order)
{
    struct gen g;
    size_t n = gen_run(&g, 99, 3, 500);
    struct trace_file_meta m = test_meta("page", 4);
    char text[1024];
    size_t hlen;
    ck_assert_int_eq(trace_file_header_build(&m, text, sizeof text, &hlen), 0);
    text[hlen] = '\0';

    /* Declare the other order and store every word swapped. */
    const char *mine = host_is_big() ? "TRACE_BIG_ENDIAN::" : "TRACE_LITTLE_ENDIAN::";
    const char *other = host_is_big() ? "TRACE_LITTLE_ENDIAN::" : "TRACE_BIG_ENDIAN::";
    char *at = strstr(text, mine);
    ck_assert_ptr_nonnull(at);
    char hdr[1100];
    int hl = snprintf(hdr, sizeof hdr, "%.*s%s%s", (int)(at - text), text, other,
                      at + strlen(mine));
    size_t flen = (size_t)hl + 4 + 16 * n;
    unsigned char *file = malloc(flen);
    ck_assert_ptr_nonnull(file);
    memcpy(file, hdr, (size_t)hl);
    memcpy(file + hl, "page", 4);
    for (size_t i = 0; i < n; i++) {
        traceevent_t t = g.out[i];
        t.header = swap32(t.header);
        for (int j = 0; j < 3; j++)
            t.data[j] = swap32(t.data[j]);
        memcpy(file + hl + 4 + 16 * i, &t, 16);
    }

    struct slot_decoder d;
    struct sink got = { .keep = 1 };
    struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
    static struct trace_file_info info;
    char err[256];
    ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
    ck_assert_int_eq(trace_file_decode(file, flen, &d, &info, err, sizeof err), 0);
    slot_decoder_free(&d);
    ck_assert_int_eq(info.swap, 1);
    ck_assert_int_eq(info.big_endian, !host_is_big());
    ck_assert_uint_eq(got.nerr, 0);
    assert_same_events(&got, &g, 99, (uint64_t)hl + 4);
    sink_free(&got);
    gen_free(&g);
    free(file);
}
END_TEST

/* KSP-24, KSP-25: the same through a file descriptor, in bounded reads: a
 * workload larger than one read, ending in a cut slot. */
START_TEST(test_file_fd)
{
    struct gen g;
    size_t n = gen_run(&g, 5, 8, 6000);
    struct trace_file_meta m = test_meta("syspage", 7);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(trace_file_write_header(f, &m), 0);
    ck_assert_uint_eq(fwrite(g.out, 16, n, f), n);
    ck_assert_uint_eq(fwrite("cut", 1, 3, f), 3);
    ck_assert_int_eq(fflush(f), 0);

    struct slot_decoder d;
    struct sink got = { .keep = 1 };
    struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
    static struct trace_file_info info;
    char err[256];
    ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
    ck_assert_int_eq(trace_file_decode_fd(fileno(f), &d, &info, err, sizeof err), 0);
    slot_decoder_free(&d);
    ck_assert_uint_gt(n * 16, 65536);
    ck_assert_uint_eq(info.nslots, n);
    ck_assert_uint_eq(info.cut_bytes, 3);
    ck_assert_uint_eq(got.nerr, 1);
    ck_assert_int_eq(got.err[0].kind, SLOT_ERR_CUT_SLOT);
    ck_assert_uint_eq(got.err[0].offset, info.slots_offset + 16 * n);
    got.nerr = 0;
    assert_same_events(&got, &g, 5, info.slots_offset);

    /* The header alone, from the descriptor. */
    ck_assert_int_eq(trace_file_read_header(fileno(f), &info, err, sizeof err), 0);
    ck_assert_uint_eq(info.cpu_num, 4);
    ck_assert_uint_eq(info.cut_bytes, 3);
    fclose(f);

    /* A file that is not a trace. */
    f = tmpfile();
    ck_assert_ptr_nonnull(f);
    fputs("not a trace", f);
    fflush(f);
    ck_assert_int_eq(trace_file_read_header(fileno(f), &info, err, sizeof err), EINVAL);
    ck_assert_msg(strncmp(err, "offset 0: KSP-25: no trace header", 33) == 0, "%s", err);
    fclose(f);
    sink_free(&got);
    gen_free(&g);
}
END_TEST

/* ---- hostile input --------------------------------------------------------------- */

/* KSP-14: random slots, biased so that keys collide and every path is
 * taken, with tight and default bounds: no crash, every delivery
 * well-formed and in first-slot order, every slot accounted for once. */
START_TEST(test_hostile_slots)
{
    uint64_t rng = 0x5EEDull;
    traceevent_t s[96];
    for (int round = 0; round < 4000; round++) {
        size_t n = 1 + rnd_below(&rng, 96);
        for (size_t i = 0; i < n; i++) {
            uint32_t r = (uint32_t)rnd(&rng);
            unsigned cls = rnd_below(&rng, 10) < 9 ? r % 8 : 8 + r % 24;
            s[i].header = slot_header((uint32_t)rnd_below(&rng, 4) << 30, rnd_below(&rng, 3),
                                      cls, rnd_below(&rng, 3)) |
                          (rnd_below(&rng, 8) == 0 ? (r & 0x00FF8000u) : 0);
            s[i].data[0] = rnd_below(&rng, 4) ? rnd_below(&rng, 4) : (uint32_t)rnd(&rng);
            s[i].data[1] = (uint32_t)rnd(&rng);
            s[i].data[2] = (uint32_t)rnd(&rng);
        }
        struct sink got = { 0 };
        struct slot_summary sum;
        size_t maxev = round % 3 == 0 ? 1 + rnd_below(&rng, 6) : 0;
        size_t maxw = round % 5 == 0 ? 16 + rnd_below(&rng, 40) : 0;
        decode_into(s, n, &got, maxev, maxw, &sum);
        ck_assert_msg(got.bad[0] == '\0', "round %d: %s", round, got.bad);
        assert_slots_accounted(&got, &sum, n);
        ck_assert_uint_eq(sum.events_per_class[0] + sum.events_per_class[1] +
                          sum.events_per_class[2] + sum.events_per_class[3] +
                          sum.events_per_class[4] + sum.events_per_class[5] +
                          sum.events_per_class[6] + sum.events_per_class[7], sum.events);
        if (maxev)
            ck_assert_uint_le(sum.max_held_events, maxev);
        sink_free(&got);
    }
}
END_TEST

/* KSP-25, KSP-14: random bytes as a file, a valid header followed by
 * random bytes, and every prefix of a valid file: rejected with a message
 * or decoded, never a crash. */
START_TEST(test_hostile_files)
{
    uint64_t rng = 0xF11Eull;
    static struct trace_file_info info;
    char err[512];
    unsigned char buf[2048];
    struct trace_file_meta m = test_meta("sp", 2);
    char hdr[1024];
    size_t hlen;
    ck_assert_int_eq(trace_file_header_build(&m, hdr, sizeof hdr, &hlen), 0);

    for (int round = 0; round < 3000; round++) {
        size_t len = rnd_below(&rng, sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = (unsigned char)rnd(&rng);
        if (round % 2 == 0 && len > hlen + 2) {     /* a valid header, random rest */
            memcpy(buf, hdr, hlen);
        } else if (round % 4 == 1 && len > 40) {    /* header-like noise */
            static const char *frag[] = { "TRACE_", "::", "HEADER_END", "TRACE_HEADER_BEGIN::",
                                          "SYSPAGE_LEN", "A", "1" };
            size_t at = 0;
            while (at < len) {
                const char *f = frag[rnd_below(&rng, 7)];
                size_t fl = strlen(f);
                if (at + fl > len)
                    break;
                memcpy(buf + at, f, fl);
                at += fl;
            }
        }
        struct slot_decoder d;
        struct sink got = { 0 };
        struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
        ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
        err[0] = '\0';
        int rc = trace_file_decode(buf, len, &d, &info, err, sizeof err);
        slot_decoder_free(&d);
        if (rc != 0)
            ck_assert_msg(strncmp(err, "offset ", 7) == 0, "round %d: rc %d, message \"%s\"",
                          round, rc, err);
        else
            ck_assert_uint_eq(info.slots_offset + 16 * info.nslots + info.cut_bytes, len);
        ck_assert_msg(got.bad[0] == '\0', "round %d: %s", round, got.bad);
        sink_free(&got);
    }

    /* Every prefix of a valid file. */
    const traceevent_t s[4] = { CB_(0, 6, 1, 1, 0, 0), S_(1, 6, 2, 2, 0, 0),
                                CE_(0, 6, 1, 1, 0, 0), S_(1, 6, 3, 3, 0, 0) };
    size_t flen;
    unsigned char *file = make_file(&m, s, 4, &flen);
    for (size_t len = 0; len <= flen; len++) {
        struct slot_decoder d;
        struct sink got = { 0 };
        struct slot_decoder_config cfg = { on_ev, on_err, &got, 0, 0 };
        ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
        int rc = trace_file_decode(file, len, &d, &info, err, sizeof err);
        slot_decoder_free(&d);
        if (len < hlen + 2)
            ck_assert_msg(rc == EINVAL, "prefix of %zu bytes: rc %d", len, rc);
        else
            ck_assert_msg(rc == 0 && info.nslots == (len - hlen - 2) / 16,
                          "prefix of %zu bytes: rc %d (%s), %llu slots", len, rc, err,
                          (unsigned long long)info.nslots);
        ck_assert_msg(got.bad[0] == '\0', "prefix %zu: %s", len, got.bad);
        sink_free(&got);
    }
    free(file);
}
END_TEST

/* Every kind of error has a message "offset N: RULE: ..." naming its rule. */
START_TEST(test_error_messages)
{
    for (int k = 0; k < SLOT_NERROR_KINDS; k++) {
        struct slot_error e = { .kind = (enum slot_error_kind)k, .offset = 4242,
                                .header = 0xC100180Cu, .count = 3 };
        char buf[300], small[8];
        int n = slot_error_format(&e, buf, sizeof buf);
        ck_assert_int_gt(n, 12);
        ck_assert_int_lt(n, (int)sizeof buf);
        ck_assert_msg(strncmp(buf, "offset 4242: ", 13) == 0, "kind %d: %s", k, buf);
        if (k != SLOT_ERR_NO_MEMORY)
            ck_assert_msg(strncmp(buf + 13, "KSP-", 4) == 0, "kind %d: %s", k, buf);
        ck_assert_int_eq(slot_error_format(&e, small, sizeof small), n);   /* truncates */
        ck_assert_uint_eq(strlen(small), sizeof small - 1);
    }
}
END_TEST

Suite *suite_slot(void)
{
    Suite *s = suite_create("slot");
    TCase *tc = tcase_create("slot");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_slot_layout);
    tcase_add_test(tc, test_header_accessors);
    tcase_add_test(tc, test_header_setters);
    tcase_add_test(tc, test_constants);
    tcase_add_test(tc, test_external_map);
    tcase_add_test(tc, test_encode_ranges);
    tcase_add_test(tc, test_encode_simple);
    tcase_add_test(tc, test_encode_combine);
    tcase_add_test(tc, test_worked_example_words);
    tcase_add_test(tc, test_worked_example_string);
    tcase_add_test(tc, test_encode_bytes);
    tcase_add_test(tc, test_encode_string_sizes);
    tcase_add_test(tc, test_clock);
    tcase_add_test(tc, test_decode_basic);
    tcase_add_test(tc, test_decode_reserved_bits);
    tcase_add_test(tc, test_decode_interleaved);
    tcase_add_test(tc, test_error_orphan_ce);
    tcase_add_test(tc, test_error_orphan_cc_and_mismatch);
    tcase_add_test(tc, test_error_left_open);
    tcase_add_test(tc, test_error_nested_cb);
    tcase_add_test(tc, test_error_reserved_class);
    tcase_add_test(tc, test_hold_limit_events);
    tcase_add_test(tc, test_hold_limit_words);
    tcase_add_test(tc, test_decode_time);
    tcase_add_test(tc, test_decode_control);
    tcase_add_test(tc, test_decode_straddle);
    tcase_add_test(tc, test_round_trip_random);
    tcase_add_test(tc, test_round_trip_one_at_a_time);
    tcase_add_test(tc, test_header_round_trip);
    tcase_add_test(tc, test_header_writer_refuses);
    tcase_add_test(tc, test_header_pad_for_stock_parsers);
    tcase_add_test(tc, test_header_rejections);
    tcase_add_test(tc, test_file_cut_slot);
    tcase_add_test(tc, test_file_other_byte_order);
    tcase_add_test(tc, test_file_fd);
    tcase_add_test(tc, test_hostile_slots);
    tcase_add_test(tc, test_hostile_files);
    tcase_add_test(tc, test_error_messages);
    suite_add_tcase(s, tc);
    return s;
}
