/* SPDX-License-Identifier: MIT */
/*
 * ct_log.c -- the helpers of ct_log.h (what each does is said there),
 * compiled once into the tests' helper library (build/harness/obj/libct.a).
 * Only with TRL at compile time (CT_HAVE_TRL): without it the object is
 * empty and the tests of the option end UNSUPPORTED (NO_TRL()).
 */
#include "../ct_log.h"

#if CT_HAVE_TRL

void require_trl(void)
{
    if (!ct_option("TRL"))
        CT_UNSUPPORTED("TRL is not supported at run time");
}

/* The temporary files to remove at exit, and the process that made them
 * (a child the test forks removes nothing). */
static char tmp_names[64][PATH_BUF];
static int tmp_count;
static pid_t tmp_pid;

static void tmp_remove(void)
{
    if (getpid() != tmp_pid)
        return;
    for (int i = 0; i < tmp_count; i++)
        unlink(tmp_names[i]);
}

void tmp_file(char *path)
{
    const char *dir = getenv("TMPDIR");
    if (tmp_count == 64)
        CT_UNRESOLVED("more than 64 temporary files");
    snprintf(path, PATH_BUF, "%s/ct-log-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        CT_UNRESOLVED("mkstemp(%s): %s", path, ct_errname(errno));
    close(fd);
    if (tmp_count == 0) {
        tmp_pid = getpid();
        atexit(tmp_remove);
    }
    snprintf(tmp_names[tmp_count++], PATH_BUF, "%.*s", PATH_BUF - 1, path);
}

int open_or_unresolved(const char *path, int flags)
{
    int fd = open(path, flags);
    if (fd < 0)
        CT_UNRESOLVED("open(%s): %s", path, ct_errname(errno));
    return fd;
}

off_t file_size(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        CT_UNRESOLVED("stat(%s): %s", path, ct_errname(errno));
    return sb.st_size;
}

const char *policy_name(int p)
{
    if (p == POSIX_TRACE_LOOP)
        return "LOOP";
    if (p == POSIX_TRACE_UNTIL_FULL)
        return "UNTIL_FULL";
    if (p == POSIX_TRACE_APPEND)
        return "APPEND";
    if (p == POSIX_TRACE_FLUSH)
        return "FLUSH";
    return "no policy";
}

void log_attr(trace_attr_t *a, int sp, int lp)
{
    size_t md = 0;
    CT_SETUP_OK(posix_trace_attr_init(a));
    CT_SETUP_OK(posix_trace_attr_setstreamfullpolicy(a, sp));
    CT_SETUP_OK(posix_trace_attr_setlogfullpolicy(a, lp));
    if (posix_trace_attr_getmaxdatasize(a, &md) == 0 && md < DATA_LEN)
        (void)posix_trace_attr_setmaxdatasize(a, DATA_LEN);
}

void small_log(trace_attr_t *a)
{
    static const size_t sizes[] = { 4096, 8192, 16384, 65536 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (posix_trace_attr_setlogsize(a, sizes[i]) == 0)
            return;
    ct_note("setlogsize refused 4096 to 65536 bytes: the default log-max-size is used");
}

void mid_log(trace_attr_t *a)
{
    static const size_t sizes[] = { 32768, 65536, 16384, 8192, 4096 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (posix_trace_attr_setlogsize(a, sizes[i]) == 0)
            return;
    ct_note("setlogsize refused 4096 to 65536 bytes: the default log-max-size is used");
}

void stream_events(trace_attr_t *a, size_t n)
{
    size_t ev = 0;
    if (posix_trace_attr_getmaxusereventsize(a, DATA_LEN, &ev) != 0 || ev == 0)
        ev = 64;
    if (posix_trace_attr_setstreamsize(a, n * ev) != 0)
        ct_note("setstreamsize(%zu) refused: the default stream-min-size is used", n * ev);
}

void attrs_of(trace_id_t trid, trace_attr_t *a)
{
    CT_SETUP_OK(posix_trace_attr_init(a));
    CT_SETUP_OK(posix_trace_get_attr(trid, a));
}

size_t logsize_of(trace_id_t trid)
{
    trace_attr_t a;
    size_t v = 0;
    attrs_of(trid, &a);
    CT_SETUP_OK(posix_trace_attr_getlogsize(&a, &v));
    posix_trace_attr_destroy(&a);
    return v;
}

size_t data_bytes(trace_id_t trid)
{
    trace_attr_t a;
    size_t md = 0;
    attrs_of(trid, &a);
    CT_SETUP_OK(posix_trace_attr_getmaxdatasize(&a, &md));
    posix_trace_attr_destroy(&a);
    return md < DATA_LEN ? md : DATA_LEN;
}

long lossless(trace_id_t trid)
{
    trace_attr_t a;
    size_t ss = 0, ue = 0, se = 0;
    attrs_of(trid, &a);
    CT_SETUP_OK(posix_trace_attr_getstreamsize(&a, &ss));
    CT_SETUP_OK(posix_trace_attr_getmaxusereventsize(&a, DATA_LEN, &ue));
    CT_SETUP_OK(posix_trace_attr_getmaxsystemeventsize(&a, &se));
    posix_trace_attr_destroy(&a);
    if (ue == 0)
        ue = 1;
    if (ss <= 8 * se + ue)
        return 1;
    long n = (long)((ss - 8 * se) / ue);
    return n > 20000 ? 20000 : n;
}

trace_id_t log_stream(const trace_attr_t *a, char *path, int *fdp)
{
    trace_id_t trid;
    tmp_file(path);
    int fd = open_or_unresolved(path, O_WRONLY);
    CT_SETUP_OK(posix_trace_create_withlog(0, a, fd, &trid));
    if (fdp)
        *fdp = fd;
    return trid;
}

trace_id_t open_log(const char *path)
{
    trace_id_t trid;
    int fd = open_or_unresolved(path, O_RDONLY);
    CT_SETUP_OK(posix_trace_open(fd, &trid));
    return trid;
}

trace_event_id_t open_id(const char *name)
{
    trace_event_id_t id;
    CT_SETUP_OK(posix_trace_eventid_open(name, &id));
    return id;
}

void record(trace_event_id_t id, unsigned seq)
{
    unsigned char d[DATA_LEN];
    unsigned x = seq * 2654435761u + 12345u;
    memcpy(d, &seq, sizeof seq);
    for (size_t i = sizeof seq; i < DATA_LEN; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        d[i] = (unsigned char)(x >> 8);
    }
    posix_trace_event(id, d, DATA_LEN);
}

struct posix_trace_status_info status(trace_id_t trid)
{
    struct posix_trace_status_info st;
    CT_SETUP_OK(posix_trace_get_status(trid, &st));
    return st;
}

long ms_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (long)((now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000);
}

void observe(struct flushwatch *w, const struct posix_trace_status_info *st)
{
    w->polls++;
    if (st->posix_stream_flush_status == POSIX_TRACE_FLUSHING)
        w->saw_flushing = 1;
    else if (st->posix_stream_flush_status != POSIX_TRACE_NOT_FLUSHING && !w->bad) {
        w->bad = 1;
        snprintf(w->what, sizeof w->what, "posix_stream_flush_status %d",
                 st->posix_stream_flush_status);
    }
    if (st->posix_stream_flush_error != 0 && w->flush_error == 0)
        w->flush_error = st->posix_stream_flush_error;
    w->log_overrun_last = st->posix_log_overrun_status == POSIX_TRACE_OVERRUN;
    if (w->log_overrun_last)
        w->log_overrun = 1;
    else if (st->posix_log_overrun_status != POSIX_TRACE_NO_OVERRUN && !w->bad) {
        w->bad = 1;
        snprintf(w->what, sizeof w->what, "posix_log_overrun_status %d",
                 st->posix_log_overrun_status);
    }
    if (st->posix_log_full_status != POSIX_TRACE_FULL &&
        st->posix_log_full_status != POSIX_TRACE_NOT_FULL && !w->bad) {
        w->bad = 1;
        snprintf(w->what, sizeof w->what, "posix_log_full_status %d",
                 st->posix_log_full_status);
    }
    w->log_full = st->posix_log_full_status == POSIX_TRACE_FULL;
}

int wait_flush(trace_id_t trid, struct flushwatch *w)
{
    struct timespec t0;
    memset(w, 0, sizeof *w);
    clock_gettime(CLOCK_REALTIME, &t0);
    for (;;) {
        struct posix_trace_status_info st = status(trid);
        observe(w, &st);
        w->ms = ms_since(&t0);
        if (st.posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING)
            return w->done = 1;
        if (w->ms > FLUSH_WAIT_MS)
            return 0;
        ct_sleep_ms(1);
    }
}

int wait_taking(trace_id_t trid, struct posix_trace_status_info *last, int *overrun,
                long *waits)
{
    struct timespec t0;
    clock_gettime(CLOCK_REALTIME, &t0);
    *overrun = 0;
    for (;;) {
        *last = status(trid);
        *overrun |= last->posix_stream_overrun_status == POSIX_TRACE_OVERRUN;
        if (last->posix_stream_flush_status == POSIX_TRACE_NOT_FLUSHING &&
            last->posix_stream_full_status == POSIX_TRACE_NOT_FULL &&
            last->posix_stream_status == POSIX_TRACE_RUNNING)
            return 1;
        if (ms_since(&t0) > FLUSH_WAIT_MS)
            return 0;
        if (waits != NULL)
            (*waits)++;
        ct_sleep_ms(1);
    }
}

void flush_wait(trace_id_t trid, struct flushwatch *w)
{
    struct flushwatch mine;
    if (w == NULL)
        w = &mine;
    CT_SETUP_OK(posix_trace_flush(trid));
    if (!wait_flush(trid, w))
        CT_UNRESOLVED("a flush did not end within %d ms (flush.completion-pollable)",
                      FLUSH_WAIT_MS);
}

void flush_batch(trace_id_t trid, trace_event_id_t id, unsigned *seq, long n,
          struct flushwatch *w)
{
    for (long i = 0; i < n; i++)
        record(id, (*seq)++);
    flush_wait(trid, w);
}

trace_id_t small_log_stream(int lp, char *path)
{
    trace_attr_t a;
    log_attr(&a, POSIX_TRACE_UNTIL_FULL, lp);
    if (lp == POSIX_TRACE_LOOP)
        mid_log(&a);
    else
        small_log(&a);
    trace_id_t trid = log_stream(&a, path, NULL);
    CT_SETUP_OK(posix_trace_start(trid));
    return trid;
}

long log_capacity(trace_id_t trid)
{
    size_t ls = logsize_of(trid), db = data_bytes(trid);
    if (db < sizeof(unsigned))
        CT_UNRESOLVED("max-data-size %zu is too small for the tests' events", db);
    long cap = (long)(ls / db) + 1;
    if (4 * cap > MAX_FILL_EVENTS)
        CT_UNRESOLVED("log-max-size in force is %zu bytes: too large to fill in a test (the"
                      " setter refused 4096 to 65536)", ls);
    return cap;
}

long batch_of(trace_id_t trid)
{
    long b = lossless(trid) / 2;
    return b > 0 ? b : 1;
}

long fill_log(trace_id_t trid, trace_event_id_t id, unsigned *seq, long bound)
{
    long batch = batch_of(trid), total = 0;
    while (total < bound) {
        struct flushwatch w;
        long n = batch < bound - total ? batch : bound - total;
        flush_batch(trid, id, seq, n, &w);
        total += n;
        if (w.log_full)
            return total;
    }
    return 0;
}

void flush_n(trace_id_t trid, trace_event_id_t id, unsigned *seq, long n)
{
    long batch = batch_of(trid);
    for (long done = 0; done < n; done += batch)
        flush_batch(trid, id, seq, batch < n - done ? batch : n - done, NULL);
}

trace_id_t full_until_full_log(char *path, trace_event_id_t id, unsigned *seq,
                        long *filled, int fail)
{
    trace_id_t trid = small_log_stream(POSIX_TRACE_UNTIL_FULL, path);
    long cap = log_capacity(trid);
    *filled = fill_log(trid, id, seq, 4 * cap + 2 * batch_of(trid) + 1000);
    if (*filled == 0 && fail)
        CT_FAIL("an UNTIL_FULL log of log-max-size %zu never reported posix_log_full_status"
                " FULL after %u events of %d bytes were flushed into it", logsize_of(trid),
                *seq, DATA_LEN);
    if (*filled == 0)
        CT_UNRESOLVED("an UNTIL_FULL log of log-max-size %zu never reported FULL after %u"
                      " events of %d bytes (log.max-size)", logsize_of(trid), *seq, DATA_LEN);
    return trid;
}

int next_rec(trace_id_t trid, struct rec *r)
{
    int unavailable = -1;
    r->len = 0;
    CT_SETUP_OK(posix_trace_getnext_event(trid, &r->info, r->data, sizeof r->data, &r->len,
                                          &unavailable));
    return unavailable == 0;
}

int is_ev(trace_id_t trid, const struct rec *r, trace_event_id_t id)
{
    return posix_trace_eventid_equal(trid, r->info.posix_event_id, id) != 0;
}

int has_name(trace_id_t trid, const struct rec *r, const char *name)
{
    char buf[CT_EVENT_NAME_BUF];
    if (posix_trace_eventid_get_name(trid, r->info.posix_event_id, buf) != 0)
        return 0;
    return strcmp(buf, name) == 0;
}

unsigned seq_of(const struct rec *r)
{
    unsigned s = ~0u;
    if (r->len >= sizeof s)
        memcpy(&s, r->data, sizeof s);
    return s;
}

struct rec recs[MAXREC];

int read_all(trace_id_t trid)
{
    int n = 0;
    while (n < MAXREC && next_rec(trid, &recs[n]))
        n++;
    if (n == MAXREC)
        CT_UNRESOLVED("the log holds more than %d events", MAXREC);
    return n;
}

int user_seqs(trace_id_t trid, int n, const char *name, unsigned *seqs, int max)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (has_name(trid, &recs[i], name) && k < max)
            seqs[k++] = seq_of(&recs[i]);
    return k;
}

int find_ev(trace_id_t trid, int n, int from, trace_event_id_t id)
{
    for (int i = from; i < n; i++)
        if (is_ev(trid, &recs[i], id))
            return i;
    return -1;
}

int last_named(trace_id_t trid, int n, const char *name)
{
    for (int i = n - 1; i >= 0; i--)
        if (has_name(trid, &recs[i], name))
            return i;
    return -1;
}

int shutdown_read(trace_id_t trid, const char *path, trace_id_t *logp)
{
    CT_SETUP_OK(posix_trace_shutdown(trid));
    trace_id_t log = open_log(path);
    if (logp)
        *logp = log;
    return read_all(log);
}

const char *seq_list(const unsigned *seqs, int k)
{
    static char buf[8][200];
    static int next;
    char *b = buf[next++ % 8];
    size_t o = 0;
    int i;
    b[0] = '\0';
    for (i = 0; i < k; i++) {
        int w = snprintf(b + o, sizeof buf[0] - o, "%s%u", i ? " " : "", seqs[i]);
        if (w < 0 || o + (size_t)w + 5 >= sizeof buf[0])
            break;
        o += (size_t)w;
    }
    if (i < k)
        snprintf(b + o, sizeof buf[0] - o, " ...");
    return b;
}

/* The tmpfs of fs_mount: its directory, the process that mounted it, and
 * whether it is mounted (fs_cleanup at exit). */
static char fs_dir[PATH_BUF];
static pid_t fs_pid;
static int fs_mounted;

static void fs_run(const char *verb)
{
    char cmd[PATH_BUF + 96];
    snprintf(cmd, sizeof cmd, "%s '%s' >/dev/null 2>&1", verb, fs_dir);
    if (system(cmd) == 0 && strcmp(verb, "umount -l") == 0)
        fs_mounted = 0;
}

static void fs_cleanup(void)
{
    if (getpid() != fs_pid || fs_dir[0] == '\0')
        return;
    if (fs_mounted)
        fs_run("umount -l");
    rmdir(fs_dir);
}

void fs_mount(int kib)
{
    const char *base = getenv("TMPDIR");
    char verb[64];
    snprintf(fs_dir, sizeof fs_dir, "%s/ct-fs-XXXXXX", base && *base ? base : "/tmp");
    if (mkdtemp(fs_dir) == NULL)
        CT_UNRESOLVED("mkdtemp(%s): %s", fs_dir, ct_errname(errno));
    fs_pid = getpid();
    atexit(fs_cleanup);
    fflush(stdout);
    snprintf(verb, sizeof verb, "mount -t tmpfs -o size=%dk ct-tmpfs", kib);
    fs_mounted = 1;
    fs_run(verb);
    struct stat a, b;
    char parent[PATH_BUF + 4];
    snprintf(parent, sizeof parent, "%s/..", fs_dir);
    if (stat(fs_dir, &a) != 0 || stat(parent, &b) != 0 || a.st_dev == b.st_dev) {
        fs_mounted = 0;
        CT_UNTESTED("no full device can be made here: mounting a %d KiB tmpfs failed (it"
                    " needs root and Linux's mount -t tmpfs); ENOSPC is not exercised", kib);
    }
}

int fs_open(const char *name, int flags)
{
    char path[PATH_BUF + 64];
    snprintf(path, sizeof path, "%s/%s", fs_dir, name);
    int fd = open(path, flags | O_CREAT, 0600);
    if (fd < 0)
        CT_UNRESOLVED("open(%s): %s", path, ct_errname(errno));
    return fd;
}

void fs_detach(void)
{
    fflush(stdout);
    fs_run("umount -l");
}

long fs_unit(int fd)
{
    struct statvfs v;
    struct stat st;
    long unit = 4096;
    if (fstatvfs(fd, &v) == 0 && (long)v.f_frsize > unit)
        unit = (long)v.f_frsize;
    if (fstat(fd, &st) == 0 && (long)st.st_blksize > unit)
        unit = (long)st.st_blksize;
    return unit > 1024L * 1024 ? 1024L * 1024 : unit;
}

void fs_fill(int fd)
{
    static char block[4096];
    long total = 0;
    ssize_t w;
    memset(block, 0xa5, sizeof block);
    while ((w = write(fd, block, sizeof block)) > 0)
        if ((total += w) > 64L * 1024 * 1024)
            CT_UNRESOLVED("the small tmpfs took 64 MiB and is not full");
    while (write(fd, block, 1) == 1)
        total++;
    if (errno != ENOSPC)
        CT_UNRESOLVED("filling the tmpfs stopped with %s, not ENOSPC", ct_errname(errno));
}

void fault_setup_failed(struct fault_out *o, const char *what, int err)
{
    if (o->setup[0] == '\0')
        snprintf(o->setup, sizeof o->setup, "%s: %s", what, ct_errname(err));
}

int fault_poll(trace_id_t trid, struct fault_out *o, int *flushing)
{
    struct posix_trace_status_info st;
    int rc = posix_trace_get_status(trid, &st);
    if (rc != 0) {
        fault_setup_failed(o, "get_status", rc);
        *flushing = 0;
        return 0;
    }
    *flushing = st.posix_stream_flush_status == POSIX_TRACE_FLUSHING;
    return st.posix_stream_flush_error;
}

void fault_wait(trace_id_t trid, struct fault_out *o)
{
    int flushing = 1;
    for (int ms = 0; ms <= FLUSH_WAIT_MS && flushing; ms++) {
        int e = fault_poll(trid, o, &flushing);
        if (e != 0 && o->flush_error == 0)
            o->flush_error = e;
        if (flushing)
            ct_sleep_ms(1);
    }
    o->idle = !flushing;
    if (o->flush_error != 0 && o->idle)
        for (int i = 0; i < 2; i++) {
            int e = fault_poll(trid, o, &flushing);
            if (e != 0 && o->error_after == 0)
                o->error_after = e;
        }
}

void fault_on(int kind, int filler)
{
    if (kind == FAULT_EFBIG) {
        struct rlimit rl;
        getrlimit(RLIMIT_FSIZE, &rl);
        rl.rlim_cur = 1;        /* no write may reach past the file's first byte */
        setrlimit(RLIMIT_FSIZE, &rl);
    } else {
        char block[4096];
        memset(block, 0x5a, sizeof block);
        while (write(filler, block, sizeof block) > 0)
            ;
        while (write(filler, block, 1) == 1)
            ;
    }
}

long fault_count(trace_id_t log, const char *name, long n)
{
    struct rec r;
    long found = 0;
    unsigned next = 0;
    int unavailable = 0;
    posix_trace_rewind(log);
    for (;;) {
        r.len = 0;
        if (posix_trace_getnext_event(log, &r.info, r.data, sizeof r.data, &r.len,
                                      &unavailable) != 0 || unavailable)
            break;
        if (has_name(log, &r, name) && seq_of(&r) == next && (long)next < n) {
            found++;
            next++;
        }
    }
    return found;
}

long fault_need(long unit)
{
    return unit / DATA_LEN + 1;
}

void fault_child(int kind, int mode, int wfd, int rfd, int filler, long unit,
          struct fault_out *o)
{
    trace_attr_t a;
    trace_id_t trid, log;
    trace_event_id_t b1, b2;
    size_t ev = 0, md = 0;
    int rc;
    memset(o, 0, sizeof *o);
    o->unit = unit;
    signal(SIGXFSZ, SIG_IGN);
    if ((rc = posix_trace_eventid_open(FAULT_B1, &b1)) != 0 ||
        (rc = posix_trace_eventid_open(FAULT_B2, &b2)) != 0)
        SETUP_FAILED("eventid_open", rc);
    if ((rc = posix_trace_attr_init(&a)) != 0 ||
        (rc = posix_trace_attr_setstreamfullpolicy(&a, mode == MODE_AUTO ? POSIX_TRACE_FLUSH
                                                   : POSIX_TRACE_UNTIL_FULL)) != 0 ||
        (rc = posix_trace_attr_setlogfullpolicy(&a, POSIX_TRACE_APPEND)) != 0)
        SETUP_FAILED("attributes", rc);
    if (posix_trace_attr_getmaxdatasize(&a, &md) == 0 && md < DATA_LEN)
        (void)posix_trace_attr_setmaxdatasize(&a, DATA_LEN);
    if (posix_trace_attr_getmaxusereventsize(&a, DATA_LEN, &ev) != 0 || ev == 0)
        ev = 64;
    /* ENOSPC: room for two batches (half the stream each, less the system
     * events) that each need a new unit of the device. */
    long events = unit > 0 ? 3 * fault_need(unit) + 64 : 64;
    (void)posix_trace_attr_setstreamsize(&a, (size_t)events * ev);
    if ((rc = posix_trace_create_withlog(0, &a, wfd, &trid)) != 0)
        SETUP_FAILED("create_withlog", rc);
    if ((rc = posix_trace_start(trid)) != 0)
        SETUP_FAILED("start", rc);
    /* Events a stream of stream-min-size certainly holds (8 system events
     * kept aside), at most 2000. */
    trace_attr_t sa;
    size_t ss = 0, se = 0;
    long fit = 16;
    if (posix_trace_attr_init(&sa) == 0 && posix_trace_get_attr(trid, &sa) == 0 &&
        posix_trace_attr_getstreamsize(&sa, &ss) == 0 &&
        posix_trace_attr_getmaxusereventsize(&sa, DATA_LEN, &ev) == 0 &&
        posix_trace_attr_getmaxsystemeventsize(&sa, &se) == 0 && ev > 0 && ss > 8 * se + ev)
        fit = (long)((ss - 8 * se) / ev);
    if (fit > 2000 + 2 * fault_need(unit))
        fit = 2000 + 2 * fault_need(unit);
    if (mode != MODE_AUTO) {
        o->batch1 = fit / 2 > 0 ? fit / 2 : 1;
        for (long i = 0; i < o->batch1; i++)
            record(b1, (unsigned)i);
    }
    fault_on(kind, filler);
    if (mode == MODE_FLUSH) {
        o->flush_rc = posix_trace_flush(trid);
        if (o->flush_rc == 0)
            fault_wait(trid, o);
        else
            o->idle = 1;
        o->batch2 = fit / 2 > 0 ? fit / 2 : 1;
        for (long i = 0; i < o->batch2; i++)
            record(b2, (unsigned)i);
    } else if (mode == MODE_AUTO) {
        /* Several streams' worth, one event at a time: a full stream is let
         * flush itself before the next event, until a flush error shows. */
        long n = 8 * fit + 64;
        for (long i = 0; i < n && o->flush_error == 0; i++) {
            record(b2, (unsigned)i);
            o->batch2++;
            for (int ms = 0; ms < FLUSH_WAIT_MS; ms++) {
                struct posix_trace_status_info st;
                if ((rc = posix_trace_get_status(trid, &st)) != 0)
                    SETUP_FAILED("get_status", rc);
                if (st.posix_stream_flush_error != 0 && o->flush_error == 0)
                    o->flush_error = st.posix_stream_flush_error;
                if (st.posix_stream_full_status == POSIX_TRACE_NOT_FULL &&
                    st.posix_stream_status == POSIX_TRACE_RUNNING)
                    break;
                if (o->flush_error != 0)
                    break;
                ct_sleep_ms(1);
            }
        }
        fault_wait(trid, o);
    }
    o->shutdown_rc = posix_trace_shutdown(trid);
    o->open_rc = posix_trace_open(rfd, &log);
    if (o->open_rc == 0) {
        o->batch1_in_log = fault_count(log, FAULT_B1, o->batch1);
        o->batch2_in_log = fault_count(log, FAULT_B2, o->batch2);
        posix_trace_close(log);
    }
}

void fault_run(int kind, int mode, struct fault_out *o)
{
    char path[PATH_BUF];
    int wfd, rfd, filler = -1, p[2];
    long unit = 0;
    if (kind == FAULT_ENOSPC) {
        fs_mount(512);
        wfd = fs_open("log", O_WRONLY);
        rfd = fs_open("log", O_RDONLY);
        filler = fs_open("filler", O_WRONLY);
        unit = fs_unit(wfd);
        fs_detach();
    } else {
        tmp_file(path);
        wfd = open_or_unresolved(path, O_WRONLY);
        rfd = open_or_unresolved(path, O_RDONLY);
    }
    if (pipe(p) != 0)
        CT_UNRESOLVED("pipe: %s", ct_errname(errno));
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        CT_UNRESOLVED("fork: %s", ct_errname(errno));
    if (pid == 0) {
        struct fault_out out;
        close(p[0]);
        fault_child(kind, mode, wfd, rfd, filler, unit, &out);
        ssize_t w = write(p[1], &out, sizeof out);
        _exit(w == (ssize_t)sizeof out ? 0 : 1);
    }
    close(p[1]);
    size_t got = 0;
    while (got < sizeof *o) {
        ssize_t r = read(p[0], (char *)o + got, sizeof *o - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(st))
        CT_FAIL("the process writing a log under %s was killed by signal %d%s",
                kind == FAULT_EFBIG ? "RLIMIT_FSIZE (SIGXFSZ ignored)" : "a full device",
                WTERMSIG(st), WTERMSIG(st) == SIGXFSZ ? " (SIGXFSZ, which it ignores)" : "");
    if (got != sizeof *o)
        CT_UNRESOLVED("the child writing the log exited (status %d) without reporting",
                      WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    if (o->setup[0])
        CT_UNRESOLVED("setup failed in the child: %s", o->setup);
    ct_note("%s, %s: flush %s, flush_error %s then %s, shutdown %s, open %s; before the"
            " fault %ld of %ld events in the log, under it %ld of %ld",
            kind == FAULT_EFBIG ? "RLIMIT_FSIZE 1" : "full device",
            mode == MODE_FLUSH ? "explicit flush" : mode == MODE_AUTO ? "FLUSH policy"
            : "shutdown", ct_errname(o->flush_rc), ct_errname(o->flush_error),
            ct_errname(o->error_after), ct_errname(o->shutdown_rc), ct_errname(o->open_rc),
            o->batch1_in_log, o->batch1, o->batch2_in_log, o->batch2);
}

void fault_batch_needs_space(const struct fault_out *o, const char *fault)
{
    if (o->unit > 0 && o->batch1 < fault_need(o->unit))
        CT_UNRESOLVED("under %s, the batch flushed (%ld events of %d bytes) fits in one"
                      " allocation unit of the device (%ld bytes), which the log file may"
                      " already have: the stream held too few events to need new space",
                      fault, o->batch1, DATA_LEN, o->unit);
}

void judge_flush(const struct fault_out *o, int err, const char *fault)
{
    CT_CHECK(o->flush_rc == 0 || o->flush_rc == err, "posix_trace_flush under %s returned"
             " %d (%s): expected %s (or 0 and the error in posix_stream_flush_error)", fault,
             o->flush_rc, ct_errname(o->flush_rc), ct_errname(err));
    CT_CHECK(o->flush_error == 0 || o->flush_error == err, "after a flush under %s,"
             " posix_stream_flush_error is %d (%s): expected %s", fault, o->flush_error,
             ct_errname(o->flush_error), ct_errname(err));
    if (o->flush_rc == err || o->flush_error == err)
        return;
    if (!o->idle)
        CT_UNRESOLVED("the flush under %s did not end within %d ms", fault, FLUSH_WAIT_MS);
    fault_batch_needs_space(o, fault);
    if (o->open_rc != 0)
        CT_UNRESOLVED("the flush under %s reported no error; the shutdown that followed gave"
                      " %s and the log cannot be opened (%s): whether the flush wrote its"
                      " events cannot be told", fault, ct_errname(o->shutdown_rc),
                      ct_errname(o->open_rc));
    CT_CHECK(o->batch1_in_log == o->batch1, "a flush under %s reported no error (return 0,"
             " posix_stream_flush_error 0), yet %ld of the %ld events it flushed are in the"
             " log: expected %s", fault, o->batch1_in_log, o->batch1, ct_errname(err));
    ct_note("the flush under %s wrote the log without error: the log's writer is not bound"
            " by the fault (accepted)", fault);
}

void judge_shutdown(const struct fault_out *o, int err, const char *fault)
{
    CT_CHECK(o->shutdown_rc == 0 || o->shutdown_rc == err, "posix_trace_shutdown of a"
             " stream with log under %s returned %d (%s): expected %s", fault,
             o->shutdown_rc, ct_errname(o->shutdown_rc), ct_errname(err));
    if (o->shutdown_rc == err)
        return;
    fault_batch_needs_space(o, fault);
    CT_CHECK(o->open_rc == 0, "posix_trace_shutdown under %s returned 0, but the log cannot"
             " be opened (%s): expected %s from shutdown", fault, ct_errname(o->open_rc),
             ct_errname(err));
    CT_CHECK(o->batch1_in_log == o->batch1, "posix_trace_shutdown under %s returned 0, yet"
             " %ld of the %ld events it had to flush are in the log: expected %s", fault,
             o->batch1_in_log, o->batch1, ct_errname(err));
    ct_note("shutdown under %s wrote the whole log: the log's writer is not bound by the"
            " fault (accepted)", fault);
}

#else
typedef int ct_log_without_trl;     /* ISO C wants a declaration in every file */
#endif /* CT_HAVE_TRL */
