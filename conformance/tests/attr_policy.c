/* SPDX-License-Identifier: MIT */
/*
 * attr_policy.c -- posix_trace_attr_getstreamfullpolicy() and
 * posix_trace_attr_setstreamfullpolicy() (XSH posix_trace_attr_getinherited),
 * and the return convention the page gives all six policy functions.
 *
 * Portable: the default is not assumed (ruling 17; attr_init.c checks it is
 * of an allowed kind); an invalid policy is a value computed at run time to
 * differ from every policy constant the header defines.  Without TRL a setter
 * may accept or refuse POSIX_TRACE_FLUSH (ruling 18): both are accepted here;
 * create.c checks that posix_trace_create() then refuses the object.
 *
 * Exact checks (reference only): attr_getstreamfullpolicy's EINVAL needs a NULL
 * pointer or a destroyed object, undefined behaviour portably; that test runs
 * only when the build says the implementation is the reference
 * (CT_HAVE_POSIX_TRACE_SYSCONF, set by mk/harness.mk for it alone) and is
 * UNTESTED otherwise.
 *
 * Not tested here, and why:
 *   the getinherited and getlogfullpolicy pages' own rules (TRI, TRL): their
 *   options' files; only the return convention of those four functions is
 *   checked here, when the option is supported.
 */
#include "ct.h"
#include "ct_stream.h"

/* Stored policies a getter may report: LOOP, UNTIL_FULL and, when the header
 * defines it, FLUSH (with TRL a valid policy; without TRL a setter may store
 * it, ruling 18). */
static int reportable(int p)
{
    return ct_is_policy_constant(p);
}

CT_TEST(roundtrip_loop_until_full, "attr_setstreamfullpolicy.roundtrip", "TRC",
        "posix_trace_attr_setstreamfullpolicy,posix_trace_attr_getstreamfullpolicy")
{
    /* Set each policy twice in different orders: the getter reports the
     * value last set, not a default or the first value. */
    static const int seq[] = { POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_LOOP,
                               POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_LOOP };
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        int got = -12345;
        CT_CHECK_OK(posix_trace_attr_setstreamfullpolicy(&a, seq[i]));
        CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&a, &got));
        CT_CHECK(got == seq[i], "set stream-full-policy %d (%s), read back %d", seq[i],
                 seq[i] == POSIX_TRACE_LOOP ? "POSIX_TRACE_LOOP" : "POSIX_TRACE_UNTIL_FULL",
                 got);
    }
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

CT_TEST(roundtrip_flush, "attr_setstreamfullpolicy.roundtrip", "TRC,TRL",
        "posix_trace_attr_setstreamfullpolicy,posix_trace_attr_getstreamfullpolicy")
{
#if CT_HAVE_TRL
    if (!ct_option("TRL"))
        CT_UNSUPPORTED("TRL is not supported at run time");
    trace_attr_t a;
    int got = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_LOOP));
    CT_CHECK_OK(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_FLUSH));
    CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&a, &got));
    CT_CHECK(got == POSIX_TRACE_FLUSH, "set POSIX_TRACE_FLUSH (%d), read back %d",
             POSIX_TRACE_FLUSH, got);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
#else
    CT_UNSUPPORTED("built without TRL: POSIX_TRACE_FLUSH is a TRL policy");
#endif
}

CT_TEST(value_set_fresh, "attr_getstreamfullpolicy.value-set", "TRC",
        "posix_trace_attr_init,posix_trace_attr_getstreamfullpolicy")
{
    trace_attr_t a;
    int got = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&a, &got));
    CT_CHECK(reportable(got), "a fresh object reports stream-full-policy %d: expected"
             " POSIX_TRACE_LOOP (%d), POSIX_TRACE_UNTIL_FULL (%d) or POSIX_TRACE_FLUSH", got,
             POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL);
}

CT_TEST(value_set_invalid_not_stored, "attr_getstreamfullpolicy.value-set", "TRC",
        "posix_trace_attr_setstreamfullpolicy,posix_trace_attr_getstreamfullpolicy")
{
    /* Whatever the setter answers for a value that is no policy, of every
     * kind (ct_invalid_ints: 0, -1, the limits of int, next to a policy,
     * another attribute's constant such as POSIX_TRACE_APPEND where it
     * differs), the getter never reports that value; a refused value leaves
     * the policy as it was. */
    int valid[3] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL }, nvalid = 2;
#ifdef POSIX_TRACE_FLUSH
    valid[nvalid++] = POSIX_TRACE_FLUSH;
