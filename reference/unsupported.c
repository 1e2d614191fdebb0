/*
 * unsupported.c -- functions of the options this version of the reference
 * does not provide yet (TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER
 * as -1; its event set functions are in eventset.c).  They exist so that programs written for the
 * whole API link, and fail with ENOSYS.  Each moves to a file of its own when
 * its option is built.
 */
#include <errno.h>
#include <trace.h>

/* TEF */
int posix_trace_get_filter(trace_id_t trid, trace_event_set_t *set)
{ (void)trid; (void)set; return ENOSYS; }
int posix_trace_set_filter(trace_id_t trid, const trace_event_set_t *set, int how)
{ (void)trid; (void)set; (void)how; return ENOSYS; }
int posix_trace_trid_eventid_open(trace_id_t trid, const char *restrict name,
                                  trace_event_id_t *restrict id)
{ (void)trid; (void)name; (void)id; return ENOSYS; }
