/* SPDX-License-Identifier: MIT */
/*
 * vec_value.c -- expressions, byte strings, constants and errno names of the
 * vector language (vectors/README.md), and their printing in messages.
 * Every value is checked: overflow, division by zero, sizes above
 * VEC_BYTES_MAX and malformed text give an error message, never a crash.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace.h>
#include "vec_value.h"

/* ---- constants ----------------------------------------------------------- */

struct int_const {
    const char    *name;
    enum vec_group group;
    int            defined;
    long long      value;
};

/* A constant of an option the header under test may not define. */
#ifdef POSIX_TRACE_FLUSH
#define C_FLUSH 1, POSIX_TRACE_FLUSH
#else
#define C_FLUSH 0, 0
#endif
#ifdef POSIX_TRACE_APPEND
#define C_APPEND 1, POSIX_TRACE_APPEND
#else
#define C_APPEND 0, 0
#endif
#ifdef POSIX_TRACE_CLOSE_FOR_CHILD
#define C_CLOSE 1, POSIX_TRACE_CLOSE_FOR_CHILD
#else
#define C_CLOSE 0, 0
#endif
#ifdef POSIX_TRACE_INHERITED
#define C_INHERITED 1, POSIX_TRACE_INHERITED
#else
#define C_INHERITED 0, 0
#endif
#ifdef POSIX_TRACE_FLUSHING
#define C_FLUSHING 1, POSIX_TRACE_FLUSHING
#else
#define C_FLUSHING 0, 0
#endif
#ifdef POSIX_TRACE_NOT_FLUSHING
#define C_NOT_FLUSHING 1, POSIX_TRACE_NOT_FLUSHING
#else
#define C_NOT_FLUSHING 0, 0
#endif

static const struct int_const int_consts[] = {
    { "LOOP",             G_POLICY,  1, POSIX_TRACE_LOOP },
    { "UNTIL_FULL",       G_POLICY,  1, POSIX_TRACE_UNTIL_FULL },
    { "FLUSH",            G_POLICY,  C_FLUSH },
    { "APPEND",           G_LOGPOLICY, C_APPEND },
    { "CLOSE_FOR_CHILD",  G_INHERIT, C_CLOSE },
    { "INHERITED",        G_INHERIT, C_INHERITED },
    { "RUNNING",          G_RUN,     1, POSIX_TRACE_RUNNING },
    { "SUSPENDED",        G_RUN,     1, POSIX_TRACE_SUSPENDED },
    { "FULL",             G_FULL,    1, POSIX_TRACE_FULL },
    { "NOT_FULL",         G_FULL,    1, POSIX_TRACE_NOT_FULL },
    { "OVERRUN",          G_OVERRUN, 1, POSIX_TRACE_OVERRUN },
    { "NO_OVERRUN",       G_OVERRUN, 1, POSIX_TRACE_NO_OVERRUN },
    { "FLUSHING",         G_FLUSH,   C_FLUSHING },
    { "NOT_FLUSHING",     G_FLUSH,   C_NOT_FLUSHING },
    { "NOT_TRUNCATED",    G_TRUNC,   1, POSIX_TRACE_NOT_TRUNCATED },
    { "TRUNCATED_RECORD", G_TRUNC,   1, POSIX_TRACE_TRUNCATED_RECORD },
    { "TRUNCATED_READ",   G_TRUNC,   1, POSIX_TRACE_TRUNCATED_READ },
};
#define N_INT_CONSTS (sizeof int_consts / sizeof int_consts[0])

int vec_int_constant(const char *name, long long *val)
{
    for (size_t i = 0; i < N_INT_CONSTS; i++)
        if (strcmp(int_consts[i].name, name) == 0) {
            if (!int_consts[i].defined)
                return -2;
            *val = int_consts[i].value;
            return 0;
        }
    return -1;
}

static int in_group(const struct int_const *c, enum vec_group g)
{
    /* The log-full-policy takes LOOP and UNTIL_FULL as well as APPEND. */
    if (g == G_LOGPOLICY)
        return c->group == G_LOGPOLICY ||
               (c->group == G_POLICY && strcmp(c->name, "FLUSH") != 0);
    return c->group == g;
}

const char *vec_group_name(enum vec_group g, long long value)
{
    for (size_t i = 0; i < N_INT_CONSTS; i++)
        if (in_group(&int_consts[i], g) && int_consts[i].defined && int_consts[i].value == value)
            return int_consts[i].name;
    return NULL;
}

int vec_group_has(enum vec_group g, const char *name)
{
    for (size_t i = 0; i < N_INT_CONSTS; i++)
        if (in_group(&int_consts[i], g) && strcmp(int_consts[i].name, name) == 0)
            return 1;
    return 0;
}

