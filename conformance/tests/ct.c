/* SPDX-License-Identifier: MIT */
/*
 * ct.c -- the runtime of the conformance test framework (ct.h): test
 * registration, main() with the harness protocol (--list, --run), result
 * reporting, errno names, and the option and limit queries.
 *
 * Protocol (harness/README.md): "--run ID" runs one test in this process and
 * exits with its result code (0 PASS, 1 FAIL, 2 UNRESOLVED, 3 UNSUPPORTED,
 * 4 UNTESTED) after printing, as its last line on stdout,
 * "RESULT <CODE> <one-line message>".
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "ct.h"
#include "ct_notes.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static struct ct_test *registry;
static const struct ct_test *current;       /* the test being run */
static const char *current_rule;            /* CT_RULE, or NULL */
static int finished;                        /* the test has reported its result */
unsigned long ct_checks;

/* The rules of the test being run, and the checks that passed for each: a
 * test of several rules says which rule each check serves (CT_RULE), so
 * that a failure blames that rule alone (RULE-RESULT lines, harness/README.md). */
enum { CT_MAX_RULES = 8 };
struct ct_rule_count { const char *id; size_t len; unsigned long passed; };
static struct ct_rule_count rule_tab[CT_MAX_RULES];
static int nrules;
static int body_returned;                   /* the test's body has returned */

static const char *const code_names[] = {
    "PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED", "UNTESTED"
};

void ct_register(struct ct_test *t)
{
    t->next = registry;
    registry = t;
}

/* ---- Test ids ------------------------------------------------------------ */

/* "<file>.<name>", the file's base name without ".c". */
static void test_id(const struct ct_test *t, char *buf, size_t size)
{
    const char *base = strrchr(t->file, '/');
    base = base ? base + 1 : t->file;
    size_t n = strlen(base);
    if (n > 2 && strcmp(base + n - 2, ".c") == 0)
        n -= 2;
    snprintf(buf, size, "%.*s.%s", (int)n, base, t->name);
}

static const char *file_base(const char *file)
{
    const char *base = strrchr(file, '/');
    return base ? base + 1 : file;
}

/* ---- Errno names ----------------------------------------------------------- */

static const struct { int num; const char *name; } errnames[] = {
#define E(x) { x, #x },
    E(EPERM) E(ENOENT) E(ESRCH) E(EINTR) E(EIO) E(ENXIO) E(E2BIG) E(ENOEXEC)
    E(EBADF) E(ECHILD) E(EAGAIN) E(ENOMEM) E(EACCES) E(EFAULT) E(EBUSY)
    E(EEXIST) E(EXDEV) E(ENODEV) E(ENOTDIR) E(EISDIR) E(EINVAL) E(ENFILE)
    E(EMFILE) E(ENOTTY) E(ETXTBSY) E(EFBIG) E(ENOSPC) E(ESPIPE) E(EROFS)
    E(EMLINK) E(EPIPE) E(EDOM) E(ERANGE) E(EDEADLK) E(ENAMETOOLONG) E(ENOLCK)
    E(ENOSYS) E(ENOTEMPTY) E(ELOOP) E(ENOMSG) E(EIDRM) E(ENOSTR) E(ENODATA)
    E(ETIME) E(ENOSR) E(ENOLINK) E(EPROTO) E(EMULTIHOP) E(EBADMSG) E(EOVERFLOW)
    E(EILSEQ) E(ENOTSOCK) E(EDESTADDRREQ) E(EMSGSIZE) E(EPROTOTYPE)
    E(ENOPROTOOPT) E(EPROTONOSUPPORT) E(ENOTSUP) E(EAFNOSUPPORT) E(EADDRINUSE)
    E(EADDRNOTAVAIL) E(ENETDOWN) E(ENETUNREACH) E(ENETRESET) E(ECONNABORTED)
    E(ECONNRESET) E(ENOBUFS) E(EISCONN) E(ENOTCONN) E(ETIMEDOUT)
    E(ECONNREFUSED) E(EHOSTUNREACH) E(EALREADY) E(EINPROGRESS) E(ESTALE)
    E(EDQUOT) E(ECANCELED) E(EOWNERDEAD) E(ENOTRECOVERABLE)
#undef E
};

