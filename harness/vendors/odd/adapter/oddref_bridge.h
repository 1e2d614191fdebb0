/* SPDX-License-Identifier: MIT */
/*
 * oddref_bridge.h -- how the odd vendor's adapter talks to the reference.
 *
 * The adapter has two sides that never see each other's <trace.h>: odd_api.c
 * (and odd_ids.c, odd_sysconf.c) sees only the odd vendor's header and
 * defines the posix_trace_* functions programs call; ref_side.c sees only the
 * reference's header and calls the reference, whose posix_trace_* symbols are
 * renamed oddref_posix_trace_* in the library the adapter links with
 * (mk/odd-vendor.mk), so that both sets can live in one program.  Between
 * them only plain C types pass, declared here:
 *
 *   a trace stream     unsigned long (the reference's trace_id_t, converted
 *                      by ref_side.c); the odd side maps its structure ids
 *                      to these (odd_ids.c)
 *   an event id        long long, neutral: ODDREF_EV_* for the system events,
 *                      0 for the unnamed user event, n > 0 for the n-th user
 *                      event after it, ODDREF_EV_INVALID for an id that is
 *                      none of these (each side maps its own ids:
 *                      oddref_tables.h)
 *   a constant         int, neutral: its position in ODDREF_CONSTANTS
 *                      (oddref_tables.h), ODDREF_C_INVALID for a value that
 *                      is no constant of its kind
 *   an attributes object, an event set   the reference's object, stored inside
 *                      the odd one (void *)
 *   an error number    as is
 */
#ifndef ODDREF_BRIDGE_H
#define ODDREF_BRIDGE_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* The room the odd <sys/types.h> gives the reference's objects, in
 * unsigned long long words; each side checks it at compile time. */
#define ODDREF_ATTR_WORDS       64
#define ODDREF_EVENT_SET_WORDS  8

/* A trace id the odd side does not know: the reference is given this, and
 * answers as it does for any id that is not a stream's. */
#define ODDREF_NO_STREAM  (~0UL)

/* Neutral event ids. */
#define ODDREF_EV_START        (-1LL)
#define ODDREF_EV_STOP         (-2LL)
#define ODDREF_EV_FILTER       (-3LL)
#define ODDREF_EV_OVERFLOW     (-4LL)
#define ODDREF_EV_RESUME       (-5LL)
#define ODDREF_EV_FLUSH_START  (-6LL)
#define ODDREF_EV_FLUSH_STOP   (-7LL)
#define ODDREF_EV_ERROR        (-8LL)
#define ODDREF_EV_UNNAMED      0LL
#define ODDREF_EV_INVALID      (-1000LL)

#define ODDREF_C_INVALID (-1)

/* struct posix_trace_event_info, neutral. */
struct oddref_event_info {
    long long       event;
    pid_t           pid;
    void           *prog_address;
    pthread_t       thread;
    struct timespec timestamp;
    int             truncation;         /* neutral constant */
};

/* struct posix_trace_status_info, neutral (flush_error is an errno). */
struct oddref_status {
    int stream_status, stream_full, stream_overrun, stream_flush, stream_flush_error,
        log_overrun, log_full;
};

/* ---- ref_side.c: the reference, one call each ------------------------------ */

int oddref_attr_init(void *a);
int oddref_attr_destroy(void *a);
int oddref_attr_getclockres(const void *a, struct timespec *ts);
int oddref_attr_getcreatetime(const void *a, struct timespec *ts);
int oddref_attr_getgenversion(const void *a, char *s);
int oddref_attr_getname(const void *a, char *s);
int oddref_attr_setname(void *a, const char *s);
int oddref_attr_getinherited(const void *a, int *c);
int oddref_attr_setinherited(void *a, int c);
int oddref_attr_getlogfullpolicy(const void *a, int *c);
int oddref_attr_setlogfullpolicy(void *a, int c);
int oddref_attr_getstreamfullpolicy(const void *a, int *c);
int oddref_attr_setstreamfullpolicy(void *a, int c);
int oddref_attr_getlogsize(const void *a, size_t *n);
int oddref_attr_setlogsize(void *a, size_t n);
int oddref_attr_getmaxdatasize(const void *a, size_t *n);
int oddref_attr_setmaxdatasize(void *a, size_t n);
int oddref_attr_getstreamsize(const void *a, size_t *n);
int oddref_attr_setstreamsize(void *a, size_t n);
int oddref_attr_getmaxsystemeventsize(const void *a, size_t *n);
int oddref_attr_getmaxusereventsize(const void *a, size_t data_len, size_t *n);

int oddref_create(pid_t pid, const void *attr, unsigned long *trid);
int oddref_create_withlog(pid_t pid, const void *attr, int fd, unsigned long *trid);
int oddref_open(int fd, unsigned long *trid);
int oddref_clear(unsigned long trid);
int oddref_close(unsigned long trid);
int oddref_flush(unsigned long trid);
int oddref_rewind(unsigned long trid);
int oddref_shutdown(unsigned long trid);
int oddref_start(unsigned long trid);
int oddref_stop(unsigned long trid);
int oddref_get_attr(unsigned long trid, void *attr);
int oddref_get_status(unsigned long trid, struct oddref_status *st);
int oddref_get_filter(unsigned long trid, void *set);
int oddref_set_filter(unsigned long trid, const void *set, int how);

void oddref_event(long long ev, const void *data, size_t len);
int oddref_eventid_equal(unsigned long trid, long long e1, long long e2);
int oddref_eventid_get_name(unsigned long trid, long long ev, char *name);
int oddref_eventid_open(const char *name, long long *ev);
int oddref_trid_eventid_open(unsigned long trid, const char *name, long long *ev);
int oddref_eventtypelist_getnext_id(unsigned long trid, long long *ev, int *unavailable);
int oddref_eventtypelist_rewind(unsigned long trid);

size_t oddref_event_set_size(void);       /* sizeof the reference's set */
int oddref_eventset_add(long long ev, void *set);
int oddref_eventset_del(long long ev, void *set);
int oddref_eventset_empty(void *set);
int oddref_eventset_fill(void *set, int what);
int oddref_eventset_ismember(long long ev, const void *set, int *member);

/* The getnext family: how says which function (abstime is for the timed one). */
enum { ODDREF_GETNEXT, ODDREF_TIMEDGETNEXT, ODDREF_TRYGETNEXT };
int oddref_getnext(unsigned long trid, struct oddref_event_info *info, void *data,
                   size_t num_bytes, size_t *data_len, int *unavailable, int how,
                   const struct timespec *abstime);

/* The reference's posix_trace_sysconf(). */
long oddref_sysconf(int name);

#endif /* ODDREF_BRIDGE_H */
