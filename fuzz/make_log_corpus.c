/* SPDX-License-Identifier: MIT */
/*
 * make_log_corpus.c -- writes the seed corpus of the log reader's fuzz
 * target, fuzz/corpus/log_reader/ ('make fuzz-log-corpus', mk/log.mk).
 * Deterministic (simulated clock, deterministic origins): the same files
 * every time on a host of the same byte order.
 *
 * Most seeds have their metadata area shrunk to 4 KiB (the header says
 * TRACE_POSIX_META_BYTES::04096, the same length as 65536), which the
 * reader accepts: small inputs that hold every kind of record keep the
 * fuzzer fast.  One seed keeps the full 64 KiB.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <posixtrace_sim.h>
#include <trace.h>

static const char *dir;

static void die(const char *what, int rc)
{
    fprintf(stderr, "make_log_corpus: %s: %s\n", what, strerror(rc));
    exit(1);
}

static unsigned char *slurp(int fd, size_t *len)
{
    off_t n = lseek(fd, 0, SEEK_END);
    unsigned char *b = malloc((size_t)n + 1);
    if (b == NULL || pread(fd, b, (size_t)n, 0) != n)
        die("read", errno);
    *len = (size_t)n;
    return b;
}

/* Writes file name, with the metadata area shrunk to 4 KiB when small. */
static void save(const char *name, const unsigned char *b, size_t len, int small)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        die(path, errno);
    const char *key = "TRACE_POSIX_META_BYTES::65536";
    const unsigned char *at = memmem(b, len < 4096 ? len : 4096, key, strlen(key));
    if (!small || at == NULL) {
        fwrite(b, 1, len, f);
    } else {
        const unsigned char *end = memmem(b, 4096, "TRACE_HEADER_END::", 18);
        size_t hlen = (size_t)(end - b) + 18, keyat = (size_t)(at - b) + strlen(key) - 5;
        fwrite(b, 1, keyat, f);
        fputs("04096", f);
        fwrite(b + keyat + 5, 1, hlen - keyat - 5, f);
        fwrite(b + hlen, 1, 4096, f);                       /* the records that matter */
        if (len > hlen + 65536)
            fwrite(b + hlen + 65536, 1, len - hlen - 65536, f);
    }
    fclose(f);
}

struct scenario {
    const char *name;
    int stream_policy, log_policy;
    size_t streamsize, maxdata, logsize;
    int events, flush_every, small, shutdown, cut;
};

static void run(const struct scenario *sc)
{
    char path[] = "/tmp/make_log_corpus_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp", errno);
    unlink(path);
    trace_attr_t a;
    trace_id_t t;
    struct timespec start = { 1000, 0 };
    trace_event_id_t ids[3];
    posix_trace_attr_init(&a);
    posix_trace_attr_setname(&a, sc->name);
    if (sc->stream_policy)
        posix_trace_attr_setstreamfullpolicy(&a, sc->stream_policy);
    posix_trace_attr_setlogfullpolicy(&a, sc->log_policy);
    posix_trace_attr_setstreamsize(&a, sc->streamsize);
    posix_trace_attr_setmaxdatasize(&a, sc->maxdata);
    posix_trace_attr_setlogsize(&a, sc->logsize);
    posixtrace_attr_setsimclock(&a, &start, 1000);
    posixtrace_attr_setsimorigin(&a, 100);
    posix_trace_eventid_open("corpus.a", &ids[0]);
    posix_trace_eventid_open("corpus.b", &ids[1]);
    posix_trace_eventid_open("corpus.a.rather.long.name.of.an.event", &ids[2]);
    int rc = posix_trace_create_withlog(0, &a, fd, &t);
    if (rc)
        die("create_withlog", rc);
    posix_trace_start(t);
    unsigned char data[4096];
    for (int i = 0; i < sc->events; i++) {
        size_t len = (size_t)(i * 37) % (sc->maxdata + 9);
        for (size_t k = 0; k < len && k < sizeof data; k++)
            data[k] = (unsigned char)(i + k);
        posix_trace_event(ids[i % 3], data, len < sizeof data ? len : sizeof data);
        if (sc->flush_every && i % sc->flush_every == sc->flush_every - 1) {
            struct posix_trace_status_info st;
            posix_trace_flush(t);
            do
                posix_trace_get_status(t, &st);
            while (st.posix_stream_flush_status == POSIX_TRACE_FLUSHING);
        }
    }
    size_t len;
    unsigned char *b;
    if (sc->shutdown) {
        posix_trace_shutdown(t);
        b = slurp(fd, &len);
    } else {
        b = slurp(fd, &len);            /* a log read while its stream goes on */
        posix_trace_shutdown(t);
    }
    if (sc->cut && (size_t)sc->cut < len)
        len -= (size_t)sc->cut;
    save(sc->name, b, len, sc->small);
    free(b);
    close(fd);
}

int main(int argc, char **argv)
{
    dir = argc > 1 ? argv[1] : "fuzz/corpus/log_reader";
    static const struct scenario all[] = {
        { "loop_wrapped.log", POSIX_TRACE_LOOP, POSIX_TRACE_LOOP, 8192, 64, 3 * 4096,
          300, 60, 1, 1, 0 },
        { "until_full.log", POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, 8192, 64, 1,
          200, 50, 1, 1, 0 },
        { "append.log", POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND, 65536, 100, 1,
          150, 40, 1, 1, 0 },
        { "flush_policy.log", 0, POSIX_TRACE_APPEND, 2048, 32, 1, 120, 0, 1, 1, 0 },
        { "not_shut_down.log", POSIX_TRACE_LOOP, POSIX_TRACE_APPEND, 65536, 48, 1,
          100, 30, 1, 0, 0 },
        { "cut.log", POSIX_TRACE_LOOP, POSIX_TRACE_APPEND, 65536, 48, 1, 100, 30, 1, 1, 700 },
        { "big_data.log", POSIX_TRACE_UNTIL_FULL, POSIX_TRACE_APPEND, 65536, 1500, 1,
          12, 0, 1, 1, 0 },
        { "empty.log", POSIX_TRACE_LOOP, POSIX_TRACE_LOOP, 4096, 8, 1, 0, 0, 1, 1, 0 },
        { "full_meta.log", POSIX_TRACE_LOOP, POSIX_TRACE_UNTIL_FULL, 4096, 16, 1,
          30, 0, 0, 1, 0 },
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        run(&all[i]);
    return 0;
}
