/* SPDX-License-Identifier: MIT */
/*
 * ref_side.c -- the reference side of the odd vendor's adapter: each bridge
 * function (oddref_bridge.h) is one call of the reference, with the reference's
 * types and constants translated to and from the neutral ones.
 *
 * Sees only the reference's <trace.h> (-Iinclude).  Its posix_trace_* calls,
 * like the reference library's definitions, are renamed oddref_posix_trace_*
 * when the adapter is built (mk/odd-vendor.mk), so that they do not meet the
 * odd vendor's functions of the same names.
 */
#include <trace.h>
#include "oddref_tables.h"

_Static_assert(sizeof(trace_attr_t) <= ODDREF_ATTR_WORDS * sizeof(unsigned long long),
               "the odd trace_attr_t has no room for the reference's");
_Static_assert(sizeof(trace_event_set_t) <= ODDREF_EVENT_SET_WORDS * sizeof(unsigned long long),
               "the odd trace_event_set_t has no room for the reference's");
_Static_assert(sizeof(trace_id_t) <= sizeof(unsigned long),
               "the reference's trace_id_t does not fit the bridge's unsigned long");

#define ATTR(a)  ((trace_attr_t *)(a))
#define CATTR(a) ((const trace_attr_t *)(a))
#define TRID(t)  ((trace_id_t)(t))
#define EV(n)    oddref_event_from_neutral(n)

int oddref_attr_init(void *a) { return posix_trace_attr_init(ATTR(a)); }
int oddref_attr_destroy(void *a) { return posix_trace_attr_destroy(ATTR(a)); }
int oddref_attr_getclockres(const void *a, struct timespec *ts)
{ return posix_trace_attr_getclockres(CATTR(a), ts); }
int oddref_attr_getcreatetime(const void *a, struct timespec *ts)
{ return posix_trace_attr_getcreatetime(CATTR(a), ts); }
int oddref_attr_getgenversion(const void *a, char *s)
{ return posix_trace_attr_getgenversion(CATTR(a), s); }
int oddref_attr_getname(const void *a, char *s) { return posix_trace_attr_getname(CATTR(a), s); }
int oddref_attr_setname(void *a, const char *s) { return posix_trace_attr_setname(ATTR(a), s); }

/* A getter of a constant: the neutral value, written only on success.  (The
 * helpers below take the callee's output by address: it is read after the
 * call, whatever the order in which arguments are evaluated.) */
static int neutral_out(int err, int kind, const int *value, int *c)
{
    if (err == 0)
        *c = oddref_const_to_neutral(kind, *value);
    return err;
}

int oddref_attr_getinherited(const void *a, int *c)
{
    int v;
    return neutral_out(posix_trace_attr_getinherited(CATTR(a), &v), ODDREF_K_INHERIT, &v, c);
}
int oddref_attr_setinherited(void *a, int c)
{ return posix_trace_attr_setinherited(ATTR(a), oddref_const_from_neutral(c)); }
int oddref_attr_getlogfullpolicy(const void *a, int *c)
{
    int v;
    return neutral_out(posix_trace_attr_getlogfullpolicy(CATTR(a), &v), ODDREF_K_LOG_POLICY, &v,
                       c);
}
int oddref_attr_setlogfullpolicy(void *a, int c)
{ return posix_trace_attr_setlogfullpolicy(ATTR(a), oddref_const_from_neutral(c)); }
int oddref_attr_getstreamfullpolicy(const void *a, int *c)
{
    int v;
    return neutral_out(posix_trace_attr_getstreamfullpolicy(CATTR(a), &v),
                       ODDREF_K_STREAM_POLICY, &v, c);
}
int oddref_attr_setstreamfullpolicy(void *a, int c)
{ return posix_trace_attr_setstreamfullpolicy(ATTR(a), oddref_const_from_neutral(c)); }

int oddref_attr_getlogsize(const void *a, size_t *n) { return posix_trace_attr_getlogsize(CATTR(a), n); }
int oddref_attr_setlogsize(void *a, size_t n) { return posix_trace_attr_setlogsize(ATTR(a), n); }
int oddref_attr_getmaxdatasize(const void *a, size_t *n)
{ return posix_trace_attr_getmaxdatasize(CATTR(a), n); }
int oddref_attr_setmaxdatasize(void *a, size_t n) { return posix_trace_attr_setmaxdatasize(ATTR(a), n); }
int oddref_attr_getstreamsize(const void *a, size_t *n)
{ return posix_trace_attr_getstreamsize(CATTR(a), n); }
int oddref_attr_setstreamsize(void *a, size_t n) { return posix_trace_attr_setstreamsize(ATTR(a), n); }
int oddref_attr_getmaxsystemeventsize(const void *a, size_t *n)
{ return posix_trace_attr_getmaxsystemeventsize(CATTR(a), n); }
int oddref_attr_getmaxusereventsize(const void *a, size_t data_len, size_t *n)
{ return posix_trace_attr_getmaxusereventsize(CATTR(a), data_len, n); }

/* A call that gives a trace id: written only on success. */
static int trid_out(int err, const trace_id_t *t, unsigned long *trid)
{
    if (err == 0)
        *trid = (unsigned long)*t;
    return err;
}

