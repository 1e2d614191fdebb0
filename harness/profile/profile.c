/* SPDX-License-Identifier: MIT */
/*
 * profile.c -- the implementation profile: what the implementation under test
 * says about itself, read through the standard API only, printed as JSON for
 * the runner (harness/run.py), which records it as implementation.profile in
 * reports/conformance.json and derives the supported options from it.
 *
 *     profile [SECTION...]   the sections named, or all of them:
 *       options            options (macros and sysconf) and limits
 *       attr               attribute defaults after posix_trace_attr_init, clock
 *                          resolution, maximum event sizes
 *       types              sizes of the types, values of the constants
 *       stream             a stream created with default attributes: its event
 *                          type list and names, its initial status
 *
 * The runner asks for each section in a process of its own, so that an
 * implementation that crashes in one still has the others in its profile.
 *
 * Nothing here assumes a value: what cannot be read is reported as null or
 * as {"error": "EINVAL"}.  Values of opaque types (event ids) are shown as
 * their bytes in hex.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <trace.h>

/* Options a program may refer to at compile time (as CT_HAVE_* in ct.h). */
#ifndef CT_HAVE_TEF
#  if defined(_POSIX_TRACE_EVENT_FILTER) && _POSIX_TRACE_EVENT_FILTER != -1
#    define CT_HAVE_TEF 1
#  else
#    define CT_HAVE_TEF 0
#  endif
#endif
#ifndef CT_HAVE_TRI
#  if defined(_POSIX_TRACE_INHERIT) && _POSIX_TRACE_INHERIT != -1
#    define CT_HAVE_TRI 1
#  else
#    define CT_HAVE_TRI 0
#  endif
#endif
#ifndef CT_HAVE_TRL
#  if defined(_POSIX_TRACE_LOG) && _POSIX_TRACE_LOG != -1
#    define CT_HAVE_TRL 1
#  else
#    define CT_HAVE_TRL 0
#  endif
#endif

#if defined(TRACE_NAME_MAX) && TRACE_NAME_MAX > 0 && TRACE_NAME_MAX < 4096
#define NAME_BUF (TRACE_NAME_MAX + 1)
#else
#define NAME_BUF 4096
#endif
#if defined(TRACE_EVENT_NAME_MAX) && TRACE_EVENT_NAME_MAX > 0 && TRACE_EVENT_NAME_MAX < 4096
#define EVENT_NAME_BUF (TRACE_EVENT_NAME_MAX + 1)
#else
#define EVENT_NAME_BUF 4096
#endif

static long trace_sysconf(int name)
{
#ifdef CT_HAVE_POSIX_TRACE_SYSCONF
    return posix_trace_sysconf(name);
#else
    return sysconf(name);
#endif
}

/* ---- JSON output ------------------------------------------------------------ */

static int first = 1;       /* no member written yet in the current object */

static void sep(void)
{
    if (!first)
        putchar(',');
    putchar('\n');
    first = 0;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            printf("\\u%04x", c);       /* bytes, not characters: kept visible */
        else
            putchar(c);
    }
    putchar('"');
}

static void key(const char *k)
{
    sep();
    json_string(k);
    putchar(':');
}

static void open_obj(const char *k)
{
    if (k)
        key(k);
    else
        sep();
    putchar('{');
    first = 1;
}

static void close_obj(void)
{
    putchar('}');
    first = 0;
}

static void kv_long(const char *k, long v) { key(k); printf("%ld", v); }
static void kv_ulong(const char *k, unsigned long v) { key(k); printf("%lu", v); }
static void kv_null(const char *k) { key(k); printf("null"); }
static void kv_bool(const char *k, int v) { key(k); printf(v ? "true" : "false"); }
static void kv_str(const char *k, const char *v) { key(k); json_string(v); }

