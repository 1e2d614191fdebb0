/* SPDX-License-Identifier: MIT */
/*
 * check_log_open.c -- pre-recorded streams (TRL): posix_trace_open, rewind
 * and close, and the reading functions given a trace id from open
 * (XSH posix_trace_close, posix_trace_getnext_event, posix_trace_get_status;
 * LOGFORMAT section 8).
 */
#include "check_log.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A finished log with the events n user events of id, data 0..n-1 with
 * pad bytes (simulated clock, LOOP stream, APPEND log); its fd. */
static int make_log(trace_event_id_t id, uint32_t n, size_t pad)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.log_policy = POSIX_TRACE_APPEND;
    o.sim = 1;
    o.name = "log.open";
    trace_id_t trid = lu_create(&o, fd);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (uint32_t i = 0; i < n; i++) {
        lu_event_seq(id, i, pad);
        if (i % 500 == 499) {
            ck_assert_int_eq(posix_trace_flush(trid), 0);
            lu_wait_flushed(trid);
        }
    }
    tu_shutdown(trid);
    return fd;
}

/* S0074, S0076, S0196, S0077: open of a finished log (through another
 * descriptor, O_RDONLY) gives a trace id with which the events come back,
 * oldest first, with everything they were recorded with (simulated clock:
 * exact timestamps). */
START_TEST(test_open_reads_events)
{
    trace_event_id_t id = lu_id("log.open.a");
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.sim = 1;
    trace_id_t trid = lu_create(&o, fd);
    ck_assert_int_eq(posixtrace_sim_setcpu(5), 0);
    ck_assert_int_eq(posix_trace_start(trid), 0);           /* event 0 */
    for (uint32_t i = 0; i < 10; i++)
        lu_event_seq(id, i, i);                             /* events 1..10 */
    ck_assert_int_eq(posixtrace_sim_setcpu(-1), 0);
    tu_shutdown(trid);                                      /* STOP: event 11 */

    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int ro = open(path, O_RDONLY);
    ck_assert_int_ge(ro, 0);
    trace_id_t log = lu_open(ro);
    struct lu_ev *evs;
    size_t n = lu_read_log(log, &evs);
    ck_assert_int_eq(n, 12);
    ck_assert_int_eq(evs[0].info.posix_event_id, POSIX_TRACE_START);
    for (uint32_t i = 0; i < 10; i++) {
        const struct lu_ev *e = &evs[1 + i];
        ck_assert_int_eq(e->info.posix_event_id, id);
        ck_assert_int_eq(lu_ev_seq(e, i), i);
        ck_assert_int_eq(e->info.posix_pid, getpid());
        ck_assert(pthread_equal(e->info.posix_thread_id, pthread_self()));
        ck_assert_int_eq(e->info.posix_cpu, 5);
        ck_assert_ptr_nonnull(e->info.posix_prog_address);
        ck_assert_int_eq(e->info.posix_truncation_status, POSIX_TRACE_NOT_TRUNCATED);
        ck_assert_int_eq(tu_ns(e->info.posix_timestamp), tu_sim_ts(1 + (int)i));
    }
    ck_assert_int_eq(evs[11].info.posix_event_id, POSIX_TRACE_STOP);
    ck_assert_int_eq(tu_ns(evs[11].info.posix_timestamp), tu_sim_ts(11));
    free(evs);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(ro);
    close(fd);
}
END_TEST

/* S0201: at the end of the log, getnext returns 0 at once, with unavailable
 * set, as often as it is called. */
