/* SPDX-License-Identifier: MIT */
/*
 * slot_decode.c -- the streaming decoder of the slot codec (slot_codec.h):
 * 64-bit times per CPU (KSP-15..17), combine reassembly across CPUs and
 * buffers (KSP-13, KSP-21), CONTROL bookkeeping (KSP-19, KSP-22) and
 * integrity errors (KSP-5, KSP-14), in bounded memory whatever the input.
 *
 * Events must come out in the order of their first slots (KSP-13), so once
 * a combine event is open every later event waits behind it in a queue (a
 * ring of `struct slot_held`, addressed by sequence number) until the
 * events before it are complete.  With nothing held back -- the common
 * case -- a simple event goes straight from the caller's slot to the
 * callback: the fast path in slot_decoder_feed() does no copy, no
 * allocation and no call but the callback.
 *
 * Bounds: at most max_held_events events and max_held_words payload words
 * of combine events are held.  Past either, the oldest open combine event is
 * abandoned (reported, delivered incomplete), which releases it and every
 * finished event behind it.  The slots of a combine event still to come
 * after it was abandoned are dropped and counted, not reported again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slot/slot_codec.h"

enum held_state { HELD_OPEN, HELD_DONE, HELD_ABANDONED };

struct slot_held {
    uint64_t time;
    uint64_t offset;    /* of the first slot */
    uint32_t header;    /* of the first slot */
    uint32_t nslots;
    uint32_t inl[2];    /* payload of a simple event */
    uint32_t *words;    /* payload of a combine event (NULL for a simple one) */
    uint32_t cap;       /* words allocated */
    uint32_t state;     /* enum held_state */
};

/* What identifies the slots of one event, besides the timestamp (KSP-13). */
#define KEY_MASK  (_TRACE_CPU_MASK | _TRACE_CLASS_MASK | _TRACE_EVENT_MASK)

/* Classes that take the fast path: every valid class but CONTROL, whose
 * events change the decoder's state.  Bits 8-31 (reserved) are 0. */
#define FAST_CLASSES  (0xFFu & ~(1u << SLOT_CLASS_CONTROL))

#define QUEUE_MIN        64u
#define WORDS_MIN        8u         /* first payload buffer of a combine event */
#define SPARE_MAX_WORDS  4096u      /* larger buffers are not kept for reuse */
#define SPARE_MAX        (sizeof ((struct slot_decoder *)0)->spare / sizeof(uint32_t *))

static const char *const rule_of[SLOT_NERROR_KINDS] = {
    [SLOT_ERR_RESERVED_CLASS]  = "KSP-5",
    [SLOT_ERR_NO_OPEN_COMBINE] = "KSP-14",
    [SLOT_ERR_NESTED_CB]       = "KSP-14",
    [SLOT_ERR_LEFT_OPEN]       = "KSP-14",
    [SLOT_ERR_HOLD_LIMIT]      = "KSP-14",
    [SLOT_ERR_NO_MEMORY]       = "",
    [SLOT_ERR_CUT_SLOT]        = "KSP-25",
};

static void no_event(void *user, const struct slot_event *ev)
{
    (void)user;
    (void)ev;
}

int slot_decoder_init(struct slot_decoder *d, const struct slot_decoder_config *cfg)
{
    if (d == NULL || cfg == NULL)
        return EINVAL;
    memset(d, 0, sizeof *d);
    d->on_event = cfg->on_event ? cfg->on_event : no_event;
    d->on_error = cfg->on_error;
    d->user = cfg->user;
    d->max_held_events = cfg->max_held_events ? cfg->max_held_events : SLOT_HELD_EVENTS_DEFAULT;
    if (d->max_held_events > (1u << 24))
        d->max_held_events = 1u << 24;
    d->max_held_words = cfg->max_held_words ? cfg->max_held_words : SLOT_HELD_WORDS_DEFAULT;
    if (d->max_held_words > (1u << 28))
        d->max_held_words = 1u << 28;
    if (d->max_held_words < 2 * WORDS_MIN)
        d->max_held_words = 2 * WORDS_MIN;
    d->qcap = QUEUE_MIN;
    d->queue = malloc(d->qcap * sizeof *d->queue);
    return d->queue ? 0 : ENOMEM;
}

