/* SPDX-License-Identifier: MIT */
/*
 * dump_json.c -- the JSON format of the trace dumper: one document with the
 * file's header, the events in order, the integrity errors, the rejection
 * of the file if any ("fatal") and the summary.  reference/kernel/KERNEL.md gives
 * the schema: it is the contract of third-party decoders checked by
 * build/harness/kvecrun (vectors/ksp/README.md).
 *
 * Events are written as they are decoded; errors, which the decoder reports
 * in between, go to a temporary file (made at the first error) and are
 * copied after the events, so that memory stays bounded whatever the trace.  Strings are escaped to
 * plain ASCII (bytes above 0x7e as \u00XX), so the output is valid UTF-8
 * whatever the input.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dump/dump.h"

void dump_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch > 0x7e)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void dump_json_begin(struct dump_ctx *c)
{
    const struct trace_file_info *i = c->info;
    FILE *f = c->out;

    fputs("{\"format\":\"posixtrace-ksp-dump\",\"version\":1,\"file\":", f);
    if (i == NULL) {
        fputs("null", f);
    } else {
        fputs("{\"name\":", f);
        dump_json_str(f, c->o->name ? c->o->name : "");
        fprintf(f, ",\"byte_order\":\"%s\",\"cpu_num\":%u,\"cycles_per_sec\":%" PRIu64
                ",\"header_len\":%" PRIu64 ",\"syspage_len\":%" PRIu64 ",\"slots_offset\":%"
                PRIu64 ",\"slots\":%" PRIu64 ",\"cut_bytes\":%u,\"attributes\":[",
                i->big_endian ? "big" : "little", i->cpu_num, i->cycles_per_sec, i->header_len,
                i->syspage_len, i->slots_offset, i->nslots, i->cut_bytes);
        for (unsigned k = 0; k < i->nattrs; k++) {
            fputs(k ? ",[" : "[", f);
            dump_json_str(f, trace_file_key(i, k));
            fputc(',', f);
            dump_json_str(f, trace_file_value_at(i, k));
            fputc(']', f);
        }
        fputs("]}", f);
    }
    fputs(",\n\"events\":[", f);
}

void dump_json_event(struct dump_ctx *c, const struct slot_event *ev, const struct dump_desc *d)
{
    FILE *f = c->out;

    fprintf(f, "%s\n{\"offset\":%" PRIu64 ",\"cpu\":%u,\"class\":%u,\"class_name\":",
            c->shown > 1 ? "," : "", ev->offset, ev->cpu, ev->cls);
    dump_json_str(f, d->class_name);
    fprintf(f, ",\"event\":%u,\"name\":", ev->event);
    dump_json_str(f, d->name);
    fprintf(f, ",\"time\":%" PRIu64 ",\"slots\":%" PRIu32 ",\"combine\":%s,\"complete\":%s,"
            "\"words\":[", ev->time, ev->nslots, ev->combine ? "true" : "false",
            ev->complete ? "true" : "false");
    for (uint32_t i = 0; i < ev->nwords; i++)
        fprintf(f, i ? ",%" PRIu32 : "%" PRIu32, ev->words[i]);
    fputc(']', f);
    if (c->o->seconds)
        fprintf(f, ",\"seconds\":%.9f", c->time);
    if (c->o->delta && c->o->seconds)
        fprintf(f, ",\"delta\":%.9f", c->have_prev ? c->time - c->prev : 0.0);
    else if (c->o->delta)
        fprintf(f, ",\"delta\":%" PRId64, c->have_prev ? (int64_t)(ev->time - c->prev_ticks) : 0);
    fputs(",\"args\":{", f);
    for (unsigned i = 0; i < d->nargs; i++) {
        if (i)
            fputc(',', f);
        dump_json_str(f, d->args[i].key);
        fputc(':', f);
        if (d->args[i].is_str)
            dump_json_str(f, d->args[i].str);
        else
            fprintf(f, "%" PRIu64, d->args[i].num);
    }
    fputs("}}", f);
}

void dump_json_error(struct dump_ctx *c, const struct slot_error *e)
{
    char msg[320];

    /* Made at the first error: most traces have none. */
    if (c->errors == NULL && !c->errors_failed && (c->errors = tmpfile()) == NULL)
        c->errors_failed = errno ? errno : EIO;
    FILE *f = c->errors;
    if (f == NULL)
        return;
    slot_error_format(e, msg, sizeof msg);
    fprintf(f, "%s\n{\"offset\":%" PRIu64 ",\"rule\":", c->nerrors_kept ? "," : "", e->offset);
    dump_json_str(f, e->rule);
    fputs(",\"kind\":", f);
    dump_json_str(f, dump_error_kind(e->kind));
    fputs(",\"message\":", f);
    dump_json_str(f, msg);
    fputc('}', f);
    c->nerrors_kept++;
}

