/* SPDX-License-Identifier: MIT */
/*
 * check_sysconf.c -- posix_trace_sysconf() and the option and limit macros
 * of <trace.h> (DESIGN: options, limits).  The {TRACE_*_MAX} limits have
 * no shall-sentence of their own in XBD <limits.h>; the rules that use them
 * are cited.
 */
#include "test_util.h"

#include <unistd.h>

/* S0308, S0316 (TRC part): _SC_TRACE answers 200809L, equal to the
 * _POSIX_TRACE macro of <trace.h>. */
START_TEST(test_sysconf_trace)
{
    errno = 0;
    ck_assert_int_eq(posix_trace_sysconf(_SC_TRACE), 200809L);
    ck_assert_int_eq(errno, 0);
    ck_assert_int_eq(_POSIX_TRACE, 200809L);
}
END_TEST

/* S0314, S0313: TRL is provided: _SC_TRACE_LOG answers 200809L, equal to
 * the _POSIX_TRACE_LOG macro, without touching errno. */
START_TEST(test_sysconf_trace_log)
{
    errno = 1234;
    ck_assert_int_eq(posix_trace_sysconf(_SC_TRACE_LOG), 200809L);
    ck_assert_int_eq(errno, 1234);
    ck_assert_int_eq(_POSIX_TRACE_LOG, 200809L);
}
END_TEST

/* S0310, S0312, S0309, S0311: TEF and TRI are provided: posix_trace_sysconf
 * answers 200809L for both, equal to their macros, without touching errno. */
START_TEST(test_sysconf_other_options)
{
    const int names[] = { _SC_TRACE_EVENT_FILTER, _SC_TRACE_INHERIT };
    const long macros[] = { _POSIX_TRACE_EVENT_FILTER, _POSIX_TRACE_INHERIT };
    for (int i = 0; i < 2; i++) {
        long v;
        errno = 1234;
        v = posix_trace_sysconf(names[i]);
        ck_assert_msg(v == 200809L, "option %d: expected 200809, got %ld", i, v);
        ck_assert_msg(errno == 1234, "option %d: errno changed to %d", i, errno);
        ck_assert_int_eq(macros[i], 200809L);
    }
}
END_TEST

/* S0315, S0307: the option macros have allowed values, and an additional
 * option is never provided without TRC. */
START_TEST(test_option_macros_consistent)
{
    const long m[] = { _POSIX_TRACE, _POSIX_TRACE_EVENT_FILTER, _POSIX_TRACE_INHERIT,
                       _POSIX_TRACE_LOG };
    for (int i = 0; i < 4; i++)
        ck_assert_msg(m[i] == -1 || m[i] == 0 || m[i] == 200809L, "macro %d = %ld", i, m[i]);
    if (_POSIX_TRACE_EVENT_FILTER != -1 || _POSIX_TRACE_INHERIT != -1 || _POSIX_TRACE_LOG != -1)
        ck_assert_int_ne(_POSIX_TRACE, -1);
}
END_TEST

/* S0124, S0138, S0012, S0014, S0118, S0286: the four limits answered equal
 * the header's values (63, 64, 64, 256). */
START_TEST(test_sysconf_limits_equal_macros)
{
    ck_assert_int_eq(posix_trace_sysconf(_SC_TRACE_EVENT_NAME_MAX), TRACE_EVENT_NAME_MAX);
    ck_assert_int_eq(posix_trace_sysconf(_SC_TRACE_NAME_MAX), TRACE_NAME_MAX);
    ck_assert_int_eq(posix_trace_sysconf(_SC_TRACE_SYS_MAX), TRACE_SYS_MAX);
    ck_assert_int_eq(posix_trace_sysconf(_SC_TRACE_USER_EVENT_MAX), TRACE_USER_EVENT_MAX);
    ck_assert_int_eq(TRACE_EVENT_NAME_MAX, 63);
    ck_assert_int_eq(TRACE_NAME_MAX, 64);
    ck_assert_int_eq(TRACE_SYS_MAX, 64);
    ck_assert_int_eq(TRACE_USER_EVENT_MAX, 256);
}
END_TEST

/* S0124, S0142, S0286: the limits are at least the _POSIX_ minimums, which
 * have the values of XBD <limits.h> (30, 8, 8, 32). */
START_TEST(test_limits_at_least_minimums)
{
    ck_assert_int_eq(_POSIX_TRACE_EVENT_NAME_MAX, 30);
    ck_assert_int_eq(_POSIX_TRACE_NAME_MAX, 8);
    ck_assert_int_eq(_POSIX_TRACE_SYS_MAX, 8);
    ck_assert_int_eq(_POSIX_TRACE_USER_EVENT_MAX, 32);
    ck_assert_int_ge(posix_trace_sysconf(_SC_TRACE_EVENT_NAME_MAX), _POSIX_TRACE_EVENT_NAME_MAX);
    ck_assert_int_ge(posix_trace_sysconf(_SC_TRACE_NAME_MAX), _POSIX_TRACE_NAME_MAX);
    ck_assert_int_ge(posix_trace_sysconf(_SC_TRACE_SYS_MAX), _POSIX_TRACE_SYS_MAX);
    ck_assert_int_ge(posix_trace_sysconf(_SC_TRACE_USER_EVENT_MAX), _POSIX_TRACE_USER_EVENT_MAX);
}
END_TEST

/* S0308 (posix_trace_sysconf stands in for sysconf()); DESIGN (options):
 * any other name is passed on to sysconf(). */
START_TEST(test_sysconf_passthrough)
{
    const int names[] = { _SC_PAGESIZE, _SC_CLK_TCK, _SC_ARG_MAX, _SC_OPEN_MAX,
                          _SC_VERSION, _SC_TIMERS };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        long want = sysconf(names[i]);
        long got = posix_trace_sysconf(names[i]);
        ck_assert_msg(got == want, "name %d: posix_trace_sysconf %ld, sysconf %ld",
                      names[i], got, want);
    }
}
END_TEST

/* S0308; DESIGN (options), XSH sysconf: an invalid name gives -1 with errno
 * EINVAL, as sysconf() does. */
START_TEST(test_sysconf_invalid_name)
{
    errno = 0;
    ck_assert_int_eq(posix_trace_sysconf(-1), -1);
    ck_assert_int_eq(errno, EINVAL);
    errno = 0;
    ck_assert_int_eq(posix_trace_sysconf(987654), -1);
    ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* S0125, S0286: the limit answered is the one the library enforces: the
 * highest named user id is the unnamed one + TRACE_USER_EVENT_MAX - 1 (see
 * check_eventid.c), so the identifier space covers it. */
START_TEST(test_limit_fits_id_space)
{
    ck_assert_uint_gt(__POSIXTRACE_EVENT_ID_LIMIT,
                      POSIX_TRACE_UNNAMED_USEREVENT + TRACE_USER_EVENT_MAX - 1);
}
END_TEST

Suite *suite_sysconf(void)
{
    Suite *s = suite_create("sysconf");
    TCase *tc = tu_tcase("sysconf");
    tcase_add_test(tc, test_sysconf_trace);
    tcase_add_test(tc, test_sysconf_trace_log);
    tcase_add_test(tc, test_sysconf_other_options);
    tcase_add_test(tc, test_option_macros_consistent);
    tcase_add_test(tc, test_sysconf_limits_equal_macros);
    tcase_add_test(tc, test_limits_at_least_minimums);
    tcase_add_test(tc, test_sysconf_passthrough);
    tcase_add_test(tc, test_sysconf_invalid_name);
    tcase_add_test(tc, test_limit_fits_id_space);
    suite_add_tcase(s, tc);
    return s;
}