void slot_decoder_free(struct slot_decoder *d)
{
    if (d == NULL)
        return;
    for (uint64_t i = 0; i < d->held; i++)
        free(d->queue[(d->qhead + i) & (d->qcap - 1)].words);
    for (unsigned i = 0; i < d->nspare; i++)
        free(d->spare[i]);
    free(d->queue);
    d->queue = NULL;
    d->held = d->qcap = 0;
    d->nspare = 0;
}

/* The public decoder (<posixtrace_codec.h>): the same, on the heap. */
int slot_decoder_create(const struct slot_decoder_config *cfg, struct slot_decoder **d)
{
    if (d == NULL || cfg == NULL)
        return EINVAL;
    struct slot_decoder *n = malloc(sizeof *n);
    if (n == NULL)
        return ENOMEM;
    int rc = slot_decoder_init(n, cfg);
    if (rc != 0) {
        free(n);
        return rc;
    }
    *d = n;
    return 0;
}

void slot_decoder_destroy(struct slot_decoder *d)
{
    slot_decoder_free(d);
    free(d);
}

/* ---- errors ------------------------------------------------------------------ */

static void report(struct slot_decoder *d, enum slot_error_kind kind, uint64_t offset,
                   uint32_t header, uint32_t ts_low, uint64_t other, uint32_t count)
{
    struct slot_error e = {
        .kind = kind, .rule = rule_of[kind], .offset = offset, .other_offset = other,
        .header = header, .ts_low = ts_low, .count = count,
    };
    d->sum.errors++;
    d->sum.errors_by_kind[kind]++;
    if (d->on_error)
        d->on_error(d->user, &e);
}

void slot_decoder_report_cut(struct slot_decoder *d, uint64_t offset, unsigned have)
{
    report(d, SLOT_ERR_CUT_SLOT, offset, 0, 0, 0, have);
}

int slot_error_format(const struct slot_error *e, char *buf, size_t len)
{
    unsigned long long off = e->offset;
    unsigned cpu = _NTO_TRACE_GETCPU(e->header);
    unsigned cls = _NTO_TRACE_GETEVENT_C(e->header) >> 10;
    unsigned ev = _NTO_TRACE_GETEVENT(e->header);

    switch (e->kind) {
    case SLOT_ERR_RESERVED_CLASS:
        return snprintf(buf, len, "offset %llu: KSP-5: reserved class %u (header 0x%08x): "
                        "slot ignored", off, cls, (unsigned)e->header);
    case SLOT_ERR_NO_OPEN_COMBINE:
        return snprintf(buf, len, "offset %llu: KSP-14: %s matches no open combine event "
                        "(cpu %u, class %u, event %u, time 0x%08x)", off,
                        _TRACE_GET_STRUCT(e->header) == _TRACE_STRUCT_CE ? "CE" : "CC",
                        cpu, cls, ev, (unsigned)e->ts_low);
    case SLOT_ERR_NESTED_CB:
        return snprintf(buf, len, "offset %llu: KSP-14: CB on cpu %u before the CE of the "
                        "combine event begun at offset %llu: that event is abandoned "
                        "(%u slots received)", off, cpu,
                        (unsigned long long)e->other_offset, (unsigned)e->count);
    case SLOT_ERR_LEFT_OPEN:
        return snprintf(buf, len, "offset %llu: KSP-14: combine event left open at the end "
                        "of the trace (cpu %u, class %u, event %u): delivered incomplete, "
                        "%u slots received", off, cpu, cls, ev, (unsigned)e->count);
    case SLOT_ERR_HOLD_LIMIT:
        return snprintf(buf, len, "offset %llu: KSP-14: combine event abandoned: the "
                        "decoder's limit of events and words held back behind it was reached "
                        "(cpu %u, class %u, event %u): delivered incomplete, %u slots received",
                        off, cpu, cls, ev, (unsigned)e->count);
    case SLOT_ERR_NO_MEMORY:
        return snprintf(buf, len, "offset %llu: out of memory: combine event abandoned "
                        "(cpu %u, class %u, event %u)", off, cpu, cls, ev);
    case SLOT_ERR_CUT_SLOT:
        return snprintf(buf, len, "offset %llu: KSP-25: last slot cut short (%u of 16 bytes): "
                        "read up to the last whole slot", off, (unsigned)e->count);
    default:
        return snprintf(buf, len, "offset %llu: unknown error %d", off, (int)e->kind);
    }
}

