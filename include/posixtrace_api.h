/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_api.h> -- how the public headers mark the library's interface
 * (not for direct use).  __POSIXTRACE_BEGIN_API and __POSIXTRACE_END_API
 * enclose a public header's declarations (names reserved to the
 * implementation, as a macro of <trace.h> should be): C linkage for a C++ program and, with GCC
 * and Clang, the default visibility.  The library's own code is compiled
 * hidden (-fvisibility=hidden), so the shared library exports exactly what
 * the public headers declare; its version script, include/libposixtrace.map,
 * names the same functions under the version node POSIXTRACE_0.
 */
#ifndef POSIXTRACE_API_H
#define POSIXTRACE_API_H

/* The library's version, as the Makefile's VERSION (its tools print it for
 * --version; harness/tests/test_tool_cli.py checks the two agree). */
#define POSIXTRACE_VERSION "0.1.0"

#if defined(__GNUC__)
#define __POSIXTRACE_VISIBLE_BEGIN _Pragma("GCC visibility push(default)")
#define __POSIXTRACE_VISIBLE_END   _Pragma("GCC visibility pop")
#else
#define __POSIXTRACE_VISIBLE_BEGIN
#define __POSIXTRACE_VISIBLE_END
#endif

#ifdef __cplusplus
#define __POSIXTRACE_BEGIN_API extern "C" { __POSIXTRACE_VISIBLE_BEGIN
#define __POSIXTRACE_END_API   __POSIXTRACE_VISIBLE_END }
#else
#define __POSIXTRACE_BEGIN_API __POSIXTRACE_VISIBLE_BEGIN
#define __POSIXTRACE_END_API   __POSIXTRACE_VISIBLE_END
#endif

#endif /* POSIXTRACE_API_H */