const char *ct_errname(int err)
{
    static char other[8][32];
    static unsigned next;
    if (err == 0)
        return "0";
    for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
        if (errnames[i].num == err)
            return errnames[i].name;
    char *b = other[next++ % 8];
    snprintf(b, sizeof other[0], "error %d", err);
    return b;
}

const char *ct_wait_status(int st)
{
    static char buf[64];
    if (WIFEXITED(st))
        snprintf(buf, sizeof buf, "exit status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, sizeof buf, "signal %d", WTERMSIG(st));
    else
        snprintf(buf, sizeof buf, "status 0x%x", st);
    return buf;
}

/* "EINVAL (22)", "0 (success)". */
static void describe_err(char *buf, size_t size, int err)
{
    if (err == 0)
        snprintf(buf, size, "0 (success)");
    else if (strncmp(ct_errname(err), "error ", 6) == 0)
        snprintf(buf, size, "%d (not an errno value)", err);
    else
        snprintf(buf, size, "%s (%d)", ct_errname(err), err);
}

const char *ct_hex(const void *p, size_t n)
{
    static char bufs[8][2 * 64 + 8];
    static unsigned next;
    char *b = bufs[next++ % 8], *o = b;
    const unsigned char *c = p;
    size_t shown = n > 64 ? 64 : n;
    o += sprintf(o, "0x");
    for (size_t i = 0; i < shown; i++)
        o += sprintf(o, "%02x", c[i]);
    if (shown < n)
        sprintf(o, "...");
    return b;
}

/* ---- Where the test is: notes for the runner (ct_notes.h) -------------------
 *
 * The trace call in progress or last returned (ct_calls.h) and the last
 * check that passed.  A process the test forks shares the page: its notes
 * are as good. */
static char *progress;                      /* the mapped page, or NULL */
static const char *stop_at;                 /* CT_STOP_AT: functions not to call */
static const char *stop_hung_after;         /* CT_STOP_HUNG_AFTER: the same, tests hung
                                               after they returned */
static const char *call_function, *call_file;
static int call_line;
/* Threads of a test call the API at once: the call in progress and its note
 * are one thread's at a time.  A try-lock: the notes are a best effort, and a
 * child forked while another thread held the lock must not wait for it. */
static pthread_mutex_t call_lock = PTHREAD_MUTEX_INITIALIZER;

static void progress_open(void)
{
    stop_at = getenv("CT_STOP_AT");
    stop_hung_after = getenv("CT_STOP_HUNG_AFTER");
    progress = ct_notes_open();
}

static void note_call(const char *state)
{
    if (progress)
        snprintf(progress, CT_NOTE, "%s %s %s:%d", state, call_function,
                 file_base(call_file), call_line);
}

void ct_call_begin(const char *function, const char *file, int line)
{
    if (pthread_mutex_trylock(&call_lock) == 0) {
        call_function = function;
        call_file = file;
        call_line = line;
        note_call("call");
        pthread_mutex_unlock(&call_lock);
    }
    int in = stop_at && ct_in_list(stop_at, function);
    if (current && (in || (stop_hung_after && ct_in_list(stop_hung_after, function)))) {
        /* A process the test forked ends here too; the note tells the
         * runner why, whatever its parent then says. */
        if (progress)
            snprintf(progress, CT_NOTE, "%s %s %s:%d", in ? "stopped" : "stopped-after",
                     function, file_base(file), line);
        ct_end(CT_CODE_UNRESOLVED, file, line,
               "not run to the end: %s %s in several tests in a row, and this test"
               " was about to call it (stopped before the call)", function,
               in ? "hung" : "returned and then the test hung");
    }
}

static void note_return(void)
{
    if (pthread_mutex_trylock(&call_lock) == 0) {
        note_call("returned");
        pthread_mutex_unlock(&call_lock);
    }
}

int ct_call_end(int result)
{
    note_return();
    return result;
}

void ct_call_end_void(void)
{
    note_return();
}

/* rule_tab from "a.b,c.d". */
static void split_rules(const char *rules)
{
    nrules = 0;
    for (const char *p = rules; *p && nrules < CT_MAX_RULES;) {
        size_t n = strcspn(p, ",");
        while (n && (*p == ' ' || *p == '\t'))
            p++, n--;
        size_t len = n;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len)
            rule_tab[nrules++] = (struct ct_rule_count) { p, len, 0 };
        p += n;
        if (*p == ',')
            p++;
    }
}

