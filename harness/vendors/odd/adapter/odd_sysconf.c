/* SPDX-License-Identifier: MIT */
/*
 * odd_sysconf.c -- the odd vendor answers the eight _SC_TRACE* names through
 * sysconf() itself, as a C library with the Tracing option does (XSH sysconf;
 * XBD 2.1.6: run-time checks agree with the option macros of its <trace.h>).
 * The trace names are answered by the reference's posix_trace_sysconf(); every
 * other name by the C library's sysconf(), the next definition of the symbol
 * (dlsym RTLD_NEXT), since this one, linked into the program, comes first.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>
#include "oddref_bridge.h"

static long (*libc_sysconf)(int);
static pthread_once_t libc_once = PTHREAD_ONCE_INIT;

static void find_libc_sysconf(void)
{
    *(void **)&libc_sysconf = dlsym(RTLD_NEXT, "sysconf");
}

long sysconf(int name)
{
    switch (name) {
    case _SC_TRACE: case _SC_TRACE_EVENT_FILTER: case _SC_TRACE_INHERIT: case _SC_TRACE_LOG:
    case _SC_TRACE_EVENT_NAME_MAX: case _SC_TRACE_NAME_MAX: case _SC_TRACE_SYS_MAX:
    case _SC_TRACE_USER_EVENT_MAX:
        return oddref_sysconf(name);
    default:
        pthread_once(&libc_once, find_libc_sysconf);
        return libc_sysconf ? libc_sysconf(name) : -1;
    }
}