static const char *errname(int e)
{
    static char buf[32];
    switch (e) {
    case EINVAL: return "EINVAL";
    case ENOMEM: return "ENOMEM";
    case ENOSYS: return "ENOSYS";
    case EAGAIN: return "EAGAIN";
    case EPERM: return "EPERM";
    case ESRCH: return "ESRCH";
    case ENOTSUP: return "ENOTSUP";
    default: snprintf(buf, sizeof buf, "error %d", e); return buf;
    }
}

static void kv_error(const char *k, int e)
{
    open_obj(k);
    kv_str("error", errname(e));
    close_obj();
}

static void hex(const void *p, size_t n)
{
    const unsigned char *c = p;
    printf("\"0x");
    for (size_t i = 0; i < n; i++)
        printf("%02x", c[i]);
    putchar('"');
}

/* ---- Options and limits -------------------------------------------------------- */

/* Each macro the profile reports, as "defined, value" (0, 0 where the header
 * lacks it), and each sysconf() name (-1 where <unistd.h> lacks it): the
 * tables below then name them alike, whatever this implementation defines. */
#ifdef _POSIX_TRACE
#define M_TRC 1, _POSIX_TRACE
#else
#define M_TRC 0, 0
#endif
#ifdef _POSIX_TRACE_EVENT_FILTER
#define M_TEF 1, _POSIX_TRACE_EVENT_FILTER
#else
#define M_TEF 0, 0
#endif
#ifdef _POSIX_TRACE_INHERIT
#define M_TRI 1, _POSIX_TRACE_INHERIT
#else
#define M_TRI 0, 0
#endif
#ifdef _POSIX_TRACE_LOG
#define M_TRL 1, _POSIX_TRACE_LOG
#else
#define M_TRL 0, 0
#endif
#ifdef TRACE_EVENT_NAME_MAX
#define M_EVENT_NAME_MAX 1, TRACE_EVENT_NAME_MAX
#else
#define M_EVENT_NAME_MAX 0, 0
#endif
#ifdef TRACE_NAME_MAX
#define M_NAME_MAX 1, TRACE_NAME_MAX
#else
#define M_NAME_MAX 0, 0
#endif
#ifdef TRACE_SYS_MAX
#define M_SYS_MAX 1, TRACE_SYS_MAX
#else
#define M_SYS_MAX 0, 0
#endif
#ifdef TRACE_USER_EVENT_MAX
#define M_USER_EVENT_MAX 1, TRACE_USER_EVENT_MAX
#else
#define M_USER_EVENT_MAX 0, 0
#endif
#ifdef _POSIX_TRACE_EVENT_NAME_MAX
#define M_MIN_EVENT_NAME_MAX 1, _POSIX_TRACE_EVENT_NAME_MAX
#else
#define M_MIN_EVENT_NAME_MAX 0, 0
#endif
#ifdef _POSIX_TRACE_NAME_MAX
#define M_MIN_NAME_MAX 1, _POSIX_TRACE_NAME_MAX
#else
#define M_MIN_NAME_MAX 0, 0
#endif
#ifdef _POSIX_TRACE_SYS_MAX
#define M_MIN_SYS_MAX 1, _POSIX_TRACE_SYS_MAX
#else
#define M_MIN_SYS_MAX 0, 0
#endif
#ifdef _POSIX_TRACE_USER_EVENT_MAX
#define M_MIN_USER_EVENT_MAX 1, _POSIX_TRACE_USER_EVENT_MAX
#else
#define M_MIN_USER_EVENT_MAX 0, 0
#endif
#ifdef _SC_TRACE
#define SC_TRC _SC_TRACE
#else
#define SC_TRC -1
#endif
#ifdef _SC_TRACE_EVENT_FILTER
#define SC_TEF _SC_TRACE_EVENT_FILTER
#else
#define SC_TEF -1
#endif
#ifdef _SC_TRACE_INHERIT
#define SC_TRI _SC_TRACE_INHERIT
#else
#define SC_TRI -1
#endif
#ifdef _SC_TRACE_LOG
#define SC_TRL _SC_TRACE_LOG
#else
#define SC_TRL -1
#endif
#ifdef _SC_TRACE_EVENT_NAME_MAX
#define SC_EVENT_NAME_MAX _SC_TRACE_EVENT_NAME_MAX
#else
#define SC_EVENT_NAME_MAX -1
#endif
#ifdef _SC_TRACE_NAME_MAX
#define SC_NAME_MAX _SC_TRACE_NAME_MAX
#else
#define SC_NAME_MAX -1
#endif
#ifdef _SC_TRACE_SYS_MAX
#define SC_SYS_MAX _SC_TRACE_SYS_MAX
#else
#define SC_SYS_MAX -1
#endif
#ifdef _SC_TRACE_USER_EVENT_MAX
#define SC_USER_EVENT_MAX _SC_TRACE_USER_EVENT_MAX
#else
#define SC_USER_EVENT_MAX -1
#endif

