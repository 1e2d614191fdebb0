/* SPDX-License-Identifier: MIT */
/*
 * <trace.h> of the odd vendor: a test fixture (harness/vendors/odd/README.md)
 * that makes every choice XBD <trace.h> leaves to the implementation
 * differently from the reference (include/trace.h), so that a portable test
 * that assumed one of the reference's choices fails against it.  The library
 * behind it is a thin adapter over the reference (adapter/).
 *
 *   - The types come from this vendor's <sys/types.h>, included here:
 *     trace_id_t is a structure, trace_event_id_t an id_t.
 *   - No constant is 0 or 1.  Values of one kind are distinct (the status
 *     and policy tests rely on that); across kinds they need not be, and
 *     POSIX_TRACE_APPEND (a log full policy) == POSIX_TRACE_FLUSH (a stream
 *     full policy): different attributes, so the standard allows it.
 *   - System event ids from 512, the unnamed user event 1024, and the user
 *     ids posix_trace_eventid_open() gives after it; only the XSH spelling
 *     POSIX_TRACE_UNNAMED_USEREVENT (either satisfies: ruling 1).
 *   - posix_trace_eventid_equal() returns 7 for equal ids: the standard
 *     promises only "non-zero".
 *   - The four options are defined here as 200809L (over the C library's
 *     <unistd.h>); sysconf() answers the eight _SC_TRACE* names.  No
 *     {TRACE_*_MAX} macros and no <limits.h> minima (see include/limits.h).
 *   - No posix_trace_sysconf() (the reference's extension).
 */
#ifndef ODD_VENDOR_TRACE_H
#define ODD_VENDOR_TRACE_H

#include <sys/types.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Options (XBD <unistd.h>) -------------------------------------------- */

#undef _POSIX_TRACE
#undef _POSIX_TRACE_EVENT_FILTER
#undef _POSIX_TRACE_INHERIT
#undef _POSIX_TRACE_LOG
#define _POSIX_TRACE               200809L
#define _POSIX_TRACE_EVENT_FILTER  200809L
#define _POSIX_TRACE_INHERIT       200809L
#define _POSIX_TRACE_LOG           200809L

/* ---- Structures (XSH 2.11.1): the members in another order, and more ------ */

struct posix_trace_event_info {
    struct timespec  posix_timestamp;
    int              posix_truncation_status;
    void            *posix_prog_address;
    pthread_t        posix_thread_id;
    pid_t            posix_pid;
    trace_event_id_t posix_event_id;
    unsigned long    __odd_sequence;
};

struct posix_trace_status_info {
    int posix_log_full_status;
    int posix_log_overrun_status;
    int posix_stream_flush_error;
    int posix_stream_flush_status;
    int posix_stream_overrun_status;
    int posix_stream_full_status;
    int posix_stream_status;
    int __odd_reserved[3];
};

/* ---- Constants: never 0 or 1 --------------------------------------------- */

#define POSIX_TRACE_RUNNING           21
#define POSIX_TRACE_SUSPENDED         22
#define POSIX_TRACE_FULL              31
#define POSIX_TRACE_NOT_FULL          32
#define POSIX_TRACE_OVERRUN           41
#define POSIX_TRACE_NO_OVERRUN        42
#define POSIX_TRACE_FLUSHING          51
#define POSIX_TRACE_NOT_FLUSHING      52
#define POSIX_TRACE_NOT_TRUNCATED     61
#define POSIX_TRACE_TRUNCATED_RECORD  62
#define POSIX_TRACE_TRUNCATED_READ    63
/* stream full policy: LOOP, UNTIL_FULL, FLUSH; log full policy: LOOP,
 * UNTIL_FULL, APPEND.  FLUSH and APPEND share a value. */
#define POSIX_TRACE_LOOP              71
#define POSIX_TRACE_UNTIL_FULL        72
#define POSIX_TRACE_FLUSH             73
#define POSIX_TRACE_APPEND            73
#define POSIX_TRACE_CLOSE_FOR_CHILD   81
#define POSIX_TRACE_INHERITED         82
#define POSIX_TRACE_WOPID_EVENTS      91
#define POSIX_TRACE_SYSTEM_EVENTS     92
#define POSIX_TRACE_ALL_EVENTS        93
#define POSIX_TRACE_SET_EVENTSET      101
#define POSIX_TRACE_ADD_EVENTSET      102
#define POSIX_TRACE_SUB_EVENTSET      103