/* ---- errno names --------------------------------------------------------- */

static const struct { const char *name; int value; } errnos[] = {
    { "EINVAL", EINVAL }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
    { "EPERM", EPERM }, { "ESRCH", ESRCH }, { "ENAMETOOLONG", ENAMETOOLONG },
    { "ETIMEDOUT", ETIMEDOUT }, { "EINTR", EINTR }, { "ENOSYS", ENOSYS },
    { "EBADF", EBADF }, { "ENOSPC", ENOSPC }, { "EFBIG", EFBIG },
    { "ENOTSUP", ENOTSUP }, { "EEXIST", EEXIST }, { "EBUSY", EBUSY },
};
#define N_ERRNOS (sizeof errnos / sizeof errnos[0])

int vec_errno_value(const char *name)
{
    for (size_t i = 0; i < N_ERRNOS; i++)
        if (strcmp(errnos[i].name, name) == 0)
            return errnos[i].value;
    return -1;
}

const char *vec_errno_name(int err, char *buf, size_t size)
{
    if (err == 0)
        return "0";
    for (size_t i = 0; i < N_ERRNOS; i++)
        if (errnos[i].value == err)
            return errnos[i].name;
    snprintf(buf, size, "E%d", err);
    return buf;
}

/* ---- expressions --------------------------------------------------------- */
/*
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/' | '%') unary)*
 *   unary   := '-' unary | primary
 *   primary := NUMBER | SECONDS '.' NANOS | '$' name | CONSTANT | '(' expr ')'
 */

struct parser {
    struct vec_eval *ev;
    const char      *s;
    size_t           i;
    int              depth;
};

static int perr(struct parser *p, const char *msg)
{
    if (p->ev->err[0] == '\0')
        snprintf(p->ev->err, sizeof p->ev->err, "expression '%s': %s", p->s, msg);
    return -1;
}

static int expr(struct parser *p, long long *out);

static int number(struct parser *p, long long *out)
{
    const char *s = p->s;
    size_t i = p->i;
    unsigned long long v = 0;
    int base = 10;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
        if (!isxdigit((unsigned char)s[i]))
            return perr(p, "0x without hex digits");
    }
    while (base == 16 ? isxdigit((unsigned char)s[i]) : isdigit((unsigned char)s[i])) {
        int d = isdigit((unsigned char)s[i]) ? s[i] - '0'
                                             : tolower((unsigned char)s[i]) - 'a' + 10;
        if (v > (unsigned long long)(LLONG_MAX - d) / (unsigned)base)
            return perr(p, "number too large");
        v = v * (unsigned)base + (unsigned)d;
        i++;
    }
    if (base == 10 && s[i] == '.') {
        /* seconds.nanoseconds: the value is in nanoseconds. */
        unsigned long long ns = 0;
        int digits = 0;
        i++;
        while (isdigit((unsigned char)s[i])) {
            if (++digits > 9)
                return perr(p, "more than 9 digits of nanoseconds");
            ns = ns * 10 + (unsigned)(s[i] - '0');
            i++;
        }
        if (digits == 0)
            return perr(p, "'.' without nanoseconds");
        for (; digits < 9; digits++)
            ns *= 10;
        if (v > (unsigned long long)(LLONG_MAX - (long long)ns) / 1000000000ull)
            return perr(p, "time too large");
        v = v * 1000000000ull + ns;
    }
    if (isalnum((unsigned char)s[i]) || s[i] == '_')
        return perr(p, "bad number");
    p->i = i;
    *out = (long long)v;
    return 0;
}

static int primary(struct parser *p, long long *out)
{
    const char *s = p->s;
    char c = s[p->i];
    if (isdigit((unsigned char)c))
        return number(p, out);
    if (c == '(') {
        p->i++;
        if (++p->depth > 32)
            return perr(p, "nested too deeply");
        if (expr(p, out))
            return -1;
        p->depth--;
        if (s[p->i] != ')')
            return perr(p, "missing ')'");
        p->i++;
        return 0;
    }
    if (c == '$' || isupper((unsigned char)c)) {
        size_t start = p->i + (c == '$');
        size_t j = start;
        while (isalnum((unsigned char)s[j]) || s[j] == '_')
            j++;
        if (j == start)
            return perr(p, "'$' without a name");
        char name[64];
        if (j - start >= sizeof name)
            return perr(p, "name too long");
        memcpy(name, s + start, j - start);
        name[j - start] = '\0';
        p->i = j;
        if (c == '$') {
            char msg[200];
            if (p->ev->lookup(p->ev->ctx, name, out, msg, sizeof msg))
                return perr(p, msg);
            return 0;
        }
        int rc = vec_int_constant(name, out);
        if (rc == -1 && vec_errno_value(name) >= 0) {
            *out = vec_errno_value(name);
            return 0;
        }
        if (rc == -1) {
            char msg[120];
            snprintf(msg, sizeof msg, "unknown constant '%s'", name);
            return perr(p, msg);
        }
        if (rc == -2) {
            char msg[120];
            if (p->ev->dry) {
                *out = 0;
                return 0;
            }
            p->ev->missing = 1;
            snprintf(msg, sizeof msg, "POSIX_TRACE_%s is not defined by this <trace.h>", name);
            return perr(p, msg);
        }
        return 0;
    }
    return perr(p, c ? "unexpected character" : "value missing");
}

