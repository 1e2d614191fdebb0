/* SPDX-License-Identifier: MIT */
/*
 * sim.c -- simulation control (include/posixtrace_sim.h): a stream's
 * simulated clock and deterministic origins, and the simulated CPU of a
 * thread.
 */
#include <errno.h>
#include <posixtrace_sim.h>
#include "stream/attr.h"
#include "stream/sim_cpu.h"
#include "posix/stream_table.h"

_Thread_local int posixtrace_sim_cpu_plus1 TLS_IE;

#define SIM_CPU_MAX 1023

int posixtrace_attr_setsimclock(trace_attr_t *attr, const struct timespec *start,
                                long step_ns)
{
    if (!attr_valid(attr) || start == NULL || start->tv_sec < 0 ||
        start->tv_nsec < 0 || start->tv_nsec >= 1000000000L || step_ns < 0)
        return EINVAL;
    attr->__sim_clock = 1;
    attr->__sim_start = *start;
    attr->__sim_step_ns = step_ns;
    return 0;
}

int posixtrace_attr_getsimclock(const trace_attr_t *attr, int *enabled,
                                struct timespec *start, long *step_ns)
{
    if (!attr_valid(attr) || enabled == NULL)
        return EINVAL;
    *enabled = attr->__sim_clock;
    if (start)
        *start = attr->__sim_start;
    if (step_ns)
        *step_ns = attr->__sim_step_ns;
    return 0;
}

int posixtrace_attr_setsimorigin(trace_attr_t *attr, pid_t pid)
{
    if (!attr_valid(attr) || pid <= 0)
        return EINVAL;
    attr->__sim_origin = 1;
    attr->__sim_pid = pid;
    return 0;
}

int posixtrace_attr_getsimorigin(const trace_attr_t *attr, int *enabled, pid_t *pid)
{
    if (!attr_valid(attr) || enabled == NULL)
        return EINVAL;
    *enabled = attr->__sim_origin;
    if (pid)
        *pid = attr->__sim_pid;
    return 0;
}

static struct stream *acquire_sim(trace_id_t trid)
{
    struct stream *s = stream_acquire(trid);
    if (s != NULL && !s->sim) {
        stream_release(s);
        return NULL;
    }
    return s;
}

int posixtrace_sim_advance(trace_id_t trid, long long ns)
{
    if (ns < 0)
        return EINVAL;
    struct stream *s = acquire_sim(trid);
    if (s == NULL)
        return EINVAL;
    s->sim_now += (uint64_t)ns;
    stream_release(s);
    return 0;
}

int posixtrace_sim_now(trace_id_t trid, struct timespec *now)
{
    if (now == NULL)
        return EINVAL;
    struct stream *s = acquire_sim(trid);
    if (s == NULL)
        return EINVAL;
    ns_to_timespec(s->sim_now, now);
    stream_release(s);
    return 0;
}

int posixtrace_sim_setcpu(int cpu)
{
    if (cpu < -1 || cpu > SIM_CPU_MAX)
        return EINVAL;
    posixtrace_sim_cpu_plus1 = cpu + 1;
    return 0;
}

int posixtrace_sim_getcpu(void)
{
    return sim_cpu_of_thread();
}
