/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_slot.h> -- the kernel slot protocol: the 16-byte event slot,
 * its header word, and the class, event and buffer constants of the
 * instrumented kernel that the reference simulates.
 *
 * The specification is spec/kernel-slot-protocol.md (rules KSP-1 to
 * KSP-25, cited below).  The names are those of QNX Neutrino 6.x, so that
 * code written against QNX's <sys/trace.h> reads the same here; the
 * definitions are this project's, written from the specification.  Names
 * marked "(this project's)" have no QNX counterpart.
 *
 * The encoder and decoder that use these definitions are the reference's
 * slot codec, <posixtrace_codec.h> (reference/slot/SLOTS.md).
 */
#ifndef POSIXTRACE_SLOT_H
#define POSIXTRACE_SLOT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the slot (KSP-1) ----------------------------------------------------- */

typedef uint32_t __traceentry;

typedef struct traceevent {
    __traceentry header;    /* struct flag, CPU, class, event (KSP-2) */
    __traceentry data[3];   /* data[0]: timestamp low word (KSP-3); data[1..2]: payload */
} traceevent_t;

#ifdef __cplusplus
static_assert(sizeof(traceevent_t) == 16, "KSP-1: a slot is 16 bytes");
#else
_Static_assert(sizeof(traceevent_t) == 16, "KSP-1: a slot is 16 bytes");
#endif

/* ---- the header word (KSP-2) ---------------------------------------------
 *
 *   31-30 struct flag | 29-24 CPU | 23-15 reserved (0) | 14-10 class | 9-0 event
 */

/* Struct flags, in place (bits 31-30). */
#define _TRACE_STRUCT_S   0x00000000u   /* a simple event: one slot */
#define _TRACE_STRUCT_CB  0x40000000u   /* first slot of a combine event */
#define _TRACE_STRUCT_CC  0x80000000u   /* a middle slot */
#define _TRACE_STRUCT_CE  0xC0000000u   /* the last slot */

/* Field masks, in place (this project's). */
#define _TRACE_STRUCT_MASK  0xC0000000u
#define _TRACE_CPU_MASK     0x3F000000u
#define _TRACE_CLASS_MASK   0x00007C00u
#define _TRACE_EVENT_MASK   0x000003FFu

/* Accessors.  GETEVENT_C keeps the class in place (h & (0x1f << 10)), so
 * that it compares with the _TRACE_*_C constants below; _TRACE_GET_STRUCT
 * keeps the flag in place, to compare with _TRACE_STRUCT_*. */
#define _NTO_TRACE_GETCPU(h)      ((unsigned)(((uint32_t)(h) >> 24) & 0x3Fu))
#define _NTO_TRACE_GETEVENT_C(h)  ((uint32_t)(h) & _TRACE_CLASS_MASK)
#define _NTO_TRACE_GETEVENT(h)    ((uint32_t)(h) & _TRACE_EVENT_MASK)
#define _TRACE_GET_STRUCT(h)      ((uint32_t)(h) & _TRACE_STRUCT_MASK)

/* Setters: modify the lvalue h, clearing the field and or-ing in the new
 * value (masked to the field, so that a bad value cannot spill into the
 * neighbouring fields).  _NTO_TRACE_SETEVENT_C takes a class in place
 * (_TRACE_USER_C), like GETEVENT_C returns it. */
#define _NTO_TRACE_SETEVENT_C(h, cl) \
    ((h) = ((uint32_t)(h) & ~_TRACE_CLASS_MASK) | ((uint32_t)(cl) & _TRACE_CLASS_MASK))
#define _NTO_TRACE_SETEVENT(h, e) \
    ((h) = ((uint32_t)(h) & ~_TRACE_EVENT_MASK) | ((uint32_t)(e) & _TRACE_EVENT_MASK))
/* (this project's) The CPU (0-63) and the struct flag (a _TRACE_STRUCT_*
 * value, in place).  A CPU above 63 is masked here; the codec's encoder
 * refuses it instead (KSP-4). */
#define _NTO_TRACE_SETCPU(h, cpu) \
    ((h) = ((uint32_t)(h) & ~_TRACE_CPU_MASK) | (((uint32_t)(cpu) & 0x3Fu) << 24))
#define _TRACE_SET_STRUCT(h, s) \
    ((h) = ((uint32_t)(h) & ~_TRACE_STRUCT_MASK) | ((uint32_t)(s) & _TRACE_STRUCT_MASK))

