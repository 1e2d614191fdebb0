/* SPDX-License-Identifier: MIT */
/*
 * unistd_limits.c -- the Tracing option macros and sysconf() names of
 * <unistd.h> (XBD <unistd.h>; XSH sysconf), the option rules of XBD 2.1.3,
 * 2.1.5.8 and 2.1.6, and the tracing limits of <limits.h>.
 *
 * These rules hold whether or not the option is supported: they are checked
 * always (conformance/README.md).
 *
 * The headers are read in stages.  <limits.h> and then <unistd.h> are included
 * first, and what they define is recorded before <trace.h> is included: a C
 * library's <unistd.h> may define the option macros as -1 (glibc does) and an
 * implementation's <trace.h> may redefine them with its own values.  Every
 * value the program can see, at either stage, must be one the standard
 * allows; the options are those after <trace.h>.  The implementation's
 * sysconf() is ct_sysconf(): the trace library's own where the build says it
 * has one (the reference's posix_trace_sysconf()), else the C library's.
 *
 * Portable: no limit's value is assumed beyond its minimum; "no limit"
 * (sysconf -1 with errno unchanged) is accepted (ruling 23).
 *
 * Judgement: the <limits.h> rules ("<limits.h> defines _POSIX_TRACE_*_MAX")
 * are checked on what a program sees after <limits.h>, <unistd.h> and
 * <trace.h>: a trace library cannot add to the C library's <limits.h>.
 * Whether <limits.h> alone defines them is recorded as a note.
 */

/* ---- stage 1: <limits.h> alone ------------------------------------------------- */
#include <limits.h>
#ifdef _POSIX_TRACE_EVENT_NAME_MAX
#define LIMITS_H_EVENT_NAME_MAX 1
#else
#define LIMITS_H_EVENT_NAME_MAX 0
#endif
#ifdef _POSIX_TRACE_NAME_MAX
#define LIMITS_H_NAME_MAX 1
#else
#define LIMITS_H_NAME_MAX 0
#endif
#ifdef _POSIX_TRACE_SYS_MAX
#define LIMITS_H_SYS_MAX 1
#else
#define LIMITS_H_SYS_MAX 0
#endif
#ifdef _POSIX_TRACE_USER_EVENT_MAX
#define LIMITS_H_USER_EVENT_MAX 1
#else
#define LIMITS_H_USER_EVENT_MAX 0
#endif

/* ---- stage 2: <unistd.h>, before <trace.h> ------------------------------------- */
#include <unistd.h>

/* An option macro as seen at one stage. */
struct optmacro {
    const char *name;
    int defined;
    long value;
};

#ifdef _POSIX_TRACE
static const struct optmacro u_trc = { "_POSIX_TRACE", 1, (long)(_POSIX_TRACE) };
#else
static const struct optmacro u_trc = { "_POSIX_TRACE", 0, 0 };
#endif
#ifdef _POSIX_TRACE_EVENT_FILTER
static const struct optmacro u_tef = { "_POSIX_TRACE_EVENT_FILTER", 1,
                                       (long)(_POSIX_TRACE_EVENT_FILTER) };
#else
static const struct optmacro u_tef = { "_POSIX_TRACE_EVENT_FILTER", 0, 0 };
#endif
#ifdef _POSIX_TRACE_INHERIT
static const struct optmacro u_tri = { "_POSIX_TRACE_INHERIT", 1, (long)(_POSIX_TRACE_INHERIT) };
#else
static const struct optmacro u_tri = { "_POSIX_TRACE_INHERIT", 0, 0 };
#endif
#ifdef _POSIX_TRACE_LOG
static const struct optmacro u_trl = { "_POSIX_TRACE_LOG", 1, (long)(_POSIX_TRACE_LOG) };
#else
static const struct optmacro u_trl = { "_POSIX_TRACE_LOG", 0, 0 };
#endif

/* ---- stage 3: <trace.h> and the framework ---------------------------------------- */
#include <trace.h>
#include "ct.h"

#ifdef _POSIX_TRACE
static const struct optmacro t_trc = { "_POSIX_TRACE", 1, (long)(_POSIX_TRACE) };
#else
static const struct optmacro t_trc = { "_POSIX_TRACE", 0, 0 };
#endif
#ifdef _POSIX_TRACE_EVENT_FILTER
static const struct optmacro t_tef = { "_POSIX_TRACE_EVENT_FILTER", 1,
                                       (long)(_POSIX_TRACE_EVENT_FILTER) };
