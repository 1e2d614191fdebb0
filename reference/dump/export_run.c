/* SPDX-License-Identifier: MIT */
/*
 * export_run.c -- the driver of the exports (export.h): reads a kernel
 * trace file with the codec, or a POSIX trace log with the log reader, and
 * gives each event to the writer as an export_event, in file order.
 *
 * What a viewer needs beyond tracedump's own view is decided here, once for
 * every writer: which events open and close a slice (a kernel call's enter
 * and exit, KSP-6's KER_CALL numbering; an interrupt's entry and exit and its
 * handler's), which mark lost events (KSP-22 DROPPED; POSIX_TRACE_OVERFLOW)
 * or a ring that wrapped (a KSP-19 BUFFER whose sequence is not the next,
 * or a first BUFFER that is not sequence 0: older buffers were overwritten),
 * and the thread running on each CPU (the last PR_TH thread RUNNING event
 * of that CPU, KSP-6), which is the pid and tid of the kernel's events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dump/export.h"
#include "log/log_reader.h"
#include "stream/event_names.h"

#define RUNNING_STATE 1u    /* QNX's STATE_RUNNING: PR_TH event 1 (dump_kernel.c) */

struct krun {
    const struct export_writer *w;
    void *state;
    int rc;                     /* the writer's error: the rest is skipped */
    int scanning;               /* the writer's first pass */
    char *err;
    size_t errlen;
    uint64_t events, errors;
    int have_seq;
    uint64_t last_seq;
    struct { int known; uint32_t pid, tid; } running[SLOT_NCPUS];
};

static uint32_t word(const struct slot_event *ev, uint32_t i)
{
    return i < ev->nwords ? ev->words[i] : 0;
}

/* The viewer's kind of a kernel event, and what pairs a slice's ends. */
static enum export_kind kernel_kind(struct krun *k, const struct slot_event *ev,
                                    unsigned *slice)
{
    *slice = 0;
    switch (ev->cls) {
    case SLOT_CLASS_KER_CALL: {
        unsigned part = ev->event / _TRACE_MAX_KER_CALL_NUM;
        *slice = ev->event % _TRACE_MAX_KER_CALL_NUM;
        return part == 0 ? EXPORT_BEGIN : part == 1 ? EXPORT_END : EXPORT_INSTANT;
    }
    case SLOT_CLASS_INT:
        if (ev->event == _TRACE_INT_ENTRY || ev->event == _TRACE_INT_EXIT) {
            *slice = 0x10000u | (word(ev, 0) & 0xffffu);
            return ev->event == _TRACE_INT_ENTRY ? EXPORT_BEGIN : EXPORT_END;
        }
        if (ev->event == _TRACE_INT_HANDLER_ENTRY || ev->event == _TRACE_INT_HANDLER_EXIT) {
            *slice = 0x20000u;
            return ev->event == _TRACE_INT_HANDLER_ENTRY ? EXPORT_BEGIN : EXPORT_END;
        }
        return EXPORT_INSTANT;
    case SLOT_CLASS_CONTROL:
        if (ev->event == _TRACE_CONTROL_DROPPED)
            return EXPORT_DROP;
        if (ev->event == _TRACE_CONTROL_BUFFER) {
            uint64_t seq = word(ev, 0);
            /* The first buffer not 0: a ring overwrote the older ones. */
            int gap = k->have_seq ? seq != ((k->last_seq + 1) & 0xffffffffu) : seq != 0;
            k->have_seq = 1;
            k->last_seq = seq;
            return gap ? EXPORT_WRAP : EXPORT_INSTANT;
        }
        return EXPORT_INSTANT;
    case SLOT_CLASS_PR_TH:
        if (ev->event == RUNNING_STATE && ev->nwords >= 2 && ev->cpu < SLOT_NCPUS) {
            k->running[ev->cpu].known = 1;
            k->running[ev->cpu].pid = ev->words[0];
            k->running[ev->cpu].tid = ev->words[1];
        }
        return EXPORT_INSTANT;
    default:
        return EXPORT_INSTANT;
    }
}

static void on_kernel_event(void *user, const struct slot_event *ev)
{
    struct krun *k = user;
    struct dump_desc d;

    if (!k->scanning)
        k->events++;
    if (k->rc)
        return;
    memset(&d, 0, sizeof d);
    dump_kernel_describe(ev, &d);
    struct export_event x = {
        .time = ev->time, .cpu = (int)ev->cpu, .cls = ev->cls, .class_name = d.class_name,
        .name = d.name, .d = &d, .words = ev->words, .nwords = ev->nwords,
    };
    x.kind = kernel_kind(k, ev, &x.slice);
    if (ev->cpu < SLOT_NCPUS && k->running[ev->cpu].known) {
        x.has_thread = 1;
        x.pid = k->running[ev->cpu].pid;
        x.tid = k->running[ev->cpu].tid;
    }
    if (k->scanning)
        k->w->scan(k->state, &x);
    else
        k->rc = k->w->event(k->state, &x, k->err, k->errlen);
}

static void on_kernel_error(void *user, const struct slot_error *e)
{
    (void)e;
    ((struct krun *)user)->errors++;
}

static const struct export_writer *writer_of(enum dump_format f)
{
    return f == DUMP_CTF ? &export_ctf_writer : f == DUMP_CHROME ? &export_chrome_writer
                                                                  : &export_svg_writer;
}

static int kernel(int fd, const void *mem, size_t len, struct trace_file_info *info,
                  struct export_source *src, const struct export_writer *w,
                  struct dump_trace_result *r, char *err, size_t errlen)
{
    struct krun *k = calloc(1, sizeof *k);
    struct slot_decoder d;
    int rc;

