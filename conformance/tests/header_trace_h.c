/*
 * header_trace_h.c -- the <trace.h> header (XBD <trace.h>; XSH 2.11.1, 2.11.2):
 * its types, the members of its two structures, its TRC constants and the
 * prototypes of the 31 TRC functions.
 *
 * MOST CHECKS OF THIS FILE ARE MADE BY THE COMPILER.  If this file does not
 * compile against an implementation's <trace.h>, that is a finding, not a
 * harness problem: the header lacks a type, a member, a constant or a
 * function, or declares one with another type.  The compiler's first error
 * names it; the _Static_assert messages name the rule.  (Type checks use
 * _Static_assert with _Generic, so they fail whatever the warning flags.)
 * The tests below then pass on every header that compiles; they also check
 * what only run time can tell (distinct values, equal event ids).
 *
 * Portable: no constant's value and no type's representation is assumed
 * (trace_id_t and trace_event_id_t need not be arithmetic).  The predefined
 * user event may be spelt POSIX_TRACE_UNNAMED_USER_EVENT (<trace.h>) or
 * POSIX_TRACE_UNNAMED_USEREVENT (XSH); either satisfies (ruling 1).  Which
 * spelling exists is found with #ifdef, so it must be a macro; if neither is,
 * the <trace.h> spelling is used and must compile.
 *
 * TEF (trace_event_set_t, POSIX_TRACE_FILTER, the three how values of
 * set_filter, the 8 prototypes) is checked here too, when the build has the
 * option (CT_HAVE_TEF); without it those tests end UNSUPPORTED.  Whether TEF
 * is supported must be known right after <trace.h> alone, for the type
 * check: from the build (-DCT_HAVE_TEF) or from a _POSIX_TRACE_EVENT_FILTER
 * that <trace.h> itself defines.  Where neither tells, the type is checked
 * after the other headers and the test says so.
 *
 * Not tested here, and why:
 *   the TRI and TRL constants, types, members and prototypes: rules of
 *   those options (trace_h.*-tri, -trl), in their files.  They appear
 *   here only where trace_h.constants-distinct needs them, if defined.
 *   sys_types_h.trace-types: "<sys/types.h> defines the types" can only be
 *   decided by a translation unit that includes <sys/types.h> without
 *   <trace.h>, which no file built with ct.h is.
 */

/* First, and alone: the types must come from <trace.h> itself. */
#include <trace.h>

static size_t ct_h_size;                 /* trace_h.type.size_t */
static trace_attr_t ct_h_attr;           /* trace_h.type.trace_attr_t */
static trace_event_id_t ct_h_event_id;   /* trace_h.type.trace_event_id_t */
static trace_id_t ct_h_trid;             /* trace_h.type.trace_id_t */

/* TEF, as known from <trace.h> alone (or the build). */
#if defined(CT_HAVE_TEF)
#define CT_H_TEF_ALONE CT_HAVE_TEF
#elif defined(_POSIX_TRACE_EVENT_FILTER)
#if _POSIX_TRACE_EVENT_FILTER != -1
#define CT_H_TEF_ALONE 1
#else
#define CT_H_TEF_ALONE 0
#endif
#else
#define CT_H_TEF_ALONE 0
#endif
#if CT_H_TEF_ALONE
static trace_event_set_t ct_h_event_set; /* trace_h.type.trace_event_set_t */
#endif

#include <pthread.h>
#include <sys/types.h>
#include <time.h>
#include "ct.h"

/* The unnamed user event under whichever name the header has. */
#if defined(POSIX_TRACE_UNNAMED_USER_EVENT)
#define CT_UNNAMED POSIX_TRACE_UNNAMED_USER_EVENT
#define CT_UNNAMED_SPELLING "POSIX_TRACE_UNNAMED_USER_EVENT"
#elif defined(POSIX_TRACE_UNNAMED_USEREVENT)
#define CT_UNNAMED POSIX_TRACE_UNNAMED_USEREVENT
#define CT_UNNAMED_SPELLING "POSIX_TRACE_UNNAMED_USEREVENT"
#else
#define CT_UNNAMED POSIX_TRACE_UNNAMED_USER_EVENT
#define CT_UNNAMED_SPELLING "POSIX_TRACE_UNNAMED_USER_EVENT (not a macro)"
#endif

