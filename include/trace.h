/* SPDX-License-Identifier: MIT */
/*
 * <trace.h> -- the POSIX Tracing option (IEEE Std 1003.1-2008, 2016 edition:
 * XBD <trace.h>, XSH 2.11), as provided by the posixtrace reference
 * implementation (libposixtrace).
 *
 * Everything a conforming header must define is here: the five types, both
 * structures with every member, the 28 constants <trace.h> lists plus the five
 * other pages require (POSIX_TRACE_ERROR, the POSIX_TRACE_UNNAMED_USEREVENT
 * spelling, the three *_EVENTSET constants: CATALOGUE.md section 7, defects
 * 1 and 2), all 50 prototypes, and the limits.
 *
 * Options and limits.  glibc's <unistd.h> defines _POSIX_TRACE and the three
 * other option macros as -1, and its sysconf() answers -1 for every _SC_TRACE*
 * name.  This header therefore includes <unistd.h> first and then redefines
 * the four option macros with the values of this library, so that a program
 * including <trace.h> (in either order with <unistd.h>) sees what the library
 * it links with supports.  The run-time counterpart is posix_trace_sysconf(),
 * which answers the eight _SC_TRACE* names (and passes every other name on to
 * sysconf()).  The {TRACE_*_MAX} limits and their _POSIX_ minimums, which
 * belong to <limits.h>, are defined here because glibc's <limits.h> has none.
 *
 * Names beginning with posixtrace_ or __ are this implementation's own;
 * a portable program uses none of them.
 */
#ifndef POSIXTRACE_TRACE_H
#define POSIXTRACE_TRACE_H

#include <sys/types.h>
#include <stddef.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>
/* Its functions are the library's interface: see <posixtrace_api.h>. */
#include <posixtrace_api.h>

__POSIXTRACE_BEGIN_API

/* ---- Options (XBD <unistd.h>; CATALOGUE.md section 1) ------------------ */

#undef _POSIX_TRACE
#undef _POSIX_TRACE_EVENT_FILTER
#undef _POSIX_TRACE_INHERIT
#undef _POSIX_TRACE_LOG
#define _POSIX_TRACE               200809L
#define _POSIX_TRACE_EVENT_FILTER  200809L  /* TEF */
#define _POSIX_TRACE_INHERIT       200809L  /* TRI */
#define _POSIX_TRACE_LOG           200809L  /* TRL */

/* ---- Limits (XBD <limits.h>) ------------------------------------------- */

#ifndef _POSIX_TRACE_EVENT_NAME_MAX
#define _POSIX_TRACE_EVENT_NAME_MAX   30
#endif
#ifndef _POSIX_TRACE_NAME_MAX
#define _POSIX_TRACE_NAME_MAX         8
#endif
#ifndef _POSIX_TRACE_SYS_MAX
#define _POSIX_TRACE_SYS_MAX          8
#endif
#ifndef _POSIX_TRACE_USER_EVENT_MAX
#define _POSIX_TRACE_USER_EVENT_MAX   32
#endif

/* Longest event name, without the terminating NUL. */
#define TRACE_EVENT_NAME_MAX   63
/* Longest trace name or generation version, without the NUL.  Strings are
 * stored with at most TRACE_NAME_MAX - 1 characters, so that a buffer of
 * TRACE_NAME_MAX bytes (what XSH asks callers for) always holds the string
 * and its NUL (CATALOGUE.md section 7, defect 10). */
#define TRACE_NAME_MAX         __POSIXTRACE_NAME_MAX
/* Streams that may exist at once.  The reference's "system" is the
 * calling process: each process may have this many streams of its own. */
#define TRACE_SYS_MAX          64
/* User event type identifiers per traced process, the predefined unnamed
 * user event included. */
#define TRACE_USER_EVENT_MAX   __POSIXTRACE_USER_EVENT_MAX

/* ---- Types (XBD <sys/types.h>) ----------------------------------------- */

