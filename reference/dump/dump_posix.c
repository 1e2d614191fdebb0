/* SPDX-License-Identifier: MIT */
/*
 * dump_posix.c -- the POSIX trace log in tracedump (dump.h; formats in
 * reference/log/LOGFORMAT.md, "tracedump"): a log is read with the log reader
 * (log_reader.c) and printed one POSIX event a line, oldest first, with
 * the log's attributes, event names and status, and every integrity error
 * with its byte offset, as text or as one JSON document.
 *
 * Also a dump layer (dump_posix_layer) for tracedump's slot view of a log
 * (--slots): it names the POSIX records among the file's slots.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dump/dump.h"
#include "stream/event_names.h"
#include "log/log_reader.h"

/* ---- the slot view's layer ---------------------------------------------------- */

static int describe(void *ctx, const struct slot_event *ev, struct dump_desc *d)
{
    (void)ctx;
    if (ev->cls != SLOT_CLASS_USER)
        return 0;
    d->class_name = "POSIX";
    switch (ev->event) {
    case LOG_CODE_ATTR:
        snprintf(d->name, sizeof d->name, "attributes");
        return 1;
    case LOG_CODE_STATUS:
        snprintf(d->name, sizeof d->name, "status");
        if (ev->nwords >= 2) {
            dump_add_num(d, "counter", ev->words[0], 0);
            dump_add_num(d, "complete", ev->words[1], 0);
        }
        return 1;
    case LOG_CODE_NAME:
        snprintf(d->name, sizeof d->name, "event_name");
        if (ev->nwords >= 2) {
            dump_add_num(d, "id", ev->words[0], 0);
            dump_add_bytes(d, "name", ev->words + 2, ev->nwords - 2);
        }
        return 1;
    case LOG_CODE_PID:
        snprintf(d->name, sizeof d->name, "context_pid");
        dump_add_num(d, "pid", ev->words[0], 0);
        return 1;
    case LOG_CODE_THREAD:
        snprintf(d->name, sizeof d->name, "context_thread");
        dump_add_num(d, "thread", (uint64_t)ev->words[1] << 32 | ev->words[0], 1);
        return 1;
    case LOG_CODE_PROG:
        snprintf(d->name, sizeof d->name, "context_prog");
        dump_add_num(d, "prog", (uint64_t)ev->words[1] << 32 | ev->words[0], 1);
        return 1;
    case LOG_CODE_SHAPE:
        snprintf(d->name, sizeof d->name, "context_shape");
        dump_add_num(d, "len", ev->words[0], 0);
        dump_add_num(d, "trunc", ev->words[1] & 3u, 0);
        dump_add_num(d, "cpu1", ev->words[1] >> 16, 0);
        return 1;
    default:
        break;
    }
    /* An event record: its data words (its context is in the records
     * before it). */
    char name[TRACE_EVENT_NAME_MAX + 1];
    if (event_names_system(ev->event, name) == 0)
        snprintf(d->name, sizeof d->name, "%.47s", name);
    else
        snprintf(d->name, sizeof d->name, "user:%u", ev->event);
    return 1;
}

const struct dump_layer dump_posix_layer = { "posix", describe, NULL };

/* ---- the POSIX view ------------------------------------------------------------ */

struct pctx {
    FILE *out;
    const struct dump_options *o;
    int json;
    int header_done;            /* text: errors are printed as they come */
    FILE *errors;               /* errors kept: JSON, until the events are written;
                                 * text, until the header is */
    int errors_failed;
    uint64_t nerrors;
    uint64_t nevents;
    uint64_t shown;             /* events the filter let through */
    int have_prev;
    uint64_t prev_ts;           /* the previous shown event's timestamp (ns) */
    uint64_t by_cpu_class[SLOT_NCPUS][SLOT_NCLASSES];   /* totals: SYSTEM and USER */
};

/* A string for text output: printable ASCII, the rest escaped. */
static void text_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\')
            fputc(ch, f);
        else
            fprintf(f, "\\x%02x", ch);
    }
    fputc('"', f);
}

