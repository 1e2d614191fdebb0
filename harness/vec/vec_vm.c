/* SPDX-License-Identifier: MIT */
/*
 * vec_vm.c -- the interpreter's state (struct vm, vec_vm.h): made, copied
 * for a process of "fork" in the dry pass, run from a token of a step,
 * and freed with what the vector left running.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "vec_vm.h"

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
