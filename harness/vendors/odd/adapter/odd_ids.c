/* SPDX-License-Identifier: MIT */
/*
 * odd_ids.c -- the odd vendor's trace ids: a slot from 1 and a generation,
 * mapped to the reference's streams.  Slot 0 and generation 0 are never given
 * out, so that an all-zero trace_id_t names no stream.
 */
#include <errno.h>
#include <pthread.h>
#include <trace.h>
#include "odd_ids.h"
#include "oddref_bridge.h"

#define ODD_SLOTS 512

static struct {
    int used;
    unsigned short generation;
    unsigned long ref;
    int overrun, log_overrun, flush_error;  /* odd_ids_keep_resets() */
} slots[ODD_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int odd_ids_add(unsigned long ref, trace_id_t *id)
{
    int err = EAGAIN;
    pthread_mutex_lock(&lock);
    for (int i = 1; i < ODD_SLOTS; i++) {
        if (slots[i].used)
            continue;
        slots[i].used = 1;
        slots[i].ref = ref;
        slots[i].overrun = slots[i].log_overrun = slots[i].flush_error = 0;
        if (++slots[i].generation == 0)
            slots[i].generation = 1;
        id->__odd_slot = (unsigned short)i;
        id->__odd_generation = slots[i].generation;
        err = 0;
        break;
    }
    pthread_mutex_unlock(&lock);
    return err;
}

static int live(trace_id_t id)
{
    return id.__odd_slot > 0 && id.__odd_slot < ODD_SLOTS && slots[id.__odd_slot].used
           && slots[id.__odd_slot].generation == id.__odd_generation;
}

unsigned long odd_ids_ref(trace_id_t id)
{
    unsigned long ref = ODDREF_NO_STREAM;
    pthread_mutex_lock(&lock);
    if (live(id))
        ref = slots[id.__odd_slot].ref;
    pthread_mutex_unlock(&lock);
    return ref;
}

void odd_ids_drop(trace_id_t id)
{
    pthread_mutex_lock(&lock);
    if (live(id))
        slots[id.__odd_slot].used = 0;
    pthread_mutex_unlock(&lock);
}

void odd_ids_keep_resets(trace_id_t id, const struct posix_trace_status_info *st)
{
    pthread_mutex_lock(&lock);
    if (live(id)) {
        slots[id.__odd_slot].overrun |= st->posix_stream_overrun_status == POSIX_TRACE_OVERRUN;
        slots[id.__odd_slot].log_overrun |= st->posix_log_overrun_status == POSIX_TRACE_OVERRUN;
        if (slots[id.__odd_slot].flush_error == 0)
            slots[id.__odd_slot].flush_error = st->posix_stream_flush_error;
    }
    pthread_mutex_unlock(&lock);
}

void odd_ids_give_resets(trace_id_t id, struct posix_trace_status_info *st)
{
    pthread_mutex_lock(&lock);
    if (live(id)) {
        if (slots[id.__odd_slot].overrun)
            st->posix_stream_overrun_status = POSIX_TRACE_OVERRUN;
        if (slots[id.__odd_slot].log_overrun)
            st->posix_log_overrun_status = POSIX_TRACE_OVERRUN;
        if (st->posix_stream_flush_error == 0)
            st->posix_stream_flush_error = slots[id.__odd_slot].flush_error;
        slots[id.__odd_slot].overrun = slots[id.__odd_slot].log_overrun = 0;
        slots[id.__odd_slot].flush_error = 0;
    }
    pthread_mutex_unlock(&lock);
}
