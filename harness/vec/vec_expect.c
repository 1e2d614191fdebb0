/* SPDX-License-Identifier: MIT */
/*
 * vec_expect.c -- a step's portable expectations: the return codes after
 * '->', the values and strings a step compares, bounded and quoted in
 * messages.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vec_vm.h"

int vm_rc_set(const struct tok *k, int *codes, size_t *n, int errno_only)
{
    if (k->kind != TK_WORD)
        return 0;
    const char *p = k->text;
    int any_errno = 0;
    *n = 0;
    while (*p) {
        const char *q = strchr(p, '|');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        char part[32];
        if (len == 0 || len >= sizeof part || *n == 8)
            return 0;
        memcpy(part, p, len);
        part[len] = '\0';
        int v;
        if (strcmp(part, "0") == 0) {
            v = 0;
        } else {
            v = vec_errno_value(part);
            if (v < 0)
                return 0;
            any_errno = 1;
        }
        codes[(*n)++] = v;
        p += len + (q != NULL);
        if (q && !*p)
            return 0;
    }
    return *n > 0 && (any_errno || !errno_only);
}

int vm_in_set(int rc, const int *codes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (codes[i] == rc)
            return 1;
    return 0;
}

/* Is the return code set the whole expectation, or followed by a $var only? */
static int rc_set_alone(const struct step *s)
{
    return s->ne == 1 || (s->ne == 2 && vm_is_capture(&s->e[1]));
}

/* rc against the return code set codes (of n) the step expects: kept in its
 * $var if it has one; outside the set, the step fails. */
static int rc_in_codes(struct vm *vm, const char *fn, int rc, const int *codes, size_t n)
{
    struct step *s = vm->step;
    char b1[32];
    if (s->ne == 2 && vm_set_int(vm, s->e[1].text, rc))
        return -1;
    if (!vm->dry && !vm_in_set(rc, codes, n))
        return vm_fail(vm, "%s returned %s, expected %s", fn, vm_errname(rc, b1, sizeof b1),
                    s->e[0].text);
    return 0;
}

/* Checks the return code of a step whose only expectation is one ("-> 0",
 * "-> EINVAL", "-> 0|EINVAL"), or which has none (setup: must succeed). */
int vm_expect_rc(struct vm *vm, const char *fn, int rc)
{
    struct step *s = vm->step;
    int codes[8];
    size_t n;
    char b1[32];
    if (!s->arrow) {
        if (!vm->dry && rc != 0)
            return vm_fail(vm, "%s returned %s", fn, vm_errname(rc, b1, sizeof b1));
        return 0;
    }
    if (!rc_set_alone(s) || !vm_rc_set(&s->e[0], codes, &n, 0))
        return vm_bad(vm, "the expectation of %s is a return code: 0, an errno name, or "
                   "alternatives like 0|EINVAL (then $var may keep it)", fn);
    return rc_in_codes(vm, fn, rc, codes, n);
}

/* For steps that return a value: if the expectation is an errno set, checks
 * rc against it and sets *done. Otherwise rc must be 0. */
int vm_expect_rc_first(struct vm *vm, const char *fn, int rc, int *done)
{
    struct step *s = vm->step;
    int codes[8];
    size_t n;
    char b1[32];
    *done = 0;
    if (s->arrow && vm_rc_set(&s->e[0], codes, &n, 1)) {
        *done = 1;
        if (!rc_set_alone(s))
            return vm_bad(vm, "only a $var (keeping it) may follow a return code");
        return rc_in_codes(vm, fn, rc, codes, n);
    }
    if (!vm->dry && rc != 0) {
        *done = 1;
        return vm_fail(vm, "%s returned %s, expected success", fn, vm_errname(rc, b1, sizeof b1));
    }
    return 0;
}

/* ---- value expectations -------------------------------------------------- */

int vm_is_op(const char *s)
{
    return strcmp(s, "==") == 0 || strcmp(s, "!=") == 0 || strcmp(s, "<") == 0 ||
           strcmp(s, "<=") == 0 || strcmp(s, ">") == 0 || strcmp(s, ">=") == 0;
}

int vm_compare(const char *op, long long a, long long b)
{
    if (strcmp(op, "==") == 0) return a == b;
    if (strcmp(op, "!=") == 0) return a != b;
    if (strcmp(op, "<") == 0)  return a < b;
    if (strcmp(op, "<=") == 0) return a <= b;
    if (strcmp(op, ">") == 0)  return a > b;
    return a >= b;
}