void dump_split_message(const char *m, uint64_t *offset, char *rule, size_t rulelen)
{
    *offset = 0;
    rule[0] = '\0';
    if (strncmp(m, "offset ", 7) != 0)
        return;
    char *end;
    *offset = strtoull(m + 7, &end, 10);
    if (strncmp(end, ": KSP-", 6) == 0) {
        size_t n = strspn(end + 6, "0123456789");
        if (n > 0 && n + 5 <= rulelen) {      /* "KSP-" n digits, NUL */
            memcpy(rule, end + 2, n + 4);
            rule[n + 4] = '\0';
        }
    }
}

static void json_counts(FILE *f, const char *key, const uint64_t *v, unsigned n, int by_class)
{
    int first = 1;
    fprintf(f, ",\"%s\":{", key);
    for (unsigned i = 0; i < n; i++) {
        if (!v[i])
            continue;
        if (by_class)
            fprintf(f, "%s\"%s\":%" PRIu64, first ? "" : ",", dump_class_name(i), v[i]);
        else
            fprintf(f, "%s\"%u\":%" PRIu64, first ? "" : ",", i, v[i]);
        first = 0;
    }
    fputc('}', f);
}

void dump_json_end(struct dump_ctx *c, const struct slot_summary *s, const char *fatal,
                   int fatal_rc)
{
    FILE *f = c->out;
    char buf[4096];

    fputs("],\n\"errors\":[", f);
    if (c->errors) {
        size_t n;
        rewind(c->errors);
        while ((n = fread(buf, 1, sizeof buf, c->errors)) > 0)
            fwrite(buf, 1, n, f);
    }
    fputs("],\n\"fatal\":", f);
    if (fatal) {
        uint64_t off;
        char rule[16];
        dump_split_message(fatal, &off, rule, sizeof rule);
        fprintf(f, "{\"offset\":%" PRIu64 ",\"rule\":", off);
        dump_json_str(f, rule);
        fprintf(f, ",\"errno\":");
        dump_json_str(f, fatal_rc == EINVAL ? "EINVAL" : fatal_rc == ENOTSUP ? "ENOTSUP"
                                                                        : strerror(fatal_rc));
        fputs(",\"message\":", f);
        dump_json_str(f, fatal);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n\"summary\":{\"slots\":%" PRIu64 ",\"events\":%" PRIu64 ",\"combine_events\":%"
            PRIu64 ",\"incomplete_events\":%" PRIu64 ",\"discarded_slots\":%" PRIu64
            ",\"time_events\":%" PRIu64 ",\"wraps\":%" PRIu64 ",\"buffers\":%" PRIu64
            ",\"buffer_seq_gaps\":%" PRIu64 ",\"dropped_events\":%" PRIu64 ",\"dropped_slots\":%"
            PRIu64 ",\"errors\":%" PRIu64, s->slots, s->events, s->combine_events,
            s->incomplete_events, s->discarded_slots, s->time_events, s->wraps, s->buffers,
            s->buffer_seq_gaps, s->dropped_events, s->dropped_slots, s->errors);
    json_counts(f, "per_cpu", s->events_per_cpu, SLOT_NCPUS, 0);
    json_counts(f, "per_class", s->events_per_class, SLOT_NCLASSES, 1);
    if (c->o->filter)
        fprintf(f, ",\"shown\":%" PRIu64, c->shown);
    if (c->o->totals) {
        fputs(",\"by_cpu\":", f);
        dump_totals_json(f, (const uint64_t (*)[SLOT_NCLASSES])c->by_cpu_class);
    }
    fputs("}}\n", f);
}
