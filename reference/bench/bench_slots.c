/* SPDX-License-Identifier: MIT */
/*
 * bench_slots.c -- throughput of the slot codec (make bench): slots encoded
 * and decoded per second, best of several rounds, one thread on one core.
 * The developers' guide targets decoding at 100 M slots a second; simple
 * events with nothing held back take the decoder's fast path, interleaved
 * combine events of several CPUs its queue.
 *
 * Usage: bench_slots [slots]   (default 2 M slots a round)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "slot/slot_codec.h"
#include "slot/trace_file.h"

#define ROUNDS 5

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* What a consumer does at least: look at the event. */
struct tally {
    uint64_t events, sum;
};

static void on_event(void *user, const struct slot_event *ev)
{
    struct tally *t = user;
    t->events++;
    t->sum += ev->time ^ ev->words[0];
}

static void die(const char *what)
{
    fprintf(stderr, "bench_slots: %s\n", what);
    exit(1);
}

/* Encodes events of nwords words on CPU 0 until n slots are written;
 * returns slots per second (best round). */
static double bench_encode(traceevent_t *out, size_t n, size_t nwords)
{
    uint32_t words[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    size_t per = slot_count(nwords);
    double best = 0;
    for (int r = 0; r < ROUNDS; r++) {
        struct slot_key k = { 0, SLOT_CLASS_USER, 12, 0 };
        size_t at = 0, got;
        double t0 = now_s();
        while (at + per <= n) {
            k.ts_low++;
            if (slot_encode_words(&k, words, nwords, out + at, n - at, &got) != 0)
                die("encode failed");
            at += got;
        }
        double rate = (double)at / (now_s() - t0);
        if (rate > best)
            best = rate;
    }
    return best;
}

/* Decodes the n slots of s; returns slots per second (best round) and
 * checks the number of events. */
static double bench_decode(const traceevent_t *s, size_t n, uint64_t want_events)
{
    double best = 0;
    for (int r = 0; r < ROUNDS; r++) {
        struct tally t = { 0, 0 };
        struct slot_decoder d;
        struct slot_decoder_config cfg = { on_event, NULL, &t, 0, 0 };
        if (slot_decoder_init(&d, &cfg) != 0)
            die("decoder init failed");
        double t0 = now_s();
        slot_decoder_feed(&d, s, n, 0);
        slot_decoder_finish(&d);
        double rate = (double)n / (now_s() - t0);
        struct slot_summary sum;
        slot_decoder_summary(&d, &sum);
        slot_decoder_free(&d);
        if (t.events != want_events || sum.errors != 0)
            die("decoded the wrong number of events");
        if (rate > best)
            best = rate;
    }
    return best;
}

/* The same through trace_file_feed (copy, and byte swap if swap). */
static double bench_file_feed(const traceevent_t *s, size_t n, uint64_t want_events, int swap)
{
    struct trace_file_info info;
    double best = 0;
    const uint32_t one = 1;
    unsigned char host_little;
    memcpy(&host_little, &one, 1);
    memset(&info, 0, sizeof info);
    info.swap = swap;
    info.big_endian = host_little ? swap : !swap;
    for (int r = 0; r < ROUNDS; r++) {
        struct tally t = { 0, 0 };
        struct slot_decoder d;
        struct slot_decoder_config cfg = { on_event, NULL, &t, 0, 0 };
        if (slot_decoder_init(&d, &cfg) != 0)
            die("decoder init failed");
        double t0 = now_s();
        trace_file_feed(&info, &d, s, n * sizeof *s, 0);
        slot_decoder_finish(&d);
        double rate = (double)n / (now_s() - t0);
        slot_decoder_free(&d);
        if (t.events != want_events)
            die("decoded the wrong number of events");
        if (rate > best)
            best = rate;
    }
    return best;
}

static uint32_t swap32(uint32_t x)
{
    return (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24);
}

/* n simple events, 2 words each, on `cpus` CPUs in turn. */
static uint64_t make_simple(traceevent_t *s, size_t n, unsigned cpus)
{
    uint32_t ts[SLOT_NCPUS] = { 0 };
    for (size_t i = 0; i < n; i++) {
        unsigned cpu = (unsigned)(i % cpus);
        s[i].header = slot_header(_TRACE_STRUCT_S, cpu, SLOT_CLASS_KER_CALL, i & 0x7F);
        s[i].data[0] = ts[cpu] += 3;
        s[i].data[1] = (uint32_t)i;
        s[i].data[2] = (uint32_t)~i;
    }
    return n;
}

/* Events on `cpus` CPUs, one in `every` a combine event of 3 slots, the
 * slots of the CPUs interleaved at random.  Returns the number of events. */
static uint64_t make_mixed(traceevent_t *s, size_t n, unsigned cpus, unsigned every)
{
    traceevent_t pend[SLOT_NCPUS][4];
    unsigned np[SLOT_NCPUS] = { 0 }, ip[SLOT_NCPUS] = { 0 };
    uint32_t ts[SLOT_NCPUS] = { 0 }, words[6] = { 1, 2, 3, 4, 5, 6 };
    uint64_t rng = 12345, events = 0;
    size_t at = 0, got;
    while (at < n) {
        unsigned cpu = (unsigned)(rnd(&rng) % cpus);
        if (ip[cpu] < np[cpu]) {
            s[at++] = pend[cpu][ip[cpu]++];
            continue;
        }
        /* A new event may start only if all its slots will fit. */
        size_t left = n - at;
        for (unsigned c = 0; c < cpus; c++)
            left -= np[c] - ip[c];
        struct slot_key k = { cpu, SLOT_CLASS_USER, 7, ts[cpu] += 5 };
        size_t nw = rnd(&rng) % every == 0 ? 6 : 2;
        if (slot_count(nw) > left)
            nw = 2;
        if (left == 0)
            break;
        if (slot_encode_words(&k, words, nw, pend[cpu], 4, &got) != 0)
            die("encode failed");
        s[at++] = pend[cpu][0];
        np[cpu] = (unsigned)got;
        ip[cpu] = 1;
        events++;
    }
    for (unsigned c = 0; c < cpus; c++)      /* what is still pending fits */
        while (ip[c] < np[c] && at < n)
            s[at++] = pend[c][ip[c]++];
    if (at != n)
        die("mixed workload does not fill the array");
    return events;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 2000000;
    traceevent_t *s = malloc(n * sizeof *s);
    if (s == NULL || n < 1000)
        die("cannot allocate the slots (or fewer than 1000 asked)");

    printf("%-56s %8.1f M slots/s\n", "encode simple events (2 words)",
           bench_encode(s, n, 2) / 1e6);
    printf("%-56s %8.1f M slots/s\n", "encode combine events (5 words, 3 slots)",
           bench_encode(s, n, 5) / 1e6);

    uint64_t ev = make_simple(s, n, 1);
    printf("%-56s %8.1f M slots/s\n", "decode simple events, 1 CPU (fast path)",
           bench_decode(s, n, ev) / 1e6);
    ev = make_simple(s, n, 8);
    printf("%-56s %8.1f M slots/s\n", "decode simple events, 8 CPUs (fast path)",
           bench_decode(s, n, ev) / 1e6);
    printf("%-56s %8.1f M slots/s\n", "decode simple events from file bytes (copy)",
           bench_file_feed(s, n, ev, 0) / 1e6);
    for (size_t i = 0; i < n; i++) {        /* the same slots stored the other way */
        s[i].header = swap32(s[i].header);
        for (int j = 0; j < 3; j++)
            s[i].data[j] = swap32(s[i].data[j]);
    }
    printf("%-56s %8.1f M slots/s\n", "decode from file bytes of the other byte order",
           bench_file_feed(s, n, ev, 1) / 1e6);
    ev = make_mixed(s, n, 1, 10);
    printf("%-56s %8.1f M slots/s\n", "decode 1 CPU, 1 event in 10 a combine",
           bench_decode(s, n, ev) / 1e6);
    ev = make_mixed(s, n, 4, 10);
    printf("%-56s %8.1f M slots/s\n", "decode 4 CPUs interleaved, 1 event in 10 a combine",
           bench_decode(s, n, ev) / 1e6);
    ev = make_mixed(s, n, 4, 1);
    printf("%-56s %8.1f M slots/s\n", "decode 4 CPUs interleaved, all combine",
           bench_decode(s, n, ev) / 1e6);
    free(s);
    return 0;
}
