/* SPDX-License-Identifier: MIT */
/*
 * vec_exec.c -- the interpreter of golden vectors (the language is in
 * vectors/README.md): running a vector's steps, dry (vec_check) and for real
 * (vec_run), with the alarm of --timeout.  What the steps share is in the
 * files vec_vm.h lists (messages, objects, tokens, expectations, exact
 * annotations); the steps themselves are in vec_steps_*.c, bless in
 * vec_bless.c.
 *
 * A vector is interpreted twice by the same code: first "dry" (vec_check:
 * every argument, expectation and annotation is parsed and every name
 * resolved, nothing of <trace.h> is called), then for real (vec_run).  So a
 * malformed step is reported before anything runs, even one that only the
 * reference would execute, and the functions a vector exercises are known
 * without running it.
 *
 * Results: a step without "->" is setup, and its failure is UNRESOLVED; a
 * step with "->" (or a "check") is an assertion, and its failure is FAIL.
 * The first failure ends the run, and blames the rules of its step only
 * (vec_rules.c).  "@key value" annotations and "exact:"
 * steps are exact expectations: checked only when built with VECRUN_EXACT
 * (the reference), where a bless run records the actual values instead.
 *
 * Only the standard <trace.h> API is used, plus <posixtrace_sim.h> under
 * VECRUN_EXACT.  trace_id_t and trace_event_id_t are never assumed to be
 * arithmetic types: ids are compared with posix_trace_eventid_equal().
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vec_progress.h"
#include "vec_vm.h"

/* ---- running ------------------------------------------------------------- */

static char alarm_text[700];
static const char *alarm_label;      /* --run-all: the test id starts the line */

void vec_set_label(const char *label)
{
    alarm_label = label;
}

static void on_alarm(int sig)
{
    (void)sig;
    vm_children_kill();             /* a child may be the one that hangs */
    ssize_t w = write(STDOUT_FILENO, alarm_text, strlen(alarm_text));
    (void)w;
    _exit(VEC_UNRESOLVED);
}

static void set_alarm_text(struct vm *vm, const struct step *s)
{
    char text[128];
    vm_step_text(vm, s, text, sizeof text);
    if (alarm_label)
        snprintf(alarm_text, sizeof alarm_text,
                 "%-50s UNRESOLVED %s:%d: '%s': timed out (the step hung)\n",
                 alarm_label, vm->v->path, s->line, text);
    else
        snprintf(alarm_text, sizeof alarm_text,
                 "\nRESULT UNRESOLVED %s:%d: '%s': timed out (the step hung)\n",
                 vm->v->path, s->line, text);
}

static int exec_step(struct vm *vm, struct step *s)
{
    vm->step = s;
    vm->checking = vm_step_checking(s);
    int exact = vm_step_exact(s);
    if (vm->dry && vm->info) {
        if (vm->checking && exact)
            vm->info->exact_checks++;
        else if (vm->checking)
            vm->info->portable_checks++;
        vm->info->exact_checks += (int)s->na;
    }
    if (!vm->dry && exact && !vm->exact)
        return 0;                   /* exact steps apply to the reference only */
    struct cur c = { s, 0 };
    vm->cur_step = (size_t)(s - vm->v->steps);
    vm->skipped = 0;
    int rc = vm_run_verb(vm, &c);
    if (!vm->dry)
        vec_progress_step_done();
    if (rc == 0 && !vm->dry && !vm->skipped)
        vm_rules_ran(vm, s);
    if (rc == 0 && vm->dry)
        for (size_t i = 0; i < s->na; i++)
            if (!s->a[i].used)
                return vm_bad(vm, "@%s does not apply to this step", s->a[i].key);
    return rc;
}

static int is_block_open(const struct step *s)
{
    return s->nt == 3 && vm_is_w(&s->t[0], "repeat") && vm_is_w(&s->t[2], "{");
}

static int is_block_close(const struct step *s)
{
    return s->nt >= 1 && vm_is_w(&s->t[0], "}");
}

/* Runs steps [from, to); "repeat N {" ... "}" blocks repeat the steps
 * between them, with $i counting from 0. */
