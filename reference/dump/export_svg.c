/* SPDX-License-Identifier: MIT */
/*
 * export_svg.c -- a per-CPU timeline of a trace as one self-contained SVG
 * (nothing fetched, no script): one lane per CPU, the events of each moment
 * as a column coloured by class (a stacked bar: each class's share), its
 * height the number of events on a log scale; a legend of the classes; a
 * time axis in seconds since the first event; DROPPED (KSP-22,
 * POSIX_TRACE_OVERFLOW) as red triangles and buffer wraps (a KSP-19 BUFFER
 * sequence gap) as dashed lines.
 *
 * Two passes (export.h's scan): the first finds each lane's time range, the
 * second counts the events into NBUCKETS buckets of one width for every
 * lane -- never one element per event, and memory fixed whatever the trace.
 * A kernel trace's CPUs each have their own counter (KSP-15: nothing says
 * how they relate), so each lane starts at its CPU's first event; a CPU's
 * events before its first TIME event (KSP-17) have no high word yet and,
 * when a TIME event follows, are left out of the picture and counted in the
 * lane's title.  A POSIX log has one clock: its lanes share their origin.
 * The drawing is one <path> per lane and class, with at most MAX_BARS bars
 * in all (buckets merged when many lanes and classes are used): a
 * 10-million-event file gives a picture as small as a short one's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dump/export.h"

#define NBUCKETS  1024u
#define NLANES    (SLOT_NCPUS + 1)      /* the last: a POSIX record of no known CPU */
#define MAX_BARS  60000u
#define MARK_DROP 1u
#define MARK_WRAP 2u

#define WIDTH     1200
#define X0        96
#define PLOT_W    1080
#define TOP       56
#define LANE_H    40
#define LANE_GAP  10

struct svg {
    FILE *f;
    uint64_t freq;
    int posix;
    int ready;                  /* the ranges are set from the scan */
    uint64_t w;                 /* every lane's bucket width, ticks */
    struct {
        int timed;              /* a TIME event was seen: the high word is known */
        int any, any_timed;
        uint64_t lo, hi;        /* of all its events */
        uint64_t tlo, thi;      /* of its events from its first TIME on */
        uint64_t from, to;      /* the range drawn */
        uint64_t unplaced;      /* events outside it */
    } lane[NLANES];
    uint32_t (*count)[NBUCKETS][EXPORT_NCLASSES];   /* per lane */
    unsigned char (*mark)[NBUCKETS];
    uint64_t lane_events[NLANES];
    uint64_t class_events[EXPORT_NCLASSES];
    uint64_t drops, wraps, events;
};

static const char *const class_colour[EXPORT_NCLASSES] = {
    "#8c959f", "#57606a", "#0969da", "#bf8700", "#1a7f37", "#8250df", "#e16f24", "#1b7c83",
    "#6639ba", "#e16f24",
};
static const char *const class_label[EXPORT_NCLASSES] = {
    "EMPTY", "CONTROL", "KER_CALL", "INT", "PR_TH", "SYSTEM", "USER", "COMM",
    "POSIX system events", "POSIX user events",
};

