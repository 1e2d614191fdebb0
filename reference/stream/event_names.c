/* SPDX-License-Identifier: MIT */
/*
 * event_names.c -- the process's mapping of user event names to identifiers
 * (S0123-S0131, S0236, S0237), and the names of the system events.
 * A table is a process's, or its traced family's (process.h): the API
 * forces it, posix_trace_eventid_open() has no stream argument and its
 * mapping outlives streams (S0131).
 */
#include <errno.h>
#include <string.h>
#include "stream/event_names.h"
#include "stream/eventset_bits.h"
#include "shm/shm.h"

struct system_event {
    trace_event_id_t id;
    const char      *name;
    int              supported;     /* its option is provided */
    int              wopid;         /* process-independent: never a pid nor a thread */
};

/* Increasing id order; the order of the event type list.  wopid marks the
 * types of POSIX_TRACE_WOPID_EVENTS (posix/CHOICES.md, "Event sets"): those whose
 * every event the reference records or reports has posix_pid 0 and
 * posix_thread_id 0 (S0262, S0266, ruling 15).  START, STOP and FLUSH_START
 * are not: when a call causes them they carry the caller's pid and thread.
 * ERROR, which the reference never records, is: XRAT B.2.11 counts it among
 * the "system trace events not associated with a process". */
static const struct system_event system_events[] = {
    { POSIX_TRACE_START,       "posix_trace_start",       1, 0 },
    { POSIX_TRACE_STOP,        "posix_trace_stop",        1, 0 },
    { POSIX_TRACE_FILTER,      "posix_trace_filter",      _POSIX_TRACE_EVENT_FILTER > 0, 0 },
    { POSIX_TRACE_OVERFLOW,    "posix_trace_overflow",    1, 1 },
    { POSIX_TRACE_RESUME,      "posix_trace_resume",      1, 1 },
    { POSIX_TRACE_FLUSH_START, "posix_trace_flush_start", _POSIX_TRACE_LOG > 0, 0 },
    { POSIX_TRACE_FLUSH_STOP,  "posix_trace_flush_stop",  _POSIX_TRACE_LOG > 0, 1 },
    { POSIX_TRACE_ERROR,       "posix_trace_error",       1, 1 },
    { POSIX_TRACE_UNNAMED_USEREVENT, "posix_trace_unnamed_userevent", 1, 0 },
};
#define SYSTEM_EVENT_COUNT (sizeof system_events / sizeof system_events[0])

void name_table_init(struct name_table *t)
{
    shm_mutex_init(&t->lock, 1);
    t->count = 0;
}

void name_table_copy(struct name_table *dst, struct name_table *src)
{
    shm_lock(&src->lock);
    dst->count = src->count;
    memcpy(dst->names, src->names, src->count * sizeof src->names[0]);
    shm_unlock(&src->lock);
}

void name_table_clear(struct name_table *t)
{
    shm_lock(&t->lock);
    t->count = 0;
    shm_unlock(&t->lock);
}

int event_names_open(struct name_table *t, const char *name, trace_event_id_t *id)
{
    if (name == NULL || id == NULL)
        return EINVAL;
    size_t len = strnlen(name, TRACE_EVENT_NAME_MAX + 1);
    if (len > TRACE_EVENT_NAME_MAX)
        return ENAMETOOLONG;                            /* S0124, S0134 */
    shm_lock(&t->lock);
    unsigned i;
    for (i = 0; i < t->count; i++)
        if (strcmp(t->names[i], name) == 0)
            break;                                      /* S0126 */
    if (i == t->count) {
        if (i == NAMED_USER_EVENT_MAX) {
            shm_unlock(&t->lock);
            *id = POSIX_TRACE_UNNAMED_USEREVENT;        /* S0127 */
            return 0;
        }
        memcpy(t->names[i], name, len + 1);
        t->count++;
    }
    shm_unlock(&t->lock);
    *id = FIRST_NAMED_USER_EVENT + i;
    return 0;
}

int event_names_system(trace_event_id_t id, char *buf)
{
    for (size_t i = 0; i < SYSTEM_EVENT_COUNT; i++)
        if (system_events[i].id == id) {
            if (!system_events[i].supported)
                return EINVAL;
            strcpy(buf, system_events[i].name);
            return 0;
        }
    return EINVAL;
}

int event_names_get(struct name_table *t, trace_event_id_t id, char *buf)
{
    if (event_names_system(id, buf) == 0)
        return 0;
    int rc = EINVAL;                                    /* S0155 */
    shm_lock(&t->lock);
    if (id >= FIRST_NAMED_USER_EVENT && id - FIRST_NAMED_USER_EVENT < t->count) {
        strcpy(buf, t->names[id - FIRST_NAMED_USER_EVENT]);
        rc = 0;
    }
    shm_unlock(&t->lock);
    return rc;
}

unsigned event_names_system_nth(unsigned n, trace_event_id_t *id)
{
    unsigned count = 0;
    for (size_t i = 0; i < SYSTEM_EVENT_COUNT; i++) {
        if (!system_events[i].supported)
            continue;
        if (count == n && id != NULL)
            *id = system_events[i].id;
        count++;
    }
    return count;
}

void event_names_system_set(trace_event_set_t *set, int wopid_only)
{
    for (size_t i = 0; i < SYSTEM_EVENT_COUNT; i++) {
        const struct system_event *e = &system_events[i];
        if (e->supported && e->id != POSIX_TRACE_UNNAMED_USEREVENT && (e->wopid || !wopid_only))
            eventset_put(set, e->id);
    }
}

unsigned event_names_count(struct name_table *t)
{
    shm_lock(&t->lock);
    unsigned count = t->count;
    shm_unlock(&t->lock);
    return count;
}

int event_names_nth(struct name_table *t, unsigned n, trace_event_id_t *id)
{
    unsigned nsys = event_names_system_nth(n, id);
    if (n < nsys)
        return 0;
    n -= nsys;
    if (n >= event_names_count(t))
        return -1;
    *id = FIRST_NAMED_USER_EVENT + n;
    return 0;
}
