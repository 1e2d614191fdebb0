/* SPDX-License-Identifier: MIT */
/*
 * slot_mutator.c -- a structure-aware libFuzzer mutator for trace files
 * (LLVMFuzzerCustomMutator), linked into the slot decoder's target.
 *
 * Why: libFuzzer's byte mutations rarely make a slot the decoder takes
 * further than its first checks -- a combine event needs CB, CC..., CE with
 * the same header and timestamp, a TIME or DROPPED event a CONTROL class and
 * a code, and a file a header that still parses.  Flipping bytes of a 40 KB
 * trace kept the target on a plateau (issue 20).  This mutator keeps the
 * header (trace_file_parse says where the slots begin and their byte order)
 * and edits slot by slot (reference/slot/SLOTS.md, spec KSP-2..KSP-17):
 *
 *   - a slot's header word rewritten: a flag (S CB CC CE), a CPU, a class,
 *     an event, with CONTROL's TIME, BUFFER and DROPPED often;
 *   - a whole combine event (CB, CC..., CE, one key) inserted, or cut short;
 *   - a slot deleted, duplicated, moved, or copied over another;
 *   - a timestamp near the last one of its CPU, at a wrap of the low word,
 *     or gone back;
 *   - libFuzzer's own mutation of one slot's 16 bytes, or (one time in four)
 *     of the whole input, so that the header and the bare-slot use are
 *     mutated too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <posixtrace_codec.h>
#include <posixtrace_slot.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define SLOT 16u

static uint32_t rng_state;

static uint32_t rnd(uint32_t n)       /* 0 .. n-1; xorshift: seeded by libFuzzer */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return n ? rng_state % n : 0;
}

struct slots {
    uint8_t *base;          /* the first slot */
    size_t n;               /* whole slots */
    size_t room;            /* whole slots that fit in max_size */
    int swap;               /* the file's byte order is not the host's */
};

