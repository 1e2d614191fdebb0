/* SPDX-License-Identifier: MIT */
/*
 * log_format.h -- the trace log file of the reference (TRL): its geometry
 * and the POSIX records it stores as USER-class slot events
 * (reference/log/LOGFORMAT.md).  The writer (log_writer.c) and the reader
 * (log_reader.c) share this one description; the slots themselves are
 * encoded and decoded by the project's one slot codec (slot_codec.h), and
 * the file header by trace_file.h.
 *
 * Records (LOGFORMAT sections 3 and 4) are arrays of 32-bit payload words:
 * log_events.c turns events into records and back, with their context
 * (struct log_context, the one piece of state: a segment's, the writer's or
 * the reader's); log_records.c does the attributes, status and names.
 */
#ifndef POSIXTRACE_LOG_FORMAT_H
#define POSIXTRACE_LOG_FORMAT_H

#include <trace.h>
#include <stdint.h>
#include "stream/ring.h"
#include "slot/slot_codec.h"

/* ---- geometry (LOGFORMAT section 1) ----------------------------------------- */

/* The metadata area.  64 KiB, not the 32 KiB first planned: 255 event names
 * of 63 characters take 36,720 bytes of name records (LOGFORMAT section 4). */
#define LOG_META_BYTES     65536u
#define LOG_META_SLOTS     (LOG_META_BYTES / 16u)
/* What a reader accepts as a metadata area (multiple of 16). */
#define LOG_META_MIN       4096u
#define LOG_META_MAX       (1u << 20)

/* Segment sizes: a power of two from 4 KiB; 512 KiB holds two events of
 * 65535 bytes of data (the largest max-data-size), the BUFFER slot included. */
#define LOG_SEG_MIN        4096u
#define LOG_SEG_MAX        (1u << 19)
/* The most segments of a LOOP or UNTIL_FULL ring: log-max-size's maximum,
 * 2^40 bytes, in 4 KiB segments. */
#define LOG_SEGMENTS_MAX   ((uint64_t)1 << 28)

/* The header's extra attributes (KSP-23 allows them). */
#define LOG_KEY_MARK       "POSIX_LOG"
#define LOG_KEY_META       "POSIX_META_BYTES"
#define LOG_KEY_SEG        "POSIX_SEG_BYTES"
#define LOG_KEY_POLICY     "POSIX_LOG_POLICY"
#define LOG_KEY_SEGMENTS   "POSIX_SEGMENTS"
#define LOG_FILE_NAME      "posixtrace-log"

struct log_geometry {
    uint64_t meta_off;      /* the metadata area: right after the header */
    uint32_t meta_bytes;
    uint64_t seg_off;       /* segment slot 0 */
    uint32_t seg_bytes;     /* a power of two */
    uint32_t seg_slots;     /* seg_bytes / 16 */
    int      policy;        /* log-full-policy */
    uint64_t segments;      /* LOOP, UNTIL_FULL: the ring's size; APPEND: 0 */
};

/* The segment size for a stream of max-data-size max_data: a power of two,
 * at least LOG_SEG_MIN and twice the largest record plus the BUFFER slot. */
uint32_t log_seg_bytes_for(size_t max_data);

/* The ring's size for log-full-policy policy and log-max-size log_max:
 * max(2, ceil(log_max / seg_bytes)), at most LOG_SEGMENTS_MAX; 0 for APPEND. */
uint64_t log_segments_for(int policy, size_t log_max, uint32_t seg_bytes);

/* Where segment number k (counting every segment of the log's life) lives:
 * slot k mod segments (LOOP), slot k (UNTIL_FULL never wraps; APPEND). */
static inline uint64_t log_seg_slot(const struct log_geometry *g, uint64_t k)
{
    return g->policy == POSIX_TRACE_LOOP ? k % g->segments : k;
}

static inline uint64_t log_seg_offset(const struct log_geometry *g, uint64_t slot)
{
    return g->seg_off + slot * g->seg_bytes;
}

