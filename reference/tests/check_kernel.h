/* SPDX-License-Identifier: MIT */
/*
 * check_kernel.h -- helpers of the kernel simulator's unit tests
 * (check_kernel_*.c): a run into memory, the slots of the file it wrote,
 * and a decoding of it with the codec.
 */
#ifndef CHECK_KERNEL_H
#define CHECK_KERNEL_H

#include "ck.h"
#include <stddef.h>
#include <stdint.h>
#include <posixtrace_kernel.h>
#include "slot/trace_file.h"

/* A simulated trace in memory. */
struct kt_trace {
    unsigned char *file;
    size_t len, cap;
    struct ksim_stats st;
    struct trace_file_info *info;   /* parsed header */
    traceevent_t *slots;            /* the file's slots, in host order */
    size_t nslots;
};

/* A configuration: defaults, then the fields given. */
struct ksim_config kt_config(unsigned cpus, uint64_t events, uint64_t seed);

/* Runs cfg into t (asserts success); kt_free releases it. */
void kt_run(const struct ksim_config *cfg, struct kt_trace *t);
void kt_free(struct kt_trace *t);

/* What the codec decodes of t. */
struct kt_decoded {
    struct slot_summary sum;
    uint64_t workload_events;       /* CONTROL and tails excluded */
    uint64_t tails;                 /* incomplete rests of events begun in buffers not
                                     * in the file (ring mode, KSP-14) */
    uint64_t per_cpu_last[SLOT_NCPUS];
    int time_went_back;             /* a CPU's time did not increase (BUFFER excluded) */
    unsigned max_slots;             /* the longest event */
};
void kt_decode(const struct kt_trace *t, struct kt_decoded *d);

/* Slot i's fields. */
int kt_is_control(const traceevent_t *s, unsigned event);


#endif