/* A macro of the header and the sysconf() name that goes with it (-1: none). */
struct macro_row {
    const char *key;
    int         defined;
    long        macro;
    int         sc;
};

static const struct macro_row option_rows[] = {
    { "TRC", M_TRC, SC_TRC },
    { "TEF", M_TEF, SC_TEF },
    { "TRI", M_TRI, SC_TRI },
    { "TRL", M_TRL, SC_TRL },
};

static const struct macro_row limit_rows[] = {
    { "TRACE_EVENT_NAME_MAX", M_EVENT_NAME_MAX, SC_EVENT_NAME_MAX },
    { "TRACE_NAME_MAX", M_NAME_MAX, SC_NAME_MAX },
    { "TRACE_SYS_MAX", M_SYS_MAX, SC_SYS_MAX },
    { "TRACE_USER_EVENT_MAX", M_USER_EVENT_MAX, SC_USER_EVENT_MAX },
};

/* The <limits.h> minima, fixed by the standard; a header may lack them. */
static const struct macro_row minimum_rows[] = {
    { "_POSIX_TRACE_EVENT_NAME_MAX", M_MIN_EVENT_NAME_MAX, -1 },
    { "_POSIX_TRACE_NAME_MAX", M_MIN_NAME_MAX, -1 },
    { "_POSIX_TRACE_SYS_MAX", M_MIN_SYS_MAX, -1 },
    { "_POSIX_TRACE_USER_EVENT_MAX", M_MIN_USER_EVENT_MAX, -1 },
};

#define N_ROWS(t) (sizeof (t) / sizeof (t)[0])

/* "macro" and "sysconf" of r (null where there is none); sysconf's answer
 * (-1 where there is none). */
static long macro_and_sysconf(const struct macro_row *r)
{
    if (r->defined)
        kv_long("macro", r->macro);
    else
        kv_null("macro");
    long v = r->sc == -1 ? -1 : trace_sysconf(r->sc);
    if (r->sc == -1)
        kv_null("sysconf");
    else
        kv_long("sysconf", v);
    return v;
}

static void option(const struct macro_row *r)
{
    open_obj(r->key);
    long v = macro_and_sysconf(r);
    /* XBD <unistd.h>: -1 unsupported; > 0 supported; 0 or undefined: ask sysconf. */
    int supported = r->defined && r->macro == -1 ? 0 : r->defined && r->macro > 0 ? 1 : v > 0;
    kv_bool("supported", supported);
    close_obj();
}

static void limit(const struct macro_row *r)
{
    open_obj(r->key);
    macro_and_sysconf(r);
    close_obj();
}

static void options_and_limits(void)
{
    open_obj("options");
    for (size_t i = 0; i < N_ROWS(option_rows); i++)
        option(&option_rows[i]);
    close_obj();

    open_obj("compiled_options");     /* what the programs could refer to */
    kv_bool("TEF", CT_HAVE_TEF);
    kv_bool("TRI", CT_HAVE_TRI);
    kv_bool("TRL", CT_HAVE_TRL);
    close_obj();

    open_obj("limits");
    for (size_t i = 0; i < N_ROWS(limit_rows); i++)
        limit(&limit_rows[i]);
    for (size_t i = 0; i < N_ROWS(minimum_rows); i++) {
        if (minimum_rows[i].defined)
            kv_long(minimum_rows[i].key, minimum_rows[i].macro);
        else
            kv_null(minimum_rows[i].key);
    }
    close_obj();
}