static int exec_steps(struct vm *vm, size_t from, size_t to)
{
    struct vector *v = vm->v;
    for (size_t i = from; i < to && vm->result == VEC_PASS; i++) {
        struct step *s = &v->steps[i];
        if (!vm->dry)
            set_alarm_text(vm, s);
        if (is_block_close(s)) {
            vm->step = s;
            return vm_bad(vm, "'}' without 'repeat N {'");
        }
        if (vm->dry && vm->rep_depth > 0 && s->na)
            return vm->step = s, vm_bad(vm, "a step in a repeat block cannot carry exact "
                                     "annotations");
        if (!is_block_open(s)) {
            exec_step(vm, s);
            continue;
        }
        vm->step = s;
        vm->checking = 0;
        if (s->arrow || s->na || s->exact)
            return vm_bad(vm, "'repeat N {' takes no '->', '@' or 'exact:'");
        size_t end = i + 1;
        for (int depth = 1; end < to; end++) {
            depth += is_block_open(&v->steps[end]) - is_block_close(&v->steps[end]);
            if (depth == 0)
                break;
        }
        if (end >= to)
            return vm_bad(vm, "'repeat N {' without its '}'");
        if (v->steps[end].nt != 1 || v->steps[end].arrow || v->steps[end].na)
            return vm->step = &v->steps[end], vm_bad(vm, "'}' stands alone on its line");
        long long n;
        if (vm_eval(vm, s->t[1].text, &n))
            return -1;
        if (!vm->dry && (n < 0 || n > MAX_REPEAT))
            return vm_bad(vm, "repeat %lld: between 0 and %lld", n, MAX_REPEAT);
        if (vm->rep_depth == MAX_REPEAT_NEST)
            return vm_bad(vm, "repeat nested more than %d deep", MAX_REPEAT_NEST);
        if (vm->dry)
            n = 1;
        if (vm->rep_depth == 0)
            vm->block_from = i + 1;     /* its steps run again in the next rounds */
        vm->rep_depth++;
        for (long long k = 0; k < n && vm->result == VEC_PASS; k++) {
            vm->rep_i[vm->rep_depth - 1] = k;
            exec_steps(vm, i + 1, end);
        }
        vm->rep_depth--;
        if (vm->rep_depth == 0 && vm->result == VEC_PASS)
            vm->block_from = SIZE_MAX;
        i = end;
    }
    return vm->result == VEC_PASS ? 0 : -1;
}

int vec_check(struct vector *v, struct vec_info *info, char *msg, size_t size)
{
    memset(info, 0, sizeof *info);
    struct vm *vm = vm_new(v, 1, NULL, info);
    int rc = exec_steps(vm, 0, v->nsteps);
    for (size_t k = 0; k <= vm->nchildren && rc == 0; k++) {
        /* The vector's own process, then each child's copy. */
        struct vm *p = k == 0 ? vm : vm->children[k - 1].dry;
        for (size_t i = 0; p && i < p->nbgs && rc == 0; i++)
            if (!p->bgs[i].joined) {
                p->step = p->bgs[i].step;
                rc = vm_bad(p, "background read %s is never joined", p->bgs[i].name);
                if (p != vm)
                    snprintf(vm->msg, sizeof vm->msg, "%s", p->msg);
            }
    }
    if (rc == 0 && info->portable_checks + info->exact_checks == 0)
        rc = -1, snprintf(vm->msg, sizeof vm->msg, "%s: the vector checks nothing (no '->', "
                          "check or @)", v->path);
    if (rc == 0)
        rc = vec_rules_lint(v, vm->msg, sizeof vm->msg);
    if (rc)
        snprintf(msg, size, "%s", vm->msg);
    vm_free(vm);
    return rc;
}

enum vec_result vec_run(struct vector *v, const struct vec_opts *o, char *msg, size_t size,
                        char **rule_lines)
{
    if (rule_lines)
        *rule_lines = NULL;
    struct vec_info info;
    if (vec_check(v, &info, msg, size))
        return VEC_UNRESOLVED;
    unsigned missing = v->options & ~o->supported;
    if (missing) {
        char names[32];
        vec_options_text(missing, names, sizeof names);
        snprintf(msg, size, "needs option %s, which the implementation does not provide", names);
        return VEC_UNSUPPORTED;
    }
    if (!vec_exact_build() && info.portable_checks == 0) {
        snprintf(msg, size, "exact expectations apply to the reference only");
        return VEC_UNTESTED;
    }
    struct vm *vm = vm_new(v, 0, o, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    vm_eval_start();
    vm_rules_start(vm);
    exec_steps(vm, 0, v->nsteps);
    vm_children_end(vm);            /* may find a child that did not end well */
    enum vec_result r = vm->result;
    if (r == VEC_PASS)
        snprintf(vm->msg, sizeof vm->msg, "%zu steps, %d portable and %d exact checks%s",
                 v->nsteps, info.portable_checks, info.exact_checks,
                 vm->exact ? "" : " (exact ones skipped: they apply to the reference only)");
    snprintf(msg, size, "%s", vm->msg);
    if (rule_lines)
        *rule_lines = vm_rules_text(vm, r, vm->msg);
    vm_free(vm);
    return r;
}
