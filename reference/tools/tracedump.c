/* SPDX-License-Identifier: MIT */
/*
 * tracedump -- prints the events of a kernel trace file, one a line or as
 * JSON, with per-CPU and per-class totals, the dropped events reported and
 * the integrity errors found (<posixtrace_dump.h>; formats in
 * reference/kernel/KERNEL.md).  A POSIX trace log (TRACE_POSIX_LOG:: in its
 * header) is shown as POSIX events, oldest first, with its attributes,
 * event names and status (reference/log/LOGFORMAT.md); --slots shows its slots.
 *
 * For people reading traces (issue 17): times in seconds (--ticks: raw),
 * --delta, filters (--cpu, --class, --event, --pid, --from, --to), "-" for
 * standard input, the summary's events by CPU and class with a total line.
 * It streams: the file is read 64 KiB at a time whatever its size; standard
 * input, when it is not a regular file, is first copied to a temporary file
 * (the header is read again once the file's kind is known).  A named file
 * that is not a regular file (a FIFO, a socket, a device) is refused at once
 * (issue 20 item 6): it is opened O_NONBLOCK, so that a FIFO nobody writes to
 * cannot hang the open, and checked with fstat before anything is read.
 *
 * Exit status: 0 the file was read and is sound; 1 it was read but has
 * integrity errors (KSP-5, KSP-14, KSP-25's cut slot; for a POSIX log, also
 * a log that was not shut down); 2 it could not be read (rejected header,
 * I/O error) or the arguments are wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <posixtrace_dump.h>

static const char usage[] =
    "usage: tracedump [options] FILE      (FILE '-': standard input)\n"
    "Prints the events of a kernel trace file (kernel slot protocol), one a line;\n"
    "of a POSIX trace log, its POSIX events, attributes, names and status.\n"
    "\n"
    "  --json         one JSON document (schema: reference/kernel/KERNEL.md; for a POSIX\n"
    "                 log, reference/log/LOGFORMAT.md)\n"
    "  --summary      the header and the totals only, no event lines\n"
    "  --slots        a POSIX log's slots, as for a kernel trace\n"
    "  --ticks        a kernel trace's times as raw 64-bit ticks (default: seconds\n"
    "                 since its first event)\n"
    "  --delta        a column: the time since the previous event shown\n"
    "  --cpu N[,M]    only events of these CPUs\n"
    "  --class NAME[,NAME]  only events of these classes (KER_CALL, INT, PR_TH, COMM,\n"
    "                 CONTROL, SYSTEM, USER, EMPTY; a POSIX log's: SYSTEM, USER)\n"
    "  --event NAME[,NAME]  only events of these names, as shown (enter:11, BUFFER)\n"
    "  --pid N        only events that carry this process id\n"
    "  --from SECONDS, --to SECONDS  only events in this time window (as shown)\n"
    "  --no-totals    leave out the summary's events by CPU and class\n"
    "  --ctf DIR      write the trace as CTF 1.8 into the folder DIR (babeltrace2 DIR)\n"
    "  --chrome       the Chrome/Perfetto Trace Event Format (JSON) on standard output\n"
    "  --svg          a per-CPU timeline picture (SVG) on standard output\n"
    "                 (the three: reference/dump/EXPORT.md)\n"
    "  -h, --help     this text\n"
    "  --version      the version\n"
    "\n"
    "Exit status: 0 sound, 1 integrity errors found (or a POSIX log not shut down),\n"
    "2 unreadable or bad arguments.\n";

#define MAX_LIST 64

/* A comma-separated list into names[] (argument kept: argv outlives main's use). */
static int split(char *arg, const char **names, size_t *n)
{
    for (char *t = strtok(arg, ","); t; t = strtok(NULL, ",")) {
        if (*n == MAX_LIST)
            return -1;
        names[(*n)++] = t;
    }
    return 0;
}

static int number(const char *s, unsigned long long max, unsigned long long *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return errno || *end || *v > max ? -1 : 0;
}

