/* SPDX-License-Identifier: MIT */
/*
 * check_log_util.c -- helpers of the trace log's unit tests (check_log.h).
 */
#include "check_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dump/dump.h"

int lu_tmpfile(void)
{
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/check_log_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "mkstemp(%s): %s", path, strerror(errno));
    unlink(path);
    return fd;
}

trace_id_t lu_create(const struct lu_opts *o, int fd)
{
    trace_attr_t a;
    trace_id_t trid = 0;
    ck_assert_int_eq(posix_trace_attr_init(&a), 0);
    if (o->stream_policy)
        ck_assert_int_eq(posix_trace_attr_setstreamfullpolicy(&a, o->stream_policy), 0);
    if (o->log_policy)
        ck_assert_int_eq(posix_trace_attr_setlogfullpolicy(&a, o->log_policy), 0);
    if (o->streamsize)
        ck_assert_int_eq(posix_trace_attr_setstreamsize(&a, o->streamsize), 0);
    if (o->maxdata)
        ck_assert_int_eq(posix_trace_attr_setmaxdatasize(&a, o->maxdata), 0);
    if (o->logsize)
        ck_assert_int_eq(posix_trace_attr_setlogsize(&a, o->logsize), 0);
    if (o->name)
        ck_assert_int_eq(posix_trace_attr_setname(&a, o->name), 0);
    if (o->sim) {
        struct timespec start = { TU_SIM_START_SEC, 0 };
        ck_assert_int_eq(posixtrace_attr_setsimclock(&a, &start, TU_SIM_STEP_NS), 0);
    }
    if (o->simorigin > 0)
        ck_assert_int_eq(posixtrace_attr_setsimorigin(&a, o->simorigin), 0);
    int rc = posix_trace_create_withlog(0, &a, fd, &trid);
    ck_assert_msg(rc == 0, "posix_trace_create_withlog: expected 0, got %d (%s)", rc,
                  strerror(rc));
    ck_assert_int_eq(posix_trace_attr_destroy(&a), 0);
    tu_track(trid);
    return trid;
}

trace_id_t lu_open(int fd)
{
    trace_id_t trid = 0;
    int rc = posix_trace_open(fd, &trid);
    ck_assert_msg(rc == 0, "posix_trace_open: expected 0, got %d (%s)", rc, strerror(rc));
    return trid;
}

trace_id_t lu_shutdown_open(trace_id_t trid, int fd)
{
    int rc = posix_trace_shutdown(trid);
    ck_assert_msg(rc == 0, "posix_trace_shutdown: expected 0, got %d (%s)", rc, strerror(rc));
    return lu_open(fd);
}

size_t lu_read_log(trace_id_t trid, struct lu_ev **evs)
{
    size_t n = 0, cap = 64;
    struct lu_ev *v = malloc(cap * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            LU_CHECK(v != NULL, "out of memory");
        }
        int unav = -1;
        memset(&v[n], 0, sizeof v[n]);
        int rc = posix_trace_getnext_event(trid, &v[n].info, v[n].data, sizeof v[n].data,
                                           &v[n].len, &unav);
        LU_CHECK(rc == 0, "getnext_event on a log: expected 0, got %d", rc);
        if (unav)
            break;
        n++;
    }
    *evs = v;
    return n;
}

struct posix_trace_status_info lu_wait_flushed(trace_id_t trid)
{
    struct posix_trace_status_info st, seen;
    int error = 0, overrun = 0, log_overrun = 0;
    for (int i = 0; i < 20000; i++) {
        st = tu_status(trid);
        /* What an earlier poll read (and so reset) is not lost. */
        if (error == 0)
            error = st.posix_stream_flush_error;
        overrun |= st.posix_stream_overrun_status == POSIX_TRACE_OVERRUN;
        log_overrun |= st.posix_log_overrun_status == POSIX_TRACE_OVERRUN;
        if (st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING) {
            seen = st;
            seen.posix_stream_flush_error = error;
            if (overrun)
                seen.posix_stream_overrun_status = POSIX_TRACE_OVERRUN;
            if (log_overrun)
                seen.posix_log_overrun_status = POSIX_TRACE_OVERRUN;
            return seen;
        }
        tu_sleep_ms(1);
    }
    ck_abort_msg("the flush did not complete in 20 s");
    return st;
}

