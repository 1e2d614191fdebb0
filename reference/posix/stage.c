/* SPDX-License-Identifier: MIT */
/*
 * stage.c -- recording without the stream's lock (stage.h): per-thread
 * staging buffers inside the shared stream.
 *
 * A buffer has one producer, the thread that owns it (claimed with a
 * compare-and-swap of its owner word, given back when the thread ends or
 * taken over when its process has gone), and one consumer at a time, the
 * holder of the stream's lock.  The producer writes a record past `head`
 * and then publishes it with a release store of `head`; a record half
 * written (a thread killed in the middle) is never seen.  The consumer
 * merges the buffers by timestamp (a timestamp older than the ring's last is
 * raised to it, so that the ring stays in timestamp order: the event is
 * recorded when it reaches the ring) and puts each event with the ring's
 * code, so that the full policies, the overrun status, OVERFLOW and the
 * counts of lost events are exactly those of the locked path.
 *
 * Only streams on a real clock stage: a simulated clock and deterministic
 * origins are the stream's shared state, taken under the lock so that a
 * scenario gives the same events, timestamps and bytes every run.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include "stream/eventset_bits.h"
#include "posix/process.h"
#include "posix/stage.h"
#include "posix/stream_table.h"
#include "stream/tls.h"

#define STAGE_REC_MAX  (STAGE_BYTES / 4)        /* bigger events take the lock */
#define STAGE_POLL_NS  5000000L                 /* a waiting reader looks every 5 ms */

/* The calling thread's buffer, in the stream it last staged into. */
struct stage_cache {
    struct stream *s;
    pid_t          pid;                 /* the process that claimed it (fork) */
    uint64_t       thread;              /* origin_thread() */
    uint64_t       token;               /* this thread's owner word */
    struct stage  *st;
    unsigned char *buf;                 /* st's buffer, */
    uint64_t       mask;                /* its bytes - 1 */
    int            lane;                /* a lane (stream.h): drops its oldest when full */
    uint32_t       max_data;            /* the stream's, read once: its line is
                                         * the lock's and the ring's */
    struct stream *none_in;             /* no buffer free there when last tried, */
    unsigned       retry;               /* nor to be tried for so many events */
};

static _Thread_local struct stage_cache cache TLS_IE;
static _Atomic uint32_t thread_count;
static pthread_key_t give_back_key;
static pthread_once_t give_back_once = PTHREAD_ONCE_INIT;

/* At thread exit: the buffer goes back to the stream (its events stay). */
static void give_back(void *unused)
{
    (void)unused;
    struct stage_cache *c = &cache;
    if (c->st != NULL && c->pid == posixtrace_proc.pid) {
        uint64_t mine = c->token;
        atomic_compare_exchange_strong(&c->st->owner, &mine, 0);
    }
    c->st = NULL;
    c->s = NULL;
}

static void make_give_back_key(void)
{
    pthread_key_create(&give_back_key, give_back);
}

/* An owner whose process has ended (killed, or exited without giving its
 * buffers back): its buffer may be taken over, events and all. */
static int owner_gone(uint64_t owner)
{
    pid_t pid = (pid_t)(owner >> 32);
    return owner != 0 && pid != posixtrace_proc.pid && kill(pid, 0) != 0 && errno == ESRCH;
}

static int claim(struct stage_cache *c, struct stream *s)
{
    pthread_once(&give_back_once, make_give_back_key);
    if (c->pid != posixtrace_proc.pid || c->token == 0) {
        c->pid = posixtrace_proc.pid;   /* a new thread, or the child of fork */
        c->thread = origin_thread();
        c->token = ((uint64_t)(uint32_t)c->pid << 32) | (atomic_fetch_add(&thread_count, 1) + 1u);
    } else if (c->st != NULL) {
        uint64_t mine = c->token;       /* another stream: give the old one back */
        atomic_compare_exchange_strong(&c->st->owner, &mine, 0);
    }
    c->st = NULL;
    c->s = NULL;
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < STAGE_SLOTS; i++) {
            struct stage *st = &s->stages[i];
            uint64_t owner = atomic_load_explicit(&st->owner, memory_order_relaxed);
            if (pass == 0 ? owner != 0 : !owner_gone(owner))
                continue;
            if (!atomic_compare_exchange_strong(&st->owner, &owner, c->token))
                continue;
            atomic_fetch_or(&s->stages_used, 1u << i);
            c->s = s;
            c->st = st;
            c->buf = stage_buf(st);
            c->mask = st->cap - 1;
            c->lane = s->policy == POSIX_TRACE_LOOP && st->cap >= 2 * s->ring.cap;
            c->max_data = s->max_data;
            pthread_setspecific(give_back_key, c);
            return 1;
        }
    }
    return 0;
}

