/* SPDX-License-Identifier: MIT */
/*
 * fuzz_kvec_parser.c -- libFuzzer target: the kernel slot protocol vector
 * language's reader (harness/kvec/: kv_load, the tag lint kv_rules_lint,
 * the token readers kv_u64, kv_data, kv_class, kv_ext_class, kv_flag,
 * kv_errno; vectors/ksp/README.md) and kvecrun's JSON reader (kj_parse,
 * which reads another decoder's output), on the same input.  Built by
 * 'make fuzz' (mk/fuzz.mk); the seed corpus is the committed vectors
 * (vectors/ksp) and a few decoder documents.
 *
 * Besides the sanitizers: a refusal says why ("PATH:LINE: what", "JSON
 * offset N: ..."); every token of an accepted vector is a string inside
 * the file's text, on a line of the file; a JSON document parsed has sane
 * counts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "input_file.h"
#include "../harness/kvec/kvec.h"

static void check(int ok)
{
    if (!ok)
        abort();
}

static void tokens(const struct kv_line *l)
{
    for (unsigned t = 0; t < l->ntok; t++) {
        const char *s = l->tok[t];
        uint64_t u;
        unsigned cls;
        int ext, e;
        uint32_t flag;
        unsigned char *bytes = NULL;
        size_t len = 0;
        check(s != NULL);
        kv_u64(s, &u);
        kv_class(s, &cls);
        kv_ext_class(s, &ext);
        kv_flag(s, &flag);
        if (kv_errno(s, &e) == 0)
            check(kv_errno_name(e) != NULL);
        if (kv_data(s, &bytes, &len) == 0)
            check(len == 0 || bytes != NULL);
        free(bytes);
    }
    (void)kv_is_check(l);
    (void)kv_is_decoder_expect(l);
}

static void json(const uint8_t *data, size_t size)
{
    char err[256] = "";
    struct kj *j = kj_parse((const char *)data, size, err, sizeof err);
    if (j == NULL) {
        check(strncmp(err, "JSON offset ", 12) == 0);
        return;
    }
    check(j->type <= KJ_OBJ && (j->n == 0 || j->type >= KJ_ARR));
    (void)kj_get(j, "events");
    kj_free(j);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return fuzz_input_file_init(".kvec");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file_write(data, size);
    struct kv_vector v;
    char err[1024];

    json(data, size);
    if (path == NULL)
        return 0;
    err[0] = '\0';
    if (kv_load(path, "ksp.fuzz.input", &v, err, sizeof err) != 0) {
        check(strncmp(err, path, strlen(path)) == 0);   /* "PATH:LINE: what" */
        kv_free_vector(&v);             /* as kvecrun does: a refusal may hold text */
        return 0;
    }
    for (size_t i = 0; i < v.nlines; i++) {
        check(v.lines[i].lineno >= 1 && v.lines[i].ntok <= KV_MAX_TOKENS &&
              v.lines[i].ntags <= KV_MAX_TAGS);
        tokens(&v.lines[i]);
    }
    check(v.nrules <= KV_MAX_RULES);
    err[0] = '\0';
    if (kv_rules_lint(&v, err, sizeof err) != 0)
        check(err[0] != '\0');
    kv_free_vector(&v);
    return 0;
}