/* Shared with this implementation's <sys/types.h> (include/sys/types.h),
 * which defines them too, as XBD <sys/types.h> requires. */
#include <posixtrace_types.h>

/* ---- Structures (XSH 2.11.1) ------------------------------------------- */

struct posix_trace_event_info {
    trace_event_id_t posix_event_id;
    pid_t            posix_pid;
    void            *posix_prog_address;
    pthread_t        posix_thread_id;
    struct timespec  posix_timestamp;
    int              posix_truncation_status;
    int              posix_cpu;   /* extension: CPU of the recording thread
                                     (simulated or real), -1 if unknown */
};

struct posix_trace_status_info {
    int posix_stream_status;
    int posix_stream_full_status;
    int posix_stream_overrun_status;
    int posix_stream_flush_status;
    int posix_stream_flush_error;
    int posix_log_overrun_status;
    int posix_log_full_status;
};

/* ---- Constants --------------------------------------------------------- */

/* posix_stream_status */
#define POSIX_TRACE_RUNNING           1
#define POSIX_TRACE_SUSPENDED         2
/* posix_stream_full_status, posix_log_full_status */
#define POSIX_TRACE_FULL              1
#define POSIX_TRACE_NOT_FULL          2
/* posix_stream_overrun_status, posix_log_overrun_status */
#define POSIX_TRACE_OVERRUN           1
#define POSIX_TRACE_NO_OVERRUN        2
/* posix_stream_flush_status */
#define POSIX_TRACE_FLUSHING          1
#define POSIX_TRACE_NOT_FLUSHING      2
/* posix_truncation_status */
#define POSIX_TRACE_NOT_TRUNCATED     1
#define POSIX_TRACE_TRUNCATED_RECORD  2
#define POSIX_TRACE_TRUNCATED_READ    3
/* stream-full-policy and log-full-policy */
#define POSIX_TRACE_LOOP              1
#define POSIX_TRACE_UNTIL_FULL        2
#define POSIX_TRACE_FLUSH             3
#define POSIX_TRACE_APPEND            4
/* inheritance */
#define POSIX_TRACE_CLOSE_FOR_CHILD   1
#define POSIX_TRACE_INHERITED         2
/* the what argument of posix_trace_eventset_fill() */
#define POSIX_TRACE_WOPID_EVENTS      1
#define POSIX_TRACE_SYSTEM_EVENTS     2
#define POSIX_TRACE_ALL_EVENTS        3
/* the how argument of posix_trace_set_filter() */
#define POSIX_TRACE_SET_EVENTSET      1
#define POSIX_TRACE_ADD_EVENTSET      2
#define POSIX_TRACE_SUB_EVENTSET      3

/* System trace events (XSH 2.11.2) and the predefined user event.  Every
 * identifier is below __POSIXTRACE_EVENT_ID_LIMIT; user events follow the
 * unnamed one. */
#define POSIX_TRACE_START             ((trace_event_id_t)1)
#define POSIX_TRACE_STOP              ((trace_event_id_t)2)
#define POSIX_TRACE_FILTER            ((trace_event_id_t)3)
#define POSIX_TRACE_OVERFLOW          ((trace_event_id_t)4)
#define POSIX_TRACE_RESUME            ((trace_event_id_t)5)
#define POSIX_TRACE_FLUSH_START       ((trace_event_id_t)6)
#define POSIX_TRACE_FLUSH_STOP        ((trace_event_id_t)7)
#define POSIX_TRACE_ERROR             ((trace_event_id_t)8)
#define POSIX_TRACE_UNNAMED_USEREVENT ((trace_event_id_t)16)
#define POSIX_TRACE_UNNAMED_USER_EVENT POSIX_TRACE_UNNAMED_USEREVENT

/* ---- Functions (50) ---------------------------------------------------- */

int  posix_trace_attr_destroy(trace_attr_t *);
int  posix_trace_attr_getclockres(const trace_attr_t *, struct timespec *);
int  posix_trace_attr_getcreatetime(const trace_attr_t *, struct timespec *);
int  posix_trace_attr_getgenversion(const trace_attr_t *, char *);
int  posix_trace_attr_getinherited(const trace_attr_t *__restrict,
                                   int *__restrict);