/* The index in rule_tab of the rule the checks now serve: the test's only
 * rule, or the one CT_RULE named; -1 if a test of several rules has not said. */
static int rule_index(void)
{
    if (nrules == 1)
        return 0;
    for (int i = 0; current_rule && i < nrules; i++)
        if (strlen(current_rule) == rule_tab[i].len &&
            strncmp(current_rule, rule_tab[i].id, rule_tab[i].len) == 0)
            return i;
    return -1;
}

CT_NORETURN static void finish(int code, const char *file, int line, const char *msg);

void ct_check_passed(const char *file, int line)
{
    int r = rule_index();
    if (r < 0 && current)
        finish(CT_CODE_UNRESOLVED, file, line,
               "test bug: a check in a test of several rules names none of them"
               " (put CT_RULE(id) before it)");
    if (r >= 0)
        rule_tab[r].passed++;
    if (progress)
        snprintf(progress + CT_NOTE, CT_NOTE, "check %s:%d %lu", file_base(file), line,
                 ct_checks);
}

/* ---- Ending a test --------------------------------------------------------- */

/* Replaces control characters so that the message stays one line. */
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

static void rules_of_failure(char *buf, size_t size)
{
    if (current_rule)
        snprintf(buf, size, "breaks %s", current_rule);
    else if (current)
        snprintf(buf, size, "breaks %s", current->rules);
    else
        snprintf(buf, size, "no test");
}

/* A rule of the test none of whose checks ran, or NULL. */
static const struct ct_rule_count *unchecked_rule(void)
{
    for (int i = 0; i < nrules; i++)
        if (!rule_tab[i].passed)
            return &rule_tab[i];
    return NULL;
}

/* The test's result for each of its rules (RULE-RESULT lines): a FAIL
 * blames the rule of the failing check only; a rule with checks passed
 * before it is not concluded (its later checks did not run); a PASS passes
 * each rule that had checks.  Other results hold for every rule alike. */
static void rule_results(int code, const char *out)
{
    if (nrules < 2 || (code != CT_CODE_FAIL && !body_returned))
        return;
    int failed = code == CT_CODE_FAIL ? rule_index() : -1;
    if (code == CT_CODE_FAIL && failed < 0)
        return;                              /* no rule named: the FAIL is every rule's */
    for (int i = 0; i < nrules; i++) {
        printf("RULE-RESULT %.*s ", (int)rule_tab[i].len, rule_tab[i].id);
        if (i == failed)
            printf("FAIL %s\n", out);
        else if (failed >= 0)
            printf("UNRESOLVED not concluded: the test stopped at a failure of %.*s"
                   " after %lu check%s of this rule passed\n",
                   (int)rule_tab[failed].len, rule_tab[failed].id, rule_tab[i].passed,
                   rule_tab[i].passed == 1 ? "" : "s");
        else if (rule_tab[i].passed)
            printf("PASS %lu check%s of this rule passed\n", rule_tab[i].passed,
                   rule_tab[i].passed == 1 ? "" : "s");
        else
            printf("UNRESOLVED the test made no check of this rule\n");
    }
}

CT_NORETURN static void finish(int code, const char *file, int line, const char *msg)
{
    char where[512], out[2048];
    if (code == CT_CODE_FAIL) {
        char rules[400];
        rules_of_failure(rules, sizeof rules);
        snprintf(where, sizeof where, " (%s; %s:%d)", rules, file_base(file), line);
    } else if (file) {
        snprintf(where, sizeof where, " (%s:%d)", file_base(file), line);
    } else {
        where[0] = '\0';
    }
    snprintf(out, sizeof out, "%s%s", msg, where);
    one_line(out);
    finished = 1;
    fflush(stderr);
    if (current)
        rule_results(code, out);
    printf("RESULT %s %s\n", code_names[code], out);
    fflush(stdout);
    exit(code);
}

