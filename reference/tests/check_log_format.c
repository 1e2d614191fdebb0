/* SPDX-License-Identifier: MIT */
/*
 * check_log_format.c -- the trace log file's layout (reference/log/LOGFORMAT.md):
 * its header, geometry and record sizes, its overhead in bytes per event,
 * the metadata area, byte order, decoding by the slot codec, and
 * deterministic logs (section 9, posixtrace_attr_setsimorigin).
 */
#include "check_log.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "log/log_format.h"
#include "log/log_reader.h"
#include "slot/trace_file.h"

/* The whole file open on fd, malloc'ed. */
static unsigned char *file_bytes(int fd, size_t *len)
{
    long long size = lu_file_size(fd);
    unsigned char *buf = malloc(size > 0 ? (size_t)size : 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(pread(fd, buf, (size_t)size, 0), size);
    *len = (size_t)size;
    return buf;
}

/* LOGFORMAT section 1: the header's values. */
START_TEST(test_header_values)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.log_policy = POSIX_TRACE_UNTIL_FULL;
    o.sim = 1;
    trace_id_t trid = lu_create(&o, fd);
    tu_shutdown(trid);
    struct trace_file_info *info = malloc(sizeof *info);
    ck_assert_ptr_nonnull(info);
    char err[256];
    ck_assert_int_eq(trace_file_read_header(fd, info, err, sizeof err), 0);
    ck_assert_str_eq(trace_file_value(info, "FILE_NAME"), "posixtrace-log");
    ck_assert_str_eq(trace_file_value(info, "DATE"), "1000.000000000");
    ck_assert_str_eq(trace_file_value(info, "BOOT_DATE"), "1000.000000000");
    ck_assert_str_eq(trace_file_value(info, "CYCLES_PER_SEC"), "1000000000");
    ck_assert_str_eq(trace_file_value(info, "CPU_NUM"), "64");
    ck_assert_str_eq(trace_file_value(info, "SYSNAME"), "posixtrace");
    ck_assert_str_eq(trace_file_value(info, "SYSPAGE_LEN"), "0");
    ck_assert_str_eq(trace_file_value(info, "POSIX_LOG"), "2");     /* the format's version */
    ck_assert_str_eq(trace_file_value(info, "POSIX_META_BYTES"), "65536");
    ck_assert_str_eq(trace_file_value(info, "POSIX_SEG_BYTES"), "4096");
    ck_assert_str_eq(trace_file_value(info, "POSIX_LOG_POLICY"), "UNTIL_FULL");
    ck_assert_str_eq(trace_file_value(info, "POSIX_SEGMENTS"), "256");
    ck_assert_int_eq(info->cpu_num, 64);
    ck_assert_int_eq(lu_file_size(fd), info->header_len + 65536);
    free(info);
    close(fd);
}
END_TEST

/* LOGFORMAT section 8: a log of another format version (version 1's 9-word
 * records) is refused, EINVAL from posix_trace_open (S0081), and the
 * reader says which version it is and which it reads. */
START_TEST(test_old_version_refused)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.sim = 1;
    trace_id_t trid = lu_create(&o, fd);
    tu_shutdown(trid);
    size_t len;
    unsigned char *file = file_bytes(fd, &len);
    unsigned char *mark = NULL;
    for (size_t i = 0; i + 18 <= len && i < 4096 && mark == NULL; i++)
        if (memcmp(file + i, "TRACE_POSIX_LOG::2", 18) == 0)
            mark = file + i;
    ck_assert_ptr_nonnull(mark);
    mark[17] = '1';
    struct log_source src = { .mem = file, .len = len };
    struct log_reader *r;
    char err[256] = "";
    ck_assert_int_eq(log_reader_open(&src, NULL, NULL, &r, err, sizeof err), EINVAL);
    ck_assert_ptr_nonnull(strstr(err, "format version 1"));
    ck_assert_ptr_nonnull(strstr(err, "reads version 2 only"));
    ck_assert_int_eq(pwrite(fd, mark, 18, mark - file), 18);
    trace_id_t log;
    ck_assert_int_eq(posix_trace_open(fd, &log), EINVAL);
    free(file);
    close(fd);
}
END_TEST

