/* SPDX-License-Identifier: MIT */
/*
 * tls.h -- the TLS model of the thread-local variables the recording path
 * reads.  Initial-exec: a load at a fixed offset from the thread pointer,
 * where a shared library's default model calls __tls_get_addr at every
 * access (once an event, in record_into).  Their few dozen bytes fit in the
 * static TLS the C library keeps spare, should the library be dlopen'ed.
 */
#ifndef POSIXTRACE_TLS_H
#define POSIXTRACE_TLS_H

#if defined(__GNUC__)
#define TLS_IE __attribute__((tls_model("initial-exec")))
#else
#define TLS_IE
#endif

#endif
