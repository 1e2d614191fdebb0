/* SPDX-License-Identifier: MIT */
/*
 * kernel_sim.c -- one run of the simulated kernel (<posixtrace_kernel.h>): the
 * configuration, the scheduler that decides which CPU acts next, the events
 * in progress, and the start and stop of tracing.
 *
 * A step of the simulation: time moves on (kernel_sim_cpu.c), a CPU is
 * picked (seeded), and that CPU either writes the next one to three slots
 * of the event it is in the middle of, or begins a new one: the logger's
 * clock ticks, the workload says what the event is, the ring finds room for
 * it (or drops it), the event is stamped, encoded with the codec and its
 * first slots written.  Because a CPU writes a combine event over several
 * steps while the others go on, the slots of combine events of different
 * CPUs interleave (KSP-13) and some straddle buffers (KSP-21), as on a real
 * multiprocessor.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/kernel_sim_impl.h"

void ksim_config_default(struct ksim_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->ncpus = 1;
    cfg->seed = 1;
    cfg->mode = KSIM_LINEAR;
    cfg->nbuffers = 32;
    cfg->cycles_per_sec = UINT64_C(1000000000);
    cfg->gap_ns = 500;
    cfg->logger_lanes = 1;
    cfg->syspage_len = 256;
}

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return EINVAL;
}

int ksim_config_check(const struct ksim_config *c, char *err, size_t errlen)
{
    if (c->ncpus < 1 || c->ncpus > SLOT_NCPUS)
        return bad(err, errlen, "cpus: %u is not a number of CPUs from 1 to 64", c->ncpus);
    if (c->mode != KSIM_LINEAR && c->mode != KSIM_RING)
        return bad(err, errlen, "mode: %d is neither linear nor ring", (int)c->mode);
    if (c->nbuffers < 2 || c->nbuffers > KSIM_MAX_BUFFERS)
        return bad(err, errlen, "buffers: %u is not a number of buffers from 2 to %d",
                   c->nbuffers, KSIM_MAX_BUFFERS);
    if (c->cycles_per_sec < 1 || c->cycles_per_sec > KSIM_MAX_CPS)
        return bad(err, errlen, "cycles per second: %llu is not from 1 to %llu",
                   (unsigned long long)c->cycles_per_sec, (unsigned long long)KSIM_MAX_CPS);
    if (c->gap_ns < 1 || c->gap_ns > KSIM_MAX_GAP_NS)
        return bad(err, errlen, "gap: %llu ns is not from 1 to %llu ns",
                   (unsigned long long)c->gap_ns, (unsigned long long)KSIM_MAX_GAP_NS);
    /* A step stays well under a low word's period (2^32 cycles), so that a
     * decoder that infers one wrap when a low word goes back (KSP-17) is
     * right as often as possible for the BUFFER event, which no TIME event
     * may precede. */
    if (c->gap_ns > (UINT64_C(1) << 28) * UINT64_C(1000000000) / c->cycles_per_sec)
        return bad(err, errlen, "gap: %llu ns at %llu cycles per second is more than 2^28 "
                   "cycles a step", (unsigned long long)c->gap_ns,
                   (unsigned long long)c->cycles_per_sec);
    if (c->logger_lanes < 1 || c->logger_lanes > KSIM_MAX_LANES)
        return bad(err, errlen, "logger lanes: %u is not from 1 to %d", c->logger_lanes,
                   KSIM_MAX_LANES);
    if (c->logger_jitter > 100)
        return bad(err, errlen, "logger jitter: %u%% is not from 0 to 100", c->logger_jitter);
    if (c->logger_every > UINT64_MAX / 200)
        return bad(err, errlen, "logger speed: one buffer every %llu events is too slow",
                   (unsigned long long)c->logger_every);
    if (c->syspage_len > 65536)
        return bad(err, errlen, "system page: %zu bytes is more than 65536", c->syspage_len);
    return 0;
}

unsigned ksim_max_event_slots(unsigned ncpus)
{
    /* After the high-water mark (714) no event begins, and the one that
     * began at 713 at the latest, with its TIME slot, and one event in
     * progress per other CPU must fit in 1014: ncpus * (max + 1) <= 301. */
    unsigned m = 301 / (ncpus ? ncpus : 1) - 1;
    return m < KSIM_MAX_EVENT_SLOTS ? m : KSIM_MAX_EVENT_SLOTS;
}