/* ---- payload buffers --------------------------------------------------------- */

static uint32_t *buf_get(struct slot_decoder *d, uint32_t *cap)
{
    if (d->nspare > 0) {
        d->nspare--;
        *cap = d->spare_cap[d->nspare];
        return d->spare[d->nspare];
    }
    *cap = WORDS_MIN;
    return malloc(WORDS_MIN * sizeof(uint32_t));
}

static void buf_put(struct slot_decoder *d, uint32_t *w, uint32_t cap)
{
    if (d->nspare < SPARE_MAX && cap <= SPARE_MAX_WORDS && cap <= d->max_held_words) {
        d->spare[d->nspare] = w;
        d->spare_cap[d->nspare] = cap;
        d->nspare++;
    } else {
        free(w);
    }
}

/* ---- the queue of held events ------------------------------------------------ */

static inline struct slot_held *held_at(struct slot_decoder *d, uint64_t seq)
{
    return &d->queue[seq & (d->qcap - 1)];
}

static void count_event(struct slot_decoder *d, unsigned cpu, unsigned cls, int combine,
                        int complete)
{
    d->cpu[cpu].events++;
    d->class_events[cls]++;
    d->sum.combine_events += (unsigned)combine;
    d->sum.incomplete_events += (unsigned)!complete;
}

static void deliver_held(struct slot_decoder *d, struct slot_held *r)
{
    struct slot_event ev = {
        .time = r->time, .offset = r->offset,
        .words = r->words ? r->words : r->inl,
        .nwords = 2 * r->nslots, .nslots = r->nslots, .header = r->header,
        .cpu = _NTO_TRACE_GETCPU(r->header),
        .cls = _NTO_TRACE_GETEVENT_C(r->header) >> 10,
        .event = _NTO_TRACE_GETEVENT(r->header),
        .combine = _TRACE_GET_STRUCT(r->header) != _TRACE_STRUCT_S,
        .complete = r->state == HELD_DONE,
    };
    count_event(d, ev.cpu, ev.cls, ev.combine, ev.complete);
    d->on_event(d->user, &ev);
    if (r->words) {
        d->held_words -= r->cap;
        buf_put(d, r->words, r->cap);
        r->words = NULL;
    }
}

/* Delivers the finished events at the head of the queue. */
static void drain(struct slot_decoder *d)
{
    while (d->held > 0) {
        struct slot_held *r = held_at(d, d->qhead);
        if (r->state == HELD_OPEN)
            break;
        deliver_held(d, r);
        d->qhead++;
        d->held--;
    }
}

/* Closes the open combine event r as incomplete.  Its CPU remembers it, so
 * that its slots still to come are dropped without a report of their own. */
static void abandon(struct slot_decoder *d, struct slot_held *r)
{
    struct slot_cpu_state *c = &d->cpu[_NTO_TRACE_GETCPU(r->header)];
    r->state = HELD_ABANDONED;
    c->has_open = 0;
    c->has_abandoned = 1;
    c->abandoned_hdr = r->header & KEY_MASK;
    c->abandoned_ts = (uint32_t)r->time;
}