/* Does expr have exactly type ...? (An integer constant expression.) */
#define CT_IS(expr, ...) _Generic((expr), __VA_ARGS__: 1, default: 0)

/* ---- structure members: exact types ------------------------------------------------ */

static struct posix_trace_status_info ct_h_status;
static struct posix_trace_event_info ct_h_event;

_Static_assert(CT_IS(&ct_h_status.posix_stream_status, int *),
               "trace_h.status.posix_stream_status: the member is not of type int");
_Static_assert(CT_IS(&ct_h_status.posix_stream_full_status, int *),
               "trace_h.status.posix_stream_full_status: the member is not of type int");
_Static_assert(CT_IS(&ct_h_status.posix_stream_overrun_status, int *),
               "trace_h.status.posix_stream_overrun_status: the member is not of type int");
_Static_assert(CT_IS(&ct_h_event.posix_event_id, trace_event_id_t *),
               "trace_h.event_info.posix_event_id: the member is not a trace_event_id_t");
_Static_assert(CT_IS(&ct_h_event.posix_pid, pid_t *),
               "trace_h.event_info.posix_pid: the member is not a pid_t");
_Static_assert(CT_IS(&ct_h_event.posix_prog_address, void **),
               "trace_h.event_info.posix_prog_address: the member is not a void *");
_Static_assert(CT_IS(&ct_h_event.posix_truncation_status, int *),
               "trace_h.event_info.posix_truncation_status: the member is not an int");
_Static_assert(CT_IS(&ct_h_event.posix_timestamp, struct timespec *),
               "trace_h.event_info.posix_timestamp: the member is not a struct timespec");
_Static_assert(CT_IS(&ct_h_event.posix_thread_id, pthread_t *),
               "trace_h.event_info.posix_thread_id: the member is not a pthread_t");

/* ---- prototypes, checked after #undef: the names must be functions ------------------- */

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

/* PROTO(name, return type, (parameter types)): the function has exactly the
 * listed type (a hard error otherwise), and a pointer of that type initialised
 * with it (a diagnostic too) for the run-time test to call through. */