static void on_error(void *user, uint64_t offset, const char *msg)
{
    struct pctx *c = user;
    c->nerrors++;
    if (!c->json && c->header_done) {
        fprintf(c->out, "ERROR %s\n", msg);
        return;
    }
    if (c->errors == NULL && !c->errors_failed) {
        c->errors = tmpfile();
        if (c->errors == NULL)
            c->errors_failed = errno ? errno : EIO;
    }
    if (c->errors == NULL)
        return;
    if (!c->json) {
        fprintf(c->errors, "ERROR %s\n", msg);
        return;
    }
    fprintf(c->errors, "%s\n{\"offset\":%" PRIu64 ",\"message\":", c->nerrors > 1 ? "," : "",
            offset);
    dump_json_str(c->errors, msg);
    fputc('}', c->errors);
}

static const char *stream_policy(int p)
{
    switch (p) {
    case POSIX_TRACE_LOOP:       return "LOOP";
    case POSIX_TRACE_UNTIL_FULL: return "UNTIL_FULL";
    case POSIX_TRACE_FLUSH:      return "FLUSH";
    default:                     return "?";
    }
}

static const char *word(int v, int yes, const char *y, const char *n)
{
    return v == yes ? y : n;
}

/* The name of a write error a log's status records ("ENOSPC"), or its
 * number. */
static const char *error_name(int e, char buf[16])
{
    static const struct { int e; const char *name; } names[] = {
        { ENOSPC, "ENOSPC" }, { EFBIG, "EFBIG" }, { EIO, "EIO" }, { EBADF, "EBADF" },
        { EDQUOT, "EDQUOT" }, { EROFS, "EROFS" }, { EINTR, "EINTR" }, { EAGAIN, "EAGAIN" },
        { ENOMEM, "ENOMEM" }, { EPERM, "EPERM" }, { EINVAL, "EINVAL" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].e == e)
            return names[i].name;
    snprintf(buf, 16, "%d", e);
    return buf;
}

static void name_of(const struct log_reader *r, trace_event_id_t id, char *buf)
{
    if (event_names_system(id, buf) != 0 && log_reader_name(r, id, buf) != 0)
        snprintf(buf, TRACE_EVENT_NAME_MAX + 1, "user:%u", id);
}