/* (this project's) Number of CPUs a header can name (KSP-2, KSP-4). */
#define _TRACE_MAX_CPUS  64

/* ---- internal classes (KSP-5), in place (<< 10) as QNX has them ----------- */

#define _TRACE_EMPTY_C     (0u << 10)
#define _TRACE_CONTROL_C   (1u << 10)
#define _TRACE_KER_CALL_C  (2u << 10)
#define _TRACE_INT_C       (3u << 10)
#define _TRACE_PR_TH_C     (4u << 10)   /* processes and threads */
#define _TRACE_SYSTEM_C    (5u << 10)
#define _TRACE_USER_C      (6u << 10)
#define _TRACE_COMM_C      (7u << 10)
/* Class codes 8-31 are reserved: a decoder reports them (KSP-5). */

/* ---- external (API-level) classes (KSP-6) -------------------------------- */

enum {
    _NTO_TRACE_EMPTY             = 0,
    _NTO_TRACE_CONTROL           = 1,
    _NTO_TRACE_KERCALL           = 2,    /* enter, exit and interrupted together */
    _NTO_TRACE_KERCALLENTER      = 3,
    _NTO_TRACE_KERCALLEXIT       = 4,
    _NTO_TRACE_KERCALLINT        = 5,
    _NTO_TRACE_INT               = 6,    /* entry and exit together */
    _NTO_TRACE_INTENTER          = 7,
    _NTO_TRACE_INTEXIT           = 8,
    _NTO_TRACE_PROCESS           = 9,
    _NTO_TRACE_THREAD            = 10,
    _NTO_TRACE_VTHREAD           = 11,
    _NTO_TRACE_USER              = 12,
    _NTO_TRACE_SYSTEM            = 13,
    _NTO_TRACE_COMM              = 14,
    _NTO_TRACE_INT_HANDLER_ENTER = 15,
    _NTO_TRACE_INT_HANDLER_EXIT  = 16
};

/* ---- events (KSP-6) -------------------------------------------------------- */

/* CONTROL class (KSP-16, KSP-19, KSP-22). */
#define _TRACE_CONTROL_TIME     1   /* data[1] high word, data[2] low word of the counter */
#define _TRACE_CONTROL_BUFFER   2   /* data[1] buffer sequence, data[2] slots in the buffer */
#define _TRACE_CONTROL_DROPPED  8   /* data[1] events dropped, data[2] their slots */

/* KER_CALL class: kernel call k (0-127) entered, exited, interrupted. */
#define _TRACE_MAX_KER_CALL_NUM    128
#define _TRACE_KER_CALL_ENTER_OFF  0
#define _TRACE_KER_CALL_EXIT_OFF   128
#define _TRACE_KER_CALL_INT_OFF    256

/* INT class (the interrupt vector goes in the data). */
#define _TRACE_INT_ENTRY          1
#define _TRACE_INT_EXIT           2
#define _TRACE_INT_HANDLER_ENTRY  3
#define _TRACE_INT_HANDLER_EXIT   4

/* PR_TH class: processes. */
#define _TRACE_PR_TH_CREATE_P       64
#define _TRACE_PR_TH_DESTROY_P      128
#define _TRACE_PR_TH_CREATE_P_NAME  192
#define _TRACE_PR_TH_DESTROY_P_NAME 256
#define _TRACE_PR_TH_NAME_T         320

/* PR_TH class: threads.  A thread entering state s (0-23) is event s; a
 * virtual thread's events are the thread's plus 26. */
#define _TRACE_MAX_TH_STATE_NUM     24
#define _TRACE_PR_TH_CREATE_T       24
#define _TRACE_PR_TH_DESTROY_T      25
#define _TRACE_PR_TH_VTHREAD_OFF    26

/* ---- buffers (KSP-18, KSP-20) --------------------------------------------- */

#define _TRACE_BUFFER_BYTES       16384   /* one kernel buffer */
#define _TRACE_BUFFER_SLOTS       1014    /* slots after its header */
#define _TRACE_BUFFER_RESERVE     300     /* slots kept free past the high-water mark */
#define _TRACE_BUFFER_HIGH_WATER  714     /* handed to the logger at this many slots */

#ifdef __cplusplus
}
#endif

#endif /* POSIXTRACE_SLOT_H */
