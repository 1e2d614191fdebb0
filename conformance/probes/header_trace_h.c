/* SPDX-License-Identifier: MIT */
/*
 * header_trace_h.c -- compile probe for the <trace.h> rules of
 * conformance/tests/header_trace_h.c (XBD <trace.h>; XSH 2.11.1, 2.11.2):
 * its types, the members of its two structures, its TRC and TEF constants
 * and the prototypes of the TRC and TEF functions.
 *
 * One part per rule (#ifdef CT_PROBE_PART_<part>): harness/probe.sh compiles
 * each on its own, so that a header lacking one declaration, or declaring it
 * with another type, fails that rule and no other (ct_probe.h).  Each part
 * defines ct_probe_header_<part>(), which the test calls to show the part
 * was linked in.  Type checks are _Static_asserts with _Generic: hard errors,
 * whatever the warning flags.  No value and no representation is assumed:
 * constants are only used to initialise objects of their type, inside
 * functions (they need not be constant expressions).
 */

/* First, and alone: the types must come from <trace.h> itself. */
#include <trace.h>

#ifdef CT_PROBE_PART_TYPE_SIZE_T
int ct_probe_header_TYPE_SIZE_T(void)
{
    size_t z = sizeof(int);
    return z > 0;
}
#endif

#ifdef CT_PROBE_PART_TYPE_TRACE_ATTR_T
trace_attr_t ct_probe_header_attr;
int ct_probe_header_TYPE_TRACE_ATTR_T(void) { return sizeof ct_probe_header_attr > 0; }
#endif

#ifdef CT_PROBE_PART_TYPE_TRACE_EVENT_ID_T
trace_event_id_t ct_probe_header_event_id;
int ct_probe_header_TYPE_TRACE_EVENT_ID_T(void) { return sizeof ct_probe_header_event_id > 0; }
#endif

#ifdef CT_PROBE_PART_TYPE_TRACE_ID_T
trace_id_t ct_probe_header_trid;
int ct_probe_header_TYPE_TRACE_ID_T(void) { return sizeof ct_probe_header_trid > 0; }
#endif

/* TEF's type: tried whatever the options; the test asks about TEF first. */
#ifdef CT_PROBE_PART_TYPE_TRACE_EVENT_SET_T
trace_event_set_t ct_probe_header_event_set;
int ct_probe_header_TYPE_TRACE_EVENT_SET_T(void) { return sizeof ct_probe_header_event_set > 0; }
#endif

#include <pthread.h>
#include <sys/types.h>
#include <time.h>
#include "../tests/ct.h"         /* CT_UNNAMED: either spelling (ruling 1) */
#include "../tests/ct_trace_h.h"

/* ---- structure members: exact types (trace_h.status.*, trace_h.event_info.*) ---- */

