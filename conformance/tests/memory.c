/* SPDX-License-Identifier: MIT */
/*
 * memory.c -- the ENOMEM rules (XSH posix_trace_attr_destroy ERRORS S0006,
 * S0007; posix_trace_create ERRORS S0117, S0118): attr_init, create and
 * create_withlog with no memory to be had (issue 20 item 3).
 *
 * Portable: the memory is taken away with the address-space limit of this
 * test's own process (setrlimit RLIMIT_AS, XSI), lowered just before the one
 * call and restored just after it, so that whatever the implementation calls
 * for memory in this process -- malloc, mmap, a shared memory object mapped
 * here -- fails; a stream far larger than anything already mapped (64 MiB of
 * stream-min-size, which the setter may round) cannot fit.  Where the limit
 * cannot be set, or the call succeeds all the same (the implementation needs
 * no new memory here: attr_init in caller storage, a stream kept in another
 * process, memory given lazily), the test ends UNSUPPORTED and says so.
 * A limit below what is mapped already is taken as it is by Linux and most
 * systems (nothing is unmapped; new mappings fail); a system that refuses it
 * (EINVAL) ends the test UNSUPPORTED too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include "ct.h"
#include "ct_log.h"

#define BIG_STREAM ((size_t)64 << 20)

static struct rlimit saved;

/* Lowers the soft address-space limit to a page: 0, or the errno. */
static int no_memory(void)
{
    if (getrlimit(RLIMIT_AS, &saved) != 0)
        return errno;
    struct rlimit none = saved;
    none.rlim_cur = 4096;
    return setrlimit(RLIMIT_AS, &none) != 0 ? errno : 0;
}

static void memory_back(void)
{
    setrlimit(RLIMIT_AS, &saved);
}

static void limit_or_unsupported(void)
{
    int e = no_memory();
    if (e != 0)
        CT_UNSUPPORTED("setrlimit(RLIMIT_AS) to one page failed (%s): no way to take the"
                       " memory away here", ct_errname(e));
}

CT_TEST(attr_init_enomem, "attr_init.ENOMEM", "TRC", "posix_trace_attr_init")
{
    trace_attr_t a;
    limit_or_unsupported();
    int rc = posix_trace_attr_init(&a);
    memory_back();
    if (rc == 0) {
        posix_trace_attr_destroy(&a);
        CT_UNSUPPORTED("attr_init succeeded with no new memory to be had: this implementation"
                       " needs none for it (the object is in the caller's storage)");
    }
    CT_CHECK(rc == ENOMEM, "attr_init with no memory to be had returned %d (%s): expected"
             " ENOMEM", rc, ct_errname(rc));
}

/* create (fd < 0) or create_withlog (a temporary log) of a 64 MiB stream
 * with no memory to be had. */
static void create_without_memory(int withlog)
{
    trace_attr_t a;
    trace_id_t trid;
    int fd = -1;
    CT_SETUP_OK(posix_trace_attr_init(&a));
    posix_trace_attr_setstreamsize(&a, BIG_STREAM);     /* the setter may round it */
#if CT_HAVE_TRL
    if (withlog) {
        char path[PATH_BUF];
        tmp_file(path);
        fd = open_or_unresolved(path, O_WRONLY);
    }
#endif
    limit_or_unsupported();
    int rc = withlog ? posix_trace_create_withlog(0, &a, fd, &trid)
                     : posix_trace_create(0, &a, &trid);
    memory_back();
    posix_trace_attr_destroy(&a);
    const char *f = withlog ? "create_withlog" : "create";
    if (rc == 0) {
        posix_trace_shutdown(trid);
        CT_UNSUPPORTED("%s of a %zu-byte stream succeeded with no new memory to be had in"
                       " this process: the implementation keeps streams elsewhere or gives"
                       " memory lazily", f, BIG_STREAM);
    }
    CT_CHECK(rc == ENOMEM, "%s with no memory to be had returned %d (%s): expected ENOMEM",
             f, rc, ct_errname(rc));
}

CT_TEST(create_enomem, "create.ENOMEM", "TRC", "posix_trace_create")
{
    create_without_memory(0);
}

CT_TEST(create_withlog_enomem, "create_withlog.ENOMEM", "TRC,TRL", "posix_trace_create_withlog")
{
#if CT_HAVE_TRL
    require_trl();
    create_without_memory(1);
#else
    NO_TRL();
#endif
}
