/* SPDX-License-Identifier: MIT */
/*
 * vec_lex.c -- reading a golden vector file: the header ("# title",
 * "rules:", "options:") and the steps, each cut into tokens (words, "quoted
 * strings", "->", "@key value", "[rule-id]").  The grammar is in
 * vectors/README.md.  Malformed input is reported with its line; nothing here
 * can overflow a buffer, whatever the file holds.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vec_lex.h"

static void out_of_memory(void)
{
    fputs("RESULT UNRESOLVED vecrun: out of memory\n", stdout);
    exit(2);
}

void *vec_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        out_of_memory();
    return p;
}

void *vec_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (p == NULL)
        out_of_memory();
    return p;
}

char *vec_xstrndup(const char *s, size_t n)
{
    char *p = vec_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static int syntax(struct vector *v, int line, const char *fmt, ...)
{
    if (v->err[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(v->err, sizeof v->err, fmt, ap);
        va_end(ap);
        v->err_line = line;
    }
    return -1;
}

/* Grows *arr (of elements of size sz) to hold n + 1 elements. */
static void *grow(void *arr, size_t n, size_t sz)
{
    if (n > ((size_t)-1) / sz / 2 - 1)
        out_of_memory();
    if ((n & (n - 1)) == 0)                 /* 0, 1, 2, 4, ...: double */
        arr = vec_xrealloc(arr, (n ? 2 * n : 1) * sz);
    return arr;
}

/* ---- tokens ---------------------------------------------------------------- */

static int is_blank(int c) { return c == ' ' || c == '\t'; }

/* Checks the escapes of a string's contents (decoded later, with "{expr}"
 * interpolation, by vec_value.c). */
static const char *bad_escape(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\')
            continue;
        if (++i == n)
            return "a string ends with a lone backslash";
        switch (s[i]) {
        case '\\': case '"': case 'n': case 't': case 'r': case '0': case '{': case '}':
            break;
        case 'x':
            if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) ||
                !isxdigit((unsigned char)s[i + 2]))
                return "\\x needs two hex digits";
            i += 2;
            break;
        default:
            return "unknown escape in a string (use \\\\ \\\" \\n \\t \\r \\0 \\xHH \\{ \\})";
        }
    }
    return NULL;
}

static void free_toks(struct tok *t, size_t n);

/* Cuts line into tokens; a '#' at the start of a token begins a comment. */
static int tokenize(struct vector *v, int lineno, const char *line,
                    struct tok **out, size_t *nout)
{
    struct tok *t = NULL;
    size_t n = 0;
    size_t i = 0, len = strlen(line);
    while (i < len) {
        while (i < len && is_blank(line[i]))
            i++;
        if (i >= len || line[i] == '#')
            break;
        struct tok k;
        k.off = i;
        if (line[i] == '"') {
            size_t j = i + 1;
            while (j < len && line[j] != '"') {
                if (line[j] == '\\' && j + 1 < len)
                    j++;
                j++;
            }
            if (j >= len) {
                free_toks(t, n);
                return syntax(v, lineno, "unterminated string");
            }
            const char *why = bad_escape(line + i + 1, j - i - 1);
            if (why) {
                free_toks(t, n);
                return syntax(v, lineno, "%s", why);
            }
            k.kind = TK_STRING;
            k.text = vec_xstrndup(line + i + 1, j - i - 1);
            k.len = j + 1 - i;
            i = j + 1;
            if (i < len && !is_blank(line[i])) {
                free(k.text);
                free_toks(t, n);
                return syntax(v, lineno, "a blank must follow a closing quote");
            }
        } else {
            size_t j = i;
            while (j < len && !is_blank(line[j]))
                j++;
            k.kind = TK_WORD;
            k.text = vec_xstrndup(line + i, j - i);
            k.len = j - i;
            i = j;
        }
        t = grow(t, n, sizeof *t);
        t[n++] = k;
    }
    *out = t;
    *nout = n;
    return 0;
}

static void free_toks(struct tok *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(t[i].text);
    free(t);
}

static int valid_rule_id(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '-' && s[i] != '_')
            return 0;
    return 1;
}

static int is_word(const struct tok *k, const char *w)
{
    return k->kind == TK_WORD && strcmp(k->text, w) == 0;
}

static struct tok dup_tok(const struct tok *k)
{
    struct tok d = *k;
    d.text = vec_xstrndup(k->text, strlen(k->text));
    return d;
}

static int ends_expectation(const struct tok *k)
{
    return k->kind == TK_WORD && (k->text[0] == '@' || k->text[0] == '[');
}

/* Sorts a line's tokens into a step: [exact:] verb args [-> expectation]
 * [@key value]... [[rule]]...  The step gets copies of the tokens it keeps. */