static void print_header_text(struct pctx *c, const struct log_reader *r)
{
    FILE *f = c->out;
    const struct trace_file_info *i = log_reader_info(r);
    const struct log_geometry *g = log_reader_geometry(r);
    const trace_attr_t *a = log_reader_attr(r);
    fprintf(f, "# tracedump %s: POSIX trace log\n", c->o->name ? c->o->name : "");
    fprintf(f, "# %s-endian; header %" PRIu64 " bytes; metadata %u bytes at offset %" PRIu64
            "; log-full-policy %s, %" PRIu64 " segment slots of %u bytes from offset %" PRIu64,
            i->big_endian ? "big" : "little", i->header_len, (unsigned)g->meta_bytes,
            g->meta_off, log_policy_name(g->policy), log_reader_slots(r),
            (unsigned)g->seg_bytes, g->seg_off);
    if (g->policy != POSIX_TRACE_APPEND)
        fprintf(f, " (ring of %" PRIu64 ")", g->segments);
    fputc('\n', f);
    fputs("# attributes: name ", f);
    text_str(f, a->__name);
    fputs(", generation-version ", f);
    text_str(f, a->__genversion);
    fprintf(f, ", stream-full-policy %s, log-full-policy %s, stream-min-size %zu, "
            "max-data-size %zu, log-max-size %zu, inheritance %s, clock-resolution %lld.%09ld, "
            "creation-time %lld.%09ld\n", stream_policy(a->__stream_fullpolicy),
            log_policy_name(a->__log_fullpolicy), a->__stream_minsize, a->__max_datasize,
            a->__log_maxsize, word(a->__inheritance, POSIX_TRACE_INHERITED, "INHERITED",
                                   "CLOSE_FOR_CHILD"),
            (long long)a->__clockres.tv_sec, a->__clockres.tv_nsec,
            (long long)a->__createtime.tv_sec, a->__createtime.tv_nsec);
    trace_event_id_t id;
    char name[TRACE_EVENT_NAME_MAX + 1];
    fputs("# event names:", f);
    for (unsigned k = 0; log_reader_name_nth(r, k, &id) == 0; k++) {
        log_reader_name(r, id, name);
        fprintf(f, " %u=", id);
        text_str(f, name);
    }
    fputc('\n', f);
    int have;
    const struct log_status *s = log_reader_status(r, &have);
    if (!have) {
        fputs("# status: none whole in the metadata area\n", f);
    } else {
        const struct posix_trace_status_info *st = &s->st;
        char ebuf[16];
        fprintf(f, "# status (write %" PRIu32 ", %s): stream %s %s %s, %s, flush error %s, "
                "log %s %s; %" PRIu64 " events written, %" PRIu64 " lost by the stream, %"
                PRIu64 " discarded by the log\n", s->counter,
                s->complete ? "final" : "NOT final: the log was not shut down",
                word(st->posix_stream_status, POSIX_TRACE_RUNNING, "RUNNING", "SUSPENDED"),
                word(st->posix_stream_full_status, POSIX_TRACE_FULL, "FULL", "NOT_FULL"),
                word(st->posix_stream_overrun_status, POSIX_TRACE_OVERRUN, "OVERRUN",
                     "NO_OVERRUN"),
                word(st->posix_stream_flush_status, POSIX_TRACE_FLUSHING, "FLUSHING",
                     "NOT_FLUSHING"),
                error_name(st->posix_stream_flush_error, ebuf),
                word(st->posix_log_full_status, POSIX_TRACE_FULL, "FULL", "NOT_FULL"),
                word(st->posix_log_overrun_status, POSIX_TRACE_OVERRUN, "OVERRUN",
                     "NO_OVERRUN"),
                s->events, s->stream_lost, s->log_lost);
        if (s->write_error != 0)
            fprintf(f, "# flush error %s: a write to the log failed; the log holds every "
                    "event written whole (%" PRIu64 "), %" PRIu64 " were discarded\n",
                    error_name(s->write_error, ebuf), s->events, s->log_lost);
    }
    if (!c->o->no_events)
        fprintf(f, "# %10s %7s %-20s%s %4s %-28s %s\n", "offset", "segment", "timestamp",
                c->o->delta ? "          delta" : "", "id", "name", "origin, truncation, data");
}