int oddref_create(pid_t pid, const void *attr, unsigned long *trid)
{
    trace_id_t t;
    return trid_out(posix_trace_create(pid, CATTR(attr), &t), &t, trid);
}
int oddref_create_withlog(pid_t pid, const void *attr, int fd, unsigned long *trid)
{
    trace_id_t t;
    return trid_out(posix_trace_create_withlog(pid, CATTR(attr), fd, &t), &t, trid);
}
int oddref_open(int fd, unsigned long *trid)
{
    trace_id_t t;
    return trid_out(posix_trace_open(fd, &t), &t, trid);
}
int oddref_clear(unsigned long trid) { return posix_trace_clear(TRID(trid)); }
int oddref_close(unsigned long trid) { return posix_trace_close(TRID(trid)); }
int oddref_flush(unsigned long trid) { return posix_trace_flush(TRID(trid)); }
int oddref_rewind(unsigned long trid) { return posix_trace_rewind(TRID(trid)); }
int oddref_shutdown(unsigned long trid) { return posix_trace_shutdown(TRID(trid)); }
int oddref_start(unsigned long trid) { return posix_trace_start(TRID(trid)); }
int oddref_stop(unsigned long trid) { return posix_trace_stop(TRID(trid)); }
int oddref_get_attr(unsigned long trid, void *attr) { return posix_trace_get_attr(TRID(trid), ATTR(attr)); }
int oddref_get_filter(unsigned long trid, void *set)
{ return posix_trace_get_filter(TRID(trid), (trace_event_set_t *)set); }
int oddref_set_filter(unsigned long trid, const void *set, int how)
{
    return posix_trace_set_filter(TRID(trid), (const trace_event_set_t *)set,
                                  oddref_const_from_neutral(how));
}

int oddref_get_status(unsigned long trid, struct oddref_status *st)
{
    struct posix_trace_status_info s;
    int err = posix_trace_get_status(TRID(trid), &s);
    if (err != 0)
        return err;
    st->stream_status = oddref_const_to_neutral(ODDREF_K_STREAM_STATUS, s.posix_stream_status);
    st->stream_full = oddref_const_to_neutral(ODDREF_K_FULL, s.posix_stream_full_status);
    st->stream_overrun = oddref_const_to_neutral(ODDREF_K_OVERRUN, s.posix_stream_overrun_status);
    st->stream_flush = oddref_const_to_neutral(ODDREF_K_FLUSHING, s.posix_stream_flush_status);
    st->stream_flush_error = s.posix_stream_flush_error;
    st->log_overrun = oddref_const_to_neutral(ODDREF_K_OVERRUN, s.posix_log_overrun_status);
    st->log_full = oddref_const_to_neutral(ODDREF_K_FULL, s.posix_log_full_status);
    return 0;
}

void oddref_event(long long ev, const void *data, size_t len) { posix_trace_event(EV(ev), data, len); }

int oddref_eventid_equal(unsigned long trid, long long e1, long long e2)
{ return posix_trace_eventid_equal(TRID(trid), EV(e1), EV(e2)); }
int oddref_eventid_get_name(unsigned long trid, long long ev, char *name)
{ return posix_trace_eventid_get_name(TRID(trid), EV(ev), name); }

/* A call that gives an event id: written only on success. */
static int event_out(int err, const trace_event_id_t *id, long long *ev)
{
    if (err == 0)
        *ev = oddref_event_to_neutral(*id);
    return err;
}

int oddref_eventid_open(const char *name, long long *ev)
{
    trace_event_id_t id;
    return event_out(posix_trace_eventid_open(name, &id), &id, ev);
}
int oddref_trid_eventid_open(unsigned long trid, const char *name, long long *ev)
{
    trace_event_id_t id;
    return event_out(posix_trace_trid_eventid_open(TRID(trid), name, &id), &id, ev);
}
int oddref_eventtypelist_getnext_id(unsigned long trid, long long *ev, int *unavailable)
{
    trace_event_id_t id;
    int err = posix_trace_eventtypelist_getnext_id(TRID(trid), &id, unavailable);
    if (err == 0 && !*unavailable)
        *ev = oddref_event_to_neutral(id);
    return err;
}
int oddref_eventtypelist_rewind(unsigned long trid)
{ return posix_trace_eventtypelist_rewind(TRID(trid)); }

size_t oddref_event_set_size(void) { return sizeof(trace_event_set_t); }
int oddref_eventset_add(long long ev, void *set)
{ return posix_trace_eventset_add(EV(ev), (trace_event_set_t *)set); }
int oddref_eventset_del(long long ev, void *set)
{ return posix_trace_eventset_del(EV(ev), (trace_event_set_t *)set); }
int oddref_eventset_empty(void *set) { return posix_trace_eventset_empty((trace_event_set_t *)set); }
int oddref_eventset_fill(void *set, int what)
{ return posix_trace_eventset_fill((trace_event_set_t *)set, oddref_const_from_neutral(what)); }
int oddref_eventset_ismember(long long ev, const void *set, int *member)
{ return posix_trace_eventset_ismember(EV(ev), (const trace_event_set_t *)set, member); }

int oddref_getnext(unsigned long trid, struct oddref_event_info *info, void *data,
                   size_t num_bytes, size_t *data_len, int *unavailable, int how,
                   const struct timespec *abstime)
{
    struct posix_trace_event_info e;
    int err = how == ODDREF_TRYGETNEXT
            ? posix_trace_trygetnext_event(TRID(trid), &e, data, num_bytes, data_len,
                                           unavailable)
            : how == ODDREF_TIMEDGETNEXT
            ? posix_trace_timedgetnext_event(TRID(trid), &e, data, num_bytes, data_len,
                                             unavailable, abstime)
            : posix_trace_getnext_event(TRID(trid), &e, data, num_bytes, data_len, unavailable);
    if (err != 0 || *unavailable)
        return err;
    info->event = oddref_event_to_neutral(e.posix_event_id);
    info->pid = e.posix_pid;
    info->prog_address = e.posix_prog_address;
    info->thread = e.posix_thread_id;
    info->timestamp = e.posix_timestamp;
    info->truncation = oddref_const_to_neutral(ODDREF_K_TRUNCATION, e.posix_truncation_status);
    return 0;
}

long oddref_sysconf(int name) { return posix_trace_sysconf(name); }
