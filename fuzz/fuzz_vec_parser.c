/* SPDX-License-Identifier: MIT */
/*
 * fuzz_vec_parser.c -- libFuzzer target: the golden vector language's
 * reader and checker (harness/vec/: vec_load, then vec_check, the dry run
 * that checks every step's verb, arguments, names, expressions and
 * annotations without calling the implementation; vectors/README.md).
 * Built by 'make fuzz' (mk/fuzz.mk); the seed corpus is the committed
 * vectors (vectors/trc, vectors/trl).
 *
 * Besides the sanitizers: a vector refused says where ("file:line:
 * message", or the loader's line and message), and one accepted has a title,
 * rules, options and steps with lines in the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "input_file.h"
#include "../harness/vec/vec_exec.h"
#include "../harness/vec/vec_lex.h"

static void check(int ok)
{
    if (!ok)
        abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    vec_set_self((*argv)[0]);
    return fuzz_input_file_init(".vec");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file_write(data, size);
    struct vector v;
    struct vec_info info;
    char msg[1024];

    if (path == NULL)
        return 0;
    memset(&v, 0, sizeof v);
    if (vec_load(path, &v) != 0) {
        check(v.err[0] != '\0' && v.err_line >= 0 && (size_t)v.err_line <= v.nlines + 1);
    } else {
        check(v.title != NULL && v.nrules > 0 && v.options != 0 && v.nsteps > 0);
        for (size_t i = 0; i < v.nsteps; i++)
            check(v.steps[i].line >= 1 && (size_t)v.steps[i].line <= v.nlines &&
                  v.steps[i].nt >= 1);
        msg[0] = '\0';
        if (vec_check(&v, &info, msg, sizeof msg) != 0)
            check(msg[0] != '\0');
        else
            check(info.nfunctions <= sizeof info.functions / sizeof info.functions[0]);
    }
    vec_free(&v);
    return 0;
}
