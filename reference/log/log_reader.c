/* SPDX-License-Identifier: MIT */
/*
 * log_reader.c -- reading a trace log file (log_reader.h, LOGFORMAT
 * section 8).
 *
 * Slots are decoded by the slot codec (slot_decode.c) fed in the file's
 * byte order by trace_file_feed(); this file finds the metadata records and
 * the segments, puts a LOOP log's segments back in order by their sequence
 * numbers, and checks every record before it believes it.  Every size it
 * uses comes from the geometry it checked at open, never from a record, so
 * that no input can make it read out of bounds or allocate without bound.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stream/attr.h"
#include "stream/event_names.h"
#include "log/log_reader.h"

#define NAMES  (TRACE_USER_EVENT_MAX - 1)

enum { MODE_META, MODE_SEGMENT };

struct log_reader {
    struct log_source src;
    log_error_fn on_error;
    void *user;
    struct trace_file_info *info;
    int out_of_memory;          /* the decoder could not hold a record */
    struct log_geometry g;
    uint64_t nslots;                /* segment slots present in the file */

    trace_attr_t attr;
    int have_attr;
    struct log_status status;
    int have_status;
    char (*names)[TRACE_EVENT_NAME_MAX + 1];    /* by id - FIRST_NAMED_USER_EVENT */
    unsigned char has_name[NAMES];

    /* Segments in reading order: slot (start + i) % nslots, i = 0, 1, ... */
    uint64_t start;
    uint64_t visited;
    uint64_t newest;                /* LOOP: the highest sequence number found */
    int have_newest;
    uint64_t last_seq;              /* of the last segment read */
    int have_last;
    uint32_t cur_seq;
    struct log_context ctx;         /* of the segment being decoded */

    unsigned char *raw;             /* its bytes as read */
    unsigned char *dec;             /* its events, decoded: rec_hdr + data */
    size_t dec_len, dec_pos, dec_cap;
    uint64_t *dec_off;              /* offset of each decoded event */
    size_t dec_n, dec_i, dec_off_cap;

    struct slot_decoder d;
    int d_ok;
    int mode;
    struct log_reader_stats stats;
};

/* ---- errors -------------------------------------------------------------------- */

static void report(struct log_reader *r, uint64_t offset, const char *fmt, ...)
{
    char msg[256];
    int n = snprintf(msg, sizeof msg, "offset %llu: ", (unsigned long long)offset);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof msg)
        vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    r->stats.errors++;
    if (r->on_error)
        r->on_error(r->user, offset, msg);
}

static void on_slot_error(void *user, const struct slot_error *e)
{
    struct log_reader *r = user;
    char msg[256];
    slot_error_format(e, msg, sizeof msg);
    r->stats.errors++;
    if (e->kind == SLOT_ERR_NO_MEMORY)
        r->out_of_memory = 1;
    if (r->on_error)
        r->on_error(r->user, e->offset, msg);
}

static int reject(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return EINVAL;
}

/* ---- reading bytes ------------------------------------------------------------- */

/* Reads up to n bytes at off; returns the bytes read (fewer at the end of
 * the log, or after a read error). */
