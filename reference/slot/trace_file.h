/* SPDX-License-Identifier: MIT */
/*
 * trace_file.h -- the reference's side of the kernel trace file
 * (KSP-23..25): the public API (the header written and parsed, a whole file
 * decoded) is <posixtrace_codec.h>'s; this header adds what the reference's
 * own writers and readers share: the host's byte order, slots as a file's
 * little-endian bytes, and the feeding of a file's slots to a decoder.
 */
#ifndef POSIXTRACE_TRACE_FILE_H
#define POSIXTRACE_TRACE_FILE_H

#include <stdint.h>
#include <stdio.h>
#include "slot/slot_codec.h"

/* 1 if this host stores integers big-endian (the order a header declares
 * with TRACE_FILE_HOST_ORDER, and what the writers of little-endian files
 * convert from), else 0. */
int trace_file_host_big_endian(void);

/* n slots as the little-endian bytes of a file (n * 16 bytes at out), whatever
 * the host's order: the simulator's .kev files and the trace logs are the
 * same bytes on every host. */
void trace_file_slots_le(const traceevent_t *s, size_t n, unsigned char *out);

/* Feeds the whole slots of bytes[0..n-1], which sit at byte offset `offset`
 * of the file, to d in host order (n % 16 trailing bytes are ignored). */
void trace_file_feed(const struct trace_file_info *info, struct slot_decoder *d,
                     const void *bytes, size_t n, uint64_t offset);

/* How QNX 6's stock libtraceparser (traceprinter) would read the header of
 * file[0..len-1] (trace_file_qnx.c models its window search):
 * TRACE_QNX_PARSED, *end (if not NULL) set to the offset after
 * TRACE_HEADER_END::; TRACE_QNX_FAILS, it gives up; TRACE_QNX_LOOPS, it
 * re-reads the same bytes forever. */
enum { TRACE_QNX_PARSED, TRACE_QNX_FAILS, TRACE_QNX_LOOPS };
int trace_file_qnx_outcome(const void *file, size_t len, uint64_t *end);

/* The key the writer puts last, before TRACE_HEADER_END::, with 0 to
 * TRACE_FILE_PAD_MAX filler bytes as its value, so that the stock parser's
 * window never ends inside TRACE_HEADER_END:: (KERNEL.md, "Stock QNX
 * tools").  Readers skip it. */
#define TRACE_FILE_PAD_KEY  "PAD"
#define TRACE_FILE_PAD_MAX  12
#define TRACE_FILE_PAD_BYTE '-'

#endif /* POSIXTRACE_TRACE_FILE_H */
