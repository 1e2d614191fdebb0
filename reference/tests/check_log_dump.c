/* SPDX-License-Identifier: MIT */
/*
 * check_log_dump.c -- tracedump's POSIX view of a trace log (dump_posix.c,
 * LOGFORMAT "tracedump"): one line an event with its id, name, origin,
 * timestamp, truncation and data; the attributes, names and status; a cut
 * and integrity errors reported with their byte offsets; the JSON document;
 * the slot view's POSIX layer.
 */
#include "check_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "dump/dump.h"
#include "log/log_format.h"

/* A finished log of 3 user events (data "ab", 4 bytes, none); its bytes. */
static unsigned char *small_log(size_t *len, int shut_down)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.log_policy = POSIX_TRACE_APPEND;
    o.sim = 1;
    o.simorigin = 321;
    o.name = "dumped";
    trace_id_t trid = lu_create(&o, fd);
    trace_event_id_t id = lu_id("log.dump.ev");
    ck_assert_int_eq(posix_trace_start(trid), 0);
    posix_trace_event(id, "ab", 2);
    posix_trace_event(id, "\x01\x02\x03\xff", 4);
    posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, NULL, 0);
    if (!shut_down) {
        ck_assert_int_eq(posix_trace_flush(trid), 0);
        lu_wait_flushed(trid);
    }
    long long size = lu_file_size(fd);
    unsigned char *buf = NULL;
    if (shut_down) {
        tu_shutdown(trid);
        size = lu_file_size(fd);
    }
    buf = malloc((size_t)size);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(pread(fd, buf, (size_t)size, 0), size);
    if (!shut_down)
        tu_shutdown(trid);
    *len = (size_t)size;
    close(fd);
    return buf;
}

/* Runs the POSIX view into a string (free it). */
static char *dump(const unsigned char *log, size_t len, enum dump_format fmt, int summary,
                  struct dump_posix_result *r, int *rc)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(f);
    struct dump_options o = { .format = fmt, .no_events = summary, .name = "t.log" };
    char err[256];
    *rc = dump_posix_mem(log, len, f, &o, r, err, sizeof err);
    fclose(f);
    return out;
}

