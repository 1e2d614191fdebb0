/* SPDX-License-Identifier: MIT */
/* sim_cpu.h -- the simulated CPU of the calling thread (posixtrace_sim.h). */
#ifndef POSIXTRACE_SIM_CPU_H
#define POSIXTRACE_SIM_CPU_H

#include "stream/tls.h"

extern _Thread_local int posixtrace_sim_cpu_plus1 TLS_IE;   /* 0: none */

static inline int sim_cpu_of_thread(void) { return posixtrace_sim_cpu_plus1 - 1; }

#endif