/* The memory bound: abandons the oldest open combine event, which is the
 * head of the queue (finished events never stay at the head), releasing it
 * and what waited behind it. */
static void abandon_head(struct slot_decoder *d, enum slot_error_kind why)
{
    struct slot_held *r = held_at(d, d->qhead);
    if (r->state == HELD_OPEN) {
        report(d, why, r->offset, r->header, (uint32_t)r->time, 0, r->nslots);
        abandon(d, r);
    }
    drain(d);
}

/* Makes room for one more held event: within the limit, and in the ring
 * (grown by doubling; if that fails, as at the limit). */
static void make_room(struct slot_decoder *d)
{
    while (d->held >= d->max_held_events)
        abandon_head(d, SLOT_ERR_HOLD_LIMIT);
    if (d->held < d->qcap)
        return;
    struct slot_held *q = malloc(2 * d->qcap * sizeof *q);
    if (q == NULL) {
        abandon_head(d, SLOT_ERR_NO_MEMORY);
        return;
    }
    for (uint64_t s = d->qhead; s < d->qhead + d->held; s++)
        q[s & (2 * d->qcap - 1)] = *held_at(d, s);
    free(d->queue);
    d->queue = q;
    d->qcap *= 2;
}

/* Appends an event to the queue (make_room first).  Returns it and its
 * sequence number. */
static struct slot_held *push(struct slot_decoder *d, uint64_t *seq)
{
    *seq = d->qhead + d->held;
    d->held++;
    if (d->held > d->sum.max_held_events)
        d->sum.max_held_events = d->held;
    return held_at(d, *seq);
}

/* ---- slots ------------------------------------------------------------------- */

/* KSP-17: the CPU's time at a slot of low word `low` (an S or CB slot). */
static inline uint64_t stamp(struct slot_decoder *d, struct slot_cpu_state *c, uint32_t low)
{
    if (low < c->last_low) {        /* went back without a TIME event: a wrap */
        c->high++;
        d->sum.wraps++;
    }
    c->last_low = low;
    return (uint64_t)c->high << 32 | low;
}

/* Whether a buffer of sequence number `seq` follows a gap: buffers before it
 * are not in the trace (overwritten in ring mode, KSP-20, or lost), so its
 * first slots may continue combine events begun in them (KSP-14, KSP-21).
 * The first buffer of the trace follows a gap unless it is the first buffer
 * ever (sequence 0, KSP-19); a later one unless its sequence number is the
 * previous one's plus one (modulo 2^32: data[1] is a 32-bit word). */
static int follows_gap(const struct slot_decoder *d, uint32_t seq)
{
    if (!d->have_buffer_seq)
        return seq != 0;
    return seq != (uint32_t)(d->last_buffer_seq + 1);
}

/* A BUFFER event (KSP-19): counts it, and says for every CPU whether its
 * first continuation slots in this buffer may be the rest of an event whose
 * first slots are not in the trace (after a gap) or not (KSP-14). */
static void buffer_begins(struct slot_decoder *d, uint32_t seq)
{
    uint8_t gap = (uint8_t)follows_gap(d, seq);

    d->sum.buffers++;
    if (d->have_buffer_seq && seq > d->last_buffer_seq + 1)
        d->sum.buffer_seq_gaps += seq - d->last_buffer_seq - 1;
    d->last_buffer_seq = seq;
    d->have_buffer_seq = 1;
    for (unsigned i = 0; i < SLOT_NCPUS; i++)
        d->cpu[i].after_gap = gap;
}

/* A CONTROL simple event: updates the state, returns the event's time.  The
 * buffer's own TIME and DROPPED events (KSP-17, KSP-22) are not events a CPU
 * begins: they leave its after_gap as it is. */
