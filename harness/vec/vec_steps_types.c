/* SPDX-License-Identifier: MIT */
/*
 * vec_steps_types.c -- event names and the event type list (name, equal,
 * typenext, typerewind, typelist), and the reference's simulation control
 * (sim cpu, sim advance, sim now).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef VECRUN_EXACT
#include <posixtrace_sim.h>
#endif
#include "vec_vm.h"

/* ---- event names and the event type list --------------------------------- */

/* name T ID -> "name" | any | EINVAL */
int verb_name(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_eventid_get_name");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL)
        return -1;
    struct tok *k = vm_need_word(vm, c, "an event");
    trace_event_id_t id;
    memset(&id, 0, sizeof id);
    if (k == NULL || vm_event_id(vm, k, &id, NULL) || vm_no_more(vm, c))
        return -1;
    /* {TRACE_EVENT_NAME_MAX}+1 bytes: the name has at most {TRACE_EVENT_NAME_MAX}
     * characters (S0138), a limit without the NUL (ruling 24). */
    size_t n = vm_name_buffer_size(vm, "TRACE_EVENT_NAME_MAX", 1, "eventid_get_name.name-max");
    char *buf = (char *)vm_guarded(n);
    int rc = vm->dry ? 0 : posix_trace_eventid_get_name(t->id, id, buf);
    int done;
    if (vm_expect_rc_first(vm, "posix_trace_eventid_get_name", rc, &done) == 0 && !done)
        vm_name_result(vm, "posix_trace_eventid_get_name", "the event name", buf, n,
                       "{TRACE_EVENT_NAME_MAX}+1 (S0138)", "eventid_get_name.name-max");
    free(buf);
    return vm->result == VEC_PASS ? 0 : -1;
}

/* equal T ID ID -> true|false */
int verb_equal(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_eventid_equal");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL)
        return -1;
    struct tok *k1 = vm_need_word(vm, c, "an event");
    trace_event_id_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (k1 == NULL || vm_event_id(vm, k1, &a, NULL))
        return -1;
    struct tok *k2 = vm_need_word(vm, c, "a second event");
    if (k2 == NULL || vm_event_id(vm, k2, &b, NULL) || vm_no_more(vm, c))
        return -1;
    struct step *s = vm->step;
    if (!s->arrow || s->ne != 1 || !(vm_is_w(&s->e[0], "true") || vm_is_w(&s->e[0], "false")))
        return vm_bad(vm, "equal expects '-> true' or '-> false'");
    if (vm->dry)
        return 0;
    int eq = posix_trace_eventid_equal(t->id, a, b) != 0;
    if (eq != vm_is_w(&s->e[0], "true"))
        return vm_fail(vm, "posix_trace_eventid_equal(%s, %s) returned %s", k1->text, k2->text,
                    eq ? "nonzero" : "0");
    return 0;
}

/* typenext T -> ID | none | EINVAL */
int verb_typenext(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_eventtypelist_getnext_id");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL || vm_no_more(vm, c))
        return -1;
    trace_event_id_t id;
    memset(&id, 0, sizeof id);
    int unavailable = -12345;
    int rc = vm->dry ? 0 : posix_trace_eventtypelist_getnext_id(t->id, &id, &unavailable);
    int done;
    if (vm_expect_rc_first(vm, "posix_trace_eventtypelist_getnext_id", rc, &done) || done)
        return vm->result == VEC_PASS ? 0 : -1;
    struct step *s = vm->step;
    if (!s->arrow)
        return 0;
    if (s->ne != 1)
        return vm_bad(vm, "typenext expects one event, any, or none");
    char b[40];
    if (vm_is_w(&s->e[0], "none")) {
        if (!vm->dry && unavailable == 0)
            return vm_fail(vm, "expected the end of the list, got %s",
                           vm_id_text(vm, id, b, sizeof b));
        return 0;
    }
    trace_event_id_t want;
    int any;
    memset(&want, 0, sizeof want);
    if (vm_event_id(vm, &s->e[0], &want, &any))
        return -1;
    if (vm->dry)
        return 0;
    if (unavailable != 0)
        return vm_fail(vm, "expected %s, got the end of the list (unavailable %d)", s->e[0].text,
                    unavailable);
    if (!any && !posix_trace_eventid_equal(t->id, id, want))
        return vm_fail(vm, "expected %s, got %s", s->e[0].text, vm_id_text(vm, id, b, sizeof b));
    return 0;
}

int verb_typerewind(struct vm *vm, struct cur *c)
{
    return vm_stream_control(vm, c, "posix_trace_eventtypelist_rewind",
                             posix_trace_eventtypelist_rewind);
}

