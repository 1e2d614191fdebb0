/* SPDX-License-Identifier: MIT */
/*
 * log_writer.c -- writing a trace log file (log_writer.h, LOGFORMAT.md).
 *
 * The order of the writes is what keeps a log readable whatever moment its
 * writer is stopped at (a process killed mid-flush, a full disk):
 *   - a segment's records are written first, its BUFFER slot (which says how
 *     many slots are in use) afterwards, so that a reader never reads past
 *     what was written;
 *   - a LOOP segment slot about to be reused is first wiped, with a BUFFER
 *     slot saying "no events yet", so that an older segment's records never
 *     show through a write cut short;
 *   - the two status records are written in turn, so that one of them is
 *     always whole.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stream/event_names.h"
#include "log/log_writer.h"
#include "stream/stream.h"
#include "slot/trace_file.h"

static void note(struct log_writer *w, int rc)
{
    if (rc != 0 && w->error == 0)
        w->error = rc;                                  /* S0253, S0254 */
    if (rc != 0 && w->first_error == 0)
        w->first_error = rc;
}

/* Writes n bytes at off; 0 or the error of the write that failed, with
 * *done (if not NULL) the bytes written before it. */
static int write_at(int fd, const void *buf, size_t n, uint64_t off, size_t *done)
{
    const unsigned char *p = buf;
    if (done != NULL)
        *done = 0;
    while (n > 0) {
        ssize_t r = pwrite(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0)
            return EIO;
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
        if (done != NULL)
            *done += (size_t)r;
    }
    return 0;
}

/* ---- slots, little-endian whatever the host (LOGFORMAT section 1) ------------------ */

/* Writes n slots at off, little-endian: the same bytes on every host, so
 * that a scenario gives the same log everywhere (issue 14).  *done (if not
 * NULL): the bytes written, also when the write fails part way. */
static int write_slots_at(int fd, const traceevent_t *s, size_t n, uint64_t off, size_t *done)
{
    if (!trace_file_host_big_endian())
        return write_at(fd, s, n * sizeof *s, off, done);
    unsigned char buf[256 * sizeof(traceevent_t)];
    size_t part = 0, total = 0;
    int rc = 0;
    while (n > 0 && rc == 0) {
        size_t k = n < 256 ? n : 256;
        trace_file_slots_le(s, k, buf);
        rc = write_at(fd, buf, k * sizeof *s, off, &part);
        total += part;
        s += k;
        n -= k;
        off += k * sizeof *s;
    }
    if (done != NULL)
        *done = total;
    return rc;
}

/* ---- creation ------------------------------------------------------------------ */

/* The header is written by the caller of create_withlog, not by the flusher:
 * a file size limit below the header and metadata area would raise SIGXFSZ
 * in the caller's thread and kill it (issue 20), hence log_xfsz_hold. */
void log_xfsz_hold(struct log_xfsz_hold *h)
{
    sigset_t one, pending;
    sigemptyset(&one);
    sigaddset(&one, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &one, &h->old);
    h->was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
}

