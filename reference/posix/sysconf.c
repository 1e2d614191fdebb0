/* SPDX-License-Identifier: MIT */
/*
 * sysconf.c -- posix_trace_sysconf(): what sysconf() would answer for the
 * _SC_TRACE* names if the C library knew this trace implementation
 * (XBD <unistd.h>: S0308, S0310, S0312, S0314; posix/CHOICES.md "Options").
 */
#include <trace.h>
#include <unistd.h>

static long option_value(long macro)
{
    return macro > 0 ? 200809L : -1;
}

long posix_trace_sysconf(int name)
{
    switch (name) {
    case _SC_TRACE:                return option_value(_POSIX_TRACE);
    case _SC_TRACE_EVENT_FILTER:   return option_value(_POSIX_TRACE_EVENT_FILTER);
    case _SC_TRACE_INHERIT:        return option_value(_POSIX_TRACE_INHERIT);
    case _SC_TRACE_LOG:            return option_value(_POSIX_TRACE_LOG);
    case _SC_TRACE_EVENT_NAME_MAX: return TRACE_EVENT_NAME_MAX;
    case _SC_TRACE_NAME_MAX:       return TRACE_NAME_MAX;
    case _SC_TRACE_SYS_MAX:        return TRACE_SYS_MAX;
    case _SC_TRACE_USER_EVENT_MAX: return TRACE_USER_EVENT_MAX;
    default:                       return sysconf(name);
    }
}
