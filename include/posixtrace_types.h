/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_types.h> -- the trace types of XBD <sys/types.h> (trace_attr_t,
 * trace_event_id_t, trace_event_set_t, trace_id_t), in one place for the two
 * headers that must define them: <trace.h> and this implementation's
 * <sys/types.h> (include/sys/types.h).  Not for direct use.
 *
 * Only reserved names are defined here besides the four types: a program
 * that includes <sys/types.h> gets nothing else of <trace.h>.
 */
#ifndef POSIXTRACE_TYPES_H
#define POSIXTRACE_TYPES_H

#include <stddef.h>
#include <time.h>

/* TRACE_NAME_MAX and TRACE_USER_EVENT_MAX of <trace.h>. */
#define __POSIXTRACE_NAME_MAX        64
#define __POSIXTRACE_USER_EVENT_MAX  256


typedef unsigned int  trace_event_id_t;
typedef unsigned long trace_id_t;

/* Identifiers below this bound are valid; a set holds one bit for each. */
#define __POSIXTRACE_EVENT_ID_LIMIT  (16u + __POSIXTRACE_USER_EVENT_MAX)

typedef struct {
    unsigned long long __bits[(__POSIXTRACE_EVENT_ID_LIMIT + 63u) / 64u];
} trace_event_set_t;

typedef struct {
    unsigned int    __magic;            /* set by posix_trace_attr_init() */
    int             __stream_fullpolicy;
    int             __stream_fullpolicy_set;  /* set explicitly? */
    int             __log_fullpolicy;
    int             __inheritance;
    size_t          __stream_minsize;
    size_t          __max_datasize;
    size_t          __log_maxsize;
    struct timespec __clockres;
    struct timespec __createtime;
    int             __sim_clock;         /* simulated clock (posixtrace_sim.h) */
    long            __sim_step_ns;
    struct timespec __sim_start;
    int             __sim_origin;        /* deterministic origins (posixtrace_sim.h) */
    int             __sim_pid;           /* their process id (a pid_t) */
    char            __name[__POSIXTRACE_NAME_MAX];
    char            __genversion[__POSIXTRACE_NAME_MAX];
} trace_attr_t;

#endif /* POSIXTRACE_TYPES_H */
