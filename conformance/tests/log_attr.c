/* SPDX-License-Identifier: MIT */
/*
 * log_attr.c -- the two attributes of the Trace Log option in an attributes
 * object: log-full-policy (XSH posix_trace_attr_getinherited) and
 * log-max-size (XSH posix_trace_attr_getlogsize).
 *
 * Portable: no constant's value is assumed; a value that is no log policy is
 * computed at run time to differ from LOOP, UNTIL_FULL, APPEND (and FLUSH,
 * which a header may give the value of APPEND).  The default log-max-size is
 * implementation-defined: the round trip uses twice the default, and
 * smaller and larger sizes, any of which the setter may refuse.  The
 * default log-full-policy is checked in the object and in a stream created
 * with log from default attributes.
 *
 * Exact checks (reference only): the getters' EINVAL and the setters' EINVAL
 * on an invalid object need a NULL pointer or a destroyed object, undefined
 * behaviour portably; those tests run only when the build says the
 * implementation is the reference (CT_HAVE_POSIX_TRACE_SYSCONF) and are
 * UNTESTED otherwise.
 *
 * Not tested here, and why:
 *   attr_init.trl-attributes   attr_init.c.
 *   log.max-size (the size at work in a log)  log_policy.c.
 *   log.max-size-events-only   not testable (catalogue).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "ct.h"
#include "ct_log.h"
#include "ct_stream.h"

#ifdef CT_HAVE_POSIX_TRACE_SYSCONF
#define EXACT_REFERENCE 1
#else
#define EXACT_REFERENCE 0
#endif


#if CT_HAVE_TRL

static int is_log_policy(int p)
{
    return p == POSIX_TRACE_LOOP || p == POSIX_TRACE_UNTIL_FULL || p == POSIX_TRACE_APPEND;
}

/* A value distinct from every policy constant of the header. */
static int invalid_log_policy(void)
{
    int v = 0x5a5a;
    while (is_log_policy(v) || v == POSIX_TRACE_FLUSH)
        v++;
    return v;
}

#endif /* CT_HAVE_TRL */

/* ---- log-full-policy -------------------------------------------------------------- */

CT_TEST(logfullpolicy_roundtrip, "attr_setlogfullpolicy.roundtrip", "TRC,TRL",
        "posix_trace_attr_setlogfullpolicy,posix_trace_attr_getlogfullpolicy")
{
#if CT_HAVE_TRL
    require_trl();
    /* Every policy after every other: the getter reports the value last set. */
    static const int order[] = { 0, 1, 2, 0, 2, 1, 0 };
    const int pol[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int want = pol[order[i]], got = -12345, rc;
        rc = posix_trace_attr_setlogfullpolicy(&a, want);
        CT_CHECK(rc == 0, "setlogfullpolicy(POSIX_TRACE_%s) returned %d (%s), expected 0",
                 policy_name(want), rc, ct_errname(rc));
        rc = posix_trace_attr_getlogfullpolicy(&a, &got);
        CT_CHECK(rc == 0, "getlogfullpolicy after setting POSIX_TRACE_%s returned %d (%s),"
                 " expected 0", policy_name(want), rc, ct_errname(rc));
        CT_CHECK(got == want, "set log-full-policy POSIX_TRACE_%s (%d), read back %d (%s)",
                 policy_name(want), want, got, policy_name(got));
    }
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
#else
    NO_TRL();
#endif
}

CT_TEST(logfullpolicy_value_set_fresh, "attr_getlogfullpolicy.value-set", "TRC,TRL",
        "posix_trace_attr_init,posix_trace_attr_getlogfullpolicy")
{
#if CT_HAVE_TRL
    require_trl();
    trace_attr_t a;
    int got = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getlogfullpolicy(&a, &got));
    CT_CHECK(is_log_policy(got), "a fresh object reports log-full-policy %d: expected"
             " POSIX_TRACE_LOOP (%d), POSIX_TRACE_UNTIL_FULL (%d) or POSIX_TRACE_APPEND (%d)",
             got, POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
#else
    NO_TRL();
#endif
}