    if (k == NULL) {
        snprintf(err, errlen, "out of memory");
        return ENOMEM;
    }
    *k = (struct krun){ .w = w, .err = err, .errlen = errlen };
    src->freq = info->cycles_per_sec;
    src->cpu_num = info->cpu_num;
    if ((rc = w->begin(&k->state, src, err, errlen)) != 0) {
        free(k);
        return rc;
    }
    struct slot_decoder_config cfg = { .on_event = on_kernel_event,
                                       .on_error = on_kernel_error, .user = k };
    for (int pass = w->scan ? 0 : 1; pass < 2 && rc == 0; pass++) {
        /* Both passes see the same events: the state that names them (the
         * running threads, the buffer sequence) starts afresh. */
        memset(k->running, 0, sizeof k->running);
        k->have_seq = 0;
        k->scanning = pass == 0;
        k->errors = 0;
        if ((rc = slot_decoder_init(&d, &cfg)) != 0) {
            snprintf(err, errlen, "out of memory");
            break;
        }
        rc = fd >= 0 ? trace_file_decode_fd(fd, &d, info, err, errlen)
                     : trace_file_decode(mem, len, &d, info, err, errlen);
        slot_decoder_free(&d);
    }
    if (rc == 0)
        rc = k->rc;
    int erc = w->end(k->state, src, rc != 0, rc ? NULL : err, errlen);
    if (rc == 0)
        rc = erc;
    r->events = k->events;
    r->errors = k->errors;
    free(k);
    return rc;
}

/* ---- a POSIX trace log ----------------------------------------------------------- */

static void on_log_error(void *user, uint64_t offset, const char *msg)
{
    (void)offset;
    (void)msg;
    (*(uint64_t *)user)++;
}

/* One pass over the log's events: to the writer's scan (scan), or to its
 * event.  0 or the writer's error. */
static int log_pass(struct log_reader *lr, const struct export_writer *w, void *state,
                    int scan, struct dump_trace_result *r, char *err, size_t errlen)
{
    struct log_event e;
    char name[TRACE_EVENT_NAME_MAX + 1];
    int rc = 0;

    while (rc == 0 && log_reader_next(lr, &e)) {
        int sys = event_names_system(e.h.id, name) == 0;
        if (!sys && log_reader_name(lr, e.h.id, name) != 0)
            snprintf(name, sizeof name, "user:%u", e.h.id);
        struct export_event x = {
            .time = e.h.ts, .cpu = e.h.cpu >= 0 && e.h.cpu < SLOT_NCPUS ? e.h.cpu : -1,
            .has_thread = 1, .pid = e.h.pid, .tid = e.h.thread,
            .cls = sys ? EXPORT_CLASS_POSIX_SYS : EXPORT_CLASS_POSIX_USER,
            .class_name = sys ? "POSIX_SYSTEM" : "POSIX_USER", .name = name,
            .kind = e.h.id == POSIX_TRACE_OVERFLOW ? EXPORT_DROP : EXPORT_INSTANT,
            .data = e.data, .len = e.h.len & REC_LEN_MASK, .prog = e.h.prog,
            .truncated = (e.h.len & REC_TRUNCATED) != 0,
        };
        if (scan) {
            w->scan(state, &x);
        } else {
            r->events++;
            rc = w->event(state, &x, err, errlen);
        }
    }
    return rc;
}

static int posix_log(int fd, const void *mem, size_t len, struct export_source *src,
                     const struct export_writer *w, struct dump_trace_result *r, char *err,
                     size_t errlen)
{
    struct log_source ls = { .fd = fd, .mem = mem, .len = len };
    struct log_reader *lr;
    uint64_t nerr = 0;
    void *state;
    int rc = log_reader_open(&ls, on_log_error, &nerr, &lr, err, errlen);

    r->posix_log = 1;
    if (rc != 0)
        return rc;
    src->posix = 1;
    src->freq = 1000000000u;        /* timestamps in ns (LOGFORMAT) */
    if ((rc = w->begin(&state, src, err, errlen)) != 0) {
        log_reader_close(lr);
        return rc;
    }
    if (w->scan) {
        log_pass(lr, w, state, 1, r, err, errlen);
        log_reader_rewind(lr);
        nerr = 0;
    }
    rc = log_pass(lr, w, state, 0, r, err, errlen);
    int have;
    const struct log_status *st = log_reader_status(lr, &have);
    r->incomplete = !(have && st->complete);
    int erc = w->end(state, src, rc != 0, rc ? NULL : err, errlen);
    if (rc == 0)
        rc = erc;
    r->errors = nerr;
    log_reader_close(lr);
    return rc;
}

int export_trace(int fd, const void *mem, size_t len, enum dump_format format,
                 const char *dir, FILE *out, const char *name,
                 struct dump_trace_result *r, char *err, size_t errlen)
{
    struct trace_file_info *info = malloc(sizeof *info);   /* 16 KiB */
    struct export_source src = { .name = name ? name : "", .dir = dir, .out = out };
    int rc;

    memset(r, 0, sizeof *r);
    if (err && errlen)
        err[0] = '\0';
    if (info == NULL) {
        snprintf(err, errlen, "out of memory");
        return ENOMEM;
    }
    rc = fd >= 0 ? trace_file_read_header(fd, info, err, errlen)
                 : trace_file_parse(mem, len, len, info, err, errlen);
    if (rc == 0 && dump_is_posix_log(info))
        rc = posix_log(fd, mem, len, &src, writer_of(format), r, err, errlen);
    else if (rc == 0)
        rc = kernel(fd, mem, len, info, &src, writer_of(format), r, err, errlen);
    free(info);
    return rc;
}
