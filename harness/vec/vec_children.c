/* SPDX-License-Identifier: MIT */
/*
 * vec_children.c -- the processes of "fork C" (vec_steps_process.c) as the
 * rest of the interpreter knows them: found by name, their pids as words
 * (self, 0, C), what the alarm of --timeout kills, how one is reaped and how
 * every one still running is ended at the end of the vector.  What a process
 * is told and answers is vec_steps_process.c's; this file never runs a step.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "vec_vm.h"

#define END_GRACE_MS 10000          /* a process told to end has this long */

static pid_t kill_list[MAX_CHILDREN];   /* what the alarm kills: the live processes */

/* ch has been forked: the alarm kills it from now on. */
void vm_child_started(struct vm *vm, const struct child_obj *ch)
{
    kill_list[ch - vm->children] = ch->pid;
}

/* In a process of fork: the processes it was forked beside are not its to kill. */
void vm_child_forget_all(void)
{
    memset(kill_list, 0, sizeof kill_list);
}

/* ---- the processes' names and pids -------------------------------------------------- */

struct child_obj *vm_find_child(struct vm *vm, const char *name)
{
    return vm_find_named(vm->children, vm->nchildren, sizeof vm->children[0], name);
}

/* self, 0, or C: a process of "fork C" (its pid stays known once it ended;
 * in a process, those forked before it; after exec, none). */
int vm_pid_word(struct vm *vm, const char *word, pid_t *pid)
{
    *pid = 0;
    if (strcmp(word, "self") == 0) {
        *pid = getpid();
        return 0;
    }
    if (strcmp(word, "0") == 0)
        return 0;
    struct child_obj *ch = vm_find_child(vm, word);
    if (ch == NULL)
        return vm_bad(vm, "'%s' is not a pid here: self, 0, or a process of 'fork %s'", word,
                      word);
    *pid = ch->pid;
    return 0;
}

const char *vm_pid_text(struct vm *vm, pid_t pid, char *buf, size_t size)
{
    if (pid != 0 && pid == getpid())
        return "self";
    for (size_t i = 0; pid != 0 && i < vm->nchildren; i++)
        if (vm->children[i].pid == pid)
            return vm->children[i].name;
    snprintf(buf, size, "%ld", (long)pid);
    return buf;
}

const char *vm_wait_text(int st, char *buf, size_t size)
{
    if (WIFEXITED(st))
        snprintf(buf, size, "exit status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, size, "signal %d", WTERMSIG(st));
    else
        snprintf(buf, size, "wait status 0x%x", (unsigned)st);
    return buf;
}

/* Kills and reaps every process (reaped here: the process that adopts
 * orphans need not reap, and a zombie would outlive the run).
 * Async-signal-safe: the alarm handler calls it. */
void vm_children_kill(void)
{
    for (size_t i = 0; i < MAX_CHILDREN; i++)
        if (kill_list[i] > 0)
            kill(kill_list[i], SIGKILL);
    for (size_t i = 0; i < MAX_CHILDREN; i++)
        if (kill_list[i] > 0) {
            while (waitpid(kill_list[i], NULL, 0) < 0 && errno == EINTR)
                ;
            kill_list[i] = 0;
        }
}

void vm_child_close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Waits for ch to end (grace_ms < 0: as long as it takes; else kills it
 * after grace_ms); its wait status. */
int vm_child_reap(struct vm *vm, struct child_obj *ch, long grace_ms)
{
    int st = 0;
    pid_t r;
    for (long waited = 0;; waited++) {
        r = waitpid(ch->pid, &st, grace_ms < 0 ? 0 : WNOHANG);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != 0 || grace_ms < 0)
            break;
        if (waited >= grace_ms) {
            kill(ch->pid, SIGKILL);
            grace_ms = -1;
            continue;
        }
        struct timespec ms = { 0, 1000000L };
        nanosleep(&ms, NULL);
    }
    if (r < 0)
        st = -1;
    vm_child_close(&ch->to);
    vm_child_close(&ch->from);
    ch->alive = 0;
    kill_list[ch - vm->children] = 0;
    return st;
}

/* At the end of the vector: every process still running is told to end
 * (end of file) and reaped; one that does not end with status 0 (under
 * valgrind: its own errors) makes a passing vector UNRESOLVED. */
void vm_children_end(struct vm *vm)
{
    if (vm->dry || vm->proc[0])
        return;
    for (size_t i = 0; i < vm->nchildren; i++) {
        struct child_obj *ch = &vm->children[i];
        if (!ch->alive)
            continue;
        vm_child_close(&ch->to);
        int st = vm_child_reap(vm, ch, END_GRACE_MS);
        if ((st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) && vm->result == VEC_PASS) {
            char b[48];
            vm->result = VEC_UNRESOLVED;
            snprintf(vm->msg, sizeof vm->msg, "%s: process %s ended with %s at the end of the "
                     "vector, expected exit status 0", vm->v->path, ch->name,
                     st == -1 ? "no status" : vm_wait_text(st, b, sizeof b));
        }
    }
}
