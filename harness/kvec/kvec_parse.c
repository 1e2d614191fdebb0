/* SPDX-License-Identifier: MIT */
/*
 * kvec_parse.c -- reads a kernel slot protocol vector (.kvec, the language
 * of vectors/ksp/README.md) into lines of tokens, and turns tokens into
 * values: numbers, data, classes, struct flags, errno names; and says what
 * the language makes of a line (the summary keys, the decoder expectations).
 *
 * A vector: "# title" on its first line, "rules: KSP-n, ..." and optionally
 * "functions: a, b" in its header, then one step per line.  '#' starts a
 * comment at the start of a line or after a blank; trailing [KSP-n] tags
 * name the rules a step checks (kvec_rules.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kvec.h"

static int say(char *err, size_t errlen, const char *path, unsigned line, const char *what)
{
    snprintf(err, errlen, "%s:%u: %s", path, line, what);
    return -1;
}

/* Splits one line in place; 0 or -1 with a message. */
static int tokenize(char *s, struct kv_line *l, const char *path, char *err, size_t errlen)
{
    l->ntok = 0;
    l->ntags = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (*s == '\0' || *s == '#')
            break;
        if (l->ntok == KV_MAX_TOKENS)
            return say(err, errlen, path, l->lineno, "more than 64 tokens on a line");
        char *start = s;
        if (*s == '"') {
            for (s++; *s && *s != '"'; s++)
                if (*s == '\\' && s[1])
                    s++;
            if (*s != '"')
                return say(err, errlen, path, l->lineno, "string not closed (a \" is missing)");
            s++;
        } else {
            while (*s && *s != ' ' && *s != '\t' && *s != '\r')
                s++;
        }
        if (*s)
            *s++ = '\0';
        l->tok[l->ntok++] = start;
    }
    /* Trailing [KSP-n] tags, kept in the order written. */
    unsigned first = l->ntok;
    while (first > 0) {
        char *t = l->tok[first - 1];
        size_t n = strlen(t);
        if (n <= 2 || t[0] != '[' || t[n - 1] != ']')
            break;
        first--;
    }
    if (l->ntok - first > KV_MAX_TAGS)
        return say(err, errlen, path, l->lineno, "more than 16 [KSP-n] tags on a step");
    for (unsigned i = first; i < l->ntok; i++) {
        char *t = l->tok[i];
        t[strlen(t) - 1] = '\0';
        l->tags[l->ntags++] = t + 1;
    }
    l->ntok = first;
    if (first == 0 && l->ntags > 0)
        return say(err, errlen, path, l->lineno, "a [KSP-n] tag with no step before it");
    return 0;
}

/* Copies a header value, trimmed, with ", " lists made "a,b". */
static char *list_value(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    if (out == NULL)
        return NULL;
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r')
            *o++ = *s;
    *o = '\0';
    return out;
}

