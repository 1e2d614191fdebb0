/* SPDX-License-Identifier: MIT */
/*
 * ct_exec.h -- exec a new image through the test wrapper, if the runner set one.
 *
 * Cross-built, the test programs run behind a wrapper (an emulator such as
 * qemu-arm, harness/runner/target.py); a plain execv of this program's image from
 * inside would fail with ENOEXEC, and the exec.* rules would not be tested.
 * The runner gives the wrapper in CT_EXEC_WRAPPER, its words separated by
 * blanks (no quoting): the image is then exec'd as WRAPPER... PATH ARGS...,
 * the wrapper found on PATH.  argv[0] is then the path (a wrapper takes the
 * program to run from its arguments).  A path that is a link to the running
 * image (/proc/self/exe) is resolved first: in the wrapper it would name the
 * wrapper's own program (the shell, the emulator); qemu-user answers the
 * readlink with the emulated program's path.  Used by conformance/tests/process.c
 * and the vector interpreter (harness/vec/vec_steps_process.c).
 */
#ifndef CT_EXEC_H
#define CT_EXEC_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CT_EXEC_WORDS_MAX 32
#define CT_EXEC_ARGS_MAX  64

/* Like execv(path, argv); returns only if it failed (errno set). */
static inline int ct_execv(const char *path, char *const argv[])
{
    const char *w = getenv("CT_EXEC_WRAPPER");
    if (w == NULL || w[strspn(w, " \t")] == '\0')
        return execv(path, argv);
    static char words[4096], image[4096];
    ssize_t len = readlink(path, image, sizeof image - 1);
    if (len > 0 && image[0] == '/') {       /* a relative link stays as it is */
        image[len] = '\0';
        path = image;
    }
    char *args[CT_EXEC_WORDS_MAX + CT_EXEC_ARGS_MAX + 2];
    size_t n = 0;
    char *save = NULL;
    strncpy(words, w, sizeof words - 1);
    for (char *p = strtok_r(words, " \t", &save); p != NULL && n < CT_EXEC_WORDS_MAX;
         p = strtok_r(NULL, " \t", &save))
        args[n++] = p;
    args[n++] = (char *)path;
    for (size_t i = 1; argv[0] != NULL && argv[i] != NULL && i <= CT_EXEC_ARGS_MAX; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    return execvp(args[0], args);
}

#endif