int  posix_trace_attr_getlogfullpolicy(const trace_attr_t *__restrict,
                                       int *__restrict);
int  posix_trace_attr_getlogsize(const trace_attr_t *__restrict,
                                 size_t *__restrict);
int  posix_trace_attr_getmaxdatasize(const trace_attr_t *__restrict,
                                     size_t *__restrict);
int  posix_trace_attr_getmaxsystemeventsize(const trace_attr_t *__restrict,
                                            size_t *__restrict);
int  posix_trace_attr_getmaxusereventsize(const trace_attr_t *__restrict,
                                          size_t, size_t *__restrict);
int  posix_trace_attr_getname(const trace_attr_t *, char *);
int  posix_trace_attr_getstreamfullpolicy(const trace_attr_t *__restrict,
                                          int *__restrict);
int  posix_trace_attr_getstreamsize(const trace_attr_t *__restrict,
                                    size_t *__restrict);
int  posix_trace_attr_init(trace_attr_t *);
int  posix_trace_attr_setinherited(trace_attr_t *, int);
int  posix_trace_attr_setlogfullpolicy(trace_attr_t *, int);
int  posix_trace_attr_setlogsize(trace_attr_t *, size_t);
int  posix_trace_attr_setmaxdatasize(trace_attr_t *, size_t);
int  posix_trace_attr_setname(trace_attr_t *, const char *);
int  posix_trace_attr_setstreamfullpolicy(trace_attr_t *, int);
int  posix_trace_attr_setstreamsize(trace_attr_t *, size_t);
int  posix_trace_clear(trace_id_t);
int  posix_trace_close(trace_id_t);
int  posix_trace_create(pid_t, const trace_attr_t *__restrict,
                        trace_id_t *__restrict);
int  posix_trace_create_withlog(pid_t, const trace_attr_t *__restrict,
                                int, trace_id_t *__restrict);
void posix_trace_event(trace_event_id_t, const void *__restrict, size_t);
int  posix_trace_eventid_equal(trace_id_t, trace_event_id_t,
                               trace_event_id_t);
int  posix_trace_eventid_get_name(trace_id_t, trace_event_id_t, char *);
int  posix_trace_eventid_open(const char *__restrict,
                              trace_event_id_t *__restrict);
int  posix_trace_eventset_add(trace_event_id_t, trace_event_set_t *);
int  posix_trace_eventset_del(trace_event_id_t, trace_event_set_t *);
int  posix_trace_eventset_empty(trace_event_set_t *);
int  posix_trace_eventset_fill(trace_event_set_t *, int);
int  posix_trace_eventset_ismember(trace_event_id_t,
                                   const trace_event_set_t *__restrict,
                                   int *__restrict);
int  posix_trace_eventtypelist_getnext_id(trace_id_t,
                                          trace_event_id_t *__restrict,
                                          int *__restrict);
int  posix_trace_eventtypelist_rewind(trace_id_t);
int  posix_trace_flush(trace_id_t);
int  posix_trace_get_attr(trace_id_t, trace_attr_t *);
int  posix_trace_get_filter(trace_id_t, trace_event_set_t *);
int  posix_trace_get_status(trace_id_t, struct posix_trace_status_info *);
int  posix_trace_getnext_event(trace_id_t,
                               struct posix_trace_event_info *__restrict,
                               void *__restrict, size_t,
                               size_t *__restrict, int *__restrict);
int  posix_trace_open(int, trace_id_t *);
int  posix_trace_rewind(trace_id_t);
int  posix_trace_set_filter(trace_id_t, const trace_event_set_t *, int);
int  posix_trace_shutdown(trace_id_t);
int  posix_trace_start(trace_id_t);
int  posix_trace_stop(trace_id_t);
int  posix_trace_timedgetnext_event(trace_id_t,
                                    struct posix_trace_event_info *__restrict,
                                    void *__restrict, size_t,
                                    size_t *__restrict, int *__restrict,
                                    const struct timespec *__restrict);