/* ---- Attribute defaults ----------------------------------------------------------- */

static const char *policy_name(int v)
{
    if (v == POSIX_TRACE_LOOP) return "POSIX_TRACE_LOOP";
    if (v == POSIX_TRACE_UNTIL_FULL) return "POSIX_TRACE_UNTIL_FULL";
#if CT_HAVE_TRL
    if (v == POSIX_TRACE_FLUSH) return "POSIX_TRACE_FLUSH";
    if (v == POSIX_TRACE_APPEND) return "POSIX_TRACE_APPEND";
#endif
    return NULL;
}

static void kv_policy(const char *k, int v)
{
    const char *n = policy_name(v);
    if (n)
        kv_str(k, n);
    else
        kv_long(k, v);
}

static void kv_size(const char *k, int rc, size_t v)
{
    if (rc)
        kv_error(k, rc);
    else
        kv_ulong(k, (unsigned long)v);
}

static void kv_timespec(const char *k, const struct timespec *t)
{
    open_obj(k);
    kv_long("tv_sec", (long)t->tv_sec);
    kv_long("tv_nsec", t->tv_nsec);
    close_obj();
}

static void attr_defaults(void)
{
    trace_attr_t a;
    int rc = posix_trace_attr_init(&a);
    if (rc) {
        kv_error("attr_defaults", rc);
        return;
    }
    open_obj("attr_defaults");
    size_t sz;
    int v;
    char buf[NAME_BUF > 4096 ? NAME_BUF : 4096];
    struct timespec ts;

    rc = posix_trace_attr_getstreamsize(&a, &sz);
    kv_size("stream_min_size", rc, sz);
    rc = posix_trace_attr_getmaxdatasize(&a, &sz);
    kv_size("max_data_size", rc, sz);
    size_t maxdata = rc ? 0 : sz;
    rc = posix_trace_attr_getstreamfullpolicy(&a, &v);
    if (rc) kv_error("stream_full_policy", rc); else kv_policy("stream_full_policy", v);
#if CT_HAVE_TRL
    rc = posix_trace_attr_getlogsize(&a, &sz);
    kv_size("log_max_size", rc, sz);
    rc = posix_trace_attr_getlogfullpolicy(&a, &v);
    if (rc) kv_error("log_full_policy", rc); else kv_policy("log_full_policy", v);
#else
    kv_null("log_max_size");
    kv_null("log_full_policy");
#endif
#if CT_HAVE_TRI
    rc = posix_trace_attr_getinherited(&a, &v);
    if (rc)
        kv_error("inheritance", rc);
    else if (v == POSIX_TRACE_CLOSE_FOR_CHILD)
        kv_str("inheritance", "POSIX_TRACE_CLOSE_FOR_CHILD");
    else if (v == POSIX_TRACE_INHERITED)
        kv_str("inheritance", "POSIX_TRACE_INHERITED");
    else
        kv_long("inheritance", v);
#else
    kv_null("inheritance");
#endif
    memset(buf, 0, sizeof buf);
    rc = posix_trace_attr_getname(&a, buf);
    if (rc) kv_error("name", rc); else kv_str("name", buf);
    memset(buf, 0, sizeof buf);
    rc = posix_trace_attr_getgenversion(&a, buf);
    if (rc) kv_error("genversion", rc); else kv_str("genversion", buf);
    rc = posix_trace_attr_getclockres(&a, &ts);
    if (rc) kv_error("clock_resolution", rc); else kv_timespec("clock_resolution", &ts);
    rc = posix_trace_attr_getcreatetime(&a, &ts);
    if (rc) kv_error("create_time", rc); else kv_timespec("create_time", &ts);
    close_obj();

    open_obj("event_sizes");
    rc = posix_trace_attr_getmaxsystemeventsize(&a, &sz);
    kv_size("max_system_event_size", rc, sz);
    static const size_t lens[] = { 0, 1, 8, 16, 64 };
    char k[64];
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        snprintf(k, sizeof k, "max_user_event_size(%lu)", (unsigned long)lens[i]);
        rc = posix_trace_attr_getmaxusereventsize(&a, lens[i], &sz);
        kv_size(k, rc, sz);
    }
    snprintf(k, sizeof k, "max_user_event_size(max_data_size=%lu)", (unsigned long)maxdata);
    rc = posix_trace_attr_getmaxusereventsize(&a, maxdata, &sz);
    kv_size(k, rc, sz);
    close_obj();
    posix_trace_attr_destroy(&a);
}

