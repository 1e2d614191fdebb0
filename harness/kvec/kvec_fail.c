/* SPDX-License-Identifier: MIT */
/*
 * kvec_fail.c -- how a run of a KSP vector fails (kvec.h): the first failure
 * wins, with its message "PATH:LINE: what [the rules it blames]" and its
 * result code; every step and expectation of harness/kvec/ calls these.
 */
#include <stdarg.h>
#include <stdio.h>
#include "kvec.h"

int kv_fail(struct kv_run *r, const struct kv_line *l, int code, const char *fmt, ...)
{
    if (r->code != KV_PASS)
        return r->code;
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char rules[256];
    kv_rules_blamed(r, l, rules, sizeof rules);
    if (snprintf(r->msg, sizeof r->msg, "%s:%u: %s [%s]", r->v->path, l ? l->lineno : 1,
                 what, rules) >= (int)sizeof r->msg)
        r->msg[sizeof r->msg - 2] = '~';    /* cut short: say so */
    r->code = code;
    r->fail_line = l;
    return code;
}

int kv_bad_vector(struct kv_run *r, const struct kv_line *l, const char *what)
{
    return kv_fail(r, l, KV_UNRESOLVED, "vector error: %s", what);
}
