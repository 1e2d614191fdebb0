/* ring.c -- allocation of a stream's byte ring (see ring.h). */
#include <errno.h>
#include <stdlib.h>
#include "ring.h"

int ring_init(struct ring *r, uint64_t bytes)
{
    uint64_t cap = 64;
    while (cap < bytes)
        cap <<= 1;
    r->buf = malloc(cap);
    if (r->buf == NULL)
        return ENOMEM;
    r->cap = cap;
    r->head = r->tail = 0;
    return 0;
}

void ring_free(struct ring *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = r->head = r->tail = 0;
}