/* System events from 512; the unnamed user event 1024, user events after it. */
#define POSIX_TRACE_START             ((trace_event_id_t)512)
#define POSIX_TRACE_STOP              ((trace_event_id_t)513)
#define POSIX_TRACE_FILTER            ((trace_event_id_t)514)
#define POSIX_TRACE_OVERFLOW          ((trace_event_id_t)515)
#define POSIX_TRACE_RESUME            ((trace_event_id_t)516)
#define POSIX_TRACE_FLUSH_START       ((trace_event_id_t)517)
#define POSIX_TRACE_FLUSH_STOP        ((trace_event_id_t)518)
#define POSIX_TRACE_ERROR             ((trace_event_id_t)519)
#define POSIX_TRACE_UNNAMED_USEREVENT ((trace_event_id_t)1024)

/* ---- Functions (50) -------------------------------------------------------- */

int  posix_trace_attr_destroy(trace_attr_t *);
int  posix_trace_attr_getclockres(const trace_attr_t *, struct timespec *);
int  posix_trace_attr_getcreatetime(const trace_attr_t *, struct timespec *);
int  posix_trace_attr_getgenversion(const trace_attr_t *, char *);
int  posix_trace_attr_getinherited(const trace_attr_t *restrict, int *restrict);
int  posix_trace_attr_getlogfullpolicy(const trace_attr_t *restrict, int *restrict);
int  posix_trace_attr_getlogsize(const trace_attr_t *restrict, size_t *restrict);
int  posix_trace_attr_getmaxdatasize(const trace_attr_t *restrict, size_t *restrict);
int  posix_trace_attr_getmaxsystemeventsize(const trace_attr_t *restrict,
                                            size_t *restrict);
int  posix_trace_attr_getmaxusereventsize(const trace_attr_t *restrict, size_t,
                                          size_t *restrict);
int  posix_trace_attr_getname(const trace_attr_t *, char *);
int  posix_trace_attr_getstreamfullpolicy(const trace_attr_t *restrict, int *restrict);
int  posix_trace_attr_getstreamsize(const trace_attr_t *restrict, size_t *restrict);
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
int  posix_trace_create(pid_t, const trace_attr_t *restrict, trace_id_t *restrict);
int  posix_trace_create_withlog(pid_t, const trace_attr_t *restrict, int,
                                trace_id_t *restrict);
void posix_trace_event(trace_event_id_t, const void *restrict, size_t);
int  posix_trace_eventid_equal(trace_id_t, trace_event_id_t, trace_event_id_t);
int  posix_trace_eventid_get_name(trace_id_t, trace_event_id_t, char *);
int  posix_trace_eventid_open(const char *restrict, trace_event_id_t *restrict);
int  posix_trace_eventset_add(trace_event_id_t, trace_event_set_t *);
int  posix_trace_eventset_del(trace_event_id_t, trace_event_set_t *);
int  posix_trace_eventset_empty(trace_event_set_t *);
int  posix_trace_eventset_fill(trace_event_set_t *, int);
int  posix_trace_eventset_ismember(trace_event_id_t, const trace_event_set_t *restrict,
                                   int *restrict);
int  posix_trace_eventtypelist_getnext_id(trace_id_t, trace_event_id_t *restrict,
                                          int *restrict);
int  posix_trace_eventtypelist_rewind(trace_id_t);
int  posix_trace_flush(trace_id_t);
int  posix_trace_get_attr(trace_id_t, trace_attr_t *);
int  posix_trace_get_filter(trace_id_t, trace_event_set_t *);
int  posix_trace_get_status(trace_id_t, struct posix_trace_status_info *);
int  posix_trace_getnext_event(trace_id_t, struct posix_trace_event_info *restrict,
                               void *restrict, size_t, size_t *restrict, int *restrict);
int  posix_trace_open(int, trace_id_t *);
int  posix_trace_rewind(trace_id_t);
int  posix_trace_set_filter(trace_id_t, const trace_event_set_t *, int);
int  posix_trace_shutdown(trace_id_t);
int  posix_trace_start(trace_id_t);
int  posix_trace_stop(trace_id_t);
int  posix_trace_timedgetnext_event(trace_id_t, struct posix_trace_event_info *restrict,
                                    void *restrict, size_t, size_t *restrict,
                                    int *restrict, const struct timespec *restrict);
int  posix_trace_trid_eventid_open(trace_id_t, const char *restrict,
                                   trace_event_id_t *restrict);
int  posix_trace_trygetnext_event(trace_id_t, struct posix_trace_event_info *restrict,
                                  void *restrict, size_t, size_t *restrict, int *restrict);

#ifdef __cplusplus
}
#endif

#endif /* ODD_VENDOR_TRACE_H */