static int seconds(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return *s == '\0' || *end ? -1 : 0;
}

static int bad(const char *what, const char *arg)
{
    fprintf(stderr, "tracedump: %s: \"%s\"\n(tracedump --help lists the options)\n", what, arg);
    return 2;
}

static int known_class(const char *name)
{
    static const char *const classes[] = { "EMPTY", "CONTROL", "KER_CALL", "INT", "PR_TH",
                                           "SYSTEM", "USER", "COMM" };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strcasecmp(classes[i], name) == 0)
            return 1;
    return 0;
}

/* Standard input as a file descriptor the dumper can read (a regular file:
 * it reads the header, then the rest, at offsets): itself if it is one,
 * else a temporary file it is copied to, chunk by chunk. */
static int stdin_fd(FILE **tmp)
{
    struct stat st;
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode))
        return STDIN_FILENO;
    if ((*tmp = tmpfile()) == NULL)
        return -1;
    static char buf[1 << 16];
    ssize_t n;
    while ((n = read(STDIN_FILENO, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || fwrite(buf, 1, (size_t)n, *tmp) != (size_t)n)
            return -1;
    }
    return fflush(*tmp) == 0 ? fileno(*tmp) : -1;
}

/* path opened for reading if it is a regular file; else -1 with errno set
 * (EINVAL for the wrong kind of file, named in *kind).  O_NONBLOCK keeps a
 * FIFO without a writer from blocking the open; it is cleared again once
 * the file is known to be regular (it means nothing there anyway). */
