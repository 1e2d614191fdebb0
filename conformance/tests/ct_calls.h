/* SPDX-License-Identifier: MIT */
/*
 * ct_calls.h -- every call a test makes to a <trace.h> function leaves a note
 * of where it is (the function, file:line) for the runner, so that a test
 * that hangs or crashes inside the implementation is reported with the
 * function it was in: "timed out after 2 s in posix_trace_start (start.c:40)"
 * (harness/README.md, "Where a test hung").  Included by ct.h after <trace.h>.
 *
 * Each function gets a function-like macro of its own name that calls it
 * between ct_call_begin() and ct_call_end().  Only a name followed by "("
 * is replaced: taking a function's address (&fn, (fn), a pointer
 * initialised with fn) still names the function itself, and within the
 * macro's own expansion the name is not replaced again.  A header that
 * already defines one of these names as a macro (the standard allows a
 * function to be a macro as well) keeps its own, untracked.  The notes cost
 * a few stores to a shared page, nothing when the runner asked for none
 * (harness/run.py sets CT_PROGRESS), and never change what the call does.
 *
 * The runner may also name functions that hung in several tests in a row
 * (CT_STOP_AT), or after whose return several tests in a row hung outside
 * the trace functions (CT_STOP_HUNG_AFTER): a test that is about to call one
 * of them ends UNRESOLVED at once instead of hanging too (ct.c,
 * ct_call_begin).
 */
#ifndef CT_CALLS_H
#define CT_CALLS_H

void ct_call_begin(const char *function, const char *file, int line);
int ct_call_end(int result);
void ct_call_end_void(void);

#define CT_CALL_INT(fn, args) CT_CALL_INT_AS(#fn, fn, args)
#define CT_CALL_VOID(fn, args) CT_CALL_VOID_AS(#fn, fn, args)
#define CT_CALL_INT_AS(name, callee, args)                                         \
    (ct_call_begin(name, __FILE__, __LINE__), ct_call_end(callee args))
#define CT_CALL_VOID_AS(name, callee, args)                                        \
    (ct_call_begin(name, __FILE__, __LINE__), callee args, ct_call_end_void())

