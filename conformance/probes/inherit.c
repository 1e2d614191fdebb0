/* SPDX-License-Identifier: MIT */
/*
 * inherit.c -- compile probe for the TRI rules of <trace.h> checked by
 * conformance/tests/inherit.c: trace_h.constants-tri and
 * trace_h.prototypes-tri (XBD <trace.h>).  One part per rule; harness/probe.sh
 * compiles each on its own (conformance/tests/ct_probe.h).  Tried whatever
 * the options: the test asks about TRI first.
 */
#include <trace.h>
#include "../tests/ct_trace_h.h"

/* The two inheritance policies initialise ints. */
#ifdef CT_PROBE_PART_CONSTANTS_TRI
int ct_probe_inherit_CONSTANTS_TRI(void)
{
    int v[2] = { POSIX_TRACE_CLOSE_FOR_CHILD, POSIX_TRACE_INHERITED };
    return sizeof v > 0;
}
#endif

/* The two functions, after #undef, have exactly the listed types. */
#ifdef CT_PROBE_PART_PROTOTYPES_TRI
#undef posix_trace_attr_getinherited
#undef posix_trace_attr_setinherited
CT_PROTOTYPES_TRI(CT_PROTO_ASSERT)
int ct_probe_inherit_PROTOTYPES_TRI(void) { return 1; }
#endif