static uint64_t control(struct slot_decoder *d, struct slot_cpu_state *c, const traceevent_t *s)
{
    switch (_NTO_TRACE_GETEVENT(s->header)) {
    case _TRACE_CONTROL_TIME:       /* KSP-16: the high word, stated */
        d->sum.time_events++;
        c->high = s->data[1];
        c->last_low = s->data[0];
        return (uint64_t)c->high << 32 | s->data[0];
    case _TRACE_CONTROL_BUFFER:     /* KSP-19 */
        buffer_begins(d, s->data[1]);
        break;
    case _TRACE_CONTROL_DROPPED:    /* KSP-22 */
        d->sum.dropped_events += s->data[1];
        d->sum.dropped_slots += s->data[2];
        break;
    default:                        /* another CONTROL event: a new event of the CPU */
        c->after_gap = 0;
        break;
    }
    return stamp(d, c, s->data[0]);
}

/* An S slot off the fast path: CONTROL, or something is held back. */
static void simple_slot(struct slot_decoder *d, const traceevent_t *s, uint64_t off,
                        struct slot_cpu_state *c, unsigned cls)
{
    uint32_t h = s->header;
    uint64_t time;

    if (cls == SLOT_CLASS_CONTROL) {
        time = control(d, c, s);
    } else {
        c->after_gap = 0;       /* a new event of the CPU (KSP-14) */
        time = stamp(d, c, s->data[0]);
    }

    if (d->held > 0)
        make_room(d);
    if (d->held == 0) {
        struct slot_event ev = {
            .time = time, .offset = off, .words = &s->data[1], .nwords = 2, .nslots = 1,
            .header = h, .cpu = _NTO_TRACE_GETCPU(h), .cls = cls,
            .event = _NTO_TRACE_GETEVENT(h), .combine = 0, .complete = 1,
        };
        count_event(d, ev.cpu, cls, 0, 1);
        d->on_event(d->user, &ev);
        return;
    }
    uint64_t seq;
    struct slot_held *r = push(d, &seq);
    *r = (struct slot_held){
        .time = time, .offset = off, .header = h, .nslots = 1,
        .inl = { s->data[1], s->data[2] }, .words = NULL, .cap = 0, .state = HELD_DONE,
    };
}

/* Opens a combine event at slot s on CPU c, stamped `time`: held back, its
 * first two words kept.  Returns it, or NULL if no memory (reported, and
 * the event abandoned). */
static struct slot_held *open_combine(struct slot_decoder *d, const traceevent_t *s,
                                      uint64_t off, struct slot_cpu_state *c, uint64_t time)
{
    uint32_t h = s->header;
    uint32_t cap = 0;
    uint32_t *w = buf_get(d, &cap);
    while (d->held > 0 && d->held_words + cap > d->max_held_words)
        abandon_head(d, SLOT_ERR_HOLD_LIMIT);
    make_room(d);

    uint64_t seq;
    struct slot_held *r = push(d, &seq);
    *r = (struct slot_held){
        .time = time, .offset = off, .header = h, .nslots = 1,
        .inl = { s->data[1], s->data[2] }, .words = w, .cap = w ? cap : 0,
        .state = HELD_OPEN,
    };
    if (w == NULL) {
        report(d, SLOT_ERR_NO_MEMORY, off, h, s->data[0], 0, 1);
        abandon(d, r);
        drain(d);
        return NULL;
    }
    d->held_words += cap;
    w[0] = s->data[1];
    w[1] = s->data[2];
    c->has_open = 1;
    c->open_seq = seq;
    return r;
}

/* A CB slot: opens a combine event (KSP-8), after closing the CPU's open one
 * if it has one (KSP-14).  A new event on the CPU: from here on, a CC/CE of
 * the CPU with no open event is an error even after a gap (KSP-14). */
