/* SPDX-License-Identifier: MIT */
/*
 * odd_api.c -- the odd vendor's <trace.h> functions: each translates its
 * arguments to the bridge's neutral values (oddref_bridge.h), calls the
 * reference through ref_side.c, and translates the results back.  Errors pass
 * through unchanged.  Sees only the odd vendor's <trace.h>.
 *
 * Deliberately odd, where the standard allows it (see ../README.md):
 * posix_trace_eventid_equal() answers 7 for equal ids ("a non-zero value",
 * XSH posix_trace_eventid_equal RETURN VALUE); the default attributes and the
 * generation version are this vendor's own; START and FILTER carry its own
 * event sets.
 */
#include <stdint.h>
#include <string.h>
#include <trace.h>
#include "odd_ids.h"
#include "oddref_tables.h"

_Static_assert(sizeof(((trace_attr_t *)0)->__odd_impl) ==
               ODDREF_ATTR_WORDS * sizeof(unsigned long long), "trace_attr_t's room");
_Static_assert(sizeof(((trace_event_set_t *)0)->__odd_impl) ==
               ODDREF_EVENT_SET_WORDS * sizeof(unsigned long long), "trace_event_set_t's room");

/* What posix_trace_eventid_equal() returns for equal ids. */
#define ODD_EQUAL 7

/* The reference's object inside the odd one (NULL stays NULL: the reference
 * answers it). */
#define REF(a)  ((a) ? (a)->__odd_impl : NULL)
#define TO(kind, v)   oddref_const_to_neutral(ODDREF_K_##kind, v)
#define FROM(n)       oddref_const_from_neutral(n)
#define EV(id)        oddref_event_to_neutral(id)

/* ---- attributes ---------------------------------------------------------------- */

/* Defaults of its own, where the standard leaves them to the implementation
 * (XSH posix_trace_attr_init: "implementation-defined default values"): a
 * small maximum data size and a smaller stream than the reference's. */
#define ODD_DEFAULT_MAX_DATA_SIZE  24
#define ODD_DEFAULT_STREAM_SIZE    20000

int posix_trace_attr_init(trace_attr_t *a)
{
    int err = oddref_attr_init(REF(a));
    if (err == 0)
        err = oddref_attr_setmaxdatasize(REF(a), ODD_DEFAULT_MAX_DATA_SIZE);
    if (err == 0)
        err = oddref_attr_setstreamsize(REF(a), ODD_DEFAULT_STREAM_SIZE);
    return err;
}
int posix_trace_attr_destroy(trace_attr_t *a) { return oddref_attr_destroy(REF(a)); }
int posix_trace_attr_getclockres(const trace_attr_t *a, struct timespec *ts)
{ return oddref_attr_getclockres(REF(a), ts); }
int posix_trace_attr_getcreatetime(const trace_attr_t *a, struct timespec *ts)
{ return oddref_attr_getcreatetime(REF(a), ts); }
/* A generation version of its own (XSH posix_trace_attr_getgenversion:
 * implementation-defined); errors are the reference's. */
#define ODD_GENVERSION "odd-vendor 7"
int posix_trace_attr_getgenversion(const trace_attr_t *a, char *s)
{
    char ref[4096];
    int err = oddref_attr_getgenversion(REF(a), s ? ref : NULL);
    if (err == 0)
        memcpy(s, ODD_GENVERSION, sizeof ODD_GENVERSION);
    return err;
}
int posix_trace_attr_getname(const trace_attr_t *a, char *s) { return oddref_attr_getname(REF(a), s); }
int posix_trace_attr_setname(trace_attr_t *a, const char *s) { return oddref_attr_setname(REF(a), s); }

/* A neutral constant to the caller's, written only on success.  (The helpers
 * take the bridge's output by address: it is read after the call, whatever
 * the order in which arguments are evaluated.) */
