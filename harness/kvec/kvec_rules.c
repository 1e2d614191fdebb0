/* SPDX-License-Identifier: MIT */
/*
 * kvec_rules.c -- which KSP rule each check of a .kvec serves, and each
 * rule's result of a run (issue 13 item 2: a failure blames the rule whose
 * check failed, and only it).  The semantics and the words are vecrun's
 * (harness/vec/vec_rules.c; the lines are made by vec_rule_results.c); what differs
 * is the language, vectors/ksp/README.md "Which rule a check serves":
 *
 * - a check is a line "expect ...", "=> ..." or any step with "->"; the
 *   steps that build the input (file, slot, raw, bytes, sim) check nothing:
 *   their failures are the vector's own (UNRESOLVED) and blame no rule;
 * - a check serves the rules of its [KSP-n] tags; a "=>" line without tags
 *   those of its encode line; an encode line without "->" (its failures:
 *   the encoder refused, or wrote a slot more or less) those of itself and
 *   of its "=>" lines; in a vector of one rule, that rule.
 *
 * Where vecrun predicts the checks still to run from its position (loops,
 * background reads), kvecrun runs the reference-only steps in file order and
 * the decoder expectations afterwards, so it notes each line whose checks
 * ran (kv_rules_ran): a rule is "not reached" when a check of it that this
 * run does (kv_checks_here) has not run.
 */
#include <stdlib.h>
#include <string.h>
#include "kvec.h"
#include "../common/vec_rule_results.h"

static int is(const struct kv_line *l, const char *w)
{
    return l->ntok > 0 && strcmp(l->tok[0], w) == 0;
}

int kv_is_check(const struct kv_line *l)
{
    if (is(l, "expect") || is(l, "=>"))
        return 1;
    for (unsigned i = 1; i < l->ntok; i++)
        if (strcmp(l->tok[i], "->") == 0)
            return 1;
    return 0;
}

static int tagged(const struct kv_line *l, const char *rule)
{
    for (unsigned k = 0; k < l->ntags; k++)
        if (strcmp(l->tags[k], rule) == 0)
            return 1;
    return 0;
}

/* The encode line a "=>" line belongs to, or NULL. */
static const struct kv_line *encode_of(const struct kv_vector *v, const struct kv_line *l)
{
    const struct kv_line *e = l;
    while (e > v->lines && is(e, "=>"))
        e--;
    return is(e, "encode") ? e : NULL;
}

/* Does line l serve rule (one of the header's)? */
static int serves(const struct kv_vector *v, const struct kv_line *l, const char *rule)
{
    if (v->nrules == 1 || l->ntags > 0)
        return v->nrules == 1 || tagged(l, rule);
    if (is(l, "=>")) {
        const struct kv_line *e = encode_of(v, l);
        if (e && e->ntags > 0)
            return tagged(e, rule);
    } else if (is(l, "encode") && !kv_is_check(l)) {
        int any = 0;
        for (const struct kv_line *x = l + 1; x < v->lines + v->nlines && is(x, "=>"); x++) {
            any |= x->ntags > 0;
            if (tagged(x, rule))
                return 1;
        }
        if (any)
            return 0;
    }
    return 1;       /* untagged: kv_rules_lint refuses it in a vector of several rules */
}

int kv_rules_lint(const struct kv_vector *v, char *msg, size_t size)
{
    for (size_t i = 0; i < v->nlines; i++) {
        const struct kv_line *l = &v->lines[i];
        for (unsigned k = 0; k < l->ntags; k++) {
            size_t r = 0;
            while (r < v->nrules && strcmp(v->rule[r], l->tags[k]) != 0)
                r++;
            if (r == v->nrules) {
                snprintf(msg, size, "%s:%u: the tag [%s] is not a rule of this vector "
                         "(rules: %s)", v->path, l->lineno, l->tags[k], v->rules);
                return -1;
            }
        }
        if (v->nrules < 2 || !kv_is_check(l) || l->ntags > 0)
            continue;
        const struct kv_line *e = is(l, "=>") ? encode_of(v, l) : NULL;
        if (e == NULL || e->ntags == 0) {
            snprintf(msg, size, "%s:%u: a check in a vector of several rules names none of "
                     "them: add [KSP-n]", v->path, l->lineno);
            return -1;
        }
    }
    return 0;
}

/* The rule the failure names (expect verify: r->fail_rule), when it is one
 * of those line l serves: then it alone is blamed.  Else NULL. */
static const char *named_rule(const struct kv_run *r, const struct kv_line *l)
{
    for (size_t k = 0; l && r->fail_rule[0] && k < r->v->nrules; k++)
        if (strcmp(r->v->rule[k], r->fail_rule) == 0 && serves(r->v, l, r->v->rule[k]))
            return r->v->rule[k];
    return NULL;
}

/* Is rule blamed for a failure of line l (NULL: of no line, every rule)? */
static int blamed(const struct kv_run *r, const struct kv_line *l, const char *rule)
{
    const char *named = named_rule(r, l);
    return named ? strcmp(named, rule) == 0 : l == NULL || serves(r->v, l, rule);
}

void kv_rules_blamed(const struct kv_run *r, const struct kv_line *l, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t k = 0; k < r->v->nrules && len < size; k++)
        if (blamed(r, l, r->v->rule[k]))
            len += (size_t)snprintf(out + len, size - len, "%s%s", len ? ", " : "",
                                    r->v->rule[k]);
}

int kv_rules_start(struct kv_run *r, const struct kv_vector *v)
{
    r->v = v;
    r->line_ran = calloc(r->v->nlines + 1, 1);
    return r->line_ran ? 0 : -1;
}

void kv_rules_ran(struct kv_run *r, const struct kv_line *from, const struct kv_line *to)
{
    if (r->line_ran == NULL)
        return;
    for (const struct kv_line *l = from; l <= to; l++)
        if (kv_is_check(l))
            r->line_ran[l - r->v->lines] = 1;
}

/* Does this run check line l?  Against another decoder, only the decoder
 * expectations are checked (the reference-only steps are skipped). */
static int kv_checks_here(const struct kv_run *r, const struct kv_line *l)
{
    return kv_is_check(l) && (!r->external_only || (is(l, "expect") &&
                                                     kv_is_decoder_expect(l)));
}

char *kv_rules_text(const struct kv_run *r)
{
    const struct kv_vector *v = r->v;
    int failed = r->code == KV_FAIL;
    if (r->line_ran == NULL || (r->code != KV_PASS && !failed) || (failed && !r->fail_line))
        return NULL;
    struct rule_tally t[KV_MAX_RULES];
    for (size_t k = 0; k < v->nrules; k++) {
        t[k] = (struct rule_tally){ v->rule[k], failed && blamed(r, r->fail_line, v->rule[k]),
                                    0, 0 };
        for (size_t i = 0; i < v->nlines; i++) {
            const struct kv_line *l = &v->lines[i];
            if (!kv_checks_here(r, l) || !serves(v, l, v->rule[k]))
                continue;
            if (r->line_ran[i])
                t[k].ran++;
            else if (l != r->fail_line)
                t[k].pending = 1;
        }
    }
    return rule_results_text(t, v->nrules, failed, r->msg);
}
