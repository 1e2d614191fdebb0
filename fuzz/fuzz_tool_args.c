/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tool_args.c -- libFuzzer target: the command lines of tracedump and
 * tracesim (reference/tools/), parsed by the tools' own code without ending
 * the process (tool_args_*.c).  Built by 'make fuzz' (mk/fuzz.mk).
 *
 * An input is a command line: byte 0 chooses the tool (bit 0: tracesim),
 * the rest is its arguments separated by NUL bytes (at most 64).  Each
 * argument is a buffer of its own, so that AddressSanitizer sees a read or
 * a write past any of them (tracedump cuts its lists in place with strtok).
 * Besides the sanitizers: the exit status is one the tools document, and a
 * command line accepted gives a usable configuration (tool_args_*.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tool_args.h"

#define MAX_ARGS 64

FILE *fuzz_tool_out;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_tool_out = fopen("/dev/null", "w");
    return fuzz_tool_out ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;

    if (size < 1)
        return 0;
    int sim = data[0] & 1;
    argv[argc++] = strdup(sim ? "tracesim" : "tracedump");
    size_t i = 1;
    while (i < size && argc <= MAX_ARGS) {
        const uint8_t *end = memchr(data + i, 0, size - i);
        size_t n = end ? (size_t)(end - (data + i)) : size - i;
        char *a = malloc(n + 1);
        if (a == NULL)
            break;
        memcpy(a, data + i, n);
        a[n] = '\0';
        argv[argc++] = a;
        i += n + 1;
    }
    argv[argc] = NULL;
    if (sim)
        fuzz_tracesim_args(argc, argv);
    else
        fuzz_tracedump_args(argc, argv);
    for (int k = 0; k < argc; k++)
        free(argv[k]);
    return 0;
}
