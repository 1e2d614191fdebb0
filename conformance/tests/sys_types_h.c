/* SPDX-License-Identifier: MIT */
/*
 * sys_types_h.c -- XBD <sys/types.h>: the trace types are defined there too,
 * not only in <trace.h> (rules sys_types_h.trace-types,
 * sys_types_h.trace_event_set_t).
 *
 * Whether a header defines a type is decided by compiling: the probe
 * conformance/probes/sys_types_h.c includes <sys/types.h> alone and declares
 * objects of each type.  mk/harness.mk compiles its TRC and TEF parts
 * separately and builds this file with CT_PROBE_TRC and CT_PROBE_TEF set to 1
 * (the part compiled and is linked in) or 0 (it did not), and the compiler's
 * first error line for a part that did not, which the failure message quotes
 * (ct_probe.h).
 *
 * Not tested: that <sys/types.h> defines nothing else of <trace.h> (the spec
 * does not forbid it).
 */
#include "ct.h"
#include "ct_probe.h"

#if CT_PROBE_TRC
int ct_probe_sys_types_trc(void);
#endif
#if CT_PROBE_TEF
int ct_probe_sys_types_tef(void);
#endif

CT_TEST(trace_types, "sys_types_h.trace-types", "TRC", "")
{
#if CT_PROBE_TRC
    CT_CHECK(ct_probe_sys_types_trc() == 1, "probe returned %d", ct_probe_sys_types_trc());
#else
    ct_probe_missing("TRC", "<sys/types.h> alone does not define trace_attr_t, "
                     "trace_event_id_t and trace_id_t");
#endif
}

CT_TEST(trace_event_set_type, "sys_types_h.trace_event_set_t", "TRC,TEF", "")
{
#if CT_PROBE_TEF
    CT_CHECK(ct_probe_sys_types_tef() == 1, "probe returned %d", ct_probe_sys_types_tef());
#else
    ct_probe_missing("TEF", "<sys/types.h> alone does not define trace_event_set_t");
#endif
}