CT_TEST(logfullpolicy_invalid_not_stored, "attr_getlogfullpolicy.value-set", "TRC,TRL",
        "posix_trace_attr_setlogfullpolicy,posix_trace_attr_getlogfullpolicy")
{
#if CT_HAVE_TRL
    require_trl();
    /* Whatever the setter answers for a value that is no log policy, of
     * every kind (ct_invalid_ints: 0, -1, the limits of int, next to a
     * policy, another attribute's constant such as POSIX_TRACE_FLUSH where
     * it differs from the three), the getter never reports it; a refused
     * value leaves the policy as it was. */
    const int before[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    int bad[CT_INVALID_MAX];
    const char *badname[CT_INVALID_MAX];
    int nbad = ct_invalid_ints(before, 3, bad, badname);
    for (int b = 0; b < nbad; b++)
        for (int i = 0; i < 3; i++) {
            trace_attr_t a;
            int got = -12345;
            CT_SETUP_OK(posix_trace_attr_init(&a));
            CT_SETUP_OK(posix_trace_attr_setlogfullpolicy(&a, before[i]));
            int rc = posix_trace_attr_setlogfullpolicy(&a, bad[b]);
            CT_CHECK_OK(posix_trace_attr_getlogfullpolicy(&a, &got));
            CT_CHECK(got != bad[b] && is_log_policy(got),
                     "after setlogfullpolicy(%d) (%s, no log policy; it returned %s), the"
                     " getter reports %d: expected LOOP (%d), UNTIL_FULL (%d) or APPEND (%d)",
                     bad[b], badname[b], ct_errname(rc), got, POSIX_TRACE_LOOP,
                     POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND);
            if (rc != 0)
                CT_CHECK(got == before[i], "a refused setlogfullpolicy(%d) (%s; %s) changed the"
                         " policy from POSIX_TRACE_%s to %d", bad[b], badname[b],
                         ct_errname(rc), policy_name(before[i]), got);
            CT_CHECK_OK(posix_trace_attr_destroy(&a));
        }
#else
    NO_TRL();
#endif
}

CT_TEST(logfullpolicy_default, "attr_getlogfullpolicy.default", "TRC,TRL",
        "posix_trace_attr_init,posix_trace_attr_getlogfullpolicy")
{
#if CT_HAVE_TRL
    require_trl();
    trace_attr_t a;
    int got = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getlogfullpolicy(&a, &got));
    CT_CHECK(got == POSIX_TRACE_LOOP, "a freshly initialised object has log-full-policy %d"
             " (%s), expected POSIX_TRACE_LOOP (%d)", got, policy_name(got), POSIX_TRACE_LOOP);
#else
    NO_TRL();
#endif
}

CT_TEST(logfullpolicy_default_stream, "attr_getlogfullpolicy.default", "TRC,TRL",
        "posix_trace_create_withlog,posix_trace_get_attr,posix_trace_attr_getlogfullpolicy")
{
#if CT_HAVE_TRL
    require_trl();
    /* A stream with log created from default attributes (attr NULL) has the
     * default log-full-policy. */
    char path[PATH_BUF];
    trace_attr_t sa;
    int got = -12345;
    trace_id_t trid = log_stream(NULL, path, NULL);
    attrs_of(trid, &sa);
    CT_CHECK_OK(posix_trace_attr_getlogfullpolicy(&sa, &got));
    CT_CHECK(got == POSIX_TRACE_LOOP, "a stream created with log and attr NULL has"
             " log-full-policy %d (%s), expected the default POSIX_TRACE_LOOP (%d)", got,
             policy_name(got), POSIX_TRACE_LOOP);
    CT_CHECK_OK(posix_trace_shutdown(trid));
#else
    NO_TRL();
#endif
}

CT_TEST(setlogfullpolicy_einval, "attr_setlogfullpolicy.EINVAL", "TRC,TRL",
        "posix_trace_attr_setlogfullpolicy")
{
#if CT_HAVE_TRL
    require_trl();
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_MAY_ERR(posix_trace_attr_setlogfullpolicy(&a, invalid_log_policy()), EINVAL);
#else
    NO_TRL();
#endif
}

CT_TEST(setlogfullpolicy_einval_object, "attr_setlogfullpolicy.EINVAL", "TRC,TRL",
        "posix_trace_attr_setlogfullpolicy")
{
#if CT_HAVE_TRL && EXACT_REFERENCE
    require_trl();
    trace_attr_t d;
    CT_SETUP_OK(posix_trace_attr_init(&d));
    CT_SETUP_OK(posix_trace_attr_destroy(&d));
    CT_CHECK_ERR(posix_trace_attr_setlogfullpolicy(NULL, POSIX_TRACE_LOOP), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_setlogfullpolicy(&d, POSIX_TRACE_LOOP), EINVAL);
#elif CT_HAVE_TRL
    CT_UNTESTED("exact check: an invalid attr (NULL, a destroyed object) is undefined"
                " behaviour portably; runs against the reference only");
#else
    NO_TRL();
#endif
}

