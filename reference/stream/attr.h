/* SPDX-License-Identifier: MIT */
/* attr.h -- trace attributes objects: what the stream code needs of them. */
#ifndef POSIXTRACE_ATTR_H
#define POSIXTRACE_ATTR_H

#include <trace.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define ATTR_MAGIC             0x54524341u   /* "TRCA" */
#define ATTR_STREAM_SIZE_MAX   ((size_t)1 << 30)
#define ATTR_DATA_SIZE_MAX     ((size_t)65535)
/* The largest log (posix_trace_attr_setlogsize, S0049, S0062): 1 TiB, or a
 * quarter of what size_t or off_t can count where that is less.  Computed in
 * uint64_t: on a 32-bit target (size_t, and off_t without
 * _FILE_OFFSET_BITS=64, of 32 bits) (size_t)1 << 40 is undefined and made
 * every size EINVAL (issue 14).  There the largest log is 1 GiB: its last
 * segment rounded up, the header and the metadata area still end below
 * 2 GiB, the last offset a 32-bit off_t holds. */
#define ATTR_POW2_U64(bits)    (UINT64_C(1) << (bits))
#define ATTR_MIN_U64(a, b)     ((uint64_t)(a) < (uint64_t)(b) ? (uint64_t)(a) : (uint64_t)(b))
#define ATTR_LOG_SIZE_MAX      ATTR_MIN_U64(ATTR_POW2_U64(40), \
    ATTR_MIN_U64(ATTR_POW2_U64(sizeof(size_t) * CHAR_BIT - 2), \
                 ATTR_POW2_U64(sizeof(off_t) * CHAR_BIT - 2)))
/* The largest value of a signed integer type of at most 64 bits (time_t), as
 * a uint64_t. */
#define ATTR_SIGNED_MAX(type)  (((ATTR_POW2_U64(sizeof(type) * CHAR_BIT - 2) - 1) << 1) + 1)
#define ATTR_GENVERSION        "posixtrace-reference 0.1"

static inline int attr_valid(const trace_attr_t *a)
{
    return a != NULL && a->__magic == ATTR_MAGIC;
}

/* The size a user event with len bytes of data takes, truncation applied. */
uint64_t attr_user_event_size(const trace_attr_t *a, size_t len);
/* The size of the largest system event. */
uint64_t attr_system_event_size(void);

#endif