#ifndef posix_trace_attr_destroy
#define posix_trace_attr_destroy(...) CT_CALL_INT(posix_trace_attr_destroy, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getclockres
#define posix_trace_attr_getclockres(...) CT_CALL_INT(posix_trace_attr_getclockres, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getcreatetime
#define posix_trace_attr_getcreatetime(...) CT_CALL_INT(posix_trace_attr_getcreatetime, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getgenversion
#define posix_trace_attr_getgenversion(...) CT_CALL_INT(posix_trace_attr_getgenversion, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getinherited
#define posix_trace_attr_getinherited(...) CT_CALL_INT(posix_trace_attr_getinherited, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getlogfullpolicy
#define posix_trace_attr_getlogfullpolicy(...) CT_CALL_INT(posix_trace_attr_getlogfullpolicy, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getlogsize
#define posix_trace_attr_getlogsize(...) CT_CALL_INT(posix_trace_attr_getlogsize, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getmaxdatasize
#define posix_trace_attr_getmaxdatasize(...) CT_CALL_INT(posix_trace_attr_getmaxdatasize, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getmaxsystemeventsize
#define posix_trace_attr_getmaxsystemeventsize(...) CT_CALL_INT(posix_trace_attr_getmaxsystemeventsize, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getmaxusereventsize
#define posix_trace_attr_getmaxusereventsize(...) CT_CALL_INT(posix_trace_attr_getmaxusereventsize, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getname
#define posix_trace_attr_getname(...) CT_CALL_INT(posix_trace_attr_getname, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getstreamfullpolicy
#define posix_trace_attr_getstreamfullpolicy(...) CT_CALL_INT(posix_trace_attr_getstreamfullpolicy, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_getstreamsize
#define posix_trace_attr_getstreamsize(...) CT_CALL_INT(posix_trace_attr_getstreamsize, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_init
#define posix_trace_attr_init(...) CT_CALL_INT(posix_trace_attr_init, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_setinherited
#define posix_trace_attr_setinherited(...) CT_CALL_INT(posix_trace_attr_setinherited, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_setlogfullpolicy
#define posix_trace_attr_setlogfullpolicy(...) CT_CALL_INT(posix_trace_attr_setlogfullpolicy, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_setlogsize
#define posix_trace_attr_setlogsize(...) CT_CALL_INT(posix_trace_attr_setlogsize, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_setmaxdatasize
#define posix_trace_attr_setmaxdatasize(...) CT_CALL_INT(posix_trace_attr_setmaxdatasize, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_setname
#define posix_trace_attr_setname(...) CT_CALL_INT(posix_trace_attr_setname, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_setstreamfullpolicy
#define posix_trace_attr_setstreamfullpolicy(...) CT_CALL_INT(posix_trace_attr_setstreamfullpolicy, (__VA_ARGS__))
#endif
#ifndef posix_trace_attr_setstreamsize
#define posix_trace_attr_setstreamsize(...) CT_CALL_INT(posix_trace_attr_setstreamsize, (__VA_ARGS__))
#endif
#ifndef posix_trace_clear
#define posix_trace_clear(...) CT_CALL_INT(posix_trace_clear, (__VA_ARGS__))
#endif
#ifndef posix_trace_close
#define posix_trace_close(...) CT_CALL_INT(posix_trace_close, (__VA_ARGS__))
#endif
#ifndef posix_trace_create
#define posix_trace_create(...) CT_CALL_INT(posix_trace_create, (__VA_ARGS__))
#endif
#ifndef posix_trace_create_withlog
#define posix_trace_create_withlog(...) CT_CALL_INT(posix_trace_create_withlog, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventid_equal
#define posix_trace_eventid_equal(...) CT_CALL_INT(posix_trace_eventid_equal, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventid_get_name
#define posix_trace_eventid_get_name(...) CT_CALL_INT(posix_trace_eventid_get_name, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventid_open
#define posix_trace_eventid_open(...) CT_CALL_INT(posix_trace_eventid_open, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventset_add
#define posix_trace_eventset_add(...) CT_CALL_INT(posix_trace_eventset_add, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventset_del
#define posix_trace_eventset_del(...) CT_CALL_INT(posix_trace_eventset_del, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventset_empty
#define posix_trace_eventset_empty(...) CT_CALL_INT(posix_trace_eventset_empty, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventset_fill
#define posix_trace_eventset_fill(...) CT_CALL_INT(posix_trace_eventset_fill, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventset_ismember
#define posix_trace_eventset_ismember(...) CT_CALL_INT(posix_trace_eventset_ismember, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventtypelist_getnext_id
#define posix_trace_eventtypelist_getnext_id(...) CT_CALL_INT(posix_trace_eventtypelist_getnext_id, (__VA_ARGS__))
#endif
#ifndef posix_trace_eventtypelist_rewind
#define posix_trace_eventtypelist_rewind(...) CT_CALL_INT(posix_trace_eventtypelist_rewind, (__VA_ARGS__))
#endif
#ifndef posix_trace_flush
#define posix_trace_flush(...) CT_CALL_INT(posix_trace_flush, (__VA_ARGS__))
#endif
#ifndef posix_trace_get_attr
#define posix_trace_get_attr(...) CT_CALL_INT(posix_trace_get_attr, (__VA_ARGS__))
#endif
#ifndef posix_trace_get_filter
#define posix_trace_get_filter(...) CT_CALL_INT(posix_trace_get_filter, (__VA_ARGS__))
#endif
#ifndef posix_trace_get_status
#define posix_trace_get_status(...) CT_CALL_INT(posix_trace_get_status, (__VA_ARGS__))
#endif
#ifndef posix_trace_getnext_event
#define posix_trace_getnext_event(...) CT_CALL_INT(posix_trace_getnext_event, (__VA_ARGS__))
#endif
#ifndef posix_trace_open
#define posix_trace_open(...) CT_CALL_INT(posix_trace_open, (__VA_ARGS__))
#endif
#ifndef posix_trace_rewind
#define posix_trace_rewind(...) CT_CALL_INT(posix_trace_rewind, (__VA_ARGS__))
#endif
#ifndef posix_trace_set_filter
#define posix_trace_set_filter(...) CT_CALL_INT(posix_trace_set_filter, (__VA_ARGS__))
#endif
#ifndef posix_trace_shutdown
#define posix_trace_shutdown(...) CT_CALL_INT(posix_trace_shutdown, (__VA_ARGS__))
#endif
#ifndef posix_trace_start
#define posix_trace_start(...) CT_CALL_INT(posix_trace_start, (__VA_ARGS__))
#endif
#ifndef posix_trace_stop
#define posix_trace_stop(...) CT_CALL_INT(posix_trace_stop, (__VA_ARGS__))
#endif
#ifndef posix_trace_timedgetnext_event
#define posix_trace_timedgetnext_event(...) CT_CALL_INT(posix_trace_timedgetnext_event, (__VA_ARGS__))
#endif
#ifndef posix_trace_trid_eventid_open
#define posix_trace_trid_eventid_open(...) CT_CALL_INT(posix_trace_trid_eventid_open, (__VA_ARGS__))
#endif
#ifndef posix_trace_trygetnext_event
#define posix_trace_trygetnext_event(...) CT_CALL_INT(posix_trace_trygetnext_event, (__VA_ARGS__))
#endif
#ifndef posix_trace_event
#define posix_trace_event(...) CT_CALL_VOID(posix_trace_event, (__VA_ARGS__))
#endif

