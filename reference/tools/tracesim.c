/* SPDX-License-Identifier: MIT */
/*
 * tracesim -- runs the simulated instrumented kernel and writes its trace
 * file (<posixtrace_kernel.h>, reference/kernel/KERNEL.md).
 *
 *   tracesim --cpus 4 --events 1000000 --seed 7 --mode linear -o out.kev
 *
 * Prints a summary of what was generated, written, dropped; with --verify
 * it reads the file back and checks that every event is accounted for
 * (decoded + reported dropped [+ overwritten] = generated) and that the file
 * keeps the kernel's rules.  On a terminal, long runs show their progress on
 * stderr.  Exit status: 0, 1 if --verify found a problem, 2 on bad
 * arguments or an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <posixtrace_kernel.h>

static const char usage[] =
    "usage: tracesim [options] -o FILE\n"
    "Simulates an instrumented kernel and writes its trace file (kernel slot protocol).\n"
    "\n"
    "  -o, --output FILE        the trace file to write ('-': standard output)\n"
    "  -c, --cpus N             simulated CPUs, 1-64 (default 1)\n"
    "  -n, --events N           workload events to generate (default 100000)\n"
    "  -s, --seed N             the seed of every random choice (default 1)\n"
    "  -m, --mode linear|ring   linear: hand buffers to the logger at the high-water mark,\n"
    "                           drop when none is free; ring: overwrite the oldest\n"
    "                           (default linear)\n"
    "  -b, --buffers N          kernel buffers of 16 KiB, 2-4096 (default 32)\n"
    "      --logger-every N     the logger copies one buffer every N events generated;\n"
    "                           0: at once, it never falls behind (default 0)\n"
    "      --logger-lanes N     buffers the logger copies at the same time, 1-8 (default 1)\n"
    "      --logger-jitter PCT  each copy takes N +- PCT percent events, 0-100 (default 0)\n"
    "      --wrap-early         start each CPU's counter just before its low word wraps\n"
    "      --cycles-per-sec N   the counters' rate (default 1000000000)\n"
    "      --gap-ns N           mean simulated time between two kernel steps (default 500)\n"
    "      --syspage-len N      bytes of simulated system page, 0-65536 (default 256)\n"
    "      --file-name S        TRACE_FILE_NAME of the header (default /dev/shmem/tracebuffer.kev)\n"
    "      --date S             TRACE_DATE and TRACE_BOOT_DATE (default Thu Jan  1 00:00:00 1970)\n"
    "      --nodename S         TRACE_NODENAME (default ksim)\n"
    "      --verify             read the file back: accounting and the kernel's rules\n"
    "  -q, --quiet              no summary\n"
    "  -h, --help               this text\n"
    "      --version            the version\n"
    "\n"
    "The same options give the same file, byte for byte, on every machine.\n";

struct opts {
    struct ksim_config cfg;
    const char *out;
    int verify, quiet;
};

static int die_usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "tracesim: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(tracesim --help lists the options)\n");
    return 2;
}

/* A decimal number in [min, max]. */
static int number(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
    char *end;
    if (s == NULL)
        return die_usage("%s needs a value%s", opt, "");
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*s == '\0' || *s == '-' || *end != '\0' || errno == ERANGE || x < min || x > max) {
        char range[64];
        snprintf(range, sizeof range, " (expected a number from %" PRIu64 " to %" PRIu64 ")",
                 min, max);
        fprintf(stderr, "tracesim: %s: \"%s\" is not a valid value%s\n", opt, s, range);
        return 2;
    }
    *v = x;
    return 0;
}

/* Reads the command line into *o: 0 to go on, -1 after --help or --version
 * (exit status 0), 2 for bad arguments (with a message).  It never exits the
 * process: fuzz/fuzz_tool_args.c calls it on any argv. */