#endif
    int bad[CT_INVALID_MAX];
    const char *badname[CT_INVALID_MAX];
    int nbad = ct_invalid_ints(valid, nvalid, bad, badname);
    static const int before[] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL };
    for (int b = 0; b < nbad; b++)
        for (size_t i = 0; i < 2; i++) {
            trace_attr_t a;
            int got = -12345;
            CT_SETUP_OK(posix_trace_attr_init(&a));
            CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(&a, before[i]));
            int rc = posix_trace_attr_setstreamfullpolicy(&a, bad[b]);
            CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&a, &got));
            CT_CHECK(got != bad[b] && reportable(got),
                     "after setstreamfullpolicy(%d) (%s, no stream-full-policy; it returned"
                     " %s), the getter reports %d: expected POSIX_TRACE_LOOP (%d),"
                     " POSIX_TRACE_UNTIL_FULL (%d) or POSIX_TRACE_FLUSH", bad[b], badname[b],
                     ct_errname(rc), got, POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL);
            if (rc != 0)
                CT_CHECK(got == before[i], "a refused setstreamfullpolicy(%d) (%s; %s) changed"
                         " the policy from %d to %d", bad[b], badname[b], ct_errname(rc),
                         before[i], got);
            CT_CHECK_OK(posix_trace_attr_destroy(&a));
        }
}

CT_TEST(return_convention, "attr_getinherited.return-convention", "TRC",
        "posix_trace_attr_getstreamfullpolicy,posix_trace_attr_setstreamfullpolicy,"
        "posix_trace_attr_getinherited,posix_trace_attr_setinherited,"
        "posix_trace_attr_getlogfullpolicy,posix_trace_attr_setlogfullpolicy")
{
    trace_attr_t a;
    int v, rc;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SUCCEEDS(posix_trace_attr_setstreamfullpolicy(&a, POSIX_TRACE_UNTIL_FULL));
    CT_SUCCEEDS(posix_trace_attr_getstreamfullpolicy(&a, &v));
#if CT_HAVE_TRI
    if (ct_option("TRI")) {
        CT_SUCCEEDS(posix_trace_attr_setinherited(&a, POSIX_TRACE_CLOSE_FOR_CHILD));
        CT_SUCCEEDS(posix_trace_attr_getinherited(&a, &v));
    }
#endif
#if CT_HAVE_TRL
    if (ct_option("TRL")) {
        CT_SUCCEEDS(posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_LOOP));
        CT_SUCCEEDS(posix_trace_attr_getlogfullpolicy(&a, &v));
    }
#endif
    /* The failure half: a setter that refuses a value that is no policy must
     * say so with an error number as return value (not -1 and errno). */
    errno = 0;
    rc = posix_trace_attr_setstreamfullpolicy(&a, ct_invalid_policy());
    CT_CHECK(rc == 0 || rc == EINVAL, "setstreamfullpolicy(%d) returned %d (%s), errno %s:"
             " expected 0 or the error number EINVAL", ct_invalid_policy(), rc, ct_errname(rc),
             ct_errname(errno));
    if (rc == 0)
        ct_note("setstreamfullpolicy accepted a value that is no policy: the failure half"
                " of the convention is not exercised");
}

CT_TEST(setstreamfullpolicy_einval, "attr_setstreamfullpolicy.EINVAL", "TRC",
        "posix_trace_attr_setstreamfullpolicy")
{
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_MAY_ERR(posix_trace_attr_setstreamfullpolicy(&a, ct_invalid_policy()), EINVAL);
}

CT_TEST(getstreamfullpolicy_einval, "attr_getstreamfullpolicy.EINVAL", "TRC",
        "posix_trace_attr_getstreamfullpolicy")
{
#if CT_EXACT_REFERENCE
    trace_attr_t a, d;
    int v;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_init(&d));
    CT_SETUP_OK(posix_trace_attr_destroy(&d));
    CT_CHECK_ERR(posix_trace_attr_getstreamfullpolicy(NULL, &v), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getstreamfullpolicy(&a, NULL), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_getstreamfullpolicy(&d, &v), EINVAL);
#else
    CT_UNTESTED("exact check: the only triggers (NULL, a destroyed object) are undefined"
                " behaviour portably; runs against the reference only");
#endif
}

CT_TEST(setstreamfullpolicy_einval_destroyed, "attr_setstreamfullpolicy.EINVAL", "TRC",
        "posix_trace_attr_setstreamfullpolicy")
{
#if CT_EXACT_REFERENCE
    trace_attr_t d;
    CT_SETUP_OK(posix_trace_attr_init(&d));
    CT_SETUP_OK(posix_trace_attr_destroy(&d));
    CT_CHECK_ERR(posix_trace_attr_setstreamfullpolicy(NULL, POSIX_TRACE_LOOP), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_setstreamfullpolicy(&d, POSIX_TRACE_LOOP), EINVAL);
#else
    CT_UNTESTED("exact check: an invalid attr (NULL, a destroyed object) is undefined"
                " behaviour portably; runs against the reference only");
#endif
}
