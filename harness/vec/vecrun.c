/* SPDX-License-Identifier: MIT */
/*
 * vecrun.c -- lists and runs the golden vectors of vectors/ (the language:
 * vectors/README.md; the interpreter: vec_exec.c).
 *
 *   vecrun --dir DIR --list           one line per vector:
 *                                     id TAB rules TAB options TAB functions
 *   vecrun --dir DIR --run ID         runs one vector in this process; exit
 *                                     status and last line "RESULT CODE msg"
 *   vecrun --file PATH                the same, for a vector given by path
 *   vecrun --dir DIR --run-all        every vector, each in a child process,
 *                                     then "N passed, N failed, N skipped"
 *   vecrun --check PATH...            syntax of vectors, nothing is run
 *   vecrun --bless PATH               (reference build) prints the vector
 *                                     with its @annotations set to the values
 *                                     the run gave
 * Options: --timeout SECONDS (default 30; 0: none), --options TRC,TEF,...
 * (the options the implementation provides; default: from <trace.h>).
 * Not for people: "vecrun --serve NAME IN OUT --file PATH" is what a process
 * of a vector runs after "exec NAME" (vec_steps_process.c).
 *
 * Exit statuses: 0 PASS, 1 FAIL, 2 UNRESOLVED, 3 UNSUPPORTED, 4 UNTESTED;
 * 2 also for a usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace.h>
#include "vec_exec.h"
#include "vec_lex.h"

static unsigned timeout_s = 30;

static unsigned supported_options(void)
{
    unsigned o = 0;
#if defined(_POSIX_TRACE) && _POSIX_TRACE > 0
    o |= OPT_TRC;
#endif
#if defined(_POSIX_TRACE_EVENT_FILTER) && _POSIX_TRACE_EVENT_FILTER > 0
    o |= OPT_TEF;
#endif
#if defined(_POSIX_TRACE_INHERIT) && _POSIX_TRACE_INHERIT > 0
    o |= OPT_TRI;
#endif
#if defined(_POSIX_TRACE_LOG) && _POSIX_TRACE_LOG > 0
    o |= OPT_TRL;
#endif
    return o;
}

/* ---- finding vectors ----------------------------------------------------- */

struct entry {
    char *path;                 /* DIR/trc/create/x.vec */
    char *id;                   /* vec.trc.create.x */
};

struct list {
    struct entry *e;
    size_t        n, cap;
};

static int valid_component(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_' || s[i] == '-'))
            return 0;
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects DIR/rel/ *.vec, sorted, depth first. */
static void walk(const char *root, const char *rel, struct list *out, int depth)
{
    char *dir = vec_xmalloc(strlen(root) + strlen(rel) + 2);
    sprintf(dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = depth > 16 ? NULL : opendir(dir);
    if (d == NULL) {
        if (depth == 0)
            fprintf(stderr, "vecrun: cannot open %s: %s\n", dir, strerror(errno));
        free(dir);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            names = vec_xrealloc(names, cap * sizeof *names);
        }
        names[n++] = vec_xstrndup(de->d_name, strlen(de->d_name));
        errno = 0;
    }
    if (errno != 0) {
        /* Not an empty folder: e.g. EOVERFLOW, a 32-bit build without
         * _FILE_OFFSET_BITS=64 on a file system with 64-bit inode numbers. */
        fprintf(stderr, "vecrun: cannot read the folder %s: %s\n", dir, strerror(errno));
        exit(2);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char *sub = vec_xmalloc(strlen(rel) + strlen(names[i]) + 2);
        sprintf(sub, "%s%s%s", rel, *rel ? "/" : "", names[i]);
        char *full = vec_xmalloc(strlen(root) + strlen(sub) + 2);
        sprintf(full, "%s/%s", root, sub);
        struct stat st;
        size_t len = strlen(names[i]);
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (valid_component(names[i], len))
                walk(root, sub, out, depth + 1);
            else
                fprintf(stderr, "vecrun: skipping folder %s: names are [a-z0-9_-]\n", full);
            free(full);
        } else if (len > 4 && strcmp(names[i] + len - 4, ".vec") == 0) {
            if (!valid_component(names[i], len - 4)) {
                fprintf(stderr, "vecrun: skipping %s: names are [a-z0-9_-].vec\n", full);
                free(full);
            } else {
                char *id = vec_xmalloc(strlen(sub) + 8);
                sprintf(id, "vec.%.*s", (int)(strlen(sub) - 4), sub);
                for (char *p = id; *p; p++)
                    if (*p == '/')
                        *p = '.';
                if (out->n == out->cap) {
                    out->cap = out->cap ? 2 * out->cap : 64;
                    out->e = vec_xrealloc(out->e, out->cap * sizeof *out->e);
                }
                out->e[out->n].path = full;
                out->e[out->n++].id = id;
            }
        } else {
            free(full);
        }
        free(sub);
        free(names[i]);
    }
    free(names);
    free(dir);
}

