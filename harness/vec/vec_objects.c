/* SPDX-License-Identifier: MIT */
/*
 * vec_objects.c -- the objects a vector names (attributes objects, trace
 * streams, event names, variables, the pool of createmany): their names,
 * found or made.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "vec_vm.h"

/* ---- names and objects --------------------------------------------------- */

int vm_valid_name(const char *s)
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
    if (!vm_valid_name(s))
        return vm_bad(vm, "'%s' is not a valid %s name (lower case letter, then letters, "
                   "digits, '_'; at most %d characters)", s, what, NAME_LEN - 1);
    return 0;
}

/* The object called name among n objects of size bytes each, whose first
 * member is their name (struct attr_obj, trace_obj, event_obj, child_obj). */
void *vm_find_named(void *objs, size_t n, size_t size, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        char *o = (char *)objs + i * size;
        if (strcmp(o, name) == 0)
            return o;
    }
    return NULL;
}

/* The object called name, or a new one zeroed with that name (*n grows);
 * NULL, reported, if the name is bad or there are MAX_OBJS already.  what:
 * the kind in messages; plural: "more than MAX_OBJS <plural>". */
static void *find_or_add(struct vm *vm, void *objs, size_t *n, size_t size, const char *name,
                         const char *what, const char *plural)
{
    char *o = vm_find_named(objs, *n, size, name);
    if (o)
        return o;
    if (vm_check_name(vm, name, what))
        return NULL;
    if (*n == MAX_OBJS) {
        vm_bad(vm, "more than %d %s", MAX_OBJS, plural);
        return NULL;
    }
    o = (char *)objs + (*n)++ * size;
    memset(o, 0, size);
    snprintf(o, NAME_LEN, "%s", name);
    return o;
}

struct attr_obj *vm_find_attr(struct vm *vm, const char *name)
{
    return vm_find_named(vm->attrs, vm->nattrs, sizeof vm->attrs[0], name);
}

struct attr_obj *vm_new_attr(struct vm *vm, const char *name)
{
    return find_or_add(vm, vm->attrs, &vm->nattrs, sizeof vm->attrs[0], name,
                       "attributes object", "attributes objects");
}

struct trace_obj *vm_find_trace(struct vm *vm, const char *name)
{
    return vm_find_named(vm->traces, vm->ntraces, sizeof vm->traces[0], name);
}

struct trace_obj *vm_new_trace(struct vm *vm, const char *name)
{
    struct trace_obj *t = vm_find_trace(vm, name);
    if (t)
        return t;
    t = find_or_add(vm, vm->traces, &vm->ntraces, sizeof vm->traces[0], name, "trace stream",
                    "trace streams");
    if (t)
        t->res_ns = -1;             /* the clock resolution is not asked yet */
    return t;
}

struct event_obj *vm_find_event(struct vm *vm, const char *name)
{
    return vm_find_named(vm->events, vm->nevents, sizeof vm->events[0], name);
}

struct event_obj *vm_new_event(struct vm *vm, const char *name)
{
    return find_or_add(vm, vm->events, &vm->nevents, sizeof vm->events[0], name, "event",
                       "event names");
}

int vm_set_int(struct vm *vm, const char *dollar_name, long long v)
{
    const char *name = dollar_name + 1;
    if (dollar_name[0] != '$' || !vm_valid_name(name))
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
