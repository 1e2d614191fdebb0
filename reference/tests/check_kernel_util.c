/* SPDX-License-Identifier: MIT */
/*
 * check_kernel_util.c -- the helpers of check_kernel.h.  The file is read
 * with the codec's own reader (trace_file_parse, trace_file_feed into a
 * decoder), and its slots are also loaded as plain words, little-endian as
 * the simulator always writes them, for the tests that walk the buffers.
 */
#include <stdlib.h>
#include <string.h>
#include "check_kernel.h"

struct ksim_config kt_config(unsigned cpus, uint64_t events, uint64_t seed)
{
    struct ksim_config c;
    ksim_config_default(&c);
    c.ncpus = cpus;
    c.nevents = events;
    c.seed = seed;
    return c;
}

static int append(void *user, const void *p, size_t n)
{
    struct kt_trace *t = user;
    if (n > t->cap - t->len) {
        size_t c = t->cap ? t->cap : 1 << 16;
        while (c - t->len < n)
            c *= 2;
        unsigned char *f = realloc(t->file, c);
        if (f == NULL)
            return 12;
        t->file = f;
        t->cap = c;
    }
    memcpy(t->file + t->len, p, n);
    t->len += n;
    return 0;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void kt_run(const struct ksim_config *cfg, struct kt_trace *t)
{
    char err[256];
    struct ksim_sink sink = { append, t };

    memset(t, 0, sizeof *t);
    int rc = ksim_run(cfg, &sink, NULL, &t->st, err, sizeof err);
    ck_assert_msg(rc == 0, "ksim_run: %d: %s", rc, err);
    t->info = malloc(sizeof *t->info);
    ck_assert_ptr_nonnull(t->info);
    rc = trace_file_parse(t->file, t->len, t->len, t->info, err, sizeof err);
    ck_assert_msg(rc == 0, "the simulated file does not parse: %s", err);
    ck_assert_msg(t->info->cut_bytes == 0, "the file ends with %u bytes of a slot",
                  t->info->cut_bytes);
    t->nslots = (size_t)t->info->nslots;
    t->slots = malloc((t->nslots + 1) * sizeof *t->slots);
    ck_assert_ptr_nonnull(t->slots);
    for (size_t i = 0; i < t->nslots; i++) {
        const unsigned char *p = t->file + t->info->slots_offset + 16 * i;
        t->slots[i].header = le32(p);
        for (int j = 0; j < 3; j++)
            t->slots[i].data[j] = le32(p + 4 + 4 * j);
    }
}

void kt_free(struct kt_trace *t)
{
    free(t->file);
    free(t->info);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

struct decode_state {
    struct kt_decoded *d;
    uint64_t seen;      /* bit c: per_cpu_last[c] set */
};

static void on_event(void *user, const struct slot_event *ev)
{
    struct decode_state *s = user;
    uint64_t bit = (uint64_t)1 << ev->cpu;
    /* The rest of an event whose CB was overwritten (KSP-14): the simulator
     * counted it overwritten, and its time is from before its buffer's TIME. */
    if (ev->combine && !ev->complete && _TRACE_GET_STRUCT(ev->header) != _TRACE_STRUCT_CB) {
        s->d->tails++;
        return;
    }
    if (ev->cls != SLOT_CLASS_CONTROL)
        s->d->workload_events++;
    if (ev->nslots > s->d->max_slots)
        s->d->max_slots = ev->nslots;
    if (ev->cls == SLOT_CLASS_CONTROL && ev->event == _TRACE_CONTROL_BUFFER && !ev->combine)
        return;
    if ((s->seen & bit) && ev->time <= s->d->per_cpu_last[ev->cpu])
        s->d->time_went_back = 1;
    s->d->per_cpu_last[ev->cpu] = ev->time;
    s->seen |= bit;
}

void kt_decode(const struct kt_trace *t, struct kt_decoded *d)
{
    struct decode_state s = { d, 0 };
    struct slot_decoder_config cfg = { .on_event = on_event, .user = &s };
    struct slot_decoder dec;

    memset(d, 0, sizeof *d);
    ck_assert_int_eq(slot_decoder_init(&dec, &cfg), 0);
    trace_file_feed(t->info, &dec, t->file + t->info->slots_offset, t->nslots * 16,
                    t->info->slots_offset);
    slot_decoder_finish(&dec);
    slot_decoder_summary(&dec, &d->sum);
    slot_decoder_free(&dec);
}

int kt_is_control(const traceevent_t *s, unsigned event)
{
    return _TRACE_GET_STRUCT(s->header) == _TRACE_STRUCT_S &&
           _NTO_TRACE_GETEVENT_C(s->header) == _TRACE_CONTROL_C &&
           _NTO_TRACE_GETEVENT(s->header) == event;
}
