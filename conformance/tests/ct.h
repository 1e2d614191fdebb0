/* SPDX-License-Identifier: MIT */
/*
 * ct.h -- the framework of the portable conformance tests (conformance/tests/NAME.c).
 *
 * One .c file holds the tests of one interface, in the manner of musl's
 * libc-test.  Each test names the catalogue rules it checks, the options it
 * needs and the functions it exercises:
 *
 *     #include "ct.h"
 *
 *     CT_TEST(destroy_then_init, "TRC.attr_init.reinit", "TRC",
 *             "posix_trace_attr_init,posix_trace_attr_destroy")
 *     {
 *         trace_attr_t a;
 *         CT_SETUP_OK(posix_trace_attr_init(&a));
 *         CT_CHECK_OK(posix_trace_attr_destroy(&a));
 *         CT_CHECK_OK(posix_trace_attr_init(&a));
 *     }
 *
 * A test whose body returns has PASSed if it made at least one check (one
 * that made none is UNRESOLVED: it showed nothing).  A check that does not
 * hold ends the test FAIL with a message saying what was expected, what came
 * back, which rule it breaks and where (file:line and the condition's text).  ct.c
 * supplies main(), which implements the harness protocol (harness/README.md):
 *
 *     EXE --list          one line per test: id TAB rules TAB options TAB functions
 *     EXE --run ID        runs test ID in this process; exit status and the last
 *                         line "RESULT <CODE> <message>" give the result
 *     EXE --run-all       runs every test, each in a child process (for humans)
 *
 * A test's id is "<file>.<name>": the file's name without ".c", a dot, and the
 * name given to CT_TEST.
 *
 * Portability.  A test includes standard headers, <trace.h> and this file,
 * nothing else.  It never assumes a constant's value, a type's representation
 * (trace_id_t and trace_event_id_t need not even be arithmetic types: compare
 * event ids with posix_trace_eventid_equal(), print them with CT_HEX), a
 * default attribute value or a clock: it asks the implementation (getters,
 * ct_limit_*(), ct_option()) instead.
 */
#ifndef CT_H
#define CT_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <trace.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CT_PRINTF(f, a)  __attribute__((format(printf, f, a)))
#define CT_NORETURN      __attribute__((noreturn))
#define CT_CONSTRUCTOR   __attribute__((constructor))
#else
#error "ct.h needs __attribute__((constructor)) (GCC or Clang)"
#endif

/* ---- Result codes (IEEE Std 1003.3): the exit status of "EXE --run ID" ---- */

enum ct_code {
    CT_CODE_PASS = 0,
    CT_CODE_FAIL = 1,
    CT_CODE_UNRESOLVED = 2,
    CT_CODE_UNSUPPORTED = 3,
    CT_CODE_UNTESTED = 4
};

/* ---- Registration ---------------------------------------------------------- */

struct ct_test {
    const char *name;        /* CT_TEST's first argument */
    const char *rules;       /* "rule.id1,rule.id2" */
    const char *options;     /* "TRC" or "TRC,TEF" */
    const char *functions;   /* "posix_trace_create,posix_trace_start" or "" */
    const char *file;        /* __FILE__ of the test */
    int line;
    void (*body)(void);
    struct ct_test *next;
};

void ct_register(struct ct_test *t);

/* CT_TEST(name, rules, options, functions) { body }
 * name: a C identifier, unique in the file; rules: comma-separated catalogue
 * rule ids; options: comma-separated from TRC, TEF, TRI, TRL; functions:
 * comma-separated POSIX function names (may be ""). */