static uint32_t bswap(uint32_t w)
{
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

static uint32_t get(const struct slots *s, size_t i, unsigned w)
{
    uint32_t v;
    memcpy(&v, s->base + i * SLOT + 4 * w, 4);
    return s->swap ? bswap(v) : v;
}

static void put(struct slots *s, size_t i, unsigned w, uint32_t v)
{
    if (s->swap)
        v = bswap(v);
    memcpy(s->base + i * SLOT + 4 * w, &v, 4);
}

/* A header word as a kernel writes them: mostly CPUs 0-3, CONTROL and USER
 * often, the control events by their codes. */
static uint32_t random_header(uint32_t flag)
{
    static const unsigned controls[] = { _TRACE_CONTROL_TIME, _TRACE_CONTROL_BUFFER,
                                         _TRACE_CONTROL_DROPPED, 0, 3 };
    unsigned cpu = rnd(4) ? rnd(4) : rnd(64);
    unsigned cls = rnd(3) == 0 ? 1 : rnd(3) == 0 ? 6 : rnd(8);
    unsigned ev = cls == 1 ? controls[rnd(5)] : rnd(2) ? rnd(16) : rnd(1024);
    return slot_header(flag, cpu, cls, ev);
}

static const uint32_t flags[4] = { _TRACE_STRUCT_S, _TRACE_STRUCT_CB, _TRACE_STRUCT_CC,
                                   _TRACE_STRUCT_CE };

/* Opens room for k slots at i (k <= room - n). */
static void open_gap(struct slots *s, size_t i, size_t k)
{
    memmove(s->base + (i + k) * SLOT, s->base + i * SLOT, (s->n - i) * SLOT);
    s->n += k;
}

static void close_gap(struct slots *s, size_t i, size_t k)
{
    memmove(s->base + i * SLOT, s->base + (i + k) * SLOT, (s->n - i - k) * SLOT);
    s->n -= k;
}

/* The last timestamp of cpu before slot i, or a random one. */
static uint32_t last_stamp(const struct slots *s, size_t i, unsigned cpu)
{
    while (i-- > 0)
        if (_NTO_TRACE_GETCPU(get(s, i, 0)) == cpu)
            return get(s, i, 1);
    return rnd(2) ? 0 : 0xfffffff0u;
}

static void mutate_slot_once(struct slots *s)
{
    size_t i = rnd((uint32_t)s->n);
    switch (s->n ? rnd(9) : 3) {
    case 0:                                     /* the header word */
        put(s, i, 0, random_header(flags[rnd(4)]));
        break;
    case 1:                                     /* only the flag */
        put(s, i, 0, (get(s, i, 0) & ~_TRACE_STRUCT_MASK) | flags[rnd(4)]);
        break;
    case 2: {                                   /* a timestamp */
        uint32_t h = get(s, i, 0), ts = last_stamp(s, i, _NTO_TRACE_GETCPU(h));
        uint32_t choice = rnd(4);
        put(s, i, 1, choice == 0 ? ts + 1 + rnd(1000) : choice == 1 ? 0xffffffffu - rnd(4)
                   : choice == 2 ? ts - 1 - rnd(1000) : ts);
        break;
    }
    case 3: {                                   /* a whole combine event */
        size_t k = 2 + rnd(rnd(4) ? 4 : 40);
        if (k > s->room - s->n)
            break;
        i = rnd((uint32_t)s->n + 1);
        open_gap(s, i, k);
        uint32_t h = random_header(0), ts = last_stamp(s, i, _NTO_TRACE_GETCPU(h)) + 1;
        for (size_t j = 0; j < k; j++) {
            put(s, i + j, 0, h | (j == 0 ? _TRACE_STRUCT_CB : j + 1 == k ? _TRACE_STRUCT_CE
                                                                  : _TRACE_STRUCT_CC));
            put(s, i + j, 1, ts);
            put(s, i + j, 2, rnd(3) ? rnd(256) : rnd(0xffffffffu));
            put(s, i + j, 3, rnd(256));
        }
        if (rnd(4) == 0)                        /* cut short, or its end lost */
            close_gap(s, i + 1 + rnd((uint32_t)k - 1), 1);
        break;
    }
    case 4:                                     /* delete */
        close_gap(s, i, 1 + rnd((uint32_t)(s->n - i) < 4 ? (uint32_t)(s->n - i) : 4));
        break;
    case 5:                                     /* duplicate */
        if (s->n < s->room) {
            open_gap(s, i, 1);
            memcpy(s->base + i * SLOT, s->base + (i + 1) * SLOT, SLOT);
        }
        break;
    case 6: {                                   /* copy one over another, or swap */
        size_t j = rnd((uint32_t)s->n);
        uint8_t t[SLOT];
        memcpy(t, s->base + j * SLOT, SLOT);
        if (rnd(2))
            memcpy(s->base + j * SLOT, s->base + i * SLOT, SLOT);
        memcpy(s->base + i * SLOT, t, SLOT);
        break;
    }
    case 7:                                     /* a control event's numbers */
        put(s, i, 0, slot_header(_TRACE_STRUCT_S, _NTO_TRACE_GETCPU(get(s, i, 0)), 1,
                                 rnd(2) ? _TRACE_CONTROL_DROPPED : _TRACE_CONTROL_BUFFER));
        put(s, i, 2, rnd(2) ? rnd(16) : 0xffffffffu - rnd(16));
        put(s, i, 3, rnd(2) ? rnd(1100) : rnd(0xffffffffu));
        break;
    default:                                    /* libFuzzer's bytes, one slot */
        LLVMFuzzerMutate(s->base + i * SLOT, SLOT, SLOT);
        break;
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    static struct trace_file_info info;     /* 16 KiB: kept off the stack */
    char err[256];
    struct slots s;

    rng_state = seed | 1u;
    if (rnd(4) == 0 || size == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    size_t off = 0;
    s.swap = 0;
    if (trace_file_parse(data, size, size, &info, err, sizeof err) == 0) {
        off = (size_t)info.slots_offset;
        s.swap = info.swap;
    } else if (size >= 20 && memcmp(data, "TRACE_HEADER_BEGIN::", 20) == 0) {
        return LLVMFuzzerMutate(data, size, max_size);  /* a header to mend first */
    }
    if (off > size || off > max_size)
        return LLVMFuzzerMutate(data, size, max_size);
    s.base = data + off;
    s.n = (size - off) / SLOT;
    s.room = (max_size - off) / SLOT;
    size_t tail = size - off - s.n * SLOT;  /* a cut last slot: dropped, or kept */
    for (unsigned k = 1 + rnd(3); k > 0; k--)
        mutate_slot_once(&s);
    size_t out = off + s.n * SLOT;
    if (tail && rnd(2) && out + tail <= max_size) {
        memset(data + out, 0xa5, tail);
        out += tail;
    }
    return out;
}