static void begin_slot(struct slot_decoder *d, const traceevent_t *s, uint64_t off,
                       struct slot_cpu_state *c)
{
    c->after_gap = 0;
    if (c->has_open) {
        struct slot_held *o = held_at(d, c->open_seq);
        report(d, SLOT_ERR_NESTED_CB, off, s->header, s->data[0], o->offset, o->nslots);
        abandon(d, o);
        drain(d);
    }
    open_combine(d, s, off, c, stamp(d, c, s->data[0]));
}

/* Adds the two words of a CC/CE slot to the open event r.  Returns 0, or -1
 * if r had to be abandoned for room (the slot is then dropped). */
static int append(struct slot_decoder *d, struct slot_held *r, const traceevent_t *s)
{
    uint64_t need = 2 * (uint64_t)r->nslots + 2;
    if (need > r->cap) {
        uint32_t grow = r->cap;
        while (d->held_words + grow > d->max_held_words) {
            int self = held_at(d, d->qhead) == r;
            abandon_head(d, SLOT_ERR_HOLD_LIMIT);
            if (self)
                return -1;
        }
        uint32_t *w = realloc(r->words, (size_t)(r->cap + grow) * sizeof *w);
        if (w == NULL) {
            report(d, SLOT_ERR_NO_MEMORY, r->offset, r->header, (uint32_t)r->time, 0,
                   r->nslots);
            abandon(d, r);
            drain(d);
            return -1;
        }
        r->words = w;
        r->cap += grow;
        d->held_words += grow;
    }
    r->words[need - 2] = s->data[1];
    r->words[need - 1] = s->data[2];
    r->nslots++;
    return 0;
}

/* Whether r is the rest of a combine event without its CB (open_tail). */
static inline int is_tail(const struct slot_held *r)
{
    return _TRACE_GET_STRUCT(r->header) != _TRACE_STRUCT_CB;
}

/* KSP-14, KSP-21: a CC or CE of a CPU that has begun nothing yet in a buffer
 * that follows a gap is the rest of a combine event whose first slots were
 * in a buffer not in the trace (in ring mode, overwritten: KSP-20).  It is
 * not an integrity error: its slots are gathered into one incomplete event,
 * in the place of its first slot, whose header is that CC/CE's.  A CPU has
 * at most one event in progress, so it has at most one such rest per
 * buffer: after it, its CC/CE with no open event are errors again.  Its time
 * takes the CPU's current high word; the slot's low word is the CB's, so it
 * does not take part in wrap inference (KSP-17). */
static void open_tail(struct slot_decoder *d, const traceevent_t *s, uint64_t off,
                      struct slot_cpu_state *c)
{
    c->after_gap = 0;
    struct slot_held *r = open_combine(d, s, off, c, (uint64_t)c->high << 32 | s->data[0]);
    if (r == NULL || _TRACE_GET_STRUCT(s->header) != _TRACE_STRUCT_CE)
        return;
    r->state = HELD_ABANDONED;          /* a lone CE: the rest is this slot */
    c->has_open = 0;
    drain(d);
}

/* A CC or CE slot: continues the CPU's open combine event if it is the same
 * event (KSP-13), else it is an integrity error (KSP-14). */
static void continue_slot(struct slot_decoder *d, const traceevent_t *s, uint64_t off,
                          struct slot_cpu_state *c)
{
    uint32_t h = s->header, key = h & KEY_MASK, ts = s->data[0];
    int last = _TRACE_GET_STRUCT(h) == _TRACE_STRUCT_CE;

    if (c->has_open) {
        uint64_t seq = c->open_seq;
        struct slot_held *r = held_at(d, seq);
        if ((r->header & KEY_MASK) == key && (uint32_t)r->time == ts) {
            if (append(d, r, s) != 0) {
                d->sum.discarded_slots++;
                if (last)
                    c->has_abandoned = 0;
                return;
            }
            if (last) {
                /* The rest of an event begun before a gap stays incomplete. */
                r->state = is_tail(r) ? HELD_ABANDONED : HELD_DONE;
                c->has_open = 0;
                if (seq == d->qhead)
                    drain(d);
            }
            return;
        }
    }
    if (c->has_abandoned && c->abandoned_hdr == key && c->abandoned_ts == ts) {
        d->sum.discarded_slots++;       /* reported when it was abandoned */
        if (last)
            c->has_abandoned = 0;
        return;
    }
    if (!c->has_open && c->after_gap) {
        open_tail(d, s, off, c);
        return;
    }
    report(d, SLOT_ERR_NO_OPEN_COMBINE, off, h, ts, 0, 0);
}