#else
static const struct optmacro t_tef = { "_POSIX_TRACE_EVENT_FILTER", 0, 0 };
#endif
#ifdef _POSIX_TRACE_INHERIT
static const struct optmacro t_tri = { "_POSIX_TRACE_INHERIT", 1, (long)(_POSIX_TRACE_INHERIT) };
#else
static const struct optmacro t_tri = { "_POSIX_TRACE_INHERIT", 0, 0 };
#endif
#ifdef _POSIX_TRACE_LOG
static const struct optmacro t_trl = { "_POSIX_TRACE_LOG", 1, (long)(_POSIX_TRACE_LOG) };
#else
static const struct optmacro t_trl = { "_POSIX_TRACE_LOG", 0, 0 };
#endif

/* The sysconf() names; -1 where <unistd.h> lacks one (unistd.sc-names). */
#ifdef _SC_TRACE
#define SC_TRACE _SC_TRACE
#else
#define SC_TRACE -1
#endif
#ifdef _SC_TRACE_EVENT_FILTER
#define SC_TRACE_EVENT_FILTER _SC_TRACE_EVENT_FILTER
#else
#define SC_TRACE_EVENT_FILTER -1
#endif
#ifdef _SC_TRACE_INHERIT
#define SC_TRACE_INHERIT _SC_TRACE_INHERIT
#else
#define SC_TRACE_INHERIT -1
#endif
#ifdef _SC_TRACE_LOG
#define SC_TRACE_LOG _SC_TRACE_LOG
#else
#define SC_TRACE_LOG -1
#endif
#ifdef _SC_TRACE_EVENT_NAME_MAX
#define SC_TRACE_EVENT_NAME_MAX _SC_TRACE_EVENT_NAME_MAX
#else
#define SC_TRACE_EVENT_NAME_MAX -1
#endif
#ifdef _SC_TRACE_NAME_MAX
#define SC_TRACE_NAME_MAX _SC_TRACE_NAME_MAX
#else
#define SC_TRACE_NAME_MAX -1
#endif
#ifdef _SC_TRACE_SYS_MAX
#define SC_TRACE_SYS_MAX _SC_TRACE_SYS_MAX
#else
#define SC_TRACE_SYS_MAX -1
#endif
#ifdef _SC_TRACE_USER_EVENT_MAX
#define SC_TRACE_USER_EVENT_MAX _SC_TRACE_USER_EVENT_MAX
#else
#define SC_TRACE_USER_EVENT_MAX -1
#endif

static const struct {
    const char *name;
    int sc;
} sc_names[8] = {
    { "_SC_TRACE", SC_TRACE },
    { "_SC_TRACE_EVENT_FILTER", SC_TRACE_EVENT_FILTER },
    { "_SC_TRACE_EVENT_NAME_MAX", SC_TRACE_EVENT_NAME_MAX },
    { "_SC_TRACE_INHERIT", SC_TRACE_INHERIT },
    { "_SC_TRACE_LOG", SC_TRACE_LOG },
    { "_SC_TRACE_NAME_MAX", SC_TRACE_NAME_MAX },
    { "_SC_TRACE_SYS_MAX", SC_TRACE_SYS_MAX },
    { "_SC_TRACE_USER_EVENT_MAX", SC_TRACE_USER_EVENT_MAX },
};

/* sysconf for an option: -1 (not supported, errno unchanged) or 200809L. */
static long option_sysconf(int sc, const char *scname)
{
    if (sc == -1)
        CT_UNRESOLVED("<unistd.h> does not define %s: sysconf cannot be asked", scname);
    errno = 0;
    long v = ct_sysconf(sc);
    int e = errno;
    CT_CHECK(v == -1 || v == 200809L, "sysconf(%s) = %ld: expected -1 or 200809L", scname, v);
    CT_CHECK(v != -1 || e == 0, "sysconf(%s) = -1 with errno %s: an option name must not"
             " fail", scname, ct_errname(e));
    return v;
}

static int allowed_macro_value(const struct optmacro *m)
{
    return !m->defined || m->value == -1 || m->value == 0 || m->value == 200809L;
}