START_TEST(test_end_of_log)
{
    trace_event_id_t id = lu_id("log.open.end");
    int fd = make_log(id, 3, 0);
    trace_id_t log = lu_open(fd);
    struct lu_ev *evs;
    size_t n = lu_read_log(log, &evs);
    free(evs);
    ck_assert_int_eq(n, 5);
    for (int i = 0; i < 3; i++) {
        struct posix_trace_event_info ev;
        size_t len = 99;
        int unav = 0;
        ck_assert_int_eq(posix_trace_getnext_event(log, &ev, NULL, 0, &len, &unav), 0);
        ck_assert_int_ne(unav, 0);
    }
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* S0078: rewind goes back to the oldest event, and the same events follow. */
START_TEST(test_rewind)
{
    trace_event_id_t id = lu_id("log.open.rewind");
    int fd = make_log(id, 2000, 20);
    trace_id_t log = lu_open(fd);
    struct lu_ev *a, *b;
    struct lu_ev part;
    size_t na = lu_read_log(log, &a);
    ck_assert_int_eq(posix_trace_rewind(log), 0);
    for (int i = 0; i < 700; i++) {                    /* part of the way */
        int unav;
        ck_assert_int_eq(posix_trace_getnext_event(log, &part.info, part.data, sizeof part.data,
                                                   &part.len, &unav), 0);
        ck_assert_int_eq(unav, 0);
    }
    ck_assert_int_eq(posix_trace_rewind(log), 0);
    size_t nb = lu_read_log(log, &b);
    ck_assert_int_eq(na, nb);
    ck_assert_int_eq(lu_count(a, na, id), 2000);
    for (size_t i = 0; i < na; i++) {
        ck_assert_int_eq(a[i].info.posix_event_id, b[i].info.posix_event_id);
        ck_assert_int_eq(tu_ns(a[i].info.posix_timestamp), tu_ns(b[i].info.posix_timestamp));
        ck_assert_int_eq(a[i].len, b[i].len);
        ck_assert_int_eq(memcmp(a[i].data, b[i].data, a[i].len), 0);
    }
    free(a);
    free(b);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* S0072: close frees the trace id: a log opened and closed many more times
 * than {TRACE_SYS_MAX} never fails, and a closed id is invalid (S0080);
 * opened logs do not count as streams. */
START_TEST(test_close_deallocates)
{
    trace_event_id_t id = lu_id("log.open.close");
    int fd = make_log(id, 10, 0);
    for (int i = 0; i < 10 * TRACE_SYS_MAX; i++) {
        trace_id_t log = lu_open(fd);
        ck_assert_int_eq(posix_trace_close(log), 0);
        ck_assert_int_eq(posix_trace_close(log), EINVAL);
        ck_assert_int_eq(posix_trace_rewind(log), EINVAL);
    }
    /* Many open at once, each with its own position; streams still fit. */
    enum { N = 2 * TRACE_SYS_MAX };
    trace_id_t logs[N];
    for (int i = 0; i < N; i++) {
        logs[i] = lu_open(fd);
        for (int k = 0; k < i % 5; k++) {
            struct lu_ev e;
            int unav;
            ck_assert_int_eq(posix_trace_getnext_event(logs[i], &e.info, e.data, sizeof e.data,
                                                       &e.len, &unav), 0);
        }
    }
    trace_id_t trid = tu_stream_sim();
    for (int i = 0; i < N; i++) {
        struct lu_ev e;
        int unav;
        ck_assert_int_eq(posix_trace_getnext_event(logs[i], &e.info, e.data, sizeof e.data,
                                                   &e.len, &unav), 0);
        ck_assert_int_eq(unav, 0);
        if (i % 5 == 0)
            ck_assert_int_eq(e.info.posix_event_id, POSIX_TRACE_START);
        else
            ck_assert_int_eq(lu_ev_seq(&e, 0), i % 5 - 1);
        ck_assert_int_eq(posix_trace_close(logs[i]), 0);
    }
    tu_shutdown(trid);
    close(fd);
}
END_TEST

/* S0073, S0080, ruling 5: close and rewind refuse an active stream's trace
 * id (EINVAL) and leave the stream alone. */
START_TEST(test_close_rewind_active_stream)
{
    trace_id_t trid = tu_stream_sim_started();
    ck_assert_int_eq(posix_trace_close(trid), EINVAL);
    ck_assert_int_eq(posix_trace_rewind(trid), EINVAL);
    struct tu_ev ev;
    ck_assert_int_eq(tu_read1(trid, &ev), 1);
    ck_assert_int_eq(ev.info.posix_event_id, POSIX_TRACE_START);
    tu_shutdown(trid);
    ck_assert_int_eq(posix_trace_close(trid), EINVAL);
}
END_TEST

/* S0081: open of what is no trace log is EINVAL: an empty file, a text
 * file, a kernel trace file that is not a POSIX log, a descriptor that is
 * closed or not readable, a directory, a FIFO; and NULL trid. */
START_TEST(test_open_einval)
{
    trace_id_t log;
    int empty = lu_tmpfile();
    ck_assert_int_eq(posix_trace_open(empty, &log), EINVAL);
    int text = lu_tmpfile();
    const char *words = "this is not a trace log\n";
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(write(text, words, strlen(words)), (ssize_t)strlen(words));
    ck_assert_int_eq(posix_trace_open(text, &log), EINVAL);
    /* A kernel trace header without the POSIX marks. */
    int kernel = lu_tmpfile();
    const char *kh = "TRACE_HEADER_BEGIN::TRACE_FILE_NAME::kTRACE_DATE::0TRACE_VER_MAJOR::1"
                     "TRACE_VER_MINOR::01TRACE_LITTLE_ENDIAN::TRUETRACE_ENCODING::16 byte events"
                     "TRACE_BOOT_DATE::0TRACE_CYCLES_PER_SEC::1000TRACE_CPU_NUM::1"
                     "TRACE_SYSNAME::xTRACE_NODENAME::xTRACE_SYS_RELEASE::x"
                     "TRACE_SYS_VERSION::xTRACE_MACHINE::xTRACE_SYSPAGE_LEN::0TRACE_HEADER_END::";
    ck_assert_int_eq(write(kernel, kh, strlen(kh)), (ssize_t)strlen(kh));
    ck_assert_int_eq(posix_trace_open(kernel, &log), EINVAL);
    int closed = lu_tmpfile();
    close(closed);
    ck_assert_int_eq(posix_trace_open(closed, &log), EINVAL);
    ck_assert_int_eq(posix_trace_open(-1, &log), EINVAL);
    int dir = open("/", O_RDONLY);
    ck_assert_int_ge(dir, 0);
    ck_assert_int_eq(posix_trace_open(dir, &log), EINVAL);
    int pfd[2];
    ck_assert_int_eq(pipe(pfd), 0);
    ck_assert_int_eq(posix_trace_open(pfd[0], &log), EINVAL);
    trace_event_id_t id = lu_id("log.open.einval");
    int good = make_log(id, 1, 0);
    ck_assert_int_eq(posix_trace_open(good, NULL), EINVAL);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", good);
    int wo = open(path, O_WRONLY);
    ck_assert_int_ge(wo, 0);
    ck_assert_int_eq(posix_trace_open(wo, &log), EINVAL);
    close(wo);
    close(good);
    close(pfd[0]);
    close(pfd[1]);
    close(dir);
    close(kernel);
    close(text);
    close(empty);
}
END_TEST

/* S0209, S0223: trygetnext is for active streams: EINVAL on a pre-recorded
 * one (and the position does not move); timedgetnext (unspecified) reads
 * like getnext without waiting. */
START_TEST(test_trygetnext_einval)
{
    trace_event_id_t id = lu_id("log.open.try");
    int fd = make_log(id, 2, 0);
    trace_id_t log = lu_open(fd);
    struct posix_trace_event_info ev;
    char buf[16];
    size_t len;
    int unav;
    ck_assert_int_eq(posix_trace_trygetnext_event(log, &ev, buf, sizeof buf, &len, &unav), EINVAL);
    ck_assert_int_eq(posix_trace_getnext_event(log, &ev, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_eq(ev.posix_event_id, POSIX_TRACE_START);
    struct timespec past = { 1, 0 };
    ck_assert_int_eq(posix_trace_timedgetnext_event(log, &ev, buf, sizeof buf, &len, &unav,
                                                    &past), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(ev.posix_event_id, id);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* The create page, S0077: a trace id from open works only with the nine
 * functions listed: start, stop, clear, flush, shutdown (and the simulation
 * controls) give EINVAL and change nothing. */
START_TEST(test_open_trid_no_control)
{
    trace_event_id_t id = lu_id("log.open.noctl");
    int fd = make_log(id, 5, 0);
    long long size = lu_file_size(fd);
    trace_id_t log = lu_open(fd);
    struct timespec now;
    ck_assert_int_eq(posix_trace_start(log), EINVAL);
    ck_assert_int_eq(posix_trace_stop(log), EINVAL);
    ck_assert_int_eq(posix_trace_clear(log), EINVAL);
    ck_assert_int_eq(posix_trace_flush(log), EINVAL);
    ck_assert_int_eq(posix_trace_shutdown(log), EINVAL);
    ck_assert_int_eq(posixtrace_sim_advance(log, 1), EINVAL);
    ck_assert_int_eq(posixtrace_sim_now(log, &now), EINVAL);
    ck_assert_int_eq(lu_file_size(fd), size);
    struct lu_ev *evs;
    ck_assert_int_eq(lu_read_log(log, &evs), 7);
    free(evs);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* S0175, S0179: get_status of a pre-recorded stream gives the final status
 * and resets nothing (an OVERRUN stays). */
START_TEST(test_status_final_no_reset)
{
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.streamsize = 1024;
    o.sim = 1;
    trace_id_t trid = lu_create(&o, fd);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (int i = 0; i < 200; i++)
        tu_event_int(POSIX_TRACE_UNNAMED_USEREVENT, i);
    trace_id_t log = lu_shutdown_open(trid, fd);
    for (int i = 0; i < 3; i++) {
        struct posix_trace_status_info st = tu_status(log);
        ck_assert_int_eq(st.posix_stream_overrun_status, POSIX_TRACE_OVERRUN);
        ck_assert_int_eq(st.posix_stream_status, POSIX_TRACE_SUSPENDED);
        ck_assert_int_eq(st.posix_stream_flush_status, POSIX_TRACE_NOT_FLUSHING);
        ck_assert_int_eq(st.posix_log_full_status, POSIX_TRACE_NOT_FULL);
    }
    /* The LOOP stream lost events: OVERFLOW then RESUME in the log. */
    struct lu_ev *evs;
    size_t n = lu_read_log(log, &evs);
    ck_assert_int_eq(lu_count(evs, n, POSIX_TRACE_OVERFLOW), 1);
    ck_assert_int_eq(lu_count(evs, n, POSIX_TRACE_RESUME), 1);
    free(evs);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* S0113, XSH 2.11 (the event type list of a pre-recorded stream comes from
 * the log): the list has the system events, then the names recorded, each
 * named as recorded; an id not in it has no name (EINVAL). */
START_TEST(test_names_as_recorded)
{
    trace_event_id_t a = lu_id("log.open.name.a"), b = lu_id("log.open.name.b");
    int fd = make_log(a, 1, 0);
    trace_id_t log = lu_open(fd);
    trace_event_id_t id;
    int unav = 0, found_a = 0, found_b = 0, found_flush = 0;
    unsigned count = 0;
    char name[TRACE_EVENT_NAME_MAX + 1];
    while (posix_trace_eventtypelist_getnext_id(log, &id, &unav) == 0 && !unav) {
        ck_assert_int_eq(posix_trace_eventid_get_name(log, id, name), 0);
        found_a += id == a && strcmp(name, "log.open.name.a") == 0;
        found_b += id == b && strcmp(name, "log.open.name.b") == 0;
        found_flush += id == POSIX_TRACE_FLUSH_START;
        count++;
    }
    ck_assert_int_eq(found_a, 1);
    ck_assert_int_eq(found_b, 1);
    ck_assert_int_eq(found_flush, 1);
    ck_assert_int_eq(posix_trace_eventtypelist_rewind(log), 0);
    ck_assert_int_eq(posix_trace_eventtypelist_getnext_id(log, &id, &unav), 0);
    ck_assert_int_eq(unav, 0);
    ck_assert_int_eq(id, POSIX_TRACE_START);
    ck_assert_int_eq(posix_trace_eventid_get_name(log, __POSIXTRACE_EVENT_ID_LIMIT - 1, name),
                     EINVAL);
    ck_assert_int_eq(posix_trace_eventid_equal(log, a, a), 1);
    ck_assert_int_eq(posix_trace_eventid_equal(log, a, b), 0);
    ck_assert_int_eq(posix_trace_close(log), 0);
    ck_assert_int_eq(posix_trace_eventid_get_name(log, a, name), EINVAL);
    close(fd);
}
END_TEST

/* S0215, S0121: reading into a small buffer truncates (TRUNCATED_READ,
 * which overrides TRUNCATED_RECORD); data cut at record time stays
 * TRUNCATED_RECORD with max-data-size bytes. */
START_TEST(test_truncation)
{
    trace_event_id_t id = lu_id("log.open.trunc");
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_LOOP;
    o.maxdata = 10;
    o.sim = 1;
    trace_id_t trid = lu_create(&o, fd);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    char big[40];
    memset(big, 'b', sizeof big);
    posix_trace_event(id, big, sizeof big);
    posix_trace_event(id, big, 6);
    trace_id_t log = lu_shutdown_open(trid, fd);
    struct posix_trace_event_info ev;
    char buf[64];
    size_t len;
    int unav;
    ck_assert_int_eq(posix_trace_getnext_event(log, &ev, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_eq(ev.posix_event_id, POSIX_TRACE_START);
    ck_assert_int_eq(posix_trace_getnext_event(log, &ev, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_eq(len, 10);
    ck_assert_int_eq(ev.posix_truncation_status, POSIX_TRACE_TRUNCATED_RECORD);
    ck_assert_int_eq(posix_trace_getnext_event(log, &ev, buf, 3, &len, &unav), 0);
    ck_assert_int_eq(len, 3);
    ck_assert_int_eq(ev.posix_truncation_status, POSIX_TRACE_TRUNCATED_READ);
    ck_assert_int_eq(posix_trace_rewind(log), 0);
    ck_assert_int_eq(posix_trace_getnext_event(log, &ev, buf, sizeof buf, &len, &unav), 0);
    ck_assert_int_eq(posix_trace_getnext_event(log, &ev, buf, 4, &len, &unav), 0);
    ck_assert_int_eq(ev.posix_truncation_status, POSIX_TRACE_TRUNCATED_READ);
    ck_assert_int_eq(posix_trace_getnext_event(log, NULL, buf, 4, &len, &unav), EINVAL);
    ck_assert_int_eq(posix_trace_getnext_event(log, &ev, NULL, 4, &len, &unav), EINVAL);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* Every data length from 0 to max-data-size reads back exactly. */
START_TEST(test_data_lengths)
{
    trace_event_id_t id = lu_id("log.open.lengths");
    int fd = lu_tmpfile();
    struct lu_opts o = { 0 };
    o.stream_policy = POSIX_TRACE_UNTIL_FULL;
    o.log_policy = POSIX_TRACE_APPEND;
    o.maxdata = 300;
    o.streamsize = 1 << 20;
    trace_id_t trid = lu_create(&o, fd);
    ck_assert_int_eq(posix_trace_start(trid), 0);
    for (uint32_t pad = 0; pad <= 296; pad++)
        lu_event_seq(id, pad, pad);
    trace_id_t log = lu_shutdown_open(trid, fd);
    struct lu_ev *evs;
    size_t n = lu_read_log(log, &evs);
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (evs[i].info.posix_event_id == id) {
            ck_assert_int_eq(lu_ev_seq(&evs[i], k), k);
            k++;
        }
    ck_assert_int_eq(k, 297);
    free(evs);
    ck_assert_int_eq(posix_trace_close(log), 0);
    close(fd);
}
END_TEST

/* Two threads read two opened logs of one file at once, each its own
 * position. */
struct reader_arg {
    trace_id_t log;
    size_t n;
};

static void *reader(void *p)
{
    struct reader_arg *r = p;
    struct lu_ev e;
    int unav = 0;
    while (posix_trace_getnext_event(r->log, &e.info, e.data, sizeof e.data, &e.len, &unav) == 0 &&
           !unav)
        r->n++;
    return NULL;
}

START_TEST(test_concurrent_readers)
{
    trace_event_id_t id = lu_id("log.open.threads");
    int fd = make_log(id, 3000, 8);
    struct reader_arg r[2] = { { lu_open(fd), 0 }, { lu_open(fd), 0 } };
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, reader, &r[i]), 0);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    ck_assert_int_eq(r[0].n, r[1].n);
    ck_assert_int_ge(r[0].n, 3002);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(posix_trace_close(r[i].log), 0);
    close(fd);
}
END_TEST

Suite *suite_log_open(void)
{
    Suite *s = suite_create("log_open");
    TCase *tc = tu_tcase("open");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_open_reads_events);
    tcase_add_test(tc, test_end_of_log);
    tcase_add_test(tc, test_rewind);
    tcase_add_test(tc, test_close_deallocates);
    tcase_add_test(tc, test_close_rewind_active_stream);
    tcase_add_test(tc, test_open_einval);
    tcase_add_test(tc, test_trygetnext_einval);
    tcase_add_test(tc, test_open_trid_no_control);
    tcase_add_test(tc, test_status_final_no_reset);
    tcase_add_test(tc, test_names_as_recorded);
    tcase_add_test(tc, test_truncation);
    tcase_add_test(tc, test_data_lengths);
    tcase_add_test(tc, test_concurrent_readers);
    suite_add_tcase(s, tc);
    return s;
}
