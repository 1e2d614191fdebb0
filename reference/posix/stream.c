/* SPDX-License-Identifier: MIT */
/*
 * stream.c -- creating, starting, stopping, clearing and shutting down trace
 * streams, with or without a log, and reading their attributes and status
 * (XSH posix_trace_create, posix_trace_start, posix_trace_clear,
 * posix_trace_get_attr).  The log's own work is log_flusher.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "stream/attr.h"
#include "posix/log_flusher.h"
#include "posix/prerecorded.h"
#include "posix/process.h"
#include "posix/stream_put.h"
#include "posix/stream_table.h"

/* May fd hold a log (LOGFORMAT section 6)?  EBADF: not open for writing
 * (S0119); EINVAL: not a regular file, or O_APPEND (S0097: the metadata
 * and the segments are rewritten in place, for every log-full policy). */
static int check_log_fd(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
        return EBADF;
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return EBADF;
    if (!S_ISREG(sb.st_mode) || (fl & O_APPEND))
        return EINVAL;
    return 0;
}

/* Empties a slot (its lock held, its stream's not): the stream's object
 * goes, retired if threads of this process may still record into it (it
 * was attached). */
static void slot_free(struct stream_slot *sl)
{
    if (proc_detach(sl->s))
        shm_object_retire(sl->s, sl->len);
    else
        munmap(sl->s, sl->len);
    if (sl->fd >= 0)
        close(sl->fd);
    if (sl->shm_name[0] != '\0')
        shm_unlink(sl->shm_name);       /* the traced process never opened it */
    stream_slot_clear(sl);
}