static unsigned char pattern(uint32_t v, size_t i)
{
    return (unsigned char)(v * 31u + i * 7u + 1u);
}

void lu_event_seq(trace_event_id_t id, uint32_t v, size_t pad)
{
    unsigned char buf[4 + 512];
    if (pad > 512)
        pad = 512;
    memcpy(buf, &v, 4);
    for (size_t i = 0; i < pad; i++)
        buf[4 + i] = pattern(v, i);
    posix_trace_event(id, buf, 4 + pad);
}

int64_t lu_ev_seq(const struct lu_ev *ev, size_t pad)
{
    uint32_t v;
    if (ev->len != 4 + pad)
        return -1;
    memcpy(&v, ev->data, 4);
    for (size_t i = 0; i < pad; i++)
        if (ev->data[4 + i] != pattern(v, i))
            return -1;
    return v;
}

void lu_event_seqs(trace_event_id_t id, uint32_t from, uint32_t to, size_t pad)
{
    for (uint32_t v = from; v < to; v++)
        lu_event_seq(id, v, pad);
}

struct posix_trace_status_info lu_flush_wait(trace_id_t trid)
{
    ck_assert_int_eq(posix_trace_flush(trid), 0);
    return lu_wait_flushed(trid);
}

struct lu_log lu_open_read(int fd)
{
    struct lu_log l;
    l.log = lu_open(fd);
    l.n = lu_read_log(l.log, &l.evs);
    return l;
}

struct lu_log lu_shutdown_read(trace_id_t trid, int fd)
{
    struct lu_log l;
    l.log = lu_shutdown_open(trid, fd);
    l.n = lu_read_log(l.log, &l.evs);
    return l;
}

void lu_log_close(struct lu_log *l, int fd)
{
    free(l->evs);
    l->evs = NULL;
    ck_assert_int_eq(posix_trace_close(l->log), 0);
    close(fd);
}

uint32_t lu_check_seq(const struct lu_log *l, trace_event_id_t id, size_t pad)
{
    uint32_t k = 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->evs[i].info.posix_event_id == id)
            ck_assert_int_eq(lu_ev_seq(&l->evs[i], pad), k++);
    return k;
}

trace_event_id_t lu_id(const char *name)
{
    trace_event_id_t id = 0;
    ck_assert_int_eq(posix_trace_eventid_open(name, &id), 0);
    ck_assert_uint_gt(id, POSIX_TRACE_UNNAMED_USEREVENT);
    return id;
}

size_t lu_count(const struct lu_ev *evs, size_t n, trace_event_id_t id)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += evs[i].info.posix_event_id == id;
    return k;
}

long long lu_file_size(int fd)
{
    struct stat sb;
    ck_assert_int_eq(fstat(fd, &sb), 0);
    return (long long)sb.st_size;
}

/* tracedump's text of the log on fd (LOGFORMAT section 10): the flush
 * error named, and no "cut or damaged" error.  Returns 0, or 1 with msg. */
int lu_dump_says_flush_error(int fd, const char *name, char *msg, size_t len)
{
    char *text = NULL, err[256];
    size_t n = 0;
    FILE *out = open_memstream(&text, &n);
    ck_assert_ptr_nonnull(out);
    struct dump_options o = { .format = DUMP_TEXT, .no_events = 1 };
    struct dump_posix_result r;
    int rc = dump_posix_fd(fd, out, &o, &r, err, sizeof err);
    fclose(out);
    char want[64];
    snprintf(want, sizeof want, "# flush error %s: ", name);
    int bad = rc != 0 || r.errors != 0 || !r.complete || strstr(text, want) == NULL ||
              strstr(text, "after flush error") == NULL || strstr(text, "cut or damaged");
    if (bad)
        snprintf(msg, len, "tracedump (rc %d, %llu errors): %.150s", rc,
                 (unsigned long long)r.errors, text);
    free(text);
    return bad;
}
