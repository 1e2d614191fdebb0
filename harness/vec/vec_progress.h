/* SPDX-License-Identifier: MIT */
/*
 * vec_progress.h -- the vector interpreter's notes of where it is, for the
 * runner (harness/run.py), in the format ct.c keeps for the portable tests
 * (conformance/tests/ct.c, "Where the test is"; harness/README.md): a vector
 * that hangs in the implementation is reported "timed out after 2 s in
 * posix_trace_start (vectors/trc/x.vec:12)", and CT_STOP_AT makes a vector
 * that is about to call a function that hung in several tests in a row end
 * UNRESOLVED before the call.
 */
#ifndef VEC_PROGRESS_H
#define VEC_PROGRESS_H

/* A step of vector file path, at line, is about to call function.  If the
 * runner said it hung in several tests in a row (CT_STOP_AT), the vector
 * ends UNRESOLVED here, before the call, after before_stop (if not NULL:
 * the interpreter kills the processes it forked). */
void vec_progress_call(const char *function, const char *path, int line,
                       void (*before_stop)(void));
/* The step has ended (its calls returned). */
void vec_progress_step_done(void);

#endif