/* One field of the record header at off in st: a record starts on 8 bytes
 * and its fields lie within 8-byte words, so none is cut by the wrap. */
#define STAGE_HDR_FIELD(st, off, field, dst) \
    memcpy((dst), stage_buf(st) + (((off) + offsetof(struct rec_hdr, field)) & ((st)->cap - 1)), \
           sizeof *(dst))

/* Drops the oldest events of st from t while they and the newer ones are
 * more than the ring holds: the ring would have overwritten them (S0032).
 * Keeps their number and the oldest's and newest's times for lane_account;
 * returns the new tail (lock held). */
static uint64_t lane_trim(struct stream *s, struct stage *st, uint64_t t, uint64_t h)
{
    uint64_t n = 0, last = 0;
    /* The lengths only, and the first one's time: the last one's is read
     * after the walk (up to the ring's size, memory-bound). */
    while (t < h && h - t > s->ring.cap) {  /* else it and all after it fit in the ring */
        uint32_t len;
        if (n == 0 && st->dropped == 0)
            STAGE_HDR_FIELD(st, t, ts, &st->drop_ts);
        STAGE_HDR_FIELD(st, t, len, &len);
        last = t;
        t += rec_size(len & REC_LEN_MASK);
        n++;
    }
    if (n != 0) {
        STAGE_HDR_FIELD(st, last, ts, &st->drop_last);
        st->dropped += n;
    }
    return t;
}

/* A full lane (stream.h): its oldest go, the lock held so that no drain
 * reads them meanwhile. */
static void lane_drop(struct stream *s, struct stage *st)
{
    shm_lock(&s->lock);
    uint64_t t = atomic_load_explicit(&st->tail, memory_order_relaxed);
    uint64_t h = atomic_load_explicit(&st->head, memory_order_relaxed);
    atomic_store_explicit(&st->tail, lane_trim(s, st, t, h), memory_order_release);
    shm_unlock(&s->lock);
}

/* An event lost from a lane: as stream_lose, but recorded no earlier than
 * the last event taken out -- an event staged long before it reached the
 * ring (its thread slow to publish it, or killed) would otherwise give an
 * OVERFLOW older than events already read or in the log (lock held). */
static void lane_lose(struct stream *s, uint64_t ts)
{
    stream_lose(s, ts < s->taken_ts ? s->taken_ts : ts);
}

/* The events the lanes in used dropped, counted in the stream as the ring
 * counts those it overwrites (stream_lose; S0248, S0279); and since a LOOP
 * ring keeps its newest events and nothing older than one it overwrote
 * (S0032), every other event no newer than the newest dropped is lost too:
 * those in the ring now, and those staged, when they reach it (lane_cut;
 * lock held). */
static void lane_account(struct stream *s, uint32_t used)
{
    uint64_t cut = s->lane_cut;
    for (uint32_t m = used; m; m &= m - 1) {
        struct stage *st = &s->stages[__builtin_ctz(m)];
        if (st->dropped != 0 && st->drop_last > cut)
            cut = st->drop_last;
    }
    if (cut != s->lane_cut) {
        s->lane_cut = cut;
        stream_drop_upto(s, cut);
    }
    for (uint32_t m = used; m; m &= m - 1) {
        struct stage *st = &s->stages[__builtin_ctz(m)];
        if (st->dropped == 0)
            continue;
        s->recorded += st->dropped;
        s->lost += st->dropped - 1;
        lane_lose(s, st->drop_ts);      /* the last of them: the oldest's time */
        st->dropped = 0;
    }
}

