/* SPDX-License-Identifier: MIT */
/*
 * vec_report.c -- the vector interpreter's messages and results: a step that
 * is malformed (UNRESOLVED), one whose expectation fails (FAIL for an
 * assertion, UNRESOLVED for setup), and the result names.  A message names
 * the vector's file:line, the step as written, the process and the repeat
 * counter, and for a FAIL the rules of the step (vec_rules.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "vec_vm.h"

/* ---- messages and results ------------------------------------------------ */

const char *vec_result_name(enum vec_result r)
{
    static const char *names[] = { "PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED", "UNTESTED" };
    return (unsigned)r < 5 ? names[r] : "UNRESOLVED";
}

int vec_exact_build(void)
{
#ifdef VECRUN_EXACT
    return 1;
#else
    return 0;
#endif
}

/* The step's text as written, trimmed and bounded. */
void vm_step_text(const struct vm *vm, const struct step *s, char *buf, size_t size)
{
    const char *line = "";
    if (s->line >= 1 && (size_t)s->line <= vm->v->nlines)
        line = vm->v->lines[s->line - 1];
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
        n--;
    if (n > 100)
        snprintf(buf, size, "%.97s...", line);
    else
        snprintf(buf, size, "%.*s", (int)n, line);
}

/* Appends to buf (of size bytes, *used of them taken), truncating. */
__attribute__((format(printf, 4, 5)))
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used = *used + (size_t)w < size ? *used + (size_t)w : size - 1;
}

static int vreport(struct vm *vm, enum vec_result r, int with_rules, const char *fmt, va_list ap)
{
    if (vm->result != VEC_PASS)
        return -1;
    char detail[640], text[128];
    size_t used = 0;
    vsnprintf(detail, sizeof detail, fmt, ap);
    vm_step_text(vm, vm->step, text, sizeof text);
    append(vm->msg, sizeof vm->msg, &used, "%s:%d: '%s': %s%s%s", vm->v->path, vm->step->line,
           text, vm->proc[0] ? "in " : "", vm->proc, vm->proc[0] ? ": " : "");
    append(vm->msg, sizeof vm->msg, &used, "%s", detail);
    if (vm->rep_depth > 0 && !vm->dry)
        append(vm->msg, sizeof vm->msg, &used, " (in repeat, $i = %lld)",
               vm->rep_i[vm->rep_depth - 1]);
    if (with_rules) {
        char **ids = vm->step->nrules ? vm->step->rules : vm->v->rules;
        size_t n = vm->step->nrules ? vm->step->nrules : vm->v->nrules;
        for (size_t i = 0; i < n; i++)
            append(vm->msg, sizeof vm->msg, &used, "%s%s", i ? ", " : " [rule ", ids[i]);
        if (n)
            append(vm->msg, sizeof vm->msg, &used, "]");
    }
    if (r == VEC_FAIL)
        vm->fail_step = vm->step;   /* its rules are the ones that fail */
    vm->result = r;
    return -1;
}

__attribute__((format(printf, 4, 5)))
static int report(struct vm *vm, enum vec_result r, int with_rules, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(vm, r, with_rules, fmt, ap);
    va_end(ap);
    return -1;
}

/* A malformed step (UNRESOLVED). */
__attribute__((format(printf, 2, 3)))
int vm_bad(struct vm *vm, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(vm, VEC_UNRESOLVED, 0, fmt, ap);
    va_end(ap);
    return -1;
}

/* The implementation did not do what the step expects: FAIL for an
 * assertion, UNRESOLVED for setup. */
__attribute__((format(printf, 2, 3)))
int vm_fail(struct vm *vm, const char *fmt, ...)
{
    char m[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    if (!vm->checking)
        return vm_bad(vm, "setup failed: %s", m);
    return report(vm, VEC_FAIL, 1, "%s", m);
}

__attribute__((format(printf, 3, 4)))
int vm_give(struct vm *vm, enum vec_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(vm, r, 0, fmt, ap);
    va_end(ap);
    return -1;
}

const char *vm_errname(int err, char *buf, size_t size)
{
    return vec_errno_name(err, buf, size);
}