/* The name of a log-full policy in the header ("LOOP"), or NULL; and back
 * (0 if unknown). */
const char *log_policy_name(int policy);
int log_policy_of(const char *name);

/* ---- records (LOGFORMAT sections 3 and 4) ---------------------------------- */

/* The format's version: the value of the header's TRACE_POSIX_LOG.  2: the
 * compact event records of LOGFORMAT section 3 (version 1 gave every event
 * a record of 9 words of its own; it is not read, section 8). */
#define LOG_FORMAT_VERSION "2"

/* Event codes of the metadata records: above every POSIX event id. */
#define LOG_CODE_ATTR      1023u
#define LOG_CODE_NAME      1022u
#define LOG_CODE_STATUS    1021u
/* Event codes of the context records (LOGFORMAT section 3): what an event
 * record does not carry, stated when it changes and at a segment's start. */
#define LOG_CODE_PID       1020u
#define LOG_CODE_THREAD    1019u
#define LOG_CODE_PROG      1018u
#define LOG_CODE_SHAPE     1017u
#define LOG_CODE_EVENT_MAX 1016u    /* the largest code an event record may have */

_Static_assert(__POSIXTRACE_EVENT_ID_LIMIT <= LOG_CODE_EVENT_MAX + 1,
               "every POSIX event id is an event code below the context codes");

#define LOG_DATA_MAX       65535u
#define LOG_DATA_WORDS_MAX ((LOG_DATA_MAX + 3u) / 4u)

/* Slots taken by an event record with len bytes of data: its data words
 * only (one slot up to 8 bytes). */
static inline uint32_t log_event_slots(uint32_t len)
{
    return (uint32_t)slot_count((len + 3u) / 4u);
}

/* The most slots that go before an event record: a TIME record and the
 * four context records (a segment's first event). */
#define LOG_CONTEXT_SLOTS_MAX 5u

/* The automatic STOP of an UNTIL_FULL log, with its whole context (an int
 * of data: one slot). */
#define LOG_STOP_SLOTS     (LOG_CONTEXT_SLOTS_MAX + 1u)

/* The context of the event records of one segment (LOGFORMAT section 3):
 * the writer's (what it has stated) and the reader's (what it has read). */
struct log_context {
    uint32_t pid;
    uint64_t thread;
    uint64_t prog;
    uint32_t len;                   /* data length in bytes */
    uint32_t flags;                 /* bits 0-1 truncation, bits 16-31 CPU + 1 */
    unsigned have;                  /* LOG_HAVE_*: the records stated so far */
    uint64_t timed;                 /* slot CPUs with a TIME record so far */
    uint32_t high[SLOT_NCPUS];      /* each one's high word of time */
    uint32_t last_low[SLOT_NCPUS];  /* and the low word of its last record */
};

#define LOG_HAVE_PID    1u
#define LOG_HAVE_THREAD 2u
#define LOG_HAVE_PROG   4u
#define LOG_HAVE_SHAPE  8u
#define LOG_HAVE_ALL    15u

/* A segment begins: nothing stated. */
void log_context_reset(struct log_context *c);

/* Encodes event h (its data: len bytes at data) after the records of
 * context c into out[0..cap-1] -- the TIME and context records it needs,
 * then its own -- and updates c.  words is scratch of LOG_DATA_WORDS_MAX
 * words.  Returns the slots written, or 0 if cap is too small or len over
 * LOG_DATA_MAX (nothing written, c untouched). */
size_t log_encode_event(struct log_context *c, const struct rec_hdr *h, const void *data,
                        uint32_t *words, traceevent_t *out, size_t cap);

/* Reading: ev is a TIME or a context record of a segment: applies it to c
 * and returns 1; -1: such a record, malformed; 0: no such record. */
int log_context_apply(struct log_context *c, const struct slot_event *ev);

