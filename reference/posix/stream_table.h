/* SPDX-License-Identifier: MIT */
/*
 * stream_table.h -- the controller's table of trace streams (stream_table.c):
 * a slot per stream (TRACE_SYS_MAX), a stream's trace id to its stream, and
 * the stream's recording flag.  Locking: stream/stream.h.
 */
#ifndef POSIXTRACE_STREAM_TABLE_H
#define POSIXTRACE_STREAM_TABLE_H

#include <pthread.h>
#include "stream/stream.h"

/* A slot of the controller's table (process-local). */
struct stream_slot {
    pthread_mutex_t    lock;
    unsigned long      gen;         /* generation: part of the trace id */
    struct stream     *s;           /* its stream, NULL: free */
    size_t             len;         /* the mapping's size */
    int                fd;          /* the object's descriptor, or -1 */
    struct name_table *names;       /* the traced process's event names */
    char               shm_name[SHM_NAME_MAX];  /* kept for the traced process */
};

struct stream_table {
    pthread_mutex_t    lock;
    pthread_mutex_t    gate;        /* guards slots_locked (stream_table.c) */
    pthread_cond_t     gate_idle;   /* slots_locked fell to 0 */
    unsigned           slots_locked;    /* slot locks held or asked for */
    struct stream_slot slots[TRACE_SYS_MAX];
};

extern struct stream_table posixtrace_table;

/* Lock and unlock a slot: every slot lock goes through these (the fork
 * gate, stream_table.c), never pthread_mutex_lock(&sl->lock). */
void stream_slot_lock(struct stream_slot *sl);
void stream_slot_unlock(struct stream_slot *sl);

/* Initialises the table once (mutexes, fork and exit handlers). */
void stream_table_init(void);

/* Locks and returns the active stream trid names, or NULL (trid invalid,
 * shut down, or inherited from a parent process). */
struct stream *stream_acquire(trace_id_t trid);
/* Called by stream_acquire(_slot) with the stream's lock just taken: the
 * staged events go into the ring (stage.c sets it at load). */
extern void (*stream_acquire_hook)(struct stream *s);
/* The same, with the slot kept locked too (*slot): for changing the slot. */
struct stream *stream_acquire_slot(trace_id_t trid, struct stream_slot **slot);
static inline void stream_release(struct stream *s) { shm_unlock(&s->lock); }

/* Empties a slot (its lock held) once its mapping is dealt with: the
 * slot's trace id is dead from then on. */
void stream_slot_clear(struct stream_slot *sl);

/* Does a slot read these names?  (Table locked: fork.) */
int stream_table_uses(const struct name_table *names);

/* The event names of the process(es) s traces (controller only). */
struct name_table *stream_names(const struct stream *s);

/* How the child of fork frees the log of a stream of its parent (the
 * flusher's copy goes): the log flusher (log_flusher.c) says so at load;
 * the table knows no log. */
void stream_table_forget_logs_with(void (*forget)(struct log_stream *ls));

/* Updates s->pass, the recording path's test, after a change of state or
 * of the filter (lock held). */
void stream_update_recording(struct stream *s);

#endif
