/* SPDX-License-Identifier: MIT */
/*
 * bench_tp.h -- the LTTng-UST tracepoint provider of 'make bench-compare'
 * (bench/compare.py): one event, bench:ev8, with an 8-byte payload, as the
 * reference's bench records 8 bytes (reference/bench/bench_compare.c).
 * The provider header pattern of lttng-ust(3): read twice, once for the
 * declarations and once (TRACEPOINT_CREATE_PROBES, bench_tp.c) for the probe.
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./bench_tp.h"

#if !defined(BENCH_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

TRACEPOINT_EVENT(bench, ev8,
    TP_ARGS(uint64_t, v),
    TP_FIELDS(ctf_integer(uint64_t, v, v)))

#endif

#include <lttng/tracepoint-event.h>