static void drain_locked(struct stream *s)
{
    shm_lock(&s->lock);
    stage_drain(s);
    shm_unlock(&s->lock);
}

int stage_record(struct stream *s, trace_event_id_t id, const void *data, size_t len,
                 const void *prog)
{
    struct stage_cache *c = &cache;
    /* Still ours?  The owner word shares its line with head, which only
     * this thread writes; a stream mapped since at the same address (a
     * child that unmapped one), or a buffer taken over, fails it. */
    if (__builtin_expect(c->s != s || c->pid != posixtrace_proc.pid ||
                         atomic_load_explicit(&c->st->owner, memory_order_relaxed) != c->token,
                         0)) {
        if (c->none_in == s && --c->retry > 0)
            return 0;
        /* The clock and the origins are the stream's shared state there.
         * A FLUSH stream stops and restarts around each flush it waits
         * for: an event staged while it was stopped would be put in after
         * the restart, behind newer events (the sigkill suite saw time go
         * back in its logs), so it records under the lock: such streams
         * have no buffers (stream.c). */
        if (s->stages[0].cap == 0 || !claim(c, s)) {
            c->none_in = s;             /* the lock for a while: claim() is dear */
            c->retry = 1024;
            return 0;
        }
    }
    if (data == NULL)
        len = 0;
    int truncated = len > c->max_data;
    uint32_t n = truncated ? c->max_data : (uint32_t)len;      /* S0121 */
    uint64_t size = rec_size(n);
    if (size > STAGE_REC_MAX || size > (c->mask + 1) / 4)
        return 0;
    struct stage *st = c->st;
    uint64_t head = atomic_load_explicit(&st->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&st->tail, memory_order_acquire);
    if (head + size - tail > c->mask + 1) {
        if (c->lane)
            lane_drop(s, st);           /* full: its oldest go, as in the ring */
        else
            drain_locked(s);            /* full: into the ring, under the lock */
        tail = atomic_load_explicit(&st->tail, memory_order_acquire);
        if (head + size - tail > c->mask + 1)
            return 0;
    }
    /* The origin: the process and thread are the buffer's (its owner), the
     * program address the caller's, the CPU now. */
    int cpu = origin_cpu();
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct rec_hdr h = {
        .ts = timespec_to_ns(&now), .thread = c->thread, .prog = (uint64_t)(uintptr_t)prog,
        .id = id, .pid = (uint32_t)c->pid, .len = n | (truncated ? REC_TRUNCATED : 0),
        .cpu = cpu,
    };
    uint64_t pos = head & c->mask;
    if (pos + size <= c->mask + 1) {            /* the common case: no wrap */
        unsigned char *p = c->buf + pos;
        ring_put_hdr(p, &h);
        if (n == 8) {
            memcpy(p + sizeof h, data, 8);      /* the common size, inlined */
        } else if (n) {
            uint64_t zero = 0;          /* defined padding: the log copies records */
            memcpy(p + size - 8, &zero, 8);
            memcpy(p + sizeof h, data, n);
        }
    } else {
        struct rec_hdr copy = h;        /* h's address is never taken: it stays in registers */
        rec_put_wrapped(c->buf, c->mask + 1, head, &copy, data, n);
    }
    atomic_store_explicit(&st->head, head + size, memory_order_release);
    /* A reader may wait for it: looked at only when the buffer was empty,
     * since a reader drains it before it waits (the waiters count shares a
     * line with the lock). */
    if (head == tail && __atomic_load_n(&s->waiters, __ATOMIC_RELAXED))
        drain_locked(s);
    return 1;
}

/* One staged event, recorded now (lock held): what record.c does under the
 * lock, with the event's own time and origin. */
static void put_staged(struct stream *s, struct rec_hdr *h, const void *data)
{
    if (!stream_admits(s, h->id))
        return;                         /* filtered out, stopped or full since it was staged */
    if (h->ts <= s->lane_cut) {         /* older than one a lane dropped */
        s->recorded++;
        lane_lose(s, h->ts);
        return;
    }
    uint64_t ts = h->ts < s->last_ts ? s->last_ts : h->ts;
    struct origin o = { h->pid, h->thread, h->prog, h->cpu };
    stream_put_at(s, &ts, h->id, data, h->len & REC_LEN_MASK, (h->len & REC_TRUNCATED) != 0,
                  &o);
}

