/* SPDX-License-Identifier: MIT */
/*
 * <limits.h> of the odd vendor (harness/vendors/odd/README.md): the C
 * library's, without the four minima of the Tracing option.
 *
 * XBD <limits.h> ("Minimum Values") requires _POSIX_TRACE_EVENT_NAME_MAX (30),
 * _POSIX_TRACE_NAME_MAX (8), _POSIX_TRACE_SYS_MAX (8) and
 * _POSIX_TRACE_USER_EVENT_MAX (32).  Real headers omit them (glibc's has
 * none), so this vendor does too, on purpose: the four rules
 * limits._POSIX_TRACE_* are expected to FAIL against it and nothing else may
 * (harness/vendors/odd/expected_gaps.tsv).  The portable tests must not need
 * these macros to compile or to run.
 *
 * No TRACE_*_MAX either: XBD <limits.h> lets a runtime invariant value that is
 * indeterminate at compile time be omitted; this vendor's sysconf() answers
 * the four _SC_TRACE_*_MAX names (adapter/odd_sysconf.c).
 */
#include_next <limits.h>

#undef _POSIX_TRACE_EVENT_NAME_MAX
#undef _POSIX_TRACE_NAME_MAX
#undef _POSIX_TRACE_SYS_MAX
#undef _POSIX_TRACE_USER_EVENT_MAX
#undef TRACE_EVENT_NAME_MAX
#undef TRACE_NAME_MAX
#undef TRACE_SYS_MAX
#undef TRACE_USER_EVENT_MAX