static int const_out(int err, const int *n, int *out)
{
    if (err == 0)
        *out = FROM(*n);
    return err;
}

int posix_trace_attr_getinherited(const trace_attr_t *restrict a, int *restrict v)
{
    int n;
    return const_out(oddref_attr_getinherited(REF(a), &n), &n, v);
}
int posix_trace_attr_setinherited(trace_attr_t *a, int v)
{ return oddref_attr_setinherited(REF(a), TO(INHERIT, v)); }
int posix_trace_attr_getlogfullpolicy(const trace_attr_t *restrict a, int *restrict v)
{
    int n;
    return const_out(oddref_attr_getlogfullpolicy(REF(a), &n), &n, v);
}
int posix_trace_attr_setlogfullpolicy(trace_attr_t *a, int v)
{ return oddref_attr_setlogfullpolicy(REF(a), TO(LOG_POLICY, v)); }
int posix_trace_attr_getstreamfullpolicy(const trace_attr_t *restrict a, int *restrict v)
{
    int n;
    return const_out(oddref_attr_getstreamfullpolicy(REF(a), &n), &n, v);
}
int posix_trace_attr_setstreamfullpolicy(trace_attr_t *a, int v)
{ return oddref_attr_setstreamfullpolicy(REF(a), TO(STREAM_POLICY, v)); }

int posix_trace_attr_getlogsize(const trace_attr_t *restrict a, size_t *restrict n)
{ return oddref_attr_getlogsize(REF(a), n); }
int posix_trace_attr_setlogsize(trace_attr_t *a, size_t n) { return oddref_attr_setlogsize(REF(a), n); }
int posix_trace_attr_getmaxdatasize(const trace_attr_t *restrict a, size_t *restrict n)
{ return oddref_attr_getmaxdatasize(REF(a), n); }
int posix_trace_attr_setmaxdatasize(trace_attr_t *a, size_t n)
{ return oddref_attr_setmaxdatasize(REF(a), n); }
int posix_trace_attr_getstreamsize(const trace_attr_t *restrict a, size_t *restrict n)
{ return oddref_attr_getstreamsize(REF(a), n); }
int posix_trace_attr_setstreamsize(trace_attr_t *a, size_t n)
{ return oddref_attr_setstreamsize(REF(a), n); }
/* System events carry at most two event sets (FILTER: the old and the new
 * filter), which are larger here than in the reference (odd_sets_in_data). */
int posix_trace_attr_getmaxsystemeventsize(const trace_attr_t *restrict a, size_t *restrict n)
{
    int err = oddref_attr_getmaxsystemeventsize(REF(a), n);
    size_t ref_set = oddref_event_set_size();
    if (err == 0 && sizeof(trace_event_set_t) > ref_set)
        *n += 2 * (sizeof(trace_event_set_t) - ref_set);
    return err;
}
int posix_trace_attr_getmaxusereventsize(const trace_attr_t *restrict a, size_t len,
                                         size_t *restrict n)
{ return oddref_attr_getmaxusereventsize(REF(a), len, n); }

/* ---- streams and logs ------------------------------------------------------------ */

/* A stream the reference made gets an odd id; if none is left, the stream is
 * shut down again (EAGAIN: XSH posix_trace_create, "the number of trace
 * streams ... would be exceeded"). */
static int id_out(int err, const unsigned long *ref, int is_log, trace_id_t *id)
{
    if (err != 0)
        return err;
    err = odd_ids_add(*ref, id);
    if (err != 0)
        (void)(is_log ? oddref_close(*ref) : oddref_shutdown(*ref));
    return err;
}

/* attr NULL means the default attributes (XSH posix_trace_create,
 * posix_trace_create_withlog): this vendor's, not the reference's. */
static const void *attr_or_defaults(const trace_attr_t *a, trace_attr_t *defaults)
{
    if (a != NULL || posix_trace_attr_init(defaults) != 0)
        return REF(a);
    return REF(defaults);
}