/* A macro "other than -1" (XBD 2.1.3): defined and not -1. */
static int not_minus_one(const struct optmacro *m)
{
    return m->defined && m->value != -1;
}

/* ---- <unistd.h>: _POSIX_TRACE, _SC_TRACE, the _SC_ names -------------------------------- */

CT_TEST(posix_trace_macro, "unistd.POSIX_TRACE", "TRC", "")
{
    CT_CHECK(allowed_macro_value(&u_trc), "after <unistd.h>, _POSIX_TRACE is %ld: if defined"
             " it must be -1, 0 or 200809L", u_trc.value);
    CT_CHECK(allowed_macro_value(&t_trc), "after <unistd.h> and <trace.h>, _POSIX_TRACE is"
             " %ld: if defined it must be -1, 0 or 200809L", t_trc.value);
    ct_note("_POSIX_TRACE: after <unistd.h> %s%ld, after <trace.h> %s%ld",
            u_trc.defined ? "" : "undefined ", u_trc.value, t_trc.defined ? "" : "undefined ",
            t_trc.value);
}

CT_TEST(sc_trace, "sysconf.SC_TRACE", "TRC", "sysconf")
{
    long v = option_sysconf(SC_TRACE, "_SC_TRACE");
    ct_note("sysconf(_SC_TRACE) = %ld (the C library's sysconf: %ld)", v,
            SC_TRACE == -1 ? -1L : sysconf(SC_TRACE));
}

CT_TEST(sc_names, "unistd.sc-names", "TRC", "sysconf")
{
    char missing[256] = "";
    for (int i = 0; i < 8; i++)
        if (sc_names[i].sc == -1) {
            strncat(missing, " ", sizeof missing - strlen(missing) - 1);
            strncat(missing, sc_names[i].name, sizeof missing - strlen(missing) - 1);
        }
    CT_CHECK(missing[0] == '\0', "<unistd.h> does not define:%s", missing);
}

CT_TEST(sc_names_valid, "sysconf.trace-names-valid", "TRC", "sysconf")
{
    for (int i = 0; i < 8; i++) {
        if (sc_names[i].sc == -1)
            CT_UNRESOLVED("<unistd.h> does not define %s", sc_names[i].name);
        errno = 0;
        long v1 = ct_sysconf(sc_names[i].sc);
        int e1 = errno;
        CT_CHECK(!(v1 == -1 && e1 == EINVAL), "sysconf(%s) failed with EINVAL: the name is"
                 " valid", sc_names[i].name);
        errno = 0;
        long v2 = ct_sysconf(sc_names[i].sc);
        CT_CHECK(v1 == v2, "sysconf(%s) gave %ld, then %ld: the value is fixed for the"
                 " process", sc_names[i].name, v1, v2);
        ct_note("sysconf(%s) = %ld", sc_names[i].name, v1);
    }
}

/* ---- XBD 2.1.3, 2.1.5.8, 2.1.6 ----------------------------------------------------------- */

CT_TEST(macro_sysconf_agree, "xbd216.macro-sysconf-agree", "TRC", "sysconf")
{
    const struct optmacro *m[4] = { &t_trc, &t_tef, &t_tri, &t_trl };
    const int sc[4] = { SC_TRACE, SC_TRACE_EVENT_FILTER, SC_TRACE_INHERIT, SC_TRACE_LOG };
    const char *scn[4] = { "_SC_TRACE", "_SC_TRACE_EVENT_FILTER", "_SC_TRACE_INHERIT",
                           "_SC_TRACE_LOG" };
    int checked = 0;
    for (int i = 0; i < 4; i++) {
        if (!(m[i]->defined && m[i]->value > 0))
            continue;
        checked++;
        long v = option_sysconf(sc[i], scn[i]);
        CT_CHECK(v == 200809L, "%s is %ld (supported for compilation and run time) but"
                 " sysconf(%s) = %ld: run-time checks shall indicate that the option is"
                 " supported", m[i]->name, m[i]->value, scn[i], v);
    }
    if (checked == 0)
        ct_note("no trace option macro is greater than 0: nothing to compare");
}