/* typelist T -> contains ID... | exactly ID...: walks the rest of the list. */
int verb_typelist(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_eventtypelist_getnext_id");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL || vm_no_more(vm, c))
        return -1;
    struct step *s = vm->step;
    if (!s->arrow || !(vm_is_w(&s->e[0], "contains") || vm_is_w(&s->e[0], "exactly")))
        return vm_bad(vm, "typelist expects '-> contains ID...' or '-> exactly ID...'");
    int exactly = vm_is_w(&s->e[0], "exactly");
    size_t nwant = s->ne - 1;
    size_t count_at = s->ne;            /* "count VALUE..." at the end */
    for (size_t i = 1; i < s->ne; i++)
        if (vm_is_w(&s->e[i], "count")) {
            count_at = i;
            nwant = i - 1;
            break;
        }
    trace_event_id_t *want = vec_xmalloc((nwant ? nwant : 1) * sizeof *want);
    memset(want, 0, (nwant ? nwant : 1) * sizeof *want);
    for (size_t i = 0; i < nwant; i++)
        if (vm_event_id(vm, &s->e[i + 1], &want[i], NULL)) {
            free(want);
            return -1;
        }
    if (vm->dry) {
        free(want);
        size_t i = count_at + 1;
        struct valspec vs = { G_NONE, 0, NULL };
        if (count_at < s->ne && vm_expect_value(vm, &i, 0, &vs, "the length of the list"))
            return -1;
        if (count_at < s->ne && i < s->ne)
            return vm_bad(vm, "unexpected '%s' after count", s->e[i].text);
        return 0;
    }
    trace_event_id_t *got = NULL;
    size_t n = 0;
    int rc = 0;
    char b[40], e[32];
    for (;;) {
        trace_event_id_t id;
        int unavailable = -12345;
        if (n == TYPELIST_MAX) {
            rc = vm_fail(vm, "the event type list did not end after %d ids", TYPELIST_MAX);
            break;
        }
        int r = posix_trace_eventtypelist_getnext_id(t->id, &id, &unavailable);
        if (r) {
            rc = vm_fail(vm, "posix_trace_eventtypelist_getnext_id returned %s",
                      vm_errname(r, e, sizeof e));
            break;
        }
        if (unavailable)
            break;
        if ((n & (n - 1)) == 0)
            got = vec_xrealloc(got, (n ? 2 * n : 1) * sizeof *got);
        got[n++] = id;
    }
    if (rc == 0) {
        char list[400] = "";
        size_t used = 0;
        for (size_t i = 0; i < n && used + 1 < sizeof list; i++) {
            int w = snprintf(list + used, sizeof list - used, "%s%s", i ? " " : "",
                             vm_id_text(vm, got[i], b, sizeof b));
            if (w < 0)
                break;
            used += (size_t)w;
        }
        for (size_t i = 0; i < nwant && rc == 0; i++) {
            size_t j;
            for (j = 0; j < n; j++)
                if (posix_trace_eventid_equal(t->id, got[j], want[i]))
                    break;
            if (exactly ? (i >= n || j != i) : j == n)
                rc = vm_fail(vm, "%s is not %s the list: %s", s->e[i + 1].text,
                          exactly ? "at its place in" : "in", list);
        }
        if (rc == 0 && exactly && n != nwant)
            rc = vm_fail(vm, "the list has %zu ids, expected %zu: %s", n, nwant, list);
        for (size_t i = 0; i < n && rc == 0; i++)
            for (size_t j = i + 1; j < n && rc == 0; j++)
                if (posix_trace_eventid_equal(t->id, got[i], got[j]))
                    rc = vm_fail(vm, "%s comes twice in the list: %s",
                              vm_id_text(vm, got[i], b, sizeof b), list);
        if (rc == 0 && count_at < s->ne) {
            size_t i = count_at + 1;
            struct valspec vs = { G_NONE, 0, NULL };
            rc = vm_expect_value(vm, &i, (long long)n, &vs, "the length of the list");
        }
    }
    free(got);
    free(want);
    return rc;
}

/* ---- simulation control (the reference only) ------------------------------ */

/* sim cpu N | sim advance T NS | sim now T -> TIME */
int verb_sim(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need_word(vm, c, "cpu, advance or now");
    if (k == NULL)
        return -1;
    long long v = 0;
    struct trace_obj *t = NULL;
    int rc = 0;
    if (strcmp(k->text, "cpu") == 0) {
        if (vm_need_expr(vm, c, "a CPU number", &v) || vm_no_more(vm, c))
            return -1;
#ifdef VECRUN_EXACT
        if (!vm->dry)
            rc = posixtrace_sim_setcpu((int)v);
#endif
        return vm->exact || vm->dry ? vm_expect_rc(vm, "posixtrace_sim_setcpu", rc) : 0;
    }
    if (strcmp(k->text, "advance") == 0) {
        if ((t = vm_trace_arg(vm, c)) == NULL || vm_need_expr(vm, c, "nanoseconds", &v) ||
            vm_no_more(vm, c))
            return -1;
#ifdef VECRUN_EXACT
        if (!vm->dry)
            rc = posixtrace_sim_advance(t->id, v);
#endif
        return vm->exact || vm->dry ? vm_expect_rc(vm, "posixtrace_sim_advance", rc) : 0;
    }
    if (strcmp(k->text, "now") == 0) {
        if ((t = vm_trace_arg(vm, c)) == NULL || vm_no_more(vm, c))
            return -1;
        struct timespec now = { 0, 0 };
#ifdef VECRUN_EXACT
        if (!vm->dry)
            rc = posixtrace_sim_now(t->id, &now);
#endif
        if (!vm->dry && !vm->exact)
            return 0;
        int done;
        if (vm_expect_rc_first(vm, "posixtrace_sim_now", rc, &done) || done)
            return vm->result == VEC_PASS ? 0 : -1;
        struct valspec vs = { G_NONE, 1, NULL };
        return vm_expect_value_all(vm, vm_ts_ns(&now), &vs, "the simulated clock");
    }
    return vm_bad(vm, "sim %s: expected cpu, advance or now", k->text);
}