/* fd: the log's descriptor, or -1 for a stream without log. */
static int create_stream(pid_t pid, const trace_attr_t *attr, int fd, trace_id_t *trid)
{
    trace_attr_t defaults;
    if (trid == NULL)
        return EINVAL;
    if (attr == NULL) {                                 /* S0084 */
        posix_trace_attr_init(&defaults);
        attr = &defaults;
    }
    if (!attr_valid(attr))
        return EINVAL;                                  /* S0083 */
    int policy = attr->__stream_fullpolicy;
    if (fd < 0 && policy == POSIX_TRACE_FLUSH)
        return EINVAL;                                  /* S0039: no log */
    if (fd >= 0 && !attr->__stream_fullpolicy_set)
        policy = POSIX_TRACE_FLUSH;                     /* S0041, ruling 17 */
    if (fd >= 0) {
        int rc = check_log_fd(fd);
        if (rc)
            return rc;
    }
    stream_table_init();
    struct pb *target;
    int rc = proc_target(pid, &target);                 /* S0088, S0089, S0118 */
    if (rc)
        return rc;

    struct stream_table *t = &posixtrace_table;
    pthread_mutex_lock(&t->lock);
    struct stream_slot *sl = NULL;
    unsigned slot = 0;
    for (int i = 0; i < TRACE_SYS_MAX && sl == NULL; i++) {
        stream_slot_lock(&t->slots[i]);
        if (t->slots[i].s == NULL) {
            sl = &t->slots[i];                          /* keep it locked */
            slot = (unsigned)i;
        } else {
            stream_slot_unlock(&t->slots[i]);
        }
    }
    pthread_mutex_unlock(&t->lock);
    if (sl == NULL)
        return EAGAIN;                                  /* TRACE_SYS_MAX */

    uint64_t reserve = policy != POSIX_TRACE_LOOP ? attr_system_event_size() : 0;
    uint64_t events = attr->__stream_minsize;
    uint64_t biggest = attr_user_event_size(attr, attr->__max_datasize);
    if (events < biggest)
        events = biggest;               /* one event of each kind always fits */
    if (events < attr_system_event_size())
        events = attr_system_event_size();
    uint64_t cap = ring_capacity(events + reserve);
    size_t head = (sizeof(struct stream) + 63) & ~(size_t)63;
    /* The threads' staging buffers follow the ring, where events stage: a
     * real clock with real origins, and not FLUSH (posix/stage.c). */
    int stages = !attr->__sim_clock && !attr->__sim_origin && policy != POSIX_TRACE_FLUSH;
    uint64_t stage = stage_bytes_for(policy == POSIX_TRACE_LOOP, stages, cap);
    if (cap > SIZE_MAX - head || stage * STAGE_SLOTS > SIZE_MAX - head - cap) {
        stream_slot_unlock(sl);
        return ENOMEM;
    }
    size_t len = head + (size_t)cap + (size_t)(stage * STAGE_SLOTS);
    /* The traced process, if another, opens the object by its name. */
    int sfd;
    struct stream *s = shm_object_create(len, target ? sl->shm_name : NULL, &sfd);
    if (s == NULL) {
        stream_slot_unlock(sl);
        return ENOMEM;
    }
    s->magic = STREAM_MAGIC;
    s->map_len = len;
    for (unsigned i = 0; i < STAGE_SLOTS; i++) {
        s->stages[i].cap = stage;
        s->stages[i].off = (uint64_t)(head + cap + i * stage) -
                           (uint64_t)((unsigned char *)&s->stages[i] - (unsigned char *)s);
    }
    /* Other processes record into it: the traced child, or with INHERITED
     * the children of the traced process (S0317). */
    int shared = target != NULL || attr->__inheritance == POSIX_TRACE_INHERITED;
    shm_mutex_init(&s->lock, shared);
    shm_cond_init(&s->readable, shared);
    shm_cond_init(&s->flush_wake, shared);
    shm_cond_init(&s->flush_idle, shared);
    shm_lock(&s->lock);
    ring_init(&s->ring, (unsigned char *)s + head, cap);
    s->gen = sl->gen;
    s->slot = slot;
    s->inherit = attr->__inheritance;
    s->attr = *attr;                                    /* S0004: a copy */
    s->attr.__stream_fullpolicy = policy;
    s->attr.__stream_fullpolicy_set = 1;
    s->policy = policy;
    s->run = POSIX_TRACE_SUSPENDED;                     /* S0092 */
    s->full = POSIX_TRACE_NOT_FULL;
    s->overrun = POSIX_TRACE_NO_OVERRUN;                /* S0247 */
    s->autostopped = 0;
    s->max_data = (uint32_t)attr->__max_datasize;
    s->reserve = reserve;
    s->ovf = OVF_NONE;
    s->ovf_ts = 0;
    s->lost = 0;
    s->recorded = s->taken = s->cleared = 0;
    s->typelist_pos = 0;
    memset(&s->filter, 0, sizeof s->filter);            /* S0093: empty */
    s->owner = posixtrace_proc.pid;
    s->sim = attr->__sim_clock;
    if (s->sim) {
        s->sim_now = timespec_to_ns(&attr->__sim_start);
        s->sim_step = (uint64_t)attr->__sim_step_ns;
        s->attr.__createtime = attr->__sim_start;
        s->attr.__clockres.tv_sec = 0;
        s->attr.__clockres.tv_nsec = 1;
    } else {
        clock_gettime(CLOCK_REALTIME, &s->attr.__createtime);   /* S0087 */
    }
    s->simorigin = attr->__sim_origin;
    s->plain = s->sim && !s->simorigin && policy == POSIX_TRACE_LOOP && s->max_data >= 8;
    s->sim_pid = (uint32_t)attr->__sim_pid;
    s->log = NULL;
    s->flush_mark = 0;
    sl->s = s;
    sl->len = len;
    sl->fd = sfd;
    sl->names = proc_names_of(target);
    if (fd >= 0)
        rc = log_stream_create(s, fd);                  /* S0096; ENOSPC, ENOMEM, ... */
    if (rc == 0) {
        s->state = SLOT_ACTIVE;
        /* The traced process records from now on: attached here, or
         * posted to the child, which attaches at its next event. */
        rc = target ? proc_post(target, sl->shm_name) : proc_attach(s, sl->len, sfd, 0);
        if (rc != 0 && s->log != NULL) {
            s->state = SLOT_CLOSING;
            log_stream_shutdown(s);     /* an empty, complete log */
        }
    }
    if (rc) {
        s->state = SLOT_FREE;
        shm_unlock(&s->lock);
        slot_free(sl);
        stream_slot_unlock(sl);
        return rc;                                      /* EAGAIN: no room to attach */
    }
    *trid = stream_trid(s);                             /* S0090 */
    shm_unlock(&s->lock);
    stream_slot_unlock(sl);
    return 0;
}

int posix_trace_create(pid_t pid, const trace_attr_t *restrict attr,
                       trace_id_t *restrict trid)
{
    return create_stream(pid, attr, -1, trid);
}

int posix_trace_create_withlog(pid_t pid, const trace_attr_t *restrict attr, int fd,
                               trace_id_t *restrict trid)
{
    if (fd < 0)
        return EBADF;                                   /* S0119 */
    return create_stream(pid, attr, fd, trid);
}

int posix_trace_start(trace_id_t trid)
{
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0234 */
    if (s->run == POSIX_TRACE_RUNNING || s->autostopped) {
        stream_release(s);                              /* S0227, S0228 */
        return 0;
    }
    if (!stream_fits(s, sizeof s->filter)) {
        /* UNTIL_FULL with no room for START: the stream is full (S0228);
         * it starts by itself once a reader has emptied it. */
        s->full = POSIX_TRACE_FULL;
        s->autostopped = 1;
        stream_update_recording(s);
        stream_release(s);
        return 0;
    }
    struct origin o;
    stream_origin(s, &o, __builtin_return_address(0));
    /* S0285: START carries the filter in force (TEF) */
    stream_put(s, POSIX_TRACE_START, &s->filter, sizeof s->filter, 0, &o);
    s->run = POSIX_TRACE_RUNNING;                       /* S0226 */
    stream_update_recording(s);
    stream_release(s);
    return 0;
}

