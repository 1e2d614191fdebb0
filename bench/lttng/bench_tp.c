/* SPDX-License-Identifier: MIT */
/* bench_tp.c -- the probe of bench_tp.h's provider, built into bench_lttng. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "bench_tp.h"