static void vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
    vsnprintf(buf, size, fmt, ap);
}

void ct_end(int code, const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vformat(msg, sizeof msg, fmt, ap);
    va_end(ap);
    finish(code, file, line, msg);
}

void ct_fail_check(const char *file, int line, const char *cond, const char *fmt, ...)
{
    char detail[1024], msg[1600];
    va_list ap;
    va_start(ap, fmt);
    vformat(detail, sizeof detail, fmt, ap);
    va_end(ap);
    printf("check failed at %s:%d\n  condition: %s\n  seen:      %s\n", file, line, cond,
           detail);
    if (detail[0])
        snprintf(msg, sizeof msg, "%s [check: %s]", detail, cond);
    else
        snprintf(msg, sizeof msg, "check failed: %s", cond);
    finish(CT_CODE_FAIL, file, line, msg);
}

void ct_fail_err(const char *file, int line, const char *call, int want, int got)
{
    char w[64], g[64], msg[1400];
    describe_err(w, sizeof w, want);
    describe_err(g, sizeof g, got);
    snprintf(msg, sizeof msg, "%s: expected %s, got %s", call, w, g);
    finish(CT_CODE_FAIL, file, line, msg);
}

void ct_may_err(const char *file, int line, const char *call, int want, int got)
{
    char w[64], g[64], msg[1400];
    describe_err(w, sizeof w, want);
    describe_err(g, sizeof g, got);
    if (got == 0) {
        snprintf(msg, sizeof msg,
                 "%s: returned 0; the implementation does not detect this optional"
                 " (\"may fail\") %s error", call, w);
        finish(CT_CODE_UNSUPPORTED, file, line, msg);
    }
    snprintf(msg, sizeof msg, "%s: expected %s (or 0: a \"may fail\" error), got %s", call, w,
             g);
    finish(CT_CODE_FAIL, file, line, msg);
}

void ct_setup_err(const char *file, int line, const char *call, int got)
{
    char g[64], msg[1400];
    describe_err(g, sizeof g, got);
    snprintf(msg, sizeof msg, "setup failed: %s returned %s", call, g);
    finish(CT_CODE_UNRESOLVED, file, line, msg);
}

void ct_set_rule(const char *id)
{
    current_rule = id;
}

void ct_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("note: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    fflush(stdout);
}

/* The process that runs the test: children a test forks exit as they like,
 * and their exit handlers (the implementation's included) must run. */
static pid_t test_pid;

/* exit() called while the test runs (by the implementation, or a test that
 * forgot to return): the result would otherwise be the exit status alone. */
static void exit_guard(void)
{
    if (current && !finished && getpid() == test_pid) {
        printf("\nRESULT UNRESOLVED the test's process exited (exit() was called) before"
               " the test ended\n");
        fflush(stdout);
        _exit(CT_CODE_UNRESOLVED);
    }
}

/* ---- Options and limits ------------------------------------------------------ */

long ct_sysconf(int name)
{
#ifdef CT_HAVE_POSIX_TRACE_SYSCONF
    return posix_trace_sysconf(name);
#else
    return sysconf(name);
#endif
}

/* An option from its macro (defined? value) and its sysconf name (-1: none). */
static int option_from(int defined, long value, int sc)
{
    if (defined && value == -1)
        return 0;
    if (defined && value > 0)
        return 1;
    return sc != -1 && ct_sysconf(sc) > 0;     /* 0 or undefined: ask at run time */
}