static void fmt_val(const struct valspec *vs, long long v, char *buf, size_t size)
{
    const char *name = vs->g != G_NONE ? vec_group_name(vs->g, v) : NULL;
    if (name)
        snprintf(buf, size, "%s", name);
    else if (vs->is_ts)
        vec_fmt_ts(v, buf, size);
    else
        snprintf(buf, size, "%lld", v);
}

/* The clock resolution of stream t in ns (for comparing timestamps in the
 * order the implementation may not resolve), asked once. */
long long vm_resolution(struct trace_obj *t)
{
    if (t->res_ns < 0) {
        trace_attr_t a;
        struct timespec r;
        t->res_ns = 0;
        if (posix_trace_attr_init(&a) == 0) {
            if (posix_trace_get_attr(t->id, &a) == 0 && posix_trace_attr_getclockres(&a, &r) == 0)
                t->res_ns = (long long)r.tv_sec * 1000000000LL + r.tv_nsec;
            posix_trace_attr_destroy(&a);
        }
    }
    return t->res_ns;
}

static int value_item_start(const struct tok *k, const struct valspec *vs)
{
    if (k->kind != TK_WORD)
        return 0;
    return strcmp(k->text, "any") == 0 || strcmp(k->text, "oneof") == 0 || vm_is_capture(k) ||
           vm_is_op(k->text) ||
           vec_is_expr(k->text) || (vs->last && strcmp(k->text, "last") == 0);
}

/* Checks got against the value items e[*i]...: "any", "$x" (capture),
 * "OP EXPR", "EXPR" (==).  Stops at the first token that is not one. */
int vm_expect_value(struct vm *vm, size_t *i, long long got, const struct valspec *vs,
                    const char *what)
{
    struct step *s = vm->step;
    while (*i < s->ne && value_item_start(&s->e[*i], vs)) {
        struct tok *k = &s->e[(*i)++];
        if (strcmp(k->text, "any") == 0)
            continue;
        if (vm_is_capture(k)) {
            if (vm_set_int(vm, k->text, got))
                return -1;
            continue;
        }
        if (strcmp(k->text, "oneof") == 0) {
            /* oneof A,B,C: constants this <trace.h> lacks are left out. */
            if (*i >= s->ne || s->e[*i].kind != TK_WORD)
                return vm_bad(vm, "'oneof' without a list (oneof A,B,C)");
            k = &s->e[(*i)++];
            char *list = vec_xstrndup(k->text, strlen(k->text));
            int found = 0, rc = 0;
            for (char *save = NULL, *p = strtok_r(list, ",", &save); p && rc == 0;
                 p = strtok_r(NULL, ",", &save)) {
                long long v;
                int e = vm_eval_optional(vm, p, &v);
                if (e == 0)
                    found |= v == got;
                else if (e < 0)
                    rc = -1;
            }
            free(list);
            if (rc)
                return -1;
            if (!vm->dry && !found) {
                char g[64];
                fmt_val(vs, got, g, sizeof g);
                return vm_fail(vm, "%s is %s, expected one of %s", what, g, k->text);
            }
            continue;
        }
        const char *op = "==";
        if (vm_is_op(k->text)) {
            op = k->text;
            if (*i >= s->ne || s->e[*i].kind != TK_WORD)
                return vm_bad(vm, "'%s' without a value", op);
            k = &s->e[(*i)++];
        }
        long long want;
        long long slack = 0;
        if (vs->last && strcmp(k->text, "last") == 0) {
            if (vm->dry)
                continue;
            if (!vs->last->have_last)
                return vm_bad(vm, "'last': no event was read from %s before", vs->last->name);
            want = vs->last->last_ts;
            /* Events closer than the clock resolution may be in either order. */
            if (strcmp(op, ">=") == 0 || strcmp(op, ">") == 0)
                slack = got < want ? vm_resolution(vs->last) : 0;
        } else if (vm_eval(vm, k->text, &want)) {
            return -1;
        }
        if (vm->dry)
            continue;
        if (!vm_compare(op, got, want) && !(slack && vm_compare(op, got + slack, want))) {
            char g[64], w[64];
            fmt_val(vs, got, g, sizeof g);
            fmt_val(vs, want, w, sizeof w);
            return vm_fail(vm, "%s is %s, expected %s %s%s", what, g, op, w,
                        vs->last && strcmp(k->text, "last") == 0 ? " (the last event's)" : "");
        }
    }
    return 0;
}