static void list_free(struct list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->e[i].path);
        free(l->e[i].id);
    }
    free(l->e);
}

/* The path of test id in dir, or NULL. */
static char *path_of(const char *dir, const char *id)
{
    if (strncmp(id, "vec.", 4) != 0)
        return NULL;
    const char *rest = id + 4;
    size_t n = strlen(rest);
    char *path = vec_xmalloc(strlen(dir) + n + 8);
    sprintf(path, "%s/", dir);
    char *p = path + strlen(path);
    const char *c = rest;
    while (*c) {
        const char *dot = strchr(c, '.');
        size_t len = dot ? (size_t)(dot - c) : strlen(c);
        if (!valid_component(c, len)) {
            free(path);
            return NULL;
        }
        memcpy(p, c, len);
        p += len;
        *p++ = dot ? '/' : '.';
        c += len + (dot != NULL);
    }
    strcpy(p, "vec");
    return path;
}

/* ---- commands ------------------------------------------------------------ */

/* A comma-separated list; "fallback" (or nothing) when it is empty. */
static void print_list(const char **items, size_t n, char **strs, const char *fallback)
{
    if (n == 0) {
        fputs(fallback, stdout);
        return;
    }
    for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? "," : "", items ? items[i] : strs[i]);
}

static int cmd_list(const char *dir)
{
    struct list l = { 0 };
    walk(dir, "", &l, 0);
    for (size_t i = 0; i < l.n; i++) {
        struct vector v;
        struct vec_info info;
        char msg[600], opts[32];
        memset(&info, 0, sizeof info);
        if (vec_load(l.e[i].path, &v) != 0)
            fprintf(stderr, "vecrun: %s:%d: %s\n", v.path, v.err_line, v.err);
        else if (vec_check(&v, &info, msg, sizeof msg) != 0)
            fprintf(stderr, "vecrun: %s\n", msg);
        vec_options_text(v.options, opts, sizeof opts);
        printf("%s\t", l.e[i].id);
        print_list(NULL, v.nrules, v.rules, "vectors.malformed");
        printf("\t%s\t", opts[0] ? opts : "TRC");
        print_list(info.functions, info.nfunctions, NULL, "");
        putchar('\n');
        vec_free(&v);
    }
    list_free(&l);
    return fflush(stdout) == 0 ? 0 : 2;
}

/* Runs the vector at path in this process; prints "RESULT ..." (or, with
 * label, "label CODE ..."). */
static int run_one(const char *path, const struct vec_opts *o, const char *label)
{
    struct vector v;
    char msg[1200], *rule_lines = NULL;
    enum vec_result r;
    if (vec_load(path, &v) != 0) {
        snprintf(msg, sizeof msg, "%s:%d: %s", v.path, v.err_line, v.err);
        r = VEC_UNRESOLVED;
    } else {
        vec_set_label(label);
        if (timeout_s)
            alarm(timeout_s);
        /* --run-all prints one line per vector: no per-rule lines there. */
        r = vec_run(&v, o, msg, sizeof msg, label ? NULL : &rule_lines);
        alarm(0);
    }
    vec_free(&v);
    if (rule_lines)
        fputs(rule_lines, stdout);  /* before RESULT: the runner's protocol */
    free(rule_lines);
    if (label)
        printf("%-50s %s %s\n", label, vec_result_name(r), msg);
    else
        printf("RESULT %s %s\n", vec_result_name(r), msg);
    fflush(stdout);
    return (int)r;
}

