/* SPDX-License-Identifier: MIT */
/*
 * vec_vm.h -- what the files of the vector interpreter share: the state of
 * a run (struct vm), the cursor over a step's tokens, and the helpers every
 * step handler uses (messages, names, expectations, annotations).  Internal
 * to harness/vec/vec_*.c: the interface of the interpreter is vec_exec.h.
 */
#ifndef VEC_VM_H
#define VEC_VM_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>
#include <trace.h>
#include "vec_exec.h"
#include "vec_lex.h"
#include "vec_value.h"

#define NAME_LEN        32          /* object names: 31 characters at most */
#define MAX_OBJS        64          /* attrs, traces, events, variables each */
#define MAX_BG          8
#define MAX_CHILDREN    8           /* processes of "fork" */
#define MAX_POOL        4096        /* streams of createmany */
#define MAX_REPEAT      10000000LL
#define MAX_REPEAT_NEST 4
#define MAX_SLEEP_MS    60000
#define READ_BUF        65536       /* default num_bytes of a read */
#define TYPELIST_MAX    100000      /* longest event type list walked */
#define STR_BUF         4096        /* name and version buffers */

#define GUARD      16          /* guard bytes after buffers the implementation fills */
#define GUARD_BYTE 0xA5

struct attr_obj {
    char         name[NAME_LEN];
    trace_attr_t attr;
    int          inited;            /* init succeeded, not destroyed */
};

struct trace_obj {
    char       name[NAME_LEN];
    trace_id_t id;
    int        defined;             /* created once */
    int        live;                /* created and not shut down by the vector */
    int        have_last;           /* an event was read: its timestamp */
    long long  last_ts;
    long long  res_ns;              /* clock resolution, -1 not asked yet */
};

struct event_obj {
    char             name[NAME_LEN];
    trace_event_id_t id;
};

struct int_var {
    char      name[NAME_LEN];
    long long v;
};

struct str_var {
    char  name[NAME_LEN];
    char *v;
};

enum read_kind { RD_NEXT, RD_TRY, RD_TIMED };

struct read_req {
    enum read_kind    kind;
    struct trace_obj *t;
    trace_id_t        id;
    size_t            num_bytes;
    int               data_null;
    int               abs_null;
    struct timespec   abs;
    /* what came back */
    int               rc;
    int               unavailable;
    size_t            data_len;
    struct posix_trace_event_info ev;
    unsigned char    *buf;
    struct timespec   done;         /* CLOCK_REALTIME when the call returned */
};

struct bg_obj {
    char             name[NAME_LEN];
    struct step     *step;
    struct read_req  req;           /* a read ... */
    int              is_event;      /* ... or posix_trace_event(ev_id, data) */
    trace_event_id_t ev_id;
    struct vec_bytes data;
    pthread_t        th;
    int              started, joined;
};

/* A process of "fork C" (vec_steps_process.c).  The real run talks to it
 * through two pipes; the dry pass gives it a dry copy of the interpreter, so
 * that the steps run "in C" are checked against what C knows. */
struct child_obj {
    char       name[NAME_LEN];
    pid_t      pid;                 /* its pid; kept once it has ended (pid C) */
    int        to, from;            /* request and reply pipes, -1 if closed */
    int        alive;               /* forked and not yet ended by the vector */
    struct vm *dry;                 /* the dry pass: its copy of the interpreter */
};

struct vm {
    struct vector   *v;
    int              dry, exact, bless;
    struct step     *step;          /* the step being interpreted */
    int              checking;      /* its expectation asserts something */
    enum vec_result  result;
    char             msg[1024];
    struct vec_info *info;
    struct attr_obj  attrs[MAX_OBJS];
    size_t           nattrs;
    struct trace_obj traces[MAX_OBJS];
    size_t           ntraces;
    struct event_obj events[MAX_OBJS];
    size_t           nevents;
    struct int_var   ints[MAX_OBJS];
    size_t           nints;
    struct str_var   strs[MAX_OBJS];    /* strings kept by "-> $x" */
    size_t           nstrs;
    struct bg_obj    bgs[MAX_BG];
    size_t           nbgs;
    trace_id_t      *pool;          /* streams to shut down at the end */
    size_t           npool, cappool;
    long long        rep_i[MAX_REPEAT_NEST];
    int              rep_depth;
    pthread_t        main_thread;
    struct child_obj children[MAX_CHILDREN];
    size_t           nchildren;
    char             proc[NAME_LEN];    /* in a child: its name ("" in the vector's own) */
    /* per-rule results (vec_rules.c), the real run of the vector's process */
    int             *rule_ran;      /* per header rule: its checks that ran and passed */
    const struct step *fail_step;   /* the step whose check failed */
    size_t           cur_step;      /* index of the step being run */
    size_t           block_from;    /* first step of the outermost repeat block running */
    int              skipped;       /* "when" did not run the step */
};

