/* SPDX-License-Identifier: MIT */
/*
 * tool_args_tracedump.c -- tracedump's command-line parser for the fuzz
 * target fuzz_tool_args.c: the tool's source itself, main renamed.
 */
#include "tool_args.h"
#include "tool_args_redirect.h"
#define main tracedump_main
#include "../reference/tools/tracedump.c"

static void check(int ok)
{
    if (!ok)
        abort();
}

int fuzz_tracedump_args(int argc, char **argv)
{
    static struct args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    check(rc == -1 || rc == 0 || rc == 2);
    if (rc != -1)
        return rc;
    check(a.path != NULL);              /* "" too: open() then says ENOENT */
    check(a.o.format <= DUMP_SVG);
    check(a.o.format != DUMP_CTF || (a.o.ctf_dir != NULL && a.o.ctf_dir[0] != '\0'));
    if (a.o.filter != NULL) {
        check(a.o.filter == &a.f);
        for (size_t k = 0; k < a.f.nclasses; k++)
            check(known_class(a.f.classes[k]));
        check(a.f.nclasses <= MAX_LIST && a.f.nevents <= MAX_LIST);
        check(!a.f.has_pid || a.f.pid <= 0xffffffffull);
    }
    return rc;
}