/* Decodes ev (a delivered slot event) as an event record in context c:
 * fills *h (h->len: the exact data length, REC_TRUNCATED set if it was
 * truncated when recorded) and copies the data to data (at most
 * 8 * ev->nslots bytes).  0, or EINVAL: not a complete USER-class record of
 * an event code, a context not whole, or slots that do not match it. */
int log_decode_event(const struct log_context *c, const struct slot_event *ev,
                     struct rec_hdr *h, unsigned char *data);

/* Bytes as words, and back (KSP-10: little-endian whatever the host). */
void log_bytes_to_words(const unsigned char *b, size_t n, uint32_t *w);
void log_words_to_bytes(const uint32_t *w, size_t n, unsigned char *b);

/* The attributes record: every attribute of the stream, version 1. */
#define LOG_ATTR_VERSION   1u
#define LOG_ATTR_WORDS     48u
#define LOG_ATTR_SLOTS     24u

void log_attr_words(const trace_attr_t *a, uint32_t words[LOG_ATTR_WORDS]);
/* Fills a (initialised first with posix_trace_attr_init) from the words of
 * an attributes record.  0, or EINVAL: unknown version, too short, a value
 * out of range. */
int log_attr_from_words(const uint32_t *words, uint32_t nwords, trace_attr_t *a);

/* The status record.  complete is set only by shutdown: a log whose last
 * status is not complete was cut short. */
struct log_status {
    uint32_t counter;                   /* metadata writes so far */
    int complete;
    struct posix_trace_status_info st;
    uint32_t seg_seq;                   /* the segment being filled */
    uint32_t seg_used;                  /* its slots on disk */
    uint64_t events;                    /* events written to the log */
    uint64_t stream_lost;               /* events the stream lost */
    uint64_t log_lost;                  /* events the log discarded (UNTIL_FULL,
                                         * write errors; not the LOOP wraps) */
    int write_error;                    /* the first write error of the log's
                                         * life (0: none), never reset */
};

#define LOG_STATUS_WORDS   18u
#define LOG_STATUS_SLOTS   9u

void log_status_words(const struct log_status *s, uint32_t words[LOG_STATUS_WORDS]);
int log_status_from_words(const uint32_t *words, uint32_t nwords, struct log_status *s);

/* An event name record: id, length, the name's bytes (KSP-10). */
#define LOG_NAME_WORDS_MAX (2u + (TRACE_EVENT_NAME_MAX + 3u) / 4u)

/* Returns the number of words. */
uint32_t log_name_words(trace_event_id_t id, const char *name,
                        uint32_t words[LOG_NAME_WORDS_MAX]);
/* 0, or EINVAL: too short, a length above TRACE_EVENT_NAME_MAX, a NUL in the
 * name, an id that is no named user event. */
int log_name_from_words(const uint32_t *words, uint32_t nwords, trace_event_id_t *id,
                        char name[TRACE_EVENT_NAME_MAX + 1]);

/* Where the metadata records live, in slots from the area's start: the
 * attributes, two status records written in turn (so that one is always
 * whole, whatever moment the writer is stopped at), then the names. */
#define LOG_META_ATTR_SLOT      0u
#define LOG_META_STATUS_SLOT(i) (LOG_ATTR_SLOTS + (i) * LOG_STATUS_SLOTS)
#define LOG_META_NAMES_SLOT     (LOG_ATTR_SLOTS + 2u * LOG_STATUS_SLOTS)

_Static_assert(LOG_META_NAMES_SLOT + (TRACE_USER_EVENT_MAX - 1) *
               ((LOG_NAME_WORDS_MAX + 1u) / 2u) <= LOG_META_SLOTS,
               "every name fits in the metadata area");

/* The key of a metadata record: CPU 0, class USER, its code, and data[0]
 * = stamp (the status counter, the name's id). */
void log_meta_key(struct slot_key *k, unsigned code, uint32_t stamp);

#endif /* POSIXTRACE_LOG_FORMAT_H */
