/* SPDX-License-Identifier: MIT */
/*
 * vec_steps_process.c -- the process steps (vectors/README.md, "Processes"):
 * fork C, in C STEP, exec C, exit C, and the pids of processes (pid C).
 *
 * A process of "fork C" is a copy of the interpreter, made by fork(2) at that
 * step: it has the objects, variables, event ids and stream handles the
 * vector's process had then, and from then on its own.  It runs nothing by
 * itself: it waits on a pipe for the steps "in C STEP" the vector's process
 * sends it, one at a time (the index of the step, the token where STEP
 * starts, the repeat counters), runs each with its copy and answers with the
 * result, the message and, blessing, the annotations' values.  So the vector,
 * not the host's scheduler, decides the order in which processes act: with a
 * simulated clock and simulated origins the events are the same on every run.
 *
 * "exec C" makes C execute this program again (its path from argv[0],
 * vec_set_self) in the hidden mode "vecrun --serve NAME IN OUT --file PATH",
 * which reads the vector again and serves the steps with a fresh interpreter:
 * nothing of the old image is kept, as with any exec.  "exit C" makes C call
 * exit(), _exit() or _Exit() and reaps it.
 *
 * Never trusted, never hung, nothing left behind: at most MAX_CHILDREN
 * processes at once; every request and answer is checked; a process that
 * dies is reaped and makes the vector UNRESOLVED with its wait status; the
 * alarm of --timeout kills every process (vm_children_kill) and each process
 * has an alarm of its own a little later, should the vector's process be
 * gone; a process whose vector's process ended reads end of file and
 * _exits; at the end of the vector every process is told to end (end of
 * file) and reaped.  A process ends with _exit(): the shutdowns and destroys
 * at the end of a vector are the vector's process's, never its copies'.
 *
 * The dry pass (vec_check) gives each process a dry copy of the interpreter
 * (vm_clone; after exec a fresh one), so that "in C STEP" is checked against
 * the objects C has, and C must have been forked and not have ended.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "vec_vm.h"
#include "../../conformance/tests/ct_exec.h"

enum { REQ_STEP = 1, REQ_EXIT, REQ_EXEC };
enum { END_EXIT, END__EXIT, END__EXIT_C99 };

/* A request of the vector's process to one of its processes. */
struct req {
    int       op;
    int       step;                 /* the index of the step */
    int       tok;                  /* REQ_STEP: where STEP starts in it */
    int       rep_depth;            /* REQ_STEP: the repeat counters ($i) */
    long long rep_i[MAX_REPEAT_NEST];
    int       how, status;          /* REQ_EXIT: END_*, exit status */
    unsigned  timeout;              /* REQ_EXEC: seconds left to the new image */
};

/* The answer: this, the message (msg_len bytes), then for each of nannot
 * annotations an int length (-1: no value) and the value's bytes. */
struct reply {
    int      result;
    unsigned msg_len;
    unsigned nannot;
};

#define ANNOT_MAX 4096              /* longest annotation value answered */

static char *self_path;             /* this program, for exec C (vec_set_self) */

/* ---- this program's path ----------------------------------------------------------- */

/* path made absolute (against the current folder), or NULL. */
static char *absolute(const char *path)
{
    if (path[0] == '/')
        return vec_xstrndup(path, strlen(path));
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == NULL)
        return NULL;
    char *p = vec_xmalloc(strlen(cwd) + strlen(path) + 2);
    sprintf(p, "%s/%s", cwd, path);
    return p;
}

/* argv[0] as a path: itself if it has a '/', else found in PATH (as execvp
 * would), made absolute.  NULL if neither works: exec C is then UNRESOLVED. */