static int make_step(struct vector *v, int lineno, const struct tok *t, size_t n,
                     struct step *s)
{
    memset(s, 0, sizeof *s);
    s->line = lineno;
    size_t i = 0;
    if (is_word(&t[0], "exact:")) {
        s->exact = 1;
        i = 1;
    }
    if (i == n)
        return syntax(v, lineno, "'exact:' without a step");
    if (t[i].kind != TK_WORD || ends_expectation(&t[i]) || is_word(&t[i], "->"))
        return syntax(v, lineno, "a step begins with a verb");
    size_t args = i;
    while (i < n && !is_word(&t[i], "->") && !ends_expectation(&t[i]))
        i++;
    s->t = vec_xmalloc((i - args) * sizeof *s->t);
    for (size_t k = args; k < i; k++)
        s->t[s->nt++] = dup_tok(&t[k]);
    if (i < n && is_word(&t[i], "->")) {
        s->arrow = 1;
        size_t e = ++i;
        while (i < n && !ends_expectation(&t[i]))
            i++;
        s->e = vec_xmalloc((i - e) * sizeof *s->e);
        for (size_t k = e; k < i; k++) {
            if (is_word(&t[k], "->"))
                return syntax(v, lineno, "'->' given twice");
            s->e[s->ne++] = dup_tok(&t[k]);
        }
        if (s->ne == 0)
            return syntax(v, lineno, "'->' without an expectation");
    }
    while (i < n) {
        const struct tok *k = &t[i];
        if (k->kind == TK_WORD && k->text[0] == '@') {
            if (k->text[1] == '\0')
                return syntax(v, lineno, "'@' without a key");
            if (i + 1 >= n || is_word(&t[i + 1], "->") || ends_expectation(&t[i + 1]))
                return syntax(v, lineno, "'%s' without a value", k->text);
            for (size_t m = 0; m < s->na; m++)
                if (strcmp(s->a[m].key, k->text + 1) == 0)
                    return syntax(v, lineno, "'%s' given twice", k->text);
            s->a = grow(s->a, s->na, sizeof *s->a);
            s->a[s->na].key = vec_xstrndup(k->text + 1, strlen(k->text + 1));
            s->a[s->na].val = dup_tok(&t[i + 1]);
            s->a[s->na].used = 0;
            s->a[s->na].actual = NULL;
            s->na++;
            i += 2;
        } else if (k->kind == TK_WORD && k->text[0] == '[') {
            size_t len = strlen(k->text);
            if (len < 3 || k->text[len - 1] != ']' || !valid_rule_id(k->text + 1, len - 2))
                return syntax(v, lineno, "'%s': a rule tag is [rule-id]", k->text);
            s->rules = grow(s->rules, s->nrules, sizeof *s->rules);
            s->rules[s->nrules++] = vec_xstrndup(k->text + 1, len - 2);
            i++;
        } else {
            return syntax(v, lineno, "'%s' after the annotations: '@key value' and "
                          "'[rule]' come last", k->kind == TK_STRING ? "\"...\"" : k->text);
        }
    }
    return 0;
}

static void free_step(struct step *s)
{
    free_toks(s->t, s->nt);
    free_toks(s->e, s->ne);
    for (size_t i = 0; i < s->na; i++) {
        free(s->a[i].key);
        free(s->a[i].val.text);
        free(s->a[i].actual);
    }
    free(s->a);
    for (size_t i = 0; i < s->nrules; i++)
        free(s->rules[i]);
    free(s->rules);
}

/* ---- header ---------------------------------------------------------------- */

unsigned vec_option_bit(const char *name)
{
    if (strcmp(name, "TRC") == 0) return OPT_TRC;
    if (strcmp(name, "TEF") == 0) return OPT_TEF;
    if (strcmp(name, "TRI") == 0) return OPT_TRI;
    if (strcmp(name, "TRL") == 0) return OPT_TRL;
    return 0;
}

void vec_options_text(unsigned options, char *buf, size_t size)
{
    static const char *names[] = { "TRC", "TEF", "TRI", "TRL" };
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < 4; i++)
        if (options & (1u << i)) {
            int w = snprintf(buf + used, size - used, "%s%s", used ? "," : "", names[i]);
            if (w < 0 || (size_t)w >= size - used)
                return;
            used += (size_t)w;
        }
}

/* Splits a comma (or blank) separated list. */
static int header_list(struct vector *v, int lineno, const char *key, const char *val,
                       char ***out, size_t *nout)
{
    const char *p = val;
    while (*p) {
        while (*p == ',' || is_blank(*p))
            p++;
        if (!*p)
            break;
        const char *q = p;
        while (*q && *q != ',' && !is_blank(*q))
            q++;
        if (!valid_rule_id(p, (size_t)(q - p)))
            return syntax(v, lineno, "%s: '%.*s' is not a valid name", key, (int)(q - p), p);
        *out = grow(*out, *nout, sizeof **out);
        (*out)[(*nout)++] = vec_xstrndup(p, (size_t)(q - p));
        p = q;
    }
    if (*nout == 0)
        return syntax(v, lineno, "%s: empty list", key);
    return 0;
}