static int unary(struct parser *p, long long *out)
{
    if (p->s[p->i] == '-') {
        p->i++;
        if (++p->depth > 32)
            return perr(p, "nested too deeply");
        if (unary(p, out))
            return -1;
        p->depth--;
        if (*out == LLONG_MIN)
            return perr(p, "overflow");
        *out = -*out;
        return 0;
    }
    return primary(p, out);
}

static int term(struct parser *p, long long *out)
{
    if (unary(p, out))
        return -1;
    for (;;) {
        char op = p->s[p->i];
        if (op != '*' && op != '/' && op != '%')
            return 0;
        p->i++;
        long long r;
        if (unary(p, &r))
            return -1;
        if (p->ev->dry) {
            *out = 0;
            continue;
        }
        if (op == '*') {
            if (__builtin_mul_overflow(*out, r, out))
                return perr(p, "overflow");
        } else {
            if (r == 0)
                return perr(p, "division by zero");
            if (*out == LLONG_MIN && r == -1)
                return perr(p, "overflow");
            *out = op == '/' ? *out / r : *out % r;
        }
    }
}

static int expr(struct parser *p, long long *out)
{
    if (term(p, out))
        return -1;
    for (;;) {
        char op = p->s[p->i];
        if (op != '+' && op != '-')
            return 0;
        p->i++;
        long long r;
        if (term(p, &r))
            return -1;
        if (p->ev->dry) {
            *out = 0;
            continue;
        }
        if (op == '+' ? __builtin_add_overflow(*out, r, out)
                      : __builtin_sub_overflow(*out, r, out))
            return perr(p, "overflow");
    }
}

int vec_expr(struct vec_eval *ev, const char *text, long long *out)
{
    struct parser p = { ev, text, 0, 0 };
    ev->err[0] = '\0';
    ev->missing = 0;
    if (expr(&p, out))
        return -1;
    if (text[p.i] != '\0')
        return perr(&p, "unexpected text after the value");
    if (ev->dry)
        *out = 0;
    return 0;
}

int vec_is_expr(const char *text)
{
    char c = text[0];
    if (isdigit((unsigned char)c) || c == '$' || c == '(')
        return 1;
    if (c == '-' && text[1] != '>' && text[1] != '\0')
        return 1;
    long long v;
    return isupper((unsigned char)c) &&
           (vec_int_constant(text, &v) != -1 || vec_errno_value(text) >= 0);
}

/* ---- byte strings -------------------------------------------------------- */

struct buf {
    unsigned char *p;
    size_t         n, cap;
};

static int put(struct buf *b, const void *src, size_t n)
{
    if (n > VEC_BYTES_MAX || b->n > VEC_BYTES_MAX - n)
        return -1;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n)
            cap *= 2;
        b->p = vec_xrealloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
    return 0;
}

static int hexval(char c)
{
    return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

static int berr(struct vec_eval *ev, struct buf *b, const char *fmt, const char *arg)
{
    free(b->p);
    b->p = NULL;
    if (ev->err[0] == '\0')
        snprintf(ev->err, sizeof ev->err, fmt, arg);
    return -1;
}

/* "text with \n escapes and {expr} interpolation" */
static int quoted(struct vec_eval *ev, const char *s, struct buf *b)
{
    for (size_t i = 0; s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\') {
            c = (unsigned char)s[++i];
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case '0': c = '\0'; break;
            case 'x': c = (unsigned char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2])); i += 2; break;
            default: break;         /* \\ \" \{ \} (checked when read) */
            }
        } else if (c == '{') {
            const char *end = strchr(s + i, '}');
            if (end == NULL)
                return berr(ev, b, "string \"%s\": '{' without '}'", s);
            char *e = vec_xstrndup(s + i + 1, (size_t)(end - s - i - 1));
            long long v;
            int rc = vec_expr(ev, e, &v);
            free(e);
            if (rc) {
                free(b->p);
                b->p = NULL;
                return -1;
            }
            char num[32];
            snprintf(num, sizeof num, "%lld", v);
            if (put(b, num, strlen(num)))
                return berr(ev, b, "%s: too long", "string");
            i = (size_t)(end - s);
            continue;
        }
        if (put(b, &c, 1))
            return berr(ev, b, "%s: too long", "string");
    }
    return 0;
}