#ifdef CT_PROBE_PART_STATUS_STREAM_STATUS
CT_MEMBER_ASSERT(posix_trace_status_info, posix_stream_status, int)
int ct_probe_header_STATUS_STREAM_STATUS(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_STATUS_STREAM_FULL_STATUS
CT_MEMBER_ASSERT(posix_trace_status_info, posix_stream_full_status, int)
int ct_probe_header_STATUS_STREAM_FULL_STATUS(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_STATUS_STREAM_OVERRUN_STATUS
CT_MEMBER_ASSERT(posix_trace_status_info, posix_stream_overrun_status, int)
int ct_probe_header_STATUS_STREAM_OVERRUN_STATUS(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_EVENT_INFO_EVENT_ID
CT_MEMBER_ASSERT(posix_trace_event_info, posix_event_id, trace_event_id_t)
int ct_probe_header_EVENT_INFO_EVENT_ID(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_EVENT_INFO_PID
CT_MEMBER_ASSERT(posix_trace_event_info, posix_pid, pid_t)
int ct_probe_header_EVENT_INFO_PID(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_EVENT_INFO_PROG_ADDRESS
CT_MEMBER_ASSERT(posix_trace_event_info, posix_prog_address, void *)
int ct_probe_header_EVENT_INFO_PROG_ADDRESS(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_EVENT_INFO_TRUNCATION_STATUS
CT_MEMBER_ASSERT(posix_trace_event_info, posix_truncation_status, int)
int ct_probe_header_EVENT_INFO_TRUNCATION_STATUS(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_EVENT_INFO_TIMESTAMP
CT_MEMBER_ASSERT(posix_trace_event_info, posix_timestamp, struct timespec)
int ct_probe_header_EVENT_INFO_TIMESTAMP(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_EVENT_INFO_THREAD_ID
CT_MEMBER_ASSERT(posix_trace_event_info, posix_thread_id, pthread_t)
int ct_probe_header_EVENT_INFO_THREAD_ID(void) { return 1; }
#endif

/* ---- constants ---------------------------------------------------------------------- */

/* trace_h.constants-trc: the status and policy values initialise ints, the
 * events trace_event_id_t objects. */
#ifdef CT_PROBE_PART_CONSTANTS_TRC
int ct_probe_header_CONSTANTS_TRC(void)
{
    int v[] = { POSIX_TRACE_ALL_EVENTS, POSIX_TRACE_FULL, POSIX_TRACE_LOOP,
                POSIX_TRACE_NO_OVERRUN, POSIX_TRACE_NOT_FULL, POSIX_TRACE_NOT_TRUNCATED,
                POSIX_TRACE_OVERRUN, POSIX_TRACE_RUNNING, POSIX_TRACE_SUSPENDED,
                POSIX_TRACE_SYSTEM_EVENTS, POSIX_TRACE_TRUNCATED_READ,
                POSIX_TRACE_TRUNCATED_RECORD, POSIX_TRACE_UNTIL_FULL,
                POSIX_TRACE_WOPID_EVENTS };
    trace_event_id_t e[] = { POSIX_TRACE_OVERFLOW, POSIX_TRACE_RESUME, POSIX_TRACE_START,
                             POSIX_TRACE_STOP, CT_UNNAMED };
    return sizeof v > 0 && sizeof e > 0;
}
#endif

/* trace_h.const.POSIX_TRACE_ERROR (ruling 2): a trace_event_id_t value. */
#ifdef CT_PROBE_PART_CONST_ERROR
int ct_probe_header_CONST_ERROR(void)
{
    trace_event_id_t e = POSIX_TRACE_ERROR;
    return sizeof e > 0;
}
#endif

/* trace_h.const.POSIX_TRACE_UNNAMED_USEREVENT: either spelling (ruling 1). */
#ifdef CT_PROBE_PART_CONST_UNNAMED
int ct_probe_header_CONST_UNNAMED(void)
{
    trace_event_id_t e = CT_UNNAMED;
    return sizeof e > 0;
}
#endif

/* trace_h.constants-tef. */
#ifdef CT_PROBE_PART_CONSTANTS_TEF
int ct_probe_header_CONSTANTS_TEF(void)
{
    trace_event_id_t e = POSIX_TRACE_FILTER;
    return sizeof e > 0;
}
#endif

/* trace_h.const.eventset-how (ruling 2): the how values of set_filter. */
#ifdef CT_PROBE_PART_CONST_EVENTSET_HOW
int ct_probe_header_CONST_EVENTSET_HOW(void)
{
    int how[3] = { POSIX_TRACE_SET_EVENTSET, POSIX_TRACE_ADD_EVENTSET,
                   POSIX_TRACE_SUB_EVENTSET };
    return sizeof how > 0;
}
#endif

/* ---- prototypes, after #undef: the names must be functions ------------------------- */

#ifdef CT_PROBE_PART_PROTOTYPES_TRC
#undef posix_trace_attr_destroy
#undef posix_trace_attr_getclockres
#undef posix_trace_attr_getcreatetime
#undef posix_trace_attr_getgenversion
#undef posix_trace_attr_getmaxdatasize
#undef posix_trace_attr_getmaxsystemeventsize
#undef posix_trace_attr_getmaxusereventsize
#undef posix_trace_attr_getname
#undef posix_trace_attr_getstreamfullpolicy
#undef posix_trace_attr_getstreamsize
#undef posix_trace_attr_init
#undef posix_trace_attr_setmaxdatasize
#undef posix_trace_attr_setname
#undef posix_trace_attr_setstreamfullpolicy
#undef posix_trace_attr_setstreamsize
#undef posix_trace_clear
#undef posix_trace_create
#undef posix_trace_event
#undef posix_trace_eventid_equal
#undef posix_trace_eventid_get_name
#undef posix_trace_eventid_open
#undef posix_trace_eventtypelist_getnext_id
#undef posix_trace_eventtypelist_rewind
#undef posix_trace_get_attr
#undef posix_trace_get_status
#undef posix_trace_getnext_event
#undef posix_trace_shutdown
#undef posix_trace_start
#undef posix_trace_stop
#undef posix_trace_timedgetnext_event
#undef posix_trace_trygetnext_event
CT_PROTOTYPES_TRC(CT_PROTO_ASSERT)
int ct_probe_header_PROTOTYPES_TRC(void) { return 1; }
#endif

#ifdef CT_PROBE_PART_PROTOTYPES_TEF
#undef posix_trace_eventset_add
#undef posix_trace_eventset_del
#undef posix_trace_eventset_empty
#undef posix_trace_eventset_fill
#undef posix_trace_eventset_ismember
#undef posix_trace_get_filter
#undef posix_trace_set_filter
#undef posix_trace_trid_eventid_open
CT_PROTOTYPES_TEF(CT_PROTO_ASSERT)
int ct_probe_header_PROTOTYPES_TEF(void) { return 1; }
#endif
