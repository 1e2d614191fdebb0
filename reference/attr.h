/* attr.h -- trace attributes objects: what the stream code needs of them. */
#ifndef POSIXTRACE_ATTR_H
#define POSIXTRACE_ATTR_H

#include <trace.h>
#include <stdint.h>

#define ATTR_MAGIC             0x54524341u   /* "TRCA" */
#define ATTR_STREAM_SIZE_MAX   ((size_t)1 << 30)
#define ATTR_DATA_SIZE_MAX     ((size_t)65535)
#define ATTR_LOG_SIZE_MAX      ((size_t)1 << 40)
#define ATTR_GENVERSION        "posixtrace-reference 0.1"

static inline int attr_valid(const trace_attr_t *a)
{
    return a != NULL && a->__magic == ATTR_MAGIC;
}

/* The size a user event with len bytes of data takes, truncation applied. */
uint64_t attr_user_event_size(const trace_attr_t *a, size_t len);
/* The size of the largest system event. */
uint64_t attr_system_event_size(void);

#endif