int  posix_trace_trid_eventid_open(trace_id_t, const char *__restrict,
                                   trace_event_id_t *__restrict);
int  posix_trace_trygetnext_event(trace_id_t,
                                  struct posix_trace_event_info *__restrict,
                                  void *__restrict, size_t,
                                  size_t *__restrict, int *__restrict);

/* Extension: sysconf() for the eight _SC_TRACE* names, with this library's
 * answers (200809L or -1 for an option, the value for a limit); any other
 * name is passed to sysconf(). */
long posix_trace_sysconf(int name);

/* ---- posix_trace_event(): its first test in the caller (GNU C) ---------- */
/*
 * posix_trace_event() is also a macro here, as XSH 2.1.1 allows for any
 * function (its address, or "(posix_trace_event)(...)", is the function):
 * an inline test, one branch, tells whether the library has work for an
 * event of this type -- a stream of the process may record it, or a
 * controller has posted the process a new stream -- so that an event with
 * nothing to record (the process traced into no stream, or its type
 * filtered out) costs four loads and a branch in the caller and no call
 * (the id's mask is made once where the id does not change); else it calls
 * __posixtrace_event_work(), the function less that test (which the
 * function itself makes).  Each argument is evaluated once (C11 7.1.4).
 * __posixtrace_gate is the library's, written by it alone; its layout is
 * part of the version node of the library's interface.  Define
 * POSIXTRACE_NO_INLINE_EVENT to call the function every time.
 */
#if defined(__GNUC__)
struct __posixtrace_gate {
    const unsigned int *__epoch;            /* nonzero: a controller posted the process a
                                             * stream it has not attached yet */
    unsigned int __seen;                    /* 0 (binaries built with an earlier
                                             * <trace.h> test *__epoch ^ __seen) */
    const unsigned long long *__pass;       /* bit id: a stream of the process may
                                             * record id (all set: look at each) */
};
extern struct __posixtrace_gate __posixtrace_gate;
void __posixtrace_event_work(trace_event_id_t, const void *__restrict, size_t);

#define __POSIXTRACE_PASS_WORDS \
    ((unsigned int)(sizeof(trace_event_set_t) / sizeof(unsigned long long)))

static __inline__ __attribute__((__always_inline__)) int
__posixtrace_event_has_work(trace_event_id_t __id)
{
    /* Where id's bit is, as a word index and a mask, before the loads (with
     * the same id event after event, a loop or a constant, made once). */
    unsigned int __w = __id / 64u < __POSIXTRACE_PASS_WORDS ? __id / 64u
                                                              : __POSIXTRACE_PASS_WORDS - 1u;
    unsigned long long __mask = (unsigned long long)(__id < __POSIXTRACE_EVENT_ID_LIMIT)
                                << (__id % 64u);
    const unsigned long long *__pass =
        __atomic_load_n(&__posixtrace_gate.__pass, __ATOMIC_ACQUIRE);
    unsigned int __moved = __atomic_load_n(__posixtrace_gate.__epoch, __ATOMIC_ACQUIRE);
    unsigned long long __bit = __atomic_load_n(&__pass[__w], __ATOMIC_RELAXED) & __mask;
    return __builtin_expect((__moved | __bit) != 0, 0);
}

#if !defined(__cplusplus) && !defined(POSIXTRACE_NO_INLINE_EVENT)
static __inline__ __attribute__((__always_inline__)) void
__posixtrace_event(trace_event_id_t __id, const void *__restrict __data, size_t __len)
{
    if (__posixtrace_event_has_work(__id))
        __posixtrace_event_work(__id, __data, __len);
}
#define posix_trace_event(id, data, len) __posixtrace_event((id), (data), (len))
#endif
#endif

__POSIXTRACE_END_API

#endif /* POSIXTRACE_TRACE_H */