struct cur {
    struct step *s;
    size_t       i;                 /* next argument */
};

/* How a value is printed and compared (expect_value). */
struct valspec {
    enum vec_group    g;            /* print values as constants of g */
    int               is_ts;        /* print values as times */
    struct trace_obj *last;         /* "last" may be used: this stream's */
};

/* vec_vm.c: the interpreter's state */
struct vm *vm_new(struct vector *v, int dry, const struct vec_opts *o, struct vec_info *in);
void vm_free(struct vm *vm);
struct vm *vm_clone(const struct vm *vm);
int vm_run_from(struct vm *vm, struct step *s, size_t tok);

/* vec_report.c: messages and results */
__attribute__((format(printf, 2, 3)))
int vm_bad(struct vm *vm, const char *fmt, ...);
const char *vm_errname(int err, char *buf, size_t size);
__attribute__((format(printf, 2, 3)))
int vm_fail(struct vm *vm, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
int vm_give(struct vm *vm, enum vec_result r, const char *fmt, ...);
void vm_step_text(const struct vm *vm, const struct step *s, char *buf, size_t size);

/* vec_objects.c: the objects a vector names.  Each kind's struct (and
 * struct child_obj) begins with its name: vm_find_named finds any of them. */
int vm_check_name(struct vm *vm, const char *s, const char *what);
struct attr_obj *vm_find_attr(struct vm *vm, const char *name);
struct event_obj *vm_find_event(struct vm *vm, const char *name);
void *vm_find_named(void *objs, size_t n, size_t size, const char *name);
struct trace_obj *vm_find_trace(struct vm *vm, const char *name);
struct attr_obj *vm_new_attr(struct vm *vm, const char *name);
struct event_obj *vm_new_event(struct vm *vm, const char *name);
struct trace_obj *vm_new_trace(struct vm *vm, const char *name);
void vm_pool_add(struct vm *vm, trace_id_t id);
int vm_set_int(struct vm *vm, const char *dollar_name, long long v);
int vm_valid_name(const char *s);

/* vec_eval.c: expressions, byte strings, limits */
int vm_bytes_of(struct vm *vm, const struct tok *k, struct vec_bytes *b);
int vm_eval(struct vm *vm, const char *text, long long *out);
int vm_eval_optional(struct vm *vm, const char *text, long long *out);
void vm_eval_start(void);
int vm_limit_value(const char *name, long long *v);

/* vec_tokens.c: the cursor over a step's tokens; what a step is */
int vm_is_capture(const struct tok *k);
int vm_is_w(const struct tok *k, const char *w);
struct tok *vm_need(struct vm *vm, struct cur *c, const char *what);
int vm_need_expr(struct vm *vm, struct cur *c, const char *what, long long *v);
struct tok *vm_need_word(struct vm *vm, struct cur *c, const char *what);
int vm_no_more(struct vm *vm, struct cur *c);
struct tok *vm_peek(struct cur *c);
int vm_step_checking(const struct step *s);
int vm_step_exact(const struct step *s);
void vm_use_fn(struct vm *vm, const char *fn);

/* vec_expect.c: return codes, values and strings a step expects */
int vm_compare(const char *op, long long a, long long b);
char *vm_cstring(struct vm *vm, const struct tok *k);
int vm_expect_rc(struct vm *vm, const char *fn, int rc);
int vm_expect_rc_first(struct vm *vm, const char *fn, int rc, int *done);
int vm_expect_string(struct vm *vm, const char *got, const char *what);
int vm_expect_value(struct vm *vm, size_t *i, long long got, const struct valspec *vs,
                    const char *what);
int vm_expect_value_all(struct vm *vm, long long got, const struct valspec *vs,
                        const char *what);
int vm_in_set(int rc, const int *codes, size_t n);
int vm_is_op(const char *s);
int vm_rc_set(const struct tok *k, int *codes, size_t *n, int errno_only);
long long vm_resolution(struct trace_obj *t);

/* vec_annot.c: exact annotations */
int vm_annot_int(struct vm *vm, const char *key, long long got, int is_ts, enum vec_group g);
int vm_annot_pid(struct vm *vm, pid_t got);
int vm_annot_str(struct vm *vm, const char *key, const char *got);
int vm_annot_word(struct vm *vm, const char *key, const char *got,
                  const char *const *words, int numbers);

/* vec_event_ids.c: event identifiers by name */
int vm_event_id(struct vm *vm, const struct tok *k, trace_event_id_t *id, int *any);
const char *vm_id_text(struct vm *vm, trace_event_id_t id, char *buf, size_t size);

/* vec_buffers.c: guarded buffers, name buffer sizes */
int vm_guard_intact(const unsigned char *p, size_t n);
unsigned char *vm_guarded(size_t n);
size_t vm_name_buffer_size(struct vm *vm, const char *limit, int nul_extra, const char *rule);
int vm_name_result(struct vm *vm, const char *fn, const char *what, char *buf, size_t n,
                   const char *bound, const char *rule);

/* vec_steps_attr.c: attr */
int verb_attr(struct vm *vm, struct cur *c);

/* vec_steps_stream.c: streams and events */
int verb_clear(struct vm *vm, struct cur *c);
int vm_stream_control(struct vm *vm, struct cur *c, const char *fn,
                      int (*call)(trace_id_t));
int verb_create(struct vm *vm, struct cur *c);
int verb_createmany(struct vm *vm, struct cur *c);
int verb_event(struct vm *vm, struct cur *c);
int verb_fill(struct vm *vm, struct cur *c);
int verb_getattr(struct vm *vm, struct cur *c);
int verb_open(struct vm *vm, struct cur *c);
int verb_shutdown(struct vm *vm, struct cur *c);
int verb_shutdownmany(struct vm *vm, struct cur *c);
int verb_start(struct vm *vm, struct cur *c);
int verb_status(struct vm *vm, struct cur *c);
int verb_stop(struct vm *vm, struct cur *c);
struct trace_obj *vm_trace_arg(struct vm *vm, struct cur *c);

/* vec_steps_read.c: reading */
int verb_bg(struct vm *vm, struct cur *c);
int verb_drain(struct vm *vm, struct cur *c);
int verb_getnext(struct vm *vm, struct cur *c);
int verb_join(struct vm *vm, struct cur *c);
int verb_timedgetnext(struct vm *vm, struct cur *c);
int verb_trygetnext(struct vm *vm, struct cur *c);
long long vm_ts_ns(const struct timespec *t);

/* vec_steps_types.c: names, the type list, simulation */
int verb_equal(struct vm *vm, struct cur *c);
int verb_name(struct vm *vm, struct cur *c);
int verb_sim(struct vm *vm, struct cur *c);
int verb_typelist(struct vm *vm, struct cur *c);
int verb_typenext(struct vm *vm, struct cur *c);
int verb_typerewind(struct vm *vm, struct cur *c);

/* vec_steps_process.c: fork, in, exec, exit */
int verb_exec(struct vm *vm, struct cur *c);
int verb_exit(struct vm *vm, struct cur *c);
int verb_fork(struct vm *vm, struct cur *c);
int verb_in(struct vm *vm, struct cur *c);

/* vec_children.c: the processes of fork, their names and pids, their end */
void vm_child_close(int *fd);
void vm_child_forget_all(void);
int vm_child_reap(struct vm *vm, struct child_obj *ch, long grace_ms);
void vm_child_started(struct vm *vm, const struct child_obj *ch);
void vm_children_end(struct vm *vm);
void vm_children_kill(void);
struct child_obj *vm_find_child(struct vm *vm, const char *name);
const char *vm_pid_text(struct vm *vm, pid_t pid, char *buf, size_t size);
int vm_pid_word(struct vm *vm, const char *word, pid_t *pid);
const char *vm_wait_text(int st, char *buf, size_t size);

/* vec_rules.c: the rule each check serves, each rule's result */
void vm_rules_start(struct vm *vm);
void vm_rules_ran(struct vm *vm, const struct step *s);
char *vm_rules_text(struct vm *vm, enum vec_result result, const char *msg);

/* vec_steps_control.c: repeat, when, check, let, now, sleep; the verbs */
int vm_run_verb(struct vm *vm, struct cur *c);

#endif
