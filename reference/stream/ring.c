/* SPDX-License-Identifier: MIT */
/* ring.c -- setting up a stream's byte ring (see ring.h). */
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
