/* SPDX-License-Identifier: MIT */
/*
 * kvecrun -- runs the kernel slot protocol vectors (vectors/ksp/, files .kvec) as
 * tests of rules KSP-1..25, following the harness's test protocol
 * (harness/README.md): --list prints "ksp.<name> TAB rules TAB KSP TAB
 * functions", --run ID runs one and ends with "RESULT <CODE> <message>" and
 * the code as exit status (0 PASS, 1 FAIL, 2 UNRESOLVED, 3 UNSUPPORTED,
 * 4 UNTESTED).
 *
 * By default it checks the reference: its encoder, simulator and decoder.
 * With --decoder CMD (or KSP_DECODER=CMD) it checks another decoder: the
 * vectors' trace files are given to CMD, whose JSON output (tracedump
 * --json's, reference/kernel/KERNEL.md) is compared with the expected events,
 * errors and totals; the vectors that only check the reference report
 * UNTESTED.  vectors/ksp/README.md is the language and the contract.
 *
 *   kvecrun [--dir DIR] [--decoder CMD] [--timeout S] --list | --run ID | --run-all
 *   kvecrun ... --run ID --trace-out FILE   also writes the trace file it built
 *   kvecrun --file PATH         one vector by its path
 *   kvecrun --check [PATH...]   the vectors' syntax and tags, nothing run
 *   kvecrun --bless ID          print the SHA-256 and write the dumps the reference gives
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "kvec.h"

#ifndef KVECRUN_VECTORS
#define KVECRUN_VECTORS "vectors/ksp"
#endif

static const char *const code_names[] = { "PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED",
                                          "UNTESTED" };

/* ---- the vectors of a folder --------------------------------------------------- */

struct entry {
    char *path, *id;
};

struct list {
    struct entry *e;
    size_t n, cap;
};

static int add(struct list *l, const char *path, const char *rel)
{
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 64;
        struct entry *e = realloc(l->e, c * sizeof *e);
        if (e == NULL)
            return -1;
        l->e = e;
        l->cap = c;
    }
    size_t n = strlen(rel) - 5;     /* without .kvec */
    char *id = malloc(n + 5);
    char *p = strdup(path);
    if (id == NULL || p == NULL) {
        free(id);
        free(p);
        return -1;
    }
    memcpy(id, "ksp.", 4);
    for (size_t i = 0; i < n; i++)
        id[4 + i] = rel[i] == '/' ? '.' : rel[i];
    id[4 + n] = '\0';
    l->e[l->n++] = (struct entry){ p, id };
    return 0;
}

static int walk(struct list *l, const char *dir, const char *rel, int depth)
{
    DIR *d = depth > 8 ? NULL : opendir(dir);
    struct dirent *de;
    if (d == NULL)
        return depth == 0 ? -1 : 0;
    /* A read error is not an empty folder (EOVERFLOW: a 32-bit build without
     * _FILE_OFFSET_BITS=64 on a file system with 64-bit inode numbers). */
    while ((errno = 0, de = readdir(d)) != NULL || errno != 0) {
        if (de == NULL) {
            fprintf(stderr, "kvecrun: cannot read the folder %s: %s\n", dir, strerror(errno));
            closedir(d);
            return -1;
        }
        const char *name = de->d_name;
        size_t len = strlen(name);
        if (name[0] == '.')
            continue;
        char path[4096], r[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (walk(l, path, r, depth + 1) != 0) {
                closedir(d);
                return -1;
            }
        } else if (len > 5 && strcmp(name + len - 5, ".kvec") == 0) {
            if (add(l, path, r) != 0) {
                closedir(d);
                return -1;
            }
        }
    }
    closedir(d);
    return 0;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->id, ((const struct entry *)b)->id);
}

static void free_list(struct list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->e[i].path);
        free(l->e[i].id);
    }
    free(l->e);
}

/* ---- running a vector --------------------------------------------------------- */

struct config {
    const char *dir;
    const char *decoder;
    double timeout;
    int bless;
    const char *trace_out;      /* --trace-out: where the vector's trace file goes */
};

static int is(const struct kv_line *l, const char *w)
{
    return strcmp(l->tok[0], w) == 0;
}

