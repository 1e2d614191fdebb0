/* SPDX-License-Identifier: MIT */
/*
 * header_trace_h.c -- the <trace.h> header (XBD <trace.h>; XSH 2.11.1, 2.11.2):
 * its types, the members of its two structures, its TRC constants and the
 * prototypes of the 31 TRC functions; with TEF, its TEF type, constants and
 * prototypes.
 *
 * WHAT THE COMPILER DECIDES IS DECIDED BY A PROBE.  conformance/probes/
 * header_trace_h.c has one part per rule; harness/probe.sh compiles each on
 * its own and builds this file with CT_PROBE_<part>=1 (compiled) or 0
 * (ct_probe.h).  A header that lacks a type, a member, a constant or a
 * function, or declares one with another type, fails that rule, with the
 * compiler's first error line as the message, and no other: this file uses
 * what a part checked only where the part compiled.  The tests below then
 * check what only run time can tell (distinct values, equal event ids,
 * functions that work through pointers of the listed types).
 *
 * Portable: no constant's value and no type's representation is assumed
 * (trace_id_t and trace_event_id_t need not be arithmetic).  The predefined
 * user event may be spelt POSIX_TRACE_UNNAMED_USER_EVENT (<trace.h>) or
 * POSIX_TRACE_UNNAMED_USEREVENT (XSH); either satisfies (ruling 1, CT_UNNAMED
 * of ct.h).  Values are compared only within one kind (constants-distinct).
 *
 * TEF (trace_event_set_t, POSIX_TRACE_FILTER, the three how values of
 * set_filter, the 8 prototypes) is checked here too, when the build has the
 * option (CT_HAVE_TEF); without it those tests end UNSUPPORTED.
 *
 * Not tested here, and why:
 *   the TRI and TRL constants, types, members and prototypes: rules of
 *   those options (trace_h.*-tri, -trl), in their files (inherit.c,
 *   log_misc.c, with probes of their own).  They appear here only where
 *   trace_h.constants-distinct needs them, if defined.
 *   sys_types_h.trace-types: sys_types_h.c.
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>
#include "ct.h"
#include "ct_probe.h"
#include "ct_trace_h.h"

/* The probe parts that compiled are linked in; each says so. */
#if CT_PROBE_TYPE_SIZE_T
int ct_probe_header_TYPE_SIZE_T(void);
#endif
#if CT_PROBE_TYPE_TRACE_ATTR_T
int ct_probe_header_TYPE_TRACE_ATTR_T(void);
#endif
#if CT_PROBE_TYPE_TRACE_EVENT_ID_T
int ct_probe_header_TYPE_TRACE_EVENT_ID_T(void);
#endif
#if CT_PROBE_TYPE_TRACE_ID_T
int ct_probe_header_TYPE_TRACE_ID_T(void);
#endif
#if CT_PROBE_TYPE_TRACE_EVENT_SET_T
int ct_probe_header_TYPE_TRACE_EVENT_SET_T(void);
#endif
#if CT_PROBE_CONSTANTS_TRC
int ct_probe_header_CONSTANTS_TRC(void);
#endif
#if CT_PROBE_CONST_ERROR
int ct_probe_header_CONST_ERROR(void);
#endif
#if CT_PROBE_CONST_UNNAMED
int ct_probe_header_CONST_UNNAMED(void);
#endif

/* The functions, through pointers of the listed types (where they compiled). */
#if CT_PROBE_PROTOTYPES_TRC
CT_PROTOTYPES_TRC(CT_PROTO_POINTER)
#endif
#if CT_HAVE_TEF && CT_PROBE_PROTOTYPES_TEF
CT_PROTOTYPES_TEF(CT_PROTO_POINTER)
#endif

/* ---- types ----------------------------------------------------------------------------- */

CT_TEST(type_size_t, "trace_h.type.size_t", "TRC", "")
{
#if CT_PROBE_TYPE_SIZE_T
    CT_CHECK(ct_probe_header_TYPE_SIZE_T() == 1, "the probe part returned 0");
#else
    ct_probe_missing("TYPE_SIZE_T", "<trace.h> alone does not define size_t");
#endif
}