/* ---- Types and constants -------------------------------------------------------- */

static void types_and_constants(void)
{
    open_obj("type_sizes");
    kv_ulong("trace_attr_t", sizeof(trace_attr_t));
    kv_ulong("trace_id_t", sizeof(trace_id_t));
    kv_ulong("trace_event_id_t", sizeof(trace_event_id_t));
#if CT_HAVE_TEF
    kv_ulong("trace_event_set_t", sizeof(trace_event_set_t));
#endif
    kv_ulong("struct posix_trace_event_info", sizeof(struct posix_trace_event_info));
    kv_ulong("struct posix_trace_status_info", sizeof(struct posix_trace_status_info));
    close_obj();

    open_obj("constants");
#define C(x) kv_long(#x, (long)(x));
    C(POSIX_TRACE_RUNNING) C(POSIX_TRACE_SUSPENDED)
    C(POSIX_TRACE_FULL) C(POSIX_TRACE_NOT_FULL)
    C(POSIX_TRACE_OVERRUN) C(POSIX_TRACE_NO_OVERRUN)
    C(POSIX_TRACE_NOT_TRUNCATED) C(POSIX_TRACE_TRUNCATED_RECORD) C(POSIX_TRACE_TRUNCATED_READ)
    C(POSIX_TRACE_LOOP) C(POSIX_TRACE_UNTIL_FULL)
    C(POSIX_TRACE_WOPID_EVENTS) C(POSIX_TRACE_SYSTEM_EVENTS) C(POSIX_TRACE_ALL_EVENTS)
#if CT_HAVE_TRL
    C(POSIX_TRACE_FLUSH) C(POSIX_TRACE_APPEND)
    C(POSIX_TRACE_FLUSHING) C(POSIX_TRACE_NOT_FLUSHING)
#endif
#if CT_HAVE_TRI
    C(POSIX_TRACE_CLOSE_FOR_CHILD) C(POSIX_TRACE_INHERITED)
#endif
#if CT_HAVE_TEF
    C(POSIX_TRACE_SET_EVENTSET) C(POSIX_TRACE_ADD_EVENTSET) C(POSIX_TRACE_SUB_EVENTSET)
#endif
#undef C
    close_obj();

    open_obj("event_ids");          /* bytes of each trace_event_id_t constant */
#define ID(x) do { trace_event_id_t id_ = (x); key(#x); hex(&id_, sizeof id_); } while (0);
    ID(POSIX_TRACE_START) ID(POSIX_TRACE_STOP) ID(POSIX_TRACE_OVERFLOW)
    ID(POSIX_TRACE_RESUME)
#ifdef POSIX_TRACE_ERROR            /* required (ruling 2), but often missing */
    ID(POSIX_TRACE_ERROR)
#endif
#ifdef POSIX_TRACE_UNNAMED_USEREVENT
    ID(POSIX_TRACE_UNNAMED_USEREVENT)
#endif
#ifdef POSIX_TRACE_UNNAMED_USER_EVENT
    ID(POSIX_TRACE_UNNAMED_USER_EVENT)
#endif
#if CT_HAVE_TEF
    ID(POSIX_TRACE_FILTER)
#endif
#if CT_HAVE_TRL
    ID(POSIX_TRACE_FLUSH_START) ID(POSIX_TRACE_FLUSH_STOP)
#endif
#undef ID
    close_obj();
}