static void print_header_json(struct pctx *c, const struct log_reader *r)
{
    FILE *f = c->out;
    const struct trace_file_info *i = log_reader_info(r);
    const struct log_geometry *g = log_reader_geometry(r);
    const trace_attr_t *a = log_reader_attr(r);
    fputs(",\"file\":{\"name\":", f);
    dump_json_str(f, c->o->name ? c->o->name : "");
    fprintf(f, ",\"byte_order\":\"%s\",\"header_len\":%" PRIu64 ",\"attributes\":[",
            i->big_endian ? "big" : "little", i->header_len);
    for (unsigned k = 0; k < i->nattrs; k++) {
        fputs(k ? ",[" : "[", f);
        dump_json_str(f, trace_file_key(i, k));
        fputc(',', f);
        dump_json_str(f, trace_file_value_at(i, k));
        fputc(']', f);
    }
    fprintf(f, "],\"meta_offset\":%" PRIu64 ",\"meta_bytes\":%u,\"segments_offset\":%" PRIu64
            ",\"segment_bytes\":%u,\"log_full_policy\":\"%s\",\"ring_segments\":%" PRIu64
            ",\"segment_slots\":%" PRIu64 "},\n\"trace_attributes\":{\"name\":", g->meta_off,
            (unsigned)g->meta_bytes, g->seg_off, (unsigned)g->seg_bytes,
            log_policy_name(g->policy), g->segments, log_reader_slots(r));
    dump_json_str(f, a->__name);
    fputs(",\"generation_version\":", f);
    dump_json_str(f, a->__genversion);
    fprintf(f, ",\"stream_full_policy\":\"%s\",\"log_full_policy\":\"%s\",\"stream_min_size\":"
            "%zu,\"max_data_size\":%zu,\"log_max_size\":%zu,\"inheritance\":\"%s\","
            "\"clock_resolution\":{\"sec\":%lld,\"nsec\":%ld},\"creation_time\":{\"sec\":%lld,"
            "\"nsec\":%ld}},\n"
            "\"event_names\":[", stream_policy(a->__stream_fullpolicy),
            log_policy_name(a->__log_fullpolicy), a->__stream_minsize, a->__max_datasize,
            a->__log_maxsize, word(a->__inheritance, POSIX_TRACE_INHERITED, "INHERITED",
                                   "CLOSE_FOR_CHILD"),
            (long long)a->__clockres.tv_sec, a->__clockres.tv_nsec,
            (long long)a->__createtime.tv_sec, a->__createtime.tv_nsec);
    trace_event_id_t id;
    char name[TRACE_EVENT_NAME_MAX + 1];
    for (unsigned k = 0; log_reader_name_nth(r, k, &id) == 0; k++) {
        log_reader_name(r, id, name);
        fprintf(f, "%s{\"id\":%u,\"name\":", k ? "," : "", id);
        dump_json_str(f, name);
        fputc('}', f);
    }
    fputs("],\n\"status\":", f);
    int have;
    const struct log_status *s = log_reader_status(r, &have);
    if (!have) {
        fputs("null", f);
    } else {
        const struct posix_trace_status_info *st = &s->st;
        fprintf(f, "{\"counter\":%" PRIu32 ",\"complete\":%s,\"stream_status\":\"%s\","
                "\"stream_full\":%s,\"stream_overrun\":%s,\"flushing\":%s,\"flush_error\":%d,"
                "\"log_overrun\":%s,\"log_full\":%s,\"events_written\":%" PRIu64
                ",\"stream_lost\":%" PRIu64 ",\"log_lost\":%" PRIu64 ",\"write_error\":%d}",
                s->counter,
                s->complete ? "true" : "false",
                word(st->posix_stream_status, POSIX_TRACE_RUNNING, "RUNNING", "SUSPENDED"),
                word(st->posix_stream_full_status, POSIX_TRACE_FULL, "true", "false"),
                word(st->posix_stream_overrun_status, POSIX_TRACE_OVERRUN, "true", "false"),
                word(st->posix_stream_flush_status, POSIX_TRACE_FLUSHING, "true", "false"),
                st->posix_stream_flush_error,
                word(st->posix_log_overrun_status, POSIX_TRACE_OVERRUN, "true", "false"),
                word(st->posix_log_full_status, POSIX_TRACE_FULL, "true", "false"),
                s->events, s->stream_lost, s->log_lost, s->write_error);
    }
    fputs(",\n\"events\":[", f);
}

static void print_event(struct pctx *c, const struct log_reader *r, const struct log_event *e)
{
    FILE *f = c->out;
    char name[TRACE_EVENT_NAME_MAX + 1];
    uint32_t len = e->h.len & REC_LEN_MASK;
    const char *trunc = (e->h.len & REC_TRUNCATED) ? "record" : "none";
    name_of(r, e->h.id, name);
    double delta = c->have_prev ? dump_seconds(e->h.ts, c->prev_ts, 1000000000u) : 0.0;
    if (!c->json) {
        fprintf(f, "%12" PRIu64 " %7" PRIu32 " %10" PRIu64 ".%09" PRIu64, e->offset, e->seg_seq,
                e->h.ts / 1000000000u, e->h.ts % 1000000000u);
        if (c->o->delta)
            fprintf(f, " %+14.9f", delta);
        fprintf(f, " %4u %-28s pid=%" PRIu32 " thread=0x%" PRIx64 " cpu=%d prog=0x%" PRIx64
                " trunc=%s len=%" PRIu32, e->h.id, name, e->h.pid, e->h.thread, (int)e->h.cpu,
                e->h.prog, trunc, len);
        if (len)
            fputs(" data=", f);
        for (uint32_t i = 0; i < len; i++)
            fprintf(f, "%02x", e->data[i]);
        fputc('\n', f);
        return;
    }
    fprintf(f, "%s\n{\"offset\":%" PRIu64 ",\"segment\":%" PRIu32 ",\"id\":%u,\"name\":",
            c->shown > 1 ? "," : "", e->offset, e->seg_seq, e->h.id);
    dump_json_str(f, name);
    fprintf(f, ",\"pid\":%" PRIu32 ",\"thread\":%" PRIu64 ",\"prog\":%" PRIu64 ",\"cpu\":%d,"
            "\"timestamp_ns\":%" PRIu64 ",\"truncation\":\"%s\",\"len\":%" PRIu32
            ",\"data\":\"", e->h.pid, e->h.thread, e->h.prog, (int)e->h.cpu, e->h.ts, trunc, len);
    for (uint32_t i = 0; i < len; i++)
        fprintf(f, "%02x", e->data[i]);
    fputc('"', f);
    if (c->o->delta)
        fprintf(f, ",\"delta\":%.9f", delta);
    fputc('}', f);
}