static int cmd_run_all(const char *dir, const struct vec_opts *o)
{
    struct list l = { 0 };
    int count[5] = { 0 };
    walk(dir, "", &l, 0);
    for (size_t i = 0; i < l.n; i++) {
        fflush(stdout);
        pid_t p = fork();
        if (p < 0) {
            perror("vecrun: fork");
            list_free(&l);
            return 2;
        }
        if (p == 0)
            _exit(run_one(l.e[i].path, o, l.e[i].id));
        int st;
        while (waitpid(p, &st, 0) < 0 && errno == EINTR)
            ;
        int r = WIFEXITED(st) && WEXITSTATUS(st) <= 4 ? WEXITSTATUS(st) : VEC_UNRESOLVED;
        if (WIFSIGNALED(st))
            printf("%-50s UNRESOLVED crashed: signal %d\n", l.e[i].id, WTERMSIG(st));
        count[r]++;
    }
    printf("vectors: PASS %d, FAIL %d, UNRESOLVED %d, UNSUPPORTED %d, UNTESTED %d\n",
           count[0], count[1], count[2], count[3], count[4]);
    printf("%d passed, %d failed, %d skipped\n", count[VEC_PASS],
           count[VEC_FAIL] + count[VEC_UNRESOLVED], count[VEC_UNSUPPORTED] + count[VEC_UNTESTED]);
    int status = l.n == 0 || count[VEC_FAIL] || count[VEC_UNRESOLVED] ? 1 : 0;
    list_free(&l);
    return status;
}

static int cmd_check(char **paths, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        struct vector v;
        struct vec_info info;
        char msg[600];
        if (vec_load(paths[i], &v) != 0) {
            printf("%s:%d: %s\n", v.path, v.err_line, v.err);
            bad = 1;
        } else if (vec_check(&v, &info, msg, sizeof msg) != 0) {
            printf("%s\n", msg);
            bad = 1;
        }
        vec_free(&v);
    }
    return bad ? 2 : 0;
}

static int cmd_bless(const char *path, const struct vec_opts *o)
{
    if (!vec_exact_build()) {
        fprintf(stderr, "vecrun: --bless needs the reference build (VECRUN_EXACT)\n");
        return 2;
    }
    struct vector v;
    char msg[1200];
    if (vec_load(path, &v) != 0) {
        fprintf(stderr, "RESULT UNRESOLVED %s:%d: %s\n", v.path, v.err_line, v.err);
        vec_free(&v);
        return 2;
    }
    struct vec_opts bo = *o;
    bo.bless = 1;
    if (timeout_s)
        alarm(timeout_s);
    enum vec_result r = vec_run(&v, &bo, msg, sizeof msg, NULL);
    alarm(0);
    if (r != VEC_PASS) {
        fprintf(stderr, "RESULT %s %s\n", vec_result_name(r), msg);
        vec_free(&v);
        return (int)r;
    }
    char *text = vec_blessed_text(&v, msg, sizeof msg);
    if (text == NULL) {
        fprintf(stderr, "RESULT UNRESOLVED %s\n", msg);
        vec_free(&v);
        return 2;
    }
    fputs(text, stdout);
    free(text);
    vec_free(&v);
    return 0;
}

static int command(const char *cmd, const char *arg, const char *dir,
                   const struct vec_opts *o, char **rest, int nrest);

#ifndef VECRUN_VERSION          /* built outside mk/vectors.mk (tests) */
#define VECRUN_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: vecrun --dir DIR --list\n"
    "       vecrun --dir DIR --run ID | --file PATH | --dir DIR --run-all\n"
    "       vecrun --check PATH... | --bless PATH\n"
    "       options: --timeout SECONDS, --options TRC,TEF,TRI,TRL\n"
    "       vecrun --help | --version\n";

static int usage(void)
{
    fputs(usage_text, stderr);
    return 2;
}

/* Without --dir: vectors/ here, or else the one of the source tree the
 * program was built in (build/harness/vecrun -> vectors/). */
static char *default_dir(const char *argv0)
{
    struct stat st;
    if (stat("vectors", &st) == 0 && S_ISDIR(st.st_mode))
        return vec_xstrndup("vectors", 7);
    const char *slash = strrchr(argv0, '/');
    if (slash == NULL)
        return vec_xstrndup("vectors", 7);
    size_t n = (size_t)(slash - argv0);
    char *dir = vec_xmalloc(n + 16);
    sprintf(dir, "%.*s/../../vectors", (int)n, argv0);
    return dir;
}

