/* SPDX-License-Identifier: MIT */
/*
 * export_chrome.c -- a trace in the Trace Event Format (the JSON that
 * chrome://tracing, Perfetto's UI and Catapult read): one object
 * {"traceEvents":[...],"displayTimeUnit":"ns","otherData":{...}}.
 *
 * Tracks: each CPU is a thread ("CPU n") of the pseudo-process "CPUs"
 * (pid CPU_PID); each process and thread of the trace is its own (a POSIX
 * log's events are on the thread that recorded them; a kernel PR_TH event
 * on the thread it is about).  Names come as "M" metadata events, made the
 * first time a track is used.
 *
 * Kernel calls (enter/exit), interrupts (entry/exit) and interrupt handlers
 * are "X" complete events, paired per CPU as they come (a stack of at most
 * MAX_OPEN open slices a CPU); an exit without its entry is an instant event
 * with "unmatched", a slice still open at the end is closed at the CPU's
 * last time with "unfinished".  Every other event is an "i" instant event of
 * thread scope; DROPPED and buffer wraps are instant events of global scope
 * ("s":"g"), of category "drop" or "wrap", so a viewer draws them across
 * every track.  Time "ts" and "dur" are microseconds (with ns decimals).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dump/export.h"

#define CPU_PID      1000000000u    /* the pseudo-process of the CPU tracks */
#define MAX_OPEN     16
#define ARGS_MAX     1024
#define MAX_TRACKS   65536u         /* named tracks remembered; beyond, unnamed */
#define WORDS_SHOWN  16u
#define NLANES       (SLOT_NCPUS + 1)

struct open_slice {
    uint64_t time;
    unsigned slice;
    const char *cat;
    char name[128];
    char args[ARGS_MAX];
};

struct track { uint32_t pid; uint64_t tid; int used; };

struct chrome {
    FILE *f;
    uint64_t freq;
    uint64_t n;                 /* trace events written */
    struct open_slice (*open)[MAX_OPEN];   /* per CPU */
    unsigned nopen[NLANES];
    uint64_t last[NLANES];
    struct track *tracks;
    uint32_t ntracks, tcap;
};

/* ticks -> "us.nnn" */
static void put_us(FILE *f, uint64_t ticks, uint64_t freq)
{
    uint64_t ns = ticks / freq * 1000000000u +
                  (uint64_t)((long double)(ticks % freq) * 1e9L / (long double)freq);
    fprintf(f, "%" PRIu64 ".%03u", ns / 1000u, (unsigned)(ns % 1000u));
}

static void sep(struct chrome *c)
{
    fputs(c->n++ ? ",\n" : "\n", c->f);
}

/* Is (pid, tid) new?  tid UINT64_MAX stands for the process itself. */
static int first_use(struct chrome *c, uint32_t pid, uint64_t tid)
{
    if (c->tcap == 0) {
        if ((c->tracks = calloc(1024, sizeof *c->tracks)) == NULL)
            return 0;
        c->tcap = 1024;
    }
    uint64_t h = (pid * 0x9e3779b97f4a7c15u) ^ (tid * 0xc2b2ae3d27d4eb4fu);
    uint32_t at = (uint32_t)(h >> 20) & (c->tcap - 1);
    for (; c->tracks[at].used; at = (at + 1) & (c->tcap - 1))
        if (c->tracks[at].pid == pid && c->tracks[at].tid == tid)
            return 0;
    if (c->ntracks * 2 >= c->tcap) {
        if (c->tcap >= 2 * MAX_TRACKS)
            return 0;
        struct track *old = c->tracks, *t = calloc(2 * c->tcap, sizeof *t);
        if (t == NULL)
            return 0;
        uint32_t ocap = c->tcap;
        c->tracks = t;
        c->tcap *= 2;
        c->ntracks = 0;
        for (uint32_t i = 0; i < ocap; i++)
            if (old[i].used)
                first_use(c, old[i].pid, old[i].tid);
        free(old);
        return first_use(c, pid, tid);
    }
    c->tracks[at] = (struct track){ pid, tid, 1 };
    c->ntracks++;
    return 1;
}