/* LOGFORMAT sections 1 and 3: segment sizes, ring sizes, record sizes
 * (0 or 8 bytes of data: 16 bytes, 64: 128), without their context. */
START_TEST(test_geometry)
{
    ck_assert_uint_eq(log_seg_bytes_for(0), 4096);
    ck_assert_uint_eq(log_seg_bytes_for(256), 4096);
    ck_assert_uint_eq(log_seg_bytes_for(65535), 1u << 19);
    for (size_t d = 0; d <= 65535; d += 97) {
        uint32_t seg = log_seg_bytes_for(d);
        ck_assert_uint_eq(seg & (seg - 1), 0);
        ck_assert_uint_ge(seg / 16, 2 * (log_event_slots((uint32_t)d) +
                                         LOG_CONTEXT_SLOTS_MAX) + 1);
    }
    ck_assert_uint_eq(log_segments_for(POSIX_TRACE_LOOP, 1, 4096), 2);
    ck_assert_uint_eq(log_segments_for(POSIX_TRACE_LOOP, 1 << 20, 4096), 256);
    ck_assert_uint_eq(log_segments_for(POSIX_TRACE_UNTIL_FULL, 4097, 4096), 2);
    ck_assert_uint_eq(log_segments_for(POSIX_TRACE_UNTIL_FULL, 3 * 4096 + 1, 4096), 4);
    ck_assert_uint_eq(log_segments_for(POSIX_TRACE_APPEND, 1 << 20, 4096), 0);
    if (sizeof(size_t) >= 8)        /* 2^40 bytes: more than the most segments */
        ck_assert_uint_eq(log_segments_for(POSIX_TRACE_LOOP, (size_t)(UINT64_C(1) << 40), 4096),
                          1u << 28);
    ck_assert_uint_eq(16 * log_event_slots(0), 16);
    ck_assert_uint_eq(16 * log_event_slots(8), 16);
    ck_assert_uint_eq(16 * log_event_slots(9), 32);
    ck_assert_uint_eq(16 * log_event_slots(64), 128);
    ck_assert_uint_eq(LOG_STOP_SLOTS, LOG_CONTEXT_SLOTS_MAX + log_event_slots(sizeof(int)));
}
END_TEST

/* The measure of LOGFORMAT's overhead table: file growth per event for 0, 8
 * and 64 bytes of data (one thread, one event type, the simulated clock's
 * close timestamps; one shutdown, no flush events in between), the fixed
 * cost (header and metadata area) apart.  Issue 19 item 3: at most 20 bytes
 * on disk per 8-byte event. */
START_TEST(test_overhead)
{
    const size_t sizes[] = { 0, 8, 64 };
    const int n = 20000;
    for (unsigned k = 0; k < 3; k++) {
        int fd = lu_tmpfile();
        struct lu_opts o = { 0 };
        o.stream_policy = POSIX_TRACE_UNTIL_FULL;
        o.log_policy = POSIX_TRACE_APPEND;
        o.streamsize = 4 << 20;
        o.sim = 1;
        trace_id_t trid = lu_create(&o, fd);
        long long base = lu_file_size(fd);
        unsigned char data[64];
        memset(data, 0xab, sizeof data);
        ck_assert_int_eq(posix_trace_start(trid), 0);
        for (int i = 0; i < n; i++)
            posix_trace_event(POSIX_TRACE_UNNAMED_USEREVENT, data, sizes[k]);
        tu_shutdown(trid);
        double per = (double)(lu_file_size(fd) - base) / (n + 2);
        double record = 16.0 * log_event_slots((uint32_t)sizes[k]);
        printf("log overhead: %2zu bytes of data: %.1f bytes per event in the file "
               "(record %.0f, ring %u); fixed: header and metadata %lld bytes\n", sizes[k],
               per, record, (unsigned)rec_size((uint32_t)sizes[k]), base);
        /* The record, plus a segment's BUFFER slot, its TIME and context
         * records and its unused tail, per 4096 bytes. */
        double segment = 16.0 * (1 + LOG_CONTEXT_SLOTS_MAX) + record;
        ck_assert(per >= record && per <= record * (1.0 + segment / 4096.0) + 1.0);
        if (sizes[k] == 8)
            ck_assert_msg(per <= 20.0, "%.1f bytes per 8-byte event", per);
        close(fd);
    }
}
END_TEST

