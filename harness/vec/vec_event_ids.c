/* SPDX-License-Identifier: MIT */
/*
 * vec_event_ids.c -- event identifiers by name: the POSIX_TRACE_* constants a
 * vector may name (defined or not by this <trace.h>) and the names the
 * vector gave; ids are compared with posix_trace_eventid_equal() only.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include "vec_vm.h"

/* ---- event identifiers by name ------------------------------------------- */

struct ev_const {
    const char      *name;
    trace_event_id_t id;
};

static const struct ev_const ev_consts[] = {
    { "START", POSIX_TRACE_START },
    { "STOP", POSIX_TRACE_STOP },
    { "OVERFLOW", POSIX_TRACE_OVERFLOW },
    { "RESUME", POSIX_TRACE_RESUME },
#ifdef POSIX_TRACE_UNNAMED_USEREVENT
    { "UNNAMED_USEREVENT", POSIX_TRACE_UNNAMED_USEREVENT },
#endif
#ifdef POSIX_TRACE_UNNAMED_USER_EVENT
    { "UNNAMED_USER_EVENT", POSIX_TRACE_UNNAMED_USER_EVENT },
#endif
#if defined(POSIX_TRACE_UNNAMED_USEREVENT) && !defined(POSIX_TRACE_UNNAMED_USER_EVENT)
    { "UNNAMED_USER_EVENT", POSIX_TRACE_UNNAMED_USEREVENT },
#endif
#if defined(POSIX_TRACE_UNNAMED_USER_EVENT) && !defined(POSIX_TRACE_UNNAMED_USEREVENT)
    { "UNNAMED_USEREVENT", POSIX_TRACE_UNNAMED_USER_EVENT },
#endif
#ifdef POSIX_TRACE_ERROR
    { "ERROR", POSIX_TRACE_ERROR },
#endif
#ifdef POSIX_TRACE_FILTER
    { "FILTER", POSIX_TRACE_FILTER },
#endif
#ifdef POSIX_TRACE_FLUSH_START
    { "FLUSH_START", POSIX_TRACE_FLUSH_START },
#endif
#ifdef POSIX_TRACE_FLUSH_STOP
    { "FLUSH_STOP", POSIX_TRACE_FLUSH_STOP },
#endif
};
#define N_EV_CONSTS (sizeof ev_consts / sizeof ev_consts[0])

/* Event constants a vector may name, defined or not by this <trace.h>. */
static const char *const ev_const_names[] = {
    "START", "STOP", "OVERFLOW", "RESUME", "UNNAMED_USEREVENT", "UNNAMED_USER_EVENT",
    "ERROR", "FILTER", "FLUSH_START", "FLUSH_STOP", NULL
};

/* ---- event identifiers --------------------------------------------------- */

static int id_same(trace_event_id_t a, trace_event_id_t b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* A name for an event id, for messages. */
const char *vm_id_text(struct vm *vm, trace_event_id_t id, char *buf, size_t size)
{
    for (size_t i = 0; i < N_EV_CONSTS; i++)
        if (id_same(ev_consts[i].id, id))
            return ev_consts[i].name;
    for (size_t i = 0; i < vm->nevents; i++)
        if (id_same(vm->events[i].id, id))
            return vm->events[i].name;
    unsigned long long x = 0;
    memcpy(&x, &id, sizeof id < sizeof x ? sizeof id : sizeof x);
    snprintf(buf, size, "id %llu", x);
    return buf;
}

/* An event id named by a vector: a constant (START, ...) or an event opened
 * with "open".  any_ok: the word "any" gives *any = 1. */
int vm_event_id(struct vm *vm, const struct tok *k, trace_event_id_t *id, int *any)
{
    if (any)
        *any = 0;
    if (k->kind != TK_WORD)
        return vm_bad(vm, "expected an event, not a string");
    if (any && strcmp(k->text, "any") == 0) {
        *any = 1;
        return 0;
    }
    if (strncmp(k->text, "id:", 3) == 0) {
        /* A raw identifier: the reference's numbering, exact steps only. */
        long long v;
        if (!vm->step->exact)
            return vm_bad(vm, "'%s': raw identifiers belong to exact: steps", k->text);
        if (vm_eval(vm, k->text + 3, &v))
            return -1;
#ifdef VECRUN_EXACT
        *id = (trace_event_id_t)v;
#endif
        return 0;
    }
    for (size_t i = 0; i < N_EV_CONSTS; i++)
        if (strcmp(ev_consts[i].name, k->text) == 0) {
            *id = ev_consts[i].id;
            return 0;
        }
    for (size_t i = 0; ev_const_names[i]; i++)
        if (strcmp(ev_const_names[i], k->text) == 0) {
            if (vm->dry)
                return 0;
            return vm_give(vm, VEC_UNSUPPORTED, "POSIX_TRACE_%s is not defined by this <trace.h>",
                        k->text);
        }
    struct event_obj *e = vm_find_event(vm, k->text);
    if (e == NULL)
        return vm_bad(vm, "unknown event '%s' (a constant like START, or a name given to open)",
                   k->text);
    *id = e->id;
    return 0;
}
