/* SPDX-License-Identifier: MIT */
/*
 * ring.h -- the byte ring of a trace stream and the layout of an event in it.
 *
 * Events are records of a fixed 40-byte header and their data, padded to a
 * multiple of 8.  The ring's capacity is a power of two; head and tail are
 * byte offsets that only grow (the position in the buffer is offset & mask),
 * so used space is head - tail and a record may straddle the end of the
 * buffer: no space is wasted, which keeps the stream-min-size promise exact.
 */
#ifndef POSIXTRACE_RING_H
#define POSIXTRACE_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rec_hdr {
    uint64_t ts;        /* timestamp, ns since the Epoch */
    uint64_t thread;    /* pthread_t of the recording thread, 0 for none */
    uint64_t prog;      /* program address of the trace point, 0 for none */
    uint32_t id;        /* trace_event_id_t */
    uint32_t pid;       /* recording process, 0 for none */
    uint32_t len;       /* data length; REC_TRUNCATED set if cut at record time */
    int32_t  cpu;       /* CPU, -1 if unknown */
};

/* Stores a header at p field by field.  Not one memcpy of h: h is built in
 * registers and on the stack by stores of 4 and 8 bytes, and a copy by
 * 16-byte loads would read them back before they reach the cache (a failed
 * store forward, some ten cycles an event on the recording path). */
static inline void ring_put_hdr(unsigned char *p, const struct rec_hdr *h)
{
    memcpy(p + offsetof(struct rec_hdr, ts), &h->ts, 8);
    memcpy(p + offsetof(struct rec_hdr, thread), &h->thread, 8);
    memcpy(p + offsetof(struct rec_hdr, prog), &h->prog, 8);
    memcpy(p + offsetof(struct rec_hdr, id), &h->id, 4);
    memcpy(p + offsetof(struct rec_hdr, pid), &h->pid, 4);
    memcpy(p + offsetof(struct rec_hdr, len), &h->len, 4);
    memcpy(p + offsetof(struct rec_hdr, cpu), &h->cpu, 4);
}

#define REC_HDR_SIZE   ((uint64_t)sizeof(struct rec_hdr))
#define REC_TRUNCATED  0x80000000u
#define REC_LEN_MASK   0x7fffffffu

static inline uint64_t rec_size(uint32_t data_len)
{
    return REC_HDR_SIZE + (((uint64_t)data_len + 7u) & ~(uint64_t)7u);
}

/* The ring lives in shared memory, mapped at a different address in each
 * process: its buffer is found by an offset from the ring itself. */
struct ring {
    uint64_t       off;     /* buffer address - ring address */
    uint64_t       cap;     /* power of two */
    uint64_t       head;    /* next byte to write */
    uint64_t       tail;    /* oldest byte not yet consumed */
};

static inline unsigned char *ring_buf(const struct ring *r)
{
    /* The buffer is outside struct ring: hide where the pointer came from,
     * or the compiler takes a write to it for an overflow of *r. */
    uintptr_t base = (uintptr_t)r;
    __asm__("" : "+r"(base));
    return (unsigned char *)(base + (uintptr_t)r->off);   /* off < the mapping's size */
}

/* The capacity of a ring of at least `bytes` bytes (a power of two). */
uint64_t ring_capacity(uint64_t bytes);

/* Makes r an empty ring on buf, of cap bytes (ring_capacity). */
void ring_init(struct ring *r, void *buf, uint64_t cap);

static inline uint64_t ring_used(const struct ring *r) { return r->head - r->tail; }

/* Copies n bytes in at byte offset off / out from off, wrapping around. */
/* n bytes in and out of a circular buffer of cap bytes (a power of two) at
 * byte offset off: the ring's, and the staging buffers' (posix/stage.c). */
static inline void wrap_copy_in(unsigned char *buf, uint64_t cap, uint64_t off, const void *src,
                                uint64_t n)
{
    uint64_t pos = off & (cap - 1), first = cap - pos;
    if (n <= first) {
        memcpy(buf + pos, src, n);
    } else {
        memcpy(buf + pos, src, first);
        memcpy(buf, (const unsigned char *)src + first, n - first);
    }
}

static inline void wrap_copy_out(const unsigned char *buf, uint64_t cap, uint64_t off, void *dst,
                                 uint64_t n)
{
    uint64_t pos = off & (cap - 1), first = cap - pos;
    if (n <= first) {
        memcpy(dst, buf + pos, n);
    } else {
        memcpy(dst, buf + pos, first);
        memcpy((unsigned char *)dst + first, buf, n - first);
    }
}

static inline void ring_copy_in(struct ring *r, uint64_t off, const void *src, uint64_t n)
{
    wrap_copy_in(ring_buf(r), r->cap, off, src, n);
}

/* A record of len data bytes that wraps past the end of a circular buffer,
 * at byte offset head (ring.c). */
void rec_put_wrapped(unsigned char *buf, uint64_t cap, uint64_t head, const struct rec_hdr *h,
                     const void *data, uint32_t len);

/* One field of the record header at byte offset off: records start on 8
 * bytes and the capacity is a multiple of 8, so no field of 8 bytes or
 * less straddles the end of the buffer (LOOP drops the oldest records
 * reading only their length and time: stream_put.c). */
#define RING_HDR_FIELD(r, off, field, dst)                                          \
    memcpy((dst), ring_buf(r) + (((off) + offsetof(struct rec_hdr, field)) & ((r)->cap - 1)), \
           sizeof((struct rec_hdr *)0)->field)

static inline void ring_copy_out(const struct ring *r, uint64_t off, void *dst, uint64_t n)
{
    wrap_copy_out(ring_buf(r), r->cap, off, dst, n);
}

#endif