CT_TEST(type_trace_attr_t, "trace_h.type.trace_attr_t", "TRC",
        "posix_trace_attr_init,posix_trace_attr_destroy")
{
#if CT_PROBE_TYPE_TRACE_ATTR_T
    /* Compiled: an object of the type exists; it is usable as one. */
    trace_attr_t a;
    CT_CHECK(ct_probe_header_TYPE_TRACE_ATTR_T() == 1, "the probe part returned 0");
    CT_CHECK_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
#else
    ct_probe_missing("TYPE_TRACE_ATTR_T", "<trace.h> alone does not define trace_attr_t");
#endif
}

CT_TEST(type_trace_event_id_t, "trace_h.type.trace_event_id_t", "TRC",
        "posix_trace_eventid_open")
{
#if CT_PROBE_TYPE_TRACE_EVENT_ID_T
    trace_event_id_t id;
    CT_CHECK(ct_probe_header_TYPE_TRACE_EVENT_ID_T() == 1, "the probe part returned 0");
    CT_CHECK_OK(posix_trace_eventid_open("ct-header", &id));
    trace_event_id_t copy = id;     /* assignable: a complete object type */
    (void)copy;
#else
    ct_probe_missing("TYPE_TRACE_EVENT_ID_T", "<trace.h> alone does not define"
                     " trace_event_id_t");
#endif
}

CT_TEST(type_trace_id_t, "trace_h.type.trace_id_t", "TRC",
        "posix_trace_create,posix_trace_shutdown")
{
#if CT_PROBE_TYPE_TRACE_ID_T
    trace_id_t trid;
    CT_CHECK(ct_probe_header_TYPE_TRACE_ID_T() == 1, "the probe part returned 0");
    CT_CHECK_OK(posix_trace_create(0, NULL, &trid));
    trace_id_t copy = trid;         /* the same stream through a copy */
    CT_CHECK_OK(posix_trace_shutdown(copy));
#else
    ct_probe_missing("TYPE_TRACE_ID_T", "<trace.h> alone does not define trace_id_t");
#endif
}

CT_TEST(type_trace_event_set_t, "trace_h.type.trace_event_set_t", "TRC,TEF",
        "posix_trace_eventset_empty,posix_trace_eventset_add,posix_trace_eventset_ismember")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
#if !CT_PROBE_TYPE_TRACE_EVENT_SET_T
    ct_probe_missing("TYPE_TRACE_EVENT_SET_T", "<trace.h> alone does not define"
                     " trace_event_set_t");
#else
    /* Compiled: the probe declared an object of the type after <trace.h>
     * alone.  It is usable as a set, and assignable (the type is not
     * trace_attr_t). */
    CT_CHECK(ct_probe_header_TYPE_TRACE_EVENT_SET_T() == 1, "the probe part returned 0");
    trace_event_set_t object, *set = &object;
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
#endif
#else
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#endif
}

/* ---- structure members: one rule each ----------------------------------------------- */

