/*
 * vec_exec.c -- the interpreter of golden vectors (the language is in
 * vectors/README.md): running a vector's steps, the messages and results,
 * the objects a vector names, its tokens, values, expectations and exact
 * annotations, and bless.  The steps themselves are in vec_steps_*.c.
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
#include <ctype.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vec_progress.h"
#include "vec_vm.h"

/* ---- event identifiers by name ------------------------------------------- */

struct ev_const {
    const char      *name;
    trace_event_id_t id;
};

static const struct ev_const ev_consts[] = {
    { "START", POSIX_TRACE_START },
    { "STOP", POSIX_TRACE_STOP },
    { "OVERFLOW", POSIX_TRACE_OVERFLOW },
    { "RESUME", POSIX_TRACE_RESUME },
#ifdef POSIX_TRACE_UNNAMED_USEREVENT
    { "UNNAMED_USEREVENT", POSIX_TRACE_UNNAMED_USEREVENT },
#endif
#ifdef POSIX_TRACE_UNNAMED_USER_EVENT
    { "UNNAMED_USER_EVENT", POSIX_TRACE_UNNAMED_USER_EVENT },
#endif
#if defined(POSIX_TRACE_UNNAMED_USEREVENT) && !defined(POSIX_TRACE_UNNAMED_USER_EVENT)
    { "UNNAMED_USER_EVENT", POSIX_TRACE_UNNAMED_USEREVENT },
#endif
#if defined(POSIX_TRACE_UNNAMED_USER_EVENT) && !defined(POSIX_TRACE_UNNAMED_USEREVENT)
    { "UNNAMED_USEREVENT", POSIX_TRACE_UNNAMED_USER_EVENT },
#endif
#ifdef POSIX_TRACE_ERROR
    { "ERROR", POSIX_TRACE_ERROR },
#endif
#ifdef POSIX_TRACE_FILTER
    { "FILTER", POSIX_TRACE_FILTER },
#endif
#ifdef POSIX_TRACE_FLUSH_START
    { "FLUSH_START", POSIX_TRACE_FLUSH_START },
#endif
#ifdef POSIX_TRACE_FLUSH_STOP
    { "FLUSH_STOP", POSIX_TRACE_FLUSH_STOP },
#endif
};
#define N_EV_CONSTS (sizeof ev_consts / sizeof ev_consts[0])

/* Event constants a vector may name, defined or not by this <trace.h>. */
static const char *const ev_const_names[] = {
    "START", "STOP", "OVERFLOW", "RESUME", "UNNAMED_USEREVENT", "UNNAMED_USER_EVENT",
    "ERROR", "FILTER", "FLUSH_START", "FLUSH_STOP", NULL
};

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
static void step_text(const struct vm *vm, const struct step *s, char *buf, size_t size)
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
    step_text(vm, vm->step, text, sizeof text);
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

/* ---- names and objects --------------------------------------------------- */

