/* SPDX-License-Identifier: MIT */
/*
 * sys_types_h.c -- compile probe for rules sys_types_h.trace-types and
 * sys_types_h.trace_event_set_t (XBD <sys/types.h>): <sys/types.h> alone,
 * without <trace.h>, defines the trace types.
 *
 * This translation unit includes nothing else.  harness/probe.sh compiles
 * it twice on its own, with CT_PROBE_PART_TRC and with CT_PROBE_PART_TEF;
 * each part that does not compile makes conformance/tests/sys_types_h.c
 * report the compiler's message as the failure.
 */
#include <sys/types.h>

#ifdef CT_PROBE_PART_TRC
int ct_probe_sys_types_trc(void)
{
    trace_attr_t a;
    trace_event_id_t e;
    trace_id_t t;
    return sizeof a > 0 && sizeof e > 0 && sizeof t > 0;
}
#endif

#ifdef CT_PROBE_PART_TEF
int ct_probe_sys_types_tef(void)
{
    trace_event_set_t s;
    return sizeof s > 0;
}
#endif