static const struct ct_member status_members[3] = {
#if CT_PROBE_STATUS_STREAM_STATUS
    { "STATUS_STREAM_STATUS", "posix_stream_status", "int",
      CT_MEMBER_PRESENT(posix_trace_status_info, posix_stream_status) },
#else
    { "STATUS_STREAM_STATUS", "posix_stream_status", "int", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_STATUS_STREAM_FULL_STATUS
    { "STATUS_STREAM_FULL_STATUS", "posix_stream_full_status", "int",
      CT_MEMBER_PRESENT(posix_trace_status_info, posix_stream_full_status) },
#else
    { "STATUS_STREAM_FULL_STATUS", "posix_stream_full_status", "int", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_STATUS_STREAM_OVERRUN_STATUS
    { "STATUS_STREAM_OVERRUN_STATUS", "posix_stream_overrun_status", "int",
      CT_MEMBER_PRESENT(posix_trace_status_info, posix_stream_overrun_status) },
#else
    { "STATUS_STREAM_OVERRUN_STATUS", "posix_stream_overrun_status", "int", CT_MEMBER_ABSENT },
#endif
};

/* A rule of struct posix_trace_status_info's TRC members. */
static void status_member(int i)
{
#if CT_PROBE_STATUS_STREAM_STATUS || CT_PROBE_STATUS_STREAM_FULL_STATUS || \
    CT_PROBE_STATUS_STREAM_OVERRUN_STATUS
    const size_t size = sizeof(struct posix_trace_status_info);
#else
    const size_t size = 0;      /* no member compiled: the structure may not exist */
#endif
    ct_check_member("posix_trace_status_info", size, status_members, 3, i);
}

CT_TEST(status_posix_stream_status, "trace_h.status.posix_stream_status", "TRC", "")
{
    status_member(0);
}

CT_TEST(status_posix_stream_full_status, "trace_h.status.posix_stream_full_status", "TRC", "")
{
    status_member(1);
}

CT_TEST(status_posix_stream_overrun_status, "trace_h.status.posix_stream_overrun_status",
        "TRC", "")
{
    status_member(2);
}

static const struct ct_member event_info_members[6] = {
#if CT_PROBE_EVENT_INFO_EVENT_ID
    { "EVENT_INFO_EVENT_ID", "posix_event_id", "trace_event_id_t",
      CT_MEMBER_PRESENT(posix_trace_event_info, posix_event_id) },
#else
    { "EVENT_INFO_EVENT_ID", "posix_event_id", "trace_event_id_t", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_EVENT_INFO_PID
    { "EVENT_INFO_PID", "posix_pid", "pid_t",
      CT_MEMBER_PRESENT(posix_trace_event_info, posix_pid) },
#else
    { "EVENT_INFO_PID", "posix_pid", "pid_t", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_EVENT_INFO_PROG_ADDRESS
    { "EVENT_INFO_PROG_ADDRESS", "posix_prog_address", "void *",
      CT_MEMBER_PRESENT(posix_trace_event_info, posix_prog_address) },
#else
    { "EVENT_INFO_PROG_ADDRESS", "posix_prog_address", "void *", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_EVENT_INFO_TRUNCATION_STATUS
    { "EVENT_INFO_TRUNCATION_STATUS", "posix_truncation_status", "int",
      CT_MEMBER_PRESENT(posix_trace_event_info, posix_truncation_status) },
#else
    { "EVENT_INFO_TRUNCATION_STATUS", "posix_truncation_status", "int", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_EVENT_INFO_TIMESTAMP
    { "EVENT_INFO_TIMESTAMP", "posix_timestamp", "struct timespec",
      CT_MEMBER_PRESENT(posix_trace_event_info, posix_timestamp) },
#else
    { "EVENT_INFO_TIMESTAMP", "posix_timestamp", "struct timespec", CT_MEMBER_ABSENT },
#endif
#if CT_PROBE_EVENT_INFO_THREAD_ID
    { "EVENT_INFO_THREAD_ID", "posix_thread_id", "pthread_t",
      CT_MEMBER_PRESENT(posix_trace_event_info, posix_thread_id) },
#else
    { "EVENT_INFO_THREAD_ID", "posix_thread_id", "pthread_t", CT_MEMBER_ABSENT },
#endif
};

/* A rule of struct posix_trace_event_info's members. */
static void event_info_member(int i)
{
#if CT_PROBE_EVENT_INFO_EVENT_ID || CT_PROBE_EVENT_INFO_PID || \
    CT_PROBE_EVENT_INFO_PROG_ADDRESS || CT_PROBE_EVENT_INFO_TRUNCATION_STATUS || \
    CT_PROBE_EVENT_INFO_TIMESTAMP || CT_PROBE_EVENT_INFO_THREAD_ID
    const size_t size = sizeof(struct posix_trace_event_info);
#else
    const size_t size = 0;      /* no member compiled: the structure may not exist */
#endif
    ct_check_member("posix_trace_event_info", size, event_info_members, 6, i);
}

CT_TEST(event_info_posix_event_id, "trace_h.event_info.posix_event_id", "TRC", "")
{
    event_info_member(0);
}

CT_TEST(event_info_posix_pid, "trace_h.event_info.posix_pid", "TRC", "")
{
    event_info_member(1);
}

CT_TEST(event_info_posix_prog_address, "trace_h.event_info.posix_prog_address", "TRC", "")
{
    event_info_member(2);
}

CT_TEST(event_info_posix_truncation_status, "trace_h.event_info.posix_truncation_status",
        "TRC", "")
{
    event_info_member(3);
}

CT_TEST(event_info_posix_timestamp, "trace_h.event_info.posix_timestamp", "TRC", "")
{
    event_info_member(4);
}

CT_TEST(event_info_posix_thread_id, "trace_h.event_info.posix_thread_id", "TRC", "")
{
    event_info_member(5);
}

/* ---- constants ------------------------------------------------------------------------ */

CT_TEST(constants_trc, "trace_h.constants-trc", "TRC", "")
{
#if CT_PROBE_CONSTANTS_TRC
    /* Compiled: every TRC constant of the list exists; the status and policy
     * values are ints, the events trace_event_id_t values. */
    CT_CHECK(ct_probe_header_CONSTANTS_TRC() == 1, "the probe part returned 0");
    ct_note("the predefined user event is spelt %s", CT_UNNAMED_SPELLING);
#else
    ct_probe_missing("CONSTANTS_TRC", "a TRC constant of the <trace.h> list is missing or"
                     " not of its type");
#endif
}

CT_TEST(const_posix_trace_error, "trace_h.const.POSIX_TRACE_ERROR", "TRC",
        "posix_trace_eventid_equal")
{
#if CT_PROBE_CONST_ERROR
    /* Compiled: POSIX_TRACE_ERROR exists and is a trace_event_id_t value
     * (ruling 2).  It names an event other than START and STOP. */
    trace_event_id_t err = POSIX_TRACE_ERROR;
    trace_id_t trid;
    CT_CHECK(ct_probe_header_CONST_ERROR() == 1, "the probe part returned 0");
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    CT_CHECK(!posix_trace_eventid_equal(trid, err, POSIX_TRACE_START) &&
             !posix_trace_eventid_equal(trid, err, POSIX_TRACE_STOP),
             "POSIX_TRACE_ERROR (%s) equals START or STOP", CT_HEX(err));
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    ct_probe_missing("CONST_ERROR", "<trace.h> does not define POSIX_TRACE_ERROR as a"
                     " trace_event_id_t value (required by XSH 2.11.2, ruling 2)");
#endif
}

CT_TEST(const_unnamed_userevent, "trace_h.const.POSIX_TRACE_UNNAMED_USEREVENT", "TRC", "")
{
#if CT_PROBE_CONST_UNNAMED
    /* Compiled: either spelling (ruling 1). */
    CT_CHECK(ct_probe_header_CONST_UNNAMED() == 1, "the probe part returned 0");
#if defined(POSIX_TRACE_UNNAMED_USEREVENT)
    ct_note("POSIX_TRACE_UNNAMED_USEREVENT is defined");
#else
    ct_note("only the <trace.h> spelling %s is defined (ruling 1 accepts it)",
            CT_UNNAMED_SPELLING);
#endif
#else
    ct_probe_missing("CONST_UNNAMED", "<trace.h> defines the predefined user event under"
                     " neither spelling (ruling 1)");
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
#if !CT_PROBE_CONSTANTS_TRC
    CT_UNRESOLVED("the TRC constants do not all compile (a FAIL of trace_h.constants-trc):"
                  " their values cannot be compared");
#else
    /* Distinct within one kind only: the values one member holds or one
     * argument takes.  Constants of different kinds (a stream-full policy
     * and a log-full policy, POSIX_TRACE_FLUSH and POSIX_TRACE_APPEND) may
     * share a value. */
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
#endif
}

/* ---- prototypes: callable after #undef, through pointers of the listed types ----------- */

CT_TEST(prototypes_trc, "trace_h.prototypes-trc", "TRC",
        "posix_trace_attr_init,posix_trace_create,posix_trace_start,posix_trace_event,"
        "posix_trace_getnext_event,posix_trace_shutdown")
{
#if CT_PROBE_PROTOTYPES_TRC
    /* Compiled: the probe's assertions.  Run: each function, called through
     * its pointer, does its job. */
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
#else
    ct_probe_missing("PROTOTYPES_TRC", "a TRC function is missing from <trace.h> or declared"
                     " with another type");
#endif
}

/* ---- TEF: constants and prototypes --------------------------------------------------------- */

CT_TEST(constants_tef, "trace_h.constants-tef", "TRC,TEF", "posix_trace_eventid_equal")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
#if !CT_PROBE_CONSTANTS_TEF
    ct_probe_missing("CONSTANTS_TEF", "<trace.h> does not define POSIX_TRACE_FILTER as a"
                     " trace_event_id_t value");
#else
    /* Compiled: POSIX_TRACE_FILTER exists and is a trace_event_id_t value.
     * It names an event of its own (among those the header has). */
    trace_event_id_t filter = POSIX_TRACE_FILTER;
    const trace_event_id_t others[] = { POSIX_TRACE_START, POSIX_TRACE_STOP,
                                        POSIX_TRACE_OVERFLOW, POSIX_TRACE_RESUME,
#if CT_PROBE_CONST_UNNAMED
                                        CT_UNNAMED,
#endif
#if CT_PROBE_CONST_ERROR
                                        POSIX_TRACE_ERROR,
#endif
    };
    static const char *const names[] = { "POSIX_TRACE_START", "POSIX_TRACE_STOP",
                                         "POSIX_TRACE_OVERFLOW", "POSIX_TRACE_RESUME",
#if CT_PROBE_CONST_UNNAMED
                                         CT_UNNAMED_SPELLING,
#endif
#if CT_PROBE_CONST_ERROR
                                         "POSIX_TRACE_ERROR",
#endif
    };
    const int n = (int)(sizeof others / sizeof others[0]);
    trace_id_t trid;
    CT_SETUP_OK(posix_trace_create(0, NULL, &trid));
    for (int i = 0; i < n; i++)
        CT_CHECK(!posix_trace_eventid_equal(trid, filter, others[i]), "POSIX_TRACE_FILTER (%s)"
                 " equals %s", CT_HEX(filter), names[i]);
    CT_CHECK(posix_trace_eventid_equal(trid, filter, POSIX_TRACE_FILTER),
             "eventid_equal(POSIX_TRACE_FILTER, POSIX_TRACE_FILTER) returned 0");
    CT_CHECK_OK(posix_trace_shutdown(trid));
#endif
#else
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#endif
}

CT_TEST(const_eventset_how, "trace_h.const.eventset-how", "TRC,TEF", "")
{
#if CT_HAVE_TEF
    if (!ct_option("TEF"))
        CT_UNSUPPORTED("TEF is not supported at run time");
#if !CT_PROBE_CONST_EVENTSET_HOW
    ct_probe_missing("CONST_EVENTSET_HOW", "<trace.h> does not define POSIX_TRACE_SET_EVENTSET,"
                     " POSIX_TRACE_ADD_EVENTSET and POSIX_TRACE_SUB_EVENTSET as ints"
                     " (ruling 2)");
#else
    /* Compiled: the three how values exist (ruling 2) and initialise ints. */
    const int how[3] = { POSIX_TRACE_SET_EVENTSET, POSIX_TRACE_ADD_EVENTSET,
                         POSIX_TRACE_SUB_EVENTSET };
    DISTINCT("the how of set_filter", POSIX_TRACE_SET_EVENTSET, POSIX_TRACE_ADD_EVENTSET,
             POSIX_TRACE_SUB_EVENTSET);
    ct_note("SET_EVENTSET %d, ADD_EVENTSET %d, SUB_EVENTSET %d", how[0], how[1], how[2]);
#endif
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
#if !CT_PROBE_PROTOTYPES_TEF
    ct_probe_missing("PROTOTYPES_TEF", "a TEF function is missing from <trace.h> or declared"
                     " with another type");
#else
    /* Compiled: the probe's assertions.  Run: each function, called through
     * its pointer, does its job. */
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
#endif
#else
    CT_UNSUPPORTED("built without TEF: <trace.h> defines _POSIX_TRACE_EVENT_FILTER as -1");
#endif
}