int vec_bytes(struct vec_eval *ev, const struct tok *k, struct vec_bytes *out)
{
    struct buf b = { NULL, 0, 0 };
    const char *s = k->text;
    memset(out, 0, sizeof *out);
    ev->err[0] = '\0';
    if (k->kind == TK_STRING) {
        if (quoted(ev, s, &b))
            return -1;
    } else if (strcmp(s, "empty") == 0) {
        /* zero bytes, but a valid pointer */
    } else if (strcmp(s, "null") == 0) {
        out->is_null = 1;
    } else if (strncmp(s, "hex:", 4) == 0) {
        const char *h = s + 4;
        size_t n = strlen(h);
        if (n % 2)
            return berr(ev, &b, "'%s': odd number of hex digits", s);
        for (size_t i = 0; i < n; i += 2) {
            if (!isxdigit((unsigned char)h[i]) || !isxdigit((unsigned char)h[i + 1]))
                return berr(ev, &b, "'%s': not a hex digit", s);
            unsigned char c = (unsigned char)(hexval(h[i]) * 16 + hexval(h[i + 1]));
            if (put(&b, &c, 1))
                return berr(ev, &b, "'%s': too long", s);
        }
    } else if (strncmp(s, "pattern:", 8) == 0) {
        /* n bytes 'a', 'b', ... 'z', 'a', ... */
        long long n;
        if (vec_expr(ev, s + 8, &n))
            return -1;
        if (n < 0 || (unsigned long long)n > VEC_BYTES_MAX)
            return berr(ev, &b, "'%s': length out of range", s);
        for (long long i = 0; i < n; i++) {
            unsigned char c = (unsigned char)('a' + i % 26);
            put(&b, &c, 1);
        }
    } else {
        /* u8: u16: u32: u64: int: a native integer */
        const char *colon = strchr(s, ':');
        size_t w = 0;
        if (colon) {
            size_t plen = (size_t)(colon - s);
            if (plen == 2 && strncmp(s, "u8", 2) == 0) w = 1;
            else if (plen == 3 && strncmp(s, "u16", 3) == 0) w = 2;
            else if (plen == 3 && strncmp(s, "u32", 3) == 0) w = 4;
            else if (plen == 3 && strncmp(s, "u64", 3) == 0) w = 8;
            else if (plen == 3 && strncmp(s, "int", 3) == 0) w = sizeof(int);
        }
        if (w == 0)
            return berr(ev, &b, "'%s' is not bytes (\"text\", hex:, pattern:N, u8: u16: "
                        "u32: u64: int:, empty, null)", s);
        long long v;
        if (vec_expr(ev, colon + 1, &v))
            return -1;
        unsigned char raw[8];
        if (w == 1) { uint8_t x = (uint8_t)v; memcpy(raw, &x, 1); }
        else if (w == 2) { uint16_t x = (uint16_t)v; memcpy(raw, &x, 2); }
        else if (w == 8) { uint64_t x = (uint64_t)v; memcpy(raw, &x, 8); }
        else if (strncmp(s, "int", 3) == 0) { int x = (int)v; memcpy(raw, &x, sizeof x); }
        else { uint32_t x = (uint32_t)v; memcpy(raw, &x, 4); }
        put(&b, raw, w);
    }
    out->p = b.p;
    out->n = b.n;
    return 0;
}

/* ---- printing ------------------------------------------------------------ */

void vec_fmt_bytes(const void *p, size_t n, char *buf, size_t size)
{
    const unsigned char *s = p;
    size_t used = 0;
    size_t shown = n < 48 ? n : 48;
    if (size < 16) {
        if (size)
            buf[0] = '\0';
        return;
    }
    if (p == NULL) {
        snprintf(buf, size, "(null)");
        return;
    }
    buf[used++] = '"';
    for (size_t i = 0; i < shown && used + 8 < size; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\')
            used += (size_t)snprintf(buf + used, size - used, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f)
            buf[used++] = (char)c;
        else
            used += (size_t)snprintf(buf + used, size - used, "\\x%02x", c);
    }
    buf[used] = '\0';
    if (shown < n)
        snprintf(buf + used, size - used, "\"... (%zu bytes)", n);
    else
        snprintf(buf + used, size - used, "\"");
}

void vec_fmt_ts(long long ns, char *buf, size_t size)
{
    const char *sign = "";
    unsigned long long u = (unsigned long long)ns;
    if (ns < 0) {
        sign = "-";
        u = 0ull - u;
    }
    snprintf(buf, size, "%s%llu.%09llu", sign, u / 1000000000ull, u % 1000000000ull);
}
