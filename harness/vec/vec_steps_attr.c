/* SPDX-License-Identifier: MIT */
/*
 * vec_steps_attr.c -- the "attr" step: trace attributes objects, every getter
 * and setter of TRC (and of TRL and TRI where the header has them), and the
 * reference's simulated clock (vectors/README.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef VECRUN_EXACT
#include <posixtrace_sim.h>
#endif
#include "vec_vm.h"

/* ---- attr ---------------------------------------------------------------- */

/* The TRL and TRI attribute functions need be declared only where the header
 * says the option may be supported (XBD <unistd.h>: the option's macro
 * defined and not -1; as conformance/tests/ct.h's CT_HAVE_TRL): elsewhere
 * vecrun compiles without them, and a step that needs one is UNSUPPORTED
 * (absent_option()). */
#if defined(_POSIX_TRACE_LOG) && _POSIX_TRACE_LOG != -1
#define IF_TRL(call) (call)
#define VEC_HAVE_TRL 1
#else
#define IF_TRL(call) ENOSYS
#define VEC_HAVE_TRL 0
#endif
#if defined(_POSIX_TRACE_INHERIT) && _POSIX_TRACE_INHERIT != -1
#define IF_TRI(call) (call)
#define VEC_HAVE_TRI 1
#else
#define IF_TRI(call) ENOSYS
#define VEC_HAVE_TRI 0
#endif

enum ftype { F_STR, F_SIZE, F_SIZE_ARG, F_INT, F_TS, F_SIM, F_SIMORIGIN };

struct field {
    const char    *name;
    enum ftype     type;
    enum vec_group g;
    const char    *setter, *getter;
};

static const struct field fields[] = {
    { "name", F_STR, G_NONE, "posix_trace_attr_setname", "posix_trace_attr_getname" },
    { "genversion", F_STR, G_NONE, NULL, "posix_trace_attr_getgenversion" },
    { "clockres", F_TS, G_NONE, NULL, "posix_trace_attr_getclockres" },
    { "createtime", F_TS, G_NONE, NULL, "posix_trace_attr_getcreatetime" },
    { "streamsize", F_SIZE, G_NONE, "posix_trace_attr_setstreamsize",
      "posix_trace_attr_getstreamsize" },
    { "maxdatasize", F_SIZE, G_NONE, "posix_trace_attr_setmaxdatasize",
      "posix_trace_attr_getmaxdatasize" },
    { "logsize", F_SIZE, G_NONE, "posix_trace_attr_setlogsize", "posix_trace_attr_getlogsize" },
    { "maxsystemeventsize", F_SIZE, G_NONE, NULL, "posix_trace_attr_getmaxsystemeventsize" },
    { "maxusereventsize", F_SIZE_ARG, G_NONE, NULL, "posix_trace_attr_getmaxusereventsize" },
    { "policy", F_INT, G_POLICY, "posix_trace_attr_setstreamfullpolicy",
      "posix_trace_attr_getstreamfullpolicy" },
    { "logpolicy", F_INT, G_LOGPOLICY, "posix_trace_attr_setlogfullpolicy",
      "posix_trace_attr_getlogfullpolicy" },
    { "inherited", F_INT, G_INHERIT, "posix_trace_attr_setinherited",
      "posix_trace_attr_getinherited" },
    { "simclock", F_SIM, G_NONE, NULL, NULL },
    { "simorigin", F_SIMORIGIN, G_NONE, NULL, NULL },
};

static const struct field *find_field(const char *name)
{
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i].name, name) == 0)
            return &fields[i];
    return NULL;
}

/* The option of field f that this build of vecrun lacks, or NULL. */
static const char *absent_option(const struct field *f)
{
    if (!VEC_HAVE_TRL && (strcmp(f->name, "logsize") == 0 || strcmp(f->name, "logpolicy") == 0))
        return "TRL (_POSIX_TRACE_LOG)";
    if (!VEC_HAVE_TRI && strcmp(f->name, "inherited") == 0)
        return "TRI (_POSIX_TRACE_INHERIT)";
    return NULL;
}

static int unsupported(struct vm *vm, const struct field *f, const char *fn)
{
    return vm_give(vm, VEC_UNSUPPORTED, "%s: option %s is -1 or undefined in this <trace.h>",
                   fn, absent_option(f));
}