static int valid_name(const char *s)
{
    if (!(islower((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    size_t n = 0;
    for (; s[n]; n++)
        if (!isalnum((unsigned char)s[n]) && s[n] != '_')
            return 0;
    return n < NAME_LEN;
}

int vm_check_name(struct vm *vm, const char *s, const char *what)
{
    if (!valid_name(s))
        return vm_bad(vm, "'%s' is not a valid %s name (lower case letter, then letters, "
                   "digits, '_'; at most %d characters)", s, what, NAME_LEN - 1);
    return 0;
}

struct attr_obj *vm_find_attr(struct vm *vm, const char *name)
{
    for (size_t i = 0; i < vm->nattrs; i++)
        if (strcmp(vm->attrs[i].name, name) == 0)
            return &vm->attrs[i];
    return NULL;
}

struct attr_obj *vm_new_attr(struct vm *vm, const char *name)
{
    struct attr_obj *a = vm_find_attr(vm, name);
    if (a)
        return a;
    if (vm_check_name(vm, name, "attributes object"))
        return NULL;
    if (vm->nattrs == MAX_OBJS) {
        vm_bad(vm, "more than %d attributes objects", MAX_OBJS);
        return NULL;
    }
    a = &vm->attrs[vm->nattrs++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    return a;
}

struct trace_obj *vm_find_trace(struct vm *vm, const char *name)
{
    for (size_t i = 0; i < vm->ntraces; i++)
        if (strcmp(vm->traces[i].name, name) == 0)
            return &vm->traces[i];
    return NULL;
}

struct trace_obj *vm_new_trace(struct vm *vm, const char *name)
{
    struct trace_obj *t = vm_find_trace(vm, name);
    if (t)
        return t;
    if (vm_check_name(vm, name, "trace stream"))
        return NULL;
    if (vm->ntraces == MAX_OBJS) {
        vm_bad(vm, "more than %d trace streams", MAX_OBJS);
        return NULL;
    }
    t = &vm->traces[vm->ntraces++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->res_ns = -1;
    return t;
}

static struct event_obj *find_event(struct vm *vm, const char *name)
{
    for (size_t i = 0; i < vm->nevents; i++)
        if (strcmp(vm->events[i].name, name) == 0)
            return &vm->events[i];
    return NULL;
}

struct event_obj *vm_new_event(struct vm *vm, const char *name)
{
    struct event_obj *e = find_event(vm, name);
    if (e)
        return e;
    if (vm_check_name(vm, name, "event"))
        return NULL;
    if (vm->nevents == MAX_OBJS) {
        vm_bad(vm, "more than %d event names", MAX_OBJS);
        return NULL;
    }
    e = &vm->events[vm->nevents++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    return e;
}

int vm_set_int(struct vm *vm, const char *dollar_name, long long v)
{
    const char *name = dollar_name + 1;
    if (dollar_name[0] != '$' || !valid_name(name))
        return vm_bad(vm, "'%s' is not a variable ($ then a lower case name)", dollar_name);
    if (strcmp(name, "i") == 0)
        return vm_bad(vm, "$i is the repeat counter: it cannot be set");
    for (size_t i = 0; i < vm->nints; i++)
        if (strcmp(vm->ints[i].name, name) == 0) {
            vm->ints[i].v = v;
            return 0;
        }
    if (vm->nints == MAX_OBJS)
        return vm_bad(vm, "more than %d variables", MAX_OBJS);
    snprintf(vm->ints[vm->nints].name, NAME_LEN, "%s", name);
    vm->ints[vm->nints++].v = v;
    return 0;
}

void vm_pool_add(struct vm *vm, trace_id_t id)
{
    if (vm->npool == vm->cappool) {
        vm->cappool = vm->cappool ? 2 * vm->cappool : 16;
        vm->pool = vec_xrealloc(vm->pool, vm->cappool * sizeof *vm->pool);
    }
    vm->pool[vm->npool++] = id;
}

/* The limits of <limits.h>/<trace.h>, or sysconf() where the header leaves
 * them indeterminate. */
static int limit_value(const char *name, long long *v)
{
    long r = -1;
    if (strcmp(name, "TRACE_EVENT_NAME_MAX") == 0) {
#if defined(TRACE_EVENT_NAME_MAX)
        r = TRACE_EVENT_NAME_MAX;
#elif defined(_SC_TRACE_EVENT_NAME_MAX)
        r = sysconf(_SC_TRACE_EVENT_NAME_MAX);
#endif
    } else if (strcmp(name, "TRACE_NAME_MAX") == 0) {
#if defined(TRACE_NAME_MAX)
        r = TRACE_NAME_MAX;
#elif defined(_SC_TRACE_NAME_MAX)
        r = sysconf(_SC_TRACE_NAME_MAX);
#endif
    } else if (strcmp(name, "TRACE_SYS_MAX") == 0) {
#if defined(TRACE_SYS_MAX)
        r = TRACE_SYS_MAX;
#elif defined(_SC_TRACE_SYS_MAX)
        r = sysconf(_SC_TRACE_SYS_MAX);
#endif
    } else if (strcmp(name, "TRACE_USER_EVENT_MAX") == 0) {
#if defined(TRACE_USER_EVENT_MAX)
        r = TRACE_USER_EVENT_MAX;
#elif defined(_SC_TRACE_USER_EVENT_MAX)
        r = sysconf(_SC_TRACE_USER_EVENT_MAX);
#endif
    } else {
        return -1;
    }
    if (r <= 0)
        return -2;
    *v = r;
    return 0;
}

static int limit_missing;           /* a limit was indeterminate: UNTESTED */

static int lookup(void *ctx, const char *name, long long *val, char *err, size_t size)
{
    struct vm *vm = ctx;
    if (strcmp(name, "i") == 0) {
        if (vm->rep_depth == 0) {
            snprintf(err, size, "$i is only defined inside repeat");
            return -1;
        }
        *val = vm->rep_i[vm->rep_depth - 1];
        return 0;
    }
    for (size_t i = 0; i < vm->nints; i++)
        if (strcmp(vm->ints[i].name, name) == 0) {
            *val = vm->ints[i].v;
            return 0;
        }
    int rc = limit_value(name, val);
    if (rc == 0)
        return 0;
    if (rc == -2) {
        if (vm->dry) {
            *val = 0;
            return 0;
        }
        limit_missing = 1;
        snprintf(err, size, "{%s} is indeterminate on this implementation", name);
        return -1;
    }
    snprintf(err, size, "unknown variable $%s (set it with '-> $%s', let or now)", name, name);
    return -1;
}

static int eval_error(struct vm *vm, const struct vec_eval *ev)
{
    if (ev->missing)
        return vm_give(vm, VEC_UNSUPPORTED, "%s", ev->err);
    if (limit_missing)
        return vm_give(vm, VEC_UNTESTED, "%s", ev->err);
    return vm_bad(vm, "%s", ev->err);
}

int vm_eval(struct vm *vm, const char *text, long long *out)
{
    struct vec_eval ev = { lookup, vm, vm->dry, 0, "" };
    if (vec_expr(&ev, text, out))
        return eval_error(vm, &ev);
    return 0;
}

int vm_bytes_of(struct vm *vm, const struct tok *k, struct vec_bytes *b)
{
    struct vec_eval ev = { lookup, vm, vm->dry, 0, "" };
    if (vec_bytes(&ev, k, b))
        return eval_error(vm, &ev);
    return 0;
}

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

static int is_capture(const struct tok *k)
{
    return k->kind == TK_WORD && k->text[0] == '$' && valid_name(k->text + 1);
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
        if (!is_capture(&s->e[i]))
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
        vec_progress_call(fn, vm->v->path, vm->step->line);   /* for the runner */
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
    if (!(s->ne == 1 || (s->ne == 2 && is_capture(&s->e[1]))) ||
        !vm_rc_set(&s->e[0], codes, &n, 0))
        return vm_bad(vm, "the expectation of %s is a return code: 0, an errno name, or "
                   "alternatives like 0|EINVAL (then $var may keep it)", fn);
    if (s->ne == 2 && vm_set_int(vm, s->e[1].text, rc))
        return -1;
    if (!vm->dry && !vm_in_set(rc, codes, n))
        return vm_fail(vm, "%s returned %s, expected %s", fn, vm_errname(rc, b1, sizeof b1),
                    s->e[0].text);
    return 0;
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
        if (!(s->ne == 1 || (s->ne == 2 && is_capture(&s->e[1]))))
            return vm_bad(vm, "only a $var (keeping it) may follow a return code");
        if (s->ne == 2 && vm_set_int(vm, s->e[1].text, rc))
            return -1;
        if (!vm->dry && !vm_in_set(rc, codes, n))
            return vm_fail(vm, "%s returned %s, expected %s", fn, vm_errname(rc, b1, sizeof b1),
                        s->e[0].text);
        return 0;
    }
    if (!vm->dry && rc != 0) {
        *done = 1;
        return vm_fail(vm, "%s returned %s, expected success", fn, vm_errname(rc, b1, sizeof b1));
    }
    return 0;
}

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
static int annot_str(struct vm *vm, const char *key, const char *got)
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

/* ---- event identifiers --------------------------------------------------- */

static int id_same(trace_event_id_t a, trace_event_id_t b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* A name for an event id, for messages. */
const char *vm_id_text(struct vm *vm, trace_event_id_t id, char *buf, size_t size)
{
    for (size_t i = 0; i < N_EV_CONSTS; i++)
        if (id_same(ev_consts[i].id, id))
            return ev_consts[i].name;
    for (size_t i = 0; i < vm->nevents; i++)
        if (id_same(vm->events[i].id, id))
            return vm->events[i].name;
    unsigned long long x = 0;
    memcpy(&x, &id, sizeof id < sizeof x ? sizeof id : sizeof x);
    snprintf(buf, size, "id %llu", x);
    return buf;
}

/* An event id named by a vector: a constant (START, ...) or an event opened
 * with "open".  any_ok: the word "any" gives *any = 1. */
int vm_event_id(struct vm *vm, const struct tok *k, trace_event_id_t *id, int *any)
{
    if (any)
        *any = 0;
    if (k->kind != TK_WORD)
        return vm_bad(vm, "expected an event, not a string");
    if (any && strcmp(k->text, "any") == 0) {
        *any = 1;
        return 0;
    }
    if (strncmp(k->text, "id:", 3) == 0) {
        /* A raw identifier: the reference's numbering, exact steps only. */
        long long v;
        if (!vm->step->exact)
            return vm_bad(vm, "'%s': raw identifiers belong to exact: steps", k->text);
        if (vm_eval(vm, k->text + 3, &v))
            return -1;
#ifdef VECRUN_EXACT
        *id = (trace_event_id_t)v;
#endif
        return 0;
    }
    for (size_t i = 0; i < N_EV_CONSTS; i++)
        if (strcmp(ev_consts[i].name, k->text) == 0) {
            *id = ev_consts[i].id;
            return 0;
        }
    for (size_t i = 0; ev_const_names[i]; i++)
        if (strcmp(ev_const_names[i], k->text) == 0) {
            if (vm->dry)
                return 0;
            return vm_give(vm, VEC_UNSUPPORTED, "POSIX_TRACE_%s is not defined by this <trace.h>",
                        k->text);
        }
    struct event_obj *e = find_event(vm, k->text);
    if (e == NULL)
        return vm_bad(vm, "unknown event '%s' (a constant like START, or a name given to open)",
                   k->text);
    *id = e->id;
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
    return strcmp(k->text, "any") == 0 || strcmp(k->text, "oneof") == 0 || is_capture(k) ||
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
        if (is_capture(k)) {
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
                struct vec_eval ev = { lookup, vm, vm->dry, 0, "" };
                if (vec_expr(&ev, p, &v) == 0)
                    found |= v == got;
                else if (!ev.missing)
                    rc = eval_error(vm, &ev);
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
static int expect_string(struct vm *vm, const char *got, const char *what)
{
    struct step *s = vm->step;
    if (!s->arrow)
        return 0;
    if (s->ne == 1 && vm_is_w(&s->e[0], "any"))
        return 0;
    if (s->ne == 1 && is_capture(&s->e[0])) {
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
    if (s->ne == 2 && vm_is_w(&s->e[0], "==") && is_capture(&s->e[1])) {
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
    if (limit_value(limit, &v) == 0 && v > 0 && v < STR_BUF)
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
    if (expect_string(vm, buf, what))
        return -1;
    return annot_str(vm, "value", buf);
}

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
    step_text(vm, s, text, sizeof text);
    if (alarm_label)
        snprintf(alarm_text, sizeof alarm_text,
                 "%-50s UNRESOLVED %s:%d: '%s': timed out (the step hung)\n",
                 alarm_label, vm->v->path, s->line, text);
    else
        snprintf(alarm_text, sizeof alarm_text,
                 "\nRESULT UNRESOLVED %s:%d: '%s': timed out (the step hung)\n",
                 vm->v->path, s->line, text);
}

struct vm *vm_new(struct vector *v, int dry, const struct vec_opts *o, struct vec_info *in)
{
    struct vm *vm = vec_xmalloc(sizeof *vm);
    memset(vm, 0, sizeof *vm);
    vm->v = v;
    vm->dry = dry;
    vm->exact = vec_exact_build();
    vm->bless = o && o->bless;
    vm->info = in;
    vm->result = VEC_PASS;
    vm->main_thread = pthread_self();
    vm->block_from = SIZE_MAX;
    return vm;
}

/* A copy of the dry interpreter, for a child of "fork" (the real run has
 * fork itself make the copy).  The copy owns its strings and buffers; the
 * children of vm stay vm's: the copy knows only their names. */
struct vm *vm_clone(const struct vm *vm)
{
    struct vm *c = vec_xmalloc(sizeof *c);
    memcpy(c, vm, sizeof *c);
    for (size_t i = 0; i < c->nstrs; i++)
        c->strs[i].v = vec_xstrndup(vm->strs[i].v, strlen(vm->strs[i].v));
    for (size_t i = 0; i < c->nbgs; i++) {
        c->bgs[i].req.buf = NULL;
        c->bgs[i].data.p = NULL;
        if (vm->bgs[i].data.p) {
            c->bgs[i].data.p = vec_xmalloc(vm->bgs[i].data.n);
            memcpy(c->bgs[i].data.p, vm->bgs[i].data.p, vm->bgs[i].data.n);
        }
    }
    c->pool = NULL;
    c->npool = c->cappool = 0;
    c->rule_ran = NULL;             /* the dry pass counts no rules */
    if (vm->npool) {
        c->pool = vec_xmalloc(vm->npool * sizeof *c->pool);
        memcpy(c->pool, vm->pool, vm->npool * sizeof *c->pool);
        c->npool = c->cappool = vm->npool;
    }
    for (size_t i = 0; i < c->nchildren; i++) {
        c->children[i].dry = NULL;
        c->children[i].alive = 0;
        c->children[i].to = c->children[i].from = -1;
    }
    return c;
}

/* Runs the step s from its token tok on (the tokens before it are the
 * prefix "in C" the vector's own process has dealt with). */
int vm_run_from(struct vm *vm, struct step *s, size_t tok)
{
    vm->step = s;
    vm->checking = vm_step_checking(s);
    struct cur c = { s, tok };
    return vm_run_verb(vm, &c);
}

/* Shuts down what the vector left running, joins its threads, ends its
 * processes, frees. */
void vm_free(struct vm *vm)
{
    vm_children_end(vm);
    for (size_t i = 0; i < vm->nchildren; i++)
        if (vm->children[i].dry)
            vm_free(vm->children[i].dry);
    if (!vm->dry) {
        for (size_t i = 0; i < vm->ntraces; i++)
            if (vm->traces[i].live)
                posix_trace_shutdown(vm->traces[i].id);
        for (size_t i = 0; i < vm->npool; i++)
            posix_trace_shutdown(vm->pool[i]);
        for (size_t i = 0; i < vm->nbgs; i++)
            if (vm->bgs[i].started && !vm->bgs[i].joined)
                pthread_join(vm->bgs[i].th, NULL);
        for (size_t i = 0; i < vm->nattrs; i++)
            if (vm->attrs[i].inited)
                posix_trace_attr_destroy(&vm->attrs[i].attr);
    }
    for (size_t i = 0; i < vm->nbgs; i++) {
        free(vm->bgs[i].req.buf);
        free(vm->bgs[i].data.p);
    }
    for (size_t i = 0; i < vm->nstrs; i++)
        free(vm->strs[i].v);
    free(vm->pool);
    free(vm->rule_ran);
    free(vm);
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
    limit_missing = 0;
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

/* ---- bless --------------------------------------------------------------- */

char *vec_blessed_text(const struct vector *v, char *msg, size_t size)
{
    size_t cap = 1, len = 0;
    for (size_t i = 0; i < v->nlines; i++)
        cap += strlen(v->lines[i]) + 1;
    for (size_t i = 0; i < v->nsteps; i++)
        for (size_t j = 0; j < v->steps[i].na; j++) {
            const struct annot *a = &v->steps[i].a[j];
            if (a->actual == NULL) {
                snprintf(msg, size, "%s:%d: @%s was not reached: nothing to bless", v->path,
                         v->steps[i].line, a->key);
                return NULL;
            }
            cap += strlen(a->actual);
        }
    char *out = vec_xmalloc(cap);
    size_t si = 0;
    for (size_t li = 0; li < v->nlines; li++) {
        const char *line = v->lines[li];
        size_t pos = 0;
        while (si < v->nsteps && v->steps[si].line < (int)li + 1)
            si++;
        if (si < v->nsteps && v->steps[si].line == (int)li + 1) {
            const struct step *s = &v->steps[si];
            /* Replace each annotation's value, left to right. */
            for (;;) {
                const struct annot *next = NULL;
                for (size_t j = 0; j < s->na; j++)
                    if (s->a[j].val.off >= pos && (next == NULL || s->a[j].val.off < next->val.off))
                        next = &s->a[j];
                if (next == NULL)
                    break;
                memcpy(out + len, line + pos, next->val.off - pos);
                len += next->val.off - pos;
                memcpy(out + len, next->actual, strlen(next->actual));
                len += strlen(next->actual);
                pos = next->val.off + next->val.len;
            }
        }
        size_t rest = strlen(line + pos);
        memcpy(out + len, line + pos, rest);
        len += rest;
        out[len++] = '\n';
    }
    out[len] = '\0';
    return out;
}