CT_TEST(option_dependency, "xbd213.option-dependency", "TRC", "sysconf")
{
    /* The macros, at both stages. */
    const struct optmacro *stage[2][4] = { { &u_trc, &u_tef, &u_tri, &u_trl },
                                           { &t_trc, &t_tef, &t_tri, &t_trl } };
    for (int s = 0; s < 2; s++)
        for (int i = 1; i < 4; i++)
            CT_CHECK(!not_minus_one(stage[s][i]) || not_minus_one(stage[s][0]),
                     "after %s, %s is %ld but _POSIX_TRACE is %s%ld: an additional trace"
                     " option requires the Trace option", s ? "<trace.h>" : "<unistd.h>",
                     stage[s][i]->name, stage[s][i]->value,
                     stage[s][0]->defined ? "" : "undefined ", stage[s][0]->value);
    /* The run-time answers. */
    long trc = option_sysconf(SC_TRACE, "_SC_TRACE");
    const int sc[3] = { SC_TRACE_EVENT_FILTER, SC_TRACE_INHERIT, SC_TRACE_LOG };
    const char *scn[3] = { "_SC_TRACE_EVENT_FILTER", "_SC_TRACE_INHERIT", "_SC_TRACE_LOG" };
    for (int i = 0; i < 3; i++) {
        long v = option_sysconf(sc[i], scn[i]);
        CT_CHECK(v != 200809L || trc == 200809L, "sysconf(%s) = 200809L but sysconf(_SC_TRACE)"
                 " = %ld: an additional trace option requires the Trace option", scn[i], trc);
    }
}

CT_TEST(option_group, "xbd2158.option-group", "TRC", "sysconf")
{
    static const char *const opts[4] = { "TRC", "TEF", "TRI", "TRL" };
    for (int i = 0; i < 4; i++)
        if (!ct_option(opts[i]))
            CT_UNSUPPORTED("%s is not supported: the implementation does not claim the"
                           " Tracing option group", opts[i]);
    const struct optmacro *m[4] = { &t_trc, &t_tef, &t_tri, &t_trl };
    for (int i = 0; i < 4; i++)
        CT_CHECK(m[i]->defined && m[i]->value == 200809L, "all four trace options are"
                 " supported (the Tracing option group) but %s is %s%ld: expected 200809L",
                 m[i]->name, m[i]->defined ? "" : "undefined ", m[i]->value);
}

/* ---- <limits.h> -------------------------------------------------------------------------- */

/* The value of the minimum macro, checked equal to its fixed value. */
static void minimum_macro(const char *name, int defined, long value, long want, int in_limits)
{
    CT_CHECK(defined, "%s is not defined (after <limits.h>, <unistd.h> and <trace.h>)", name);
    CT_CHECK(value == want, "%s is %ld, expected %ld", name, value, want);
    if (!in_limits)
        ct_note("%s is not defined by <limits.h> alone (it comes from a later header)", name);
}

#ifdef _POSIX_TRACE_EVENT_NAME_MAX
#define M_EVENT_NAME 1, (long)(_POSIX_TRACE_EVENT_NAME_MAX)
#else
#define M_EVENT_NAME 0, 0L
#endif
#ifdef _POSIX_TRACE_NAME_MAX
#define M_NAME 1, (long)(_POSIX_TRACE_NAME_MAX)
#else
#define M_NAME 0, 0L
#endif
#ifdef _POSIX_TRACE_SYS_MAX
#define M_SYS 1, (long)(_POSIX_TRACE_SYS_MAX)
#else
#define M_SYS 0, 0L
#endif
#ifdef _POSIX_TRACE_USER_EVENT_MAX
#define M_USER 1, (long)(_POSIX_TRACE_USER_EVENT_MAX)
#else
#define M_USER 0, 0L
#endif

CT_TEST(min_event_name_max, "limits._POSIX_TRACE_EVENT_NAME_MAX", "TRC", "")
{
    minimum_macro("_POSIX_TRACE_EVENT_NAME_MAX", M_EVENT_NAME, 30, LIMITS_H_EVENT_NAME_MAX);
}

CT_TEST(min_name_max, "limits._POSIX_TRACE_NAME_MAX", "TRC", "")
{
    minimum_macro("_POSIX_TRACE_NAME_MAX", M_NAME, 8, LIMITS_H_NAME_MAX);
}

