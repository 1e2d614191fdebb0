/* SPDX-License-Identifier: MIT */
/*
 * vec_steps_stream.c -- steps on streams and events: create, createmany,
 * start, stop, clear, shutdown, getattr, status, open, event, fill.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "vec_vm.h"

/* ---- streams ------------------------------------------------------------- */

/* A trace stream that was created; "bad" if the vector never created it. */
struct trace_obj *vm_trace_arg(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need_word(vm, c, "a trace stream");
    if (k == NULL)
        return NULL;
    struct trace_obj *t = vm_find_trace(vm, k->text);
    if (t == NULL) {
        vm_bad(vm, "unknown trace stream '%s' (create it first)", k->text);
        return NULL;
    }
    if (!vm->dry && !t->defined) {
        vm_bad(vm, "trace stream %s was never created", t->name);
        return NULL;
    }
    return t;
}

/* A pid that no process has: a child's, once reaped. */
static pid_t gone_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    if (p > 0)
        while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
            ;
    return p;
}

static int attr_arg(struct vm *vm, struct cur *c, trace_attr_t **a)
{
    struct tok *k = vm_need_word(vm, c, "an attributes object or null");
    if (k == NULL)
        return -1;
    *a = NULL;
    if (strcmp(k->text, "null") == 0)
        return 0;
    struct attr_obj *o = vm_find_attr(vm, k->text);
    if (o == NULL)
        return vm_bad(vm, "unknown attributes object '%s'", k->text);
    *a = &o->attr;
    return 0;
}

/* create T ATTR|null [pid 0|self|gone|N|C] (C: a process of "fork C") */
int verb_create(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_create");
    struct tok *k = vm_need_word(vm, c, "a trace stream name");
    if (k == NULL)
        return -1;
    struct trace_obj *t = vm_new_trace(vm, k->text);
    trace_attr_t *a;
    if (t == NULL || attr_arg(vm, c, &a))
        return -1;
    pid_t pid = 0;
    if (vm_is_w(vm_peek(c), "pid")) {
        c->i++;
        struct tok *p = vm_need_word(vm, c, "a pid (0, self, gone, a number or a process)");
        if (p == NULL)
            return -1;
        if (strcmp(p->text, "gone") == 0) {
            if (!vm->dry && (pid = gone_pid()) < 0)
                return vm_fail(vm, "fork: %s", strerror(errno));
        } else if (islower((unsigned char)p->text[0])) {
            if (vm_pid_word(vm, p->text, &pid))        /* self, or a process */
                return -1;
        } else {
            long long v;
            if (vm_eval(vm, p->text, &v))
                return -1;
            pid = (pid_t)v;
        }
    }
    if (vm_no_more(vm, c))
        return -1;
    int rc = 0;
    trace_id_t id;
    memset(&id, 0, sizeof id);
    if (!vm->dry) {
        rc = posix_trace_create(pid, a, &id);
        if (rc == 0) {
            if (t->live)
                vm_pool_add(vm, t->id);            /* still shut down at the end */
            t->id = id;
            t->defined = t->live = 1;
            t->have_last = 0;
            t->res_ns = -1;
        }
    }
    return vm_expect_rc(vm, "posix_trace_create", rc);
}

/* createmany N ATTR|null -> ERRNO|0 [count VALUE...]: creates up to N
 * streams, stopping at the first failure. */
