/* SPDX-License-Identifier: MIT */
/*
 * vec_annot.c -- the exact annotations "@key value": checked against what
 * the step gave when built with VECRUN_EXACT (the reference), recorded
 * instead when blessing.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vec_vm.h"

/* ---- exact annotations --------------------------------------------------- */

static struct annot *annot_find(struct vm *vm, const char *key)
{
    struct step *s = vm->step;
    for (size_t i = 0; i < s->na; i++)
        if (strcmp(s->a[i].key, key) == 0) {
            s->a[i].used = 1;
            return &s->a[i];
        }
    return NULL;
}

static int placeholder(const struct annot *a)
{
    return a->val.kind == TK_WORD && strcmp(a->val.text, "?") == 0;
}

/* Compares (or, blessing, records) an annotation's actual value. */
static int annot_result(struct vm *vm, struct annot *a, const char *actual, int match)
{
    if (vm->bless) {
        /* A value that matches keeps the way the vector wrote it. */
        const char *line = vm->v->lines[vm->step->line - 1];
        free(a->actual);
        a->actual = match ? vec_xstrndup(line + a->val.off, a->val.len)
                          : vec_xstrndup(actual, strlen(actual));
        return 0;
    }
    if (!match) {
        int saved = vm->checking;
        vm->checking = 1;
        vm_fail(vm, "exact @%s: expected %s, got %s", a->key,
             placeholder(a) ? "(not blessed yet: ?)" : a->val.text, actual);
        vm->checking = saved;
        return -1;
    }
    return 0;
}

/* @key with an integer, a time (is_ts) or a constant of group g. */
int vm_annot_int(struct vm *vm, const char *key, long long got, int is_ts, enum vec_group g)
{
    struct annot *a = annot_find(vm, key);
    if (a == NULL)
        return 0;
    long long want = 0;
    if (!placeholder(a)) {
        if (a->val.kind != TK_WORD)
            return vm_bad(vm, "@%s takes a number, not a string", key);
        if (vm->dry || vm->exact) {
            int saved = vm->dry;
            vm->dry = vm->dry || !vm->exact;
            int rc = vm_eval(vm, a->val.text, &want);
            vm->dry = saved;
            if (rc)
                return -1;
        }
    }
    if (vm->dry || !vm->exact)
        return 0;
    char text[64];
    const char *name = g != G_NONE ? vec_group_name(g, got) : NULL;
    if (name)
        snprintf(text, sizeof text, "%s", name);
    else if (is_ts)
        vec_fmt_ts(got, text, sizeof text);
    else
        snprintf(text, sizeof text, "%lld", got);
    return annot_result(vm, a, text, !placeholder(a) && want == got);
}

/* @key with one of a few words (or a number, if numbers is set). */
int vm_annot_word(struct vm *vm, const char *key, const char *got,
                  const char *const *words, int numbers)
{
    struct annot *a = annot_find(vm, key);
    if (a == NULL)
        return 0;
    if (!placeholder(a)) {
        int ok = a->val.kind == TK_WORD;
        if (ok) {
            ok = 0;
            for (size_t i = 0; words[i]; i++)
                ok |= strcmp(words[i], a->val.text) == 0;
            if (!ok && numbers) {
                const char *p = a->val.text + (a->val.text[0] == '-');
                ok = *p != '\0';
                for (; *p; p++)
                    ok &= isdigit((unsigned char)*p) != 0;
            }
        }
        if (!ok)
            return vm_bad(vm, "@%s: '%s' is not a valid value", key, a->val.text);
    }
    if (vm->dry || !vm->exact)
        return 0;
    return annot_result(vm, a, got, !placeholder(a) && strcmp(a->val.text, got) == 0);
}

/* @pid: a number (with simulated origins, the pid the stream gave), or
 * self, 0, or the name of a process of "fork" (vm_pid_word).  A number is
 * compared as a number and a name by its process's pid, so that a simulated
 * pid that happens to be a real one still matches. */
int vm_annot_pid(struct vm *vm, pid_t got)
{
    struct annot *a = annot_find(vm, "pid");
    if (a == NULL)
        return 0;
    pid_t want = 0;
    int known = 0;
    if (!placeholder(a)) {
        const char *p = a->val.text;
        if (a->val.kind != TK_WORD)
            return vm_bad(vm, "@pid takes a number, self or a process, not a string");
        if (isdigit((unsigned char)p[0])) {
            long long v;
            if (vm_eval(vm, p, &v))
                return -1;
            if (!vm->dry && (v < 0 || v > INT_MAX))
                return vm_bad(vm, "@pid %lld is not a pid", v);
            want = (pid_t)v;
        } else if (vm_pid_word(vm, p, &want)) {
            return -1;
        }
        known = 1;
    }
    if (vm->dry || !vm->exact)
        return 0;
    char text[64];
    return annot_result(vm, a, vm_pid_text(vm, got, text, sizeof text), known && want == got);
}

/* A string as the vector language writes it. */
static void vector_string(const char *s, char *buf, size_t size)
{
    size_t used = 0;
    if (size < 8)
        return;
    buf[used++] = '"';
    for (; *s && used + 6 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\' || c == '{' || c == '}') {
            buf[used++] = '\\';
            buf[used++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            buf[used++] = (char)c;
        } else {
            used += (size_t)snprintf(buf + used, size - used, "\\x%02x", c);
        }
    }
    buf[used++] = '"';
    buf[used] = '\0';
}

/* @key with a string. */
int vm_annot_str(struct vm *vm, const char *key, const char *got)
{
    struct annot *a = annot_find(vm, key);
    if (a == NULL)
        return 0;
    struct vec_bytes b = { 0 };
    if (!placeholder(a) && (vm->dry || vm->exact)) {
        int saved = vm->dry;
        vm->dry = vm->dry || !vm->exact;
        int rc = vm_bytes_of(vm, &a->val, &b);
        vm->dry = saved;
        if (rc)
            return -1;
    }
    if (vm->dry || !vm->exact) {
        free(b.p);
        return 0;
    }
    char text[STR_BUF * 4 + 8];
    vector_string(got, text, sizeof text);
    int match = !placeholder(a) && b.n == strlen(got) && (b.n == 0 || memcmp(b.p, got, b.n) == 0);
    free(b.p);
    return annot_result(vm, a, text, match);
}
