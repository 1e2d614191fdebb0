/* SPDX-License-Identifier: MIT */
/*
 * stream_table.c -- the controller's table of trace stream slots.
 *
 * The API forces this piece of process-wide state: a trace id must name a
 * stream, and posix_trace_event() has no stream argument.  A trace id is
 * (generation << 6) | slot; the generation grows each time a slot's stream is
 * shut down, so a stale id is recognised (EINVAL) even after the slot is
 * reused.  The streams themselves are shared objects (stream.h).
 *
 * fork (S0094, S0319, S0320): the child controls no stream of its parent:
 * every slot is emptied in the child, so the parent's trace ids give EINVAL
 * there.  A stream the child is traced into by inheritance (S0317) stays
 * mapped in the child, owned by its list of streams it records into
 * (process.c); every other mapping is dropped.  A stream's log is left to
 * the parent.  exit (S0111): every stream still active is shut down by a
 * destructor, which flushes a stream's log and joins its flusher.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "stream/event_names.h"
#include "posix/process.h"
#include "stream/eventset_bits.h"
#include "posix/stream_table.h"

struct stream_table posixtrace_table;

static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* log_stream_forget(), from the log flusher: set at load. */
static void (*forget_log)(struct log_stream *ls);

void stream_table_forget_logs_with(void (*forget)(struct log_stream *ls))
{
    forget_log = forget;
}

/* A slot is locked through the fork gate, a count of the slots locked: the
 * fork handler waits for it to fall to 0 under the gate's mutex, and so holds
 * two locks (the table's and the gate's), not the table's and every slot's
 * (65: one more than ThreadSanitizer tracks a thread holding, and it aborted
 * at the first fork; issue 20 item 5).  A mutex and a count, not a rwlock:
 * the child of fork must let go of what its parent's thread took, and a
 * mutex can be unlocked there (glibc's rwlock takes the child's thread for
 * another and deadlocks).  No slot holder takes the table lock. */
void stream_slot_lock(struct stream_slot *sl)
{
    struct stream_table *t = &posixtrace_table;
    pthread_mutex_lock(&t->gate);
    t->slots_locked++;
    pthread_mutex_unlock(&t->gate);
    pthread_mutex_lock(&sl->lock);
}

void stream_slot_unlock(struct stream_slot *sl)
{
    struct stream_table *t = &posixtrace_table;
    pthread_mutex_unlock(&sl->lock);
    pthread_mutex_lock(&t->gate);
    if (--t->slots_locked == 0)
        pthread_cond_broadcast(&t->gate_idle);
    pthread_mutex_unlock(&t->gate);
}

static void lock_all(void)
{
    struct stream_table *t = &posixtrace_table;
    pthread_mutex_lock(&t->lock);
    pthread_mutex_lock(&t->gate);
    while (t->slots_locked > 0)                 /* no slot is being changed */
        pthread_cond_wait(&t->gate_idle, &t->gate);
}

static void unlock_all(void)
{
    pthread_mutex_unlock(&posixtrace_table.gate);
    pthread_mutex_unlock(&posixtrace_table.lock);
}

void stream_slot_clear(struct stream_slot *sl)
{
    sl->s = NULL;
    sl->fd = -1;
    sl->names = NULL;
    sl->shm_name[0] = '\0';
    sl->gen++;                          /* the trace id is dead from now on */
}

/* In the child of fork: the parent's streams are not the child's to
 * control; those it is traced into by inheritance stay attached. */
static void after_fork_in_child(void)
{
    struct stream_table *t = &posixtrace_table;
    for (int i = 0; i < TRACE_SYS_MAX; i++) {
        struct stream_slot *sl = &t->slots[i];
        if (sl->s != NULL) {
            if (sl->s->log != NULL)
                forget_log(sl->s->log);         /* the parent's: its copy goes */
            /* The child is single-threaded here: nothing else uses the
             * mapping, so it can go at once unless the child records
             * into the stream (then the attachment takes it over). */
            if (!proc_adopt(sl->s, sl->len, sl->fd)) {
                munmap(sl->s, sl->len);
                if (sl->fd >= 0)
                    close(sl->fd);
            }
            stream_slot_clear(sl);
        }
    }
    pthread_cond_init(&t->gate_idle, NULL);     /* the parent's waiters are not here */
    unlock_all();
}