static int run_steps(struct kv_run *r)
{
    const struct kv_vector *v = r->v;
    int ext = r->external_only;

    for (size_t i = 0; i < v->nlines && r->code == KV_PASS; i++) {
        const struct kv_line *l = &v->lines[i];
        unsigned checks = r->checks;
        if (is(l, "encode")) {
            if (!ext)
                kv_step_encode(r, &i);
            else
                while (i + 1 < v->nlines && is(&v->lines[i + 1], "=>"))
                    i++, r->skipped++;
        } else if (is(l, "map") || is(l, "fields") || is(l, "compose") || is(l, "stamp")) {
            if (ext)
                r->skipped++;
            else if (is(l, "map"))
                kv_step_map(r, l);
            else if (is(l, "fields"))
                kv_step_fields(r, l);
            else if (is(l, "compose"))
                kv_step_compose(r, l);
            else
                kv_step_stamp(r, l);
        } else if (is(l, "sim")) {
            kv_step_sim(r, l);
        } else if (is(l, "file")) {
            kv_step_file(r, l);
        } else if (is(l, "slot") || is(l, "raw")) {
            kv_step_slot(r, l);
        } else if (is(l, "bytes")) {
            kv_step_bytes(r, l);
        } else if (is(l, "expect") && l->ntok >= 2) {
            if (!kv_is_decoder_expect(l))
                kv_expect_ref(r, l);
        } else {
            kv_fail(r, l, KV_UNRESOLVED, "vector error: unknown step \"%s\"", l->tok[0]);
        }
        if (r->code == KV_PASS && r->checks != checks)
            kv_rules_ran(r, l, &v->lines[i]);   /* an encode step and its => lines */
    }
    if (r->code == KV_PASS)
        kv_expect_decoded(r, NULL);
    return r->code;
}

/* Runs the vector at path; prints its result line; returns its code. */
static int run_one(const struct config *c, const char *path, const char *id, int quiet)
{
    struct kv_vector v;
    struct kv_run r;
    char err[512];
    int code;

    memset(&r, 0, sizeof r);
    if (kv_load(path, id, &v, err, sizeof err) != 0 ||
        kv_rules_lint(&v, err, sizeof err) != 0) {
        code = KV_UNRESOLVED;
        snprintf(r.msg, sizeof r.msg, "vector error: %s", err);
    } else if (kv_rules_start(&r, &v) != 0) {
        code = KV_UNRESOLVED;
        snprintf(r.msg, sizeof r.msg, "out of memory");
    } else {
        r.decoder = c->decoder;
        r.external_only = c->decoder != NULL;
        r.timeout = c->timeout;
        r.bless = c->bless;
        slot_clock_init(&r.clock);
        code = run_steps(&r);
        if (code == KV_PASS && r.checks == 0) {
            code = r.external_only ? KV_UNTESTED : KV_UNRESOLVED;
            snprintf(r.msg, sizeof r.msg, "%s: %s", v.path, r.external_only
                     ? "this vector checks the reference only (encoder, simulator or file "
                       "writer): nothing of the decoder under test"
                     : "vector error: the vector checks nothing");
        } else if (code == KV_PASS) {
            snprintf(r.msg, sizeof r.msg, "%u checks of %s%s%s%s", r.checks, v.rules,
                     r.external_only ? " against the decoder \"" : "",
                     r.external_only ? c->decoder : "", r.external_only ? "\"" : "");
        }
    }
    if (quiet) {
        printf("%-48s %-10s %s\n", id, code_names[code], code == KV_PASS ? "" : r.msg);
    } else {
        /* Each rule's result before RESULT: harness/README.md "One rule blamed". */
        char *rule_lines = code == KV_PASS || code == KV_FAIL ? kv_rules_text(&r) : NULL;
        if (rule_lines)
            fputs(rule_lines, stdout);
        free(rule_lines);
        printf("RESULT %s %s\n", code_names[code], r.msg);
    }
    if (c->trace_out && r.file && r.len) {
        /* The trace the vector built, for a picture of it (the report shows
         * tracedump --svg of a failing vector's, harness/reporting). */
        FILE *f = fopen(c->trace_out, "wb");
        if (f == NULL || fwrite(r.file, 1, r.len, f) != r.len || fclose(f) != 0)
            fprintf(stderr, "kvecrun: cannot write %s: %s\n", c->trace_out, strerror(errno));
    }
    free(r.line_ran);
    free(r.file);
    kv_decoded_free(&r.dec);
    kv_free_vector(&v);
    return code;
}

/* --check: the vectors' syntax and tags (kv_rules_lint); nothing is run. */
static int check_one(const char *path, const char *id)
{
    struct kv_vector v;
    char err[512];
    int bad = kv_load(path, id, &v, err, sizeof err) != 0 ||
              kv_rules_lint(&v, err, sizeof err) != 0;
    if (bad)
        printf("%s\n", err);
    kv_free_vector(&v);
    return bad;
}

static const char usage[] =
    "usage: kvecrun [--dir DIR] [--decoder CMD] [--timeout S] --list | --run ID | --run-all\n"
    "       kvecrun [--decoder CMD] --file PATH\n"
    "       kvecrun [--dir DIR] --bless ID\n"
    "       kvecrun [--dir DIR] --check [PATH...]\n"
    "Runs the kernel slot protocol vectors (vectors/ksp/README.md) as tests of KSP-1..25.\n"
    "  --dir DIR      the vectors (default $KSP_VECTORS, else " KVECRUN_VECTORS ")\n"
    "  --decoder CMD  check this decoder instead of the reference's: CMD reads the trace\n"
    "                 file {file} and prints tracedump --json's document (default\n"
    "                 $KSP_DECODER)\n"
    "  --timeout S    seconds the decoder may take per vector (default 10)\n"
    "  --list         one line per vector: id TAB rules TAB KSP TAB functions\n"
    "  --run ID       one vector; the last line is RESULT <CODE> <message>\n"
    "  --trace-out FILE  with --run: write the trace file the vector built to FILE\n"
    "  --run-all      every vector; exit 1 if one fails (against another decoder:\n"
    "                 FAIL or UNRESOLVED)\n"
    "  --check [PATH...]  the syntax and the [KSP-n] tags of these vectors (default:\n"
    "                 all), one line FILE:LINE: what for each bad one; exit 2 if one is\n"
    "  --bless ID     print the SHA-256 of the vector's file and write its dumps\n"
    "  -h, --help     this text; --version: the version\n";

