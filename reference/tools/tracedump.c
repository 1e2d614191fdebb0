/*
 * tracedump -- prints the events of a kernel trace file, one a line or as
 * JSON, with per-CPU and per-class totals, the dropped events reported and
 * the integrity errors found (<posixtrace_dump.h>; formats in
 * reference/kernel/KERNEL.md).  A POSIX trace log (TRACE_POSIX_LOG::1 in its
 * header) is shown as POSIX events, oldest first, with its attributes,
 * event names and status (reference/log/LOGFORMAT.md); --slots shows its slots.
 *
 * Exit status: 0 the file was read and is sound; 1 it was read but has
 * integrity errors (KSP-5, KSP-14, KSP-25's cut slot; for a POSIX log, also
 * a log that was not shut down); 2 it could not be read (rejected header,
 * I/O error) or the arguments are wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <posixtrace_dump.h>

static const char usage[] =
    "usage: tracedump [--json] [--summary] [--slots] FILE\n"
    "       tracedump --ctf DIR | --chrome | --svg FILE\n"
    "Prints the events of a kernel trace file (kernel slot protocol), one a line;\n"
    "of a POSIX trace log, its POSIX events, attributes, names and status.\n"
    "\n"
    "  --json       one JSON document (schema: reference/kernel/KERNEL.md; for a POSIX\n"
    "               log, reference/log/LOGFORMAT.md)\n"
    "  --summary    the header and the totals only, no event lines\n"
    "  --slots      a POSIX log's slots, as for a kernel trace\n"
    "  --ctf DIR    write the trace as CTF 1.8 into the folder DIR (babeltrace2 DIR)\n"
    "  --chrome     the Chrome/Perfetto Trace Event Format (JSON) on standard output\n"
    "  --svg        a per-CPU timeline picture (SVG) on standard output\n"
    "               (reference/dump/EXPORT.md)\n"
    "  -h, --help   this text\n"
    "\n"
    "Exit status: 0 sound, 1 integrity errors found (or a POSIX log not shut down),\n"
    "2 unreadable or bad arguments.\n";

int main(int argc, char **argv)
{
    struct dump_trace_options o = { .format = DUMP_TEXT };
    const char *path = NULL;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            o.format = DUMP_JSON;
        } else if (strcmp(argv[i], "--summary") == 0) {
            o.no_events = 1;
        } else if (strcmp(argv[i], "--slots") == 0) {
            o.slots = 1;
        } else if (strcmp(argv[i], "--ctf") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "tracedump: --ctf needs a folder\n");
                return 2;
            }
            o.format = DUMP_CTF;
            o.ctf_dir = argv[++i];
        } else if (strcmp(argv[i], "--chrome") == 0) {
            o.format = DUMP_CHROME;
        } else if (strcmp(argv[i], "--svg") == 0) {
            o.format = DUMP_SVG;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "tracedump: unknown option \"%s\"\n(tracedump --help lists the "
                    "options)\n", argv[i]);
            return 2;
        } else if (path != NULL) {
            fprintf(stderr, "tracedump: one file at a time (\"%s\" and \"%s\" given)\n", path,
                    argv[i]);
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (path == NULL) {
        fprintf(stderr, "tracedump: no file given\n(tracedump --help lists the options)\n");
        return 2;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "tracedump: %s: %s\n", path, strerror(errno));
        return 2;
    }
    struct dump_trace_result r;
    char err[512];
    o.name = path;
    int rc = dump_trace_fd(fd, stdout, &o, &r, err, sizeof err);
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