static int header_field(struct vector *v, int lineno, const char *key, const char *val)
{
    if (strcmp(key, "rules") == 0) {
        if (v->nrules)
            return syntax(v, lineno, "rules: given twice");
        return header_list(v, lineno, "rules", val, &v->rules, &v->nrules);
    }
    if (strcmp(key, "options") == 0) {
        char **names = NULL;
        size_t n = 0;
        if (v->options)
            return syntax(v, lineno, "options: given twice");
        int rc = header_list(v, lineno, "options", val, &names, &n);
        for (size_t i = 0; i < n; i++) {
            unsigned bit = vec_option_bit(names[i]);
            if (bit == 0 && rc == 0)
                rc = syntax(v, lineno, "options: '%s' is not one of TRC, TEF, TRI, TRL", names[i]);
            v->options |= bit;
            free(names[i]);
        }
        free(names);
        return rc;
    }
    return syntax(v, lineno, "unknown header field '%s:' (known: rules, options)", key);
}

/* ---- the file ------------------------------------------------------------- */

int vec_load(const char *path, struct vector *v)
{
    memset(v, 0, sizeof *v);
    v->path = vec_xstrndup(path, strlen(path));
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return syntax(v, 0, "cannot open: %s", strerror(errno));

    char *buf = NULL;
    size_t cap = 0;
    ssize_t got;
    int in_steps = 0;
    while ((got = getline(&buf, &cap, f)) >= 0) {
        int lineno = (int)v->nlines + 1;
        size_t len = (size_t)got;
        if (memchr(buf, '\0', len) != NULL) {
            syntax(v, lineno, "NUL byte in the line");
            len = strlen(buf);
        }
        while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            len--;
        v->lines = grow(v->lines, v->nlines, sizeof *v->lines);
        v->lines[v->nlines++] = vec_xstrndup(buf, len);
        if (lineno > 100000) {
            syntax(v, lineno, "vector too long (more than 100000 lines)");
            break;
        }
    }
    free(buf);
    if (ferror(f))
        syntax(v, 0, "read error: %s", strerror(errno));
    fclose(f);

    for (size_t i = 0; i < v->nlines && v->err[0] == '\0'; i++) {
        int lineno = (int)i + 1;
        const char *line = v->lines[i];
        const char *p = line;
        while (is_blank(*p))
            p++;
        if (*p == '\0')
            continue;
        if (v->title == NULL) {
            if (*p != '#')
                return syntax(v, lineno, "a vector begins with '# title'");
            p++;
            while (is_blank(*p))
                p++;
            if (*p == '\0')
                return syntax(v, lineno, "empty title");
            v->title = vec_xstrndup(p, strlen(p));
            continue;
        }
        if (*p == '#')
            continue;
        /* A header field: "key: value" before the first step. */
        const char *q = p;
        while (*q >= 'a' && *q <= 'z')
            q++;
        if (q > p && *q == ':' && (q[1] == '\0' || is_blank(q[1])) &&
            !((size_t)(q - p) == 5 && strncmp(p, "exact", 5) == 0)) {
            if (in_steps)
                return syntax(v, lineno, "header field '%.*s:' after the first step",
                              (int)(q - p), p);
            char *key = vec_xstrndup(p, (size_t)(q - p));
            int rc = header_field(v, lineno, key, q + 1);
            free(key);
            if (rc)
                return -1;
            continue;
        }
        struct tok *t = NULL;
        size_t n = 0;
        if (tokenize(v, lineno, line, &t, &n))
            return -1;
        if (n == 0) {
            free(t);
            continue;
        }
        if (!in_steps) {
            in_steps = 1;
            if (v->nrules == 0)
                return free_toks(t, n), syntax(v, lineno, "missing header field 'rules:'");
            if (v->options == 0)
                return free_toks(t, n), syntax(v, lineno, "missing header field 'options:'");
        }
        v->steps = grow(v->steps, v->nsteps, sizeof *v->steps);
        struct step *s = &v->steps[v->nsteps++];
        int rc = make_step(v, lineno, t, n, s);
        free_toks(t, n);
        if (rc)
            return -1;
        for (size_t r = 0; r < s->nrules; r++) {
            size_t k;
            for (k = 0; k < v->nrules; k++)
                if (strcmp(v->rules[k], s->rules[r]) == 0)
                    break;
            if (k == v->nrules)
                return syntax(v, lineno, "[%s] is not in the header's rules:", s->rules[r]);
        }
    }
    if (v->err[0])
        return -1;
    if (v->title == NULL)
        return syntax(v, 0, "empty vector (no '# title')");
    if (v->nrules == 0)
        return syntax(v, 0, "missing header field 'rules:'");
    if (v->options == 0)
        return syntax(v, 0, "missing header field 'options:'");
    if (v->nsteps == 0)
        return syntax(v, 0, "no steps");
    return 0;
}

void vec_free(struct vector *v)
{
    free(v->path);
    free(v->title);
    for (size_t i = 0; i < v->nrules; i++)
        free(v->rules[i]);
    free(v->rules);
    for (size_t i = 0; i < v->nsteps; i++)
        free_step(&v->steps[i]);
    free(v->steps);
    for (size_t i = 0; i < v->nlines; i++)
        free(v->lines[i]);
    free(v->lines);
    memset(v, 0, sizeof *v);
}
