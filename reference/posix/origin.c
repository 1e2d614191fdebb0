/* SPDX-License-Identifier: MIT */
/*
 * origin.c -- the slow paths of origin.h: the first event of a thread, and
 * the CPU where the kernel keeps no word for the thread.
 */
#define _GNU_SOURCE                     /* sched_getcpu() */
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include "posix/origin.h"

_Thread_local uint64_t posixtrace_thread_word TLS_IE;
_Thread_local const volatile int32_t *posixtrace_cpu_word TLS_IE;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

/* The child's thread is not the one that kept the word (in the C library
 * here it has the same pthread_t, but the standard does not say so). */
static void forget_thread(void)
{
    posixtrace_thread_word = 0;
    posixtrace_cpu_word = NULL;
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, forget_thread);
}

/* The rseq area of the calling thread: glibc 2.35 and later register one
 * per thread at __rseq_offset from the thread pointer, and the kernel keeps
 * its cpu_id current (negative if registration failed: valgrind, qemu-user).
 * Where the thread pointer cannot be read here, sched_getcpu does the same. */
#if defined(__GLIBC__) && defined(__has_include)
#if __has_include(<sys/rseq.h>) && (defined(__x86_64__) || defined(__aarch64__))
#include <sys/rseq.h>
#define ORIGIN_RSEQ 1
#endif
#endif

static const volatile int32_t *cpu_word(void)
{
#ifdef ORIGIN_RSEQ
    if (__rseq_size > 0) {
        char *tp;
#if defined(__x86_64__)
        __asm__("mov %%fs:0, %0" : "=r"(tp));   /* the TCB's self pointer (x86-64 ABI) */
#else
        __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#endif
        return (const volatile int32_t *)(tp + __rseq_offset + offsetof(struct rseq, cpu_id));
    }
#endif
    return NULL;
}

uint64_t origin_thread_slow(void)
{
    pthread_once(&watch_once, watch_fork);
    pthread_t self = pthread_self();
    uint64_t t = 0;
    memcpy(&t, &self, sizeof self < sizeof t ? sizeof self : sizeof t);
    posixtrace_cpu_word = cpu_word();
    posixtrace_thread_word = t;         /* a pthread_t of all zeros is asked again */
    return t;
}

int origin_cpu_slow(void)
{
    return sched_getcpu();
}
