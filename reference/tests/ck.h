/* SPDX-License-Identifier: MIT */
/* ck.h -- Check (<check.h>) whose assertions cost nothing when they pass.
 *
 * Every test file includes this instead of <check.h>.  Check's
 * ck_assert_msg() and the ck_assert_*() built on it record the file and line
 * of each assertion that passes (_mark_point: a write(2) to the test's
 * message file, read back by the parent), so that a test that crashes is
 * reported at its last passed assertion.  Tests that check each of 100,000
 * events made 1.7 million such writes in one 'make check': a third of the
 * unit tests' processor time.  Here an assertion that passes does nothing
 * and one that fails is reported exactly as before; a crash is reported at
 * the last explicit mark_point() or the test's start (valgrind, 'make
 * check-valgrind', and the sanitizers name the line). */
#ifndef POSIXTRACE_TESTS_CK_H
#define POSIXTRACE_TESTS_CK_H

#include <check.h>

#undef ck_assert_msg
#define ck_assert_msg(expr, ...) \
    ((expr) ? (void)0 \
            : _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__))

#endif