void log_xfsz_release(const struct log_xfsz_hold *h)
{
    sigset_t one, pending;
    sigemptyset(&one);
    sigaddset(&one, SIGXFSZ);
    if (!h->was_pending && sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1) {
        const struct timespec now = { 0, 0 };
        while (sigtimedwait(&one, NULL, &now) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &h->old, NULL);
}

/* The header text (LOGFORMAT section 1); *len its length. */
static char *build_header(const trace_attr_t *attr, const struct log_geometry *g, size_t *len)
{
    char date[48], meta[16], seg[16], segments[24];
    snprintf(date, sizeof date, "%lld.%09ld", (long long)attr->__createtime.tv_sec,
             attr->__createtime.tv_nsec);
    snprintf(meta, sizeof meta, "%u", (unsigned)g->meta_bytes);
    snprintf(seg, sizeof seg, "%u", (unsigned)g->seg_bytes);
    snprintf(segments, sizeof segments, "%llu", (unsigned long long)g->segments);
    const struct trace_file_attr extra[] = {
        { LOG_KEY_MARK, LOG_FORMAT_VERSION },
        { LOG_KEY_META, meta },
        { LOG_KEY_SEG, seg },
        { LOG_KEY_POLICY, log_policy_name(g->policy) },
        { LOG_KEY_SEGMENTS, segments },
    };
    const struct trace_file_meta m = {
        .file_name = LOG_FILE_NAME, .date = date, .boot_date = date,
        .cycles_per_sec = 1000000000u, .cpu_num = SLOT_NCPUS,
        .sysname = "posixtrace", .nodename = "posixtrace", .sys_release = "0.1",
        .sys_version = "reference",
        .machine = "little-endian", .order = TRACE_FILE_LITTLE_ENDIAN,
        .extra = extra, .nextra = sizeof extra / sizeof extra[0],
    };
    size_t n = 0;
    if (trace_file_header_build(&m, NULL, 0, &n) != ENOSPC)
        return NULL;
    char *buf = malloc(n);
    if (buf != NULL && trace_file_header_build(&m, buf, n, &n) != 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Encodes a metadata record into out (cap slots); returns the slots. */
static size_t meta_record(unsigned code, uint32_t stamp, const uint32_t *words, size_t nwords,
                          traceevent_t *out, size_t cap)
{
    struct slot_key key;
    size_t n = 0;
    log_meta_key(&key, code, stamp);
    return slot_encode_words(&key, words, nwords, out, cap, &n) == 0 ? n : 0;
}

/* The names opened since the last write, encoded at area[names_slot...];
 * returns the slots added. */
static uint32_t encode_names(struct log_writer *w, traceevent_t *area, uint32_t cap)
{
    uint32_t words[LOG_NAME_WORDS_MAX], start = w->names_slot;
    if (cap > LOG_META_SLOTS - w->names_slot)
        cap = LOG_META_SLOTS - w->names_slot;
    struct name_table *t = w->names;
    unsigned count = t != NULL ? event_names_count(t) : 0;
    char name[TRACE_EVENT_NAME_MAX + 1];
    while (w->names_written < count) {
        trace_event_id_t id = FIRST_NAMED_USER_EVENT + w->names_written;
        if (event_names_get(t, id, name) != 0)
            break;
        uint32_t nw = log_name_words(id, name, words);
        size_t n = meta_record(LOG_CODE_NAME, id, words, nw, area + (w->names_slot - start),
                               cap - (w->names_slot - start));
        if (n == 0)
            break;                  /* cannot happen: the area holds every name */
        w->names_slot += (uint32_t)n;
        w->names_written++;
    }
    return w->names_slot - start;
}

static void status_fill(struct log_writer *w, struct log_status *st)
{
    st->seg_seq = (uint32_t)w->k;
    st->seg_used = w->on_disk;
    st->events = w->written;
    st->log_lost = w->lost;
    st->write_error = w->first_error;
}

int log_writer_create(struct log_writer *w, int fd, const trace_attr_t *attr,
                      const struct log_status *initial)
{
    struct name_table *names = w->names;
    memset(w, 0, sizeof *w);
    w->names = names;
    w->fd = fd;
    size_t biggest = attr->__max_datasize > SYSTEM_EVENT_DATA_MAX ? attr->__max_datasize
                                                                  : SYSTEM_EVENT_DATA_MAX;
    struct log_geometry *g = &w->g;
    g->policy = attr->__log_fullpolicy;
    g->meta_bytes = LOG_META_BYTES;
    g->seg_bytes = log_seg_bytes_for(biggest);
    g->seg_slots = g->seg_bytes / sizeof(traceevent_t);
    g->segments = log_segments_for(g->policy, attr->__log_maxsize, g->seg_bytes);

    size_t hlen = 0;
    char *header = build_header(attr, g, &hlen);
    traceevent_t *area = calloc(LOG_META_SLOTS, sizeof *area);
    unsigned char *file = malloc(hlen + LOG_META_BYTES);
    w->seg = malloc(g->seg_bytes);
    w->words = malloc(LOG_DATA_WORDS_MAX * sizeof *w->words);
    w->ends = malloc(g->seg_slots * sizeof *w->ends);
    if (g->policy == POSIX_TRACE_LOOP)
        w->zeros = calloc(1, g->seg_bytes);
    int rc = 0;
    if (header == NULL || area == NULL || file == NULL || w->seg == NULL ||
        w->words == NULL || w->ends == NULL || (g->policy == POSIX_TRACE_LOOP && w->zeros == NULL))
        rc = ENOMEM;
    if (rc == 0) {
        g->meta_off = hlen;
        g->seg_off = hlen + LOG_META_BYTES;
        w->used = 1;                                /* the BUFFER slot */
        log_context_reset(&w->ctx);

        /* The metadata area: attributes, the first status, the names. */
        uint32_t words[LOG_ATTR_WORDS];
        log_attr_words(attr, words);
        meta_record(LOG_CODE_ATTR, 0, words, LOG_ATTR_WORDS, area + LOG_META_ATTR_SLOT,
                    LOG_ATTR_SLOTS);
        struct log_status st = *initial;
        st.counter = 0;
        status_fill(w, &st);
        log_status_words(&st, words);
        meta_record(LOG_CODE_STATUS, 0, words, LOG_STATUS_WORDS,
                    area + LOG_META_STATUS_SLOT(0), LOG_STATUS_SLOTS);
        w->names_slot = LOG_META_NAMES_SLOT;
        encode_names(w, area + LOG_META_NAMES_SLOT, LOG_META_SLOTS - LOG_META_NAMES_SLOT);

        /* Header and metadata area in one write, then a file of that length
         * (an older, longer file is cut). */
        memcpy(file, header, hlen);
        trace_file_slots_le(area, LOG_META_SLOTS, file + hlen);
        struct log_xfsz_hold hold;
        log_xfsz_hold(&hold);
        rc = write_at(fd, file, hlen + LOG_META_BYTES, 0, NULL);
        if (rc == 0 && ftruncate(fd, (off_t)(hlen + LOG_META_BYTES)) != 0)
            rc = errno;
        log_xfsz_release(&hold);
    }
    free(header);
    free(area);
    free(file);
    if (rc != 0)
        log_writer_free(w);
    return rc;
}

void log_writer_free(struct log_writer *w)
{
    free(w->seg);
    free(w->zeros);
    free(w->words);
    free(w->ends);
    w->seg = w->zeros = NULL;
    w->words = w->ends = NULL;
}

/* ---- segments ------------------------------------------------------------------ */

static uint64_t seg_pos(const struct log_writer *w)
{
    return log_seg_offset(&w->g, log_seg_slot(&w->g, w->k));
}

static traceevent_t buffer_slot(const struct log_writer *w, uint32_t used)
{
    traceevent_t b;
    b.header = slot_header(_TRACE_STRUCT_S, 0, SLOT_CLASS_CONTROL, _TRACE_CONTROL_BUFFER);
    b.data[0] = w->first_ts;
    b.data[1] = (uint32_t)w->k;                         /* KSP-19: its sequence number */
    b.data[2] = used;
    return b;
}

/* Events of the segment whose records end within its first `slots` slots
 * (from disk_events on: records are written in order). */
static uint64_t events_within(const struct log_writer *w, uint32_t slots)
{
    uint64_t e = w->disk_events;
    while (e < w->seg_events && w->ends[e] <= slots)
        e++;
    return e;
}

static void note_written(struct log_writer *w, uint64_t events)
{
    if (events <= w->disk_events)
        return;
    w->written += events - w->disk_events;
    w->disk_events = events;
    w->on_disk = w->ends[events - 1];
}

void log_writer_sync(struct log_writer *w)
{
    if (w->used <= w->on_disk || w->used <= 1)
        return;
    uint64_t off = seg_pos(w);
    int rc;
    if (w->on_disk == 0 && w->g.policy == POSIX_TRACE_LOOP && w->k >= w->g.segments) {
        /* A reused slot: wiped first, so that a cut write never lets the
         * records of the segment that was there show through. */
        w->zeros[0] = buffer_slot(w, 1);
        rc = write_slots_at(w->fd, w->zeros, w->g.seg_bytes / sizeof(traceevent_t), off, NULL);
        memset(&w->zeros[0], 0, sizeof w->zeros[0]);
        if (rc != 0) {
            note(w, rc);
            return;
        }
        w->on_disk = w->counted = 1;
    }
    uint32_t from = w->on_disk > 1 ? w->on_disk : 1;
    size_t done = 0;
    rc = write_slots_at(w->fd, w->seg + from, w->used - from,
                        off + from * sizeof(traceevent_t), &done);
    /* The whole records that reached the file, even if the write failed
     * part way: the BUFFER slot counts them. */
    uint64_t e = events_within(w, from + (uint32_t)(done / sizeof(traceevent_t)));
    if (e > w->disk_events) {
        uint32_t end = w->ends[e - 1];
        traceevent_t b = buffer_slot(w, end);
        int rb = write_slots_at(w->fd, &b, 1, off, NULL);
        /* A reader reads them if their BUFFER slot counts them, or if it was
         * never written (a reader then reads up to the first zero slot,
         * LOGFORMAT section 2): then they are written. */
        if (rb == 0)
            w->counted = end;
        if (rb == 0 || w->counted == 0)
            note_written(w, e);
        note(w, rb);
    }
    note(w, rc);
}

/* Closes the current segment (written) and begins the next. */
static void next_segment(struct log_writer *w)
{
    log_writer_sync(w);
    if (w->disk_events < w->seg_events) {
        /* Its last records could not be written: they are lost. */
        w->lost += w->seg_events - w->disk_events;
        w->overrun = 1;
    }
    w->k++;
    w->used = 1;
    w->on_disk = w->counted = 0;
    w->seg_events = w->disk_events = 0;
    log_context_reset(&w->ctx);
    if (w->g.policy == POSIX_TRACE_LOOP && w->k >= w->g.segments) {
        w->full = 1;                    /* the oldest segment goes: S0024, S0105 */
        w->overrun = 1;
        w->wraps++;
    }
}

/* Encodes an event into the current segment if it fits, keeping `keep`
 * slots free: 1, else 0 (nothing written). */
static int put_keeping(struct log_writer *w, const struct rec_hdr *h, const void *data,
                       uint32_t keep)
{
    uint32_t room = w->g.seg_slots - w->used;
    if (room < keep)
        return 0;
    size_t n = log_encode_event(&w->ctx, h, data, w->words, w->seg + w->used, room - keep);
    if (n == 0)
        return 0;
    if (w->used == 1)
        w->first_ts = (uint32_t)h->ts;
    w->used += (uint32_t)n;
    w->ends[w->seg_events++] = w->used;
    return 1;
}

void log_writer_append(struct log_writer *w, const struct rec_hdr *h, const void *data)
{
    uint32_t len = h->len & REC_LEN_MASK;
    if ((w->g.policy == POSIX_TRACE_UNTIL_FULL && w->full) || len > LOG_DATA_MAX ||
        log_event_slots(len) + LOG_CONTEXT_SLOTS_MAX + 1 > w->g.seg_slots) {
        w->lost++;                                      /* S0026, S0104 */
        w->overrun = 1;
        return;
    }
    for (;;) {
        /* The encoder checks the room (it works out what the event needs
         * once): the event goes in, or the segment is full. */
        int last = w->g.policy == POSIX_TRACE_UNTIL_FULL && w->k + 1 >= w->g.segments;
        if (put_keeping(w, h, data, last ? LOG_STOP_SLOTS : 0))
            return;
        if (last) {
            /* UNTIL_FULL: STOP is the log's last event (S0027). */
            static const int automatic = 1;
            struct rec_hdr stop = {
                .ts = h->ts, .id = POSIX_TRACE_STOP, .len = sizeof automatic, .cpu = -1,
            };
            put_keeping(w, &stop, &automatic, 0);
            w->full = 1;
            w->lost++;
            w->overrun = 1;
            return;
        }
        next_segment(w);
    }
}

uint64_t log_writer_end(const struct log_writer *w)
{
    return seg_pos(w) + (uint64_t)w->used * sizeof(traceevent_t);
}

void log_writer_clear(struct log_writer *w)
{
    if (w->g.policy == POSIX_TRACE_APPEND) {
        log_writer_sync(w);             /* keeps what it has (S0066: unspecified) */
        return;
    }
    /* S0066-S0068: the log starts again, empty and not full. */
    if (ftruncate(w->fd, (off_t)w->g.seg_off) != 0)
        note(w, errno);
    w->k = 0;
    w->used = 1;
    w->on_disk = w->counted = 0;
    w->seg_events = w->disk_events = 0;
    log_context_reset(&w->ctx);
    w->full = 0;
    w->overrun = 0;
}

/* ---- metadata -------------------------------------------------------------------- */

void log_writer_write_meta(struct log_writer *w, struct log_status *st)
{
    traceevent_t names[64];
    uint32_t from, n;
    /* The names first, a few at a time: the status, written last, is what
     * says the metadata is up to date. */
    while (from = w->names_slot,
           (n = encode_names(w, names, sizeof names / sizeof names[0])) > 0)
        note(w, write_slots_at(w->fd, names, n,
                               w->g.meta_off + (uint64_t)from * sizeof(traceevent_t), NULL));
    if (st->complete && w->disk_events < w->seg_events) {
        /* The last events that could not be written: discarded. */
        w->lost += w->seg_events - w->disk_events;
        w->seg_events = w->disk_events;
        w->used = w->on_disk > 1 ? w->on_disk : 1;
        w->overrun = 1;
        st->st.posix_log_overrun_status = POSIX_TRACE_OVERRUN;     /* S0257 */
    }
    uint32_t words[LOG_STATUS_WORDS];
    traceevent_t rec[LOG_STATUS_SLOTS];
    st->counter = ++w->meta_counter;
    status_fill(w, st);
    log_status_words(st, words);
    meta_record(LOG_CODE_STATUS, st->counter, words, LOG_STATUS_WORDS, rec, LOG_STATUS_SLOTS);
    note(w, write_slots_at(w->fd, rec, LOG_STATUS_SLOTS,
                           w->g.meta_off + LOG_META_STATUS_SLOT(st->counter & 1u) *
                                           sizeof(traceevent_t), NULL));
}

int log_writer_take_error(struct log_writer *w)
{
    int rc = w->error;
    w->error = 0;
    return rc;
}

int log_writer_take_overrun(struct log_writer *w)
{
    int o = w->overrun;
    w->overrun = 0;
    return o;
}