void vec_set_self(const char *argv0)
{
    free(self_path);
    self_path = NULL;
    if (argv0 == NULL || argv0[0] == '\0')
        return;
    if (strchr(argv0, '/')) {
        self_path = absolute(argv0);
        return;
    }
    const char *path = getenv("PATH");
    while (path && self_path == NULL) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char *cand = vec_xmalloc(n + strlen(argv0) + 3);
        sprintf(cand, "%.*s/%s", (int)n, n ? path : ".", argv0);
        if (access(cand, X_OK) == 0)
            self_path = absolute(cand);
        free(cand);
        path = end ? end + 1 : NULL;
    }
}

/* ---- pipes --------------------------------------------------------------------------- */

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* 0 once n bytes are read; -1 on end of file or error. */
static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

/* ---- the vector's process: sending steps, reaping ------------------------------------ */

/* ch's pipe broke: it died.  UNRESOLVED, with how it ended. */
static int died(struct vm *vm, struct child_obj *ch, const char *when)
{
    char b[48];
    int st = vm_child_reap(vm, ch, 2000);
    return vm_give(vm, VEC_UNRESOLVED, "process %s died %s (%s)", ch->name, when,
                   st == -1 ? "not reaped" : vm_wait_text(st, b, sizeof b));
}

static int send_req(struct vm *vm, struct child_obj *ch, struct req *r)
{
    r->step = (int)(vm->step - vm->v->steps);
    if (write_all(ch->to, r, sizeof *r))
        return died(vm, ch, "before it got the step");
    return 0;
}

/* Reads ch's answer to the step s: its result becomes the vector's, its
 * annotations' values (bless) those of s. */
static int get_reply(struct vm *vm, struct child_obj *ch, struct step *s)
{
    struct reply h;
    char msg[sizeof vm->msg];
    if (read_all(ch->from, &h, sizeof h))
        return died(vm, ch, "while it ran the step");
    if (h.result < VEC_PASS || h.result > VEC_UNTESTED || h.msg_len >= sizeof msg ||
        h.nannot > s->na || read_all(ch->from, msg, h.msg_len))
        return died(vm, ch, "or answered garbage");
    msg[h.msg_len] = '\0';
    for (unsigned i = 0; i < h.nannot; i++) {
        int len;
        if (read_all(ch->from, &len, sizeof len) || len > ANNOT_MAX)
            return died(vm, ch, "or answered garbage");
        if (len < 0)
            continue;
        char *val = vec_xmalloc((size_t)len + 1);
        if (read_all(ch->from, val, (size_t)len)) {
            free(val);
            return died(vm, ch, "or answered garbage");
        }
        val[len] = '\0';
        free(s->a[i].actual);
        s->a[i].actual = val;
    }
    if (h.result != VEC_PASS && vm->result == VEC_PASS) {
        vm->result = (enum vec_result)h.result;
        snprintf(vm->msg, sizeof vm->msg, "%s", msg);
        return -1;
    }
    return 0;
}

/* The process a step names: forked, not ended; the vector's process only. */
static struct child_obj *child_arg(struct vm *vm, struct cur *c, const char *verb)
{
    struct tok *k = vm_need_word(vm, c, "a process (of fork C)");
    if (k == NULL)
        return NULL;
    if (vm->proc[0]) {
        vm_bad(vm, "'%s' belongs to the vector's own process: %s runs steps, it does not "
               "send them", verb, vm->proc);
        return NULL;
    }
    struct child_obj *ch = vm_find_child(vm, k->text);
    if (ch == NULL) {
        vm_bad(vm, "unknown process '%s' (fork %s first)", k->text, k->text);
        return NULL;
    }
    if (!ch->alive) {
        vm_bad(vm, "process %s has ended", ch->name);
        return NULL;
    }
    return ch;
}

static int setup_only(struct vm *vm, const char *verb)
{
    if (vm->step->arrow || vm->step->na)
        return vm_bad(vm, "%s is setup: no '->' or '@' (a failure is UNRESOLVED)", verb);
    return 0;
}

/* Seconds left before the alarm of --timeout (0: none). */
static unsigned alarm_left(void)
{
    unsigned left = alarm(0);
    alarm(left);
    return left;
}