static int attr_set(struct vm *vm, struct cur *c, trace_attr_t *a, const struct field *f)
{
    int rc = 0;
    if (f->type == F_SIM) {
        /* attr A set simclock SECONDS.NANOS step NS (the reference only) */
        long long start, step = 0;
        if (vm_need_expr(vm, c, "the start time of the simulated clock", &start))
            return -1;
        struct tok *k = vm_peek(c);
        if (vm_is_w(k, "step")) {
            c->i++;
            if (vm_need_expr(vm, c, "the step in ns", &step))
                return -1;
        }
        if (vm_no_more(vm, c))
            return -1;
        if (vm->dry || !vm->exact)
            return vm->dry ? vm_expect_rc(vm, "posixtrace_attr_setsimclock", 0) : 0;
#ifdef VECRUN_EXACT
        struct timespec ts = { (time_t)(start / 1000000000LL), (long)(start % 1000000000LL) };
        rc = posixtrace_attr_setsimclock(a, &ts, (long)step);
#endif
        return vm_expect_rc(vm, "posixtrace_attr_setsimclock", rc);
    }
    if (f->type == F_SIMORIGIN) {
        /* attr A set simorigin PID (the reference only): the processes that
         * record into the stream get PID, PID+1, ... in the order they first
         * record, and their threads 1, 2, ... */
        long long pid;
        if (vm_need_expr(vm, c, "the first simulated pid", &pid) || vm_no_more(vm, c))
            return -1;
        if (!vm->dry && (pid < 0 || pid > INT_MAX))
            return vm_bad(vm, "simorigin %lld is not a pid", pid);
        if (vm->dry || !vm->exact)
            return vm->dry ? vm_expect_rc(vm, "posixtrace_attr_setsimorigin", 0) : 0;
#ifdef VECRUN_EXACT
        rc = posixtrace_attr_setsimorigin(a, (pid_t)pid);
#endif
        return vm_expect_rc(vm, "posixtrace_attr_setsimorigin", rc);
    }
    if (f->setter == NULL)
        return vm_bad(vm, "%s is read-only", f->name);
    vm_use_fn(vm, f->setter);
    struct tok *k = vm_need(vm, c, "a value");
    if (k == NULL)
        return -1;
    if (f->type == F_STR) {
        char *s = vm_cstring(vm, k);
        if (s == NULL)
            return -1;
        if (vm_no_more(vm, c)) {
            free(s);
            return -1;
        }
        if (!vm->dry)
            rc = posix_trace_attr_setname(a, s);
        free(s);
    } else {
        long long v;
        if (k->kind != TK_WORD)
            return vm_bad(vm, "%s takes a number", f->name);
        if (f->type == F_INT && !vec_is_expr(k->text))
            return vm_bad(vm, "'%s' is not a value of %s", k->text, f->name);
        if (vm_eval(vm, k->text, &v) || vm_no_more(vm, c))
            return -1;
        /* A negative size converts to a huge size_t: -1 is SIZE_MAX. */
        if (!vm->dry && absent_option(f))
            return unsupported(vm, f, f->setter);
        if (!vm->dry) {
            if (strcmp(f->name, "streamsize") == 0)
                rc = posix_trace_attr_setstreamsize(a, (size_t)v);
            else if (strcmp(f->name, "maxdatasize") == 0)
                rc = posix_trace_attr_setmaxdatasize(a, (size_t)v);
            else if (strcmp(f->name, "logsize") == 0)
                rc = IF_TRL(posix_trace_attr_setlogsize(a, (size_t)v));
            else if (strcmp(f->name, "policy") == 0)
                rc = posix_trace_attr_setstreamfullpolicy(a, (int)v);
            else if (strcmp(f->name, "logpolicy") == 0)
                rc = IF_TRL(posix_trace_attr_setlogfullpolicy(a, (int)v));
            else
                rc = IF_TRI(posix_trace_attr_setinherited(a, (int)v));
        }
    }
    return vm_expect_rc(vm, f->setter, rc);
}

