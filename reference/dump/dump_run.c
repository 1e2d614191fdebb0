/* SPDX-License-Identifier: MIT */
/*
 * dump_run.c -- the trace dumper's driver (dump.h): parses the header,
 * decodes the slots with the codec, asks the layers to describe each event
 * and hands it to the text or JSON writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dump/dump.h"

static const char *const kind_names[SLOT_NERROR_KINDS] = {
    [SLOT_ERR_RESERVED_CLASS] = "reserved_class",
    [SLOT_ERR_NO_OPEN_COMBINE] = "no_open_combine",
    [SLOT_ERR_NESTED_CB] = "nested_cb",
    [SLOT_ERR_LEFT_OPEN] = "left_open",
    [SLOT_ERR_HOLD_LIMIT] = "hold_limit",
    [SLOT_ERR_NO_MEMORY] = "no_memory",
    [SLOT_ERR_CUT_SLOT] = "cut_slot",
};

const char *dump_error_kind(enum slot_error_kind k)
{
    return (unsigned)k < SLOT_NERROR_KINDS ? kind_names[k] : "unknown";
}

static void on_event(void *user, const struct slot_event *ev)
{
    struct dump_ctx *c = user;
    struct dump_desc d;

    if (c->o->totals && ev->cpu < SLOT_NCPUS && ev->cls < SLOT_NCLASSES)
        c->by_cpu_class[ev->cpu][ev->cls]++;
    double shown = dump_shown_time(c, ev);     /* keeps the CPU's origin: every event */
    if (c->o->no_events && c->o->filter == NULL) {
        c->nevents++;
        return;
    }
    int claimed = 0;
    for (size_t i = 0; i < c->o->nlayers && !claimed; i++) {
        memset(&d, 0, sizeof d);
        claimed = c->o->layers[i].describe(c->o->layers[i].ctx, ev, &d);
    }
    if (!claimed) {
        memset(&d, 0, sizeof d);
        dump_kernel_describe(ev, &d);
    }
    if (d.class_name == NULL)
        d.class_name = dump_class_name(ev->cls);
    c->nevents++;
    if (c->o->filter &&
        !dump_filter_pass(c->o->filter, ev->cpu, d.class_name, d.name, dump_desc_pid(&d),
                          shown))
        return;
    c->shown++;                 /* counted with or without event lines (--summary) */
    if (c->o->no_events)
        return;
    c->time = shown;
    if (c->o->format == DUMP_JSON)
        dump_json_event(c, ev, &d);
    else
        dump_text_event(c, ev, &d);
    c->prev = shown;
    c->prev_ticks = ev->time;
    c->have_prev = 1;
}

static void on_error(void *user, const struct slot_error *e)
{
    struct dump_ctx *c = user;
    if (c->o->format == DUMP_JSON)
        dump_json_error(c, e);
    else
        dump_text_error(c, e);
}

static void say(char *err, size_t errlen, const char *msg, int rc)
{
    if (err && errlen)
        snprintf(err, errlen, "%s%s%s", msg, rc ? ": " : "", rc ? strerror(rc) : "");
}

/* The common part of dump_fd and dump_mem: fd >= 0, or the file in mem. */
static int run(int fd, const void *mem, size_t len, FILE *out, const struct dump_options *o,
               struct dump_result *r, char *err, size_t errlen)
{
    struct trace_file_info *info = malloc(sizeof *info);   /* 16 KiB: not on the stack */
    struct dump_ctx c = { .out = out, .o = o };
    struct slot_decoder d;
    int rc, json = o->format == DUMP_JSON;

    memset(r, 0, sizeof *r);
    if (err && errlen)
        err[0] = '\0';
    if (info == NULL) {
        say(err, errlen, "out of memory", 0);
        return ENOMEM;
    }
    rc = fd >= 0 ? trace_file_read_header(fd, info, err, errlen)
                 : trace_file_parse(mem, len, len, info, err, errlen);
    if (rc != 0) {
        r->rejected = 1;
        if (json) {
            dump_json_begin(&c);
            dump_json_end(&c, &r->sum, err, rc);
        }
        free(info);
        return rc;
    }
    r->cpu_num = info->cpu_num;
    c.info = info;
    if (json)
        dump_json_begin(&c);
    else
        dump_text_begin(&c);

    struct slot_decoder_config cfg = { .on_event = on_event, .on_error = on_error, .user = &c };
    if ((rc = slot_decoder_init(&d, &cfg)) != 0) {
        say(err, errlen, "out of memory", 0);
    } else {
        rc = fd >= 0 ? trace_file_decode_fd(fd, &d, info, err, errlen)
                     : trace_file_decode(mem, len, &d, info, err, errlen);
        slot_decoder_summary(&d, &r->sum);
        slot_decoder_free(&d);
    }
    if (rc == 0 && c.errors_failed) {
        /* Errors are never left out silently: the document says so. */
        rc = c.errors_failed;
        say(err, errlen, "cannot create a temporary file for the errors", rc);
    }
    if (json)
        dump_json_end(&c, &r->sum, rc ? err : NULL, rc);
    else
        dump_text_end(&c, &r->sum);
    if (c.errors)
        fclose(c.errors);
    free(info);
    return rc;
}

int dump_fd(int fd, FILE *out, const struct dump_options *o, struct dump_result *r,
            char *err, size_t errlen)
{
    if (fd < 0) {
        memset(r, 0, sizeof *r);
        say(err, errlen, "dump_fd: no file", EBADF);
        return EBADF;
    }
    return run(fd, NULL, 0, out, o, r, err, errlen);
}

int dump_mem(const void *file, size_t len, FILE *out, const struct dump_options *o,
             struct dump_result *r, char *err, size_t errlen)
{
    return run(-1, file, len, out, o, r, err, errlen);
}