/* ---- in a process: serving steps ------------------------------------------------------- */

static void answer(struct vm *vm, int out, const struct step *s)
{
    struct reply h = { (int)vm->result, (unsigned)strlen(vm->msg), 0 };
    if (vm->bless && s)
        h.nannot = (unsigned)s->na;
    int bad = write_all(out, &h, sizeof h) || write_all(out, vm->msg, h.msg_len);
    for (unsigned i = 0; i < h.nannot && !bad; i++) {
        const char *a = s->a[i].actual;
        int len = a && strlen(a) <= ANNOT_MAX ? (int)strlen(a) : -1;
        bad = write_all(out, &len, sizeof len) || (len > 0 && write_all(out, a, (size_t)len));
    }
    if (bad)
        _exit(2);                   /* the vector's process is gone */
}

/* The step a request names, checked: it must be "in NAME ..." with this
 * process's name at tok. */
static struct step *req_step(struct vm *vm, const struct req *r)
{
    if (r->step < 0 || (size_t)r->step >= vm->v->nsteps)
        return NULL;
    struct step *s = &vm->v->steps[r->step];
    if (r->op != REQ_STEP)
        return s;
    if (r->tok < 2 || (size_t)r->tok > s->nt || !vm_is_w(&s->t[r->tok - 2], "in") ||
        !vm_is_w(&s->t[r->tok - 1], vm->proc) || r->rep_depth < 0 ||
        r->rep_depth > MAX_REPEAT_NEST)
        return NULL;
    return s;
}

static void exec_self(struct vm *vm, int in, int out, unsigned timeout)
{
    char fin[24], fout[24], tmo[24];
    snprintf(fin, sizeof fin, "%d", in);
    snprintf(fout, sizeof fout, "%d", out);
    snprintf(tmo, sizeof tmo, "%u", timeout);
    if (self_path == NULL) {
        vm_give(vm, VEC_UNRESOLVED, "cannot name this program for exec (argv[0] not found)");
        return;
    }
    char *argv[] = { self_path, (char *)"--serve", vm->proc, fin, fout, (char *)"--file",
                     vm->v->path, (char *)"--timeout", tmo, vm->bless ? (char *)"--bless" : NULL,
                     NULL };
    ct_execv(self_path, argv);      /* through the test wrapper, if any */
    vm_give(vm, VEC_UNRESOLVED, "exec of %s failed: %s", self_path, strerror(errno));
}

/* Serves requests on in, answers on out, until end of file; never returns. */
__attribute__((noreturn))
static void serve(struct vm *vm, int in, int out)
{
    for (;;) {
        struct req r;
        if (read_all(in, &r, sizeof r))
            _exit(0);               /* the vector's process ended, or ends us */
        struct step *s = req_step(vm, &r);
        vm->result = VEC_PASS;
        vm->msg[0] = '\0';
        if (s == NULL) {
            snprintf(vm->msg, sizeof vm->msg, "%s: in %s: a request that names no step of "
                     "mine", vm->v->path, vm->proc);
            vm->result = VEC_UNRESOLVED;
            answer(vm, out, NULL);
            continue;
        }
        vm->step = s;
        if (r.op == REQ_EXIT) {
            if (r.how == END__EXIT)
                _exit(r.status);
            if (r.how == END__EXIT_C99)
                _Exit(r.status);
            exit(r.status);
        }
        if (r.op == REQ_EXEC) {
            exec_self(vm, in, out, r.timeout);     /* returns if exec failed */
        } else {
            vm->rep_depth = r.rep_depth;
            memcpy(vm->rep_i, r.rep_i, sizeof vm->rep_i);
            vm_run_from(vm, s, (size_t)r.tok);
            vm->rep_depth = 0;
        }
        answer(vm, out, s);
    }
}

