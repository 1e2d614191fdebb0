/* SPDX-License-Identifier: MIT */
/*
 * shm_lock.h -- the locks and condition variables of objects in shared
 * memory (streams, process blocks, name tables).
 *
 * Why not pthread's: a stream that other processes record into needs a lock
 * shared between processes that survives one of them being killed while it
 * holds it (a traced process in the middle of posix_trace_event).  glibc's
 * robust shared mutexes do that, but their lock and unlock cost about 17 ns
 * (their robust list), against 11 ns for one compare-and-swap and one
 * exchange, on the path that records every event.
 *
 * The lock is one 32-bit word: 0 when free, else the owner's process id, with
 * SHM_LOCK_WAITERS set once a thread has had to sleep on it (a futex).  A
 * lock word holds a pid, not a thread id, because what must be recovered is
 * a process that died: a thread that ends while it holds a lock is a bug the
 * library does not have.  A waiter on a shared lock wakes up now and then to
 * check that the owner is alive; if it is gone, the waiter takes the lock
 * over.  Every update under these locks leaves the object consistent at each
 * store that matters (a ring's head moves after its record is written), so
 * taking over needs nothing more.
 *
 * A lock only one process uses (shared = 0) takes private futexes and, in a
 * process with a single thread, plain loads and stores (as glibc does for
 * its own mutexes): nothing else can race with it.
 *
 * Condition variables are a sequence number that a signal increments, and a
 * futex wait on its value: a signal given between the waiter's unlock and
 * its sleep changes the value, so the sleep returns at once.  Waits may wake
 * spuriously; every caller loops on its predicate.
 *
 * Linux only (futex(2)).
 */
#ifndef POSIXTRACE_SHM_LOCK_H
#define POSIXTRACE_SHM_LOCK_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#if defined(__GLIBC__) && defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define SHM_SINGLE_THREADED() (__libc_single_threaded != 0)
#endif
#endif
#ifndef SHM_SINGLE_THREADED
#define SHM_SINGLE_THREADED() 0
#endif

#define SHM_LOCK_WAITERS 0x80000000u

struct shm_mutex {
    _Atomic uint32_t word;          /* 0, or owner pid | SHM_LOCK_WAITERS */
    uint32_t         shared;        /* other processes use it */
};

struct shm_cond {
    _Atomic uint32_t seq;           /* incremented by each signal */
    _Atomic uint32_t waiters;       /* threads in shm_cond_wait */
    uint32_t         shared;
};

void shm_mutex_init(struct shm_mutex *m, int shared);
void shm_cond_init(struct shm_cond *c, int shared);

/* The calling process's id as a lock owner (cached; renewed after fork).
 * Inline: taken for every event recorded under the lock. */
extern _Atomic uint32_t shm_owner_pid;
uint32_t shm_lock_owner_slow(void);
static inline uint32_t shm_lock_owner(void)
{
    uint32_t p = atomic_load_explicit(&shm_owner_pid, memory_order_relaxed);
    return __builtin_expect(p != 0, 1) ? p : shm_lock_owner_slow();
}

/* The contended paths (shm_lock.c). */
void shm_lock_wait(struct shm_mutex *m);
void shm_lock_wake(struct shm_mutex *m);

/* One attempt to take m for owner me, without waiting: 1 if taken.  A
 * lock no other process uses, in a process of one thread, is taken by a
 * plain store; else by a compare-and-swap. */
static inline int shm_take(struct shm_mutex *m, uint32_t me)
{
    if (!m->shared && SHM_SINGLE_THREADED()) {
        if (atomic_load_explicit(&m->word, memory_order_relaxed) != 0)
            return 0;
        atomic_store_explicit(&m->word, me, memory_order_relaxed);
        return 1;
    }
    uint32_t free_word = 0;
    return atomic_compare_exchange_strong_explicit(&m->word, &free_word, me,
                                                   memory_order_acquire, memory_order_relaxed);
}

static inline void shm_lock(struct shm_mutex *m)
{
    if (!shm_take(m, shm_lock_owner()))
        shm_lock_wait(m);
}

/* Takes m if it is free, without waiting and without a call: 1, else 0
 * (held, or the caller's owner id not found yet: shm_lock finds it). */
static inline int shm_trylock(struct shm_mutex *m)
{
    uint32_t me = atomic_load_explicit(&shm_owner_pid, memory_order_relaxed);
    if (me == 0)                        /* not `me != 0 && shm_take(...)`: GCC then laid */
        return 0;                       /* the plain store out of line (+2 ns an event) */
    return shm_take(m, me);
}

static inline void shm_unlock(struct shm_mutex *m)
{
    if (!m->shared && SHM_SINGLE_THREADED()) {
        uint32_t w = atomic_load_explicit(&m->word, memory_order_relaxed);
        atomic_store_explicit(&m->word, 0, memory_order_relaxed);
        if (w & SHM_LOCK_WAITERS)           /* threads were there before */
            shm_lock_wake(m);
        return;
    }
    if (atomic_exchange_explicit(&m->word, 0, memory_order_release) & SHM_LOCK_WAITERS)
        shm_lock_wake(m);
}

/* Waits for a signal on c, m held (released while waiting, held again on
 * return).  abstime (CLOCK_REALTIME) NULL: no limit.  0 (a signal, or
 * spuriously) or ETIMEDOUT. */
int shm_cond_wait(struct shm_cond *c, struct shm_mutex *m, const struct timespec *abstime);
void shm_cond_signal(struct shm_cond *c);
void shm_cond_broadcast(struct shm_cond *c);

#endif