/* Every slot that is not a simple event of the fast path. */
static void slow_slot(struct slot_decoder *d, const traceevent_t *s, uint64_t off)
{
    uint32_t h = s->header;
    unsigned cls = _NTO_TRACE_GETEVENT_C(h) >> 10;
    struct slot_cpu_state *c = &d->cpu[_NTO_TRACE_GETCPU(h)];

    if (cls >= SLOT_NCLASSES) {
        report(d, SLOT_ERR_RESERVED_CLASS, off, h, s->data[0], 0, 0);
        return;
    }
    switch (_TRACE_GET_STRUCT(h)) {
    case _TRACE_STRUCT_S:
        simple_slot(d, s, off, c, cls);
        break;
    case _TRACE_STRUCT_CB:
        begin_slot(d, s, off, c);
        break;
    default:
        continue_slot(d, s, off, c);
        break;
    }
}

void slot_decoder_feed(struct slot_decoder *d, const traceevent_t *s, size_t n, uint64_t off)
{
    /* The fields of a fast-path event that never change. */
    struct slot_event ev = { .nwords = 2, .nslots = 1, .combine = 0, .complete = 1 };

    d->sum.slots += n;
    for (size_t i = 0; i < n; i++, off += sizeof *s) {
        uint32_t h = s[i].header;
        unsigned cls = (h >> 10) & 0x1Fu;

        /* The fast path: a simple event of a class without side effects,
         * with nothing held back to wait for. */
        if ((h & _TRACE_STRUCT_MASK) == 0 && d->held == 0 && ((FAST_CLASSES >> cls) & 1u)) {
            unsigned cpu = (h >> 24) & 0x3Fu;
            struct slot_cpu_state *c = &d->cpu[cpu];
            uint32_t low = s[i].data[0];
            if (low < c->last_low) {        /* KSP-17: a wrap without TIME */
                c->high++;
                d->sum.wraps++;
            }
            c->last_low = low;
            c->after_gap = 0;               /* a new event of the CPU (KSP-14) */
            c->events++;
            d->class_events[cls]++;
            ev.time = (uint64_t)c->high << 32 | low;
            ev.offset = off;
            ev.words = &s[i].data[1];
            ev.header = h;
            ev.cpu = cpu;
            ev.cls = cls;
            ev.event = h & _TRACE_EVENT_MASK;
            d->on_event(d->user, &ev);
            continue;
        }
        slow_slot(d, &s[i], off);
    }
}

void slot_decoder_finish(struct slot_decoder *d)
{
    while (d->held > 0) {
        struct slot_held *r = held_at(d, d->qhead);
        if (r->state == HELD_OPEN) {
            report(d, SLOT_ERR_LEFT_OPEN, r->offset, r->header, (uint32_t)r->time, 0,
                   r->nslots);
            r->state = HELD_ABANDONED;
            d->cpu[_NTO_TRACE_GETCPU(r->header)].has_open = 0;
        }
        drain(d);
    }
}

void slot_decoder_summary(const struct slot_decoder *d, struct slot_summary *s)
{
    *s = d->sum;
    s->events = 0;
    for (unsigned i = 0; i < SLOT_NCPUS; i++) {
        s->events_per_cpu[i] = d->cpu[i].events;
        s->events += d->cpu[i].events;
    }
    for (unsigned i = 0; i < SLOT_NCLASSES; i++)
        s->events_per_class[i] = d->class_events[i];
}
