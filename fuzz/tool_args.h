/* SPDX-License-Identifier: MIT */
/*
 * tool_args.h -- the tools' command-line parsers, compiled from the tools'
 * own sources (tool_args_tracedump.c, tool_args_tracesim.c) for the fuzz
 * target fuzz_tool_args.c.  Their messages go to fuzz_tool_out (/dev/null),
 * not to the fuzzer's standard error.
 */
#ifndef FUZZ_TOOL_ARGS_H
#define FUZZ_TOOL_ARGS_H

#include <stdio.h>

extern FILE *fuzz_tool_out;

/* tracedump's parse_args on argv: -1 (go on) or the exit status; asserts
 * what a command line that goes on must give (a file, a CTF folder, known
 * classes). */
int fuzz_tracedump_args(int argc, char **argv);

/* tracesim's parse on argv: 0 (go on), -1 (--help, --version) or 2; a
 * command line that goes on has an output file and a configuration the
 * simulator accepts. */
int fuzz_tracesim_args(int argc, char **argv);

#endif