/* vecrun --serve: the new image of process name after exec C. */
void vec_serve(const char *name, int in, int out, const char *path, unsigned timeout,
               int bless)
{
    struct vector v;
    struct vec_opts o = { 0, bless };
    alarm(timeout);                 /* SIGALRM kills: the vector's process reports */
    int rc = vec_load(path, &v);
    struct vm *vm = vm_new(&v, 0, &o, NULL);
    snprintf(vm->proc, sizeof vm->proc, "%.*s", NAME_LEN - 1, name);
    if (rc != 0) {
        snprintf(vm->msg, sizeof vm->msg, "%s: in %s: after exec, the vector cannot be read "
                 "again: %s", path, vm->proc, v.err);
        vm->result = VEC_UNRESOLVED;
    }
    answer(vm, out, NULL);          /* the new image is ready (or not) */
    if (rc != 0)
        _exit(2);
    serve(vm, in, out);
}

/* ---- the steps --------------------------------------------------------------------------- */

/* fork C */
int verb_fork(struct vm *vm, struct cur *c)
{
    struct tok *k = vm_need_word(vm, c, "a name for the process");
    if (k == NULL || vm_check_name(vm, k->text, "process") || vm_no_more(vm, c) ||
        setup_only(vm, "fork"))
        return -1;
    if (vm->proc[0])
        return vm_bad(vm, "only the vector's own process forks (not %s)", vm->proc);
    for (size_t i = 0; i < vm->nbgs; i++)
        if (!vm->bgs[i].joined)
            return vm_bad(vm, "fork while %s runs in the background (join it first): fork "
                          "copies only the calling thread", vm->bgs[i].name);
    struct child_obj *ch = vm_find_child(vm, k->text);
    if (ch && ch->alive)
        return vm_bad(vm, "process %s is already running", ch->name);
    if (ch == NULL) {
        if (vm->nchildren == MAX_CHILDREN)
            return vm_bad(vm, "more than %d processes", MAX_CHILDREN);
        ch = &vm->children[vm->nchildren++];
        memset(ch, 0, sizeof *ch);
        snprintf(ch->name, sizeof ch->name, "%s", k->text);
    }
    ch->to = ch->from = -1;
    if (vm->dry) {
        if (ch->dry)
            vm_free(ch->dry);
        ch->dry = vm_clone(vm);
        snprintf(ch->dry->proc, sizeof ch->dry->proc, "%s", ch->name);
        ch->alive = 1;
        return 0;
    }
    int to[2], from[2];
    if (pipe(to) != 0)
        return vm_give(vm, VEC_UNRESOLVED, "pipe: %s", strerror(errno));
    if (pipe(from) != 0) {
        int e = errno;
        close(to[0]);
        close(to[1]);
        return vm_give(vm, VEC_UNRESOLVED, "pipe: %s", strerror(e));
    }
    /* The vector's ends are not for other processes' new images; a child's
     * ends survive its exec. */
    fcntl(to[1], F_SETFD, FD_CLOEXEC);
    fcntl(from[0], F_SETFD, FD_CLOEXEC);
    /* A process that died makes writes fail with EPIPE rather than kill us. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    unsigned left = alarm_left();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        return vm_give(vm, VEC_UNRESOLVED, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        /* The copy: it owns none of the other processes' pipes, kills
         * nobody, and dies a little after the vector's time is up. */
        close(to[1]);
        close(from[0]);
        for (size_t i = 0; i < vm->nchildren; i++) {
            vm_child_close(&vm->children[i].to);
            vm_child_close(&vm->children[i].from);
            vm->children[i].alive = 0;
        }
        vm_child_forget_all();
        snprintf(vm->proc, sizeof vm->proc, "%s", ch->name);
        sa.sa_handler = SIG_DFL;
        sigaction(SIGALRM, &sa, NULL);
        alarm(left ? left + 2 : 0);
        serve(vm, to[0], from[1]);
    }
    close(to[0]);
    close(from[1]);
    ch->pid = pid;
    ch->to = to[1];
    ch->from = from[0];
    ch->alive = 1;
    vm_child_started(vm, ch);
    return 0;
}

