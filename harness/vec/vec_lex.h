/* SPDX-License-Identifier: MIT */
/*
 * vec_lex.h -- reading a golden vector file (vectors/README.md): its header
 * and its steps, each cut into tokens.  Nothing here knows what a step means;
 * the interpreter (vec_exec.c, vec_steps_*.c) does.
 */
#ifndef VEC_LEX_H
#define VEC_LEX_H

#include <stddef.h>

enum tok_kind {
    TK_WORD,        /* anything up to the next blank */
    TK_STRING       /* "...": text holds the contents, escapes not yet decoded */
};

struct tok {
    enum tok_kind kind;
    char         *text;
    size_t        off, len;     /* where the token is in its line (for bless) */
};

/* An exact expectation: "@key value" at the end of a step. */
struct annot {
    char      *key;
    struct tok val;
    int        used;            /* a step handler asked for it */
    char      *actual;          /* bless: the value the reference gave */
};

struct step {
    int           line;         /* 1-based line number in the file */
    int           exact;        /* "exact:" prefix: the whole step is exact */
    struct tok   *t;            /* the verb and its arguments */
    size_t        nt;
    int           arrow;        /* "->" present */
    struct tok   *e;            /* the expectation after "->" */
    size_t        ne;
    struct annot *a;
    size_t        na;
    char        **rules;        /* [rule-id] tags */
    size_t        nrules;
};

/* Options a vector may need (header "options:"). */
enum { OPT_TRC = 1, OPT_TEF = 2, OPT_TRI = 4, OPT_TRL = 8 };

struct vector {
    char        *path;          /* as given, used in messages */
    char        *title;
    char       **rules;
    size_t       nrules;
    unsigned     options;
    struct step *steps;
    size_t       nsteps;
    char       **lines;         /* the file's lines, without newlines (bless) */
    size_t       nlines;
    int          err_line;      /* first syntax error: its line (0: whole file) */
    char         err[512];      /* ... and its message; "" if none */
};

/* Reads and tokenises path.  Returns 0, or -1 with v->err set: a file that
 * cannot be read or whose header or tokens are malformed.  v must be freed
 * with vec_free() either way. */
int  vec_load(const char *path, struct vector *v);
void vec_free(struct vector *v);

/* Allocation that never returns NULL: on exhaustion the program reports
 * UNRESOLVED and exits (used by every vec_*.c file). */
void *vec_xmalloc(size_t n);
void *vec_xrealloc(void *p, size_t n);
char *vec_xstrndup(const char *s, size_t n);

/* Option names: "TRC,TEF" for a mask. */
void vec_options_text(unsigned options, char *buf, size_t size);
/* One option name to its bit, 0 if unknown. */
unsigned vec_option_bit(const char *name);

#endif
