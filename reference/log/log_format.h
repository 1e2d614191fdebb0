/* SPDX-License-Identifier: MIT */
/*
 * log_format.h -- the trace log file of the reference (TRL): its geometry
 * and the POSIX records it stores as USER-class slot events
 * (reference/log/LOGFORMAT.md).  The writer (log_writer.c) and the reader
 * (log_reader.c) share this one description; the slots themselves are
 * encoded and decoded by the project's one slot codec (slot_codec.h), and
 * the file header by trace_file.h.
 *
 * Records (LOGFORMAT sections 3 and 4) are arrays of 32-bit payload words;
 * log_records.c turns events, attributes, status and names into words and
 * back.  Nothing here has state.
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

/* Event codes of the metadata records: above every POSIX event id. */
#define LOG_CODE_ATTR      1023u
#define LOG_CODE_NAME      1022u
#define LOG_CODE_STATUS    1021u
#define LOG_CODE_EVENT_MAX 1020u    /* the largest code an event record may have */

_Static_assert(__POSIXTRACE_EVENT_ID_LIMIT <= LOG_CODE_EVENT_MAX + 1,
               "every POSIX event id is an event code below the metadata codes");

/* An event record: 9 words, then the data. */
#define LOG_EVENT_WORDS    9u
#define LOG_DATA_MAX       65535u
#define LOG_EVENT_WORDS_MAX (LOG_EVENT_WORDS + (LOG_DATA_MAX + 3u) / 4u)

/* Slots taken by an event record with len bytes of data. */
static inline uint32_t log_event_slots(uint32_t len)
{
    return (uint32_t)slot_count(LOG_EVENT_WORDS + (len + 3u) / 4u);
}

/* The automatic STOP of an UNTIL_FULL log: its record's slots (an int). */
#define LOG_STOP_SLOTS     5u

/* Encodes event h (its data: len bytes at data, len = h->len without the
 * truncation flag) into out[0..cap-1]: one USER-class event whose code is
 * the event id.  clk gives the slot timestamp (KSP-9); words is scratch of
 * LOG_EVENT_WORDS_MAX words.  Returns the slots written, or 0 if cap is too
 * small (nothing written, the clock untouched). */
size_t log_encode_event(const struct rec_hdr *h, const void *data, struct slot_clock *clk,
                        uint32_t *words, traceevent_t *out, size_t cap);

/* A decoded event: the ring's header layout with the exact data length in
 * len, REC_TRUNCATED set if it was truncated when recorded. */
/* Decodes ev (a delivered slot event) as an event record: fills *h and
 * copies the data (h->len & REC_LEN_MASK bytes, at most 4 * ev->nwords) to
 * data.  0, or EINVAL: not a complete USER-class record of an event code,
 * too few words, or a data length the payload does not hold. */
int log_decode_event(const struct slot_event *ev, struct rec_hdr *h, unsigned char *data);

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
