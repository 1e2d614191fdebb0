/* SPDX-License-Identifier: MIT */
/*
 * log_records.c -- the POSIX records of a trace log as payload words
 * (LOGFORMAT section 4), both ways, and the log's geometry (the event
 * records are log_events.c's).
 * The words go through the slot codec (slot_codec.h): this file only says
 * what each word holds, and checks every word it reads back.
 */
#include <errno.h>
#include <string.h>
#include "stream/attr.h"
#include "log/log_format.h"
#include "slot/trace_file.h"

/* ---- geometry ------------------------------------------------------------------ */

uint32_t log_seg_bytes_for(size_t max_data)
{
    if (max_data > LOG_DATA_MAX)
        max_data = LOG_DATA_MAX;
    /* Two of the largest records, each with its whole context, and the
     * BUFFER slot: a segment is then at least half used before the next one
     * begins. */
    uint64_t need = 16u * (2u * ((uint64_t)log_event_slots((uint32_t)max_data) +
                                 LOG_CONTEXT_SLOTS_MAX) + 1u);
    uint32_t seg = LOG_SEG_MIN;
    while (seg < need)
        seg <<= 1;
    return seg;
}

uint64_t log_segments_for(int policy, size_t log_max, uint32_t seg_bytes)
{
    if (policy == POSIX_TRACE_APPEND)
        return 0;                                       /* S0029, S0051 */
    uint64_t n = ((uint64_t)log_max + seg_bytes - 1) / seg_bytes;
    if (n < 2)
        n = 2;
    return n < LOG_SEGMENTS_MAX ? n : LOG_SEGMENTS_MAX;
}

const char *log_policy_name(int policy)
{
    switch (policy) {
    case POSIX_TRACE_LOOP:       return "LOOP";
    case POSIX_TRACE_UNTIL_FULL: return "UNTIL_FULL";
    case POSIX_TRACE_APPEND:     return "APPEND";
    default:                     return NULL;
    }
}

int log_policy_of(const char *name)
{
    static const int policies[] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL,
                                    POSIX_TRACE_APPEND };
    for (unsigned i = 0; i < 3; i++)
        if (strcmp(name, log_policy_name(policies[i])) == 0)
            return policies[i];
    return 0;
}

void log_meta_key(struct slot_key *k, unsigned code, uint32_t stamp)
{
    k->cpu = 0;
    k->cls = SLOT_CLASS_USER;
    k->event = code;
    k->ts_low = stamp;
}

/* ---- bytes as words (KSP-10: little-endian whatever the host) ------------------- */

void log_bytes_to_words(const unsigned char *b, size_t n, uint32_t *w)
{
    for (size_t i = 0; 4 * i < n; i++)
        w[i] = slot_le_word(b + 4 * i, n - 4 * i);
}

void log_words_to_bytes(const uint32_t *w, size_t n, unsigned char *b)
{
    for (size_t j = 0; j < n; j++)
        b[j] = (unsigned char)(w[j / 4] >> (8 * (j % 4)));
}

static void put64(uint32_t *w, uint64_t v)
{
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
}

static uint64_t get64(const uint32_t *w)
{
    return (uint64_t)w[1] << 32 | w[0];
}

/* ---- attributes (LOGFORMAT section 4) ------------------------------------------- */

#define NAME_WORDS (TRACE_NAME_MAX / 4)

void log_attr_words(const trace_attr_t *a, uint32_t w[LOG_ATTR_WORDS])
{
    unsigned char name[TRACE_NAME_MAX];
    memset(w, 0, LOG_ATTR_WORDS * sizeof *w);
    w[0] = LOG_ATTR_VERSION;
    w[1] = (uint32_t)a->__stream_fullpolicy;
    w[2] = (uint32_t)a->__log_fullpolicy;
    w[3] = (uint32_t)a->__inheritance;
    put64(w + 4, a->__stream_minsize);
    put64(w + 6, a->__max_datasize);
    put64(w + 8, a->__log_maxsize);
    put64(w + 10, (uint64_t)a->__clockres.tv_sec);
    w[12] = (uint32_t)a->__clockres.tv_nsec;
    put64(w + 13, (uint64_t)a->__createtime.tv_sec);
    w[15] = (uint32_t)a->__createtime.tv_nsec;
    memset(name, 0, sizeof name);
    memcpy(name, a->__name, strnlen(a->__name, sizeof name - 1));
    log_bytes_to_words(name, sizeof name, w + 16);
    memset(name, 0, sizeof name);
    memcpy(name, a->__genversion, strnlen(a->__genversion, sizeof name - 1));
    log_bytes_to_words(name, sizeof name, w + 16 + NAME_WORDS);
}

/* A name of at most TRACE_NAME_MAX - 1 characters, NUL-terminated within
 * its 64 bytes. */
static int name_from_words(const uint32_t *w, char out[TRACE_NAME_MAX])
{
    log_words_to_bytes(w, TRACE_NAME_MAX, (unsigned char *)out);
    return memchr(out, '\0', TRACE_NAME_MAX) ? 0 : EINVAL;
}

static int timespec_from(const uint32_t *w, struct timespec *t)
{
    uint64_t sec = get64(w);
    /* A time the target's time_t cannot hold (a 32-bit time_t past 2038) is
     * rejected, not wrapped. */
    if (w[2] >= 1000000000u || sec > ATTR_SIGNED_MAX(time_t))
        return EINVAL;
    t->tv_sec = (time_t)sec;
    t->tv_nsec = (long)w[2];
    return 0;
}

