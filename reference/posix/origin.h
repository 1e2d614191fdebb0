/* SPDX-License-Identifier: MIT */
/*
 * origin.h -- the origin of an event (XSH posix_trace_event: the process,
 * thread, program address and, here, CPU it was recorded from).
 *
 * Inline and without a call in the common case: read for every event
 * recorded.  The thread's pthread_t is kept by the thread (it never changes;
 * fork gives the child's thread its own, origin.c forgets it there), and
 * the CPU is read from the word the kernel keeps for the thread (rseq) where
 * the C library registers one, else asked of sched_getcpu.  The thread keeps
 * the word's address too.
 */
#ifndef POSIXTRACE_ORIGIN_H
#define POSIXTRACE_ORIGIN_H

#include <stddef.h>
#include <stdint.h>
#include "posix/process.h"
#include "stream/sim_cpu.h"
#include "stream/tls.h"

/* Identity of an event's origin; system events with none use all zeros. */
struct origin {
    uint32_t pid;
    uint64_t thread;
    uint64_t prog;
    int32_t  cpu;
};

extern _Thread_local uint64_t posixtrace_thread_word TLS_IE;   /* 0: not known yet */
/* Where the kernel keeps the thread's CPU (rseq), set with the word above;
 * NULL: none, ask sched_getcpu. */
extern _Thread_local const volatile int32_t *posixtrace_cpu_word TLS_IE;

/* pthread_self() as a word, kept in posixtrace_thread_word, and the CPU
 * word found (origin.c). */
uint64_t origin_thread_slow(void);
/* The CPU, asked of the system (origin.c). */
int origin_cpu_slow(void);

static inline uint64_t origin_thread(void)
{
    uint64_t t = posixtrace_thread_word;
    return __builtin_expect(t != 0, 1) ? t : origin_thread_slow();
}

/* The CPU of an event now: the simulated one of the thread, else the real.
 * Called after origin_thread(), which finds the CPU word. */
static inline int origin_cpu(void)
{
    int cpu = sim_cpu_of_thread();
    if (cpu >= 0)
        return cpu;
    const volatile int32_t *w = posixtrace_cpu_word;
    if (w != NULL) {
        int32_t c = *w;
        if (c >= 0)
            return c;
    }
    return origin_cpu_slow();
}

/* The origin of an event recorded by the calling thread at address prog. */
static inline void origin_of_caller(struct origin *o, const void *prog)
{
    o->pid = (uint32_t)posixtrace_proc.pid;
    o->thread = origin_thread();        /* first: it finds the CPU word */
    o->prog = (uint64_t)(uintptr_t)prog;
    o->cpu = origin_cpu();
}

#endif
