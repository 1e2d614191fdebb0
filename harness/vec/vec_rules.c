/* SPDX-License-Identifier: MIT */
/*
 * vec_rules.c -- which rule each check of a vector serves, and the result
 * of each rule of a run (issue 13 item 2: a failure blames the rule whose
 * check failed, and only it; the protocol is "RULE-RESULT <rule> <CODE>
 * <message>" lines before the RESULT line: harness/README.md "One rule
 * blamed", vectors/README.md "Commands" and "A step").
 *
 * A check serves the rules of its step's [rule-id] tags, or the header's
 * when it has none.  A vector of several rules must tag every assertion
 * (vec_rules_lint), so that its checks never serve every rule by default.
 *
 * During the run vec_exec.c tells us each check that ran (vm_rules_ran);
 * at the end vm_rules_text gives, for a FAIL, FAIL to the failing step's
 * rules, PASS to a rule whose checks all ran before it, UNRESOLVED to one
 * that still had checks to run; for a PASS, PASS to every rule with a check
 * that ran and UNTESTED to the others (their checks are exact and this
 * build does not check them, or a "when" skipped them).  Other results
 * (setup failure, UNSUPPORTED, UNTESTED, timeout) are every rule's: no
 * lines.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/vec_rule_results.h"
#include "vec_vm.h"

/* An assertion: a step whose mismatch is a FAIL ("->" that asserts more
 * than captures, "check"), or that carries @annotations.  A step whose
 * "->" only keeps values ("-> $sz") is setup: its failure is UNRESOLVED,
 * so it blames no rule and needs no tag. */
static int is_assertion(const struct step *s)
{
    return vm_step_checking(s) || s->na > 0;
}

int vec_rules_lint(const struct vector *v, char *msg, size_t size)
{
    if (v->nrules < 2)
        return 0;
    for (size_t i = 0; i < v->nsteps; i++) {
        const struct step *s = &v->steps[i];
        if (is_assertion(s) && s->nrules == 0) {
            snprintf(msg, size, "%s:%d: an assertion in a vector of several rules names none "
                     "of them: add [rule-id]", v->path, s->line);
            return -1;
        }
    }
    return 0;
}

/* Does step s check something in this build?  Its "->" or check, unless
 * the step is exact and this build is not the reference's; its
 * @annotations in the reference's build only. */
static int checks_here(const struct vm *vm, const struct step *s)
{
    if (s->na > 0 && vm->exact)
        return 1;
    return vm_step_checking(s) && (vm->exact || !vm_step_exact(s));
}

/* Does step s serve rule r (index in the header)? */
static int serves(const struct vector *v, const struct step *s, size_t r)
{
    if (s->nrules == 0)
        return 1;
    for (size_t k = 0; k < s->nrules; k++)
        if (strcmp(s->rules[k], v->rules[r]) == 0)
            return 1;
    return 0;
}

void vm_rules_start(struct vm *vm)
{
    vm->rule_ran = vec_xmalloc((vm->v->nrules ? vm->v->nrules : 1) * sizeof *vm->rule_ran);
    memset(vm->rule_ran, 0, (vm->v->nrules ? vm->v->nrules : 1) * sizeof *vm->rule_ran);
    vm->fail_step = NULL;
}

void vm_rules_ran(struct vm *vm, const struct step *s)
{
    if (vm->rule_ran == NULL || !checks_here(vm, s))
        return;
    for (size_t r = 0; r < vm->v->nrules; r++)
        if (serves(vm->v, s, r))
            vm->rule_ran[r]++;
}

/* Has rule r a check still to run, the run having stopped in the step
 * vm->cur_step (that of "join" when a background read failed)?  The steps
 * after it, those of the repeat block the run was in (its next rounds),
 * from block_from on, and the background reads not joined yet. */
static int pending(const struct vm *vm, size_t r)
{
    for (size_t i = 0; i < vm->nbgs; i++)
        if (!vm->bgs[i].joined && checks_here(vm, vm->bgs[i].step) &&
            serves(vm->v, vm->bgs[i].step, r))
            return 1;
    size_t next = vm->cur_step + 1;
    size_t from = vm->block_from < next ? vm->block_from : next;
    for (size_t i = from; i < vm->v->nsteps; i++)
        if (i != vm->cur_step && checks_here(vm, &vm->v->steps[i]) &&
            serves(vm->v, &vm->v->steps[i], r))
            return 1;
    return 0;
}

char *vm_rules_text(struct vm *vm, enum vec_result result, const char *msg)
{
    const struct vector *v = vm->v;
    if (vm->rule_ran == NULL || (result != VEC_PASS && result != VEC_FAIL))
        return NULL;
    /* A failure reported by a process of "in C" has no step of its own:
     * the step "in C ..." is the one that failed. */
    const struct step *f = vm->fail_step ? vm->fail_step : vm->step;
    if (f == NULL)
        return NULL;
    struct rule_tally *t = vec_xmalloc((v->nrules ? v->nrules : 1) * sizeof *t);
    for (size_t r = 0; r < v->nrules; r++) {
        t[r].id = v->rules[r];
        t[r].failed = result == VEC_FAIL && serves(v, f, r);
        t[r].pending = result == VEC_FAIL && pending(vm, r);
        t[r].ran = vm->rule_ran[r];
    }
    char *out = rule_results_text(t, v->nrules, result == VEC_FAIL, msg);
    free(t);
    return out;
}