int kv_load(const char *path, const char *id, struct kv_vector *v, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    memset(v, 0, sizeof *v);
    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t n;
    while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *t = len > (1u << 24) ? NULL : realloc(text, cap * 2);
            if (t == NULL) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (text == NULL) {
        snprintf(err, errlen, "%s: too big or out of memory", path);
        return -1;
    }
    text[len] = '\0';
    if (memchr(text, '\0', len) != NULL) {
        free(text);
        snprintf(err, errlen, "%s: a NUL byte in a vector", path);
        return -1;
    }
    v->text = text;
    v->path = strdup(path);
    v->id = strdup(id);

    size_t nl = 1;
    for (char *p = text; *p; p++)
        nl += *p == '\n';
    v->lines = calloc(nl, sizeof *v->lines);
    if (v->lines == NULL || v->path == NULL || v->id == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    unsigned lineno = 0;
    for (char *p = text; p != NULL && *p;) {
        char *line = p, *nlp = strchr(p, '\n');
        if (nlp)
            *nlp = '\0';
        p = nlp ? nlp + 1 : NULL;
        lineno++;
        if (lineno == 1) {
            if (line[0] != '#')
                return say(err, errlen, path, 1, "the first line must be \"# title\"");
            line++;
            while (*line == ' ')
                line++;
            v->title = line;
            continue;
        }
        if (strncmp(line, "rules:", 6) == 0) {
            free(v->rules);
            v->rules = list_value(line + 6);
            continue;
        }
        if (strncmp(line, "functions:", 10) == 0) {
            free(v->functions);
            v->functions = list_value(line + 10);
            continue;
        }
        struct kv_line *l = &v->lines[v->nlines];
        l->lineno = lineno;
        if (tokenize(line, l, path, err, errlen) != 0)
            return -1;
        if (l->ntok > 0)
            v->nlines++;
    }
    if (v->rules == NULL || v->rules[0] == '\0')
        return say(err, errlen, path, 1, "no \"rules:\" line");
    for (const char *r = v->rules; *r; r++)
        if (!isalnum((unsigned char)*r) && *r != '-' && *r != ',')
            return say(err, errlen, path, 1, "rules: expected KSP-n, KSP-m, ...");
    if (v->functions == NULL)
        v->functions = list_value("");
    v->rule_text = list_value(v->rules);
    if (v->functions == NULL || v->rule_text == NULL)
        return say(err, errlen, path, 1, "out of memory");
    for (char *r = v->rule_text; r; ) {
        char *comma = strchr(r, ',');
        if (comma)
            *comma = '\0';
        if (*r == '\0' || v->nrules == KV_MAX_RULES)
            return say(err, errlen, path, 1, "rules: expected KSP-n, KSP-m, ... (at most 32)");
        v->rule[v->nrules++] = r;
        r = comma ? comma + 1 : NULL;
    }
    return 0;
}

void kv_free_vector(struct kv_vector *v)
{
    free(v->lines);
    free(v->text);
    free(v->path);
    free(v->id);
    free(v->rules);
    free(v->rule_text);
    free(v->functions);
    memset(v, 0, sizeof *v);
}

/* ---- values -------------------------------------------------------------------- */

int kv_u64(const char *t, uint64_t *v)
{
    char *end;
    if (t == NULL || !isdigit((unsigned char)t[0]))
        return -1;
    errno = 0;
    unsigned long long x = strtoull(t, &end, 0);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    *v = x;
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int kv_data(const char *t, unsigned char **out, size_t *len)
{
    size_t n = t ? strlen(t) : 0;
    unsigned char *b = malloc(n + 1), *o = b;
    if (b == NULL || t == NULL) {
        free(b);
        return -1;
    }
    if (strcmp(t, "empty") == 0) {
        *out = b;
        *len = 0;
        return 0;
    }
    if (strncmp(t, "hex:", 4) == 0) {
        for (const char *p = t + 4; *p; p += 2) {
            int hi = hexval(p[0]), lo = p[1] ? hexval(p[1]) : -1;
            if (hi < 0 || lo < 0) {
                free(b);
                return -1;
            }
            *o++ = (unsigned char)(hi << 4 | lo);
        }
    } else if (t[0] == '"' && n >= 2 && t[n - 1] == '"') {
        for (const char *p = t + 1; p < t + n - 1; p++) {
            if (*p != '\\') {
                *o++ = (unsigned char)*p;
                continue;
            }
            p++;
            switch (*p) {
            case 'n': *o++ = '\n'; break;
            case 't': *o++ = '\t'; break;
            case 'r': *o++ = '\r'; break;
            case '0': *o++ = '\0'; break;
            case '\\': *o++ = '\\'; break;
            case '"': *o++ = '"'; break;
            case 'x': {
                int hi = hexval(p[1]), lo = hi >= 0 ? hexval(p[2]) : -1;
                if (lo < 0) {
                    free(b);
                    return -1;
                }
                *o++ = (unsigned char)(hi << 4 | lo);
                p += 2;
                break;
            }
            default:
                free(b);
                return -1;
            }
        }
    } else {
        free(b);
        return -1;
    }
    *out = b;
    *len = (size_t)(o - b);
    return 0;
}

static const char *const class_names[] = {
    "EMPTY", "CONTROL", "KER_CALL", "INT", "PR_TH", "SYSTEM", "USER", "COMM",
};

int kv_class(const char *t, unsigned *cls)
{
    uint64_t v;
    for (unsigned i = 0; i < 8; i++)
        if (strcmp(t, class_names[i]) == 0) {
            *cls = i;
            return 0;
        }
    if (kv_u64(t, &v) == 0 && v < 32) {
        *cls = (unsigned)v;
        return 0;
    }
    return -1;
}

static const char *const ext_names[] = {
    "EMPTY", "CONTROL", "KERCALL", "KERCALLENTER", "KERCALLEXIT", "KERCALLINT", "INT",
    "INTENTER", "INTEXIT", "PROCESS", "THREAD", "VTHREAD", "USER", "SYSTEM", "COMM",
    "INT_HANDLER_ENTER", "INT_HANDLER_EXIT",
};

int kv_ext_class(const char *t, int *ext)
{
    uint64_t v;
    for (int i = 0; i < 17; i++)
        if (strcmp(t, ext_names[i]) == 0) {
            *ext = i;
            return 0;
        }
    if (kv_u64(t, &v) == 0 && v < 1000) {
        *ext = (int)v;
        return 0;
    }
    return -1;
}

int kv_flag(const char *t, uint32_t *flag)
{
    static const char *const names[] = { "S", "CB", "CC", "CE" };
    for (uint32_t i = 0; i < 4; i++)
        if (strcmp(t, names[i]) == 0) {
            *flag = i << 30;
            return 0;
        }
    return -1;
}

static const struct { const char *name; int e; } errnos[] = {
    { "0", 0 }, { "EINVAL", EINVAL }, { "ERANGE", ERANGE }, { "ENOSPC", ENOSPC },
    { "ENOTSUP", ENOTSUP }, { "ENOMEM", ENOMEM },
};

int kv_errno(const char *t, int *e)
{
    for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
        if (strcmp(t, errnos[i].name) == 0) {
            *e = errnos[i].e;
            return 0;
        }
    return -1;
}

const char *kv_errno_name(int e)
{
    for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
        if (errnos[i].e == e)
            return errnos[i].name;
    return strerror(e);
}

/* ---- what the language says about a line -------------------------------------- */

/* The summary keys a vector may check (kvec.h). */
const char *const kv_summary_keys[KV_NSUM] = {
    "events", "dropped_events", "dropped_slots", "buffers", "errors",     /* required */
    "slots", "combine_events", "incomplete_events", "time_events", "wraps",
};

/* The expectations on the decoded view (kvec_decode.c checks them, against
 * the reference's decoder or another one); the others are reference-only. */
int kv_is_decoder_expect(const struct kv_line *l)
{
    static const char *const kinds[] = { "event", "events", "error", "no-errors", "fatal",
                                         "summary", "accounting" };
    if (l->ntok < 2)
        return 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(l->tok[1], kinds[i]) == 0)
            return 1;
    return 0;
}