/* The text view: one line an event, oldest first, with everything. */
START_TEST(test_text_view)
{
    size_t len;
    unsigned char *log = small_log(&len, 1);
    struct dump_posix_result r;
    int rc;
    char *out = dump(log, len, DUMP_TEXT, 0, &r, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(r.events, 5);             /* START, 3 events, STOP */
    ck_assert_uint_eq(r.errors, 0);
    ck_assert_int_eq(r.complete, 1);
    ck_assert_ptr_nonnull(strstr(out, "POSIX trace log"));
    ck_assert_ptr_nonnull(strstr(out, "name \"dumped\""));
    ck_assert_ptr_nonnull(strstr(out, "=\"log.dump.ev\""));
    ck_assert_ptr_nonnull(strstr(out, "status (write"));
    ck_assert_ptr_nonnull(strstr(out, "posix_trace_start"));
    ck_assert_ptr_nonnull(strstr(out, "log.dump.ev"));
    ck_assert_ptr_nonnull(strstr(out, "pid=321 thread=0x1 cpu=-1 prog=0x0 trunc=none len=2 "
                                      "data=6162"));
    ck_assert_ptr_nonnull(strstr(out, "len=4 data=010203ff"));
    ck_assert_ptr_nonnull(strstr(out, "posix_trace_unnamed_userevent"));
    ck_assert_ptr_nonnull(strstr(out, "1000.000001000"));     /* the 2nd event's time */
    ck_assert_ptr_nonnull(strstr(out, "the log was shut down: complete"));
    ck_assert_ptr_null(strstr(out, "ERROR"));
    free(out);
    out = dump(log, len, DUMP_TEXT, 1, &r, &rc);                 /* --summary */
    ck_assert_ptr_null(strstr(out, "data=6162"));
    ck_assert_ptr_nonnull(strstr(out, "# summary: 5 events"));
    free(out);
    free(log);
}
END_TEST

/* A log cut in its last record, and one with a damaged record: the errors
 * with their offsets, the events before them, and the cut said. */
START_TEST(test_text_errors)
{
    size_t len;
    unsigned char *log = small_log(&len, 0);            /* flushed, not shut down */
    struct dump_posix_result r;
    int rc;
    char *out = dump(log, len - 20, DUMP_TEXT, 0, &r, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(r.complete, 0);
    ck_assert_uint_gt(r.errors, 0);
    ck_assert_ptr_nonnull(strstr(out, "CUT: the log was not shut down"));
    ck_assert_ptr_nonnull(strstr(out, "ERROR offset "));
    ck_assert_ptr_nonnull(strstr(out, "cut short"));
    ck_assert_ptr_nonnull(strstr(out, "data=6162"));     /* what came before the cut */
    free(out);

    /* The data length of the event before the data 010203ff, in the
     * context record before it (LOGFORMAT section 3), made too big for its
     * slots. */
    unsigned char *bad = malloc(len);
    ck_assert_ptr_nonnull(bad);
    memcpy(bad, log, len);
    size_t hit = 0, shape = 0;
    for (size_t i = 0; i + 16 <= len && !hit; i++)
        if (memcmp(bad + i, "\x01\x02\x03\xff", 4) == 0)
            hit = i;
    ck_assert_uint_gt(hit, 0);
    for (size_t at = hit - 8; at >= 16 && !shape; at -= 16) {
        const unsigned char *p = bad + at - 16;         /* little-endian (LOGFORMAT 1) */
        uint32_t h = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        if ((h & 0x3ffu) == LOG_CODE_SHAPE && (h >> 10 & 0x1fu) == SLOT_CLASS_USER)
            shape = at - 16;
    }
    ck_assert_uint_gt(shape, 0);
    memcpy(bad + shape + 8, "\xa0\x0f\0\0", 4);   /* data[1], the length: 4000 */
    out = dump(bad, len, DUMP_TEXT, 0, &r, &rc);
    ck_assert_ptr_nonnull(strstr(out, "not a POSIX event record"));
    ck_assert_ptr_null(strstr(out, "data=010203ff"));
    ck_assert_uint_eq(r.events, 4);         /* START, "ab", unnamed, FLUSH_START */
    free(out);
    free(bad);
    free(log);
}
END_TEST

/* The JSON document: its parts, the events, a rejection as "fatal". */
START_TEST(test_json_view)
{
    size_t len;
    unsigned char *log = small_log(&len, 1);
    struct dump_posix_result r;
    int rc;
    char *out = dump(log, len, DUMP_JSON, 0, &r, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "{\"format\":\"posixtrace-log-dump\",\"version\":1"));
    ck_assert_ptr_nonnull(strstr(out, "\"trace_attributes\":{\"name\":\"dumped\""));
    ck_assert_ptr_nonnull(strstr(out, "\"name\":\"log.dump.ev\""));
    ck_assert_ptr_nonnull(strstr(out, "\"complete\":true"));
    ck_assert_ptr_nonnull(strstr(out, "\"pid\":321,\"thread\":1,\"prog\":0,\"cpu\":-1,"
                                      "\"timestamp_ns\":1000000001000,\"truncation\":\"none\","
                                      "\"len\":2,\"data\":\"6162\""));
    ck_assert_ptr_nonnull(strstr(out, "\"errors\":[]"));
    ck_assert_ptr_nonnull(strstr(out, "\"fatal\":null}"));
    free(out);
    out = dump((const unsigned char *)"not a log", 9, DUMP_JSON, 0, &r, &rc);
    ck_assert_int_eq(rc, EINVAL);
    ck_assert_int_eq(r.rejected, 1);
    ck_assert_ptr_nonnull(strstr(out, "\"fatal\":{\"error\":22,\"message\":\"offset 0: KSP-25"));
    free(out);
    free(log);
}
END_TEST

/* The slot view's layer names a log's records. */
START_TEST(test_slot_layer)
{
    size_t len;
    unsigned char *log = small_log(&len, 1);
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(f);
    struct dump_options o = { .format = DUMP_TEXT, .name = "t.log",
                              .layers = &dump_posix_layer, .nlayers = 1 };
    struct dump_result r;
    char err[256];
    ck_assert_int_eq(dump_mem(log, len, f, &o, &r, err, sizeof err), 0);
    fclose(f);
    ck_assert_uint_eq(r.sum.errors, 0);
    ck_assert_ptr_nonnull(strstr(out, "POSIX    attributes"));
    ck_assert_ptr_nonnull(strstr(out, "POSIX    status"));
    ck_assert_ptr_nonnull(strstr(out, "POSIX    event_name"));
    ck_assert_ptr_nonnull(strstr(out, "POSIX    posix_trace_start"));
    ck_assert_ptr_nonnull(strstr(out, "CONTROL  BUFFER"));
    free(out);
    free(log);
}
END_TEST

Suite *suite_log_dump(void)
{
    Suite *s = suite_create("log_dump");
    TCase *tc = tu_tcase("dump");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_text_view);
    tcase_add_test(tc, test_text_errors);
    tcase_add_test(tc, test_json_view);
    tcase_add_test(tc, test_slot_layer);
    suite_add_tcase(s, tc);
    return s;
}
