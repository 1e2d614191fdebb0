/* SPDX-License-Identifier: MIT */
/*
 * origin.c -- the slow paths of origin.h: the first event of a thread, and
 * the CPU where the kernel keeps no word for the thread.
 */
#define _GNU_SOURCE                     /* sched_getcpu() */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include "posix/origin.h"

_Thread_local uint64_t posixtrace_thread_word ORIGIN_TLS;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

/* The child's thread is not the one that kept the word (in the C library
 * here it has the same pthread_t, but the standard does not say so). */
static void forget_thread(void)
{
    posixtrace_thread_word = 0;
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, forget_thread);
}

uint64_t origin_thread_slow(void)
{
    pthread_once(&watch_once, watch_fork);
    pthread_t self = pthread_self();
    uint64_t t = 0;
    memcpy(&t, &self, sizeof self < sizeof t ? sizeof self : sizeof t);
    posixtrace_thread_word = t;         /* a pthread_t of all zeros is asked again */
    return t;
}

int origin_cpu_slow(void)
{
    return sched_getcpu();
}