/* LOGFORMAT sections 1-4: the whole file is a kernel trace file: the slot
 * codec decodes it from the first slot to the last without an integrity
 * error; the POSIX events are USER-class events coded by their id. */
struct count_user {
    uint64_t user, meta, buffers;
};

static void count_event(void *p, const struct slot_event *ev)
{
    struct count_user *c = p;
    if (ev->cls == SLOT_CLASS_USER && ev->event <= LOG_CODE_EVENT_MAX)
        c->user++;
    else if (ev->cls == SLOT_CLASS_USER)
        c->meta++;
    else if (ev->cls == SLOT_CLASS_CONTROL && ev->event == _TRACE_CONTROL_BUFFER)
        c->buffers++;
}

START_TEST(test_codec_decodes_file)
{
    const int policies[] = { POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND };
    for (unsigned p = 0; p < 3; p++) {
        int fd = lu_tmpfile();
        struct lu_opts o = { 0 };
        o.stream_policy = POSIX_TRACE_LOOP;
        o.log_policy = policies[p];
        o.logsize = 5 * 4096;
        o.sim = 1;
        trace_id_t trid = lu_create(&o, fd);
        trace_event_id_t id = lu_id("log.format.codec");
        ck_assert_int_eq(posix_trace_start(trid), 0);
        for (uint32_t i = 0; i < 2000; i++) {
            lu_event_seq(id, i, i % 50);
            if (i % 200 == 199) {
                ck_assert_int_eq(posix_trace_flush(trid), 0);
                lu_wait_flushed(trid);
            }
        }
        trace_id_t log = lu_shutdown_open(trid, fd);
        struct lu_ev *evs;
        size_t n = lu_read_log(log, &evs);
        free(evs);
        ck_assert_int_eq(posix_trace_close(log), 0);

        struct count_user c = { 0, 0, 0 };
        struct slot_decoder_config cfg = { .on_event = count_event, .user = &c };
        struct slot_decoder d;
        struct slot_summary sum;
        struct trace_file_info *info = malloc(sizeof *info);
        char err[256];
        ck_assert_ptr_nonnull(info);
        ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
        ck_assert_int_eq(trace_file_decode_fd(fd, &d, info, err, sizeof err), 0);
        slot_decoder_summary(&d, &sum);
        ck_assert_msg(sum.errors == 0, "policy %d: %llu integrity errors", policies[p],
                      (unsigned long long)sum.errors);
        ck_assert_uint_eq(c.user, n);           /* every segment slot holds live data */
        ck_assert_uint_ge(c.meta, 3);           /* attributes, two status, names */
        ck_assert_uint_ge(c.buffers, 2);
        slot_decoder_free(&d);
        free(info);
        close(fd);
    }
}
END_TEST

/* LOGFORMAT section 3: event records and their context, encoded then
 * decoded by the slot decoder, give back every event exactly -- pid,
 * thread, program address, CPU (unknown, below and above 64), length,
 * truncation, data and a timestamp that goes back, stays, or crosses a high
 * word -- with context and TIME records only where something changed. */
struct rt {
    struct log_context c;
    struct rec_hdr h[400];
    unsigned char data[400][2 * sizeof(trace_event_set_t)];     /* START's, the largest */
    size_t n, bad;
};

static void rt_event(void *p, const struct slot_event *ev)
{
    struct rt *t = p;
    if (log_context_apply(&t->c, ev) != 0)
        return;
    struct rec_hdr h;
    unsigned char d[2 * sizeof(trace_event_set_t)];
    if (t->n >= 400 || log_decode_event(&t->c, ev, &h, d) != 0) {
        t->bad++;
        return;
    }
    const struct rec_hdr *w = &t->h[t->n];
    uint32_t len = w->len & REC_LEN_MASK;
    if (h.ts != w->ts || h.id != w->id || h.pid != w->pid || h.thread != w->thread ||
        h.prog != w->prog || h.cpu != w->cpu || h.len != w->len ||
        memcmp(d, t->data[t->n], len) != 0)
        t->bad++;
    t->n++;
}