/* Streams of its own size: the reference's stream is created with
 * ODD_STREAM_SCALE times the stream-min-size asked for, so that a stream of N
 * bytes holds another number of events than the reference's (about twice as
 * many), and a test or vector that assumed the reference's capacity fails.
 * Allowed: stream-min-size is a minimum, the memory "reserved" may be more
 * (XSH posix_trace_attr_getstreamsize, S0054 S0057; ruling 22: get_attr reads
 * back at least the value set).  The user's attributes object is untouched (a
 * byte copy is changed: the reference's objects hold no pointers), so
 * attr_getstreamsize still reads back what was set (S0056). */
#define ODD_STREAM_SCALE 2
static const void *scaled_stream(const void *ref_attr, trace_attr_t *copy)
{
    size_t n = 0;
    /* NULL, an invalid object or a size that cannot grow: the reference's
     * create answers it as it is. */
    if (ref_attr == NULL)
        return ref_attr;
    memcpy(copy->__odd_impl, ref_attr, sizeof copy->__odd_impl);
    if (oddref_attr_getstreamsize(REF(copy), &n) != 0 || n > SIZE_MAX / ODD_STREAM_SCALE ||
        oddref_attr_setstreamsize(REF(copy), n * ODD_STREAM_SCALE) != 0)
        return ref_attr;
    return REF(copy);
}

int posix_trace_create(pid_t pid, const trace_attr_t *restrict a, trace_id_t *restrict id)
{
    trace_attr_t defaults, copy;
    const void *attr = scaled_stream(attr_or_defaults(a, &defaults), &copy);
    unsigned long ref = 0;
    return id_out(oddref_create(pid, attr, &ref), &ref, 0, id);
}
int posix_trace_create_withlog(pid_t pid, const trace_attr_t *restrict a, int fd,
                               trace_id_t *restrict id)
{
    trace_attr_t defaults, copy;
    const void *attr = scaled_stream(attr_or_defaults(a, &defaults), &copy);
    unsigned long ref = 0;
    return id_out(oddref_create_withlog(pid, attr, fd, &ref), &ref, 0, id);
}
int posix_trace_open(int fd, trace_id_t *id)
{
    unsigned long ref = 0;
    return id_out(oddref_open(fd, &ref), &ref, 1, id);
}

/* shutdown and close end the id. */
static int ending(int err, trace_id_t id)
{
    if (err == 0)
        odd_ids_drop(id);
    return err;
}
int posix_trace_shutdown(trace_id_t id) { return ending(oddref_shutdown(odd_ids_ref(id)), id); }
int posix_trace_close(trace_id_t id) { return ending(oddref_close(odd_ids_ref(id)), id); }

int posix_trace_clear(trace_id_t id) { return oddref_clear(odd_ids_ref(id)); }
int posix_trace_flush(trace_id_t id) { return oddref_flush(odd_ids_ref(id)); }
int posix_trace_rewind(trace_id_t id) { return oddref_rewind(odd_ids_ref(id)); }
int posix_trace_start(trace_id_t id) { return oddref_start(odd_ids_ref(id)); }
int posix_trace_get_attr(trace_id_t id, trace_attr_t *a)
{ return oddref_get_attr(odd_ids_ref(id), REF(a)); }

/* The status as the reference gives it (resetting what it resets). */
static int ref_status(trace_id_t id, struct posix_trace_status_info *s);

/* Ruling 13, reading (B), where the reference takes (A): stop of a LOOP
 * stream that is RUNNING and FULL records nothing and changes nothing ("If
 * the trace stream is full", S0231, read literally).  The status read to
 * know it is kept for the caller's next get_status. */
