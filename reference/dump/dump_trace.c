/* SPDX-License-Identifier: MIT */
/*
 * dump_trace.c -- the public way in of the dumper (<posixtrace_dump.h>): a
 * trace file, whatever it is.  The header says which: a POSIX trace log
 * (TRACE_POSIX_LOG:: in its header) is shown by the POSIX view (dump_posix.c) or, with
 * the slots option, by the slot view with the log's records named
 * (dump_posix_layer); any other file by the kernel view (dump_run.c), which
 * also rejects a file whose header cannot be read, with its message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dump/dump.h"
#include "dump/export.h"

/* Is the file (open on fd, or in memory) a POSIX trace log? */
static int is_posix_log(int fd, const void *mem, size_t len)
{
    struct trace_file_info *info = malloc(sizeof *info);   /* 16 KiB */
    int yes = info != NULL &&
              (fd >= 0 ? trace_file_read_header(fd, info, NULL, 0)
                       : trace_file_parse(mem, len, len, info, NULL, 0)) == 0 &&
              dump_is_posix_log(info);
    free(info);
    return yes;
}

static int run(int fd, const void *mem, size_t len, FILE *out,
               const struct dump_trace_options *to, struct dump_trace_result *r,
               char *err, size_t errlen)
{
    if (to->format == DUMP_CTF || to->format == DUMP_CHROME || to->format == DUMP_SVG)
        return export_trace(fd, mem, len, to->format, to->ctf_dir, out, to->name, r, err,
                            errlen);
    struct dump_options o = { .format = to->format, .no_events = to->no_events,
                              .name = to->name, .seconds = to->seconds, .delta = to->delta,
                              .totals = to->totals, .filter = to->filter };
    int posix = is_posix_log(fd, mem, len), rc;

    memset(r, 0, sizeof *r);
    if (posix && !to->slots) {
        struct dump_posix_result pr;
        rc = fd >= 0 ? dump_posix_fd(fd, out, &o, &pr, err, errlen)
                     : dump_posix_mem(mem, len, out, &o, &pr, err, errlen);
        r->posix_log = 1;
        r->events = pr.events;
        r->errors = pr.errors;
        r->incomplete = !pr.complete;
        return rc;
    }
    if (posix) {
        o.layers = &dump_posix_layer;
        o.nlayers = 1;
    }
    struct dump_result kr;
    rc = fd >= 0 ? dump_fd(fd, out, &o, &kr, err, errlen)
                 : dump_mem(mem, len, out, &o, &kr, err, errlen);
    r->events = kr.sum.events;
    r->errors = kr.sum.errors;
    return rc;
}

int dump_trace_fd(int fd, FILE *out, const struct dump_trace_options *o,
                  struct dump_trace_result *r, char *err, size_t errlen)
{
    if (fd < 0) {
        memset(r, 0, sizeof *r);
        if (err && errlen)
            snprintf(err, errlen, "dump_trace_fd: no file: %s", strerror(EBADF));
        return EBADF;
    }
    return run(fd, NULL, 0, out, o, r, err, errlen);
}

int dump_trace_mem(const void *file, size_t len, FILE *out,
                   const struct dump_trace_options *o, struct dump_trace_result *r,
                   char *err, size_t errlen)
{
    return run(-1, file, len, out, o, r, err, errlen);
}