/* Counts e in the totals; 1 if the filter shows it. */
static int count_and_filter(struct pctx *c, const struct log_reader *r, const struct log_event *e)
{
    char name[TRACE_EVENT_NAME_MAX + 1];
    unsigned cls = event_names_system(e->h.id, name) == 0 ? SLOT_CLASS_SYSTEM : SLOT_CLASS_USER;
    unsigned cpu = (unsigned)e->h.cpu;

    if (c->o->totals && cpu < SLOT_NCPUS)
        c->by_cpu_class[cpu][cls]++;
    if (c->o->filter == NULL)
        return 1;
    name_of(r, e->h.id, name);
    return dump_filter_pass(c->o->filter, cpu, dump_class_name(cls), name, (int64_t)e->h.pid,
                            (double)e->h.ts / 1e9);
}

/* Copies the errors kept so far to the output. */
static void copy_errors(struct pctx *c)
{
    char buf[4096];
    size_t n;
    rewind(c->errors);
    while ((n = fread(buf, 1, sizeof buf, c->errors)) > 0)
        fwrite(buf, 1, n, c->out);
}

static void print_end(struct pctx *c, const struct log_reader *r, const char *fatal, int rc)
{
    FILE *f = c->out;
    const struct log_reader_stats *s = r ? log_reader_stats(r) : NULL;
    int have = 0;
    const struct log_status *st = r ? log_reader_status(r, &have) : NULL;
    int complete = have && st->complete;
    if (!c->json) {
        if (s == NULL)
            return;
        fprintf(f, "# summary: %" PRIu64 " events; %" PRIu64 " segments read, %" PRIu64
                " skipped, %" PRIu64 " cut short; %" PRIu64 " records that are no POSIX event; "
                "integrity errors %" PRIu64 "\n", s->events, s->segments, s->segments_skipped,
                s->segments_cut, s->bad_records, c->nerrors);
        if (c->o->filter)
            fprintf(f, "#   shown %" PRIu64 " of %" PRIu64 " events (filtered)\n", c->shown,
                    s->events);
        if (c->o->totals)
            dump_totals_text(f, (const uint64_t (*)[SLOT_NCLASSES])c->by_cpu_class);
        if (complete && st->write_error != 0) {
            char ebuf[16];
            fprintf(f, "# the log was shut down after flush error %s: it holds every event "
                    "written whole; %" PRIu64 " events were discarded\n",
                    error_name(st->write_error, ebuf), st->log_lost);
        } else if (complete) {
            fputs("# the log was shut down: complete\n", f);
        } else {
            fputs("# CUT: the log was not shut down (the process died or is still writing):"
                  " read up to its last whole record\n", f);
        }
        return;
    }
    fputs("],\n\"errors\":[", f);
    if (c->errors)
        copy_errors(c);
    fputs("],\n\"summary\":", f);
    if (s == NULL) {
        fputs("null", f);
    } else {
        fprintf(f, "{\"events\":%" PRIu64 ",\"segments\":%" PRIu64 ",\"segments_skipped\":%"
                PRIu64 ",\"segments_cut\":%" PRIu64 ",\"bad_records\":%" PRIu64
                ",\"errors\":%" PRIu64 ",\"complete\":%s", s->events, s->segments,
                s->segments_skipped, s->segments_cut, s->bad_records, c->nerrors,
                complete ? "true" : "false");
        if (c->o->filter)
            fprintf(f, ",\"shown\":%" PRIu64, c->shown);
        if (c->o->totals) {
            fputs(",\"by_cpu\":", f);
            dump_totals_json(f, (const uint64_t (*)[SLOT_NCLASSES])c->by_cpu_class);
        }
        fputc('}', f);
    }
    fputs(",\n\"fatal\":", f);
    if (fatal) {
        fprintf(f, "{\"error\":%d,\"message\":", rc);
        dump_json_str(f, fatal);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fputs("}\n", f);
}

static int run(const struct log_source *src, FILE *out, const struct dump_options *o,
               struct dump_posix_result *res, char *err, size_t errlen)
{
    struct pctx c = { .out = out, .o = o, .json = o->format == DUMP_JSON };
    struct log_reader *r = NULL;
    memset(res, 0, sizeof *res);
    if (c.json)
        fputs("{\"format\":\"posixtrace-log-dump\",\"version\":1", out);
    int rc = log_reader_open(src, on_error, &c, &r, err, errlen);
    if (rc != 0) {
        res->rejected = 1;
        if (c.json) {
            fputs(",\"file\":null,\"events\":[", out);
            print_end(&c, NULL, err && *err ? err : "cannot read the log", rc);
        }
        if (c.errors)
            fclose(c.errors);
        return rc;
    }
    if (c.json) {
        print_header_json(&c, r);
    } else {
        print_header_text(&c, r);
        if (c.errors) {                 /* found in the metadata */
            copy_errors(&c);
            fclose(c.errors);
            c.errors = NULL;
        }
        c.header_done = 1;
    }
    struct log_event e;
    while (log_reader_next(r, &e)) {
        if (count_and_filter(&c, r, &e) && ++c.shown && !o->no_events) {
            print_event(&c, r, &e);
            c.prev_ts = e.h.ts;
            c.have_prev = 1;
        }
        c.nevents++;
    }
    int have;
    const struct log_status *st = log_reader_status(r, &have);
    const struct log_geometry *g = log_reader_geometry(r);
    if (have && st->complete &&
        (g->policy == POSIX_TRACE_LOOP ? c.nevents > st->events : c.nevents != st->events)) {
        /* The final status counts what the writer wrote: a log cut or damaged
         * after its shutdown holds something else. */
        char msg[200];
        snprintf(msg, sizeof msg, "offset %" PRIu64 ": the log holds %" PRIu64 " events, its "
                 "final status says %" PRIu64 " were written: cut or damaged after shutdown",
                 log_reader_info(r)->file_len, c.nevents, st->events);
        on_error(&c, log_reader_info(r)->file_len, msg);
    }
    rc = c.errors_failed;
    if (rc && err && errlen)
        snprintf(err, errlen, "cannot create a temporary file for the errors: %s",
                 strerror(rc));
    print_end(&c, r, rc ? err : NULL, rc);
    res->events = c.nevents;
    res->errors = c.nerrors;
    res->complete = have && st->complete;
    if (c.errors)
        fclose(c.errors);
    log_reader_close(r);
    return rc;
}

int dump_posix_fd(int fd, FILE *out, const struct dump_options *o,
                  struct dump_posix_result *r, char *err, size_t errlen)
{
    struct log_source src = { .fd = fd };
    return run(&src, out, o, r, err, errlen);
}

int dump_posix_mem(const void *file, size_t len, FILE *out, const struct dump_options *o,
                   struct dump_posix_result *r, char *err, size_t errlen)
{
    struct log_source src = { .mem = file, .len = len };
    return run(&src, out, o, r, err, errlen);
}

int dump_is_posix_log(const struct trace_file_info *info)
{
    const char *mark = trace_file_value(info, LOG_KEY_MARK);
    /* Any version: the log reader says which it reads. */
    return mark != NULL;
}
