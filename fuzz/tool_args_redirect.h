/* SPDX-License-Identifier: MIT */
/*
 * tool_args_redirect.h -- included before a tool's source by
 * tool_args_tracedump.c and tool_args_tracesim.c (which rename the tool's
 * main: the fuzzer has its own): what the tool prints goes to
 * fuzz_tool_out.  <stdio.h> is read first, so the tool's own #include of it
 * changes nothing and the names below stay redefined.
 */
#ifndef FUZZ_TOOL_ARGS_REDIRECT_H
#define FUZZ_TOOL_ARGS_REDIRECT_H

#include <stdio.h>

extern FILE *fuzz_tool_out;     /* fuzz_tool_args.c: /dev/null */

#undef stdout
#undef stderr
#define stdout fuzz_tool_out
#define stderr fuzz_tool_out
#define printf(...) fprintf(fuzz_tool_out, __VA_ARGS__)

#endif