CT_TEST(min_sys_max, "limits._POSIX_TRACE_SYS_MAX", "TRC", "")
{
    minimum_macro("_POSIX_TRACE_SYS_MAX", M_SYS, 8, LIMITS_H_SYS_MAX);
}

CT_TEST(min_user_event_max, "limits._POSIX_TRACE_USER_EVENT_MAX", "TRC", "")
{
    minimum_macro("_POSIX_TRACE_USER_EVENT_MAX", M_USER, 32, LIMITS_H_USER_EVENT_MAX);
}

/* A runtime invariant limit: the macro (if defined) and sysconf's answer
 * (-1 with errno unchanged, or the limit) are at least the minimum, and a
 * value sysconf reports is the macro's when the macro is defined: the value
 * of a runtime invariant limit does not vary, so sysconf's "current
 * variable value" is the one <limits.h> gives (ruling 23).  So an answer
 * for another name (say {TRACE_EVENT_NAME_MAX} for _SC_TRACE_NAME_MAX) is
 * not accepted where the two limits differ. */
static void limit(const char *name, int defined, long macro, int sc, const char *scname,
                  long min)
{
    if (defined)
        CT_CHECK(macro >= min, "{%s} is defined as %ld, below its minimum %ld", name, macro,
                 min);
    if (sc == -1)
        CT_UNRESOLVED("<unistd.h> does not define %s", scname);
    errno = 0;
    long v = ct_sysconf(sc);
    int e = errno;
    if (v == -1) {
        CT_CHECK(e == 0, "sysconf(%s) = -1 with errno %s: expected errno unchanged (no limit)"
                 " or a value", scname, ct_errname(e));
        ct_note("sysconf(%s) = -1: {%s} is indeterminate%s", scname, name,
                defined ? " (though the macro is defined)" : "");
        return;
    }
    CT_CHECK(v >= min, "sysconf(%s) = %ld, below the minimum {_POSIX_%s} = %ld", scname, v,
             name, min);
    if (defined)
        CT_CHECK(v == macro, "sysconf(%s) = %ld, but the %s macro is %ld: a runtime invariant"
                 " value defined in <limits.h> is the value sysconf reports", scname, v, name,
                 macro);
    ct_note("{%s}: macro %s%ld, sysconf %ld", name, defined ? "" : "undefined ", macro, v);
}

#ifdef TRACE_EVENT_NAME_MAX
#define L_EVENT_NAME 1, (long)(TRACE_EVENT_NAME_MAX)
#else
#define L_EVENT_NAME 0, 0L
#endif
#ifdef TRACE_NAME_MAX
#define L_NAME 1, (long)(TRACE_NAME_MAX)
#else
#define L_NAME 0, 0L
#endif
#ifdef TRACE_SYS_MAX
#define L_SYS 1, (long)(TRACE_SYS_MAX)
#else
#define L_SYS 0, 0L
#endif
#ifdef TRACE_USER_EVENT_MAX
#define L_USER 1, (long)(TRACE_USER_EVENT_MAX)
#else
#define L_USER 0, 0L
#endif

CT_TEST(trace_event_name_max, "limits.TRACE_EVENT_NAME_MAX", "TRC", "sysconf")
{
    limit("TRACE_EVENT_NAME_MAX", L_EVENT_NAME, SC_TRACE_EVENT_NAME_MAX,
          "_SC_TRACE_EVENT_NAME_MAX", 30);
}

CT_TEST(trace_name_max, "limits.TRACE_NAME_MAX", "TRC", "sysconf")
{
    limit("TRACE_NAME_MAX", L_NAME, SC_TRACE_NAME_MAX, "_SC_TRACE_NAME_MAX", 8);
}

CT_TEST(trace_sys_max, "limits.TRACE_SYS_MAX", "TRC", "sysconf")
{
    limit("TRACE_SYS_MAX", L_SYS, SC_TRACE_SYS_MAX, "_SC_TRACE_SYS_MAX", 8);
}

CT_TEST(trace_user_event_max, "limits.TRACE_USER_EVENT_MAX", "TRC", "sysconf")
{
    limit("TRACE_USER_EVENT_MAX", L_USER, SC_TRACE_USER_EVENT_MAX, "_SC_TRACE_USER_EVENT_MAX",
          32);
}
