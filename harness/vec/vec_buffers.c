/* SPDX-License-Identifier: MIT */
/*
 * vec_buffers.c -- the buffers the implementation fills: guarded ones, and
 * the sizes of name buffers, exactly the bound the standard lets a caller
 * pass for the bound's own rule and a byte to spare for the others.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vec_vm.h"

/* ---- names --------------------------------------------------------------- */

/* Guard bytes after each buffer the implementation writes into: a write
 * past num_bytes (or past a name buffer) is caught even without valgrind. */

unsigned char *vm_guarded(size_t n)
{
    unsigned char *p = vec_xmalloc(n + GUARD);
    memset(p, 0, n);
    memset(p + n, GUARD_BYTE, GUARD);
    return p;
}

int vm_guard_intact(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < GUARD; i++)
        if (p[n + i] != GUARD_BYTE)
            return 0;
    return 1;
}

/* Does the step (its [rule] tags, else the vector's rules) check rule? */
static int checks_rule(const struct vm *vm, const char *rule)
{
    char **ids = vm->step->nrules ? vm->step->rules : vm->v->rules;
    size_t n = vm->step->nrules ? vm->step->nrules : vm->v->nrules;
    for (size_t i = 0; i < n; i++)
        if (strcmp(ids[i], rule) == 0)
            return 1;
    return 0;
}

/* A name buffer.  Where the step checks rule, the rule of the output's
 * bound, it is exactly as large as the spec lets a caller make it: {limit}
 * bytes, plus nul_extra where the limit excludes the NUL -- {TRACE_NAME_MAX}
 * bytes (S0012, S0014; ruling 10), {TRACE_EVENT_NAME_MAX}+1 (S0138; ruling
 * 24).  Elsewhere it has a byte to spare, so that a write one byte past the
 * bound FAILs that rule alone (as in the C tests, ct.h CT_NAME_BUF).
 * STR_BUF bytes where the limit is indeterminate. */
size_t vm_name_buffer_size(struct vm *vm, const char *limit, int nul_extra, const char *rule)
{
    long long v;
    if (vm_limit_value(limit, &v) == 0 && v > 0 && v < STR_BUF)
        return (size_t)v + (nul_extra ? 1 : 0) + (checks_rule(vm, rule) ? 0 : 1);
    return STR_BUF;
}

/* Checks a name written into buf (n bytes and guard bytes): a write past it
 * breaks rule, the bound's (bound says where n comes from); then the
 * expectation and the @value annotation. */
int vm_name_result(struct vm *vm, const char *fn, const char *what, char *buf, size_t n,
                   const char *bound, const char *rule)
{
    if (!vm->dry && !vm_guard_intact((unsigned char *)buf, n))
        return vm_fail(vm, "%s wrote past a buffer of %zu bytes, %s the size %s lets a"
                       " caller pass (%s)", fn, n, checks_rule(vm, rule) ? "exactly" :
                       "one byte more than", bound, rule);
    if (!vm->dry && memchr(buf, '\0', n) == NULL)
        return vm_fail(vm, "%s gave a string without a NUL in %zu bytes", fn, n);
    if (vm_expect_string(vm, buf, what))
        return -1;
    return vm_annot_str(vm, "value", buf);
}