/* A descriptor number of --serve; -1 if it is none. */
static int fd_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && *end == '\0' && v >= 0 && v < 65536 ? (int)v : -1;
}

/* vecrun --serve NAME IN OUT --file PATH [--timeout S] [--bless]: not for
 * people; what a process of a vector runs after "exec NAME" (vec_serve). */
static int serve_main(int argc, char **argv)
{
    const char *path = NULL;
    unsigned long t = 0;
    int bless = 0;
    if (argc < 5)
        return usage();
    int in = fd_arg(argv[3]), out = fd_arg(argv[4]);
    for (int i = 5; i < argc; i++) {
        if (strcmp(argv[i], "--file") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc) {
            char *end;
            t = strtoul(argv[++i], &end, 10);
            if (*end || t > 86400 + 2)
                return usage();
        } else if (strcmp(argv[i], "--bless") == 0) {
            bless = 1;
        } else {
            return usage();
        }
    }
    if (in < 0 || out < 0 || path == NULL)
        return usage();
    vec_serve(argv[2], in, out, path, (unsigned)t, bless);
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *cmd = NULL, *arg = NULL;
    struct vec_opts o = { supported_options(), 0 };
    int i;
    vec_set_self(argv[0]);
    if (argc > 1 && strcmp(argv[1], "--serve") == 0)
        return serve_main(argc, argv);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            /* The suite's version: the Makefile's VERSION (mk/vectors.mk);
             * vecrun builds against any vendor's <trace.h>, not ours. */
            printf("vecrun (posixtrace suite) %s\n", VECRUN_VERSION);
            return 0;
        } else if (strcmp(a, "--dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(a, "--timeout") == 0 && i + 1 < argc) {
            char *end;
            unsigned long t = strtoul(argv[++i], &end, 10);
            if (*end || t > 86400)
                return usage();
            timeout_s = (unsigned)t;
        } else if (strcmp(a, "--options") == 0 && i + 1 < argc) {
            o.supported = 0;
            char *list = vec_xstrndup(argv[i + 1], strlen(argv[i + 1]));
            for (char *t = strtok(list, ", "); t; t = strtok(NULL, ", ")) {
                unsigned bit = vec_option_bit(t);
                if (bit == 0) {
                    fprintf(stderr, "vecrun: unknown option %s\n", t);
                    free(list);
                    return 2;
                }
                o.supported |= bit;
            }
            free(list);
            i++;
        } else if (strcmp(a, "--list") == 0 || strcmp(a, "--run-all") == 0) {
            cmd = a;
        } else if ((strcmp(a, "--run") == 0 || strcmp(a, "--file") == 0 ||
                    strcmp(a, "--bless") == 0) && i + 1 < argc) {
            cmd = a;
            arg = argv[++i];
        } else if (strcmp(a, "--check") == 0) {
            cmd = a;
            i++;
            break;
        } else {
            return usage();
        }
    }
    if (cmd == NULL)
        return usage();
    char *dir_owned = dir ? NULL : default_dir(argv[0]);
    if (dir == NULL)
        dir = dir_owned;
    int status = command(cmd, arg, dir, &o, argv + i, argc - i);
    free(dir_owned);
    return status;
}

static int command(const char *cmd, const char *arg, const char *dir,
                   const struct vec_opts *o, char **rest, int nrest)
{
    if (strcmp(cmd, "--list") == 0)
        return cmd_list(dir);
    if (strcmp(cmd, "--run-all") == 0)
        return cmd_run_all(dir, o);
    if (strcmp(cmd, "--check") == 0)
        return nrest > 0 ? cmd_check(rest, nrest) : usage();
    if (strcmp(cmd, "--bless") == 0)
        return cmd_bless(arg, o);
    if (strcmp(cmd, "--file") == 0)
        return run_one(arg, o, NULL);
    char *path = path_of(dir, arg);
    if (path == NULL) {
        printf("RESULT UNRESOLVED '%s' is not a vector id (vec.<path with dots>)\n", arg);
        return 2;
    }
    if (access(path, R_OK) != 0) {
        printf("RESULT UNRESOLVED %s: no such vector (%s)\n", arg, path);
        free(path);
        return 2;
    }
    int r = run_one(path, o, NULL);
    free(path);
    return r;
}
