/* SPDX-License-Identifier: MIT */
/*
 * log_events.c -- the event records of a trace log and their context
 * (LOGFORMAT section 3), both ways.
 *
 * An event record is its data words only, under a slot header whose event
 * code is the POSIX event id and whose data[0] is the low word of its
 * timestamp: 16 bytes for up to 8 bytes of data.  What it does not carry --
 * the high word of its time, its pid, thread, program address, CPU, exact
 * length and truncation -- is stated by the TIME and context records before
 * it, written only when a value changes and at the start of each segment,
 * so that a segment decodes alone.
 */
#include <errno.h>
#include <string.h>
#include "log/log_format.h"
#include "slot/trace_file.h"

/* ---- the data of system events: little-endian in the log ----------------------------- */

/* A system event's data are the host's integers: an int for STOP, event sets
 * (unsigned long long words) for START and FILTER.  In the log each integer
 * is little-endian, so that a scenario gives the same log on every host
 * (LOGFORMAT section 3); a user event's data are the user's bytes, kept as
 * they are.  The size of the integers of an event's data, 0 for none. */
static size_t system_data_unit(trace_event_id_t id)
{
    switch (id) {
    case POSIX_TRACE_STOP:
        return sizeof(int);
    case POSIX_TRACE_START:
    case POSIX_TRACE_FILTER:
        return sizeof(unsigned long long);
    default:
        return 0;
    }
}

/* Reverses the bytes of each integer of d (len bytes) on a big-endian host:
 * host order to the log's little-endian, and back. */
static void system_data_swap(trace_event_id_t id, unsigned char *d, size_t len)
{
    size_t unit = system_data_unit(id);
    if (!trace_file_host_big_endian() || unit == 0)
        return;                                         /* a little-endian host */
    for (size_t at = 0; at + unit <= len; at += unit)
        for (size_t i = 0, j = unit - 1; i < j; i++, j--) {
            unsigned char t = d[at + i];
            d[at + i] = d[at + j];
            d[at + j] = t;
        }
}

/* ---- the context ------------------------------------------------------------------- */

void log_context_reset(struct log_context *c)
{
    c->have = 0;
    c->timed = 0;
}

static unsigned slot_cpu(int32_t cpu)
{
    return cpu >= 0 ? (unsigned)cpu % SLOT_NCPUS : 0u;
}

static uint32_t flags_of(const struct rec_hdr *h)
{
    return ((h->len & REC_TRUNCATED) ? 1u : 0u) |
           (h->cpu >= 0 ? ((uint32_t)(h->cpu + 1) & 0xFFFFu) << 16 : 0u);
}

/* What h needs before its record: LOG_HAVE_* bits of the context records,
 * and *time set if a TIME record is needed (the segment's first record of
 * its CPU, a new high word, or a time that goes back: a decoder would take
 * it for a wrap, KSP-17). */
static unsigned needed(const struct log_context *c, const struct rec_hdr *h, int *time)
{
    unsigned cpu = slot_cpu(h->cpu), need = 0;
    uint32_t high = (uint32_t)(h->ts >> 32), low = (uint32_t)h->ts;
    *time = !(c->timed >> cpu & 1u) || c->high[cpu] != high || low < c->last_low[cpu];
    if (!(c->have & LOG_HAVE_PID) || c->pid != h->pid)
        need |= LOG_HAVE_PID;
    if (!(c->have & LOG_HAVE_THREAD) || c->thread != h->thread)
        need |= LOG_HAVE_THREAD;
    if (!(c->have & LOG_HAVE_PROG) || c->prog != h->prog)
        need |= LOG_HAVE_PROG;
    if (!(c->have & LOG_HAVE_SHAPE) || c->len != (h->len & REC_LEN_MASK) ||
        c->flags != flags_of(h))
        need |= LOG_HAVE_SHAPE;
    return need;
}