static size_t src_read(const struct log_reader *r, void *buf, size_t n, uint64_t off)
{
    if (off >= r->src.len)
        return 0;
    if (n > r->src.len - off)
        n = (size_t)(r->src.len - off);
    if (r->src.mem != NULL) {
        memcpy(buf, r->src.mem + off, n);
        return n;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(r->src.fd, (unsigned char *)buf + got, n - got, (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    return got;
}

static uint32_t load32(const unsigned char *p, int big_endian)
{
    if (big_endian)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* One slot at p in the file's byte order, in host order. */
static traceevent_t slot_at(const struct log_reader *r, const unsigned char *p)
{
    traceevent_t t;
    int be = r->info->big_endian;
    t.header = load32(p, be);
    for (int i = 0; i < 3; i++)
        t.data[i] = load32(p + 4 + 4 * i, be);
    return t;
}

/* ---- the header ---------------------------------------------------------------- */

static int decimal(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    if (s == NULL || *s == '\0' || strlen(s) > 19)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return 0;
}

static int read_geometry(struct log_reader *r, char *err, size_t errlen)
{
    const struct trace_file_info *info = r->info;
    const char *mark = trace_file_value(info, LOG_KEY_MARK);
    const char *policy = trace_file_value(info, LOG_KEY_POLICY);
    uint64_t meta, seg, segments;
    if (mark == NULL)
        return reject(err, errlen, "not a POSIX trace log: no TRACE_" LOG_KEY_MARK ":: in "
                      "its header");
    if (strcmp(mark, LOG_FORMAT_VERSION) != 0)
        return reject(err, errlen, "a POSIX trace log of format version %.20s "
                      "(TRACE_" LOG_KEY_MARK "::%.20s): this reader reads version "
                      LOG_FORMAT_VERSION " only", mark, mark);
    if (info->syspage_len != 0)
        return reject(err, errlen, "not a POSIX trace log: TRACE_SYSPAGE_LEN:: is not 0");
    if (decimal(trace_file_value(info, LOG_KEY_META), &meta) != 0 || meta % 16 != 0 ||
        meta < LOG_META_MIN || meta > LOG_META_MAX)
        return reject(err, errlen, "bad TRACE_" LOG_KEY_META ":: (a multiple of 16 from %u "
                      "to %u)", LOG_META_MIN, LOG_META_MAX);
    if (decimal(trace_file_value(info, LOG_KEY_SEG), &seg) != 0 || seg < LOG_SEG_MIN ||
        seg > LOG_SEG_MAX || (seg & (seg - 1)) != 0)
        return reject(err, errlen, "bad TRACE_" LOG_KEY_SEG ":: (a power of two from %u to "
                      "%u)", LOG_SEG_MIN, LOG_SEG_MAX);
    r->g.policy = policy ? log_policy_of(policy) : 0;
    if (r->g.policy == 0)
        return reject(err, errlen, "bad TRACE_" LOG_KEY_POLICY ":: (LOOP, UNTIL_FULL or "
                      "APPEND)");
    if (decimal(trace_file_value(info, LOG_KEY_SEGMENTS), &segments) != 0 ||
        (r->g.policy == POSIX_TRACE_APPEND ? segments != 0
                                           : segments < 2 || segments > LOG_SEGMENTS_MAX))
        return reject(err, errlen, "bad TRACE_" LOG_KEY_SEGMENTS ":: (0 for APPEND, else 2 "
                      "to %llu)", (unsigned long long)LOG_SEGMENTS_MAX);
    r->g.meta_off = info->header_len;
    r->g.meta_bytes = (uint32_t)meta;
    r->g.seg_off = info->header_len + meta;
    r->g.seg_bytes = (uint32_t)seg;
    r->g.seg_slots = (uint32_t)(seg / sizeof(traceevent_t));
    r->g.segments = segments;
    uint64_t len = r->src.len;
    r->nslots = len > r->g.seg_off ? (len - r->g.seg_off + seg - 1) / seg : 0;
    if (r->g.policy != POSIX_TRACE_APPEND && r->nslots > segments)
        r->nslots = segments;       /* what lies beyond the ring is no segment */
    return 0;
}

/* ---- decoding ------------------------------------------------------------------ */

static void meta_event(struct log_reader *r, const struct slot_event *ev)
{
    if (ev->cls == SLOT_CLASS_EMPTY)
        return;                                         /* unused slots */
    if (!ev->complete)
        return;                 /* a record cut short: the decoder said so */
    if (ev->cls == SLOT_CLASS_USER && ev->event == LOG_CODE_ATTR) {
        trace_attr_t a;
        posix_trace_attr_init(&a);
        if (log_attr_from_words(ev->words, ev->nwords, &a) == 0) {
            r->attr = a;
            r->have_attr = 1;
            return;
        }
    } else if (ev->cls == SLOT_CLASS_USER && ev->event == LOG_CODE_STATUS) {
        struct log_status s;
        if (log_status_from_words(ev->words, ev->nwords, &s) == 0) {
            /* The two records are written in turn: the later one wins. */
            if (!r->have_status || (int32_t)(s.counter - r->status.counter) > 0)
                r->status = s;
            r->have_status = 1;
            return;
        }
    } else if (ev->cls == SLOT_CLASS_USER && ev->event == LOG_CODE_NAME) {
        trace_event_id_t id;
        char name[TRACE_EVENT_NAME_MAX + 1];
        if (log_name_from_words(ev->words, ev->nwords, &id, name) == 0) {
            unsigned i = id - FIRST_NAMED_USER_EVENT;
            memcpy(r->names[i], name, sizeof name);
            r->has_name[i] = 1;
            return;
        }
    }
    report(r, ev->offset, "not a metadata record of a POSIX log (class %u, event %u, %u "
           "words)", ev->cls, ev->event, (unsigned)ev->nwords);
}

static void segment_event(struct log_reader *r, const struct slot_event *ev)
{
    if (ev->cls == SLOT_CLASS_EMPTY)
        return;                                         /* zeros: skipped */
    if (!ev->complete)
        return;                 /* a record cut short: the decoder said so */
    int ctx = log_context_apply(&r->ctx, ev);
    if (ctx > 0)
        return;
    size_t room = r->dec_cap - r->dec_len;
    struct rec_hdr h;
    unsigned char *data = r->dec + r->dec_len + REC_HDR_SIZE;
    /* A decoded record is never longer than its slots' data and a header;
     * the room is checked all the same. */
    if (ctx == 0 && room >= REC_HDR_SIZE && 4u * (uint64_t)ev->nwords <= room - REC_HDR_SIZE &&
        r->dec_n < r->dec_off_cap && log_decode_event(&r->ctx, ev, &h, data) == 0) {
        uint32_t len = h.len & REC_LEN_MASK;
        memcpy(r->dec + r->dec_len, &h, sizeof h);
        memset(data + len, 0, rec_size(len) - REC_HDR_SIZE - len);
        r->dec_len += rec_size(len);
        r->dec_off[r->dec_n++] = ev->offset;
        return;
    }
    r->stats.bad_records++;
    report(r, ev->offset, "not a POSIX event record in its context (class %u, event %u, %u "
           "words)", ev->cls, ev->event, (unsigned)ev->nwords);
}

static void on_slot_event(void *user, const struct slot_event *ev)
{
    struct log_reader *r = user;
    if (r->mode == MODE_META)
        meta_event(r, ev);
    else
        segment_event(r, ev);
}

/* Feeds n bytes of slots at file offset off to the decoder and finishes. */
static void decode(struct log_reader *r, const unsigned char *bytes, size_t n, uint64_t off)
{
    size_t whole = n - n % sizeof(traceevent_t);
    trace_file_feed(r->info, &r->d, bytes, whole, off);
    if (whole < n)
        slot_decoder_report_cut(&r->d, off + whole, (unsigned)(n - whole));
    slot_decoder_finish(&r->d);
}

static int read_meta(struct log_reader *r, char *err, size_t errlen)
{
    size_t n = src_read(r, r->raw, r->g.meta_bytes, r->g.meta_off);
    r->mode = MODE_META;
    decode(r, r->raw, n, r->g.meta_off);
    if (!r->have_attr)
        return reject(err, errlen, "offset %llu: no attributes record in the metadata area "
                      "(cut short before its first write, or not a POSIX trace log)",
                      (unsigned long long)r->g.meta_off);
    /* A log with a max-data-size whose records do not fit its segments is
     * none of ours. */
    size_t biggest = r->attr.__max_datasize > 2 * sizeof(trace_event_set_t)
                         ? r->attr.__max_datasize : 2 * sizeof(trace_event_set_t);
    if (log_seg_bytes_for(biggest) > r->g.seg_bytes)
        return reject(err, errlen, "TRACE_" LOG_KEY_SEG ":: %u is too small for "
                      "max-data-size %zu", (unsigned)r->g.seg_bytes,
                      (size_t)r->attr.__max_datasize);
    return 0;
}

/* ---- segments ------------------------------------------------------------------ */

/* The BUFFER slot of segment slot `slot`: 0 and *b (a BUFFER slot never
 * written, all zeros, is that of a slot used for the first time, whose
 * segment number is the slot's: LOGFORMAT section 2), or -1. */
static int buffer_of(struct log_reader *r, uint64_t slot, traceevent_t *b)
{
    unsigned char bytes[sizeof(traceevent_t)];
    static const unsigned char zero[sizeof(traceevent_t)];
    if (src_read(r, bytes, sizeof bytes, log_seg_offset(&r->g, slot)) != sizeof bytes)
        return -1;
    uint32_t expect = slot_header(_TRACE_STRUCT_S, 0, SLOT_CLASS_CONTROL,
                                  _TRACE_CONTROL_BUFFER);
    if (memcmp(bytes, zero, sizeof zero) == 0) {
        b->header = expect;
        b->data[0] = 0;
        b->data[1] = (uint32_t)slot;
        b->data[2] = 0;                 /* no count: records up to a zero slot */
        return 0;
    }
    *b = slot_at(r, bytes);
    uint64_t seq = b->data[1];
    if (b->header != expect || b->data[2] < 1 || b->data[2] > r->g.seg_slots)
        return -1;
    if (r->g.policy == POSIX_TRACE_LOOP ? seq % r->g.segments != slot % r->g.segments
                                        : seq != (uint32_t)slot)
        return -1;
    return 0;
}

/* Bytes of a segment read in `got` bytes at raw that hold its records: up
 * to its BUFFER slot's count; for a BUFFER slot never written (count 0
 * here), up to the first zero slot (LOGFORMAT section 2). */
static size_t records_end(const unsigned char *raw, size_t got, uint32_t count)
{
    static const unsigned char zero[sizeof(traceevent_t)];
    if (count > 0)
        return (size_t)count * sizeof(traceevent_t) < got ? (size_t)count * sizeof(traceevent_t)
                                                          : got;
    size_t end = sizeof(traceevent_t);
    while (end + sizeof(traceevent_t) <= got && memcmp(raw + end, zero, sizeof zero) != 0)
        end += sizeof(traceevent_t);
    if (end < got && got - end < sizeof(traceevent_t))
        end = got;                      /* a last slot cut short: reported */
    return end;
}

/* LOOP: the newest segment, whose slot is followed by the oldest. */
static void find_start(struct log_reader *r)
{
    r->start = 0;
    if (r->g.policy != POSIX_TRACE_LOOP || r->nslots == 0)
        return;
    uint64_t newest_slot = 0;
    traceevent_t b;
    for (uint64_t i = 0; i < r->nslots; i++)
        if (buffer_of(r, i, &b) == 0 && (!r->have_newest || b.data[1] > r->newest)) {
            r->newest = b.data[1];
            r->have_newest = 1;
            newest_slot = i;
        }
    r->start = (newest_slot + 1) % r->nslots;
}

/* Decodes the next segment in reading order.  0, or -1 at the end. */
static int next_segment(struct log_reader *r)
{
    while (r->visited < r->nslots) {
        uint64_t slot = (r->start + r->visited) % r->nslots;
        uint64_t off = log_seg_offset(&r->g, slot);
        traceevent_t b;
        r->visited++;
        if (buffer_of(r, slot, &b) != 0) {
            r->stats.segments_skipped++;
            report(r, off, "segment slot %llu holds no valid segment (no BUFFER slot with "
                   "its sequence number and count)", (unsigned long long)slot);
            continue;
        }
        uint64_t seq = b.data[1];
        if (r->g.policy == POSIX_TRACE_LOOP &&
            ((r->have_last && seq <= r->last_seq) || seq + r->g.segments <= r->newest)) {
            r->stats.segments_skipped++;
            report(r, off, "segment %llu in slot %llu is out of order: skipped",
                   (unsigned long long)seq, (unsigned long long)slot);
            continue;
        }
        r->have_last = 1;
        r->last_seq = seq;
        r->cur_seq = (uint32_t)seq;
        r->stats.segments++;

        size_t want = (size_t)b.data[2] * sizeof(traceevent_t);
        size_t got = src_read(r, r->raw, want > 0 ? want : r->g.seg_bytes, off);
        if (got < want) {
            r->stats.segments_cut++;
            report(r, off + got, "segment %llu cut short: the log ends %zu bytes into it, "
                   "its BUFFER slot counts %u slots (%zu bytes): read up to its last whole "
                   "record", (unsigned long long)seq, got, (unsigned)b.data[2], want);
        }
        got = records_end(r->raw, got, b.data[2]);
        r->dec_len = r->dec_pos = 0;
        r->dec_n = r->dec_i = 0;
        r->mode = MODE_SEGMENT;
        log_context_reset(&r->ctx);
        if (got > sizeof(traceevent_t))
            decode(r, r->raw + sizeof(traceevent_t), got - sizeof(traceevent_t),
                   off + sizeof(traceevent_t));
        if (r->dec_len > 0)
            return 0;
    }
    return -1;
}

int log_reader_next(struct log_reader *r, struct log_event *ev)
{
    while (r->dec_pos >= r->dec_len)
        if (next_segment(r) != 0)
            return 0;
    memcpy(&ev->h, r->dec + r->dec_pos, sizeof ev->h);
    ev->data = r->dec + r->dec_pos + REC_HDR_SIZE;
    ev->offset = r->dec_off[r->dec_i++];
    ev->seg_seq = r->cur_seq;
    r->dec_pos += rec_size(ev->h.len & REC_LEN_MASK);
    r->stats.events++;
    return 1;
}

void log_reader_rewind(struct log_reader *r)
{
    r->visited = 0;
    r->have_last = 0;
    r->dec_len = r->dec_pos = 0;
    r->dec_n = r->dec_i = 0;
    memset(&r->stats, 0, sizeof r->stats);
}

/* ---- open and close -------------------------------------------------------------- */

void log_reader_close(struct log_reader *r)
{
    if (r == NULL)
        return;
    if (r->d_ok)
        slot_decoder_free(&r->d);
    free(r->info);
    free(r->names);
    free(r->raw);
    free(r->dec);
    free(r->dec_off);
    free(r);
}

int log_reader_open(const struct log_source *src, log_error_fn on_error, void *user,
                    struct log_reader **out, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    struct log_reader *r = calloc(1, sizeof *r);
    if (r == NULL)
        return ENOMEM;
    r->src = *src;
    r->on_error = on_error;
    r->user = user;
    r->info = malloc(sizeof *r->info);
    r->names = calloc(NAMES, sizeof *r->names);
    if (r->info == NULL || r->names == NULL) {
        log_reader_close(r);
        return ENOMEM;
    }
    int rc;
    if (src->mem != NULL) {
        size_t n = src->len < TRACE_FILE_HEADER_MAX ? (size_t)src->len : TRACE_FILE_HEADER_MAX;
        rc = trace_file_parse(src->mem, n, src->len, r->info, err, errlen);
    } else {
        rc = trace_file_read_header(src->fd, r->info, err, errlen);
        r->src.len = r->info->file_len;
    }
    if (rc != 0) {
        log_reader_close(r);
        /* Every way of not being a log (S0081); memory that could not be
         * had is no verdict on the file (the fault loop, issue 20 item 1). */
        return rc == ENOMEM ? ENOMEM : EINVAL;
    }
    if ((rc = read_geometry(r, err, errlen)) != 0) {
        log_reader_close(r);
        return rc;
    }
    size_t raw = r->g.seg_bytes > r->g.meta_bytes ? r->g.seg_bytes : r->g.meta_bytes;
    r->raw = malloc(raw);
    /* A slot's record holds at most 8 bytes of data and becomes a header
     * and those bytes. */
    r->dec_cap = (size_t)r->g.seg_slots * (REC_HDR_SIZE + 2 * sizeof(traceevent_t));
    r->dec = malloc(r->dec_cap);
    r->dec_off_cap = r->g.seg_slots;
    r->dec_off = malloc(r->dec_off_cap * sizeof *r->dec_off);
    struct slot_decoder_config cfg = {
        .on_event = on_slot_event, .on_error = on_slot_error, .user = r,
        .max_held_events = raw / sizeof(traceevent_t),
        .max_held_words = raw / 2,
    };
    if (r->raw == NULL || r->dec == NULL || r->dec_off == NULL ||
        slot_decoder_init(&r->d, &cfg) != 0) {
        log_reader_close(r);
        return ENOMEM;
    }
    r->d_ok = 1;
    if ((rc = read_meta(r, err, errlen)) != 0) {
        /* Metadata the decoder dropped for want of memory is no verdict on
         * the file either. */
        rc = r->out_of_memory ? ENOMEM : rc;
        log_reader_close(r);
        return rc;
    }
    find_start(r);
    *out = r;
    return 0;
}

/* ---- what the metadata says ------------------------------------------------------ */

const trace_attr_t *log_reader_attr(const struct log_reader *r)
{
    return &r->attr;
}

const struct log_status *log_reader_status(const struct log_reader *r, int *have)
{
    *have = r->have_status;
    return &r->status;
}

int log_reader_name(const struct log_reader *r, trace_event_id_t id,
                    char name[TRACE_EVENT_NAME_MAX + 1])
{
    if (id < FIRST_NAMED_USER_EVENT || id - FIRST_NAMED_USER_EVENT >= NAMES ||
        !r->has_name[id - FIRST_NAMED_USER_EVENT])
        return EINVAL;
    memcpy(name, r->names[id - FIRST_NAMED_USER_EVENT], TRACE_EVENT_NAME_MAX + 1);
    return 0;
}

int log_reader_name_nth(const struct log_reader *r, unsigned n, trace_event_id_t *id)
{
    for (unsigned i = 0; i < NAMES; i++)
        if (r->has_name[i] && n-- == 0) {
            *id = FIRST_NAMED_USER_EVENT + i;
            return 0;
        }
    return -1;
}

const struct log_geometry *log_reader_geometry(const struct log_reader *r)
{
    return &r->g;
}

const struct trace_file_info *log_reader_info(const struct log_reader *r)
{
    return r->info;
}

const struct log_reader_stats *log_reader_stats(const struct log_reader *r)
{
    return &r->stats;
}

uint64_t log_reader_slots(const struct log_reader *r)
{
    return r->nslots;
}
