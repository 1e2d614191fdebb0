/* SPDX-License-Identifier: MIT */
/*
 * vec_exec.h -- the interpreter of golden vectors: checks a vector's steps
 * (vec_check) and runs them against the <trace.h> implementation under test
 * (vec_run).  With -DVECRUN_EXACT (the reference only) the exact
 * expectations are checked too, and a run can bless them.
 */
#ifndef VEC_EXEC_H
#define VEC_EXEC_H

#include <stddef.h>
#include "vec_lex.h"

/* Result codes of IEEE Std 1003.3, as exit statuses. */
enum vec_result {
    VEC_PASS = 0, VEC_FAIL = 1, VEC_UNRESOLVED = 2, VEC_UNSUPPORTED = 3, VEC_UNTESTED = 4
};

const char *vec_result_name(enum vec_result r);

/* What a vector declares and uses, found without running it. */
struct vec_info {
    const char *functions[64];  /* <trace.h> functions it calls, sorted */
    size_t      nfunctions;
    int         portable_checks;
    int         exact_checks;
};

/* Checks every step of v (verbs, arguments, names, annotations) without
 * calling the implementation.  0, or -1 with a "file:line: message" in msg. */
int vec_check(struct vector *v, struct vec_info *info, char *msg, size_t size);

struct vec_opts {
    unsigned supported;         /* OPT_* the implementation provides */
    int      bless;             /* exact mismatches are recorded, not failures */
};

/* A vector of several rules whose assertion step has no [rule-id] tag:
 * -1 with "file:line: message" in msg (vec_check calls it). */
int vec_rules_lint(const struct vector *v, char *msg, size_t size);

/* Runs v (vec_check must have passed) in this process; msg gets the
 * one-line message of the result.  With bless, annotations get their actual
 * values (struct annot.actual).  If rule_lines is not NULL, it gets the
 * "RULE-RESULT rule CODE message" lines of a PASS or a FAIL, one per rule
 * of the header (vec_rules.c; to free), or NULL. */
enum vec_result vec_run(struct vector *v, const struct vec_opts *o, char *msg, size_t size,
                        char **rule_lines);

/* Bless: the file with every annotation's value replaced by what the run
 * gave.  NULL, with msg set, if an annotation was not reached. */
char *vec_blessed_text(const struct vector *v, char *msg, size_t size);

/* --run-all: a timeout message starts with this test id, not "RESULT". */
void vec_set_label(const char *label);

/* The process steps (vec_steps_process.c).  exec C executes this program
 * again: its path, from argv[0] (resolved at once: a later chdir does not
 * matter). */
void vec_set_self(const char *argv0);

/* The new image of process name after exec C ("vecrun --serve NAME IN OUT
 * --file PATH [--timeout S] [--bless]"): reads the vector at path again and
 * runs the steps the vector's process sends on fd in, answering on fd out,
 * with a fresh interpreter.  Never returns. */
__attribute__((noreturn))
void vec_serve(const char *name, int in, int out, const char *path, unsigned timeout,
               int bless);

/* Is this build checking exact expectations (built with VECRUN_EXACT)? */
int vec_exact_build(void);

#endif