static int full_running_loop(trace_id_t id)
{
    trace_attr_t a;
    int policy = 0, loop = 0;
    struct posix_trace_status_info st;
    if (posix_trace_attr_init(&a) != 0)
        return 0;
    loop = posix_trace_get_attr(id, &a) == 0 &&
           posix_trace_attr_getstreamfullpolicy(&a, &policy) == 0 && policy == POSIX_TRACE_LOOP;
    (void)posix_trace_attr_destroy(&a);
    if (!loop || ref_status(id, &st) != 0)
        return 0;
    odd_ids_keep_resets(id, &st);
    return st.posix_stream_status == POSIX_TRACE_RUNNING &&
           st.posix_stream_full_status == POSIX_TRACE_FULL;
}
int posix_trace_stop(trace_id_t id)
{
    if (full_running_loop(id))
        return 0;
    return oddref_stop(odd_ids_ref(id));
}

int posix_trace_get_status(trace_id_t id, struct posix_trace_status_info *s)
{
    int err = ref_status(id, s);
    if (err == 0)
        odd_ids_give_resets(id, s);
    return err;
}
static int ref_status(trace_id_t id, struct posix_trace_status_info *s)
{
    struct oddref_status n;
    int err = oddref_get_status(odd_ids_ref(id), &n);
    if (err != 0)
        return err;
    s->posix_stream_status = FROM(n.stream_status);
    s->posix_stream_full_status = FROM(n.stream_full);
    s->posix_stream_overrun_status = FROM(n.stream_overrun);
    s->posix_stream_flush_status = FROM(n.stream_flush);
    s->posix_stream_flush_error = n.stream_flush_error;
    s->posix_log_overrun_status = FROM(n.log_overrun);
    s->posix_log_full_status = FROM(n.log_full);
    return 0;
}

/* ---- filters and event sets -------------------------------------------------------- */

int posix_trace_get_filter(trace_id_t id, trace_event_set_t *set)
{ return oddref_get_filter(odd_ids_ref(id), REF(set)); }
int posix_trace_set_filter(trace_id_t id, const trace_event_set_t *set, int how)
{ return oddref_set_filter(odd_ids_ref(id), REF(set), TO(FILTER_HOW, how)); }

int posix_trace_eventset_add(trace_event_id_t e, trace_event_set_t *set)
{ return oddref_eventset_add(EV(e), REF(set)); }
int posix_trace_eventset_del(trace_event_id_t e, trace_event_set_t *set)
{ return oddref_eventset_del(EV(e), REF(set)); }
int posix_trace_eventset_empty(trace_event_set_t *set)
{ return oddref_eventset_empty(REF(set)); }
int posix_trace_eventset_fill(trace_event_set_t *set, int what)
{ return oddref_eventset_fill(REF(set), TO(EVENTSET_WHAT, what)); }
int posix_trace_eventset_ismember(trace_event_id_t e, const trace_event_set_t *restrict set,
                                  int *restrict member)
{ return oddref_eventset_ismember(EV(e), REF(set), member); }

/* ---- event types ---------------------------------------------------------------------- */

void posix_trace_event(trace_event_id_t e, const void *restrict data, size_t len)
{ oddref_event(EV(e), data, len); }

int posix_trace_eventid_equal(trace_id_t id, trace_event_id_t e1, trace_event_id_t e2)
{ return oddref_eventid_equal(odd_ids_ref(id), EV(e1), EV(e2)) ? ODD_EQUAL : 0; }
int posix_trace_eventid_get_name(trace_id_t id, trace_event_id_t e, char *name)
{ return oddref_eventid_get_name(odd_ids_ref(id), EV(e), name); }

/* A neutral event id to the caller's, written only on success. */
static int event_out(int err, const long long *n, trace_event_id_t *e)
{
    if (err == 0)
        *e = oddref_event_from_neutral(*n);
    return err;
}