#ifdef _POSIX_TRACE
#define OPT_TRC 1, (long)(_POSIX_TRACE)
#else
#define OPT_TRC 0, 0L
#endif
#ifdef _POSIX_TRACE_EVENT_FILTER
#define OPT_TEF 1, (long)(_POSIX_TRACE_EVENT_FILTER)
#else
#define OPT_TEF 0, 0L
#endif
#ifdef _POSIX_TRACE_INHERIT
#define OPT_TRI 1, (long)(_POSIX_TRACE_INHERIT)
#else
#define OPT_TRI 0, 0L
#endif
#ifdef _POSIX_TRACE_LOG
#define OPT_TRL 1, (long)(_POSIX_TRACE_LOG)
#else
#define OPT_TRL 0, 0L
#endif
#ifndef _SC_TRACE
#define SC_TRACE -1
#else
#define SC_TRACE _SC_TRACE
#endif
#ifndef _SC_TRACE_EVENT_FILTER
#define SC_TRACE_EVENT_FILTER -1
#else
#define SC_TRACE_EVENT_FILTER _SC_TRACE_EVENT_FILTER
#endif
#ifndef _SC_TRACE_INHERIT
#define SC_TRACE_INHERIT -1
#else
#define SC_TRACE_INHERIT _SC_TRACE_INHERIT
#endif
#ifndef _SC_TRACE_LOG
#define SC_TRACE_LOG -1
#else
#define SC_TRACE_LOG _SC_TRACE_LOG
#endif

int ct_option(const char *name)
{
    const char *env = getenv("CT_OPTIONS");
    if (env != NULL)
        return ct_in_list(env, name);
    if (strcmp(name, "TRC") == 0)
        return option_from(OPT_TRC, SC_TRACE);
    if (strcmp(name, "TEF") == 0)
        return option_from(OPT_TEF, SC_TRACE_EVENT_FILTER) && option_from(OPT_TRC, SC_TRACE);
    if (strcmp(name, "TRI") == 0)
        return option_from(OPT_TRI, SC_TRACE_INHERIT) && option_from(OPT_TRC, SC_TRACE);
    if (strcmp(name, "TRL") == 0)
        return option_from(OPT_TRL, SC_TRACE_LOG) && option_from(OPT_TRC, SC_TRACE);
    return 0;
}

#define LIMIT(fn, macro, sc)                                                      \
    long fn(void) { return limit_of(macro, sc); }

static long limit_of(long macro, int sc)
{
    if (macro > 0)
        return macro;
    if (sc == -1)
        return -1;
    long v = ct_sysconf(sc);
    return v > 0 ? v : -1;
}

#ifdef TRACE_EVENT_NAME_MAX
#define M_EVENT_NAME (long)(TRACE_EVENT_NAME_MAX)
#else
#define M_EVENT_NAME -1L
#endif
#ifdef TRACE_NAME_MAX
#define M_NAME (long)(TRACE_NAME_MAX)
#else
#define M_NAME -1L
#endif
#ifdef TRACE_SYS_MAX
#define M_SYS (long)(TRACE_SYS_MAX)
#else
#define M_SYS -1L
#endif
#ifdef TRACE_USER_EVENT_MAX
#define M_USER (long)(TRACE_USER_EVENT_MAX)
#else
#define M_USER -1L
#endif
#ifdef _SC_TRACE_EVENT_NAME_MAX
#define SC_EVENT_NAME _SC_TRACE_EVENT_NAME_MAX
#else
#define SC_EVENT_NAME -1
#endif
#ifdef _SC_TRACE_NAME_MAX
#define SC_NAME _SC_TRACE_NAME_MAX
#else
#define SC_NAME -1
#endif
#ifdef _SC_TRACE_SYS_MAX
#define SC_SYS _SC_TRACE_SYS_MAX
#else
#define SC_SYS -1
#endif
#ifdef _SC_TRACE_USER_EVENT_MAX
#define SC_USER _SC_TRACE_USER_EVENT_MAX
#else
#define SC_USER -1
#endif

LIMIT(ct_limit_trace_event_name_max, M_EVENT_NAME, SC_EVENT_NAME)
LIMIT(ct_limit_trace_name_max, M_NAME, SC_NAME)
LIMIT(ct_limit_trace_sys_max, M_SYS, SC_SYS)
LIMIT(ct_limit_trace_user_event_max, M_USER, SC_USER)

/* ---- Output buffers with guard bytes ------------------------------------------------ */