int verb_createmany(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_create");
    long long n;
    trace_attr_t *a;
    if (vm_need_expr(vm, c, "how many streams", &n) || attr_arg(vm, c, &a) || vm_no_more(vm, c))
        return -1;
    if (!vm->dry && (n < 0 || n > MAX_POOL))
        return vm_bad(vm, "createmany: %lld is not between 0 and %d", n, MAX_POOL);
    struct step *s = vm->step;
    int codes[8];
    size_t ncodes;
    if (!s->arrow || !vm_rc_set(&s->e[0], codes, &ncodes, 0))
        return vm_bad(vm, "createmany needs '-> ERRNO' (the failure expected) or '-> 0'");
    long long made = 0;
    int rc = 0;
    for (long long i = 0; !vm->dry && i < n; i++) {
        trace_id_t id;
        rc = posix_trace_create(0, a, &id);
        if (rc)
            break;
        vm_pool_add(vm, id);
        made++;
    }
    char b1[32];
    if (!vm->dry && !vm_in_set(rc, codes, ncodes)) {
        if (rc == 0)
            return vm_fail(vm, "all %lld streams were created, expected %s", n, s->e[0].text);
        return vm_fail(vm, "posix_trace_create returned %s after %lld streams, expected %s",
                    vm_errname(rc, b1, sizeof b1), made, s->e[0].text);
    }
    size_t i = 1;
    if (i < s->ne) {
        if (!vm_is_w(&s->e[i], "count"))
            return vm_bad(vm, "expected 'count' after the return code");
        i++;
        struct valspec vs = { G_NONE, 0, NULL };
        if (vm_expect_value(vm, &i, made, &vs, "the number of streams created"))
            return -1;
    }
    if (i < s->ne)
        return vm_bad(vm, "unexpected '%s'", s->e[i].text);
    return vm_annot_int(vm, "count", made, 0, G_NONE);
}

int verb_shutdownmany(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_shutdown");
    if (vm_no_more(vm, c))
        return -1;
    int rc = 0;
    for (size_t i = 0; !vm->dry && i < vm->npool; i++) {
        int r = posix_trace_shutdown(vm->pool[i]);
        if (r && !rc)
            rc = r;
    }
    vm->npool = 0;
    return vm_expect_rc(vm, "posix_trace_shutdown", rc);
}

/* start T, stop T, clear T, shutdown T */
int vm_stream_control(struct vm *vm, struct cur *c, const char *fn,
                      int (*call)(trace_id_t))
{
    vm_use_fn(vm, fn);
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL || vm_no_more(vm, c))
        return -1;
    int rc = vm->dry ? 0 : call(t->id);
    if (!vm->dry && rc == 0 && call == posix_trace_shutdown)
        t->live = 0;
    return vm_expect_rc(vm, fn, rc);
}

int verb_start(struct vm *vm, struct cur *c)
{ return vm_stream_control(vm, c, "posix_trace_start", posix_trace_start); }
int verb_stop(struct vm *vm, struct cur *c)
{ return vm_stream_control(vm, c, "posix_trace_stop", posix_trace_stop); }
int verb_clear(struct vm *vm, struct cur *c)
{ return vm_stream_control(vm, c, "posix_trace_clear", posix_trace_clear); }
int verb_shutdown(struct vm *vm, struct cur *c)
{ return vm_stream_control(vm, c, "posix_trace_shutdown", posix_trace_shutdown); }

/* getattr T A: posix_trace_get_attr into attributes object A. */
int verb_getattr(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_get_attr");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL)
        return -1;
    struct tok *k = vm_need_word(vm, c, "an attributes object");
    if (k == NULL || vm_no_more(vm, c))
        return -1;
    struct attr_obj *o = vm_new_attr(vm, k->text);
    if (o == NULL)
        return -1;
    int rc = 0;
    if (!vm->dry) {
        if (!o->inited) {
            rc = posix_trace_attr_init(&o->attr);
            if (rc)
                return vm_give(vm, VEC_UNRESOLVED, "posix_trace_attr_init failed");
            o->inited = 1;
        }
        rc = posix_trace_get_attr(t->id, &o->attr);
    }
    return vm_expect_rc(vm, "posix_trace_get_attr", rc);
}

