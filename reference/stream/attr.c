/* SPDX-License-Identifier: MIT */
/*
 * attr.c -- trace stream attributes objects (XSH posix_trace_attr_*).
 * Defaults and accepted ranges: reference/posix/CHOICES.md.  Every function gives
 * EINVAL for a NULL pointer or an object posix_trace_attr_init() did not
 * initialise (the "may fail" EINVAL of each page).
 */
#include <errno.h>
#include <string.h>
#include "stream/attr.h"
#include "stream/ring.h"
#include "stream/stream.h"

uint64_t attr_user_event_size(const trace_attr_t *a, size_t len)
{
    size_t n = len < a->__max_datasize ? len : a->__max_datasize;
    return rec_size((uint32_t)n);
}

uint64_t attr_system_event_size(void)
{
    return rec_size((uint32_t)SYSTEM_EVENT_DATA_MAX);
}

static void copy_name(char *dst, const char *src)
{
    size_t n = strlen(src);
    if (n > TRACE_NAME_MAX - 1)
        n = TRACE_NAME_MAX - 1;      /* S0015, CATALOGUE.md section 7 defect 10 */
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int posix_trace_attr_init(trace_attr_t *attr)
{
    if (attr == NULL)
        return EINVAL;
    memset(attr, 0, sizeof *attr);
    attr->__magic = ATTR_MAGIC;
    attr->__stream_fullpolicy = POSIX_TRACE_LOOP;
    attr->__stream_fullpolicy_set = 0;
    attr->__log_fullpolicy = POSIX_TRACE_LOOP;
    attr->__inheritance = POSIX_TRACE_CLOSE_FOR_CHILD;
    attr->__stream_minsize = 65536;
    attr->__max_datasize = 256;
    attr->__log_maxsize = (size_t)1 << 20;
    if (clock_getres(CLOCK_REALTIME, &attr->__clockres) != 0) {
        attr->__clockres.tv_sec = 0;
        attr->__clockres.tv_nsec = 1;
    }
    copy_name(attr->__genversion, ATTR_GENVERSION);     /* S0003 */
    return 0;
}

int posix_trace_attr_destroy(trace_attr_t *attr)
{
    if (!attr_valid(attr))
        return EINVAL;
    attr->__magic = 0;
    return 0;
}

int posix_trace_attr_getclockres(const trace_attr_t *attr, struct timespec *res)
{
    if (!attr_valid(attr) || res == NULL)
        return EINVAL;
    *res = attr->__clockres;
    return 0;
}

int posix_trace_attr_getcreatetime(const trace_attr_t *attr, struct timespec *t)
{
    if (!attr_valid(attr) || t == NULL)
        return EINVAL;
    *t = attr->__createtime;
    return 0;
}

int posix_trace_attr_getgenversion(const trace_attr_t *attr, char *genversion)
{
    if (!attr_valid(attr) || genversion == NULL)
        return EINVAL;
    strcpy(genversion, attr->__genversion);
    return 0;
}

int posix_trace_attr_getname(const trace_attr_t *attr, char *name)
{
    if (!attr_valid(attr) || name == NULL)
        return EINVAL;
    strcpy(name, attr->__name);
    return 0;
}

int posix_trace_attr_setname(trace_attr_t *attr, const char *name)
{
    if (!attr_valid(attr) || name == NULL)
        return EINVAL;
    copy_name(attr->__name, name);
    return 0;
}

int posix_trace_attr_getinherited(const trace_attr_t *restrict attr, int *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = attr->__inheritance;
    return 0;
}

int posix_trace_attr_setinherited(trace_attr_t *attr, int v)
{
    if (!attr_valid(attr) ||
        (v != POSIX_TRACE_CLOSE_FOR_CHILD && v != POSIX_TRACE_INHERITED))
        return EINVAL;
    attr->__inheritance = v;
    return 0;
}

int posix_trace_attr_getlogfullpolicy(const trace_attr_t *restrict attr, int *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = attr->__log_fullpolicy;
    return 0;
}

int posix_trace_attr_setlogfullpolicy(trace_attr_t *attr, int v)
{
    if (!attr_valid(attr) || (v != POSIX_TRACE_LOOP && v != POSIX_TRACE_UNTIL_FULL &&
                              v != POSIX_TRACE_APPEND))
        return EINVAL;
    attr->__log_fullpolicy = v;
    return 0;
}

int posix_trace_attr_getstreamfullpolicy(const trace_attr_t *restrict attr, int *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = attr->__stream_fullpolicy;
    return 0;
}

int posix_trace_attr_setstreamfullpolicy(trace_attr_t *attr, int v)
{
    if (!attr_valid(attr) || (v != POSIX_TRACE_LOOP && v != POSIX_TRACE_UNTIL_FULL &&
                              v != POSIX_TRACE_FLUSH))
        return EINVAL;
    attr->__stream_fullpolicy = v;
    attr->__stream_fullpolicy_set = 1;
    return 0;
}

int posix_trace_attr_getlogsize(const trace_attr_t *restrict attr, size_t *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = attr->__log_maxsize;
    return 0;
}

int posix_trace_attr_setlogsize(trace_attr_t *attr, size_t v)
{
    if (!attr_valid(attr) || v == 0 || v > ATTR_LOG_SIZE_MAX)
        return EINVAL;
    attr->__log_maxsize = v;
    return 0;
}

int posix_trace_attr_getmaxdatasize(const trace_attr_t *restrict attr, size_t *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = attr->__max_datasize;
    return 0;
}

int posix_trace_attr_setmaxdatasize(trace_attr_t *attr, size_t v)
{
    if (!attr_valid(attr) || v > ATTR_DATA_SIZE_MAX)
        return EINVAL;
    attr->__max_datasize = v;
    return 0;
}

int posix_trace_attr_getmaxsystemeventsize(const trace_attr_t *restrict attr,
                                           size_t *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = (size_t)attr_system_event_size();          /* S0053 */
    return 0;
}

int posix_trace_attr_getmaxusereventsize(const trace_attr_t *restrict attr,
                                         size_t data_len, size_t *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = (size_t)attr_user_event_size(attr, data_len);   /* S0055 */
    return 0;
}

int posix_trace_attr_getstreamsize(const trace_attr_t *restrict attr, size_t *restrict v)
{
    if (!attr_valid(attr) || v == NULL)
        return EINVAL;
    *v = attr->__stream_minsize;
    return 0;
}

int posix_trace_attr_setstreamsize(trace_attr_t *attr, size_t v)
{
    if (!attr_valid(attr) || v == 0 || v > ATTR_STREAM_SIZE_MAX)
        return EINVAL;
    attr->__stream_minsize = v;
    return 0;
}
