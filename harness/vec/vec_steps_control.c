/* SPDX-License-Identifier: MIT */
/*
 * vec_steps_control.c -- steps that steer the vector itself (repeat, when,
 * check, let, now, sleep, unsupported) and the table of verbs.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "vec_vm.h"

/* ---- control of the vector ------------------------------------------------ */

/* repeat N STEP: $i counts from 0. */
static int verb_repeat(struct vm *vm, struct cur *c)
{
    long long n;
    if (vm_need_expr(vm, c, "a count", &n))
        return -1;
    if (vm_peek(c) == NULL)
        return vm_bad(vm, "repeat needs a step to repeat");
    if (vm->step->na)
        return vm_bad(vm, "a repeated step cannot carry exact annotations");
    if (vm->rep_depth == MAX_REPEAT_NEST)
        return vm_bad(vm, "repeat nested more than %d deep", MAX_REPEAT_NEST);
    if (!vm->dry && (n < 0 || n > MAX_REPEAT))
        return vm_bad(vm, "repeat %lld: between 0 and %lld", n, MAX_REPEAT);
    if (vm->dry)
        n = 1;
    vm->rep_depth++;
    int rc = 0;
    for (long long i = 0; i < n && rc == 0; i++) {
        vm->rep_i[vm->rep_depth - 1] = i;
        struct cur inner = *c;
        rc = vm_run_verb(vm, &inner);
    }
    vm->rep_depth--;
    return rc;
}

/* when EXPR OP EXPR STEP: the step runs only if the comparison holds (the
 * dry check always looks at it). */
static int verb_when(struct vm *vm, struct cur *c)
{
    struct tok *a = vm_need_word(vm, c, "a value");
    struct tok *op = a ? vm_need_word(vm, c, "a comparison (== != < <= > >=)") : NULL;
    struct tok *b = op ? vm_need_word(vm, c, "a value") : NULL;
    if (b == NULL)
        return -1;
    if (!vm_is_op(op->text))
        return vm_bad(vm, "'%s' is not a comparison (== != < <= > >=)", op->text);
    if (vm_peek(c) == NULL)
        return vm_bad(vm, "when needs a step to run");
    long long x, y;
    if (vm_eval(vm, a->text, &x) || vm_eval(vm, b->text, &y))
        return -1;
    if (!vm->dry && !vm_compare(op->text, x, y)) {
        for (size_t i = 0; i < vm->step->na; i++)
            vm->step->a[i].used = 1;
        vm->skipped = 1;            /* its checks did not run (vec_rules.c) */
        return 0;
    }
    return vm_run_verb(vm, c);
}

/* check EXPR OP EXPR */
static int verb_check(struct vm *vm, struct cur *c)
{
    struct tok *a = vm_need_word(vm, c, "a value");
    struct tok *op = a ? vm_need_word(vm, c, "a comparison (== != < <= > >=)") : NULL;
    struct tok *b = op ? vm_need_word(vm, c, "a value") : NULL;
    if (b == NULL || vm_no_more(vm, c))
        return -1;
    if (vm->step->arrow)
        return vm_bad(vm, "check takes no '->'");
    if (!vm_is_op(op->text))
        return vm_bad(vm, "'%s' is not a comparison (== != < <= > >=)", op->text);
    long long x, y;
    if (vm_eval(vm, a->text, &x) || vm_eval(vm, b->text, &y))
        return -1;
    if (!vm->dry && !vm_compare(op->text, x, y))
        return vm_fail(vm, "%s is %lld, %s is %lld", a->text, x, b->text, y);
    return 0;
}

/* let $x EXPR */
static int verb_let(struct vm *vm, struct cur *c)
{
    struct tok *name = vm_need_word(vm, c, "a variable");
    long long v;
    if (name == NULL || vm_need_expr(vm, c, "a value", &v) || vm_no_more(vm, c))
        return -1;
    return vm_set_int(vm, name->text, v);
}

/* now $x: CLOCK_REALTIME in ns */
static int verb_now(struct vm *vm, struct cur *c)
{
    struct tok *name = vm_need_word(vm, c, "a variable");
    if (name == NULL || vm_no_more(vm, c))
        return -1;
    struct timespec ts = { 0, 0 };
    clock_gettime(CLOCK_REALTIME, &ts);
    return vm_set_int(vm, name->text, vm_ts_ns(&ts));
}

/* sleep MS */
static int verb_sleep(struct vm *vm, struct cur *c)
{
    long long ms;
    if (vm_need_expr(vm, c, "milliseconds", &ms) || vm_no_more(vm, c))
        return -1;
    if (!vm->dry && (ms < 0 || ms > MAX_SLEEP_MS))
        return vm_bad(vm, "sleep %lld: between 0 and %d ms", ms, MAX_SLEEP_MS);
    if (!vm->dry) {
        struct timespec d = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
        while (nanosleep(&d, &d) != 0 && errno == EINTR)
            ;
    }
    return 0;
}

/* unsupported "why": the vector ends UNSUPPORTED (after "when", where the
 * implementation made an allowed choice that leaves nothing to check). */
static int verb_unsupported(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need(vm, c, "the reason, a string");
    if (k == NULL || vm_no_more(vm, c))
        return -1;
    if (k->kind != TK_STRING || vm->step->arrow || vm->step->na)
        return vm_bad(vm, "unsupported takes a string and nothing else");
    char *why = vm_cstring(vm, k);
    if (why == NULL)
        return -1;
    if (!vm->dry)
        vm_give(vm, VEC_UNSUPPORTED, "%s", why);
    free(why);
    return vm->result == VEC_PASS ? 0 : -1;
}

static const struct verb {
    const char *name;
    int (*fn)(struct vm *, struct cur *);
} verbs[] = {
    { "attr", verb_attr },               { "create", verb_create },
    { "createmany", verb_createmany },   { "shutdownmany", verb_shutdownmany },
    { "start", verb_start },             { "stop", verb_stop },
    { "clear", verb_clear },             { "shutdown", verb_shutdown },
    { "getattr", verb_getattr },         { "status", verb_status },
    { "open", verb_open },               { "event", verb_event },
    { "fill", verb_fill },               { "getnext", verb_getnext },
    { "trygetnext", verb_trygetnext },   { "timedgetnext", verb_timedgetnext },
    { "drain", verb_drain },             { "bg", verb_bg },
    { "join", verb_join },               { "name", verb_name },
    { "equal", verb_equal },             { "typenext", verb_typenext },
    { "typerewind", verb_typerewind },   { "typelist", verb_typelist },
    { "sim", verb_sim },                 { "repeat", verb_repeat },
    { "when", verb_when },                 { "check", verb_check },
    { "let", verb_let },                   { "now", verb_now },
    { "sleep", verb_sleep },               { "fork", verb_fork },
    { "in", verb_in },                     { "exec", verb_exec },
    { "exit", verb_exit },                 { "unsupported", verb_unsupported },
};

int vm_run_verb(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need_word(vm, c, "a verb");
    if (k == NULL)
        return -1;
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strcmp(verbs[i].name, k->text) == 0)
            return verbs[i].fn(vm, c);
    return vm_bad(vm, "unknown verb '%s'", k->text);
}
