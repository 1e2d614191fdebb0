/* SPDX-License-Identifier: MIT */
/*
 * fuzz_slot_decoder.c -- libFuzzer target: the slot decoder, the trace file
 * reader and the dumper (tracedump's library) on any input.  Built with
 * clang -fsanitize=fuzzer,address,undefined by 'make fuzz' (mk/ksp.mk);
 * fuzz/README.md says how to run it and what a finding looks like.
 *
 * Each input is used three ways:
 *   1. as a trace file: header, system page, slots, decoded with the codec;
 *   2. the same through dump_mem, text and JSON, into /dev/null;
 *   3. as bare slots (no header) fed to a decoder whose memory bounds, call
 *      sizes and callbacks the input chooses (tiny bounds: the hold-limit
 *      paths run too).
 * Inputs are mutated slot by slot (slot_mutator.c) as well as byte by byte,
 * with the dictionary slot_decoder.dict (header keys, slot header words).
 * Besides the sanitizers' own checks, the codec's promises are asserted:
 * every event has two words a slot, a valid CPU and class, and every slot
 * fed is accounted for exactly once (SLOTS.md, "Summary").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dump/dump.h"
#include "slot/slot_codec.h"
#include "slot/trace_file.h"

struct tally {
    uint64_t slots_delivered;
    uint64_t sum;
};

static void check(int ok)
{
    if (!ok)
        abort();
}

static void on_event(void *user, const struct slot_event *ev)
{
    struct tally *t = user;
    check(ev->nwords == 2 * ev->nslots && ev->nslots >= 1);
    check(ev->cpu < SLOT_NCPUS && ev->cls < SLOT_NCLASSES && ev->event < 1024);
    check(ev->combine || ev->nslots == 1);
    for (uint32_t i = 0; i < ev->nwords; i++)      /* every word is readable */
        t->sum += ev->words[i];
    t->slots_delivered += ev->nslots;
}

static void on_error(void *user, const struct slot_error *e)
{
    char msg[320];
    (void)user;
    check(slot_error_format(e, msg, sizeof msg) > 0);
}

/* Every slot fed is in a delivered event, or discarded, or an error of its
 * own; a cut slot is not fed. */
static void accounted(const struct slot_decoder *d, const struct tally *t)
{
    struct slot_summary s;
    slot_decoder_summary(d, &s);
    check(s.slots == t->slots_delivered + s.discarded_slots +
                     s.errors_by_kind[SLOT_ERR_RESERVED_CLASS] +
                     s.errors_by_kind[SLOT_ERR_NO_OPEN_COMBINE]);
}

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    return devnull ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct trace_file_info info;    /* 16 KiB: kept off the stack */
    struct slot_decoder d;
    struct tally t = { 0, 0 };
    struct slot_decoder_config cfg = { .on_event = on_event, .on_error = on_error, .user = &t };
    char err[512];

    /* 1. A trace file. */
    if (slot_decoder_init(&d, &cfg) != 0)
        return 0;
    if (trace_file_decode(data, size, &d, &info, err, sizeof err) == 0) {
        check(info.slots_offset <= size && info.nslots * 16 + info.cut_bytes ==
              size - info.slots_offset);
        accounted(&d, &t);
    } else {
        check(strncmp(err, "offset ", 7) == 0);    /* a rejection names its offset */
    }
    slot_decoder_free(&d);

    /* 2. The dumper, both formats. */
    for (int fmt = 0; fmt < 2; fmt++) {
        struct dump_options o = { .format = (enum dump_format)fmt, .name = "fuzz" };
        struct dump_result r;
        dump_mem(data, size, devnull, &o, &r, err, sizeof err);
    }
    /* The exports for viewers (--chrome, --svg, --ctf) have a target of
     * their own, fuzz_exporters.c: here they made every input five passes. */

    /* 3. Bare slots, with a decoder configured by the input's hash: memory
     * bounds from tiny to the defaults, the slots fed in calls of 1 to all
     * slots, callbacks or none (count only), the public create/destroy or
     * init/free -- each reaches paths of the decoder the others do not. */
    size_t n = size / sizeof(traceevent_t);
    traceevent_t *slots = malloc(n ? n * sizeof *slots : 1);
    if (slots == NULL)
        return 0;
    memcpy(slots, data, n * sizeof *slots);     /* the input has any alignment */
    uint32_t h = 2166136261u;                   /* FNV-1a of the input */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    static const size_t held_events[] = { 8, 1, 2, 3, 64, 0 };
    static const size_t held_words[] = { 16, 1, 4, 40, 4096, 0 };
    static const size_t chunks[] = { 0, 1, 2, 3, 7, 64 };  /* 0: in two halves */
    struct tally t2 = { 0, 0 };
    cfg.user = &t2;
    cfg.max_held_events = held_events[h % 6];
    cfg.max_held_words = held_words[(h >> 3) % 6];
    int counting = (h >> 6) % 8 == 0;
    if (counting)
        cfg.on_event = NULL, cfg.on_error = NULL;
    size_t chunk = chunks[(h >> 9) % 6];
    struct slot_decoder *pd = &d;
    int created = (h >> 12) % 2;
    if (created ? slot_decoder_create(&cfg, &pd) == 0 : slot_decoder_init(&d, &cfg) == 0) {
        if (chunk == 0)
            chunk = n / 2 ? n / 2 : 1;
        for (size_t at = 0; at < n; at += chunk)
            slot_decoder_feed(pd, slots + at, n - at < chunk ? n - at : chunk,
                              at * sizeof *slots);
        slot_decoder_finish(pd);
        if (!counting)
            accounted(pd, &t2);
        if (created)
            slot_decoder_destroy(pd);
        else
            slot_decoder_free(&d);
    }
    free(slots);
    return 0;
}