/* The header tests call each function through a pointer of its declared type,
 * p_<name> (ct_trace_h.h, CT_PROTO_POINTER): those calls leave notes too. */
#define p_posix_trace_attr_destroy(...) CT_CALL_INT_AS("posix_trace_attr_destroy", p_posix_trace_attr_destroy, (__VA_ARGS__))
#define p_posix_trace_attr_getclockres(...) CT_CALL_INT_AS("posix_trace_attr_getclockres", p_posix_trace_attr_getclockres, (__VA_ARGS__))
#define p_posix_trace_attr_getcreatetime(...) CT_CALL_INT_AS("posix_trace_attr_getcreatetime", p_posix_trace_attr_getcreatetime, (__VA_ARGS__))
#define p_posix_trace_attr_getgenversion(...) CT_CALL_INT_AS("posix_trace_attr_getgenversion", p_posix_trace_attr_getgenversion, (__VA_ARGS__))
#define p_posix_trace_attr_getinherited(...) CT_CALL_INT_AS("posix_trace_attr_getinherited", p_posix_trace_attr_getinherited, (__VA_ARGS__))
#define p_posix_trace_attr_getlogfullpolicy(...) CT_CALL_INT_AS("posix_trace_attr_getlogfullpolicy", p_posix_trace_attr_getlogfullpolicy, (__VA_ARGS__))
#define p_posix_trace_attr_getlogsize(...) CT_CALL_INT_AS("posix_trace_attr_getlogsize", p_posix_trace_attr_getlogsize, (__VA_ARGS__))
#define p_posix_trace_attr_getmaxdatasize(...) CT_CALL_INT_AS("posix_trace_attr_getmaxdatasize", p_posix_trace_attr_getmaxdatasize, (__VA_ARGS__))
#define p_posix_trace_attr_getmaxsystemeventsize(...) CT_CALL_INT_AS("posix_trace_attr_getmaxsystemeventsize", p_posix_trace_attr_getmaxsystemeventsize, (__VA_ARGS__))
#define p_posix_trace_attr_getmaxusereventsize(...) CT_CALL_INT_AS("posix_trace_attr_getmaxusereventsize", p_posix_trace_attr_getmaxusereventsize, (__VA_ARGS__))
#define p_posix_trace_attr_getname(...) CT_CALL_INT_AS("posix_trace_attr_getname", p_posix_trace_attr_getname, (__VA_ARGS__))
#define p_posix_trace_attr_getstreamfullpolicy(...) CT_CALL_INT_AS("posix_trace_attr_getstreamfullpolicy", p_posix_trace_attr_getstreamfullpolicy, (__VA_ARGS__))
#define p_posix_trace_attr_getstreamsize(...) CT_CALL_INT_AS("posix_trace_attr_getstreamsize", p_posix_trace_attr_getstreamsize, (__VA_ARGS__))
#define p_posix_trace_attr_init(...) CT_CALL_INT_AS("posix_trace_attr_init", p_posix_trace_attr_init, (__VA_ARGS__))
#define p_posix_trace_attr_setinherited(...) CT_CALL_INT_AS("posix_trace_attr_setinherited", p_posix_trace_attr_setinherited, (__VA_ARGS__))
#define p_posix_trace_attr_setlogfullpolicy(...) CT_CALL_INT_AS("posix_trace_attr_setlogfullpolicy", p_posix_trace_attr_setlogfullpolicy, (__VA_ARGS__))
#define p_posix_trace_attr_setlogsize(...) CT_CALL_INT_AS("posix_trace_attr_setlogsize", p_posix_trace_attr_setlogsize, (__VA_ARGS__))
#define p_posix_trace_attr_setmaxdatasize(...) CT_CALL_INT_AS("posix_trace_attr_setmaxdatasize", p_posix_trace_attr_setmaxdatasize, (__VA_ARGS__))
#define p_posix_trace_attr_setname(...) CT_CALL_INT_AS("posix_trace_attr_setname", p_posix_trace_attr_setname, (__VA_ARGS__))
#define p_posix_trace_attr_setstreamfullpolicy(...) CT_CALL_INT_AS("posix_trace_attr_setstreamfullpolicy", p_posix_trace_attr_setstreamfullpolicy, (__VA_ARGS__))
#define p_posix_trace_attr_setstreamsize(...) CT_CALL_INT_AS("posix_trace_attr_setstreamsize", p_posix_trace_attr_setstreamsize, (__VA_ARGS__))
#define p_posix_trace_clear(...) CT_CALL_INT_AS("posix_trace_clear", p_posix_trace_clear, (__VA_ARGS__))
#define p_posix_trace_close(...) CT_CALL_INT_AS("posix_trace_close", p_posix_trace_close, (__VA_ARGS__))
#define p_posix_trace_create(...) CT_CALL_INT_AS("posix_trace_create", p_posix_trace_create, (__VA_ARGS__))
#define p_posix_trace_create_withlog(...) CT_CALL_INT_AS("posix_trace_create_withlog", p_posix_trace_create_withlog, (__VA_ARGS__))
#define p_posix_trace_eventid_equal(...) CT_CALL_INT_AS("posix_trace_eventid_equal", p_posix_trace_eventid_equal, (__VA_ARGS__))
#define p_posix_trace_eventid_get_name(...) CT_CALL_INT_AS("posix_trace_eventid_get_name", p_posix_trace_eventid_get_name, (__VA_ARGS__))
#define p_posix_trace_eventid_open(...) CT_CALL_INT_AS("posix_trace_eventid_open", p_posix_trace_eventid_open, (__VA_ARGS__))
#define p_posix_trace_eventset_add(...) CT_CALL_INT_AS("posix_trace_eventset_add", p_posix_trace_eventset_add, (__VA_ARGS__))
#define p_posix_trace_eventset_del(...) CT_CALL_INT_AS("posix_trace_eventset_del", p_posix_trace_eventset_del, (__VA_ARGS__))
#define p_posix_trace_eventset_empty(...) CT_CALL_INT_AS("posix_trace_eventset_empty", p_posix_trace_eventset_empty, (__VA_ARGS__))
#define p_posix_trace_eventset_fill(...) CT_CALL_INT_AS("posix_trace_eventset_fill", p_posix_trace_eventset_fill, (__VA_ARGS__))
#define p_posix_trace_eventset_ismember(...) CT_CALL_INT_AS("posix_trace_eventset_ismember", p_posix_trace_eventset_ismember, (__VA_ARGS__))
#define p_posix_trace_eventtypelist_getnext_id(...) CT_CALL_INT_AS("posix_trace_eventtypelist_getnext_id", p_posix_trace_eventtypelist_getnext_id, (__VA_ARGS__))
#define p_posix_trace_eventtypelist_rewind(...) CT_CALL_INT_AS("posix_trace_eventtypelist_rewind", p_posix_trace_eventtypelist_rewind, (__VA_ARGS__))
#define p_posix_trace_flush(...) CT_CALL_INT_AS("posix_trace_flush", p_posix_trace_flush, (__VA_ARGS__))
#define p_posix_trace_get_attr(...) CT_CALL_INT_AS("posix_trace_get_attr", p_posix_trace_get_attr, (__VA_ARGS__))
#define p_posix_trace_get_filter(...) CT_CALL_INT_AS("posix_trace_get_filter", p_posix_trace_get_filter, (__VA_ARGS__))
#define p_posix_trace_get_status(...) CT_CALL_INT_AS("posix_trace_get_status", p_posix_trace_get_status, (__VA_ARGS__))
#define p_posix_trace_getnext_event(...) CT_CALL_INT_AS("posix_trace_getnext_event", p_posix_trace_getnext_event, (__VA_ARGS__))
#define p_posix_trace_open(...) CT_CALL_INT_AS("posix_trace_open", p_posix_trace_open, (__VA_ARGS__))
#define p_posix_trace_rewind(...) CT_CALL_INT_AS("posix_trace_rewind", p_posix_trace_rewind, (__VA_ARGS__))
#define p_posix_trace_set_filter(...) CT_CALL_INT_AS("posix_trace_set_filter", p_posix_trace_set_filter, (__VA_ARGS__))
#define p_posix_trace_shutdown(...) CT_CALL_INT_AS("posix_trace_shutdown", p_posix_trace_shutdown, (__VA_ARGS__))
#define p_posix_trace_start(...) CT_CALL_INT_AS("posix_trace_start", p_posix_trace_start, (__VA_ARGS__))
#define p_posix_trace_stop(...) CT_CALL_INT_AS("posix_trace_stop", p_posix_trace_stop, (__VA_ARGS__))
#define p_posix_trace_timedgetnext_event(...) CT_CALL_INT_AS("posix_trace_timedgetnext_event", p_posix_trace_timedgetnext_event, (__VA_ARGS__))
#define p_posix_trace_trid_eventid_open(...) CT_CALL_INT_AS("posix_trace_trid_eventid_open", p_posix_trace_trid_eventid_open, (__VA_ARGS__))
#define p_posix_trace_trygetnext_event(...) CT_CALL_INT_AS("posix_trace_trygetnext_event", p_posix_trace_trygetnext_event, (__VA_ARGS__))
#define p_posix_trace_event(...) CT_CALL_VOID_AS("posix_trace_event", p_posix_trace_event, (__VA_ARGS__))

#endif /* CT_CALLS_H */