int posix_trace_stop(trace_id_t trid)
{
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0234 */
    if (s->run == POSIX_TRACE_SUSPENDED) {
        stream_release(s);                              /* S0230, S0231 */
        return 0;
    }
    struct origin o;
    int automatic = 0;
    stream_origin(s, &o, __builtin_return_address(0));
    stream_put(s, POSIX_TRACE_STOP, &automatic, sizeof automatic, 0, &o);
    s->run = POSIX_TRACE_SUSPENDED;                     /* S0229 */
    stream_update_recording(s);
    stream_release(s);
    return 0;
}

int posix_trace_clear(trace_id_t trid)
{
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0071 */
    if (s->log != NULL && log_stream_clear(s) != 0) {
        stream_release(s);              /* shut down while a flush ended */
        return EINVAL;
    }
    stream_counts_clear(s);             /* the ring's events are dropped */
    s->ring.head = s->ring.tail = 0;                    /* S0063, S0064 */
    s->full = POSIX_TRACE_NOT_FULL;                     /* S0065 */
    s->overrun = POSIX_TRACE_NO_OVERRUN;
    s->ovf = OVF_NONE;
    s->autostopped = 0;                 /* keeps SUSPENDED: start() restarts */
    s->typelist_pos = 0;
    stream_update_recording(s);
    stream_release(s);
    return 0;
}

int posix_trace_shutdown(trace_id_t trid)
{
    struct stream_slot *sl;
    struct stream *s = stream_acquire_slot(trid, &sl);
    if (s == NULL)
        return EINVAL;
    int rc = 0;
    if (s->log != NULL) {
        /* As if stopped (S0107): the log ends with STOP. */
        if (s->run == POSIX_TRACE_RUNNING) {
            static const int by_call = 0;   /* STOP's data: not automatic */
            struct origin o;
            stream_origin(s, &o, __builtin_return_address(0));
            stream_put(s, POSIX_TRACE_STOP, &by_call, sizeof by_call, 0, &o);
        }
        s->run = POSIX_TRACE_SUSPENDED;
        s->autostopped = 0;             /* no restart when the flush empties it */
        s->state = SLOT_CLOSING;        /* every other call now fails */
        stream_update_recording(s);
        rc = log_stream_shutdown(s);    /* S0112, S0113, S0115 */
    }
    s->run = POSIX_TRACE_SUSPENDED;                     /* S0107 */
    s->state = SLOT_FREE;               /* traced processes let go of it */
    stream_update_recording(s);
    shm_cond_broadcast(&s->readable);   /* blocked readers: EINVAL */
    shm_cond_broadcast(&s->flush_idle);
    while (s->waiters > 0)              /* they leave before the memory goes */
        shm_cond_wait(&s->flush_idle, &s->lock, NULL);
    shm_unlock(&s->lock);
    slot_free(sl);                                      /* S0108-S0110 */
    stream_slot_unlock(sl);
    return rc;                          /* the final flush's error (S0120) */
}

int posix_trace_get_attr(trace_id_t trid, trace_attr_t *attr)
{
    if (attr == NULL)
        return EINVAL;
    if (trid_is_log(trid))
        return prerecorded_get_attr(trid, attr);        /* S0173 */
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0182 */
    *attr = s->attr;                                    /* S0172 */
    stream_release(s);
    return 0;
}

int posix_trace_get_status(trace_id_t trid, struct posix_trace_status_info *st)
{
    if (st == NULL)
        return EINVAL;
    if (trid_is_log(trid))
        return prerecorded_get_status(trid, st);        /* S0175, S0179 */
    struct stream *s = stream_acquire(trid);
    if (s == NULL)
        return EINVAL;                                  /* S0182 */
    st->posix_stream_status = s->run;                   /* S0174: under the lock */
    st->posix_stream_full_status = s->full;
    st->posix_stream_overrun_status = s->overrun;
    if (s->log != NULL) {
        log_stream_status(s, st);                       /* S0177, S0178 */
    } else {
        st->posix_stream_flush_status = POSIX_TRACE_NOT_FLUSHING;
        st->posix_stream_flush_error = 0;
        st->posix_log_overrun_status = POSIX_TRACE_NO_OVERRUN;   /* S0259 */
        st->posix_log_full_status = POSIX_TRACE_NOT_FULL;
    }
    s->overrun = POSIX_TRACE_NO_OVERRUN;                /* S0176 */
    stream_release(s);
    return 0;
}