static int parse(int argc, char **argv, struct opts *o)
{
    uint64_t v;
    int rc;

    ksim_config_default(&o->cfg);
    o->cfg.nevents = 100000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
#define IS(s, l) (strcmp(a, s) == 0 || strcmp(a, l) == 0)
#define NUM(min, max) do { if ((rc = number(a, val, min, max, &v)) != 0) return rc; i++; } while (0)
        if (strcmp(a, "--version") == 0) {
            printf("tracesim (posixtrace) %s\n", POSIXTRACE_VERSION);
            return -1;
        }
        if (IS("-h", "--help")) {
            fputs(usage, stdout);
            return -1;
        } else if (IS("-o", "--output")) {
            if (val == NULL)
                return die_usage("%s needs a file name%s", a, "");
            o->out = val;
            i++;
        } else if (IS("-c", "--cpus")) {
            NUM(1, 64);
            o->cfg.ncpus = (unsigned)v;
        } else if (IS("-n", "--events")) {
            NUM(0, UINT64_C(1) << 40);
            o->cfg.nevents = v;
        } else if (IS("-s", "--seed")) {
            NUM(0, UINT64_MAX);
            o->cfg.seed = v;
        } else if (IS("-m", "--mode")) {
            if (val != NULL && strcmp(val, "linear") == 0)
                o->cfg.mode = KSIM_LINEAR;
            else if (val != NULL && strcmp(val, "ring") == 0)
                o->cfg.mode = KSIM_RING;
            else
                return die_usage("%s: expected linear or ring, got \"%s\"", a, val ? val : "");
            i++;
        } else if (IS("-b", "--buffers")) {
            NUM(2, KSIM_MAX_BUFFERS);
            o->cfg.nbuffers = (unsigned)v;
        } else if (IS("--logger-every", "--logger-every")) {
            NUM(0, UINT64_MAX / 200);
            o->cfg.logger_every = v;
        } else if (IS("--logger-lanes", "--logger-lanes")) {
            NUM(1, KSIM_MAX_LANES);
            o->cfg.logger_lanes = (unsigned)v;
        } else if (IS("--logger-jitter", "--logger-jitter")) {
            NUM(0, 100);
            o->cfg.logger_jitter = (unsigned)v;
        } else if (IS("--wrap-early", "--wrap-early")) {
            o->cfg.wrap_early = 1;
        } else if (IS("--cycles-per-sec", "--cycles-per-sec")) {
            NUM(1, KSIM_MAX_CPS);
            o->cfg.cycles_per_sec = v;
        } else if (IS("--gap-ns", "--gap-ns")) {
            NUM(1, KSIM_MAX_GAP_NS);
            o->cfg.gap_ns = v;
        } else if (IS("--syspage-len", "--syspage-len")) {
            NUM(0, 65536);
            o->cfg.syspage_len = (size_t)v;
        } else if (IS("--file-name", "--file-name") || IS("--date", "--date") ||
                   IS("--nodename", "--nodename")) {
            if (val == NULL)
                return die_usage("%s needs a value%s", a, "");
            if (a[2] == 'f')
                o->cfg.file_name = val;
            else if (a[2] == 'd')
                o->cfg.date = o->cfg.boot_date = val;
            else
                o->cfg.nodename = val;
            i++;
        } else if (IS("--verify", "--verify")) {
            o->verify = 1;
        } else if (IS("-q", "--quiet")) {
            o->quiet = 1;
        } else {
            return die_usage("unknown option \"%s\"%s", a, "");
        }
#undef NUM
#undef IS
    }
    if (o->out == NULL)
        return die_usage("no output file: give -o FILE (or -o - for standard output)%s%s", "",
                         "");
    if (o->verify && strcmp(o->out, "-") == 0)
        return die_usage("--verify reads the file back: it needs -o FILE, not -o -%s%s", "",
                         "");
    /* Issue 20 item 6: --verify must read the output back; a FIFO, socket or
     * device there would block or give something else: refused at once. */
    struct stat st;
    if (o->verify && stat(o->out, &st) == 0 && !S_ISREG(st.st_mode))
        return die_usage("--verify reads the file back: %s is not a regular file%s", o->out,
                         "");
    char err[256];
    if (ksim_config_check(&o->cfg, err, sizeof err) != 0)
        return die_usage("%s%s", err, "");
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The progress line: wall-clock time here only decides how often it is
 * redrawn; it never reaches the file. */
struct progress {
    double start, last;
};

static void show_progress(void *user, uint64_t done, uint64_t total)
{
    struct progress *p = user;
    double t = now_s();
    if (done < total && t - p->last < 0.2)
        return;
    p->last = t;
    fprintf(stderr, "\rtracesim: %3.0f%%  %" PRIu64 " of %" PRIu64 " events  %.1f s",
            total ? 100.0 * (double)done / (double)total : 100.0, done, total, t - p->start);
    if (done >= total)
        fputs("\n", stderr);
    fflush(stderr);
}

static void summary(const struct opts *o, const struct ksim_stats *s, double secs)
{
    static const char *const cls[SLOT_NCLASSES] = {
        "EMPTY", "CONTROL", "KER_CALL", "INT", "PR_TH", "SYSTEM", "USER", "COMM" };
    FILE *f = strcmp(o->out, "-") == 0 ? stderr : stdout;

    fprintf(f, "tracesim: %u CPUs, %s mode, %u buffers, seed %" PRIu64 ", %.2f s\n",
            o->cfg.ncpus, o->cfg.mode == KSIM_RING ? "ring" : "linear", o->cfg.nbuffers,
            o->cfg.seed, secs);
    fprintf(f, "  events generated   %" PRIu64 "\n", s->events_generated);
    fprintf(f, "  events written     %" PRIu64 " (combine %" PRIu64 ", straddling buffers %"
            PRIu64 ")\n", s->events_written, s->combine_events, s->straddling_events);
    fprintf(f, "  events dropped     %" PRIu64 " (%" PRIu64 " slots, reported by %" PRIu64
            " DROPPED events)\n", s->events_dropped, s->slots_dropped, s->drop_reports);
    if (o->cfg.mode == KSIM_RING)
        fprintf(f, "  events overwritten %" PRIu64 " (%" PRIu64 " buffers)\n",
                s->events_overwritten, s->buffers_overwritten);
    fprintf(f, "  slots              %" PRIu64 " written, %" PRIu64 " in the file\n",
            s->slots_written, s->slots_logged);
    fprintf(f, "  buffers            %" PRIu64 " started, %" PRIu64 " handed over, %" PRIu64
            " in the file; moves on: %" PRIu64 " to the next, %" PRIu64 " skipping one, %"
            PRIu64 " skipping two\n", s->buffers_started, s->buffers_handed, s->buffers_logged,
            s->skips[0], s->skips[1], s->skips[2]);
    fprintf(f, "  control events     BUFFER %" PRIu64 ", TIME %" PRIu64 " (%" PRIu64
            " at wraps), DROPPED %" PRIu64 "; stamps bumped %" PRIu64 "\n", s->buffer_events,
            s->time_events, s->time_at_wrap, s->drop_reports, s->stamp_bumps);
    fprintf(f, "  per class         ");
    for (int c = 2; c < SLOT_NCLASSES; c++)
        fprintf(f, " %s %" PRIu64, cls[c], s->events_per_class[c]);
    fprintf(f, "\n  per CPU           ");
    for (unsigned c = 0; c < o->cfg.ncpus; c++)
        fprintf(f, " %u:%" PRIu64, c, s->events_per_cpu[c]);
    fprintf(f, "\n  file               %" PRIu64 " bytes (header and system page %" PRIu64
            "): %s\n", s->file_bytes, s->header_bytes, o->out);
}

