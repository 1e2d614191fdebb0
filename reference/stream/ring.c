/* SPDX-License-Identifier: MIT */
/* ring.c -- setting up a stream's byte ring, and a record that wraps (see ring.h). */
#include "stream/ring.h"

uint64_t ring_capacity(uint64_t bytes)
{
    uint64_t cap = 64;
    while (cap < bytes)
        cap <<= 1;
    return cap;
}

void ring_init(struct ring *r, void *buf, uint64_t cap)
{
    r->off = (uint64_t)((unsigned char *)buf - (unsigned char *)r);
    r->cap = cap;
    r->head = r->tail = 0;
}

void rec_put_wrapped(unsigned char *buf, uint64_t cap, uint64_t head, const struct rec_hdr *h,
                     const void *data, uint32_t len)
{
    static const uint64_t zero = 0;
    wrap_copy_in(buf, cap, head, h, sizeof *h);
    if (len) {
        /* The padding first: ring bytes are always defined (stream_put.h). */
        wrap_copy_in(buf, cap, head + rec_size(len) - 8, &zero, 8);
        wrap_copy_in(buf, cap, head + sizeof *h, data, len);
    }
}