static void init_table(void)
{
    struct stream_table *t = &posixtrace_table;
    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_init(&t->gate, NULL);
    pthread_cond_init(&t->gate_idle, NULL);
    for (int i = 0; i < TRACE_SYS_MAX; i++) {
        pthread_mutex_init(&t->slots[i].lock, NULL);
        t->slots[i].gen = 1;
        t->slots[i].fd = -1;
    }
    proc_setup();                       /* its fork handlers first: see below */
    proc_names_in_use_by(stream_table_uses);
    /* Registered after the process's: locks the table before the process's
     * prepare handler runs, lets it go after its parent handler, and
     * cleans the child's table after the process's child handler. */
    pthread_atfork(lock_all, unlock_all, after_fork_in_child);
}

void stream_table_init(void)
{
    pthread_once(&table_once, init_table);
}

/* Set up before main: a new image of a traced process records from its
 * first event, and a fork finds every handler in place. */
__attribute__((constructor)) static void table_at_load(void)
{
    stream_table_init();
}

void (*stream_acquire_hook)(struct stream *s);

struct stream *stream_acquire_slot(trace_id_t trid, struct stream_slot **slot)
{
    stream_table_init();
    struct stream_slot *sl = &posixtrace_table.slots[trid & (TRACE_SYS_MAX - 1)];
    stream_slot_lock(sl);
    struct stream *s = sl->s;
    if (s == NULL || sl->gen != (unsigned long)(trid >> 6)) {
        stream_slot_unlock(sl);
        return NULL;
    }
    shm_lock(&s->lock);
    if (s->state != SLOT_ACTIVE) {
        shm_unlock(&s->lock);
        stream_slot_unlock(sl);
        return NULL;
    }
    if (stream_acquire_hook != NULL)
        stream_acquire_hook(s);
    if (slot != NULL)
        *slot = sl;                     /* kept locked */
    else
        stream_slot_unlock(sl);
    return s;
}

struct stream *stream_acquire(trace_id_t trid)
{
    return stream_acquire_slot(trid, NULL);
}

int stream_table_uses(const struct name_table *names)
{
    for (int i = 0; i < TRACE_SYS_MAX; i++)
        if (posixtrace_table.slots[i].names == names)
            return 1;
    return 0;
}

struct name_table *stream_names(const struct stream *s)
{
    return posixtrace_table.slots[s->slot].names;
}

void stream_update_recording(struct stream *s)
{
    int on = s->state == SLOT_ACTIVE &&
             (s->run == POSIX_TRACE_RUNNING || s->autostopped);
    for (size_t w = 0; w < STREAM_PASS_WORDS; w++) {
        uint64_t pass = on ? ~(uint64_t)s->filter.__bits[w] & eventset_word_mask(w) : 0;
        atomic_store_explicit(&s->pass[w], pass, memory_order_release);
    }
}

/* S0111: streams still active when the process exits are shut down. */
__attribute__((destructor)) static void shutdown_at_exit(void)
{
    struct stream_table *t = &posixtrace_table;
    if (t->slots[0].gen == 0)
        return;                         /* the table was never used */
    for (int i = 0; i < TRACE_SYS_MAX; i++) {
        struct stream_slot *sl = &t->slots[i];
        stream_slot_lock(sl);
        int active = sl->s != NULL;
        trace_id_t trid = (trace_id_t)(sl->gen << 6) | (trace_id_t)i;
        stream_slot_unlock(sl);
        if (active)
            posix_trace_shutdown(trid);
    }
}