/* The whole expectation is value items. */
int vm_expect_value_all(struct vm *vm, long long got, const struct valspec *vs,
                        const char *what)
{
    size_t i = 0;
    if (!vm->step->arrow)
        return 0;
    if (vm_expect_value(vm, &i, got, vs, what))
        return -1;
    if (i < vm->step->ne)
        return vm_bad(vm, "unexpected '%s' in the expectation", vm->step->e[i].kind == TK_STRING
                   ? "\"...\"" : vm->step->e[i].text);
    return 0;
}

/* A string result: "-> any", "-> \"text\"" (or any byte string). */
int vm_expect_string(struct vm *vm, const char *got, const char *what)
{
    struct step *s = vm->step;
    if (!s->arrow)
        return 0;
    if (s->ne == 1 && vm_is_w(&s->e[0], "any"))
        return 0;
    if (s->ne == 1 && vm_is_capture(&s->e[0])) {
        /* -> $x keeps the string; -> == $x compares with it */
        const char *name = s->e[0].text + 1;
        size_t i;
        for (i = 0; i < vm->nstrs; i++)
            if (strcmp(vm->strs[i].name, name) == 0)
                break;
        if (i == MAX_OBJS)
            return vm_bad(vm, "more than %d string variables", MAX_OBJS);
        if (i == vm->nstrs) {
            snprintf(vm->strs[i].name, NAME_LEN, "%s", name);
            vm->strs[i].v = NULL;
            vm->nstrs++;
        }
        free(vm->strs[i].v);
        vm->strs[i].v = vec_xstrndup(got, strlen(got));
        return 0;
    }
    if (s->ne == 2 && vm_is_w(&s->e[0], "==") && vm_is_capture(&s->e[1])) {
        for (size_t i = 0; i < vm->nstrs; i++)
            if (strcmp(vm->strs[i].name, s->e[1].text + 1) == 0) {
                if (!vm->dry && strcmp(vm->strs[i].v, got) != 0) {
                    char g[200], w[200];
                    vec_fmt_bytes(got, strlen(got), g, sizeof g);
                    vec_fmt_bytes(vm->strs[i].v, strlen(vm->strs[i].v), w, sizeof w);
                    return vm_fail(vm, "%s is %s, expected %s (%s)", what, g, w, s->e[1].text);
                }
                return 0;
            }
        return vm_bad(vm, "unknown string variable %s (keep one with '-> %s')", s->e[1].text,
                   s->e[1].text);
    }
    /* "text" [or "other"]... */
    int match = 0;
    char w[200] = "";
    for (size_t i = 0; i < s->ne; i++) {
        if (i % 2 == 1) {
            if (!vm_is_w(&s->e[i], "or") || i + 1 == s->ne)
                return vm_bad(vm, "the expectation of %s is a string, or strings joined by "
                           "'or', or any", what);
            continue;
        }
        struct vec_bytes b;
        if (vm_bytes_of(vm, &s->e[i], &b))
            return -1;
        if (b.n == strlen(got) && (b.n == 0 || memcmp(b.p, got, b.n) == 0))
            match = 1;
        if (i == 0)
            vec_fmt_bytes(b.p, b.n, w, sizeof w);
        free(b.p);
    }
    if (!vm->dry && !match) {
        char g[200];
        vec_fmt_bytes(got, strlen(got), g, sizeof g);
        return vm_fail(vm, "%s is %s, expected %s%s", what, g, w, s->ne > 1 ? " (or another "
                    "of the alternatives)" : "");
    }
    return 0;
}

/* A string from a byte string: no NUL inside. */
char *vm_cstring(struct vm *vm, const struct tok *k)
{
    struct vec_bytes b;
    if (vm_bytes_of(vm, k, &b))
        return NULL;
    if (b.is_null || memchr(b.p ? (void *)b.p : (void *)"", '\0', b.n) != NULL) {
        free(b.p);
        vm_bad(vm, "a name cannot be null or hold a NUL byte");
        return NULL;
    }
    char *s = vec_xstrndup(b.p ? (char *)b.p : "", b.n);
    free(b.p);
    return s;
}