/* status T -> RUNNING NOT_FULL NO_OVERRUN ... */
int verb_status(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_get_status");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL || vm_no_more(vm, c))
        return -1;
    struct posix_trace_status_info st;
    memset(&st, 0, sizeof st);
    int rc = vm->dry ? 0 : posix_trace_get_status(t->id, &st);
    int done;
    if (vm_expect_rc_first(vm, "posix_trace_get_status", rc, &done) || done)
        return vm->result == VEC_PASS ? 0 : -1;
    struct step *s = vm->step;
    if (!vm->dry && vm->checking) {
        /* Whatever the expectation, each member has one of its values. */
        if (vec_group_name(G_RUN, st.posix_stream_status) == NULL)
            return vm_fail(vm, "posix_stream_status %d is neither RUNNING nor SUSPENDED "
                        "(xsh211.stream-status-values)", st.posix_stream_status);
        if (vec_group_name(G_FULL, st.posix_stream_full_status) == NULL)
            return vm_fail(vm, "posix_stream_full_status %d is neither FULL nor NOT_FULL "
                        "(xsh211.full-status-values)", st.posix_stream_full_status);
        if (vec_group_name(G_OVERRUN, st.posix_stream_overrun_status) == NULL)
            return vm_fail(vm, "posix_stream_overrun_status %d is neither OVERRUN nor NO_OVERRUN "
                        "(xsh211.overrun-status-values)", st.posix_stream_overrun_status);
    }
    for (size_t i = 0; s->arrow && i < s->ne; i++) {
        const struct tok *k = &s->e[i];
        static const struct { enum vec_group g; const char *what; } groups[] = {
            { G_RUN, "posix_stream_status" }, { G_FULL, "posix_stream_full_status" },
            { G_OVERRUN, "posix_stream_overrun_status" }, { G_FLUSH, "posix_stream_flush_status" },
        };
        size_t gi;
        for (gi = 0; gi < 4; gi++)
            if (k->kind == TK_WORD && vec_group_has(groups[gi].g, k->text))
                break;
        if (gi == 4)
            return vm_bad(vm, "'%s' is not a stream status (RUNNING SUSPENDED FULL NOT_FULL "
                       "OVERRUN NO_OVERRUN FLUSHING NOT_FLUSHING)", k->text);
        long long want;
        if (vm_eval(vm, k->text, &want))
            return -1;
        if (vm->dry)
            continue;
        int got = gi == 0 ? st.posix_stream_status : gi == 1 ? st.posix_stream_full_status
                : gi == 2 ? st.posix_stream_overrun_status :
#ifdef POSIX_TRACE_NOT_FLUSHING
                st.posix_stream_flush_status;
#else
                0;
#endif
        if (got != want) {
            const char *name = vec_group_name(groups[gi].g, got);
            char num[32];
            snprintf(num, sizeof num, "%d", got);
            return vm_fail(vm, "%s is %s, expected %s", groups[gi].what, name ? name : num,
                        k->text);
        }
    }
    return 0;
}

/* ---- events -------------------------------------------------------------- */

/* open E NAME: posix_trace_eventid_open */
int verb_open(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_eventid_open");
    struct tok *k = vm_need_word(vm, c, "an event name to bind");
    if (k == NULL)
        return -1;
    if (vm_check_name(vm, k->text, "event"))
        return -1;
    struct tok *nk = vm_need(vm, c, "the event's name");
    if (nk == NULL || vm_no_more(vm, c))
        return -1;
    char *name = vm_cstring(vm, nk);
    if (name == NULL)
        return -1;
    trace_event_id_t id;
    memset(&id, 0, sizeof id);
    int rc = vm->dry ? 0 : posix_trace_eventid_open(name, &id);
    free(name);
    int done;
    if (vm_expect_rc_first(vm, "posix_trace_eventid_open", rc, &done) || done)
        return vm->result == VEC_PASS ? 0 : -1;
    struct event_obj *e = vm_new_event(vm, k->text);
    if (e == NULL)
        return -1;
    if (!vm->dry)
        e->id = id;
    if (vm->step->arrow && !(vm->step->ne == 1 && vm_is_w(&vm->step->e[0], "0")))
        return vm_bad(vm, "the expectation of open is a return code");
    long long num = 0;
#ifdef VECRUN_EXACT
    num = (long long)id;
#endif
    return vm_annot_int(vm, "value", num, 0, G_NONE);
}