int log_attr_from_words(const uint32_t *w, uint32_t nwords, trace_attr_t *a)
{
    if (nwords < LOG_ATTR_WORDS || w[0] != LOG_ATTR_VERSION)
        return EINVAL;
    int sp = (int)w[1], lp = (int)w[2], inh = (int)w[3];
    uint64_t minsize = get64(w + 4), maxdata = get64(w + 6), logmax = get64(w + 8);
    if ((sp != POSIX_TRACE_LOOP && sp != POSIX_TRACE_UNTIL_FULL && sp != POSIX_TRACE_FLUSH) ||
        log_policy_name(lp) == NULL ||
        (inh != POSIX_TRACE_CLOSE_FOR_CHILD && inh != POSIX_TRACE_INHERITED) ||
        minsize == 0 || minsize > ATTR_STREAM_SIZE_MAX || maxdata > ATTR_DATA_SIZE_MAX ||
        logmax == 0 || logmax > ATTR_LOG_SIZE_MAX)
        return EINVAL;
    trace_attr_t r = *a;
    if (timespec_from(w + 10, &r.__clockres) != 0 ||
        timespec_from(w + 13, &r.__createtime) != 0 ||
        name_from_words(w + 16, r.__name) != 0 ||
        name_from_words(w + 16 + NAME_WORDS, r.__genversion) != 0)
        return EINVAL;
    r.__stream_fullpolicy = sp;
    r.__stream_fullpolicy_set = 1;
    r.__log_fullpolicy = lp;
    r.__inheritance = inh;
    r.__stream_minsize = (size_t)minsize;
    r.__max_datasize = (size_t)maxdata;
    r.__log_maxsize = (size_t)logmax;
    *a = r;
    return 0;
}

/* ---- status --------------------------------------------------------------------- */

void log_status_words(const struct log_status *s, uint32_t w[LOG_STATUS_WORDS])
{
    memset(w, 0, LOG_STATUS_WORDS * sizeof *w);
    w[0] = s->counter;
    w[1] = s->complete ? 1u : 0u;
    w[2] = (uint32_t)s->st.posix_stream_status;
    w[3] = (uint32_t)s->st.posix_stream_full_status;
    w[4] = (uint32_t)s->st.posix_stream_overrun_status;
    w[5] = (uint32_t)s->st.posix_stream_flush_status;
    w[6] = (uint32_t)s->st.posix_stream_flush_error;
    w[7] = (uint32_t)s->st.posix_log_overrun_status;
    w[8] = (uint32_t)s->st.posix_log_full_status;
    w[9] = s->seg_seq;
    w[10] = s->seg_used;
    put64(w + 11, s->events);
    put64(w + 13, s->stream_lost);
    put64(w + 15, s->log_lost);
    w[17] = (uint32_t)s->write_error;
}

static int one_of(uint32_t v, int a, int b)
{
    return v == (uint32_t)a || v == (uint32_t)b;
}

int log_status_from_words(const uint32_t *w, uint32_t nwords, struct log_status *s)
{
    if (nwords < LOG_STATUS_WORDS || w[1] > 1u ||
        !one_of(w[2], POSIX_TRACE_RUNNING, POSIX_TRACE_SUSPENDED) ||
        !one_of(w[3], POSIX_TRACE_FULL, POSIX_TRACE_NOT_FULL) ||
        !one_of(w[4], POSIX_TRACE_OVERRUN, POSIX_TRACE_NO_OVERRUN) ||
        !one_of(w[5], POSIX_TRACE_FLUSHING, POSIX_TRACE_NOT_FLUSHING) ||
        w[6] > 4095u || w[17] > 4095u ||
        !one_of(w[7], POSIX_TRACE_OVERRUN, POSIX_TRACE_NO_OVERRUN) ||
        !one_of(w[8], POSIX_TRACE_FULL, POSIX_TRACE_NOT_FULL))
        return EINVAL;
    s->counter = w[0];
    s->complete = (int)w[1];
    s->st.posix_stream_status = (int)w[2];
    s->st.posix_stream_full_status = (int)w[3];
    s->st.posix_stream_overrun_status = (int)w[4];
    s->st.posix_stream_flush_status = (int)w[5];
    s->st.posix_stream_flush_error = (int)w[6];
    s->st.posix_log_overrun_status = (int)w[7];
    s->st.posix_log_full_status = (int)w[8];
    s->seg_seq = w[9];
    s->seg_used = w[10];
    s->events = get64(w + 11);
    s->stream_lost = get64(w + 13);
    s->log_lost = get64(w + 15);
    s->write_error = (int)w[17];
    return 0;
}

/* ---- event names ------------------------------------------------------------------ */

uint32_t log_name_words(trace_event_id_t id, const char *name,
                        uint32_t w[LOG_NAME_WORDS_MAX])
{
    size_t len = strnlen(name, TRACE_EVENT_NAME_MAX);
    w[0] = id;
    w[1] = (uint32_t)len;
    log_bytes_to_words((const unsigned char *)name, len, w + 2);
    return 2u + (uint32_t)((len + 3) / 4);
}

int log_name_from_words(const uint32_t *w, uint32_t nwords, trace_event_id_t *id,
                        char name[TRACE_EVENT_NAME_MAX + 1])
{
    if (nwords < 2)
        return EINVAL;
    uint32_t len = w[1];
    if (w[0] <= POSIX_TRACE_UNNAMED_USEREVENT || w[0] >= __POSIXTRACE_EVENT_ID_LIMIT ||
        len == 0 || len > TRACE_EVENT_NAME_MAX || 2u + (len + 3u) / 4u > nwords)
        return EINVAL;
    log_words_to_bytes(w + 2, len, (unsigned char *)name);
    name[len] = '\0';
    if (strlen(name) != len)
        return EINVAL;
    *id = w[0];
    return 0;
}
