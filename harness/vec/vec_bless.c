/* SPDX-License-Identifier: MIT */
/*
 * vec_bless.c -- bless: the vector's text with every annotation's value
 * replaced by what the run gave.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include "vec_vm.h"

/* ---- bless --------------------------------------------------------------- */

char *vec_blessed_text(const struct vector *v, char *msg, size_t size)
{
    size_t cap = 1, len = 0;
    for (size_t i = 0; i < v->nlines; i++)
        cap += strlen(v->lines[i]) + 1;
    for (size_t i = 0; i < v->nsteps; i++)
        for (size_t j = 0; j < v->steps[i].na; j++) {
            const struct annot *a = &v->steps[i].a[j];
            if (a->actual == NULL) {
                snprintf(msg, size, "%s:%d: @%s was not reached: nothing to bless", v->path,
                         v->steps[i].line, a->key);
                return NULL;
            }
            cap += strlen(a->actual);
        }
    char *out = vec_xmalloc(cap);
    size_t si = 0;
    for (size_t li = 0; li < v->nlines; li++) {
        const char *line = v->lines[li];
        size_t pos = 0;
        while (si < v->nsteps && v->steps[si].line < (int)li + 1)
            si++;
        if (si < v->nsteps && v->steps[si].line == (int)li + 1) {
            const struct step *s = &v->steps[si];
            /* Replace each annotation's value, left to right. */
            for (;;) {
                const struct annot *next = NULL;
                for (size_t j = 0; j < s->na; j++)
                    if (s->a[j].val.off >= pos && (next == NULL || s->a[j].val.off < next->val.off))
                        next = &s->a[j];
                if (next == NULL)
                    break;
                memcpy(out + len, line + pos, next->val.off - pos);
                len += next->val.off - pos;
                memcpy(out + len, next->actual, strlen(next->actual));
                len += strlen(next->actual);
                pos = next->val.off + next->val.len;
            }
        }
        size_t rest = strlen(line + pos);
        memcpy(out + len, line + pos, rest);
        len += rest;
        out[len++] = '\n';
    }
    out[len] = '\0';
    return out;
}
