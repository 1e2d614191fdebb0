/* SPDX-License-Identifier: MIT */
/*
 * attr_init.c -- posix_trace_attr_init() and posix_trace_attr_destroy()
 * (XSH posix_trace_attr_destroy; XSH 2.11.1.2 Trace Stream Attributes).
 *
 * Portable: no default value is assumed (they are implementation-defined);
 * the tests check that every attribute is there after init and of a kind the
 * standard allows.
 *
 * Not tested here, and why:
 *   attr_init.ENOMEM     not testable (catalogue): memory exhaustion cannot be
 *                        provoked portably for one call.
 *   attr_destroy.EINVAL  a "may fail" error whose only triggers (NULL, an
 *                        object not initialised or already destroyed) are
 *                        undefined behaviour portably: destroy_einval below
 *                        is an exact check, run only when the build says the
 *                        implementation is the reference
 *                        (CT_HAVE_POSIX_TRACE_SYSCONF, which mk/harness.mk
 *                        defines for it alone); UNTESTED otherwise.
 *   attr_init.multiple-create  in create.c (multiple_create).
 */
#include <stdint.h>
#include <string.h>
#include "ct.h"
#include "ct_stream.h"

static int policy_is_trc(int p)
{
    return p == POSIX_TRACE_LOOP || p == POSIX_TRACE_UNTIL_FULL;
}

/* A NUL within n bytes? */
static int terminated(const char *s, size_t n)
{
    return memchr(s, '\0', n) != NULL;
}

CT_TEST(defaults, "attr_init.defaults", "TRC",
        "posix_trace_attr_init,posix_trace_attr_getstreamsize,posix_trace_attr_getmaxdatasize,"
        "posix_trace_attr_getstreamfullpolicy,posix_trace_attr_getname,"
        "posix_trace_attr_getgenversion,posix_trace_attr_getclockres,"
        "posix_trace_attr_getcreatetime")
{
    trace_attr_t a;
    size_t size = (size_t)-1;
    int policy = -12345;
    char name[CT_NAME_BUF], version[CT_NAME_BUF];
    struct timespec res = { -1, -1 }, created = { -1, -1 };

    CT_CHECK_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getstreamsize(&a, &size));
    CT_CHECK(size > 0, "stream-min-size is %zu, expected a size a stream can hold events in",
             size);
    CT_CHECK_OK(posix_trace_attr_getmaxdatasize(&a, &size));
    CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&a, &policy));
    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_attr_getname(&a, name));
    CT_CHECK(terminated(name, sizeof name), "the trace-name has no NUL in %zu bytes",
             sizeof name);
    memset(version, 'x', sizeof version);
    CT_CHECK_OK(posix_trace_attr_getgenversion(&a, version));
    CT_CHECK(terminated(version, sizeof version),
             "the generation-version has no NUL in %zu bytes", sizeof version);
    CT_CHECK_OK(posix_trace_attr_getclockres(&a, &res));
    CT_CHECK(ct_valid_timespec(&res), "clock-resolution is {%lld s, %ld ns}, not a valid timespec",
             (long long)res.tv_sec, res.tv_nsec);
    CT_CHECK_OK(posix_trace_attr_getcreatetime(&a, &created));
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

CT_TEST(stream_full_policy_kind, "attr_init.defaults", "TRC",
        "posix_trace_attr_init,posix_trace_attr_getstreamfullpolicy")
{
    /* Without a log, only LOOP and UNTIL_FULL make sense as a default
     * (FLUSH "shall be invalid" for a stream without a log). */
    trace_attr_t a;
    int policy = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getstreamfullpolicy(&a, &policy));
    CT_CHECK(policy_is_trc(policy),
             "default stream-full-policy is %d, expected POSIX_TRACE_LOOP (%d) or"
             " POSIX_TRACE_UNTIL_FULL (%d)", policy, POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL);
}

CT_TEST(readonly_attributes, "attr_init.readonly-attributes", "TRC",
        "posix_trace_attr_init,posix_trace_attr_getgenversion,posix_trace_attr_getclockres")
{
    trace_attr_t a;
    char version[CT_NAME_BUF];
    struct timespec res = { -1, -1 };
    long name_max = ct_limit_trace_name_max();

    CT_SETUP_OK(posix_trace_attr_init(&a));
    memset(version, 'x', sizeof version);
    CT_CHECK_OK(posix_trace_attr_getgenversion(&a, version));
    CT_CHECK(terminated(version, sizeof version),
             "the generation-version has no NUL in %zu bytes", sizeof version);
    if (name_max > 0)
        CT_CHECK(strlen(version) <= (size_t)name_max,
                 "generation-version \"%.40s...\" has %zu characters, more than"
                 " {TRACE_NAME_MAX} = %ld", version, strlen(version), name_max);
    else
        ct_note("{TRACE_NAME_MAX} is indeterminate: the version's length is not checked");
    CT_CHECK_OK(posix_trace_attr_getclockres(&a, &res));
    CT_CHECK(ct_valid_timespec(&res), "clock-resolution is {%lld s, %ld ns}, not a valid timespec",
             (long long)res.tv_sec, res.tv_nsec);
    CT_CHECK(res.tv_sec > 0 || res.tv_nsec > 0,
             "clock-resolution is 0 s 0 ns: a clock cannot have a resolution of zero");
}

