/* SPDX-License-Identifier: MIT */
/*
 * shm_lock.c -- the contended paths of shm_lock.h: sleeping on a lock,
 * taking over the lock of a process that died, condition variables.
 */
#define _GNU_SOURCE                     /* syscall(), SYS_pidfd_open */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "shm/shm_lock.h"

/* How long a waiter on a shared lock sleeps before it checks its owner. */
#define OWNER_CHECK_NS 20000000L
/* Spins before sleeping: a lock is held for the few ns of one recording. */
#define SPINS 100

/* The cached pid of shm_lock_owner(): fork clears it in the child. */
_Atomic uint32_t shm_owner_pid;
static pthread_once_t owner_once = PTHREAD_ONCE_INIT;

static void forget_owner_pid(void)
{
    atomic_store_explicit(&shm_owner_pid, 0, memory_order_relaxed);
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, forget_owner_pid);
}

uint32_t shm_lock_owner_slow(void)
{
    pthread_once(&owner_once, watch_fork);
    uint32_t p = (uint32_t)getpid();
    atomic_store_explicit(&shm_owner_pid, p, memory_order_relaxed);
    return p;
}

static int futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *t,
                 int shared)
{
    if (!shared)
        op |= FUTEX_PRIVATE_FLAG;
    return (int)syscall(SYS_futex, word, op, val, t, NULL, FUTEX_BITSET_MATCH_ANY);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Has process pid ended (a zombie counts: it runs no more)? */
static int process_gone(uint32_t pid)
{
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return 1;
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
    if (fd < 0)
        return errno == ESRCH;
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int ended = poll(&p, 1, 0) == 1;        /* readable once it has exited */
    close(fd);
    return ended;
#else
    return 0;
#endif
}

void shm_lock_wait(struct shm_mutex *m)
{
    uint32_t me = shm_lock_owner();
    /* Once this thread has slept, the lock is taken with the waiters bit:
     * other threads may sleep on it still, and the unlock must wake them. */
    uint32_t mark = 0;
    const struct timespec check = { 0, OWNER_CHECK_NS };
    for (;;) {
        /* Spins first, and again after each wake: a thread that records
         * without pause frees the lock for a few ns an event, and a waiter
         * woken without spinning would find it taken again nearly every
         * time, and sleep again (the flusher of a FLUSH stream starved so
         * for milliseconds: events lost with the disk keeping up). */
        for (int i = 0; i < SPINS; i++) {
            uint32_t w = atomic_load_explicit(&m->word, memory_order_relaxed);
            if (w == 0 && atomic_compare_exchange_weak_explicit(&m->word, &w, me | mark,
                                                                memory_order_acquire,
                                                                memory_order_relaxed))
                return;
            cpu_relax();
        }
        uint32_t w = atomic_load_explicit(&m->word, memory_order_relaxed);
        if (w == 0)
            continue;
        if (!(w & SHM_LOCK_WAITERS) &&
            !atomic_compare_exchange_weak_explicit(&m->word, &w, w | SHM_LOCK_WAITERS,
                                                   memory_order_relaxed, memory_order_relaxed))
            continue;
        w |= SHM_LOCK_WAITERS;
        mark = SHM_LOCK_WAITERS;
        if (futex(&m->word, FUTEX_WAIT, w, m->shared ? &check : NULL, (int)m->shared) != 0 &&
            errno == ETIMEDOUT && process_gone(w & ~SHM_LOCK_WAITERS) &&
            atomic_compare_exchange_strong_explicit(&m->word, &w, me | SHM_LOCK_WAITERS,
                                                    memory_order_acquire,
                                                    memory_order_relaxed))
            return;                         /* its owner died holding it */
    }
}

void shm_lock_wake(struct shm_mutex *m)
{
    futex(&m->word, FUTEX_WAKE, 1, NULL, (int)m->shared);
}

void shm_mutex_init(struct shm_mutex *m, int shared)
{
    atomic_init(&m->word, 0);
    m->shared = shared != 0;
}

void shm_cond_init(struct shm_cond *c, int shared)
{
    atomic_init(&c->seq, 0);
    atomic_init(&c->waiters, 0);
    c->shared = shared != 0;
}

int shm_cond_wait(struct shm_cond *c, struct shm_mutex *m, const struct timespec *abstime)
{
    uint32_t seq = atomic_load(&c->seq);
    atomic_fetch_add(&c->waiters, 1);
    shm_unlock(m);
    int rc = 0;
    /* FUTEX_WAIT_BITSET takes an absolute time; with FUTEX_CLOCK_REALTIME
     * on the clock posix_trace_timedgetnext_event is given (S0205).  A time
     * before the Epoch (EINVAL to the kernel) has passed too. */
    if (futex(&c->seq, FUTEX_WAIT_BITSET | (abstime ? FUTEX_CLOCK_REALTIME : 0), seq,
              abstime, (int)c->shared) != 0 &&
        (errno == ETIMEDOUT || (errno == EINVAL && abstime != NULL)))
        rc = ETIMEDOUT;
    atomic_fetch_sub(&c->waiters, 1);
    shm_lock(m);
    return rc;
}

static void cond_wake(struct shm_cond *c, int n)
{
    atomic_fetch_add(&c->seq, 1);
    if (atomic_load(&c->waiters) != 0)
        futex(&c->seq, FUTEX_WAKE, (uint32_t)n, NULL, (int)c->shared);
}

void shm_cond_signal(struct shm_cond *c)
{
    cond_wake(c, 1);
}

void shm_cond_broadcast(struct shm_cond *c)
{
    cond_wake(c, INT_MAX);
}
