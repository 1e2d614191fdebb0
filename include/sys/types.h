/* SPDX-License-Identifier: MIT */
/*
 * <sys/types.h> -- the C library's <sys/types.h>, plus the trace types that
 * XBD <sys/types.h> requires of an implementation with the Tracing option
 * (trace_attr_t, trace_event_id_t, trace_event_set_t, trace_id_t; rules
 * sys_types_h.trace-types and sys_types_h.trace_event_set_t).
 *
 * A trace library layered on a C library cannot change the C library's
 * header; it can put this one first on the include path of the programs
 * that use it (the build's -Iinclude; after installation, the -I that
 * `pkg-config --cflags posixtrace` gives, a directory of its own so that
 * nothing else on the system sees it).  #include_next, a GCC and Clang
 * extension, then reaches the C library's header.
 */
#if defined(__GNUC__) || defined(__clang__)
#include_next <sys/types.h>
#include <posixtrace_types.h>
#else
#error "posixtrace's <sys/types.h> needs #include_next (GCC or Clang)"
#endif
