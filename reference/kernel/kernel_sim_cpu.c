/* SPDX-License-Identifier: MIT */
/*
 * kernel_sim_cpu.c -- the simulated CPUs' cycle counters (KSP-15) and the
 * timestamps given to their events (KSP-9), with the test of KSP-17: does
 * the next stamp of a CPU carry a new high word, so that a TIME event must
 * come first?
 *
 * All counters run at the same rate from seeded start values: a CPU's
 * counter is start[cpu] + now, where now is the simulated time in cycles.
 * The stamps themselves are the codec's (slot_clock_stamp), so the rule "no
 * two events of a CPU share a timestamp" is implemented once.
 */
#include "kernel/kernel_sim_impl.h"

/* With wrap_early, each counter starts at most this many mean gaps before
 * its low word wraps, so that a short run sees a wrap on every CPU. */
#define WRAP_EARLY_GAPS 2000u

void ksim_cpus_init(struct ksim_cpus *c, const struct ksim_config *cfg, struct ksim_rng *rng)
{
    /* cfg is checked: gap_ns <= 1e9 and cps <= 1e11, so the product fits. */
    uint64_t gap = cfg->gap_ns * cfg->cycles_per_sec / UINT64_C(1000000000);

    c->n = cfg->ncpus;
    c->now = 0;
    c->mean_gap = gap > 0 ? gap : 1;
    slot_clock_init(&c->clock);
    for (unsigned i = 0; i < SLOT_NCPUS; i++) {
        /* A high word below 2^30 leaves 2^94 cycles before the 64-bit
         * counter itself could wrap: never, in a simulation. */
        uint64_t high = ksim_rng_next(rng) >> 34;
        uint64_t low = ksim_rng_next(rng) >> 32;
        if (cfg->wrap_early) {
            uint64_t before = 1 + ksim_rng_next(rng) % (WRAP_EARLY_GAPS * c->mean_gap);
            low = before > UINT32_MAX ? 0 : UINT32_MAX + UINT64_C(1) - before;
        }
        c->start[i] = high << 32 | low;
    }
}

void ksim_cpus_advance(struct ksim_cpus *c, struct ksim_rng *rng)
{
    uint64_t r = ksim_rng_next(rng);
    if ((r & 15) == 0)
        return;         /* the clock has not moved: the next stamp is bumped */
    c->now += 1 + (r >> 4) % (2 * c->mean_gap - 1);     /* mean_gap >= 1 */
}

uint64_t ksim_cpu_counter(const struct ksim_cpus *c, unsigned cpu)
{
    return c->start[cpu] + c->now;
}

/* What slot_clock_stamp will give cpu now. */
static uint64_t next_stamp(const struct ksim_cpus *c, unsigned cpu)
{
    uint64_t now = ksim_cpu_counter(c, cpu);
    if ((c->clock.stamped >> cpu & 1) && now <= c->clock.last[cpu])
        return c->clock.last[cpu] + 1;
    return now;
}

int ksim_cpu_needs_time(const struct ksim_cpus *c, unsigned cpu)
{
    if (!(c->clock.stamped >> cpu & 1))
        return 1;       /* the CPU's first stamp: its high word is not known */
    return next_stamp(c, cpu) >> 32 != c->clock.last[cpu] >> 32;
}

uint64_t ksim_cpu_stamp(struct ksim_cpus *c, unsigned cpu, int *bumped)
{
    uint64_t now = ksim_cpu_counter(c, cpu), ts = now;
    /* cpu < 64 always (the configuration is checked), so this cannot fail. */
    (void)slot_clock_stamp(&c->clock, cpu, now, &ts, NULL);
    if (bumped)
        *bumped = ts != now;
    return ts;
}
