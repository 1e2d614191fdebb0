/* SPDX-License-Identifier: MIT */
/*
 * tool_args_tracesim.c -- tracesim's command-line parser for the fuzz
 * target fuzz_tool_args.c: the tool's source itself, main renamed.
 */
#include "tool_args.h"
#include "tool_args_redirect.h"
#define main tracesim_main
#include "../reference/tools/tracesim.c"

static void check(int ok)
{
    if (!ok)
        abort();
}

int fuzz_tracesim_args(int argc, char **argv)
{
    struct opts o;
    char err[256];
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    check(rc == 0 || rc == -1 || rc == 2);
    if (rc != 0)
        return rc;
    check(o.out != NULL);
    check(!o.verify || strcmp(o.out, "-") != 0);
    check(ksim_config_check(&o.cfg, err, sizeof err) == 0);
    check(o.cfg.ncpus >= 1 && o.cfg.ncpus <= 64);
    return rc;
}