int ksim_fail(struct ksim *k, int rc, const char *fmt, ...)
{
    if (k->err && k->errlen > 0 && k->err[0] == '\0') {     /* the first error wins */
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(k->err, k->errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

int ksim_sink_stdio(void *user, const void *bytes, size_t n)
{
    FILE *f = user;
    if (fwrite(bytes, 1, n, f) != n)
        return ferror(f) && errno ? errno : EIO;
    return 0;
}

/* ---- events --------------------------------------------------------------------- */

/* Writes the next one to three slots of cpu's event in progress. */
static int write_some(struct ksim *k, unsigned cpu)
{
    struct ksim_pending *p = &k->pend[cpu];
    unsigned m = 1 + ksim_rng_below(&k->sched, 3);

    while (m-- > 0 && p->next < p->n) {
        int rc = ksim_ring_put(k, &p->slots[p->next]);
        if (rc != 0)
            return rc;
        if (p->next == 0)
            ksim_ring_count_event(k);
        else if (ksim_ring_seq(k) != p->first_seq)
            p->straddles = 1;
        p->next++;
    }
    if (p->next == p->n) {
        k->busy_cpus &= ~((uint64_t)1 << cpu);
        k->st.straddling_events += (unsigned)p->straddles;
    } else {
        k->busy_cpus |= (uint64_t)1 << cpu;
    }
    return 0;
}

static int begin_event(struct ksim *k, unsigned cpu)
{
    struct ksim_event ev;
    struct ksim_pending *p = &k->pend[cpu];
    uint64_t ts;
    size_t n = 0;
    int rc;

    k->tick++;
    if ((rc = ksim_logger_tick(k)) != 0)
        return rc;
    ksim_workload_next(&k->work, cpu, &ev);
    k->st.events_generated++;
    k->st.events_per_ext_class[ev.ext_class]++;
    if ((rc = ksim_ring_reserve(k, cpu, ev.nslots)) != 0)
        return rc == 1 ? 0 : rc;            /* 1: dropped, and counted */
    if ((rc = ksim_ring_stamp(k, cpu, &ts)) != 0)
        return rc;

    struct slot_key key = { cpu, ev.cls, ev.event, (uint32_t)ts };
    rc = ev.is_string ? slot_encode_string(&key, ev.str, p->slots, KSIM_MAX_EVENT_SLOTS, &n)
                      : slot_encode_words(&key, ev.words, ev.nwords, p->slots,
                                          KSIM_MAX_EVENT_SLOTS, &n);
    if (rc != 0 || n != ev.nslots)
        return ksim_fail(k, EOVERFLOW, "internal error: event of class %u, code %u on cpu %u "
                         "did not encode into %zu slots: %s", ev.cls, ev.event, cpu,
                         ev.nslots, rc ? strerror(rc) : "slot count differs");
    p->n = (unsigned)n;
    p->next = 0;
    p->first_seq = ksim_ring_seq(k);
    p->straddles = 0;
    k->st.events_written++;
    k->st.events_per_class[ev.cls]++;
    k->st.events_per_cpu[cpu]++;
    k->st.combine_events += n > 1;
    return write_some(k, cpu);
}

/* After the last event has begun: one of the CPUs still writing, picked
 * from a seeded start so that their slots still interleave. */
static unsigned busy_cpu(struct ksim *k)
{
    unsigned n = k->cfg.ncpus, c = ksim_rng_below(&k->sched, n);
    while (!(k->busy_cpus >> c & 1))
        c = (c + 1) % n;
    return c;
}

static int simulate(struct ksim *k, const struct ksim_progress *progress)
{
    const uint64_t total = k->cfg.nevents;
    int rc;

    if ((rc = ksim_logger_header(k)) != 0 || (rc = ksim_ring_start(k, 0)) != 0)
        return rc;
    while (k->tick < total || k->busy_cpus != 0) {
        unsigned cpu = k->tick < total ? ksim_rng_below(&k->sched, k->cfg.ncpus) : busy_cpu(k);
        ksim_cpus_advance(&k->cpus, &k->sched);
        if (k->busy_cpus >> cpu & 1) {
            rc = write_some(k, cpu);
        } else {
            rc = begin_event(k, cpu);
            if (progress && progress->fn && (k->tick & 0xFFFF) == 0)
                progress->fn(progress->user, k->tick, total);
        }
        if (rc != 0)
            return rc;
    }
    if ((rc = ksim_ring_stop(k, 0)) != 0)
        return rc;
    if (progress && progress->fn)
        progress->fn(progress->user, k->tick, total);
    return 0;
}

int ksim_run(const struct ksim_config *cfg, const struct ksim_sink *sink,
             const struct ksim_progress *progress, struct ksim_stats *stats,
             char *err, size_t errlen)
{
    struct ksim *k;
    struct ksim_rng clock_rng;
    int rc;

    if (err && errlen > 0)
        err[0] = '\0';
    if (cfg == NULL || sink == NULL || sink->write == NULL)
        return bad(err, errlen, "ksim_run: no configuration or no sink");
    if ((rc = ksim_config_check(cfg, err, errlen)) != 0)
        return rc;
    if ((k = calloc(1, sizeof *k)) == NULL) {
        bad(err, errlen, "out of memory");
        return ENOMEM;
    }
    k->cfg = *cfg;
    k->err = err;
    k->errlen = errlen;
    ksim_rng_seed(&k->sched, cfg->seed, RNG_SCHED);
    ksim_rng_seed(&clock_rng, cfg->seed, RNG_CLOCK);
    ksim_cpus_init(&k->cpus, cfg, &clock_rng);
    ksim_workload_init(&k->work, cfg->seed, cfg->ncpus);
    if ((rc = ksim_ring_init(k)) != 0 || (rc = ksim_logger_init(k, sink)) != 0)
        rc = ksim_fail(k, rc, "out of memory for %u buffers", cfg->nbuffers);
    else
        rc = simulate(k, progress);
    if (stats)
        *stats = k->st;
    ksim_logger_free(k);
    ksim_ring_free(k);
    free(k);
    return rc;
}