/* ---- A stream with default attributes ---------------------------------------------- */

static void stream_profile(void)
{
    trace_id_t trid;
    open_obj("stream");
    int rc = posix_trace_create(0, NULL, &trid);
    if (rc) {
        kv_str("create_error", errname(rc));
        close_obj();
        return;
    }
    struct posix_trace_status_info st;
    memset(&st, 0, sizeof st);
    rc = posix_trace_get_status(trid, &st);
    if (rc) {
        kv_error("initial_status", rc);
    } else {
        open_obj("initial_status");
        kv_str("posix_stream_status",
               st.posix_stream_status == POSIX_TRACE_SUSPENDED ? "POSIX_TRACE_SUSPENDED"
               : st.posix_stream_status == POSIX_TRACE_RUNNING ? "POSIX_TRACE_RUNNING"
               : "other");
        kv_str("posix_stream_full_status",
               st.posix_stream_full_status == POSIX_TRACE_NOT_FULL ? "POSIX_TRACE_NOT_FULL"
               : st.posix_stream_full_status == POSIX_TRACE_FULL ? "POSIX_TRACE_FULL"
               : "other");
        close_obj();
    }
    trace_attr_t a;
    struct timespec ts;
    if (posix_trace_get_attr(trid, &a) == 0) {
        if (posix_trace_attr_getclockres(&a, &ts) == 0)
            kv_timespec("clock_resolution", &ts);
        int v;
        if (posix_trace_attr_getstreamfullpolicy(&a, &v) == 0)
            kv_policy("stream_full_policy", v);
    }

    key("event_types");
    putchar('[');
    first = 1;
    for (int n = 0; n < 4096; n++) {
        trace_event_id_t id;
        int unavailable = 0;
        rc = posix_trace_eventtypelist_getnext_id(trid, &id, &unavailable);
        if (rc || unavailable)
            break;
        char name[EVENT_NAME_BUF > 4096 ? EVENT_NAME_BUF : 4096];
        memset(name, 0, sizeof name);
        open_obj(NULL);
        key("id");
        hex(&id, sizeof id);
        if (posix_trace_eventid_get_name(trid, id, name) == 0)
            kv_str("name", name);
        else
            kv_null("name");
        close_obj();
    }
    putchar(']');
    first = 0;
    rc = posix_trace_shutdown(trid);
    if (rc)
        kv_str("shutdown_error", errname(rc));
    close_obj();
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*print)(void); } sections[] = {
        { "options", options_and_limits },
        { "attr", attr_defaults },
        { "types", types_and_constants },
        { "stream", stream_profile },
    };
    enum { NSECTIONS = sizeof sections / sizeof sections[0] };
    int want[NSECTIONS] = { 0 }, any = 0;
    for (int i = 1; i < argc; i++) {
        int found = 0;
        for (int j = 0; j < NSECTIONS; j++)
            if (strcmp(argv[i], sections[j].name) == 0 ||
                (strncmp(argv[i], "--", 2) == 0 && strcmp(argv[i] + 2, sections[j].name) == 0))
                want[j] = found = any = 1;
        if (!found) {
            fprintf(stderr, "usage: %s [options] [attr] [types] [stream]\n"
                    "prints the implementation profile as JSON: the sections named, or all\n",
                    argv[0]);
            return 2;
        }
    }
    putchar('{');
    kv_long("schema", 1);
    for (int j = 0; j < NSECTIONS; j++)
        if (!any || want[j]) {
            fflush(stdout);
            sections[j].print();
        }
    printf("\n}\n");
    return 0;
}