/* event ID DATA: posix_trace_event */
int verb_event(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_event");
    struct tok *k = vm_need_word(vm, c, "an event");
    trace_event_id_t id;
    memset(&id, 0, sizeof id);
    if (k == NULL || vm_event_id(vm, k, &id, NULL))
        return -1;
    struct tok *d = vm_need(vm, c, "the event's data (\"text\", hex:, pattern:N, u64:, ...)");
    if (d == NULL || vm_no_more(vm, c))
        return -1;
    if (vm->step->arrow)
        return vm_bad(vm, "posix_trace_event returns nothing: no '->' here");
    struct vec_bytes b;
    if (vm_bytes_of(vm, d, &b))
        return -1;
    if (!vm->dry)
        posix_trace_event(id, b.is_null ? NULL : (b.p ? (void *)b.p : (void *)""), b.n);
    free(b.p);
    return 0;
}

/* fill T ID DATA max N -> VALUE...: records the event until the stream says
 * FULL or OVERRUN (polling posix_trace_get_status, which resets the overrun
 * status); the count includes the event that filled it. */
int verb_fill(struct vm *vm, struct cur *c)
{
    vm_use_fn(vm, "posix_trace_event");
    vm_use_fn(vm, "posix_trace_get_status");
    struct trace_obj *t = vm_trace_arg(vm, c);
    if (t == NULL)
        return -1;
    struct tok *k = vm_need_word(vm, c, "an event");
    trace_event_id_t id;
    memset(&id, 0, sizeof id);
    if (k == NULL || vm_event_id(vm, k, &id, NULL))
        return -1;
    struct tok *d = vm_need(vm, c, "the event's data");
    if (d == NULL)
        return -1;
    long long max;
    if (!vm_is_w(vm_peek(c), "max"))
        return vm_bad(vm, "fill needs 'max N' (at most N events)");
    c->i++;
    if (vm_need_expr(vm, c, "the most events to record", &max) || vm_no_more(vm, c))
        return -1;
    if (!vm->dry && (max < 1 || max > MAX_REPEAT))
        return vm_bad(vm, "max %lld is not between 1 and %lld", max, MAX_REPEAT);
    if (vm->rep_depth == MAX_REPEAT_NEST)
        return vm_bad(vm, "fill nested in repeat more than %d deep", MAX_REPEAT_NEST - 1);
    /* The data is made anew for each event, with $i its index. */
    struct vec_bytes b = { 0 };
    vm->rep_i[vm->rep_depth++] = 0;
    int brc = vm_bytes_of(vm, d, &b);
    vm->rep_depth--;
    if (brc)
        return -1;
    long long n = 0;
    int filled = 0;
    while (!vm->dry && n < max && !filled) {
        if (n > 0) {
            free(b.p);
            vm->rep_i[vm->rep_depth++] = n;
            brc = vm_bytes_of(vm, d, &b);
            vm->rep_depth--;
            if (brc)
                return -1;
        }
        posix_trace_event(id, b.is_null ? NULL : (b.p ? (void *)b.p : (void *)""), b.n);
        n++;
        struct posix_trace_status_info st;
        int rc = posix_trace_get_status(t->id, &st);
        if (rc) {
            free(b.p);
            char e[32];
            return vm_fail(vm, "posix_trace_get_status returned %s", vm_errname(rc, e, sizeof e));
        }
        filled = st.posix_stream_full_status == POSIX_TRACE_FULL ||
                 st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN;
    }
    free(b.p);
    if (!vm->dry && !filled)
        return vm_give(vm, VEC_UNRESOLVED, "the stream was neither FULL nor OVERRUN after %lld "
                    "events: raise max", n);
    struct valspec vs = { G_NONE, 0, NULL };
    if (vm_expect_value_all(vm, n, &vs, "the number of events that filled the stream"))
        return -1;
    return vm_annot_int(vm, "count", n, 0, G_NONE);
}