#define CT_TEST(name, rules, options, functions)                                  \
    static void ct_body_##name(void);                                             \
    static struct ct_test ct_test_##name = {                                      \
        #name, rules, options, functions, __FILE__, __LINE__, ct_body_##name, 0   \
    };                                                                            \
    CT_CONSTRUCTOR static void ct_register_##name(void)                          \
    {                                                                             \
        ct_register(&ct_test_##name);                                             \
    }                                                                             \
    static void ct_body_##name(void)

/* ---- Checks -------------------------------------------------------------------
 *
 * Every check counts; a failing one ends the test at once (the process exits:
 * the runner gives every test a process of its own, so nothing needs cleaning
 * up).  fmt and its arguments describe the values seen: say what was expected
 * and what came back. */

/* cond must hold; otherwise FAIL with the condition's text and the message. */
#define CT_CHECK(cond, ...)                                                       \
    do {                                                                          \
        ct_checks++;                                                              \
        if (!(cond))                                                              \
            ct_fail_check(__FILE__, __LINE__, #cond, __VA_ARGS__);                \
        ct_check_passed(__FILE__, __LINE__);                                      \
    } while (0)

/* call (a function returning an error number, as every <trace.h> function
 * does) must return expected: "expected EINVAL (22), got 0 (success)". */
#define CT_CHECK_ERR(call, expected)                                              \
    do {                                                                          \
        int ct_got_ = (call), ct_want_ = (expected);                             \
        ct_checks++;                                                              \
        if (ct_got_ != ct_want_)                                                  \
            ct_fail_err(__FILE__, __LINE__, #call, ct_want_, ct_got_);            \
        ct_check_passed(__FILE__, __LINE__);                                      \
    } while (0)

/* call must succeed (return 0).  (Not CT_CHECK_ERR(call, 0): the message
 * shows call as written, macros unexpanded.) */
#define CT_CHECK_OK(call)                                                         \
    do {                                                                          \
        int ct_got_ = (call);                                                     \
        ct_checks++;                                                              \
        if (ct_got_ != 0)                                                         \
            ct_fail_err(__FILE__, __LINE__, #call, 0, ct_got_);                   \
        ct_check_passed(__FILE__, __LINE__);                                      \
    } while (0)

/* For a "may fail" error: call returns expected (the check passes) or 0 (the
 * implementation does not detect the condition, which it may: the test ends
 * UNSUPPORTED); anything else FAILs.  Put it last in its test. */
#define CT_CHECK_MAY_ERR(call, expected)                                          \
    do {                                                                          \
        int ct_got_ = (call), ct_want_ = (expected);                             \
        ct_checks++;                                                              \
        if (ct_got_ != ct_want_)                                                  \
            ct_may_err(__FILE__, __LINE__, #call, ct_want_, ct_got_);             \
        ct_check_passed(__FILE__, __LINE__);                                      \
    } while (0)

/* Setup that must work for the test to mean anything: anything but 0 ends the
 * test UNRESOLVED ("setup failed"), not FAIL. */
#define CT_SETUP_OK(call)                                                         \
    do {                                                                          \
        int ct_got_ = (call);                                                     \
        if (ct_got_ != 0)                                                         \
            ct_setup_err(__FILE__, __LINE__, #call, ct_got_);                     \
    } while (0)

/* Ending a test with a result other than PASS. */
#define CT_FAIL(...)        ct_end(CT_CODE_FAIL, __FILE__, __LINE__, __VA_ARGS__)
#define CT_UNRESOLVED(...)  ct_end(CT_CODE_UNRESOLVED, __FILE__, __LINE__, __VA_ARGS__)
#define CT_UNSUPPORTED(...) ct_end(CT_CODE_UNSUPPORTED, __FILE__, __LINE__, __VA_ARGS__)
#define CT_UNTESTED(...)    ct_end(CT_CODE_UNTESTED, __FILE__, __LINE__, __VA_ARGS__)

/* Names the rule the following checks are about (one of the test's rules),
 * for failure messages; without it a message names all the test's rules. */
#define CT_RULE(id) ct_set_rule(id)

/* A line of information in the test's output (kept in the report). */
void ct_note(const char *fmt, ...) CT_PRINTF(1, 2);

/* ---- Values ------------------------------------------------------------------ */

/* "EINVAL" for EINVAL, "0" for 0, "error 1234" for an unknown number. */
const char *ct_errname(int err);

/* How a child ended, from its wait status: "exit status 3", "signal 9". */
const char *ct_wait_status(int st);

/* The bytes of an object in hex ("0x01000000"), for values of opaque types:
 * CT_HEX(id).  The string lives until eight more calls. */
const char *ct_hex(const void *p, size_t n);
#define CT_HEX(obj) ct_hex(&(obj), sizeof(obj))

/* ---- The implementation's options and limits -----------------------------------
 *
 * ct_option("TEF"): is the option supported?  The runner says so in the
 * environment (CT_OPTIONS, from the implementation profile and the configure
 * override); a test run by hand decides from the _POSIX_TRACE* macros of
 * <unistd.h>/<trace.h> and, where a macro is 0 or undefined, from sysconf().
 *
 * CT_HAVE_TEF, CT_HAVE_TRI, CT_HAVE_TRL: 1 if a test may refer to the option's
 * functions, types and constants at compile time (the macro is defined and not
 * -1; the build may force either answer, -DCT_HAVE_TEF=1 or 0, as it does
 * for configure's --trace-options).  Code using an option's names goes in
 * #if CT_HAVE_xxx; the #else branch ends the test CT_UNSUPPORTED. */
int ct_option(const char *name);

/* sysconf() for the _SC_TRACE* names; the implementation's own
 * posix_trace_sysconf() where the build says it has one
 * (CT_HAVE_POSIX_TRACE_SYSCONF, the reference), since the C library's sysconf()
 * may know nothing of the trace implementation. */
long ct_sysconf(int name);

/* The limits: the <limits.h>/<trace.h> constant if defined, else sysconf();
 * -1 if indeterminate. */
long ct_limit_trace_event_name_max(void);
long ct_limit_trace_name_max(void);
long ct_limit_trace_sys_max(void);
long ct_limit_trace_user_event_max(void);

/* Buffers with room to spare, for tests that read a name or a version for its
 * contents: one byte more than the standard lets a caller pass (ruling 10;
 * ruling 24 for event names), so that an implementation writing one byte too
 * many FAILs only the rule of the bound (attr_getname.fits-name-max and the
 * like, which pass exactly-sized buffers with guard bytes: ct_guarded). */
#if defined(TRACE_NAME_MAX) && TRACE_NAME_MAX > 0 && TRACE_NAME_MAX < 4096
#define CT_NAME_BUF (TRACE_NAME_MAX + 1)
#else
#define CT_NAME_BUF 4096
#endif
/* The same for event names ({TRACE_EVENT_NAME_MAX}). */
#if defined(TRACE_EVENT_NAME_MAX) && TRACE_EVENT_NAME_MAX > 0 && TRACE_EVENT_NAME_MAX < 4096
#define CT_EVENT_NAME_BUF (TRACE_EVENT_NAME_MAX + 1)
#else
#define CT_EVENT_NAME_BUF 4096
#endif

/* ---- Output buffers with guard bytes ----------------------------------------------
 *
 * A buffer the implementation writes into, exactly as large as the standard
 * lets a caller make it, followed by CT_GUARD bytes of CT_GUARD_BYTE.  The
 * buffer itself is filled with the same pattern, so that a string left without
 * its NUL is seen (ct_guarded_has_nul).  ct_guard_check FAILs the test if a
 * guard byte changed; the message names what wrote (what) and the bound
 * (bound, e.g. "{TRACE_NAME_MAX} (S0014)"), so it points at the rule of the
 * function's output. */
#define CT_GUARD      16
#define CT_GUARD_BYTE 0xA5

struct ct_guarded {
    unsigned char *p;       /* size bytes for the callee, then CT_GUARD guard bytes */
    size_t size;
    const char *bound;      /* where size comes from, for messages */
};

/* A guarded buffer of size bytes (UNRESOLVED if there is no memory). */
struct ct_guarded ct_guarded_new(size_t size, const char *bound);
/* Fills the buffer and its guard with the pattern again, before a call. */
void ct_guarded_reset(struct ct_guarded *g);
/* A NUL among the size bytes the callee may use. */
int ct_guarded_has_nul(const struct ct_guarded *g);
void ct_guarded_free(struct ct_guarded *g);
/* A check: every guard byte is intact after what wrote into g. */
#define ct_guard_check(g, what) ct_guard_check_at(__FILE__, __LINE__, (g), (what))
void ct_guard_check_at(const char *file, int line, const struct ct_guarded *g,
                       const char *what);

#ifndef CT_HAVE_TEF
#  if (defined(_POSIX_TRACE_EVENT_FILTER) && _POSIX_TRACE_EVENT_FILTER != -1)
#    define CT_HAVE_TEF 1
#  else
#    define CT_HAVE_TEF 0
#  endif
#endif
#ifndef CT_HAVE_TRI
#  if (defined(_POSIX_TRACE_INHERIT) && _POSIX_TRACE_INHERIT != -1)
#    define CT_HAVE_TRI 1
#  else
#    define CT_HAVE_TRI 0
#  endif
#endif
#ifndef CT_HAVE_TRL
#  if (defined(_POSIX_TRACE_LOG) && _POSIX_TRACE_LOG != -1)
#    define CT_HAVE_TRL 1
#  else
#    define CT_HAVE_TRL 0
#  endif
#endif

/* ---- What a header may lack ------------------------------------------------------
 *
 * A test uses only what a conforming <trace.h> must provide.  Where it needs
 * something a header may omit, or that real headers omit, it uses these, so
 * that the missing item fails its own rule (in header_trace_h.c or
 * unistd_limits.c) and nothing else (issue 12).
 *
 * The <limits.h> minima {_POSIX_TRACE_*_MAX} have fixed values (XBD
 * <limits.h>, Minimum Values); C libraries without tracing do not define
 * them (rules limits._POSIX_TRACE_*).  Tests use the standard's values. */
#define CT_MIN_TRACE_EVENT_NAME_MAX 30
#define CT_MIN_TRACE_NAME_MAX       8
#define CT_MIN_TRACE_SYS_MAX        8
#define CT_MIN_TRACE_USER_EVENT_MAX 32

/* The predefined user event under either spelling (ruling 1): XSH's
 * POSIX_TRACE_UNNAMED_USEREVENT or <trace.h>'s POSIX_TRACE_UNNAMED_USER_EVENT.
 * Where neither is a macro, XSH's spelling is used and must compile. */
#if defined(POSIX_TRACE_UNNAMED_USEREVENT)
#define CT_UNNAMED POSIX_TRACE_UNNAMED_USEREVENT
#define CT_UNNAMED_SPELLING "POSIX_TRACE_UNNAMED_USEREVENT"
#elif defined(POSIX_TRACE_UNNAMED_USER_EVENT)
#define CT_UNNAMED POSIX_TRACE_UNNAMED_USER_EVENT
#define CT_UNNAMED_SPELLING "POSIX_TRACE_UNNAMED_USER_EVENT"
#else
#define CT_UNNAMED POSIX_TRACE_UNNAMED_USEREVENT
#define CT_UNNAMED_SPELLING "POSIX_TRACE_UNNAMED_USEREVENT (not a macro)"
#endif

/* POSIX_TRACE_ERROR is required (ruling 2) but missing from the XBD <trace.h>
 * list, and headers written from that list lack it.  Its absence is a FAIL of
 * trace_h.const.POSIX_TRACE_ERROR (a compile probe); other tests leave the
 * error event out where CT_HAVE_POSIX_TRACE_ERROR is 0, and say so. */
#ifndef CT_HAVE_POSIX_TRACE_ERROR
#  ifdef POSIX_TRACE_ERROR
#    define CT_HAVE_POSIX_TRACE_ERROR 1
#  else
#    define CT_HAVE_POSIX_TRACE_ERROR 0
#  endif
#endif
#define CT_NO_POSIX_TRACE_ERROR_NOTE                                                \
    "<trace.h> does not define POSIX_TRACE_ERROR (a FAIL of"                        \
    " trace_h.const.POSIX_TRACE_ERROR): the error event is left out here"

/* ---- Time ----------------------------------------------------------------------- */

/* CLOCK_REALTIME now plus ms milliseconds (an abstime for timedgetnext). */
struct timespec ct_abstime_in_ms(long ms);
/* Sleeps ms milliseconds (nanosleep, resumed after signals). */
void ct_sleep_ms(long ms);

/* ---- Processes ------------------------------------------------------------------- */

/* fork() with stdout and stderr flushed first (nothing written before it is
 * written twice); a fork that fails ends the test UNRESOLVED. */
pid_t ct_fork(void);

/* ---- Internals used by the macros ------------------------------------------------ */

extern unsigned long ct_checks;
void ct_check_passed(const char *file, int line);
void ct_set_rule(const char *id);
CT_NORETURN void ct_end(int code, const char *file, int line, const char *fmt, ...)
    CT_PRINTF(4, 5);
CT_NORETURN void ct_fail_check(const char *file, int line, const char *cond,
                               const char *fmt, ...) CT_PRINTF(4, 5);
CT_NORETURN void ct_fail_err(const char *file, int line, const char *call, int want, int got);
void ct_may_err(const char *file, int line, const char *call, int want, int got);
CT_NORETURN void ct_setup_err(const char *file, int line, const char *call, int got);

#ifdef __cplusplus
}
#endif

#include "ct_calls.h"   /* last: wraps the <trace.h> functions declared above */

#endif /* CT_H */
