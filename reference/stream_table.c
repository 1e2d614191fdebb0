/*
 * stream_table.c -- the process's table of trace stream slots.
 *
 * The API forces this piece of process-wide state: a trace id must name a
 * stream, and posix_trace_event() has no stream argument.  A trace id is
 * (generation << 6) | slot; the generation grows each time a slot's stream is
 * shut down, so a stale id is recognised (EINVAL) even after the slot is
 * reused.
 *
 * fork (S0094, S0319, S0320): the child keeps no stream of its parent: every
 * slot is emptied in the child, so the parent's trace ids give EINVAL there
 * and the child is not traced; a stream's log is left to the parent (the
 * child has no flusher and never writes it).  exit (S0111): every stream
 * still active is shut down by a destructor, which flushes a stream's log
 * and joins its flusher.
 */
#include <errno.h>
#include <stdlib.h>
#include "event_names.h"
#include "log_stream.h"
#include "stream.h"

struct stream_table posixtrace_table;

static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void lock_all(void)
{
    event_names_lock();
    pthread_mutex_lock(&posixtrace_table.lock);
    for (int i = 0; i < TRACE_SYS_MAX; i++)
        pthread_mutex_lock(&posixtrace_table.slots[i].lock);
}

static void unlock_all(void)
{
    for (int i = TRACE_SYS_MAX - 1; i >= 0; i--)
        pthread_mutex_unlock(&posixtrace_table.slots[i].lock);
    pthread_mutex_unlock(&posixtrace_table.lock);
    event_names_unlock();
}

/* In the child of fork: the parent's streams are not the child's. */
static void after_fork_in_child(void)
{
    struct stream_table *t = &posixtrace_table;
    t->pid = getpid();
    atomic_store(&t->recording, 0);
    for (int i = 0; i < TRACE_SYS_MAX; i++) {
        struct stream *s = &t->slots[i];
        if (s->state != SLOT_FREE) {
            log_stream_forget(s);
            ring_free(&s->ring);
            stream_free_origins(s);
            s->state = SLOT_FREE;
            s->gen++;
        }
        s->waiters = 0;                 /* no thread of the parent is here */
        /* Initialised again, not destroyed: a parent's thread that waited on
         * one (a reader, a flusher) would make pthread_cond_destroy() wait
         * for it forever, and none of them exists here. */
        pthread_cond_init(&s->readable, NULL);
        pthread_cond_init(&s->flush_wake, NULL);
        pthread_cond_init(&s->flush_idle, NULL);
    }
    unlock_all();
}

static void init_table(void)
{
    struct stream_table *t = &posixtrace_table;
    pthread_mutex_init(&t->lock, NULL);
    for (int i = 0; i < TRACE_SYS_MAX; i++) {
        pthread_mutex_init(&t->slots[i].lock, NULL);
        pthread_cond_init(&t->slots[i].readable, NULL);  /* CLOCK_REALTIME: S0205 */
        pthread_cond_init(&t->slots[i].flush_wake, NULL);
        pthread_cond_init(&t->slots[i].flush_idle, NULL);
        t->slots[i].gen = 1;
    }
    t->pid = getpid();
    pthread_atfork(lock_all, unlock_all, after_fork_in_child);
}

void stream_table_init(void)
{
    pthread_once(&table_once, init_table);
}

struct stream *stream_acquire(trace_id_t trid)
{
    stream_table_init();
    struct stream *s = &posixtrace_table.slots[trid & (TRACE_SYS_MAX - 1)];
    pthread_mutex_lock(&s->lock);
    if (s->state != SLOT_ACTIVE || s->gen != (unsigned long)(trid >> 6)) {
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    return s;
}

void stream_update_recording(struct stream *s)
{
    uint64_t bit = (uint64_t)1 << (s - posixtrace_table.slots);
    int on = s->state == SLOT_ACTIVE &&
             (s->run == POSIX_TRACE_RUNNING || s->autostopped);
    if (on)
        atomic_fetch_or(&posixtrace_table.recording, bit);
    else
        atomic_fetch_and(&posixtrace_table.recording, ~bit);
}

/* S0111: streams still active when the process exits are shut down. */
__attribute__((destructor)) static void shutdown_at_exit(void)
{
    struct stream_table *t = &posixtrace_table;
    if (t->pid == 0)
        return;                         /* the table was never used */
    for (int i = 0; i < TRACE_SYS_MAX; i++) {
        struct stream *s = &t->slots[i];
        pthread_mutex_lock(&s->lock);
        int active = s->state == SLOT_ACTIVE;
        trace_id_t trid = stream_trid(s);
        pthread_mutex_unlock(&s->lock);
        if (active)
            posix_trace_shutdown(trid);
    }
}
