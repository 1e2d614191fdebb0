/* SPDX-License-Identifier: MIT */
/*
 * fuzz_log_reader.c -- libFuzzer target: the trace log reader
 * (reference/log/log_reader.c, LOGFORMAT section 8) and tracedump's POSIX view
 * (reference/dump/dump_posix.c) on any input.  Built with clang
 * -fsanitize=fuzzer,address,undefined by 'make fuzz-log' (mk/log.mk); the
 * seed corpus is fuzz/corpus/log_reader/ (fuzz/make_log_corpus.c).
 *
 * Each input is a log file in memory.  Besides the sanitizers' checks, the
 * reader's promises are asserted: open gives 0 or EINVAL (ENOMEM never, for
 * the sizes the fuzzer makes); every event has a length the format allows
 * and readable data; a rewind reads the same events again; the counts are
 * bounded by the input's size; names and statuses hold valid values.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dump/dump.h"
#include "log/log_reader.h"

static void check(int ok)
{
    if (!ok)
        abort();
}

static void on_error(void *user, uint64_t offset, const char *msg)
{
    (void)offset;
    check(msg != NULL && strncmp(msg, "offset ", 7) == 0);
    (*(uint64_t *)user)++;
}

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    return devnull ? 0 : -1;
}

/* Reads every event; returns the count and a checksum of their bytes. */
static uint64_t read_all(struct log_reader *r, uint64_t *sum)
{
    struct log_event ev;
    uint64_t n = 0;
    while (log_reader_next(r, &ev)) {
        uint32_t len = ev.h.len & REC_LEN_MASK;
        check(len <= LOG_DATA_MAX && ev.h.id <= LOG_CODE_EVENT_MAX);
        for (uint32_t i = 0; i < len; i++)
            *sum += ev.data[i];
        *sum += ev.h.ts ^ ev.h.thread ^ ev.h.pid ^ ev.offset;
        n++;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct log_source src = { .mem = data, .len = size };
    struct log_reader *r = NULL;
    uint64_t errors = 0;
    char err[256];
    int rc = log_reader_open(&src, on_error, &errors, &r, err, sizeof err);
    check(rc == 0 || rc == EINVAL);
    if (rc == 0) {
        uint64_t s1 = 0, s2 = 0;
        uint64_t n1 = read_all(r, &s1);
        check(n1 <= size / 80 + 1);
        log_reader_rewind(r);
        uint64_t n2 = read_all(r, &s2);
        check(n1 == n2 && s1 == s2);
        const struct log_reader_stats *st = log_reader_stats(r);
        check(st->events == n2 && st->segments + st->segments_skipped <= log_reader_slots(r));
        int have;
        const struct log_status *ls = log_reader_status(r, &have);
        check(!have || ls->st.posix_stream_status == POSIX_TRACE_RUNNING ||
              ls->st.posix_stream_status == POSIX_TRACE_SUSPENDED);
        trace_event_id_t id;
        char name[TRACE_EVENT_NAME_MAX + 1];
        for (unsigned k = 0; log_reader_name_nth(r, k, &id) == 0; k++) {
            check(log_reader_name(r, id, name) == 0);
            check(strlen(name) >= 1 && strlen(name) <= TRACE_EVENT_NAME_MAX);
        }
        check(log_reader_attr(r)->__max_datasize <= LOG_DATA_MAX);
        log_reader_close(r);
    } else {
        check(err[0] != '\0');
    }
    /* tracedump's POSIX view, both formats. */
    struct dump_options o = { .format = DUMP_TEXT, .name = "fuzz" };
    struct dump_posix_result res;
    dump_posix_mem(data, size, devnull, &o, &res, err, sizeof err);
    o.format = DUMP_JSON;
    dump_posix_mem(data, size, devnull, &o, &res, err, sizeof err);
    /* The exports for viewers that write to a stream (--chrome, --svg; issue 17). */
    for (int fmt = DUMP_CHROME; fmt <= DUMP_SVG; fmt++) {
        struct dump_trace_options to = { .format = (enum dump_format)fmt, .name = "fuzz" };
        struct dump_trace_result tr;
        dump_trace_mem(data, size, devnull, &to, &tr, err, sizeof err);
    }
    return 0;
}
