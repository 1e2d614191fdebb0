/* SPDX-License-Identifier: MIT */
/*
 * vec_eval.c -- a vector's expressions and byte strings (vec_value.c) with
 * the interpreter's variables: $i, those set by '-> $x', let and now, and
 * the limits of <limits.h>/<trace.h> (sysconf() where the header leaves them
 * indeterminate: the vector is then UNTESTED).
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "vec_vm.h"

/* The limits of <limits.h>/<trace.h>, or sysconf() where the header leaves
 * them indeterminate. */
int vm_limit_value(const char *name, long long *v)
{
    long r = -1;
    if (strcmp(name, "TRACE_EVENT_NAME_MAX") == 0) {
#if defined(TRACE_EVENT_NAME_MAX)
        r = TRACE_EVENT_NAME_MAX;
#elif defined(_SC_TRACE_EVENT_NAME_MAX)
        r = sysconf(_SC_TRACE_EVENT_NAME_MAX);
#endif
    } else if (strcmp(name, "TRACE_NAME_MAX") == 0) {
#if defined(TRACE_NAME_MAX)
        r = TRACE_NAME_MAX;
#elif defined(_SC_TRACE_NAME_MAX)
        r = sysconf(_SC_TRACE_NAME_MAX);
#endif
    } else if (strcmp(name, "TRACE_SYS_MAX") == 0) {
#if defined(TRACE_SYS_MAX)
        r = TRACE_SYS_MAX;
#elif defined(_SC_TRACE_SYS_MAX)
        r = sysconf(_SC_TRACE_SYS_MAX);
#endif
    } else if (strcmp(name, "TRACE_USER_EVENT_MAX") == 0) {
#if defined(TRACE_USER_EVENT_MAX)
        r = TRACE_USER_EVENT_MAX;
#elif defined(_SC_TRACE_USER_EVENT_MAX)
        r = sysconf(_SC_TRACE_USER_EVENT_MAX);
#endif
    } else {
        return -1;
    }
    if (r <= 0)
        return -2;
    *v = r;
    return 0;
}

static int limit_missing;           /* a limit was indeterminate: UNTESTED */

static int lookup(void *ctx, const char *name, long long *val, char *err, size_t size)
{
    struct vm *vm = ctx;
    if (strcmp(name, "i") == 0) {
        if (vm->rep_depth == 0) {
            snprintf(err, size, "$i is only defined inside repeat");
            return -1;
        }
        *val = vm->rep_i[vm->rep_depth - 1];
        return 0;
    }
    for (size_t i = 0; i < vm->nints; i++)
        if (strcmp(vm->ints[i].name, name) == 0) {
            *val = vm->ints[i].v;
            return 0;
        }
    int rc = vm_limit_value(name, val);
    if (rc == 0)
        return 0;
    if (rc == -2) {
        if (vm->dry) {
            *val = 0;
            return 0;
        }
        limit_missing = 1;
        snprintf(err, size, "{%s} is indeterminate on this implementation", name);
        return -1;
    }
    snprintf(err, size, "unknown variable $%s (set it with '-> $%s', let or now)", name, name);
    return -1;
}

/* A run starts: no limit has been found indeterminate yet. */
void vm_eval_start(void)
{
    limit_missing = 0;
}

static int eval_error(struct vm *vm, const struct vec_eval *ev)
{
    if (ev->missing)
        return vm_give(vm, VEC_UNSUPPORTED, "%s", ev->err);
    if (limit_missing)
        return vm_give(vm, VEC_UNTESTED, "%s", ev->err);
    return vm_bad(vm, "%s", ev->err);
}

/* text's value in *out: 0; 1 if it names what this implementation does not
 * provide (not an error: a list item that does not apply); -1 reported. */
int vm_eval_optional(struct vm *vm, const char *text, long long *out)
{
    struct vec_eval ev = { lookup, vm, vm->dry, 0, "" };
    if (vec_expr(&ev, text, out) == 0)
        return 0;
    return ev.missing ? 1 : eval_error(vm, &ev);
}

int vm_eval(struct vm *vm, const char *text, long long *out)
{
    struct vec_eval ev = { lookup, vm, vm->dry, 0, "" };
    if (vec_expr(&ev, text, out))
        return eval_error(vm, &ev);
    return 0;
}

int vm_bytes_of(struct vm *vm, const struct tok *k, struct vec_bytes *b)
{
    struct vec_eval ev = { lookup, vm, vm->dry, 0, "" };
    if (vec_bytes(&ev, k, b))
        return eval_error(vm, &ev);
    return 0;
}
