/* SPDX-License-Identifier: MIT */
/*
 * bench_kernel.c -- throughput of the simulated kernel trace (make bench):
 * slots per second encoded by the simulator (workload, stamps, encoder,
 * buffers and logger, into memory), decoded from the file it wrote (header,
 * byte order, reassembly), and printed by the dumper as text and as JSON
 * (into /dev/null).  Best of three rounds (one for the dumps), one thread,
 * a few seconds.
 *
 * Usage: bench_kernel [events]   (default 2,000,000 events on 4 CPUs)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <posixtrace_kernel.h>
#include "dump/dump.h"
#include "slot/trace_file.h"

#define ROUNDS 3
#define DUMP_ROUNDS 1     /* the dumps are slow: one round keeps make bench short */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct mem {
    unsigned char *p;
    size_t len, cap;
};

static int to_mem(void *user, const void *b, size_t n)
{
    struct mem *m = user;
    if (n > m->cap - m->len) {
        size_t c = m->cap ? m->cap : 1 << 20;
        while (c - m->len < n)
            c *= 2;
        unsigned char *p = realloc(m->p, c);
        if (p == NULL)
            return 12;
        m->p = p;
        m->cap = c;
    }
    memcpy(m->p + m->len, b, n);
    m->len += n;
    return 0;
}

static void count(void *user, const struct slot_event *ev)
{
    uint64_t *n = user;
    *n += ev->nslots;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_kernel: %s\n", what);
    exit(1);
}

int main(int argc, char **argv)
{
    struct ksim_config cfg;
    struct ksim_stats st;
    struct mem m = { NULL, 0, 0 };
    char err[256];
    double best_enc = 0, best_dec = 0, best_text = 0, best_json = 0;

    ksim_config_default(&cfg);
    cfg.ncpus = 4;
    cfg.nevents = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    cfg.seed = 7;
    cfg.nbuffers = 8;
    cfg.logger_every = 700;
    cfg.logger_lanes = 2;
    cfg.logger_jitter = 80;
    cfg.wrap_early = 1;

    for (int r = 0; r < ROUNDS; r++) {
        m.len = 0;
        struct ksim_sink sink = { to_mem, &m };
        double t0 = now_s();
        if (ksim_run(&cfg, &sink, NULL, &st, err, sizeof err) != 0)
            die(err);
        double rate = (double)st.slots_written / (now_s() - t0);
        best_enc = rate > best_enc ? rate : best_enc;
    }
    struct trace_file_info *info = malloc(sizeof *info);
    if (info == NULL)
        die("out of memory");
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t slots = 0;
        struct slot_decoder d;
        struct slot_decoder_config dc = { .on_event = count, .user = &slots };
        if (slot_decoder_init(&d, &dc) != 0)
            die("out of memory");
        double t0 = now_s();
        if (trace_file_decode(m.p, m.len, &d, info, err, sizeof err) != 0)
            die(err);
        double rate = (double)info->nslots / (now_s() - t0);
        slot_decoder_free(&d);
        if (slots != info->nslots)
            die("the decoder lost slots");
        best_dec = rate > best_dec ? rate : best_dec;
    }
    FILE *null = fopen("/dev/null", "w");
    if (null == NULL)
        die("cannot open /dev/null");
    for (int r = 0; r < DUMP_ROUNDS; r++) {
        for (int fmt = 0; fmt < 2; fmt++) {
            struct dump_options o = { .format = (enum dump_format)fmt };
            struct dump_result res;
            double t0 = now_s();
            if (dump_mem(m.p, m.len, null, &o, &res, err, sizeof err) != 0)
                die(err);
            double rate = (double)res.sum.slots / (now_s() - t0);
            double *best = fmt ? &best_json : &best_text;
            *best = rate > *best ? rate : *best;
        }
    }
    fclose(null);
    printf("kernel trace: %llu events on %u CPUs, %llu slots (%.1f MB), %llu dropped\n",
           (unsigned long long)st.events_generated, cfg.ncpus,
           (unsigned long long)st.slots_written, (double)m.len / 1e6,
           (unsigned long long)st.events_dropped);
    printf("  simulate and encode   %7.1f M slots/s\n", best_enc / 1e6);
    printf("  decode (file, codec)  %7.1f M slots/s\n", best_dec / 1e6);
    printf("  dump as text          %7.1f M slots/s\n", best_text / 1e6);
    printf("  dump as JSON          %7.1f M slots/s\n", best_json / 1e6);
    free(info);
    free(m.p);
    return 0;
}