START_TEST(test_records_round_trip)
{
    static struct rt t;
    static traceevent_t slots[400 * 16];
    static uint32_t words[LOG_DATA_WORDS_MAX];
    struct log_context wc;
    memset(&t, 0, sizeof t);
    log_context_reset(&wc);
    log_context_reset(&t.c);
    uint32_t r = 7;
    size_t used = 0, records = 0;
    uint64_t ts = ((uint64_t)3 << 32) - 2000;
    for (int i = 0; i < 400; i++) {
        r = r * 1103515245u + 12345u;
        struct rec_hdr *h = &t.h[i];
        h->id = (r >> 4) % 3 == 0 ? POSIX_TRACE_START : 20 + (r >> 8) % 3;
        h->len = (r >> 10) % 4 == 0 ? 8 : (r >> 12) % 65;
        if (h->id == POSIX_TRACE_START)
            h->len = 2 * sizeof(trace_event_set_t);
        if ((r >> 14) % 9 == 0)
            h->len |= REC_TRUNCATED;
        h->cpu = (r >> 16) % 5 == 0 ? (int32_t)((r >> 18) % 200) - 1 : 2;
        h->pid = (r >> 20) % 7 == 0 ? 0 : 4242;
        h->thread = (r >> 22) % 6 == 0 ? UINT64_C(0x7f0000001000) + (r >> 24) % 3 : 1;
        h->prog = (r >> 25) % 8 == 0 ? UINT64_C(0x55550000) + (r >> 27) : 0;
        /* Mostly forwards, sometimes back or standing, across a high word. */
        ts += (r >> 28) % 4 == 0 ? (uint64_t)-(int64_t)((r >> 5) % 500) : (r >> 3) % 40;
        h->ts = ts;
        for (unsigned k = 0; k < sizeof t.data[i]; k++)
            t.data[i][k] = (unsigned char)(r >> (k % 24) ^ k);
        size_t n = log_encode_event(&wc, h, t.data[i], words, slots + used,
                                    sizeof slots / sizeof slots[0] - used);
        ck_assert_uint_gt(n, 0);
        ck_assert_uint_ge(n, log_event_slots(h->len & REC_LEN_MASK));
        records += n;
        used += n;
    }
    struct slot_decoder_config cfg = { .on_event = rt_event, .user = &t };
    struct slot_decoder d;
    struct slot_summary sum;
    ck_assert_int_eq(slot_decoder_init(&d, &cfg), 0);
    slot_decoder_feed(&d, slots, used, 0);
    slot_decoder_finish(&d);
    slot_decoder_summary(&d, &sum);
    ck_assert_uint_eq(sum.errors, 0);
    ck_assert_uint_eq(sum.wraps, 0);                /* TIME wherever the time went back */
    slot_decoder_free(&d);
    ck_assert_uint_eq(t.n, 400);
    ck_assert_uint_eq(t.bad, 0);
    ck_assert_uint_lt(records, 400 * 8);            /* context only where it changed */
}
END_TEST

/* LOGFORMAT section 4: the status is written in turn to two records; the
 * reader takes the newer whole one, and the older one when the newer is
 * torn. */
START_TEST(test_status_records_alternate)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.sim = 1;
    trace_id_t trid = lu_create(&o, fd);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 3; i++) {
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
        ck_assert_int_eq(posix_trace_flush(trid), 0);
        lu_wait_flushed(trid);
    }
    tu_shutdown(trid);              /* writes 1, 2, 3 (flushes), 4 (final) */

    size_t len;
    unsigned char *file = file_bytes(fd, &len);
    struct log_source src = { .mem = file, .len = len };
    struct log_reader *r;
    char err[256];
    int have;
    ck_assert_int_eq(log_reader_open(&src, NULL, NULL, &r, err, sizeof err), 0);
    const struct log_status *st = log_reader_status(r, &have);
    ck_assert_int_eq(have, 1);
    ck_assert_uint_eq(st->counter, 4);
    ck_assert_int_eq(st->complete, 1);
    uint64_t meta = log_reader_geometry(r)->meta_off;
    log_reader_close(r);

    /* Tear the newer record (counter 4: slot 0 of the pair) in its middle. */
    memset(file + meta + 16 * LOG_META_STATUS_SLOT(0) + 16 * 4 + 4, 0x5a, 8);
    ck_assert_int_eq(log_reader_open(&src, NULL, NULL, &r, err, sizeof err), 0);
    st = log_reader_status(r, &have);
    ck_assert_int_eq(have, 1);
    ck_assert_uint_eq(st->counter, 3);
    ck_assert_int_eq(st->complete, 0);
    log_reader_close(r);
    free(file);
    close(fd);
}
END_TEST

