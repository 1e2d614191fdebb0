/* SPDX-License-Identifier: MIT */
/*
 * vec_rule_results.h -- the "RULE-RESULT <rule> <CODE> <message>" lines a test
 * of several rules prints before its RESULT line (harness/README.md "One
 * rule blamed"; issue 13 item 2), shared by the two vector interpreters:
 * vecrun (vec_rules.c) and kvecrun (kvec_rules.c).  Each says which rule a
 * check serves and what ran; this file turns that into the lines, so both
 * give the same verdicts in the same words.
 */
#ifndef VEC_RULE_RESULTS_H
#define VEC_RULE_RESULTS_H

#include <stddef.h>

/* One rule of the test's header, as the run left it. */
struct rule_tally {
    const char *id;
    int failed;         /* the failing check serves it (a FAIL run) */
    int pending;        /* it had checks the run did not reach (a FAIL run) */
    int ran;            /* its checks that ran and passed */
};

/* The lines of a run that ended in PASS (failed 0) or in FAIL (failed 1,
 * msg the RESULT message): FAIL for the rules of the failing check, then
 * UNRESOLVED "not reached" for those with checks still to run, PASS for
 * those with a check that ran, UNTESTED for the others.  NULL-terminated
 * text to free, or NULL when n is 0. */
char *rule_results_text(const struct rule_tally *t, size_t n, int failed, const char *msg);

#endif
