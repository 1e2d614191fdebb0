/* SPDX-License-Identifier: MIT */
/*
 * kvec_json.c -- a small JSON reader for kvecrun: what another decoder
 * prints (the contract of vectors/ksp/README.md) becomes a tree of struct kj.
 *
 * Complete for RFC 8259 documents, with two limits of its purpose: numbers
 * keep their exact value only when they are non-negative integers that fit
 * 64 bits (the contract has no other kind), and strings with a \u0000 are
 * refused.  Nesting is limited to 64 levels; input of any kind is read
 * without reading past its end.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kvec.h"

#define MAX_DEPTH 64

struct parser {
    const char *s;
    size_t n, i;
    char *err;
    size_t errlen;
    int failed;
};

static int fail(struct parser *p, const char *what)
{
    if (!p->failed)
        snprintf(p->err, p->errlen, "JSON offset %zu: %s", p->i, what);
    p->failed = 1;
    return -1;
}

static void skip_ws(struct parser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
                           p->s[p->i] == '\r'))
        p->i++;
}

static int hex4(struct parser *p, unsigned *v)
{
    *v = 0;
    for (int k = 0; k < 4; k++) {
        if (p->i >= p->n)
            return fail(p, "\\u escape cut short");
        char c = p->s[p->i++];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
        if (d == 16)
            return fail(p, "bad \\u escape");
        *v = *v << 4 | d;
    }
    return 0;
}

static char *string(struct parser *p)
{
    size_t cap = 16, len = 0;
    char *out = malloc(cap);
    p->i++;                                 /* past the quote */
    while (out) {
        if (p->i >= p->n) {
            fail(p, "string not closed");
            break;
        }
        unsigned char c = (unsigned char)p->s[p->i++];
        if (c == '"') {
            out[len] = '\0';
            return out;
        }
        if (c < 0x20) {
            fail(p, "control character in a string");
            break;
        }
        unsigned cp = c;
        if (c == '\\') {
            if (p->i >= p->n) {
                fail(p, "string not closed");
                break;
            }
            char e = p->s[p->i++];
            switch (e) {
            case '"': case '\\': case '/': cp = (unsigned char)e; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                if (hex4(p, &cp) != 0)
                    goto bad;
                if (cp >= 0xD800 && cp < 0xDC00) {     /* a surrogate pair */
                    unsigned lo;
                    if (p->i + 2 > p->n || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                        goto lone;
                    p->i += 2;
                    if (hex4(p, &lo) != 0)
                        goto bad;
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        goto lone;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    goto lone;
                }
                if (cp == 0) {
                    fail(p, "\\u0000 in a string");
                    goto bad;
                }
                break;
            default:
                fail(p, "bad escape in a string");
                goto bad;
            }
        }
        if (len + 5 > cap) {
            char *o = realloc(out, cap *= 2);
            if (o == NULL)
                break;
            out = o;
        }
        if (c != '\\' || cp < 0x80) {
            out[len++] = (char)cp;
        } else if (cp < 0x800) {
            out[len++] = (char)(0xC0 | cp >> 6);
            out[len++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[len++] = (char)(0xE0 | cp >> 12);
            out[len++] = (char)(0x80 | (cp >> 6 & 0x3F));
            out[len++] = (char)(0x80 | (cp & 0x3F));
        } else {
            out[len++] = (char)(0xF0 | cp >> 18);
            out[len++] = (char)(0x80 | (cp >> 12 & 0x3F));
            out[len++] = (char)(0x80 | (cp >> 6 & 0x3F));
            out[len++] = (char)(0x80 | (cp & 0x3F));
        }
        continue;
lone:
        fail(p, "lone surrogate in a string");
bad:
        break;
    }
    if (out == NULL)
        fail(p, "out of memory");
    free(out);
    return NULL;
}

static int number(struct parser *p, struct kj *j)
{
    int neg = 0, frac = 0;
    uint64_t u = 0;
    int overflow = 0;

    if (p->s[p->i] == '-') {
        neg = 1;
        p->i++;
    }
    if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
        return fail(p, "bad number");
    if (p->s[p->i] == '0' && p->i + 1 < p->n && p->s[p->i + 1] >= '0' && p->s[p->i + 1] <= '9')
        return fail(p, "number with a leading zero");
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
        unsigned d = (unsigned)(p->s[p->i++] - '0');
        if (u > (UINT64_MAX - d) / 10)
            overflow = 1;
        u = u * 10 + d;
    }
    if (p->i < p->n && p->s[p->i] == '.') {
        frac = 1;
        p->i++;
        if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
            return fail(p, "bad number");
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        frac = 1;
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (p->i >= p->n || p->s[p->i] < '0' || p->s[p->i] > '9')
            return fail(p, "bad number");
        while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            p->i++;
    }
    j->type = KJ_NUM;
    j->is_uint = !neg && !frac && !overflow;
    j->u = j->is_uint ? u : 0;
    return 0;
}

