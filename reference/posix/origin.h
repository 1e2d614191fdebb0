/* SPDX-License-Identifier: MIT */
/*
 * origin.h -- the origin of an event (XSH posix_trace_event: the process,
 * thread, program address and, here, CPU it was recorded from).
 *
 * Inline and without a call in the common case: read for every event
 * recorded.  The thread's pthread_t is kept by the thread (it never changes;
 * fork gives the child's thread its own, origin.c forgets it there), and
 * the CPU is read from the word the kernel keeps for the thread (rseq) where
 * the C library registers one, else asked of sched_getcpu.
 */
#ifndef POSIXTRACE_ORIGIN_H
#define POSIXTRACE_ORIGIN_H

#include <stddef.h>
#include <stdint.h>
#include "posix/process.h"
#include "stream/sim_cpu.h"

/* Identity of an event's origin; system events with none use all zeros. */
struct origin {
    uint32_t pid;
    uint64_t thread;
    uint64_t prog;
    int32_t  cpu;
};

/* Initial-exec: a load at a fixed offset from the thread pointer, where the
 * default model of a shared library calls __tls_get_addr. */
#if defined(__GNUC__)
#define ORIGIN_TLS __attribute__((tls_model("initial-exec")))
#else
#define ORIGIN_TLS
#endif

extern _Thread_local uint64_t posixtrace_thread_word ORIGIN_TLS;   /* 0: not known yet */

/* pthread_self() as a word, kept in posixtrace_thread_word (origin.c). */
uint64_t origin_thread_slow(void);
/* The CPU, asked of the system (origin.c). */
int origin_cpu_slow(void);

static inline uint64_t origin_thread(void)
{
    uint64_t t = posixtrace_thread_word;
    return __builtin_expect(t != 0, 1) ? t : origin_thread_slow();
}

/* The rseq area of the calling thread: glibc 2.35 and later register one
 * per thread at __rseq_offset from the thread pointer, and the kernel keeps
 * its cpu_id current (negative if registration failed: valgrind, qemu-user).
 * Where the thread pointer cannot be read here, sched_getcpu does the same. */
#if defined(__GLIBC__) && defined(__has_include)
#if __has_include(<sys/rseq.h>) && (defined(__x86_64__) || defined(__aarch64__))
#include <sys/rseq.h>
#define ORIGIN_RSEQ 1
static inline const volatile int32_t *origin_rseq_cpu(void)
{
    char *tp;
#if defined(__x86_64__)
    __asm__("mov %%fs:0, %0" : "=r"(tp));       /* the TCB's self pointer (x86-64 ABI) */
#else
    __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#endif
    return (const volatile int32_t *)(tp + __rseq_offset + offsetof(struct rseq, cpu_id));
}
#endif
#endif

/* The CPU of an event now: the simulated one of the thread, else the real. */
static inline int origin_cpu(void)
{
    int cpu = sim_cpu_of_thread();
    if (cpu >= 0)
        return cpu;
#ifdef ORIGIN_RSEQ
    if (__rseq_size > 0) {
        int32_t c = *origin_rseq_cpu();
        if (c >= 0)
            return c;
    }
#endif
    return origin_cpu_slow();
}

/* The origin of an event recorded by the calling thread at address prog. */
static inline void origin_of_caller(struct origin *o, const void *prog)
{
    o->pid = (uint32_t)posixtrace_proc.pid;
    o->thread = origin_thread();
    o->prog = (uint64_t)(uintptr_t)prog;
    o->cpu = origin_cpu();
}

#endif