static int attr_get(struct vm *vm, struct cur *c, const trace_attr_t *a, const struct field *f)
{
    if (f->getter == NULL)
        return vm_bad(vm, "%s cannot be read here", f->name);
    vm_use_fn(vm, f->getter);
    long long arg = 0;
    if (f->type == F_SIZE_ARG) {
        if (vm_need_expr(vm, c, "the data length", &arg))
            return -1;
        if (arg < 0)
            return vm_bad(vm, "a length cannot be negative");
    }
    if (vm_no_more(vm, c))
        return -1;
    int rc = 0, done;
    if (f->type == F_STR) {
        /* The {TRACE_NAME_MAX} bytes a caller may pass (S0012, S0014: "a character
         * array which can store at least {TRACE_NAME_MAX} characters"; ruling 10). */
        int is_name = strcmp(f->name, "name") == 0;
        const char *rule = is_name ? "attr_getname.fits-name-max"
                                   : "attr_getgenversion.fits-name-max";
        size_t n = vm_name_buffer_size(vm, "TRACE_NAME_MAX", 0, rule);
        char *buf = (char *)vm_guarded(n);
        if (!vm->dry)
            rc = is_name ? posix_trace_attr_getname(a, buf)
                         : posix_trace_attr_getgenversion(a, buf);
        if (vm_expect_rc_first(vm, f->getter, rc, &done) == 0 && !done)
            vm_name_result(vm, f->getter, f->name, buf, n,
                           is_name ? "{TRACE_NAME_MAX} (S0014)" : "{TRACE_NAME_MAX} (S0012)",
                           rule);
        free(buf);
        return vm->result == VEC_PASS ? 0 : -1;
    }
    long long v = 0;
    if (!vm->dry && absent_option(f))
        return unsupported(vm, f, f->getter);
    if (!vm->dry) {
        size_t sz = 0;
        int iv = 0;
        struct timespec ts = { 0, 0 };
        if (strcmp(f->name, "clockres") == 0)
            rc = posix_trace_attr_getclockres(a, &ts);
        else if (strcmp(f->name, "createtime") == 0)
            rc = posix_trace_attr_getcreatetime(a, &ts);
        else if (strcmp(f->name, "streamsize") == 0)
            rc = posix_trace_attr_getstreamsize(a, &sz);
        else if (strcmp(f->name, "maxdatasize") == 0)
            rc = posix_trace_attr_getmaxdatasize(a, &sz);
        else if (strcmp(f->name, "logsize") == 0)
            rc = IF_TRL(posix_trace_attr_getlogsize(a, &sz));
        else if (strcmp(f->name, "maxsystemeventsize") == 0)
            rc = posix_trace_attr_getmaxsystemeventsize(a, &sz);
        else if (strcmp(f->name, "maxusereventsize") == 0)
            rc = posix_trace_attr_getmaxusereventsize(a, (size_t)arg, &sz);
        else if (strcmp(f->name, "policy") == 0)
            rc = posix_trace_attr_getstreamfullpolicy(a, &iv);
        else if (strcmp(f->name, "logpolicy") == 0)
            rc = IF_TRL(posix_trace_attr_getlogfullpolicy(a, &iv));
        else
            rc = IF_TRI(posix_trace_attr_getinherited(a, &iv));
        if (f->type == F_TS)
            v = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
        else if (f->type == F_INT)
            v = iv;
        else
            v = sz > (size_t)LLONG_MAX ? LLONG_MAX : (long long)sz;
    }
    if (vm_expect_rc_first(vm, f->getter, rc, &done) || done)
        return vm->result == VEC_PASS ? 0 : -1;
    struct valspec vs = { f->g, f->type == F_TS, NULL };
    if (vm_expect_value_all(vm, v, &vs, f->name))
        return -1;
    return vm_annot_int(vm, "value", v, f->type == F_TS, f->g);
}

/* attr A [init] | attr A destroy | attr A set FIELD VALUE | attr A get FIELD [ARG] */
int verb_attr(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need_word(vm, c, "an attributes object");
    if (k == NULL)
        return -1;
    struct attr_obj *o = NULL;
    trace_attr_t *a = NULL;
    if (strcmp(k->text, "null") != 0) {
        o = vm_new_attr(vm, k->text);
        if (o == NULL)
            return -1;
        a = &o->attr;
    }
    struct tok *op = vm_peek(c);
    if (op == NULL || vm_is_w(op, "init")) {
        c->i += op != NULL;
        vm_use_fn(vm, "posix_trace_attr_init");
        if (vm_no_more(vm, c))
            return -1;
        int rc = 0;
        if (!vm->dry) {
            if (o && o->inited)
                posix_trace_attr_destroy(a);    /* re-init: destroy first (UB otherwise) */
            rc = posix_trace_attr_init(a);
            if (o)
                o->inited = rc == 0;
        }
        return vm_expect_rc(vm, "posix_trace_attr_init", rc);
    }
    c->i++;
    if (o && !vm->dry && !o->inited && !vm->step->exact)
        return vm_bad(vm, "attributes object %s is not initialised (attr %s)", o->name, o->name);
    if (vm_is_w(op, "destroy")) {
        vm_use_fn(vm, "posix_trace_attr_destroy");
        if (vm_no_more(vm, c))
            return -1;
        int rc = 0;
        if (!vm->dry) {
            rc = posix_trace_attr_destroy(a);
            if (o && rc == 0)
                o->inited = 0;
        }
        return vm_expect_rc(vm, "posix_trace_attr_destroy", rc);
    }
    if (!vm_is_w(op, "set") && !vm_is_w(op, "get"))
        return vm_bad(vm, "attr %s: expected init, destroy, set or get, not '%s'", k->text,
                   op->kind == TK_STRING ? "\"...\"" : op->text);
    struct tok *fk = vm_need_word(vm, c, "an attribute");
    if (fk == NULL)
        return -1;
    const struct field *f = find_field(fk->text);
    if (f == NULL)
        return vm_bad(vm, "unknown attribute '%s' (name, genversion, clockres, createtime, "
                   "streamsize, maxdatasize, logsize, maxsystemeventsize, maxusereventsize, "
                   "policy, logpolicy, inherited, simclock, simorigin)", fk->text);
    return vm_is_w(op, "set") ? attr_set(vm, c, a, f) : attr_get(vm, c, a, f);
}