struct ct_guarded ct_guarded_new(size_t size, const char *bound)
{
    struct ct_guarded g = { malloc(size + CT_GUARD), size, bound };
    if (g.p == NULL)
        CT_UNRESOLVED("out of memory for a buffer of %zu bytes", size + CT_GUARD);
    ct_guarded_reset(&g);
    return g;
}

void ct_guarded_reset(struct ct_guarded *g)
{
    memset(g->p, CT_GUARD_BYTE, g->size + CT_GUARD);
}

int ct_guarded_has_nul(const struct ct_guarded *g)
{
    return memchr(g->p, '\0', g->size) != NULL;
}

void ct_guarded_free(struct ct_guarded *g)
{
    free(g->p);
    g->p = NULL;
}

void ct_guard_check_at(const char *file, int line, const struct ct_guarded *g,
                       const char *what)
{
    ct_checks++;
    for (size_t i = 0; i < CT_GUARD; i++)
        if (g->p[g->size + i] != CT_GUARD_BYTE)
            ct_fail_check(file, line, "guard bytes after the buffer intact",
                          "%s wrote past a buffer of %zu bytes, the size %s lets a caller"
                          " pass: guard byte %zu after it is 0x%02x, was 0x%02x", what,
                          g->size, g->bound, i, g->p[g->size + i], CT_GUARD_BYTE);
    ct_check_passed(file, line);
}

/* ---- Time ------------------------------------------------------------------------ */

struct timespec ct_abstime_in_ms(long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

void ct_sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

pid_t ct_fork(void)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        CT_UNRESOLVED("fork failed: %s", ct_errname(errno));
    return pid;
}

/* ---- main: the protocol --------------------------------------------------------- */

static int count_tests(void)
{
    int n = 0;
    for (const struct ct_test *t = registry; t; t = t->next)
        n++;
    return n;
}

static int by_id(const void *a, const void *b)
{
    char ia[256], ib[256];
    test_id(*(struct ct_test *const *)a, ia, sizeof ia);
    test_id(*(struct ct_test *const *)b, ib, sizeof ib);
    return strcmp(ia, ib);
}

/* The tests sorted by id; NULL-terminated. */
static struct ct_test **sorted_tests(void)
{
    int n = count_tests();
    struct ct_test **v = calloc((size_t)n + 1, sizeof *v);
    if (v == NULL) {
        fprintf(stderr, "ct: out of memory\n");
        exit(CT_CODE_UNRESOLVED);
    }
    int i = 0;
    for (struct ct_test *t = registry; t; t = t->next)
        v[i++] = t;
    qsort(v, (size_t)n, sizeof *v, by_id);
    return v;
}

/* A field of --list must be non-empty (except functions) and hold no blank. */
static int bad_field(const char *s, int may_be_empty)
{
    if (s == NULL || (!may_be_empty && *s == '\0'))
        return 1;
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            return 1;
    return 0;
}

static int list_tests(void)
{
    struct ct_test **v = sorted_tests();
    int status = 0;
    char id[256], prev[256] = "";
    for (int i = 0; v[i]; i++) {
        const struct ct_test *t = v[i];
        test_id(t, id, sizeof id);
        if (strcmp(id, prev) == 0) {
            fprintf(stderr, "%s:%d: test id %s is defined twice\n", t->file, t->line, id);
            status = CT_CODE_UNRESOLVED;
        }
        if (bad_field(t->rules, 0) || bad_field(t->options, 0) ||
            bad_field(t->functions, 1)) {
            fprintf(stderr, "%s:%d: test %s: rules and options must be non-empty"
                    " comma-separated lists without blanks\n", t->file, t->line, id);
            status = CT_CODE_UNRESOLVED;
        }
        if (t->functions[0])
            printf("%s\t%s\t%s\t%s\n", id, t->rules, t->options, t->functions);
        else
            printf("%s\t%s\t%s\n", id, t->rules, t->options);
        snprintf(prev, sizeof prev, "%s", id);
    }
    free(v);
    return status;
}

static const struct ct_test *find_test(const char *id)
{
    char buf[256];
    for (const struct ct_test *t = registry; t; t = t->next) {
        test_id(t, buf, sizeof buf);
        if (strcmp(buf, id) == 0)
            return t;
    }
    return NULL;
}