CT_TEST(getlogfullpolicy_einval, "attr_getlogfullpolicy.EINVAL", "TRC,TRL",
        "posix_trace_attr_getlogfullpolicy")
{
#if CT_HAVE_TRL && EXACT_REFERENCE
    require_trl();
    trace_attr_t a, d;
    int v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_init(&d));
    CT_SETUP_OK(posix_trace_attr_destroy(&d));
    CT_CHECK_ERR(posix_trace_attr_getlogfullpolicy(NULL, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getlogfullpolicy(&a, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getlogfullpolicy(&d, &v), EINVAL);
#elif CT_HAVE_TRL
    CT_UNTESTED("exact check: the only triggers (NULL, a destroyed object) are undefined"
                " behaviour portably; runs against the reference only");
#else
    NO_TRL();
#endif
}

/* ---- log-max-size ------------------------------------------------------------------ */

CT_TEST(logsize_roundtrip, "attr_setlogsize.roundtrip", "TRC,TRL",
        "posix_trace_attr_setlogsize,posix_trace_attr_getlogsize")
{
#if CT_HAVE_TRL
    require_trl();
    trace_attr_t a;
    size_t dflt = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getlogsize(&a, &dflt));
    ct_note("default log-max-size: %zu bytes", dflt);
    /* Twice the default first (the catalogue's case), then others; each
     * size the setter accepts is read back exactly, on the object. */
    size_t want[5] = { dflt * 2, dflt + 1, 4096, 65536 + 3, dflt };
    int accepted = 0, twice = 0;
    for (int i = 0; i < 5; i++) {
        if (want[i] == 0)
            continue;
        size_t got = 0;
        int rc = posix_trace_attr_setlogsize(&a, want[i]);
        if (rc == EINVAL) {
            ct_note("setlogsize(%zu) refused with EINVAL", want[i]);
            continue;
        }
        CT_CHECK(rc == 0, "setlogsize(%zu) returned %d (%s): expected 0 or EINVAL", want[i],
                 rc, ct_errname(rc));
        accepted++;
        twice += i == 0;
        CT_CHECK_OK(posix_trace_attr_getlogsize(&a, &got));
        CT_CHECK(got == want[i], "setlogsize(%zu) returned 0 but getlogsize reads back %zu",
                 want[i], got);
    }
    if (!accepted)
        CT_UNSUPPORTED("setlogsize refused every size tried (twice the default %zu, 4096,"
                       " 65539, the default itself)", dflt);
    if (!twice)
        ct_note("twice the default was refused; other sizes were read back");
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
#else
    NO_TRL();
#endif
}

CT_TEST(setlogsize_einval_zero, "attr_setlogsize.EINVAL", "TRC,TRL",
        "posix_trace_attr_setlogsize")
{
#if CT_HAVE_TRL
    require_trl();
    trace_attr_t a, b;
    size_t before = 0, after = 0;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_init(&b));
    CT_SETUP_OK(posix_trace_attr_getlogsize(&a, &before));
    int rc = posix_trace_attr_setlogsize(&a, 0);
    if (rc != 0) {
        /* A refused size leaves the attribute as it was. */
        CT_CHECK_OK(posix_trace_attr_getlogsize(&a, &after));
        CT_CHECK(after == before, "setlogsize(0) failed with %s but changed log-max-size"
                 " from %zu to %zu", ct_errname(rc), before, after);
    }
    CT_CHECK_MAY_ERR(posix_trace_attr_setlogsize(&b, 0), EINVAL);
#else
    NO_TRL();
#endif
}

CT_TEST(setlogsize_einval_object, "attr_setlogsize.EINVAL", "TRC,TRL",
        "posix_trace_attr_setlogsize")
{
#if CT_HAVE_TRL && EXACT_REFERENCE
    require_trl();
    trace_attr_t d;
    CT_SETUP_OK(posix_trace_attr_init(&d));
    CT_SETUP_OK(posix_trace_attr_destroy(&d));
    CT_CHECK_ERR(posix_trace_attr_setlogsize(NULL, 4096), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_setlogsize(&d, 4096), EINVAL);
#elif CT_HAVE_TRL
    CT_UNTESTED("exact check: an invalid attr (NULL, a destroyed object) is undefined"
                " behaviour portably; runs against the reference only");
#else
    NO_TRL();
#endif
}

CT_TEST(getlogsize_einval, "attr_getlogsize.EINVAL", "TRC,TRL",
        "posix_trace_attr_getlogsize")
{
#if CT_HAVE_TRL && EXACT_REFERENCE
    require_trl();
    trace_attr_t a, d;
    size_t v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_init(&d));
    CT_SETUP_OK(posix_trace_attr_destroy(&d));
    CT_CHECK_ERR(posix_trace_attr_getlogsize(NULL, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getlogsize(&a, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getlogsize(&d, &v), EINVAL);
#elif CT_HAVE_TRL
    CT_UNTESTED("exact check: the only triggers (NULL, a destroyed object) are undefined"
                " behaviour portably; runs against the reference only");
#else
    NO_TRL();
#endif
}