#define PROTO(fn, ret, params)                                                      \
    _Static_assert(CT_IS(&fn, ret (*) params),                                      \
                   "trace_h.prototypes-trc: " #fn " is not declared as " #ret " " #params); \
    static ret (*const p_##fn) params = fn

PROTO(posix_trace_attr_destroy, int, (trace_attr_t *));
PROTO(posix_trace_attr_getclockres, int, (const trace_attr_t *, struct timespec *));
PROTO(posix_trace_attr_getcreatetime, int, (const trace_attr_t *, struct timespec *));
PROTO(posix_trace_attr_getgenversion, int, (const trace_attr_t *, char *));
PROTO(posix_trace_attr_getmaxdatasize, int, (const trace_attr_t *restrict, size_t *restrict));
PROTO(posix_trace_attr_getmaxsystemeventsize,
      int, (const trace_attr_t *restrict, size_t *restrict));
PROTO(posix_trace_attr_getmaxusereventsize,
      int, (const trace_attr_t *restrict, size_t, size_t *restrict));
PROTO(posix_trace_attr_getname, int, (const trace_attr_t *, char *));
PROTO(posix_trace_attr_getstreamfullpolicy, int, (const trace_attr_t *restrict, int *restrict));
PROTO(posix_trace_attr_getstreamsize, int, (const trace_attr_t *restrict, size_t *restrict));
PROTO(posix_trace_attr_init, int, (trace_attr_t *));
PROTO(posix_trace_attr_setmaxdatasize, int, (trace_attr_t *, size_t));
PROTO(posix_trace_attr_setname, int, (trace_attr_t *, const char *));
PROTO(posix_trace_attr_setstreamfullpolicy, int, (trace_attr_t *, int));
PROTO(posix_trace_attr_setstreamsize, int, (trace_attr_t *, size_t));
PROTO(posix_trace_clear, int, (trace_id_t));
PROTO(posix_trace_create, int, (pid_t, const trace_attr_t *restrict, trace_id_t *restrict));
PROTO(posix_trace_event, void, (trace_event_id_t, const void *restrict, size_t));
PROTO(posix_trace_eventid_equal, int, (trace_id_t, trace_event_id_t, trace_event_id_t));
PROTO(posix_trace_eventid_get_name, int, (trace_id_t, trace_event_id_t, char *));
PROTO(posix_trace_eventid_open, int, (const char *restrict, trace_event_id_t *restrict));
PROTO(posix_trace_eventtypelist_getnext_id,
      int, (trace_id_t, trace_event_id_t *restrict, int *restrict));
PROTO(posix_trace_eventtypelist_rewind, int, (trace_id_t));
PROTO(posix_trace_get_attr, int, (trace_id_t, trace_attr_t *));
PROTO(posix_trace_get_status, int, (trace_id_t, struct posix_trace_status_info *));
PROTO(posix_trace_getnext_event,
      int, (trace_id_t, struct posix_trace_event_info *restrict, void *restrict, size_t,
              size_t *restrict, int *restrict));
PROTO(posix_trace_shutdown, int, (trace_id_t));
PROTO(posix_trace_start, int, (trace_id_t));
PROTO(posix_trace_stop, int, (trace_id_t));
PROTO(posix_trace_timedgetnext_event,
      int, (trace_id_t, struct posix_trace_event_info *restrict, void *restrict, size_t,
              size_t *restrict, int *restrict, const struct timespec *restrict));
PROTO(posix_trace_trygetnext_event,
      int, (trace_id_t, struct posix_trace_event_info *restrict, void *restrict, size_t,
              size_t *restrict, int *restrict));

#if CT_HAVE_TEF
#undef posix_trace_eventset_add
#undef posix_trace_eventset_del
#undef posix_trace_eventset_empty
#undef posix_trace_eventset_fill
#undef posix_trace_eventset_ismember
#undef posix_trace_get_filter
#undef posix_trace_set_filter
#undef posix_trace_trid_eventid_open

#define PROTO_TEF(fn, ret, params)                                                  \
    _Static_assert(CT_IS(&fn, ret (*) params),                                      \
                   "trace_h.prototypes-tef: " #fn " is not declared as " #ret " " #params); \
    static ret (*const p_##fn) params = fn

PROTO_TEF(posix_trace_eventset_add, int, (trace_event_id_t, trace_event_set_t *));
PROTO_TEF(posix_trace_eventset_del, int, (trace_event_id_t, trace_event_set_t *));
PROTO_TEF(posix_trace_eventset_empty, int, (trace_event_set_t *));
PROTO_TEF(posix_trace_eventset_fill, int, (trace_event_set_t *, int));
PROTO_TEF(posix_trace_eventset_ismember,
          int, (trace_event_id_t, const trace_event_set_t *restrict, int *restrict));
PROTO_TEF(posix_trace_get_filter, int, (trace_id_t, trace_event_set_t *));
PROTO_TEF(posix_trace_set_filter, int, (trace_id_t, const trace_event_set_t *, int));
PROTO_TEF(posix_trace_trid_eventid_open,
          int, (trace_id_t, const char *restrict, trace_event_id_t *restrict));
#endif /* CT_HAVE_TEF */

/* ---- types ----------------------------------------------------------------------------- */

CT_TEST(type_size_t, "trace_h.type.size_t", "TRC", "")
{
    /* Compiled: ct_h_size was declared with <trace.h> alone included. */
    ct_h_size = sizeof ct_h_attr;
    CT_CHECK(ct_h_size > 0, "sizeof (trace_attr_t) is %zu", ct_h_size);
}

CT_TEST(type_trace_attr_t, "trace_h.type.trace_attr_t", "TRC",
        "posix_trace_attr_init,posix_trace_attr_destroy")
{
    /* Compiled: an object of the type exists; it is usable as one. */
    CT_CHECK_OK(posix_trace_attr_init(&ct_h_attr));
    CT_CHECK_OK(posix_trace_attr_destroy(&ct_h_attr));
}

CT_TEST(type_trace_event_id_t, "trace_h.type.trace_event_id_t", "TRC",
        "posix_trace_eventid_open")
{
    CT_CHECK_OK(posix_trace_eventid_open("ct-header", &ct_h_event_id));
    trace_event_id_t copy = ct_h_event_id;     /* assignable: a complete object type */
    (void)copy;
}

CT_TEST(type_trace_id_t, "trace_h.type.trace_id_t", "TRC",
        "posix_trace_create,posix_trace_shutdown")
{
    CT_CHECK_OK(posix_trace_create(0, NULL, &ct_h_trid));
    trace_id_t copy = ct_h_trid;               /* the same stream through a copy */
    CT_CHECK_OK(posix_trace_shutdown(copy));
}

CT_TEST(type_trace_event_set_t, "trace_h.type.trace_event_set_t", "TRC,TEF",
        "posix_trace_eventset_empty,posix_trace_eventset_add,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
#if CT_H_TEF_ALONE
    trace_event_set_t *set = &ct_h_event_set;     /* declared with <trace.h> alone */
#else
    static trace_event_set_t late;
    trace_event_set_t *set = &late;
    ct_note("<trace.h> alone does not say whether TEF is supported: the type was declared"
            " after <trace.h> and the other headers");
#endif
    /* Compiled: an object of the type exists.  It is usable as a set, and
     * assignable (the type is not trace_attr_t). */
    int member = 0;
    CT_CHECK_OK(posix_trace_eventset_empty(set));
    CT_CHECK_OK(posix_trace_eventset_add(POSIX_TRACE_STOP, set));
    trace_event_set_t copy = *set;
    CT_CHECK_OK(posix_trace_eventset_ismember(POSIX_TRACE_STOP, &copy, &member));
    CT_CHECK(member != 0, "a copy (by assignment) of a set holding POSIX_TRACE_STOP does not"
             " hold it");
    CT_CHECK_OK(posix_trace_eventset_ismember(POSIX_TRACE_START, &copy, &member));
    CT_CHECK(member == 0, "a copy (by assignment) of a set holding only POSIX_TRACE_STOP holds"
             " POSIX_TRACE_START");
#else
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#endif
}

/* ---- structure members --------------------------------------------------------------- */

CT_TEST(status_members, "trace_h.status.posix_stream_status,"
        "trace_h.status.posix_stream_full_status,trace_h.status.posix_stream_overrun_status",
        "TRC", "")
{
    /* Compiled: the _Static_asserts above; and plain pointer assignments,
     * which a compiler diagnoses when the types differ. */
    int *a = &ct_h_status.posix_stream_status;
    int *b = &ct_h_status.posix_stream_full_status;
    int *c = &ct_h_status.posix_stream_overrun_status;
    CT_CHECK(a != b && b != c && a != c, "two status members share an address");
}

CT_TEST(event_info_members, "trace_h.event_info.posix_event_id,trace_h.event_info.posix_pid,"
        "trace_h.event_info.posix_prog_address,trace_h.event_info.posix_truncation_status,"
        "trace_h.event_info.posix_timestamp,trace_h.event_info.posix_thread_id", "TRC", "")
{
    trace_event_id_t *id = &ct_h_event.posix_event_id;
    pid_t *pid = &ct_h_event.posix_pid;
    void **addr = &ct_h_event.posix_prog_address;
    int *trunc = &ct_h_event.posix_truncation_status;
    struct timespec *ts = &ct_h_event.posix_timestamp;
    pthread_t *th = &ct_h_event.posix_thread_id;
    const void *m[6] = { id, pid, addr, trunc, ts, th };
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            CT_CHECK(m[i] != m[j], "event info members %d and %d share an address", i, j);
}

/* ---- constants ------------------------------------------------------------------------ */

CT_TEST(constants_trc, "trace_h.constants-trc", "TRC", "")
{
    /* Compiled: every TRC constant of the list exists; the status and policy
     * values are ints, the events trace_event_id_t values. */
    int v[] = { POSIX_TRACE_ALL_EVENTS, POSIX_TRACE_FULL, POSIX_TRACE_LOOP,
                POSIX_TRACE_NO_OVERRUN, POSIX_TRACE_NOT_FULL, POSIX_TRACE_NOT_TRUNCATED,
                POSIX_TRACE_OVERRUN, POSIX_TRACE_RUNNING, POSIX_TRACE_SUSPENDED,
                POSIX_TRACE_SYSTEM_EVENTS, POSIX_TRACE_TRUNCATED_READ,
                POSIX_TRACE_TRUNCATED_RECORD, POSIX_TRACE_UNTIL_FULL,
                POSIX_TRACE_WOPID_EVENTS };
    trace_event_id_t e[] = { POSIX_TRACE_OVERFLOW, POSIX_TRACE_RESUME, POSIX_TRACE_START,
                             POSIX_TRACE_STOP, CT_UNNAMED };
    (void)v;
    (void)e;
    ct_note("the predefined user event is spelt %s", CT_UNNAMED_SPELLING);
}

CT_TEST(const_posix_trace_error, "trace_h.const.POSIX_TRACE_ERROR", "TRC",
        "posix_trace_eventid_equal")
{
    /* Compiled: POSIX_TRACE_ERROR exists and is a trace_event_id_t value
     * (ruling 2).  It names an event other than START and STOP. */
    trace_event_id_t err = POSIX_TRACE_ERROR;
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK(!posix_trace_eventid_equal(trid, err, POSIX_TRACE_START) &&
             !posix_trace_eventid_equal(trid, err, POSIX_TRACE_STOP),
             "POSIX_TRACE_ERROR (%s) equals START or STOP", CT_HEX(err));
    CT_CHECK_OK(posix_trace_shutdown(trid));
}

CT_TEST(const_unnamed_userevent, "trace_h.const.POSIX_TRACE_UNNAMED_USEREVENT", "TRC", "")
{
    /* Compiled: either spelling (ruling 1). */
    trace_event_id_t u = CT_UNNAMED;
    (void)u;
#if defined(POSIX_TRACE_UNNAMED_USEREVENT)
    ct_note("POSIX_TRACE_UNNAMED_USEREVENT is defined");
#else
    ct_note("only the <trace.h> spelling %s is defined (ruling 1 accepts it)",
            CT_UNNAMED_SPELLING);
#endif
}

CT_TEST(unnamed_spellings_equal, "trace_h.unnamed-spellings-equal", "TRC",
        "posix_trace_eventid_equal")
{
#if defined(POSIX_TRACE_UNNAMED_USER_EVENT) && defined(POSIX_TRACE_UNNAMED_USEREVENT)
    trace_id_t trid;
    trace_event_id_t a = POSIX_TRACE_UNNAMED_USER_EVENT, b = POSIX_TRACE_UNNAMED_USEREVENT;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK(posix_trace_eventid_equal(trid, a, b), "POSIX_TRACE_UNNAMED_USER_EVENT (%s) and"
             " POSIX_TRACE_UNNAMED_USEREVENT (%s) are not equal event ids: they name the one"
             " predefined user event (ruling 1)", CT_HEX(a), CT_HEX(b));
    CT_CHECK(!posix_trace_eventid_equal(trid, a, POSIX_TRACE_START),
             "the unnamed user event equals POSIX_TRACE_START");
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    CT_UNSUPPORTED("only one spelling of the unnamed user event is defined (%s): the rule"
                   " applies where both are", CT_UNNAMED_SPELLING);
#endif
}

/* Checks that the n values of v (the constants listed in names) differ. */
static void distinct(const char *group, const int *v, const char *names, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            CT_CHECK(v[i] != v[j], "%s: of %s, constants %d and %d are both %d; alternatives"
                     " of one value must differ", group, names, i + 1, j + 1, v[i]);
}

#define DISTINCT(group, ...)                                                        \
    do {                                                                            \
        const int v_[] = { __VA_ARGS__ };                                           \
        distinct(group, v_, #__VA_ARGS__, (int)(sizeof v_ / sizeof v_[0]));         \
    } while (0)

CT_TEST(constants_distinct, "trace_h.constants-distinct", "TRC", "")
{
    DISTINCT("posix_stream_status", POSIX_TRACE_RUNNING, POSIX_TRACE_SUSPENDED);
    DISTINCT("posix_stream_full_status", POSIX_TRACE_FULL, POSIX_TRACE_NOT_FULL);
    DISTINCT("posix_stream_overrun_status", POSIX_TRACE_OVERRUN, POSIX_TRACE_NO_OVERRUN);
    DISTINCT("posix_truncation_status", POSIX_TRACE_NOT_TRUNCATED,
             POSIX_TRACE_TRUNCATED_RECORD, POSIX_TRACE_TRUNCATED_READ);
    DISTINCT("the what of eventset_fill", POSIX_TRACE_WOPID_EVENTS, POSIX_TRACE_SYSTEM_EVENTS,
             POSIX_TRACE_ALL_EVENTS);
#ifdef POSIX_TRACE_FLUSH
    DISTINCT("stream-full-policy", POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_FLUSH);
#else
    DISTINCT("stream-full-policy", POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL);
#endif
#ifdef POSIX_TRACE_APPEND
    DISTINCT("log-full-policy", POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
#endif
#if defined(POSIX_TRACE_FLUSHING) && defined(POSIX_TRACE_NOT_FLUSHING)
    DISTINCT("posix_stream_flush_status", POSIX_TRACE_FLUSHING, POSIX_TRACE_NOT_FLUSHING);
#endif
#if defined(POSIX_TRACE_CLOSE_FOR_CHILD) && defined(POSIX_TRACE_INHERITED)
    DISTINCT("inheritance", POSIX_TRACE_CLOSE_FOR_CHILD, POSIX_TRACE_INHERITED);
#endif
#if defined(POSIX_TRACE_SET_EVENTSET) && defined(POSIX_TRACE_ADD_EVENTSET) && \
    defined(POSIX_TRACE_SUB_EVENTSET)
    DISTINCT("the how of set_filter", POSIX_TRACE_SET_EVENTSET, POSIX_TRACE_ADD_EVENTSET,
             POSIX_TRACE_SUB_EVENTSET);
#endif
}

/* ---- prototypes: callable after #undef, through pointers of the listed types ----------- */

CT_TEST(prototypes_trc, "trace_h.prototypes-trc", "TRC",
        "posix_trace_attr_init,posix_trace_create,posix_trace_start,posix_trace_event,"
        "posix_trace_getnext_event,posix_trace_shutdown")
{
    /* Compiled: the PROTO assertions.  Run: each function, called through its
     * pointer, does its job. */
    trace_attr_t a, sa;
    trace_id_t trid;
    trace_event_id_t id, next;
    struct posix_trace_status_info st;
    struct posix_trace_event_info info;
    struct timespec ts;
    char s[CT_NAME_BUF], name[CT_EVENT_NAME_BUF];
    unsigned char data[32];
    size_t z, len;
    int v, unavailable;

    CT_CHECK_OK(p_posix_trace_attr_init(&a));
    CT_CHECK_OK(p_posix_trace_attr_setname(&a, "ct-proto"));
    CT_CHECK_OK(p_posix_trace_attr_getname(&a, s));
    CT_CHECK(strcmp(s, "ct-proto") == 0, "getname through its pointer gave \"%.40s\"", s);
    CT_CHECK_OK(p_posix_trace_attr_getclockres(&a, &ts));
    CT_CHECK_OK(p_posix_trace_attr_getcreatetime(&a, &ts));
    CT_CHECK_OK(p_posix_trace_attr_getgenversion(&a, s));
    CT_CHECK_OK(p_posix_trace_attr_getmaxdatasize(&a, &z));
    CT_CHECK_OK(p_posix_trace_attr_setmaxdatasize(&a, z));
    CT_CHECK_OK(p_posix_trace_attr_getmaxsystemeventsize(&a, &z));
    CT_CHECK_OK(p_posix_trace_attr_getmaxusereventsize(&a, 4, &z));
    CT_CHECK_OK(p_posix_trace_attr_getstreamsize(&a, &z));
    CT_CHECK_OK(p_posix_trace_attr_setstreamsize(&a, z));
    CT_CHECK_OK(p_posix_trace_attr_getstreamfullpolicy(&a, &v));
    CT_CHECK_OK(p_posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_LOOP));
    CT_CHECK_OK(p_posix_trace_create(0, &a, &trid));
    CT_CHECK_OK(p_posix_trace_attr_destroy(&a));
    CT_SETUP_OK(posix_trace_attr_init(&sa));
    CT_CHECK_OK(p_posix_trace_get_attr(trid, &sa));
    CT_CHECK_OK(p_posix_trace_get_status(trid, &st));
    CT_CHECK_OK(p_posix_trace_eventid_open("ct-proto", &id));
    CT_CHECK_OK(p_posix_trace_eventid_get_name(trid, id, name));
    CT_CHECK(strcmp(name, "ct-proto") == 0, "eventid_get_name through its pointer gave"
             " \"%.40s\"", name);
    CT_CHECK(p_posix_trace_eventid_equal(trid, id, id), "eventid_equal(id, id) gave 0");
    CT_CHECK_OK(p_posix_trace_eventtypelist_getnext_id(trid, &next, &unavailable));
    CT_CHECK_OK(p_posix_trace_eventtypelist_rewind(trid));
    CT_CHECK_OK(p_posix_trace_start(trid));
    p_posix_trace_event(id, "abc", 3);
    p_posix_trace_event(id, "def", 3);
    CT_CHECK_OK(p_posix_trace_stop(trid));
    CT_CHECK_OK(p_posix_trace_getnext_event(trid, &info, data, sizeof data, &len,
                                            &unavailable));
    struct timespec abst = ct_abstime_in_ms(100);
    CT_CHECK_OK(p_posix_trace_timedgetnext_event(trid, &info, data, sizeof data, &len,
                                                 &unavailable, &abst));
    CT_CHECK_OK(p_posix_trace_trygetnext_event(trid, &info, data, sizeof data, &len,
                                               &unavailable));
    CT_CHECK(!unavailable && len == 3 && memcmp(data, "def", 3) == 0,
             "the third event read through the pointers is not the second recorded");
    CT_CHECK_OK(p_posix_trace_clear(trid));
    CT_CHECK_OK(p_posix_trace_shutdown(trid));
}

/* ---- TEF: constants and prototypes --------------------------------------------------------- */

CT_TEST(constants_tef, "trace_h.constants-tef", "TRC,TEF", "posix_trace_eventid_equal")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
    /* Compiled: POSIX_TRACE_FILTER exists and is a trace_event_id_t value.
     * It names an event of its own. */
    trace_event_id_t filter = POSIX_TRACE_FILTER;
    const trace_event_id_t others[6] = { POSIX_TRACE_START, POSIX_TRACE_STOP,
                                         POSIX_TRACE_OVERFLOW, POSIX_TRACE_RESUME,
                                         POSIX_TRACE_ERROR, CT_UNNAMED };
    static const char *const names[6] = { "POSIX_TRACE_START", "POSIX_TRACE_STOP",
                                           "POSIX_TRACE_OVERFLOW", "POSIX_TRACE_RESUME",
                                           "POSIX_TRACE_ERROR", CT_UNNAMED_SPELLING };
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    for (int i = 0; i < 6; i++)
        CT_CHECK(!posix_trace_eventid_equal(trid, filter, others[i]), "POSIX_TRACE_FILTER (%s)"
                 " equals %s", CT_HEX(filter), names[i]);
    CT_CHECK(posix_trace_eventid_equal(trid, filter, POSIX_TRACE_FILTER),
             "eventid_equal(POSIX_TRACE_FILTER, POSIX_TRACE_FILTER) returned 0");
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#endif
}

CT_TEST(const_eventset_how, "trace_h.const.eventset-how", "TRC,TEF", "")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
    /* Compiled: the three how values exist (ruling 2) and initialise ints. */
    const int how[3] = { POSIX_TRACE_SET_EVENTSET, POSIX_TRACE_ADD_EVENTSET,
                         POSIX_TRACE_SUB_EVENTSET };
    DISTINCT("the how of set_filter", POSIX_TRACE_SET_EVENTSET, POSIX_TRACE_ADD_EVENTSET,
             POSIX_TRACE_SUB_EVENTSET);
    ct_note("SET_EVENTSET %d, ADD_EVENTSET %d, SUB_EVENTSET %d", how[0], how[1], how[2]);
#else
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#endif
}

CT_TEST(prototypes_tef, "trace_h.prototypes-tef", "TRC,TEF",
        "posix_trace_eventset_empty,posix_trace_eventset_fill,posix_trace_eventset_add,"
        "posix_trace_eventset_del,posix_trace_eventset_ismember,posix_trace_get_filter,"
        "posix_trace_set_filter,posix_trace_trid_eventid_open")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
    /* Compiled: the PROTO_TEF assertions.  Run: each function, called
     * through its pointer, does its job. */
    trace_event_set_t set, got;
    trace_event_id_t id, again;
    trace_id_t trid;
    int member = -1;
    char name[CT_EVENT_NAME_BUF];
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK_OK(p_posix_trace_trid_eventid_open(trid, "ct-proto-tef", &id));
    CT_CHECK_OK(posix_trace_eventid_get_name(trid, id, name));
    CT_CHECK(strcmp(name, "ct-proto-tef") == 0, "trid_eventid_open through its pointer mapped"
             " \"%.40s\"", name);
    CT_CHECK_OK(p_posix_trace_eventset_fill(&set, POSIX_TRACE_ALL_EVENTS));
    CT_CHECK_OK(p_posix_trace_eventset_ismember(id, &set, &member));
    CT_CHECK(member != 0, "eventset_fill(ALL_EVENTS) through its pointer: the user type is"
             " not a member");
    CT_CHECK_OK(p_posix_trace_eventset_empty(&set));
    CT_CHECK_OK(p_posix_trace_eventset_ismember(id, &set, &member));
    CT_CHECK(member == 0, "eventset_empty through its pointer: the user type is a member");
    CT_CHECK_OK(p_posix_trace_eventset_add(id, &set));
    CT_CHECK_OK(p_posix_trace_set_filter(trid, &set, POSIX_TRACE_SET_EVENTSET));
    CT_CHECK_OK(p_posix_trace_eventset_del(id, &set));
    CT_CHECK_OK(p_posix_trace_eventset_ismember(id, &set, &member));
    CT_CHECK(member == 0, "eventset_del through its pointer: the user type is still a member");
    CT_CHECK_OK(p_posix_trace_get_filter(trid, &got));
    CT_CHECK_OK(p_posix_trace_eventset_ismember(id, &got, &member));
    CT_CHECK(member != 0, "the filter set and read through the pointers does not hold the"
             " user type");
    CT_CHECK_OK(posix_trace_eventid_open("ct-proto-tef", &again));
    CT_CHECK(posix_trace_eventid_equal(trid, id, again), "eventid_open of the name mapped by"
             " trid_eventid_open gave another identifier");
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#endif
}
