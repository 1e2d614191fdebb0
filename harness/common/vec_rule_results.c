/* SPDX-License-Identifier: MIT */
/*
 * vec_rule_results.c -- the RULE-RESULT lines of a vector's run (vec_rule_results.h),
 * the same for vecrun and kvecrun.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vec_rule_results.h"

struct text {
    char *s;
    size_t len;
    int broken;         /* out of memory: no lines rather than some */
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 || t->broken ? NULL : realloc(t->s, t->len + (size_t)n + 1);
    if (s == NULL) {
        t->broken = 1;
        return;
    }
    t->s = s;
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

char *rule_results_text(const struct rule_tally *t, size_t n, int failed, const char *msg)
{
    struct text out = { NULL, 0, 0 }, names = { NULL, 0, 0 };
    if (n == 0)
        return NULL;
    for (size_t r = 0; failed && r < n; r++)
        if (t[r].failed)
            add(&names, "%s%s", names.len ? ", " : "", t[r].id);
    for (size_t r = 0; r < n; r++) {
        if (failed && t[r].failed)
            add(&out, "RULE-RESULT %s FAIL %s\n", t[r].id, msg);
        else if (failed && t[r].pending)
            add(&out, "RULE-RESULT %s UNRESOLVED not reached: the test stopped at a failure "
                "of %s\n", t[r].id, names.s ? names.s : "another rule");
        else if (t[r].ran)
            add(&out, "RULE-RESULT %s PASS %d check%s ran and passed\n", t[r].id, t[r].ran,
                t[r].ran == 1 ? "" : "s");
        else
            add(&out, "RULE-RESULT %s UNTESTED no portable check of this rule ran\n", t[r].id);
    }
    free(names.s);
    if (out.broken) {
        free(out.s);
        return NULL;
    }
    return out.s;
}