/* in C STEP: STEP runs in process C. */
int verb_in(struct vm *vm, struct cur *c)
{
    struct child_obj *ch = child_arg(vm, c, "in");
    if (ch == NULL)
        return -1;
    if (vm_peek(c) == NULL)
        return vm_bad(vm, "in %s needs a step to run there", ch->name);
    if (vm->dry) {
        /* The step is checked against C's copy; its failure is the vector's. */
        struct vm *d = ch->dry;
        d->rep_depth = vm->rep_depth;
        memcpy(d->rep_i, vm->rep_i, sizeof d->rep_i);
        d->result = VEC_PASS;
        int rc = vm_run_from(d, vm->step, c->i);
        if (d->result != VEC_PASS) {
            vm->result = d->result;
            snprintf(vm->msg, sizeof vm->msg, "%s", d->msg);
            return -1;
        }
        return rc;
    }
    struct req r;
    memset(&r, 0, sizeof r);
    r.op = REQ_STEP;
    r.tok = (int)c->i;
    r.rep_depth = vm->rep_depth;
    memcpy(r.rep_i, vm->rep_i, sizeof r.rep_i);
    if (send_req(vm, ch, &r))
        return -1;
    return get_reply(vm, ch, vm->step);
}

/* exec C: C executes this program again, which serves C's steps afresh. */
int verb_exec(struct vm *vm, struct cur *c)
{
    struct child_obj *ch = child_arg(vm, c, "exec");
    if (ch == NULL || vm_no_more(vm, c) || setup_only(vm, "exec"))
        return -1;
    if (vm->dry) {
        vm_free(ch->dry);
        ch->dry = vm_new(vm->v, 1, NULL, vm->info);
        snprintf(ch->dry->proc, sizeof ch->dry->proc, "%s", ch->name);
        return 0;
    }
    struct req r;
    memset(&r, 0, sizeof r);
    r.op = REQ_EXEC;
    unsigned left = alarm_left();
    r.timeout = left ? left + 2 : 0;
    if (send_req(vm, ch, &r))
        return -1;
    return get_reply(vm, ch, vm->step);     /* the new image is ready */
}

/* exit C [STATUS] | exit C _exit [STATUS] | exit C _Exit [STATUS]: C ends
 * so, and must be reaped with that exit status. */
int verb_exit(struct vm *vm, struct cur *c)
{
    struct child_obj *ch = child_arg(vm, c, "exit");
    if (ch == NULL)
        return -1;
    struct req r;
    memset(&r, 0, sizeof r);
    r.op = REQ_EXIT;
    r.how = END_EXIT;
    const char *fn = "exit";
    if (vm_is_w(vm_peek(c), "_exit") || vm_is_w(vm_peek(c), "_Exit")) {
        fn = vm_peek(c)->text;
        r.how = strcmp(fn, "_exit") == 0 ? END__EXIT : END__EXIT_C99;
        c->i++;
    }
    long long status = 0;
    if (vm_peek(c) && vm_need_expr(vm, c, "an exit status", &status))
        return -1;
    if (vm_no_more(vm, c) || setup_only(vm, "exit"))
        return -1;
    if (!vm->dry && (status < 0 || status > 255))
        return vm_bad(vm, "exit status %lld: between 0 and 255", status);
    r.status = (int)status;
    if (vm->dry) {
        ch->alive = 0;
        return 0;
    }
    if (send_req(vm, ch, &r))
        return -1;
    vm_child_close(&ch->to);
    int st = vm_child_reap(vm, ch, -1);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != r.status) {
        char b[48];
        return vm_give(vm, VEC_UNRESOLVED, "process %s ended with %s, expected %s(%d)",
                       ch->name, st == -1 ? "no status" : vm_wait_text(st, b, sizeof b), fn,
                       r.status);
    }
    return 0;
}
