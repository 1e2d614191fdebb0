/* SPDX-License-Identifier: MIT */
/* gcov_exit.c -- linked into every program and library of a coverage build
 * (./configure --enable-coverage; mk/coverage.mk) with -Wl,--wrap=_exit:
 * _exit writes the process's gcov counts first.  gcov writes them when a
 * process exits, from a destructor, which _exit skips: the children the
 * tests, the vector interpreter, the golden logs and the library fork end
 * with _exit, and their counts were lost.  A process killed by a signal
 * still writes none.  SIGXFSZ is ignored first: a child under a small
 * RLIMIT_FSIZE (the log write-failure tests) would die of gcov's own write,
 * and a test would see a signal where the library's _exit status is; its
 * counts are then lost (EFBIG).  Never part of a build without --coverage. */

#include <signal.h>
#include <stdlib.h>

void __gcov_dump(void);                       /* libgcov, linked by --coverage */
_Noreturn void __real__exit(int status);
_Noreturn void __wrap__exit(int status);

_Noreturn void __wrap__exit(int status)
{
    signal(SIGXFSZ, SIG_IGN);
    __gcov_dump();
    __real__exit(status);
}