CT_NORETURN static void run_test(const struct ct_test *t)
{
    char id[256];
    test_id(t, id, sizeof id);
    setvbuf(stdout, NULL, _IOLBF, 0);       /* keep output up to a crash */
    printf("test %s (%s:%d)\nrules: %s\n", id, t->file, t->line, t->rules);
    fflush(stdout);
    current = t;
    split_rules(t->rules);
    test_pid = getpid();
    progress_open();
    atexit(exit_guard);
    t->body();
    body_returned = 1;
    /* A body that returns without having checked anything has shown
     * nothing: not a PASS (a check compiled out, a loop that never ran). */
    if (ct_checks == 0)
        finish(CT_CODE_UNRESOLVED, t->file, t->line, "the test made no check");
    char msg[400];
    const struct ct_rule_count *none = unchecked_rule();
    if (none) {
        snprintf(msg, sizeof msg, "the test made no check of rule %.*s", (int)none->len,
                 none->id);
        finish(CT_CODE_UNRESOLVED, t->file, t->line, msg);
    }
    snprintf(msg, sizeof msg, "%lu check%s passed", ct_checks, ct_checks == 1 ? "" : "s");
    finish(CT_CODE_PASS, NULL, 0, msg);
}

/* For a person at a terminal: every test in a child process of its own,
 * with a 10 s alarm; the harness (harness/run.py) does this better. */
static int run_all(void)
{
    struct ct_test **v = sorted_tests();
    int counts[5] = { 0 }, worst = 0;
    char id[256];
    for (int i = 0; v[i]; i++) {
        test_id(v[i], id, sizeof id);
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return CT_CODE_UNRESOLVED;
        }
        if (pid == 0) {
            int devnull_ok = freopen("/dev/null", "w", stdout) != NULL;
            (void)devnull_ok;
            alarm(10);
            run_test(v[i]);
        }
        int st, code;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        if (WIFEXITED(st) && WEXITSTATUS(st) <= 4) {
            code = WEXITSTATUS(st);
            printf("%-11s %s\n", code_names[code], id);
        } else if (WIFSIGNALED(st)) {
            code = WTERMSIG(st) == SIGALRM ? CT_CODE_UNRESOLVED : CT_CODE_FAIL;
            printf("%-11s %s (signal %d)\n", code_names[code], id, WTERMSIG(st));
        } else {
            code = CT_CODE_UNRESOLVED;
            printf("%-11s %s (exit status %d)\n", code_names[code], id, WEXITSTATUS(st));
        }
        counts[code]++;
        if ((code == CT_CODE_FAIL || code == CT_CODE_UNRESOLVED) && worst != CT_CODE_FAIL)
            worst = code;
    }
    printf("%d PASS, %d FAIL, %d UNRESOLVED, %d UNSUPPORTED, %d UNTESTED"
           " (run one test with --run ID to see its messages)\n",
           counts[0], counts[1], counts[2], counts[3], counts[4]);
    free(v);
    return worst;
}

static int usage(const char *prog, int status)
{
    fprintf(status ? stderr : stdout,
            "usage: %s --list | --run TEST-ID | --run-all\n"
            "  --list      one line per test: id, rules, options, functions (tab-separated)\n"
            "  --run ID    run one test in this process; exit status 0 PASS, 1 FAIL,\n"
            "              2 UNRESOLVED, 3 UNSUPPORTED, 4 UNTESTED; last line RESULT ...\n"
            "  --run-all   run every test, each in a process of its own\n", prog);
    return status;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0)
        return list_tests();
    if (argc == 2 && strcmp(argv[1], "--run-all") == 0)
        return run_all();
    if (argc == 3 && strcmp(argv[1], "--run") == 0) {
        const struct ct_test *t = find_test(argv[2]);
        if (t == NULL) {
            printf("RESULT UNRESOLVED no test named '%s' in %s (see --list)\n", argv[2],
                   argv[0]);
            return CT_CODE_UNRESOLVED;
        }
        run_test(t);
    }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return usage(argv[0], 0);
    return usage(argv[0], CT_CODE_UNRESOLVED);
}
