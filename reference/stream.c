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
#include <sys/stat.h>
#include "attr.h"
#include "log_stream.h"
#include "prerecorded.h"
#include "stream_put.h"

/* May the caller trace pid?  The reference traces the calling process only
 * (DESIGN.md): ESRCH for a process that does not exist, EPERM otherwise. */
static int check_traced_pid(pid_t pid)
{
    if (pid == 0 || pid == posixtrace_table.pid)
        return 0;                                       /* S0089 */
    if (pid < 0)
        return ESRCH;
    if (kill(pid, 0) != 0 && errno == ESRCH)
        return ESRCH;
    return EPERM;                                       /* S0088 */
}

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
    int rc = check_traced_pid(pid);
    if (rc)
        return rc;

    struct stream_table *t = &posixtrace_table;
    pthread_mutex_lock(&t->lock);
    struct stream *s = NULL;
    for (int i = 0; i < TRACE_SYS_MAX && s == NULL; i++) {
        pthread_mutex_lock(&t->slots[i].lock);
        if (t->slots[i].state == SLOT_FREE)
            s = &t->slots[i];                           /* keep it locked */
        else
            pthread_mutex_unlock(&t->slots[i].lock);
    }
    pthread_mutex_unlock(&t->lock);
    if (s == NULL)
        return EAGAIN;                                  /* TRACE_SYS_MAX */

    uint64_t reserve = policy != POSIX_TRACE_LOOP ? attr_system_event_size() : 0;
    uint64_t events = attr->__stream_minsize;
    uint64_t biggest = attr_user_event_size(attr, attr->__max_datasize);
    if (events < biggest)
        events = biggest;               /* one event of each kind always fits */
    if (events < attr_system_event_size())
        events = attr_system_event_size();
    rc = ring_init(&s->ring, events + reserve);
    if (rc) {
        pthread_mutex_unlock(&s->lock);
        return rc;                                      /* ENOMEM */
    }
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
    s->typelist_pos = 0;
    memset(&s->filter, 0, sizeof s->filter);            /* S0093: empty */
    s->owner = t->pid;
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
    s->sim_pid = (uint32_t)attr->__sim_pid;
    s->log = NULL;
    s->flush_mark = 0;
    if (fd >= 0) {
        rc = log_stream_create(s, fd);                  /* S0096 */
        if (rc) {
            ring_free(&s->ring);
            pthread_mutex_unlock(&s->lock);
            return rc;                                  /* ENOSPC, ENOMEM, ... */
        }
    }
    s->state = SLOT_ACTIVE;
    *trid = stream_trid(s);                             /* S0090 */
    pthread_mutex_unlock(&s->lock);
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
    struct stream *s = stream_acquire(trid);
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
    s->state = SLOT_FREE;
    stream_update_recording(s);
    ring_free(&s->ring);                                /* S0108-S0110 */
    s->gen++;                           /* the trace id is dead from now on */
    stream_free_origins(s);
    pthread_cond_broadcast(&s->readable);   /* blocked readers: EINVAL */
    pthread_cond_broadcast(&s->flush_idle);
    stream_release(s);
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