CT_TEST(reinit, "attr_init.reinit", "TRC",
        "posix_trace_attr_init,posix_trace_attr_destroy,posix_trace_attr_setname,"
        "posix_trace_attr_getname")
{
    trace_attr_t a;
    char name[CT_NAME_BUF];
    CT_CHECK_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
    CT_CHECK_OK(posix_trace_attr_init(&a));
    /* "then used normally": set and read back the name. */
    CT_CHECK_OK(posix_trace_attr_setname(&a, "ct"));
    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_attr_getname(&a, name));
    CT_CHECK(terminated(name, sizeof name) && strcmp(name, "ct") == 0,
             "after destroy and init again, setname(\"ct\") then getname gave \"%.40s\"", name);
    CT_CHECK_OK(posix_trace_attr_destroy(&a));
}

CT_TEST(return_convention, "attr_init.return-convention", "TRC",
        "posix_trace_attr_init,posix_trace_attr_destroy")
{
    trace_attr_t a;
    errno = 0;
    int rc = posix_trace_attr_init(&a);
    CT_CHECK(rc == 0, "attr_init returned %d (%s) with errno %s, expected 0", rc,
             ct_errname(rc), ct_errname(errno));
    errno = 0;
    rc = posix_trace_attr_destroy(&a);
    CT_CHECK(rc == 0, "attr_destroy returned %d (%s) with errno %s, expected 0", rc,
             ct_errname(rc), ct_errname(errno));
}

CT_TEST(default_name_empty, "attr_setname.default-empty", "TRC",
        "posix_trace_attr_init,posix_trace_attr_getname")
{
    trace_attr_t a;
    char name[CT_NAME_BUF];
    CT_SETUP_OK(posix_trace_attr_init(&a));
    memset(name, 'x', sizeof name);
    CT_CHECK_OK(posix_trace_attr_getname(&a, name));
    CT_CHECK(name[0] == '\0', "the default trace-name is \"%.40s\", expected \"\"",
             terminated(name, sizeof name) ? name : "(not terminated)");
}

CT_TEST(tri_attributes, "attr_init.tri-attributes", "TRC,TRI",
        "posix_trace_attr_init,posix_trace_attr_getinherited")
{
#if CT_HAVE_TRI
    trace_attr_t a;
    int v = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getinherited(&a, &v));
    CT_CHECK(v == POSIX_TRACE_CLOSE_FOR_CHILD || v == POSIX_TRACE_INHERITED,
             "inheritance is %d, expected POSIX_TRACE_CLOSE_FOR_CHILD (%d) or"
             " POSIX_TRACE_INHERITED (%d)", v, POSIX_TRACE_CLOSE_FOR_CHILD,
             POSIX_TRACE_INHERITED);
#else
    CT_UNSUPPORTED("built without TRI: <trace.h> defines _POSIX_TRACE_INHERIT as -1");
#endif
}

CT_TEST(trl_attributes, "attr_init.trl-attributes", "TRC,TRL",
        "posix_trace_attr_init,posix_trace_attr_getlogsize,posix_trace_attr_getlogfullpolicy")
{
#if CT_HAVE_TRL
    trace_attr_t a;
    size_t size = 0;
    int v = -12345;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_CHECK_OK(posix_trace_attr_getlogsize(&a, &size));
    CT_CHECK_OK(posix_trace_attr_getlogfullpolicy(&a, &v));
    CT_CHECK(v == POSIX_TRACE_LOOP || v == POSIX_TRACE_UNTIL_FULL || v == POSIX_TRACE_APPEND,
             "log-full-policy is %d, expected POSIX_TRACE_LOOP (%d), POSIX_TRACE_UNTIL_FULL"
             " (%d) or POSIX_TRACE_APPEND (%d)", v, POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL,
             POSIX_TRACE_APPEND);
#else
    CT_UNSUPPORTED("built without TRL: <trace.h> defines _POSIX_TRACE_LOG as -1");
#endif
}

CT_TEST(destroy_einval, "attr_destroy.EINVAL", "TRC", "posix_trace_attr_destroy")
{
#ifdef CT_HAVE_POSIX_TRACE_SYSCONF
    /* reference/posix/CHOICES.md: EINVAL for NULL and for a destroyed object. */
    trace_attr_t a;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    CT_SETUP_OK(posix_trace_attr_destroy(&a));
    CT_CHECK_ERR(posix_trace_attr_destroy(&a), EINVAL);
    CT_CHECK_ERR(posix_trace_attr_destroy(NULL), EINVAL);
#else
    CT_UNTESTED("exact check: the only triggers (NULL, a destroyed object) are undefined"
                " behaviour portably; runs against the reference only");
#endif
}
