/* SPDX-License-Identifier: MIT */
/*
 * preflight.c -- whether the test wrapper can run what the tests need, before
 * any test runs (harness/runner/preflight.py): a thread, a file, a trace
 * stream.  An emulator that cannot run a threaded program (Debian's cross C
 * library under qemu-user 7.2: pthread_create dies of SIGSEGV) would
 * otherwise make every test FAIL against a correct library.
 *
 *     preflight thread    a thread writes preflight.txt in the current
 *                         folder; the program reads it back once the thread
 *                         has ended
 *     preflight trace     the same, and the thread first creates a trace
 *                         stream for the calling process and shuts it down
 *                         (posix_trace_attr_init, posix_trace_create with
 *                         pid 0, posix_trace_shutdown)
 *
 * Exit status 0 when all went well, 1 when the thread cannot be started or
 * joined, 2 when the file cannot be written or read back, 3 when a trace
 * function answered an error; each says why on stderr, and a crash is the
 * signal's.  Built like the profile, against the implementation under test's
 * <trace.h> and library, with the standard API only; the runner runs it
 * through the wrapper and, where it fails there, without it, so that a
 * wrapper that fails is told apart from a library whose calls fail.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <trace.h>

#define FILE_NAME "preflight.txt"
#define TEXT "posixtrace preflight\n"

static int with_trace;

static int failed(int code, const char *what, int err)
{
    fprintf(stderr, "preflight: %s: %s (%d)\n", what, strerror(err), err);
    return code;
}

static int trace_calls(void)
{
    trace_attr_t attr;
    trace_id_t trid;
    int rc = posix_trace_attr_init(&attr);
    if (rc != 0)
        return failed(3, "posix_trace_attr_init", rc);
    rc = posix_trace_create(0, &attr, &trid);
    if (rc != 0) {
        posix_trace_attr_destroy(&attr);
        return failed(3, "posix_trace_create (pid 0)", rc);
    }
    rc = posix_trace_shutdown(trid);
    posix_trace_attr_destroy(&attr);
    return rc != 0 ? failed(3, "posix_trace_shutdown", rc) : 0;
}

static void *run(void *arg)
{
    int *status = arg;
    if (with_trace && (*status = trace_calls()) != 0)
        return NULL;
    FILE *f = fopen(FILE_NAME, "w");
    if (f == NULL || fputs(TEXT, f) == EOF || fclose(f) != 0) {
        *status = 2;
        fprintf(stderr, "preflight: cannot write %s in the current folder\n", FILE_NAME);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "thread") != 0 && strcmp(argv[1], "trace") != 0)) {
        fprintf(stderr, "usage: preflight thread|trace\n");
        return 64;
    }
    with_trace = strcmp(argv[1], "trace") == 0;
    int status = 0;
    pthread_t t;
    int rc = pthread_create(&t, NULL, run, &status);
    if (rc != 0)
        return failed(1, "pthread_create", rc);
    rc = pthread_join(t, NULL);
    if (rc != 0)
        return failed(1, "pthread_join", rc);
    if (status != 0)
        return status;
    char buf[64] = "";
    FILE *f = fopen(FILE_NAME, "r");
    if (f == NULL || fgets(buf, sizeof buf, f) == NULL || strcmp(buf, TEXT) != 0) {
        fprintf(stderr, "preflight: the thread's %s cannot be read back\n", FILE_NAME);
        return 2;
    }
    fclose(f);
    remove(FILE_NAME);
    return 0;
}
