/* SPDX-License-Identifier: MIT */
/*
 * dump_filter.c -- what tracedump shows of a trace (dump.h): the filter of
 * events (CPU, class, event name, process, time window), times in seconds,
 * and the summary's table of events by CPU and class with its total line
 * (reference/kernel/KERNEL.md, "tracedump").  The kernel view (dump_run.c)
 * and the POSIX log view (dump_posix.c) share them.
 */
#include <inttypes.h>
#include <string.h>
#include <strings.h>
#include "dump/dump.h"

static int listed(const char *const *names, size_t n, const char *name, int nocase)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && (nocase ? strcasecmp(names[i], name) : strcmp(names[i], name)) == 0)
            return 1;
    return 0;
}

int dump_filter_pass(const struct dump_filter *f, unsigned cpu, const char *class_name,
                     const char *event_name, int64_t pid, double seconds)
{
    if (f == NULL)
        return 1;
    if (f->cpus && (cpu >= 64 || !(f->cpus >> cpu & 1)))
        return 0;
    if (f->nclasses && !listed(f->classes, f->nclasses, class_name, 1))
        return 0;
    if (f->nevents && !listed(f->events, f->nevents, event_name, 0))
        return 0;
    if (f->has_pid && (pid < 0 || (uint64_t)pid != f->pid))
        return 0;
    if ((f->has_from && seconds < f->from) || (f->has_to && seconds > f->to))
        return 0;
    return 1;
}

int64_t dump_desc_pid(const struct dump_desc *d)
{
    for (unsigned i = 0; i < d->nargs && i < DUMP_MAX_ARGS; i++)
        if (!d->args[i].is_str && strcmp(d->args[i].key, "pid") == 0)
            return (int64_t)(d->args[i].num & 0x7fffffffffffffffull);
    return -1;
}

double dump_seconds(uint64_t t, uint64_t t0, uint64_t cycles_per_sec)
{
    double cps = cycles_per_sec ? (double)cycles_per_sec : 1.0;
    return t >= t0 ? (double)(t - t0) / cps : -((double)(t0 - t) / cps);
}

double dump_shown_time(struct dump_ctx *c, const struct slot_event *ev)
{
    unsigned cpu = ev->cpu < SLOT_NCPUS ? ev->cpu : 0;
    uint64_t bit = 1ull << cpu;

    if (!(c->have_t0 & bit)) {
        c->t0[cpu] = ev->time;
        c->have_t0 |= bit;
    }
    if (!(c->rebased & bit) && ev->cls == SLOT_CLASS_CONTROL &&
        ev->event == _TRACE_CONTROL_TIME) {
        c->t0[cpu] = (c->t0[cpu] & 0xffffffffull) | (ev->time & 0xffffffff00000000ull);
        c->rebased |= bit;
    }
    if (!c->o->seconds)
        return (double)ev->time;
    return dump_seconds(ev->time, c->t0[cpu], c->info->cycles_per_sec);
}

/* Is any event counted on this CPU? */
static int cpu_used(const uint64_t *row)
{
    for (unsigned k = 0; k < SLOT_NCLASSES; k++)
        if (row[k])
            return 1;
    return 0;
}

static uint64_t row_sum(const uint64_t *row)
{
    uint64_t n = 0;
    for (unsigned k = 0; k < SLOT_NCLASSES; k++)
        n += row[k];
    return n;
}

/* The totals of every class over the CPUs. */
static void column_totals(const uint64_t (*by)[SLOT_NCLASSES], uint64_t *total)
{
    for (unsigned k = 0; k < SLOT_NCLASSES; k++)
        total[k] = 0;
    for (unsigned c = 0; c < SLOT_NCPUS; c++)
        for (unsigned k = 0; k < SLOT_NCLASSES; k++)
            total[k] += by[c][k];
}

/* Classes with no event get no column: a POSIX log's are SYSTEM and USER. */
static void row_text(FILE *f, const char *label, const uint64_t *row, const uint64_t *total)
{
    fprintf(f, "#   %5s %12" PRIu64, label, row_sum(row));
    for (unsigned k = 0; k < SLOT_NCLASSES; k++)
        if (total[k])
            fprintf(f, " %10" PRIu64, row[k]);
    fputc('\n', f);
}

void dump_totals_text(FILE *f, const uint64_t (*by)[SLOT_NCLASSES])
{
    uint64_t total[SLOT_NCLASSES];
    char cpu[8];

    column_totals(by, total);
    fprintf(f, "#   events by CPU and class:\n#   %5s %12s", "cpu", "events");
    for (unsigned k = 0; k < SLOT_NCLASSES; k++)
        if (total[k])
            fprintf(f, " %10s", dump_class_name(k));
    fputc('\n', f);
    for (unsigned c = 0; c < SLOT_NCPUS; c++) {
        if (!cpu_used(by[c]))
            continue;
        snprintf(cpu, sizeof cpu, "%u", c);
        row_text(f, cpu, by[c], total);
    }
    row_text(f, "total", total, total);
}

void dump_totals_json(FILE *f, const uint64_t (*by)[SLOT_NCLASSES])
{
    uint64_t total[SLOT_NCLASSES] = { 0 };
    int first = 1;

    fputc('{', f);
    for (unsigned c = 0; c <= SLOT_NCPUS; c++) {
        const uint64_t *row = c < SLOT_NCPUS ? by[c] : total;
        if (c < SLOT_NCPUS && !cpu_used(row))
            continue;
        if (c < SLOT_NCPUS)
            fprintf(f, "%s\"%u\":{\"events\":%" PRIu64, first ? "" : ",", c, row_sum(row));
        else
            fprintf(f, "%s\"total\":{\"events\":%" PRIu64, first ? "" : ",", row_sum(row));
        first = 0;
        for (unsigned k = 0; k < SLOT_NCLASSES; k++) {
            fprintf(f, ",\"%s\":%" PRIu64, dump_class_name(k), row[k]);
            if (c < SLOT_NCPUS)
                total[k] += row[k];
        }
        fputc('}', f);
    }
    fputc('}', f);
}