static void name_track(struct chrome *c, uint32_t pid, uint64_t tid, int cpu)
{
    if (first_use(c, pid, UINT64_MAX)) {
        sep(c);
        fprintf(c->f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%" PRIu32 ",\"tid\":0,"
                "\"args\":{\"name\":", pid);
        if (pid == CPU_PID)
            fputs("\"CPUs\"}}", c->f);
        else
            fprintf(c->f, "\"pid %" PRIu32 "\"}}", pid);
    }
    if (first_use(c, pid, tid)) {
        sep(c);
        fprintf(c->f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%" PRIu32 ",\"tid\":%"
                PRIu64 ",\"args\":{\"name\":", pid, tid);
        if (pid == CPU_PID)
            fprintf(c->f, cpu >= 0 ? "\"CPU %d\"}}" : "\"CPU unknown\"}}", cpu);
        else
            fprintf(c->f, "\"thread %" PRIu64 "\"}}", tid);
    }
}

/* The event's arguments as the members of a JSON object, into buf. */
static void args_of(const struct export_event *ev, char *buf, size_t len)
{
    FILE *m = fmemopen(buf, len, "w");
    if (m == NULL) {
        buf[0] = '\0';
        return;
    }
    fprintf(m, "\"class\":\"%s\",\"cpu\":%d", ev->class_name, ev->cpu);
    if (ev->has_thread)
        fprintf(m, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu64, ev->pid, ev->tid);
    if (ev->d) {
        for (unsigned i = 0; i < ev->d->nargs; i++) {
            const struct dump_arg *a = &ev->d->args[i];
            fputc(',', m);
            dump_json_str(m, a->key);
            fputc(':', m);
            if (a->is_str)
                dump_json_str(m, a->str);
            else
                fprintf(m, "%" PRIu64, a->num);
        }
        if (ev->d->nargs == 0 && ev->nwords) {
            fputs(",\"words\":[", m);
            for (uint32_t i = 0; i < ev->nwords && i < WORDS_SHOWN; i++)
                fprintf(m, i ? ",%" PRIu32 : "%" PRIu32, ev->words[i]);
            fputc(']', m);
        }
    } else {
        fprintf(m, ",\"prog\":%" PRIu64 ",\"truncated\":%s,\"len\":%" PRIu32 ",\"data\":\"",
                ev->prog, ev->truncated ? "true" : "false", ev->len);
        for (uint32_t i = 0; i < ev->len && i < 128; i++)
            fprintf(m, "%02x", ev->data[i]);
        fputs(ev->len > 128 ? "...\"" : "\"", m);
    }
    fclose(m);
    /* fmemopen stops at the buffer's end: a cut member is dropped whole. */
    size_t n = strlen(buf);
    if (n + 1 >= len) {
        char *comma = strrchr(buf, ',');
        if (comma)
            *comma = '\0';
    }
}

static int chrome_begin(void **state, const struct export_source *src, char *err,
                        size_t errlen)
{
    struct chrome *c = calloc(1, sizeof *c);
    if (c == NULL || (c->open = calloc(NLANES, sizeof *c->open)) == NULL) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return ENOMEM;
    }
    c->f = src->out;
    c->freq = src->freq ? src->freq : 1000000000u;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":", c->f);
    dump_json_str(c->f, src->name);
    fprintf(c->f, ",\"kind\":\"%s\",\"clock_hz\":%" PRIu64 ",\"writer\":\"posixtrace "
            "tracedump --chrome\"},\n\"traceEvents\":[", src->posix ? "posix-log" : "kernel",
            c->freq);
    *state = c;
    return 0;
}

static void instant(struct chrome *c, const struct export_event *ev, uint32_t pid,
                    uint64_t tid, const char *scope, const char *cat, const char *name,
                    const char *extra)
{
    char args[ARGS_MAX];
    args_of(ev, args, sizeof args);
    sep(c);
    fputs("{\"name\":", c->f);
    dump_json_str(c->f, name);
    fputs(",\"cat\":", c->f);
    dump_json_str(c->f, cat);
    fprintf(c->f, ",\"ph\":\"i\",\"s\":\"%s\",\"ts\":", scope);
    put_us(c->f, ev->time, c->freq);
    fprintf(c->f, ",\"pid\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"args\":{%s%s}}", pid, tid, args,
            extra);
}

