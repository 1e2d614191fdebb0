/* SPDX-License-Identifier: MIT */
/*
 * slot_codec.h -- the reference's side of the slot codec: the public API is
 * <posixtrace_codec.h> (the encoder, the timestamps, the streaming decoder,
 * the trace file); this header adds the decoder's fields, so that the
 * reference's own code (the trace log, the dumper, the simulator's checker)
 * can place a decoder anywhere, and the cut slot report of trace_file.c.
 * reference/slot/SLOTS.md documents the codec.
 */
#ifndef POSIXTRACE_SLOT_CODEC_H
#define POSIXTRACE_SLOT_CODEC_H

#include <posixtrace_codec.h>
#include <stddef.h>
#include <stdint.h>

/* One CPU's decoding state. */
struct slot_cpu_state {
    uint32_t high;          /* high word of the CPU's time (KSP-17) */
    uint32_t last_low;      /* low word of its last S or CB slot */
    uint64_t events;        /* events delivered */
    uint64_t open_seq;      /* its open combine event (sequence in the queue) */
    uint32_t abandoned_hdr; /* key of the last combine abandoned on this CPU: */
    uint32_t abandoned_ts;  /*   its later CC/CE are dropped without a report */
    uint8_t  has_open;
    uint8_t  has_abandoned;
    uint8_t  after_gap;     /* the current buffer follows a gap and the CPU has
                             * begun no event in it yet: a CC/CE with no open
                             * event is the rest of one begun before (KSP-14) */
};

struct slot_held;   /* an event held back (slot_decode.c) */

/* The decoder (<posixtrace_codec.h>'s opaque struct slot_decoder).  Its
 * fields are private to slot_decode.c; the reference's own code places one
 * anywhere (slot_decoder_init), a public caller gets one from
 * slot_decoder_create. */
struct slot_decoder {
    /* The hot path's fields first. */
    uint64_t held;                  /* events held back (queue length) */
    void (*on_event)(void *user, const struct slot_event *ev);
    void *user;
    uint64_t class_events[SLOT_NCLASSES];
    struct slot_cpu_state cpu[SLOT_NCPUS];

    void (*on_error)(void *user, const struct slot_error *err);
    struct slot_held *queue;        /* ring of held events, in first-slot order */
    uint64_t qcap;                  /* power of two */
    uint64_t qhead;                 /* sequence number of the oldest */
    uint64_t max_held_events;
    uint64_t held_words;            /* combine payload words held (capacity) */
    uint64_t max_held_words;
    uint32_t *spare[16];            /* payload buffers kept for reuse */
    uint32_t spare_cap[16];
    unsigned nspare;
    uint64_t last_buffer_seq;
    int have_buffer_seq;
    struct slot_summary sum;        /* the counters not kept above */
};

/* Prepares d.  0, EINVAL (NULL d or cfg), or ENOMEM. */
int slot_decoder_init(struct slot_decoder *d, const struct slot_decoder_config *cfg);

/* Reports that the trace ends with a slot cut short: `have` bytes (1-15) at
 * byte offset `offset` (KSP-25).  trace_file.c calls it. */
void slot_decoder_report_cut(struct slot_decoder *d, uint64_t offset, unsigned have);

/* Frees what d holds (without delivering it: call finish first). */
void slot_decoder_free(struct slot_decoder *d);

/* The first word of n bytes of a payload: little-endian whatever the host,
 * zero past the end (KSP-10); one load where the host is little-endian.
 * Inline: the byte encoder's and the trace log's (an event of up to 8
 * bytes is one or two of them). */
static inline uint32_t slot_le_word(const unsigned char *b, size_t n)
{
    if (n >= 4)
        return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
               (uint32_t)b[3] << 24;
    uint32_t x = 0;
    for (size_t k = 0; k < n; k++)
        x |= (uint32_t)b[k] << (8 * k);
    return x;
}

#endif /* POSIXTRACE_SLOT_CODEC_H */
