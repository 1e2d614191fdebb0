/* SPDX-License-Identifier: MIT */
/*
 * vec_tokens.c -- the cursor over a step's tokens, and what a step is: does
 * it assert anything, is it exact (reference only), which <trace.h>
 * function it calls (noted for the runner, vec_progress.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include "vec_progress.h"
#include "vec_vm.h"

/* ---- tokens -------------------------------------------------------------- */

int vm_is_w(const struct tok *k, const char *w)
{
    return k && k->kind == TK_WORD && strcmp(k->text, w) == 0;
}

struct tok *vm_peek(struct cur *c)
{
    return c->i < c->s->nt ? &c->s->t[c->i] : NULL;
}

struct tok *vm_need(struct vm *vm, struct cur *c, const char *what)
{
    struct tok *k = vm_peek(c);
    if (k == NULL) {
        vm_bad(vm, "missing %s", what);
        return NULL;
    }
    c->i++;
    return k;
}

struct tok *vm_need_word(struct vm *vm, struct cur *c, const char *what)
{
    struct tok *k = vm_need(vm, c, what);
    if (k && k->kind != TK_WORD) {
        vm_bad(vm, "expected %s, not a string", what);
        return NULL;
    }
    return k;
}

int vm_no_more(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_peek(c);
    if (k)
        return vm_bad(vm, "unexpected '%s'", k->kind == TK_STRING ? "\"...\"" : k->text);
    return 0;
}

int vm_need_expr(struct vm *vm, struct cur *c, const char *what, long long *v)
{
    struct tok *k = vm_need_word(vm, c, what);
    if (k == NULL)
        return -1;
    return vm_eval(vm, k->text, v);
}

int vm_is_capture(const struct tok *k)
{
    return k->kind == TK_WORD && k->text[0] == '$' && vm_valid_name(k->text + 1);
}

/* Where the verb that does the work is, past the prefixes "repeat N",
 * "when A OP B", "in C" (and "bg R" with bg). */
static size_t inner_verb(const struct step *s, int bg)
{
    size_t i = 0;
    for (;;) {
        if (i + 2 < s->nt && (vm_is_w(&s->t[i], "repeat") || vm_is_w(&s->t[i], "in") ||
                              (bg && vm_is_w(&s->t[i], "bg"))))
            i += 2;
        else if (i + 4 < s->nt && vm_is_w(&s->t[i], "when"))
            i += 4;
        else
            return i;
    }
}

/* Does the step's expectation assert anything (more than captures)? */
int vm_step_checking(const struct step *s)
{
    size_t v = inner_verb(s, 0);
    if (v < s->nt && vm_is_w(&s->t[v], "check"))
        return 1;
    if (!s->arrow)
        return 0;
    for (size_t i = 0; i < s->ne; i++)
        if (!vm_is_capture(&s->e[i]))
            return 1;
    return 0;
}

/* Steps that are exact by nature: simulation control. */
static int step_implicitly_exact(const struct step *s)
{
    size_t i = inner_verb(s, 1);
    if (i < s->nt && vm_is_w(&s->t[i], "sim"))
        return 1;
    return i + 3 < s->nt && vm_is_w(&s->t[i], "attr") && vm_is_w(&s->t[i + 2], "set") &&
           (vm_is_w(&s->t[i + 3], "simclock") || vm_is_w(&s->t[i + 3], "simorigin"));
}

/* Does the step run against the reference only? */
int vm_step_exact(const struct step *s)
{
    return s->exact || step_implicitly_exact(s);
}

void vm_use_fn(struct vm *vm, const char *fn)
{
    if (!vm->dry && vm->step)
        vec_progress_call(fn, vm->v->path, vm->step->line, vm_children_kill);   /* for the runner */
    struct vec_info *in = vm->info;
    if (!vm->dry || in == NULL)
        return;
    size_t i;
    for (i = 0; i < in->nfunctions; i++) {
        int c = strcmp(in->functions[i], fn);
        if (c == 0)
            return;
        if (c > 0)
            break;
    }
    if (in->nfunctions == sizeof in->functions / sizeof in->functions[0])
        return;
    memmove(&in->functions[i + 1], &in->functions[i],
            (in->nfunctions - i) * sizeof in->functions[0]);
    in->functions[i] = fn;
    in->nfunctions++;
}

/* "0", "EINVAL", "0|EINVAL": a set of return codes.  With errno_only, at
 * least one member must be an errno name (so that "0" stays a value). */