int main(int argc, char **argv)
{
    struct config c = { getenv("KSP_VECTORS"), getenv("KSP_DECODER"), 10.0, 0, NULL };
    const char *action = NULL, *arg = NULL;

    if (c.dir == NULL || c.dir[0] == '\0')
        c.dir = KVECRUN_VECTORS;
    if (c.decoder != NULL && c.decoder[0] == '\0')
        c.decoder = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--dir") == 0 && v) {
            c.dir = v;
            i++;
        } else if (strcmp(a, "--decoder") == 0 && v) {
            c.decoder = v[0] ? v : NULL;
            i++;
        } else if (strcmp(a, "--trace-out") == 0 && v) {
            c.trace_out = v;
            i++;
        } else if (strcmp(a, "--timeout") == 0 && v) {
            char *end;
            c.timeout = strtod(v, &end);
            if (*end || !(c.timeout > 0)) {
                fprintf(stderr, "kvecrun: --timeout: \"%s\" is not a positive number\n", v);
                return 2;
            }
            i++;
        } else if ((strcmp(a, "--run") == 0 || strcmp(a, "--file") == 0 ||
                    strcmp(a, "--bless") == 0) && v) {
            action = a;
            arg = v;
            i++;
        } else if (strcmp(a, "--check") == 0) {
            int bad = 0;
            for (int k = i + 1; k < argc; k++)
                bad |= check_one(argv[k], argv[k]);
            if (i + 1 < argc)
                return bad ? 2 : 0;
            action = a;
            break;
        } else if (strcmp(a, "--list") == 0 || strcmp(a, "--run-all") == 0) {
            action = a;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("kvecrun (posixtrace) %s\n", POSIXTRACE_VERSION);
            return 0;
        } else {
            fprintf(stderr, "kvecrun: unknown or incomplete argument \"%s\"\n%s", a, usage);
            return 2;
        }
    }
    if (action == NULL) {
        fputs(usage, stderr);
        return 2;
    }
    if (strcmp(action, "--file") == 0)
        return run_one(&c, arg, arg, 0);

    struct list l = { 0 };
    if (walk(&l, c.dir, "", 0) != 0) {
        fprintf(stderr, "kvecrun: cannot read the vectors folder %s: %s\n", c.dir,
                strerror(errno));
        free_list(&l);
        return 2;
    }
    qsort(l.e, l.n, sizeof *l.e, by_id);
    int rc = 0;
    if (strcmp(action, "--list") == 0) {
        for (size_t i = 0; i < l.n; i++) {
            struct kv_vector v;
            char err[512];
            if (kv_load(l.e[i].path, l.e[i].id, &v, err, sizeof err) != 0) {
                fprintf(stderr, "kvecrun: %s\n", err);
                rc = 2;
            } else {
                printf("%s\t%s\tKSP\t%s\n", v.id, v.rules, v.functions);
            }
            kv_free_vector(&v);
        }
    } else if (strcmp(action, "--check") == 0) {
        for (size_t i = 0; i < l.n; i++)
            if (check_one(l.e[i].path, l.e[i].id))
                rc = 2;
    } else if (strcmp(action, "--run-all") == 0) {
        unsigned count[5] = { 0 };
        for (size_t i = 0; i < l.n; i++)
            count[run_one(&c, l.e[i].path, l.e[i].id, 1)]++;
        printf("kvecrun: %zu vectors: %u PASS, %u FAIL, %u UNRESOLVED, %u UNSUPPORTED, "
               "%u UNTESTED%s%s\n", l.n, count[0], count[1], count[2], count[3], count[4],
               c.decoder ? "; decoder: " : "", c.decoder ? c.decoder : "");
        rc = count[1] || count[2] || (!c.decoder && (count[3] || count[4])) || l.n == 0;
    } else {
        size_t i = 0;
        while (i < l.n && strcmp(l.e[i].id, arg) != 0)
            i++;
        if (i == l.n) {
            printf("RESULT UNRESOLVED no vector %s in %s\n", arg, c.dir);
            rc = KV_UNRESOLVED;
        } else {
            c.bless = strcmp(action, "--bless") == 0;
            rc = run_one(&c, l.e[i].path, l.e[i].id, 0);
        }
    }
    free_list(&l);
    return rc;
}