static unsigned bits(unsigned v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* One simple slot: a context record (USER) or TIME (CONTROL). */
static traceevent_t simple(unsigned cpu, unsigned cls, unsigned code, uint32_t d0,
                           uint32_t d1, uint32_t d2)
{
    traceevent_t t;
    t.header = slot_header(_TRACE_STRUCT_S, cpu, cls, code);
    t.data[0] = d0;
    t.data[1] = d1;
    t.data[2] = d2;
    return t;
}

size_t log_encode_event(struct log_context *c, const struct rec_hdr *h, const void *data,
                        uint32_t *words, traceevent_t *out, size_t cap)
{
    uint32_t len = h->len & REC_LEN_MASK;
    int time;
    unsigned need = needed(c, h, &time), cpu = slot_cpu(h->cpu);
    if (len > LOG_DATA_MAX || (uint32_t)time + bits(need) + log_event_slots(len) > cap)
        return 0;
    uint32_t high = (uint32_t)(h->ts >> 32), low = (uint32_t)h->ts;
    size_t n = 0;
    if (time)                                           /* KSP-16, KSP-17 */
        out[n++] = simple(cpu, SLOT_CLASS_CONTROL, _TRACE_CONTROL_TIME, low, high, low);
    /* Context records carry the low word of the event they go before. */
    if (need & LOG_HAVE_PID)
        out[n++] = simple(cpu, SLOT_CLASS_USER, LOG_CODE_PID, low, h->pid, 0);
    if (need & LOG_HAVE_THREAD)
        out[n++] = simple(cpu, SLOT_CLASS_USER, LOG_CODE_THREAD, low, (uint32_t)h->thread,
                          (uint32_t)(h->thread >> 32));
    if (need & LOG_HAVE_PROG)
        out[n++] = simple(cpu, SLOT_CLASS_USER, LOG_CODE_PROG, low, (uint32_t)h->prog,
                          (uint32_t)(h->prog >> 32));
    if (need & LOG_HAVE_SHAPE)
        out[n++] = simple(cpu, SLOT_CLASS_USER, LOG_CODE_SHAPE, low, len, flags_of(h));

    unsigned char sys[2 * sizeof(trace_event_set_t)];   /* the largest: FILTER */
    if (system_data_unit(h->id) != 0 && len <= sizeof sys) {
        memcpy(sys, data, len);
        system_data_swap(h->id, sys, len);
        data = sys;
    }
    size_t k = 1;
    if (len <= 8) {
        /* One simple slot, the common event: what slot_encode_words gives
         * for up to two words, without its checks (the key is valid and
         * the room counted above), its words read straight from the data
         * (through `words`, stored by 4 bytes and read by 8, they failed a
         * store forward each event: 40% of this function). */
        const unsigned char *d = data;
        out[n] = simple(cpu, SLOT_CLASS_USER, h->id, low, slot_le_word(d, len),
                        len > 4 ? slot_le_word(d + 4, len - 4) : 0);
    } else {
        log_bytes_to_words(data, len, words);
        struct slot_key key = { .cpu = cpu, .cls = SLOT_CLASS_USER, .event = h->id,
                                .ts_low = low };
        slot_encode_words(&key, words, (len + 3u) / 4u, out + n, cap - n, &k);
    }

    c->pid = h->pid;
    c->thread = h->thread;
    c->prog = h->prog;
    c->len = len;
    c->flags = flags_of(h);
    c->have = LOG_HAVE_ALL;
    c->timed |= (uint64_t)1 << cpu;
    c->high[cpu] = high;
    c->last_low[cpu] = low;
    return n + k;
}

/* ---- reading ----------------------------------------------------------------------- */

int log_context_apply(struct log_context *c, const struct slot_event *ev)
{
    if (ev->cls == SLOT_CLASS_CONTROL && ev->event == _TRACE_CONTROL_TIME) {
        if (ev->combine || ev->nwords < 2)
            return -1;
        c->timed |= (uint64_t)1 << ev->cpu;
        c->high[ev->cpu] = ev->words[0];
        return 1;
    }
    if (ev->cls != SLOT_CLASS_USER || ev->event < LOG_CODE_SHAPE || ev->event > LOG_CODE_PID)
        return 0;
    if (!ev->complete || ev->combine || ev->nwords < 2)
        return -1;
    const uint32_t *w = ev->words;
    switch (ev->event) {
    case LOG_CODE_PID:
        c->pid = w[0];
        c->have |= LOG_HAVE_PID;
        return 1;
    case LOG_CODE_THREAD:
        c->thread = (uint64_t)w[1] << 32 | w[0];
        c->have |= LOG_HAVE_THREAD;
        return 1;
    case LOG_CODE_PROG:
        c->prog = (uint64_t)w[1] << 32 | w[0];
        c->have |= LOG_HAVE_PROG;
        return 1;
    default:                                            /* LOG_CODE_SHAPE */
        if (w[0] > LOG_DATA_MAX || (w[1] & 0xFFFCu) != 0 || (w[1] & 3u) > 1u)
            return -1;
        c->len = w[0];
        c->flags = w[1];
        c->have |= LOG_HAVE_SHAPE;
        return 1;
    }
}

int log_decode_event(const struct log_context *c, const struct slot_event *ev,
                     struct rec_hdr *h, unsigned char *data)
{
    if (ev->cls != SLOT_CLASS_USER || ev->event > LOG_CODE_EVENT_MAX || !ev->complete ||
        c->have != LOG_HAVE_ALL || !(c->timed >> ev->cpu & 1u))
        return EINVAL;
    int32_t cpu = (int32_t)(c->flags >> 16) - 1;
    if (ev->cpu != slot_cpu(cpu) || ev->nslots != log_event_slots(c->len))
        return EINVAL;
    h->id = ev->event;
    h->len = c->len | ((c->flags & 1u) ? REC_TRUNCATED : 0u);
    h->cpu = cpu;
    h->pid = c->pid;
    h->thread = c->thread;
    h->prog = c->prog;
    h->ts = (uint64_t)c->high[ev->cpu] << 32 | (uint32_t)ev->time;
    log_words_to_bytes(ev->words, c->len, data);
    system_data_swap(h->id, data, c->len);
    return 0;
}