/* A step of a drain -- events of st put into the ring, then st's tail moved
 * past them -- must look done or not begun to whoever takes the lock over
 * from a process killed in the middle (shm_lock.h): moved at the end of a
 * drain, a tail left behind by a kill had the survivor put the events a
 * second time, after newer ones (the sigkill suite, 1 run in ~90 of make
 * check: "event 207 after event 324: out of order").  So each step is
 * written down in the stream before the ring's head moves, and the next
 * drain finishes one left there: the tail moved if the head did (lock held). */
static void step_begin(struct stream *s, struct stage *st, uint64_t to)
{
    s->drain_head = s->ring.head;
    s->drain_tail = to;
    atomic_store_explicit(&s->drain_stage, (uint32_t)(st - s->stages) + 1, memory_order_relaxed);
    /* Written before the head moves, in the order of the instructions: a
     * process killed stops between two of them, and what it stored before
     * is seen by all once it is gone (a compiler barrier is all it takes). */
    atomic_signal_fence(memory_order_seq_cst);
}

static void step_end(struct stream *s, struct stage *st, uint64_t to)
{
    atomic_store_explicit(&st->tail, to, memory_order_release);
    atomic_store_explicit(&s->drain_stage, 0, memory_order_release);
}

static void step_recover(struct stream *s)
{
    uint32_t i = atomic_load_explicit(&s->drain_stage, memory_order_relaxed);
    if (i == 0)
        return;
    if (s->ring.head != s->drain_head)
        atomic_store_explicit(&s->stages[i - 1].tail, s->drain_tail, memory_order_release);
    atomic_store_explicit(&s->drain_stage, 0, memory_order_relaxed);
}

/* Moves the record at tail out of st into the ring, a step (step_begin);
 * returns its size.  A record that does not wrap is read in place. */
static uint64_t drain_one(struct stream *s, struct stage *st, uint64_t tail)
{
    struct rec_hdr h;
    unsigned char copy[STAGE_REC_MAX];
    const unsigned char *buf = stage_buf(st);
    uint64_t pos = tail & (st->cap - 1);
    const unsigned char *data;
    if (pos + REC_HDR_SIZE <= st->cap) {
        memcpy(&h, buf + pos, sizeof h);
    } else {
        wrap_copy_out(stage_buf(st), st->cap, tail, &h, sizeof h);
    }
    uint32_t len = h.len & REC_LEN_MASK;
    uint64_t size = rec_size(len);
    if (pos + size <= st->cap) {
        data = buf + pos + REC_HDR_SIZE;
    } else {
        wrap_copy_out(stage_buf(st), st->cap, tail + REC_HDR_SIZE, copy, len);
        data = copy;
    }
    step_begin(s, st, tail + size);
    put_staged(s, &h, data);
    step_end(s, st, tail + size);
    return size;
}

/* The same for a run of one buffer's records, [tail, end), copied into the
 * ring at once when that is what drain_one would do record by record: the
 * stream runs, none is filtered out, their times need no raising, and they
 * fit (LOOP: in the ring, the oldest records dropped first; else in the free
 * space, short of the FLUSH mark).  One step (step_begin); returns whether
 * it did. */