/* Reads the file back: KSP rules and the accounting.  0 if all is well. */
static int verify(const struct opts *o, const struct ksim_stats *s)
{
    int fd = open(o->out, O_RDONLY | O_NONBLOCK | O_NOCTTY);   /* never blocks */
    struct stat st;
    void *map = MAP_FAILED;
    char err[512];
    struct ksim_verify v;
    int rc = 2;

    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "tracesim: cannot read back %s: %s\n", o->out, strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "tracesim: cannot read back %s: not a regular file\n", o->out);
        goto out;
    }
    if (st.st_size > 0)
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (st.st_size == 0 || map == MAP_FAILED) {
        fprintf(stderr, "tracesim: cannot map %s: %s\n", o->out,
                st.st_size ? strerror(errno) : "empty file");
        goto out;
    }
    double t0 = now_s();
    int vr = ksim_verify_file(map, (size_t)st.st_size, o->cfg.mode == KSIM_LINEAR, &v, err,
                              sizeof err);
    double t1 = now_s();
    uint64_t lost = v.dropped_events + s->events_overwritten;
    int balanced = v.workload_events + lost == s->events_generated;
    printf("verify: %" PRIu64 " slots in %" PRIu64 " buffers decoded in %.2f s\n", v.slots,
           v.buffers, t1 - t0);
    printf("verify: generated %" PRIu64 " = decoded %" PRIu64 " + dropped %" PRIu64,
           s->events_generated, v.workload_events, v.dropped_events);
    if (o->cfg.mode == KSIM_RING)
        printf(" + overwritten %" PRIu64, s->events_overwritten);
    printf(": %s\n", balanced ? "every event accounted for" : "MISMATCH");
    printf("verify: %" PRIu64 " integrity errors, %" PRIu64 " rule problems%s%s\n",
           v.decode_errors, v.problems, vr ? ": first: " : "", vr ? err : "");
    if (v.orphan_slots)     /* KSP-14: the rest of events begun in overwritten buffers */
        printf("verify: %" PRIu64 " slots continue events begun in overwritten buffers "
               "(incomplete events, not errors)\n", v.orphan_slots);
    rc = vr == 0 && balanced ? 0 : 1;
out:
    if (map != MAP_FAILED)
        munmap(map, (size_t)st.st_size);
    if (fd >= 0)
        close(fd);
    return rc;
}

int main(int argc, char **argv)
{
    struct opts o = { 0 };
    struct ksim_stats st;
    struct progress pr = { 0, 0 };
    char err[512];
    int rc;

    if ((rc = parse(argc, argv, &o)) != 0)
        return rc < 0 ? 0 : rc;
    FILE *f = strcmp(o.out, "-") == 0 ? stdout : fopen(o.out, "wb");
    if (f == NULL) {
        fprintf(stderr, "tracesim: cannot create %s: %s\n", o.out, strerror(errno));
        return 2;
    }
    struct ksim_sink sink = { ksim_sink_stdio, f };
    struct ksim_progress prog = { show_progress, &pr };
    pr.start = pr.last = now_s();
    rc = ksim_run(&o.cfg, &sink, isatty(STDERR_FILENO) ? &prog : NULL, &st, err, sizeof err);
    double secs = now_s() - pr.start;
    if (fflush(f) != 0 && rc == 0) {
        rc = errno ? errno : EIO;
        snprintf(err, sizeof err, "cannot write %s: %s", o.out, strerror(rc));
    }
    if (f != stdout && fclose(f) != 0 && rc == 0) {
        rc = errno ? errno : EIO;
        snprintf(err, sizeof err, "cannot write %s: %s", o.out, strerror(rc));
    }
    if (rc != 0) {
        fprintf(stderr, "tracesim: %s\n", err);
        return 2;
    }
    if (!o.quiet)
        summary(&o, &st, secs);
    return o.verify ? verify(&o, &st) : 0;
}
