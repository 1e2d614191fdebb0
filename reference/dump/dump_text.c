/* SPDX-License-Identifier: MIT */
/*
 * dump_text.c -- the text format of the trace dumper (reference/kernel/KERNEL.md):
 * a commented header, one line per event (offset, CPU, 64-bit time, class,
 * event name, arguments), integrity errors as "ERROR" lines where the
 * decoder finds them, and a commented summary.
 */
#include <inttypes.h>
#include "dump/dump.h"

#define MAX_WORDS_SHOWN 16

/* A header value as it is, but for bytes that are not printable. */
static void print_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch < 0x7f)
            fputc(ch, f);
        else
            fprintf(f, "\\x%02x", ch);
    }
}

void dump_text_begin(struct dump_ctx *c)
{
    const struct trace_file_info *i = c->info;
    FILE *f = c->out;

    fprintf(f, "# tracedump %s\n", c->o->name ? c->o->name : "");
    fprintf(f, "# %s-endian, %u CPUs, %" PRIu64 " cycles/s; header %" PRIu64
            " bytes, system page %" PRIu64 " bytes, %" PRIu64 " slots from offset %" PRIu64
            "\n", i->big_endian ? "big" : "little", i->cpu_num, i->cycles_per_sec,
            i->header_len, i->syspage_len, i->nslots, i->slots_offset);
    for (unsigned k = 0; k < i->nattrs; k++) {
        fprintf(f, "# TRACE_%s::", trace_file_key(i, k));
        print_escaped(f, trace_file_value_at(i, k));
        fputc('\n', f);
    }
    if (!c->o->no_events)
        fprintf(f, "# %10s %3s %-18s%s %-8s %-20s %s\n", "offset", "cpu",
                c->o->seconds ? "seconds" : "time", !c->o->delta ? ""
                : c->o->seconds ? "          delta" : "                delta", "class",
                "event", "data");
}

static void args(FILE *f, const struct slot_event *ev, const struct dump_desc *d)
{
    for (unsigned i = 0; i < d->nargs; i++) {
        const struct dump_arg *a = &d->args[i];
        if (a->is_str)
            fprintf(f, " %s=\"%s\"", a->key, a->str);
        else if (a->hex)
            fprintf(f, " %s=0x%" PRIx64, a->key, a->num);
        else
            fprintf(f, " %s=%" PRIu64, a->key, a->num);
    }
    if (d->nargs == 0 && ev->nwords > 0) {
        uint32_t n = ev->nwords < MAX_WORDS_SHOWN ? ev->nwords : MAX_WORDS_SHOWN;
        fputs(" data", f);
        for (uint32_t i = 0; i < n; i++)
            fprintf(f, " %08" PRIx32, ev->words[i]);
        if (n < ev->nwords)
            fprintf(f, " ... (%" PRIu32 " words)", ev->nwords);
    }
}

void dump_text_event(struct dump_ctx *c, const struct slot_event *ev, const struct dump_desc *d)
{
    FILE *f = c->out;
    double delta = c->have_prev ? c->time - c->prev : 0.0;
    fprintf(f, "%12" PRIu64 " %3u ", ev->offset, ev->cpu);
    if (c->o->seconds)
        fprintf(f, "%18.9f", c->time);
    else
        fprintf(f, "0x%016" PRIx64, ev->time);
    if (c->o->delta && c->o->seconds)
        fprintf(f, " %+14.9f", delta);
    else if (c->o->delta)       /* ticks: signed, another CPU's clock may be behind */
        fprintf(f, " %+20" PRId64, c->have_prev ? (int64_t)(ev->time - c->prev_ticks) : 0);
    fprintf(f, " %-8s %-20s", d->class_name, d->name);
    if (ev->combine && ev->complete)
        fprintf(f, " [%" PRIu32 " slots]", ev->nslots);
    else if (ev->combine)
        fprintf(f, " [incomplete: %" PRIu32 " slots]", ev->nslots);
    args(f, ev, d);
    fputc('\n', f);
}

void dump_text_error(struct dump_ctx *c, const struct slot_error *e)
{
    char msg[320];
    slot_error_format(e, msg, sizeof msg);
    fprintf(c->out, "ERROR %s\n", msg);
}

void dump_text_end(struct dump_ctx *c, const struct slot_summary *s)
{
    FILE *f = c->out;
    fprintf(f, "# summary\n");
    fprintf(f, "#   slots %" PRIu64 ", events %" PRIu64 " (combine %" PRIu64 ", incomplete %"
            PRIu64 "), slots discarded %" PRIu64 "\n", s->slots, s->events, s->combine_events,
            s->incomplete_events, s->discarded_slots);
    fprintf(f, "#   buffers %" PRIu64 " (sequence gaps %" PRIu64 "), TIME events %" PRIu64
            ", wraps inferred %" PRIu64 "\n", s->buffers, s->buffer_seq_gaps, s->time_events,
            s->wraps);
    fprintf(f, "#   dropped %" PRIu64 " events, %" PRIu64 " slots (KSP-22)\n",
            s->dropped_events, s->dropped_slots);
    fprintf(f, "#   integrity errors %" PRIu64, s->errors);
    for (int k = 0; k < SLOT_NERROR_KINDS; k++)
        if (s->errors_by_kind[k])
            fprintf(f, ", %s %" PRIu64, dump_error_kind((enum slot_error_kind)k),
                    s->errors_by_kind[k]);
    fprintf(f, "\n#   per CPU:");
    for (unsigned i = 0; i < SLOT_NCPUS; i++)
        if (s->events_per_cpu[i])
            fprintf(f, " %u:%" PRIu64, i, s->events_per_cpu[i]);
    fprintf(f, "\n#   per class:");
    for (unsigned i = 0; i < SLOT_NCLASSES; i++)
        if (s->events_per_class[i])
            fprintf(f, " %s:%" PRIu64, dump_class_name(i), s->events_per_class[i]);
    fputc('\n', f);
    if (c->o->filter)
        fprintf(f, "#   shown %" PRIu64 " of %" PRIu64 " events (filtered)\n", c->shown,
                s->events);
    if (c->o->totals)
        dump_totals_text(f, (const uint64_t (*)[SLOT_NCLASSES])c->by_cpu_class);
}
