/* SPDX-License-Identifier: MIT */
/*
 * <sys/types.h> of the odd vendor (harness/vendors/odd/README.md): the C
 * library's <sys/types.h> plus the four trace types, which XBD <sys/types.h>
 * requires of an implementation with the Tracing option (rules
 * sys_types_h.trace-types, sys_types_h.trace_event_set_t).  Here, and only
 * here, are they defined: this vendor's <trace.h> includes this header, as an
 * RTOS whose <sys/types.h> owns every type would.
 *
 * Every representation differs from the reference's (include/
 * posixtrace_types.h):
 *   trace_id_t         a structure (the reference: an unsigned long), so a
 *                      test that compares ids with == or prints one as a
 *                      number does not compile;
 *   trace_event_id_t   id_t (the reference: unsigned int, its own typedef);
 *   trace_attr_t, trace_event_set_t  opaque structures of another size and
 *                      layout (the adapter keeps the reference's objects
 *                      inside them: harness/vendors/odd/adapter/).
 */
#include_next <sys/types.h>

#ifndef ODD_SYS_TYPES_TRACE_H
#define ODD_SYS_TYPES_TRACE_H

typedef struct {
    unsigned short __odd_slot;          /* a stream's slot, from 1 */
    unsigned short __odd_generation;    /* changes each time the slot is reused */
} trace_id_t;

typedef id_t trace_event_id_t;

/* Room for the reference's objects (the adapter checks at compile time that
 * they fit: __ODD_ATTR_WORDS and __ODD_EVENT_SET_WORDS in oddref_bridge.h). */
typedef struct {
    unsigned int __odd_magic;
    unsigned long long __odd_impl[64];
} trace_attr_t;

typedef struct {
    unsigned long long __odd_impl[8];
    unsigned short __odd_spare;
} trace_event_set_t;

#endif /* ODD_SYS_TYPES_TRACE_H */