int posix_trace_eventid_open(const char *restrict name, trace_event_id_t *restrict e)
{
    long long n = 0;
    return event_out(oddref_eventid_open(name, &n), &n, e);
}
int posix_trace_trid_eventid_open(trace_id_t id, const char *restrict name,
                                  trace_event_id_t *restrict e)
{
    long long n = 0;
    return event_out(oddref_trid_eventid_open(odd_ids_ref(id), name, &n), &n, e);
}
int posix_trace_eventtypelist_getnext_id(trace_id_t id, trace_event_id_t *restrict e,
                                         int *restrict unavailable)
{
    long long n = 0;
    int err = oddref_eventtypelist_getnext_id(odd_ids_ref(id), &n, unavailable);
    if (err == 0 && !*unavailable)
        *e = oddref_event_from_neutral(n);
    return err;
}
int posix_trace_eventtypelist_rewind(trace_id_t id)
{ return oddref_eventtypelist_rewind(odd_ids_ref(id)); }

/* ---- reading events --------------------------------------------------------------------- */

/* The data of START and FILTER is event sets (XSH 2.11.2.1 and
 * posix_trace_set_filter; rules xsh211.start-data-tef, set_filter.filter-event):
 * the reference recorded its own; the caller gets odd ones, each holding the
 * reference's set.  They are larger: converted from the last, in place, as far
 * as the caller's num bytes go (the rest is a truncated read).  Data that the
 * reference already truncated is left as it is. */
static void odd_sets_in_data(struct posix_trace_event_info *e, long long ev,
                             unsigned char *data, size_t num, size_t *len)
{
    size_t ref_set = oddref_event_set_size();
    if ((ev != ODDREF_EV_START && ev != ODDREF_EV_FILTER) || data == NULL || *len % ref_set)
        return;
    size_t k = *len / ref_set;
    for (size_t i = k; i-- > 0;) {
        trace_event_set_t set;
        memset(&set, 0, sizeof set);
        memcpy(set.__odd_impl, data + i * ref_set, ref_set);
        size_t at = i * sizeof set;
        if (at < num)
            memcpy(data + at, &set, num - at < sizeof set ? num - at : sizeof set);
    }
    *len = k * sizeof(trace_event_set_t);
    if (*len > num) {
        *len = num;
        e->posix_truncation_status = POSIX_TRACE_TRUNCATED_READ;
    }
}

static int getnext(trace_id_t id, struct posix_trace_event_info *e, void *data, size_t num,
                   size_t *len, int *unavailable, int how, const struct timespec *abstime)
{
    struct oddref_event_info n;
    int err = oddref_getnext(odd_ids_ref(id), &n, data, num, len, unavailable, how, abstime);
    if (err != 0 || *unavailable)
        return err;
    e->posix_event_id = oddref_event_from_neutral(n.event);
    e->posix_pid = n.pid;
    e->posix_prog_address = n.prog_address;
    e->posix_thread_id = n.thread;
    e->posix_timestamp = n.timestamp;
    e->posix_truncation_status = FROM(n.truncation);
    e->__odd_sequence = 0;
    odd_sets_in_data(e, n.event, data, num, len);
    return 0;
}

int posix_trace_getnext_event(trace_id_t id, struct posix_trace_event_info *restrict e,
                              void *restrict data, size_t num, size_t *restrict len,
                              int *restrict unavailable)
{ return getnext(id, e, data, num, len, unavailable, ODDREF_GETNEXT, NULL); }
int posix_trace_timedgetnext_event(trace_id_t id, struct posix_trace_event_info *restrict e,
                                   void *restrict data, size_t num, size_t *restrict len,
                                   int *restrict unavailable,
                                   const struct timespec *restrict abstime)
{ return getnext(id, e, data, num, len, unavailable, ODDREF_TIMEDGETNEXT, abstime); }
int posix_trace_trygetnext_event(trace_id_t id, struct posix_trace_event_info *restrict e,
                                 void *restrict data, size_t num, size_t *restrict len,
                                 int *restrict unavailable)
{ return getnext(id, e, data, num, len, unavailable, ODDREF_TRYGETNEXT, NULL); }