/* LOGFORMAT section 1 (MACHINE, the slots in the writer's byte order), the
 * trace file's rule of either byte order (KSP-23): the same log written by
 * a host of the other byte order reads back the same. */
static uint32_t swap32(uint32_t v)
{
    return v >> 24 | (v >> 8 & 0xff00u) | (v << 8 & 0xff0000u) | v << 24;
}

START_TEST(test_other_byte_order)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.log_policy = POSIX_TRACE_LOOP;
    o.logsize = 3 * 4096;
    o.sim = 1;
    trace_id_t trid = lu_create(&o, fd);
    trace_event_id_t id = lu_id("log.format.order");
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (uint32_t i = 0; i < 600; i++) {
        lu_event_seq(id, i, i % 9);
        if (i % 100 == 99) {
            ck_assert_int_eq(posix_trace_flush(trid), 0);
            lu_wait_flushed(trid);
        }
    }
    trace_id_t log = lu_shutdown_open(trid, fd);
    struct lu_ev *a, *b;
    size_t na = lu_read_log(log, &a);
    ck_assert_int_eq(posix_trace_close(log), 0);

    size_t len;
    unsigned char *file = file_bytes(fd, &len);
    struct trace_file_info *info = malloc(sizeof *info);
    ck_assert_ptr_nonnull(info);
    ck_assert_int_eq(trace_file_parse(file, len, len, info, NULL, 0), 0);
    const char *from = info->big_endian ? "TRACE_BIG_ENDIAN::" : "TRACE_LITTLE_ENDIAN::";
    const char *to = info->big_endian ? "TRACE_LITTLE_ENDIAN::" : "TRACE_BIG_ENDIAN::";
    char *hdr = malloc(info->header_len + 8);
    ck_assert_ptr_nonnull(hdr);
    memcpy(hdr, file, info->header_len);
    hdr[info->header_len] = '\0';
    char *at = strstr(hdr, from);
    ck_assert_ptr_nonnull(at);
    int other = lu_tmpfile();
    ck_assert_int_eq(write(other, hdr, (size_t)(at - hdr)), at - hdr);
    ck_assert_int_eq(write(other, to, strlen(to)), (ssize_t)strlen(to));
    const char *rest = at + strlen(from);
    ck_assert_int_eq(write(other, rest, strlen(rest)), (ssize_t)strlen(rest));
    for (size_t off = info->header_len; off + 4 <= len; off += 4) {
        uint32_t w;
        memcpy(&w, file + off, 4);
        w = swap32(w);
        ck_assert_int_eq(write(other, &w, 4), 4);
    }
    trace_id_t log2 = lu_open(other);
    size_t nb = lu_read_log(log2, &b);
    ck_assert_int_eq(na, nb);
    for (size_t i = 0; i < na; i++) {
        ck_assert_int_eq(a[i].info.posix_event_id, b[i].info.posix_event_id);
        ck_assert_int_eq(tu_ns(a[i].info.posix_timestamp), tu_ns(b[i].info.posix_timestamp));
        ck_assert_int_eq(a[i].len, b[i].len);
        ck_assert_int_eq(memcmp(a[i].data, b[i].data, a[i].len), 0);
    }
    ck_assert_int_gt(lu_count(b, nb, id), 50);
    ck_assert_int_eq(posix_trace_close(log2), 0);
    free(a);
    free(b);
    free(hdr);
    free(info);
    free(file);
    close(other);
    close(fd);
}
END_TEST

/* posixtrace_sim.h: setsimorigin checks its arguments and reads back. */
START_TEST(test_simorigin_attr)
{
    trace_attr_t a;
    int on = -1;
    pid_t pid = -1;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    ck_assert_int_eq(posixtrace_attr_getsimorigin(&a, &on, &pid), 0);
    ck_assert_int_eq(on, 0);
    ck_assert_int_eq(posixtrace_attr_setsimorigin(&a, 0), EINVAL);
    ck_assert_int_eq(posixtrace_attr_setsimorigin(&a, -3), EINVAL);
    ck_assert_int_eq(posixtrace_attr_setsimorigin(&a, 777), 0);
    ck_assert_int_eq(posixtrace_attr_getsimorigin(&a, &on, &pid), 0);
    ck_assert_int_eq(on, 1);
    ck_assert_int_eq(pid, 777);
    ck_assert_int_eq(posixtrace_attr_getsimorigin(&a, NULL, &pid), EINVAL);
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    ck_assert_int_eq(posixtrace_attr_setsimorigin(&a, 777), EINVAL);
    ck_assert_int_eq(posixtrace_attr_getsimorigin(&a, &on, &pid), EINVAL);
}
END_TEST