static int open_regular(const char *path, const char **kind)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    *kind = NULL;
    if (fd < 0) {
        int e = errno;                  /* a socket cannot be opened (ENXIO) */
        if (stat(path, &st) == 0 && S_ISSOCK(st.st_mode))
            *kind = "a socket";
        errno = e;
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *kind = S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" :
                S_ISCHR(st.st_mode) ? "a character device" :
                S_ISBLK(st.st_mode) ? "a block device" :
                S_ISDIR(st.st_mode) ? "a directory" : "not a regular file";
        close(fd);
        errno = EINVAL;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

/* What the command line asks for. */
struct args {
    struct dump_trace_options o;
    struct dump_filter f;
    const char *classes[MAX_LIST], *events[MAX_LIST];
    const char *path;
};

/* Reads the command line into *out: -1 to go on, else the exit status (0
 * after --help or --version, 2 for bad arguments, with a message).  It never
 * exits the process: fuzz/fuzz_tool_args.c calls it on any argv. */
static int parse_args(int argc, char **argv, struct args *out)
{
    struct dump_trace_options o = { .format = DUMP_TEXT, .seconds = 1, .totals = 1 };
    struct dump_filter f = { 0 };
    const char **classes = out->classes, **events = out->events;
    const char *path = NULL;
    int filtered = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = strcmp(a, "--cpu") == 0 || strcmp(a, "--class") == 0 ||
                    strcmp(a, "--event") == 0 || strcmp(a, "--pid") == 0 ||
                    strcmp(a, "--from") == 0 || strcmp(a, "--to") == 0;
        if (takes && v == NULL)
            return bad("this option needs a value", a);
        if (takes) {
            i++;
            filtered = 1;
        }
        if (strcmp(a, "--json") == 0) {
            o.format = DUMP_JSON;
        } else if (strcmp(a, "--summary") == 0) {
            o.no_events = 1;
        } else if (strcmp(a, "--slots") == 0) {
            o.slots = 1;
        } else if (strcmp(a, "--ctf") == 0) {
            if (v == NULL || v[0] == '\0') {
                fprintf(stderr, "tracedump: --ctf needs a folder\n");
                return 2;
            }
            o.format = DUMP_CTF;
            o.ctf_dir = v;
            i++;
        } else if (strcmp(a, "--chrome") == 0) {
            o.format = DUMP_CHROME;
        } else if (strcmp(a, "--svg") == 0) {
            o.format = DUMP_SVG;
        } else if (strcmp(a, "--ticks") == 0) {
            o.seconds = 0;
        } else if (strcmp(a, "--delta") == 0) {
            o.delta = 1;
        } else if (strcmp(a, "--no-totals") == 0) {
            o.totals = 0;
        } else if (strcmp(a, "--cpu") == 0) {
            for (char *t = strtok(v, ","); t; t = strtok(NULL, ",")) {
                unsigned long long c;
                if (number(t, 63, &c) != 0)
                    return bad("--cpu: not a CPU from 0 to 63", t);
                f.cpus |= 1ull << c;
            }
            if (f.cpus == 0)
                return bad("--cpu: no CPU given", v);
        } else if (strcmp(a, "--class") == 0) {
            if (split(v, classes, &f.nclasses) != 0)
                return bad("--class: too many names", a);
            for (size_t k = 0; k < f.nclasses; k++)
                if (!known_class(classes[k]))
                    return bad("--class: unknown class", classes[k]);
            f.classes = classes;
        } else if (strcmp(a, "--event") == 0) {
            if (split(v, events, &f.nevents) != 0)
                return bad("--event: too many names", a);
            f.events = events;
        } else if (strcmp(a, "--pid") == 0) {
            unsigned long long pid;
            if (number(v, 0xffffffffull, &pid) != 0)
                return bad("--pid: not a process id", v);
            f.pid = pid;
            f.has_pid = 1;
        } else if (strcmp(a, "--from") == 0) {
            if (seconds(v, &f.from) != 0)
                return bad("--from: not a number of seconds", v);
            f.has_from = 1;
        } else if (strcmp(a, "--to") == 0) {
            if (seconds(v, &f.to) != 0)
                return bad("--to: not a number of seconds", v);
            f.has_to = 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("tracedump (posixtrace) %s\n", POSIXTRACE_VERSION);
            return 0;
        } else if (takes) {
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "tracedump: unknown option \"%s\"\n(tracedump --help lists the "
                    "options)\n", a);
            return 2;
        } else if (path != NULL) {
            fprintf(stderr, "tracedump: one file at a time (\"%s\" and \"%s\" given)\n", path,
                    a);
            return 2;
        } else {
            path = a;
        }
    }
    if (path == NULL) {
        fprintf(stderr, "tracedump: no file given\n(tracedump --help lists the options)\n");
        return 2;
    }
    out->f = f;
    out->o = o;
    out->o.filter = filtered ? &out->f : NULL;
    out->path = path;
    return -1;
}

int main(int argc, char **argv)
{
    static struct args args;
    int rc = parse_args(argc, argv, &args);
    if (rc >= 0)
        return rc;
    struct dump_trace_options o = args.o;
    const char *path = args.path;
    FILE *tmp = NULL;
    int from_stdin = strcmp(path, "-") == 0;
    const char *kind = NULL;
    int fd = from_stdin ? stdin_fd(&tmp) : open_regular(path, &kind);
    if (fd < 0 && kind != NULL) {
        fprintf(stderr, "tracedump: %s: %s, not a regular file: cannot be read as a trace "
                "(copy it to a file, or pipe it to \"tracedump -\")\n", path, kind);
        return 2;
    }
    if (fd < 0) {
        fprintf(stderr, "tracedump: %s: %s\n", from_stdin ? "standard input" : path,
                strerror(errno ? errno : EIO));
        if (tmp)
            fclose(tmp);
        return 2;
    }
    struct dump_trace_result r;
    char err[512];
    o.name = path;
    rc = dump_trace_fd(fd, stdout, &o, &r, err, sizeof err);
    if (tmp)
        fclose(tmp);
    else if (!from_stdin)
        close(fd);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "tracedump: cannot write the output: %s\n", strerror(errno));
        return 2;
    }
    if (rc != 0) {
        fprintf(stderr, "tracedump: %s: %s\n", path, err);
        return 2;
    }
    return r.errors || r.incomplete ? 1 : 0;
}
