/* SPDX-License-Identifier: MIT */
/*
 * ct_probe.h -- for a test program whose header rules are decided by a
 * compile probe (conformance/probes/NAME.c for conformance/tests/NAME.c).
 *
 * Whether a header declares something is decided by compiling it: a missing
 * or mistyped declaration in the test program itself would stop the whole
 * program from compiling and take every rule of the file down with it.  So
 * harness/probe.sh compiles each part of the probe (#ifdef CT_PROBE_PART_<part>)
 * on its own and builds the test with -DCT_PROBE_<part>=1 (it compiled) or 0,
 * plus a generated header that defines CT_PROBE_ERRORS, the compiler's first
 * error line for each part that did not compile.  The test uses what a part
 * checked only in #if CT_PROBE_<part>, and otherwise ends the rule's test
 * with ct_probe_missing(): a FAIL of that rule alone, quoting the compiler.
 */
#ifndef CT_PROBE_H
#define CT_PROBE_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "ct.h"

#ifndef CT_PROBE_ERRORS
#define CT_PROBE_ERRORS     /* built without harness/probe.sh */
#endif

/* The compiler's first error line for part, from harness/probe.sh. */
static inline const char *ct_probe_error(const char *part)
{
    static const struct {
        const char *part, *error;
    } errors[] = { CT_PROBE_ERRORS { NULL, NULL } };
    for (size_t i = 0; errors[i].part != NULL; i++)
        if (strcmp(errors[i].part, part) == 0)
            return errors[i].error;
    return "(the compiler's output is not available: built without harness/probe.sh?)";
}

/* Ends the test FAIL: what the header lacks (what), the probe part that did
 * not compile, and why the compiler said it did not. */
CT_NORETURN static inline void ct_probe_missing(const char *part, const char *what)
{
    CT_FAIL("%s (the compile probe part %s does not compile): %s", what, part,
            ct_probe_error(part));
}

/* ---- Structure members, each its own rule and probe part ----------------------------- */

/* A member of a structure as the test program sees it: present (its probe
 * part compiled) with its offset and size, or absent. */
struct ct_member {
    const char *part;       /* the probe part, e.g. "STATUS_STREAM_STATUS" */
    const char *name;       /* "posix_stream_status" */
    const char *type;       /* "int" */
    int present;
    size_t offset, size;
};
#define CT_MEMBER_PRESENT(s, m) 1, offsetof(struct s, m), sizeof(((struct s *)0)->m)
#define CT_MEMBER_ABSENT 0, 0, 0

/* The rule of members[i] of struct s (of size struct_size), one of n: the
 * member exists with its type (the probe), lies inside the structure and
 * shares no byte with another present member. */
static inline void ct_check_member(const char *s, size_t struct_size,
                                   const struct ct_member *members, int n, int i)
{
    const struct ct_member *m = &members[i];
    if (!m->present) {
        char what[160];
        snprintf(what, sizeof what, "struct %s has no member %s of type %s", s, m->name,
                 m->type);
        ct_probe_missing(m->part, what);
    }
    CT_CHECK(m->offset + m->size <= struct_size, "%s.%s (offset %zu, size %zu) lies outside"
             " the structure (size %zu)", s, m->name, m->offset, m->size, struct_size);
    for (int j = 0; j < n; j++)
        if (j != i && members[j].present)
            CT_CHECK(m->offset + m->size <= members[j].offset ||
                     members[j].offset + members[j].size <= m->offset,
                     "%s.%s and %s overlap (offsets %zu and %zu)", s, m->name,
                     members[j].name, m->offset, members[j].offset);
}

#endif /* CT_PROBE_H */