/* LOGFORMAT section 9: the same scenario, with the simulated clock and
 * deterministic origins, writes the same log byte for byte: threads,
 * explicit flushes awaited, a clear, a LOOP log that wraps, names. */
struct det_arg {
    trace_event_id_t id;
    uint32_t base;
    int cpu;
};

static void *det_thread(void *p)
{
    struct det_arg *a = p;
    posixtrace_sim_setcpu(a->cpu);
    for (uint32_t i = 0; i < 150; i++)
        lu_event_seq(a->id, a->base + i, i % 13);
    return NULL;
}

static unsigned char *det_scenario(size_t *len)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.log_policy = POSIX_TRACE_LOOP;
    o.streamsize = 16384;
    o.logsize = 6 * 4096;
    o.sim = 1;
    o.simorigin = 4242;
    o.name = "deterministic";
    trace_id_t trid = lu_create(&o, fd);
    trace_event_id_t id = lu_id("log.format.det");
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int round = 0; round < 6; round++) {
        struct det_arg a = { id, (uint32_t)round * 1000, round % 3 };
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, det_thread, &a), 0);
        ck_assert_int_eq(pthread_join(t, NULL), 0);
        lu_event_seq(id, (uint32_t)round, 3);
        if (round == 3)
            ck_assert_int_eq(posix_trace_clear(trid), 0);
        ck_assert_int_eq(posix_trace_flush(trid), 0);
        lu_wait_flushed(trid);
        ck_assert_int_eq(posixtrace_sim_advance(trid, 1000000), 0);
    }
    trace_id_t log = lu_shutdown_open(trid, fd);
    struct lu_ev *evs;
    size_t n = lu_read_log(log, &evs);
    ck_assert_int_gt(n, 100);
    for (size_t i = 0; i < n; i++) {
        const struct posix_trace_event_info *e = &evs[i].info;
        if (e->posix_event_id == id) {
            ck_assert_int_eq(e->posix_pid, 4242);
            ck_assert_ptr_null(e->posix_prog_address);
            uint64_t t = 0;
            memcpy(&t, &e->posix_thread_id,
                   sizeof t < sizeof e->posix_thread_id ? sizeof t : sizeof e->posix_thread_id);
            ck_assert(t >= 1 && t <= 7);
        }
    }
    free(evs);
    ck_assert_int_eq(posix_trace_close(log), 0);
    unsigned char *bytes = file_bytes(fd, len);
    close(fd);
    return bytes;
}

START_TEST(test_deterministic_log)
{
    size_t l1, l2;
    unsigned char *a = det_scenario(&l1);
    unsigned char *b = det_scenario(&l2);
    ck_assert_uint_eq(l1, l2);
    size_t first = l1;
    for (size_t i = 0; i < l1 && first == l1; i++)
        if (a[i] != b[i])
            first = i;
    ck_assert_msg(first == l1, "the two logs differ first at byte %zu of %zu", first, l1);
    free(a);
    free(b);
}
END_TEST

Suite *suite_log_format(void)
{
    Suite *s = suite_create("log_format");
    TCase *tc = tu_tcase("format");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_header_values);
    tcase_add_test(tc, test_geometry);
    tcase_add_test(tc, test_old_version_refused);
    tcase_add_test(tc, test_overhead);
    tcase_add_test(tc, test_records_round_trip);
    tcase_add_test(tc, test_codec_decodes_file);
    tcase_add_test(tc, test_status_records_alternate);
    tcase_add_test(tc, test_other_byte_order);
    tcase_add_test(tc, test_simorigin_attr);
    tcase_add_test(tc, test_deterministic_log);
    suite_add_tcase(s, tc);
    return s;
}