static int drain_run(struct stream *s, struct stage *st, uint64_t tail, uint64_t end)
{
    uint64_t bytes = end - tail;
    struct ring *r = &s->ring;
    if (s->state != SLOT_ACTIVE || s->run != POSIX_TRACE_RUNNING ||
        bytes > r->cap - s->reserve)
        return 0;
    if (s->policy != POSIX_TRACE_LOOP &&
        (bytes > r->cap - s->reserve - ring_used(r) ||
         (s->flush_mark && ring_used(r) + bytes >= s->flush_mark)))
        return 0;
    uint64_t last = s->last_ts, records = 0;
    for (uint64_t t = tail; t < end; records++) {
        uint64_t ts;
        uint32_t id, len;
        STAGE_HDR_FIELD(st, t, ts, &ts);
        STAGE_HDR_FIELD(st, t, id, &id);
        STAGE_HDR_FIELD(st, t, len, &len);
        if (ts < last || ts <= s->lane_cut || eventset_has(&s->filter, id))
            return 0;
        last = ts;
        t += rec_size(len & REC_LEN_MASK);
    }
    step_begin(s, st, end);
    if (r->cap - ring_used(r) < bytes)
        stream_make_room(s, bytes);     /* LOOP: the oldest go (S0032) */
    const unsigned char *buf = stage_buf(st);
    uint64_t pos = tail & (st->cap - 1), first = st->cap - pos;
    if (bytes <= first) {
        ring_copy_in(r, r->head, buf + pos, bytes);
    } else {
        ring_copy_in(r, r->head, buf + pos, first);
        ring_copy_in(r, r->head + first, buf, bytes - first);
    }
    r->head += bytes;
    s->recorded += records;             /* as stream_write counts each (stream_counts.c) */
    s->last_ts = last;
    step_end(s, st, end);
    if (s->waiters)
        shm_cond_broadcast(&s->readable);
    return 1;
}

/* Set while this thread drains: putting a staged event into a FLUSH stream
 * may flush (stream_flush_make_room), and the flush drains the staging
 * again (log_flusher.c) -- from the tail not yet stored past the event being
 * put, which it would put a second time, out of order.  The lock is held by
 * this thread, so a flag of the thread's own suffices. */
static _Thread_local int draining TLS_IE;

static void drain_all(struct stream *s, uint32_t used);

void stage_drain(struct stream *s)
{
    uint32_t used = atomic_load_explicit(&s->stages_used, memory_order_acquire);
    if (used == 0 || draining)
        return;
    draining = 1;
    step_recover(s);                    /* a drain a killed process left */
    lane_account(s, used);
    drain_all(s, used);
    draining = 0;
}

static void drain_all(struct stream *s, uint32_t used)
{
    for (;;) {
        struct stage *best = NULL;
        uint64_t best_ts = 0, best_tail = 0, best_head = 0;
        int busy = 0;
        for (uint32_t m = used; m; m &= m - 1) {
            struct stage *st = &s->stages[__builtin_ctz(m)];
            uint64_t t = atomic_load_explicit(&st->tail, memory_order_relaxed);
            uint64_t h = atomic_load_explicit(&st->head, memory_order_acquire);
            if (t == h)
                continue;
            busy++;
            uint64_t ts;
            wrap_copy_out(stage_buf(st), st->cap, t, &ts, sizeof ts);
            if (best == NULL || ts < best_ts) {
                best = st;
                best_ts = ts;
                best_tail = t;
                best_head = h;
            }
        }
        if (best == NULL)
            return;
        /* One buffer with events (one thread records): all of them in a
         * row, no merging; else the oldest event of all, then look again. */
        uint64_t end = busy == 1 ? best_head : best_tail + 1;
        uint64_t t = best_tail;
        if (busy == 1 && s->policy == POSIX_TRACE_LOOP && end - t > s->ring.cap) {
            t = lane_trim(s, best, t, end);     /* more than the ring holds: */
            atomic_store_explicit(&best->tail, t, memory_order_release);
            lane_account(s, 1u << (best - s->stages));  /* the oldest are overwritten */
        }
        if (busy == 1 && drain_run(s, best, t, end))
            t = end;
        while (t < end)
            t += drain_one(s, best, t);
    }
}

int stage_wait_deadline(const struct stream *s, const struct timespec *abstime,
                        struct timespec *until)
{
    if (atomic_load_explicit(&s->stages_used, memory_order_relaxed) == 0)
        return 0;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t t = timespec_to_ns(&now) + STAGE_POLL_NS;
    if (abstime != NULL && (abstime->tv_sec < 0 || timespec_to_ns(abstime) < t)) {
        *until = *abstime;
        return 1;
    }
    ns_to_timespec(t, until);
    return 1;
}

/* Every call that takes a stream's lock through the table moves the staged
 * events into the ring first, so that it sees them (stream_table.h). */
__attribute__((constructor)) static void stage_hook_at_load(void)
{
    stream_acquire_hook = stage_drain;
}
