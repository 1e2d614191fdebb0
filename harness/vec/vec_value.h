/* SPDX-License-Identifier: MIT */
/*
 * vec_value.h -- the values a vector writes: integer expressions (with
 * $variables, <trace.h> constants by name and seconds.nanoseconds literals),
 * byte strings (quoted text with {expr} interpolation, hex:, pattern:, u32:
 * ...), errno names, and how values are printed in messages.
 */
#ifndef VEC_VALUE_H
#define VEC_VALUE_H

#include <stddef.h>
#include "vec_lex.h"

/* Looks up the variable $name (without the '$'): 0 and *val, or -1 with a
 * message in err. */
typedef int (*vec_lookup_fn)(void *ctx, const char *name, long long *val,
                             char *err, size_t errsize);

struct vec_eval {
    vec_lookup_fn lookup;
    void         *ctx;
    int           dry;          /* syntax check only: arithmetic is not done */
    int           missing;      /* the error is a constant this <trace.h> lacks */
    char          err[256];
};

/* Evaluates an expression (one token: no blanks inside).  0, or -1 with
 * ev->err set. */
int vec_expr(struct vec_eval *ev, const char *text, long long *out);

/* Does text look like an expression (rather than a keyword)? */
int vec_is_expr(const char *text);

/* A byte string.  is_null: the vector said "null" (a NULL pointer). */
struct vec_bytes {
    unsigned char *p;
    size_t         n;
    int            is_null;
};

#define VEC_BYTES_MAX ((size_t)16 << 20)

/* Builds the bytes a token describes; free out->p afterwards.  0 or -1. */
int vec_bytes(struct vec_eval *ev, const struct tok *k, struct vec_bytes *out);

/* Integer constants of <trace.h> by name without the POSIX_TRACE_ prefix
 * (LOOP, RUNNING, TRUNCATED_READ, ...).  0 and *val, -1 unknown, -2 known
 * but not defined by the <trace.h> under test. */
int vec_int_constant(const char *name, long long *val);

/* Groups of constants, for printing a value by its name. */
enum vec_group {
    G_NONE, G_POLICY, G_LOGPOLICY, G_INHERIT, G_RUN, G_FULL, G_OVERRUN,
    G_FLUSH, G_TRUNC
};
/* The name of value in group, or NULL. */
const char *vec_group_name(enum vec_group g, long long value);
/* Is name a member of group g? */
int vec_group_has(enum vec_group g, const char *name);

/* errno names: "EINVAL" -> EINVAL; -1 if unknown.  And back ("E123" for an
 * unnamed one; "0" for 0). */
int vec_errno_value(const char *name);
const char *vec_errno_name(int err, char *buf, size_t size);

/* Message formats: bytes as a quoted, escaped, bounded string; a time in ns
 * as seconds.nanoseconds. */
void vec_fmt_bytes(const void *p, size_t n, char *buf, size_t size);
void vec_fmt_ts(long long ns, char *buf, size_t size);

#endif