static int svg_begin(void **state, const struct export_source *src, char *err, size_t errlen)
{
    struct svg *s = calloc(1, sizeof *s);
    if (s == NULL || (s->count = calloc(NLANES, sizeof *s->count)) == NULL ||
        (s->mark = calloc(NLANES, sizeof *s->mark)) == NULL) {
        if (s)
            free(s->count);
        free(s);
        snprintf(err, errlen, "out of memory");
        return ENOMEM;
    }
    s->f = src->out;
    s->freq = src->freq ? src->freq : 1000000000u;
    s->posix = src->posix;
    *state = s;
    return 0;
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

static unsigned lane_of(const struct export_event *ev)
{
    return ev->cpu >= 0 ? (unsigned)ev->cpu : SLOT_NCPUS;
}

static void svg_scan(void *state, const struct export_event *ev)
{
    struct svg *s = state;
    unsigned l = lane_of(ev);
    uint64_t t = ev->time;
    if (!s->lane[l].any || t < s->lane[l].lo)
        s->lane[l].lo = t;
    if (!s->lane[l].any || t > s->lane[l].hi)
        s->lane[l].hi = t;
    s->lane[l].any = 1;
    if (ev->d && ev->cls == SLOT_CLASS_CONTROL && strcmp(ev->name, "TIME") == 0)
        s->lane[l].timed = 1;
    if (s->lane[l].timed) {
        if (!s->lane[l].any_timed || t < s->lane[l].tlo)
            s->lane[l].tlo = t;
        if (!s->lane[l].any_timed || t > s->lane[l].thi)
            s->lane[l].thi = t;
        s->lane[l].any_timed = 1;
    }
}

/* Each lane's range, and the one bucket width that holds the longest. */
static void set_ranges(struct svg *s)
{
    uint64_t lo = UINT64_MAX, span = 0;
    for (unsigned l = 0; l < NLANES; l++) {
        if (!s->lane[l].any)
            continue;
        s->lane[l].from = s->lane[l].any_timed ? s->lane[l].tlo : s->lane[l].lo;
        s->lane[l].to = s->lane[l].any_timed ? s->lane[l].thi : s->lane[l].hi;
        if (s->lane[l].from < lo)
            lo = s->lane[l].from;
    }
    for (unsigned l = 0; l < NLANES; l++) {
        if (!s->lane[l].any)
            continue;
        if (s->posix)               /* one clock: one origin */
            s->lane[l].from = lo;
        if (s->lane[l].to - s->lane[l].from > span)
            span = s->lane[l].to - s->lane[l].from;
    }
    s->w = span / NBUCKETS + 1;
    s->ready = 1;
}

static int svg_event(void *state, const struct export_event *ev, char *err, size_t errlen)
{
    struct svg *s = state;
    unsigned l = lane_of(ev);
    uint64_t t = ev->time;
    (void)err;
    (void)errlen;
    if (!s->ready)
        set_ranges(s);
    s->lane_events[l]++;
    s->class_events[ev->cls]++;
    s->events++;
    if (ev->kind == EXPORT_DROP)
        s->drops++;
    else if (ev->kind == EXPORT_WRAP)
        s->wraps++;
    uint64_t b = t < s->lane[l].from ? 0 : (t - s->lane[l].from) / s->w;
    if (b >= NBUCKETS)
        b = NBUCKETS - 1;
    if (!s->lane[l].any || t < s->lane[l].from || t > s->lane[l].to)
        s->lane[l].unplaced++;      /* not counted; its mark at the lane's nearest end */
    else
        s->count[l][b][ev->cls] = sat_add(s->count[l][b][ev->cls], 1);
    if (ev->kind == EXPORT_DROP)
        s->mark[l][b] |= MARK_DROP;
    else if (ev->kind == EXPORT_WRAP)
        s->mark[l][b] |= MARK_WRAP;
    return 0;
}

static void xml_text(FILE *f, const char *t)
{
    for (; *t; t++) {
        unsigned char ch = (unsigned char)*t;
        if (ch == '&')
            fputs("&amp;", f);
        else if (ch == '<')
            fputs("&lt;", f);
        else if (ch == '>')
            fputs("&gt;", f);
        else if (ch == '"')
            fputs("&quot;", f);
        else
            fputc(ch >= 0x20 && ch < 0x7f ? ch : '?', f);
    }
}

/* ln(1 + x) for x >= 0, without libm (the library links none): halve
 * until below 2, then the series of atanh. */
static double ln1p(double x)
{
    double y = 1 + x, k = 0;
    while (y > 2) {
        y /= 2;
        k += 0.69314718055994531;
    }
    double z = (y - 1) / (y + 1), z2 = z * z, term = z, sum = 0;
    for (int n = 1; n < 60; n += 2) {
        sum += term / n;
        term *= z2;
    }
    return k + 2 * sum;
}

/* A step of 1, 2 or 5 times a power of ten giving about 8 ticks over span,
 * and the decimals its labels need. */
static double nice_step(double span, int *dec)
{
    double raw = span / 8, p = 1;
    *dec = 0;
    while (p > raw && p > 1e-12) {
        p /= 10;
        (*dec)++;
    }
    while (p * 10 <= raw && p < 1e12) {
        p *= 10;
        if (*dec > 0)
            (*dec)--;
    }
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void axis(struct svg *s, double secs, int y)
{
    FILE *f = s->f;
    fprintf(f, "<g class=\"axis\" font-size=\"11\" fill=\"#1f2328\">\n"
            "<path d=\"M%d %dh%d\" stroke=\"#1f2328\"/>\n", X0, y, PLOT_W);
    if (secs <= 0)
        secs = 1.0 / (double)s->freq;
    int dec;
    double step = nice_step(secs, &dec);
    for (int i = 0; i * step <= secs * (1 + 1e-9) && i < 100; i++) {
        double x = X0 + PLOT_W * (i * step / secs);
        fprintf(f, "<path d=\"M%.1f %dv5\" stroke=\"#1f2328\"/><text x=\"%.1f\" y=\"%d\" "
                "text-anchor=\"middle\">%.*f</text>\n", x, y, x, y + 17, dec, i * step);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since the first event "
            "(s)</text>\n</g>\n", X0 + PLOT_W / 2, y + 34);
}

static void legend(struct svg *s, int y)
{
    FILE *f = s->f;
    int x = X0;
    fprintf(f, "<g class=\"legend\" font-size=\"12\" fill=\"#1f2328\">\n");
    for (unsigned k = 0; k < EXPORT_NCLASSES; k++) {
        if (!s->class_events[k])
            continue;
        if (x > WIDTH - 200) {
            x = X0;
            y += 18;
        }
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                "<text x=\"%d\" y=\"%d\">%s %" PRIu64 "</text>\n", x, y - 10,
                class_colour[k], x + 16, y, class_label[k], s->class_events[k]);
        x += 180;
    }
    if (x > WIDTH - 200) {
        x = X0;
        y += 18;
    }
    fprintf(f, "<path d=\"M%d %dl-5 -9h10z\" fill=\"#d1242f\"/><text x=\"%d\" y=\"%d\">"
            "DROPPED %" PRIu64 "</text>\n", x + 6, y, x + 16, y, s->drops);
    x += 140;
    fprintf(f, "<path d=\"M%d %dv-12\" stroke=\"#1f2328\" stroke-width=\"2\" "
            "stroke-dasharray=\"3 2\"/><text x=\"%d\" y=\"%d\">buffer wrap %" PRIu64
            "</text>\n</g>\n", x + 6, y + 1, x + 16, y, s->wraps);
}

static int svg_end(void *state, const struct export_source *src, int failed, char *err,
                   size_t errlen)
{
    struct svg *s = state;
    FILE *f = s->f;
    unsigned lanes[NLANES], nl = 0, nclasses = 0, last = 0;
    for (unsigned l = 0; l < NLANES; l++)
        if (s->lane_events[l])
            lanes[nl++] = l;
    for (unsigned k = 0; k < EXPORT_NCLASSES; k++)
        nclasses += s->class_events[k] != 0;
    for (unsigned i = 0; i < nl; i++)
        for (unsigned b = 0; b < NBUCKETS; b++)
            for (unsigned k = 0; k < EXPORT_NCLASSES; k++)
                if (s->count[lanes[i]][b][k] && b > last)
                    last = b;
    /* Columns of g buckets: at most MAX_BARS bars in all. */
    unsigned g = 1;
    while ((last / g + 1) * (nl ? nl : 1) * (nclasses ? nclasses : 1) > MAX_BARS)
        g *= 2;
    unsigned ncols = last / g + 1;
    double cw = (double)PLOT_W / ncols;
    double secs = (double)ncols * g * (double)(s->w ? s->w : 1) / (double)s->freq;

    uint64_t maxc = 1;
    for (unsigned i = 0; i < nl; i++)
        for (unsigned c = 0; c < ncols; c++) {
            uint64_t t = 0;
            for (unsigned b = c * g; b < (c + 1) * g && b < NBUCKETS; b++)
                for (unsigned k = 0; k < EXPORT_NCLASSES; k++)
                    t += s->count[lanes[i]][b][k];
            if (t > maxc)
                maxc = t;
        }

    int rc = 0;
    int height = TOP + (int)(nl ? nl : 1) * (LANE_H + LANE_GAP) + 110;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/"
            "svg\" class=\"tracedump-timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"system-ui, Helvetica, Arial, sans-serif\">\n<title>", WIDTH, height,
            WIDTH, height);
    xml_text(f, src->name);
    fprintf(f, ": timeline</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n"
            "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"600\">", WIDTH, height, X0);
    xml_text(f, src->name);
    fprintf(f, "</text>\n<text x=\"%d\" y=\"40\" font-size=\"12\" fill=\"#59636e\">%" PRIu64
            " events on %u %s; %s; each column %.3g s; height: events, log scale (most: %"
            PRIu64 ")</text>\n", X0, s->events, nl, src->posix ? "CPU lanes" : "CPUs",
            src->posix ? "one clock (ns since the Epoch), time since the first event"
                       : "each CPU's own counter (KSP-15), from its first event",
            (double)g * (double)s->w / (double)s->freq, maxc);
    if (nl == 0)
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\">no events</text>\n", X0,
                TOP + LANE_H / 2);
    for (unsigned i = 0; i < nl; i++) {
        unsigned l = lanes[i];
        int y = TOP + (int)i * (LANE_H + LANE_GAP);
        char label[16];
        if (l == SLOT_NCPUS)
            snprintf(label, sizeof label, "CPU ?");
        else
            snprintf(label, sizeof label, "CPU %u", l);
        fprintf(f, "<g class=\"lane\" data-cpu=\"%d\" data-y=\"%d\" data-h=\"%d\">\n<title>CPU "
                "%d: %" PRIu64 " events, %" PRIu64 " outside its range (before its first TIME event)"
                " not drawn"
                "</title>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height="
                "\"%d\" fill=\"#f6f8fa\"/>\n<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor"
                "=\"end\">%s</text>\n", l == SLOT_NCPUS ? -1 : (int)l, y, LANE_H,
                l == SLOT_NCPUS ? -1 : (int)l, s->lane_events[l], s->lane[l].unplaced, X0, y,
                PLOT_W, LANE_H, X0 - 8, y + LANE_H / 2 + 4, label);
        /* The stacked bars: one path a class, x in columns (scaled), y in px. */
        double *base = calloc(ncols, sizeof *base);
        double *hcol = calloc(ncols, sizeof *hcol);
        uint64_t *tot = calloc(ncols, sizeof *tot);
        if (base == NULL || hcol == NULL || tot == NULL) {
            free(base);
            free(hcol);
            free(tot);
            snprintf(err, errlen, "out of memory");
            rc = ENOMEM;
            break;
        }
        for (unsigned c = 0; c < ncols; c++) {
            for (unsigned b = c * g; b < (c + 1) * g && b < NBUCKETS; b++)
                for (unsigned k = 0; k < EXPORT_NCLASSES; k++)
                    tot[c] += s->count[l][b][k];
            hcol[c] = tot[c] ? LANE_H * (0.2 + 0.8 * ln1p((double)tot[c]) /
                                                    ln1p((double)maxc)) : 0;
            base[c] = y + LANE_H;
        }
        for (unsigned k = 0; k < EXPORT_NCLASSES; k++) {
            if (!s->class_events[k])
                continue;
            int open = 0;
            for (unsigned c = 0; c < ncols; c++) {
                uint64_t n = 0;
                for (unsigned b = c * g; b < (c + 1) * g && b < NBUCKETS; b++)
                    n += s->count[l][b][k];
                if (!n)
                    continue;
                double h = hcol[c] * (double)n / (double)tot[c];
                if (!open) {
                    fprintf(f, "<path fill=\"%s\" transform=\"translate(%d 0) scale(%.6f 1)\" "
                            "d=\"", class_colour[k], X0, cw);
                    open = 1;
                }
                base[c] -= h;
                fprintf(f, "M%u %.1fh1v%.1fh-1z", c, base[c], h);
            }
            if (open)
                fputs("\"/>\n", f);
        }
        for (unsigned c = 0; c < ncols; c++) {
            unsigned m = 0;
            for (unsigned b = c * g; b < (c + 1) * g && b < NBUCKETS; b++)
                m |= s->mark[l][b];
            double x = X0 + (c + 0.5) * cw;
            if (m & MARK_WRAP)
                fprintf(f, "<path class=\"wrap\" d=\"M%.1f %dv%d\" stroke=\"#1f2328\" "
                        "stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>\n", x, y, LANE_H);
            if (m & MARK_DROP)
                fprintf(f, "<path class=\"dropped\" d=\"M%.1f %dl-5 -9h10z\" fill=\"#d1242f\">"
                        "<title>DROPPED</title></path>\n", x, y + 1);
        }
        free(base);
        free(hcol);
        free(tot);
        fputs("</g>\n", f);
    }
    int ay = TOP + (int)(nl ? nl : 1) * (LANE_H + LANE_GAP) + 2;
    axis(s, secs, ay);
    legend(s, ay + 62);
    fputs("</svg>\n", f);
    if (!failed && rc == 0 && (fflush(f) != 0 || ferror(f))) {
        rc = errno ? errno : EIO;
        snprintf(err, errlen, "cannot write the output: %s", strerror(rc));
    }
    free(s->count);
    free(s->mark);
    free(s);
    return failed ? 0 : rc;
}

const struct export_writer export_svg_writer = { svg_begin, svg_scan, svg_event, svg_end };
