/* SPDX-License-Identifier: MIT */
/*
 * log_misc.c -- compile probe for the TRL rules of <trace.h> checked by
 * conformance/tests/log_misc.c (XBD <trace.h>): the four TRL members of
 * struct posix_trace_status_info (trace_h.status.*), trace_h.constants-trl
 * and trace_h.prototypes-trl.  One part per rule; harness/probe.sh compiles
 * each on its own (conformance/tests/ct_probe.h).  Tried whatever the
 * options: the test asks about TRL first.
 */
#include <trace.h>
#include "../tests/ct_trace_h.h"

#ifdef CT_PROBE_PART_STATUS_STREAM_FLUSH_STATUS
CT_MEMBER_ASSERT(posix_trace_status_info, posix_stream_flush_status, int)
int ct_probe_log_misc_STATUS_STREAM_FLUSH_STATUS(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_STATUS_STREAM_FLUSH_ERROR
CT_MEMBER_ASSERT(posix_trace_status_info, posix_stream_flush_error, int)
int ct_probe_log_misc_STATUS_STREAM_FLUSH_ERROR(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_STATUS_LOG_OVERRUN_STATUS
CT_MEMBER_ASSERT(posix_trace_status_info, posix_log_overrun_status, int)
int ct_probe_log_misc_STATUS_LOG_OVERRUN_STATUS(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_STATUS_LOG_FULL_STATUS
CT_MEMBER_ASSERT(posix_trace_status_info, posix_log_full_status, int)
int ct_probe_log_misc_STATUS_LOG_FULL_STATUS(void) { return 1; }
#endif

/* The policy and status values initialise ints, the two events
 * trace_event_id_t objects. */
#ifdef CT_PROBE_PART_CONSTANTS_TRL
int ct_probe_log_misc_CONSTANTS_TRL(void)
{
    int v[4] = { POSIX_TRACE_APPEND, POSIX_TRACE_FLUSH, POSIX_TRACE_FLUSHING,
                 POSIX_TRACE_NOT_FLUSHING };
    trace_event_id_t e[2] = { POSIX_TRACE_FLUSH_START, POSIX_TRACE_FLUSH_STOP };
    return sizeof v > 0 && sizeof e > 0;
}
#endif

/* The nine functions, after #undef, have exactly the listed types. */
#ifdef CT_PROBE_PART_PROTOTYPES_TRL
#undef posix_trace_attr_getlogfullpolicy
#undef posix_trace_attr_getlogsize
#undef posix_trace_attr_setlogfullpolicy
#undef posix_trace_attr_setlogsize
#undef posix_trace_close
#undef posix_trace_create_withlog
#undef posix_trace_flush
#undef posix_trace_open
#undef posix_trace_rewind
CT_PROTOTYPES_TRL(CT_PROTO_ASSERT)
int ct_probe_log_misc_PROTOTYPES_TRL(void) { return 1; }
#endif