static void complete(struct chrome *c, unsigned lane, const struct open_slice *s,
                     uint64_t end, const char *extra)
{
    sep(c);
    fputs("{\"name\":", c->f);
    dump_json_str(c->f, s->name);
    fputs(",\"cat\":", c->f);
    dump_json_str(c->f, s->cat);
    fputs(",\"ph\":\"X\",\"ts\":", c->f);
    put_us(c->f, s->time, c->freq);
    fputs(",\"dur\":", c->f);
    put_us(c->f, end >= s->time ? end - s->time : 0, c->freq);
    fprintf(c->f, ",\"pid\":%u,\"tid\":%u,\"args\":{%s%s}}", CPU_PID, lane, s->args, extra);
}

static int chrome_event(void *state, const struct export_event *ev, char *err, size_t errlen)
{
    struct chrome *c = state;
    unsigned lane = ev->cpu >= 0 ? (unsigned)ev->cpu : SLOT_NCPUS;
    char full[128];
    (void)err;
    (void)errlen;
    snprintf(full, sizeof full, "%s %s", ev->class_name, ev->name);
    c->last[lane] = ev->time;

    if (ev->d == NULL) {                /* POSIX: the thread that recorded it */
        name_track(c, ev->pid, ev->tid, ev->cpu);
        if (ev->kind == EXPORT_DROP)
            instant(c, ev, ev->pid, ev->tid, "g", "drop", ev->name, "");
        else
            instant(c, ev, ev->pid, ev->tid, "t", ev->class_name, ev->name, "");
        return 0;
    }
    name_track(c, CPU_PID, lane, ev->cpu);
    switch (ev->kind) {
    case EXPORT_BEGIN:
        if (c->nopen[lane] < MAX_OPEN) {
            struct open_slice *s = &c->open[lane][c->nopen[lane]++];
            s->time = ev->time;
            s->slice = ev->slice;
            s->cat = ev->class_name;
            snprintf(s->name, sizeof s->name, "%s", full);
            args_of(ev, s->args, sizeof s->args);
            return 0;
        }
        instant(c, ev, CPU_PID, lane, "t", ev->class_name, full, ",\"too_deep\":true");
        return 0;
    case EXPORT_END: {
        unsigned k = c->nopen[lane];
        while (k > 0 && c->open[lane][k - 1].slice != ev->slice)
            k--;
        if (k == 0) {
            instant(c, ev, CPU_PID, lane, "t", ev->class_name, full, ",\"unmatched\":true");
            return 0;
        }
        /* Slices opened inside it and never closed end with it. */
        while (c->nopen[lane] > k)
            complete(c, lane, &c->open[lane][--c->nopen[lane]], ev->time,
                     ",\"unfinished\":true");
        complete(c, lane, &c->open[lane][--c->nopen[lane]], ev->time, "");
        return 0;
    }
    case EXPORT_DROP:
        instant(c, ev, CPU_PID, lane, "g", "drop", "DROPPED", "");
        return 0;
    case EXPORT_WRAP:
        instant(c, ev, CPU_PID, lane, "g", "wrap", "WRAP (buffer sequence gap)", "");
        return 0;
    default:
        break;
    }
    if (ev->cls == SLOT_CLASS_PR_TH && ev->d->nargs >= 2 && strcmp(ev->d->args[0].key, "pid") == 0
        && strcmp(ev->d->args[1].key, "tid") == 0) {
        uint32_t pid = (uint32_t)ev->d->args[0].num;
        name_track(c, pid, ev->d->args[1].num, -1);
        instant(c, ev, pid, ev->d->args[1].num, "t", ev->class_name, full, "");
    } else {
        instant(c, ev, CPU_PID, lane, "t", ev->class_name, full, "");
    }
    return 0;
}

static int chrome_end(void *state, const struct export_source *src, int failed, char *err,
                      size_t errlen)
{
    struct chrome *c = state;
    (void)src;
    for (unsigned lane = 0; lane < NLANES; lane++)
        while (c->nopen[lane] > 0) {
            const struct open_slice *s = &c->open[lane][--c->nopen[lane]];
            complete(c, lane, s, c->last[lane], ",\"unfinished\":true");
        }
    fputs("\n]}\n", c->f);
    int rc = 0;
    if (!failed && (fflush(c->f) != 0 || ferror(c->f))) {
        rc = errno ? errno : EIO;
        snprintf(err, errlen, "cannot write the output: %s", strerror(rc));
    }
    free(c->tracks);
    free(c->open);
    free(c);
    return rc;
}

const struct export_writer export_chrome_writer = { chrome_begin, NULL, chrome_event, chrome_end };