static int value(struct parser *p, struct kj *j, int depth);

static int container(struct parser *p, struct kj *j, int depth, int obj)
{
    size_t cap = 0;
    char close = obj ? '}' : ']';

    j->type = obj ? KJ_OBJ : KJ_ARR;
    p->i++;
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
        return 0;
    }
    for (;;) {
        if (j->n == cap) {
            size_t c = cap ? cap * 2 : 8;
            struct kj *it = realloc(j->items, c * sizeof *it);
            if (it == NULL)
                return fail(p, "out of memory");
            j->items = it;
            if (obj) {
                char **k = realloc(j->keys, c * sizeof *k);
                if (k == NULL)
                    return fail(p, "out of memory");
                j->keys = k;
            }
            cap = c;
        }
        struct kj *it = &j->items[j->n];
        memset(it, 0, sizeof *it);
        if (obj) {
            skip_ws(p);
            if (p->i >= p->n || p->s[p->i] != '"')
                return fail(p, "expected a member name");
            char *k = string(p);
            if (k == NULL)
                return -1;
            j->keys[j->n] = k;
            skip_ws(p);
            if (p->i >= p->n || p->s[p->i] != ':') {
                j->n++;             /* owns the key: freed with it */
                return fail(p, "expected ':'");
            }
            p->i++;
        }
        j->n++;
        if (value(p, it, depth + 1) != 0)
            return -1;
        skip_ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == close) {
            p->i++;
            return 0;
        }
        return fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int literal(struct parser *p, const char *word, enum kj_type t, struct kj *j)
{
    size_t n = strlen(word);
    if (p->n - p->i < n || memcmp(p->s + p->i, word, n) != 0)
        return fail(p, "unexpected character");
    p->i += n;
    j->type = t;
    return 0;
}

static int value(struct parser *p, struct kj *j, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(p, "nested more than 64 levels");
    skip_ws(p);
    if (p->i >= p->n)
        return fail(p, "unexpected end");
    switch (p->s[p->i]) {
    case '{': return container(p, j, depth, 1);
    case '[': return container(p, j, depth, 0);
    case '"':
        j->type = KJ_STR;
        return (j->str = string(p)) ? 0 : -1;
    case 't': return literal(p, "true", KJ_TRUE, j);
    case 'f': return literal(p, "false", KJ_FALSE, j);
    case 'n': return literal(p, "null", KJ_NULL, j);
    default: return number(p, j);
    }
}

static void free_items(struct kj *j)
{
    for (size_t i = 0; i < j->n; i++) {
        free_items(&j->items[i]);
        if (j->keys)
            free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->str);
}

void kj_free(struct kj *j)
{
    if (j) {
        free_items(j);
        free(j);
    }
}

struct kj *kj_parse(const char *text, size_t len, char *err, size_t errlen)
{
    struct parser p = { text, len, 0, err, errlen, 0 };
    struct kj *j = calloc(1, sizeof *j);
    if (j == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (value(&p, j, 0) == 0) {
        skip_ws(&p);
        if (p.i == p.n)
            return j;
        fail(&p, "text after the document");
    }
    kj_free(j);
    return NULL;
}

const struct kj *kj_get(const struct kj *o, const char *key)
{
    if (o == NULL || o->type != KJ_OBJ)
        return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->keys[i], key) == 0)
            return &o->items[i];
    return NULL;
}
