/* SPDX-License-Identifier: MIT */
/*
 * vec_progress.c -- the vector interpreter's notes of where it is
 * (vec_progress.h), on the page of ct_notes.h, as ct.c keeps them:
 * "call <function> <file>:<line>" before a step calls the implementation and
 * "returned ..." once the step is done; "stopped ..." ("stopped-after ...")
 * before a call that CT_STOP_AT (CT_STOP_HUNG_AFTER) names.  The page is opened on the first call.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "../../conformance/tests/ct_notes.h"
#include "vec_progress.h"

static char *page;
static int opened;
static const char *last_function, *last_path;
static int last_line;

/* "vectors/trc/x.vec" of "/abs/path/vectors/trc/x.vec": short in messages. */
static const char *shown(const char *path)
{
    const char *v = NULL;
    for (const char *p = strstr(path, "vectors/"); p; p = strstr(p + 1, "vectors/"))
        v = p;
    return v ? v : path;
}

static void note(const char *state)
{
    if (page && last_function)
        snprintf(page, CT_NOTE, "%s %s %s:%d", state, last_function, last_path, last_line);
}

void vec_progress_call(const char *function, const char *path, int line,
                       void (*before_stop)(void))
{
    if (!opened) {
        opened = 1;
        page = ct_notes_open();
    }
    last_function = function;
    last_path = shown(path);
    last_line = line;
    int in = ct_in_list(getenv("CT_STOP_AT"), function);
    if (in || ct_in_list(getenv("CT_STOP_HUNG_AFTER"), function)) {
        note(in ? "stopped" : "stopped-after");
        if (before_stop)
            before_stop();
        printf("\nRESULT UNRESOLVED not run to the end: %s %s in several tests in a row,"
               " and this test was about to call it (stopped before the call) (%s:%d)\n",
               function, in ? "hung" : "returned and then the test hung", last_path, line);
        fflush(stdout);
        _exit(2);                   /* VEC_UNRESOLVED */
    }
    note("call");
}

void vec_progress_step_done(void)
{
    note("returned");
}
