/* SPDX-License-Identifier: MIT */
/*
 * event_names.h -- trace event names and identifiers.
 *
 * System events have fixed identifiers (<trace.h>).  User event names are
 * mapped per process (TRC without TRI, S0125): the first name opened gets
 * FIRST_NAMED_USER_EVENT, the next one the following id, up to
 * TRACE_USER_EVENT_MAX ids counting the unnamed user event; past that,
 * POSIX_TRACE_UNNAMED_USEREVENT is returned (S0127).
 */
#ifndef POSIXTRACE_EVENT_NAMES_H
#define POSIXTRACE_EVENT_NAMES_H

#include <trace.h>
#include "shm/shm_lock.h"

#define FIRST_NAMED_USER_EVENT  (POSIX_TRACE_UNNAMED_USEREVENT + 1u)
#define NAMED_USER_EVENT_MAX    (TRACE_USER_EVENT_MAX - 1)

/* A mapping of user event names to ids.  It lives in a process block
 * (process.h), in shared memory: the processes traced into one stream with
 * TRI INHERITED share one (S0128, S0129, S0317), and the controller of a
 * stream reads its traced process's (S0146, S0147).  Its lock is shared and
 * robust (shm_lock.h). */
struct name_table {
    struct shm_mutex lock;
    unsigned        count;
    char            names[NAMED_USER_EVENT_MAX][TRACE_EVENT_NAME_MAX + 1];
};

/* An empty table; a copy of src (its lock taken while copying). */
void name_table_init(struct name_table *t);
void name_table_copy(struct name_table *dst, struct name_table *src);
/* Forgets every name (exec of an untraced process, S0321). */
void name_table_clear(struct name_table *t);

/* Maps name to an id in t (opening it if new).  0, ENAMETOOLONG or EINVAL. */
int event_names_open(struct name_table *t, const char *name, trace_event_id_t *id);

/* Copies the name of id into buf (TRACE_EVENT_NAME_MAX + 1 bytes): a
 * system event's, or a user event's in t.  0, or EINVAL. */
int event_names_get(struct name_table *t, trace_event_id_t id, char *buf);

/* Copies the name of a system event of a supported option, or of the
 * unnamed user event, into buf.  0, or EINVAL for any other id. */
int event_names_system(trace_event_id_t id, char *buf);

/* The number of those events (system events of the supported options and
 * the unnamed user event); if n is below it and id is not NULL, *id is the
 * n-th of them in the order of the event type list. */
unsigned event_names_system_nth(unsigned n, trace_event_id_t *id);

/* Adds to set the system events of the supported options (the unnamed
 * user event is no system event): all of them, or with wopid_only the
 * process-independent ones (POSIX_TRACE_WOPID_EVENTS). */
void event_names_system_set(trace_event_set_t *set, int wopid_only);

/* The number of named user events in t. */
unsigned event_names_count(struct name_table *t);

/* The n-th identifier of the event type list of a stream whose names are
 * t (system events of the supported options, the unnamed user event, the
 * named ones in order of opening).  Returns 0 and sets *id, or -1 past the
 * end. */
int event_names_nth(struct name_table *t, unsigned n, trace_event_id_t *id);

#endif
