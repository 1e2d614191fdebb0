/* SPDX-License-Identifier: MIT */
/*
 * kernel_sim_logger.c -- the logger of the simulated kernel: it copies the
 * buffers handed over out of the kernel (which frees them) and writes them
 * to the trace file in sequence order, after the header and the system
 * page (KSP-23, KSP-24).
 *
 * Its speed is a parameter, so that drops happen deterministically: its
 * clock is the number of events generated, and one copy takes `every`
 * events (plus or minus `jitter` percent, drawn from its own PRNG stream).
 * With several lanes it copies several buffers at once; copies then may end
 * out of order, which frees a later buffer before an earlier one -- the case
 * for the kernel's skip-ahead (KSP-20).  The file still takes the buffers in
 * sequence order (a straddling combine event needs its first part first):
 * a copy that ends early waits in the logger's staging memory, which holds
 * as many buffers as the kernel has; a lane does not start a copy that would
 * not fit in it.
 *
 * The file is little-endian whatever the host, so that a run gives the same
 * bytes everywhere.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/kernel_sim_impl.h"
#include "slot/trace_file.h"

#define DEFAULT_FILE_NAME  "/dev/shmem/tracebuffer.kev"
#define DEFAULT_DATE       "Thu Jan  1 00:00:00 1970"
#define DEFAULT_NODENAME   "ksim"

int ksim_logger_init(struct ksim *k, const struct ksim_sink *sink)
{
    struct ksim_logger *l = &k->log;

    l->sink = *sink;
    ksim_rng_seed(&l->rng, k->cfg.seed, RNG_LOGGER);
    l->every = k->cfg.logger_every;
    l->jitter = k->cfg.logger_jitter;
    l->nlanes = k->cfg.logger_lanes;
    l->qcap = k->cfg.nbuffers;
    l->nstaged = k->cfg.nbuffers;
    l->queue = calloc(l->qcap, sizeof *l->queue);
    l->staged = calloc(l->nstaged, sizeof *l->staged);
    l->out = malloc(_TRACE_BUFFER_SLOTS * sizeof(traceevent_t));
    return l->queue && l->staged && l->out ? 0 : ENOMEM;
}

void ksim_logger_free(struct ksim *k)
{
    struct ksim_logger *l = &k->log;
    if (l->staged)
        for (unsigned i = 0; i < l->nstaged; i++)
            free(l->staged[i].slots);
    free(l->staged);
    free(l->queue);
    free(l->out);
    l->staged = NULL;
    l->queue = NULL;
    l->out = NULL;
}

static int sink_write(struct ksim *k, const void *p, size_t n)
{
    int rc = k->log.sink.write(k->log.sink.user, p, n);
    if (rc != 0)
        return ksim_fail(k, rc, "cannot write the trace file at offset %llu: %s",
                         (unsigned long long)k->st.file_bytes, strerror(rc));
    k->st.file_bytes += n;
    return 0;
}

/* ---- the header --------------------------------------------------------------- */

/* The simulated system page: a tag, the layout's version, the CPUs, the
 * counters' rate and start values, then a fixed pattern. */
static void make_syspage(const struct ksim *k, unsigned char *p, size_t n)
{
    unsigned char head[16 + 8 + 8 * SLOT_NCPUS];
    size_t h = 0;

    memcpy(head, "KSIM-SYSPAGE\0\0\0\1", 16);
    h = 16;
    for (int i = 0; i < 8; i++)
        head[h++] = (unsigned char)((k->cfg.cycles_per_sec >> (8 * i)) & 0xFF);
    for (unsigned c = 0; c < k->cfg.ncpus; c++)
        for (int i = 0; i < 8; i++)
            head[h++] = (unsigned char)((k->cpus.start[c] >> (8 * i)) & 0xFF);
    for (size_t i = 0; i < n; i++)
        p[i] = i < h ? head[i] : (unsigned char)(i * 7 + 3);
}

int ksim_logger_header(struct ksim *k)
{
    const struct ksim_config *c = &k->cfg;
    char seed[24], events[24], buffers[24], gap[24], logger[96];
    struct trace_file_attr extra[] = {
        { "KSIM_SEED", seed }, { "KSIM_EVENTS", events },
        { "KSIM_MODE", c->mode == KSIM_RING ? "ring" : "linear" },
        { "KSIM_BUFFERS", buffers }, { "KSIM_GAP_NS", gap },
        { "KSIM_WRAP_EARLY", c->wrap_early ? "yes" : "no" }, { "KSIM_LOGGER", logger },
    };
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)c->seed);
    snprintf(events, sizeof events, "%llu", (unsigned long long)c->nevents);
    snprintf(buffers, sizeof buffers, "%u", c->nbuffers);
    snprintf(gap, sizeof gap, "%llu", (unsigned long long)c->gap_ns);
    snprintf(logger, sizeof logger, "every %llu lanes %u jitter %u",
             (unsigned long long)c->logger_every, c->logger_lanes, c->logger_jitter);

    unsigned char *syspage = malloc(c->syspage_len ? c->syspage_len : 1);
    char *hdr = malloc(TRACE_FILE_HEADER_MAX + 8);
    size_t len = 0;
    int rc = ENOMEM;
    if (syspage == NULL || hdr == NULL)
        goto out;
    make_syspage(k, syspage, c->syspage_len);
    struct trace_file_meta m = {
        .file_name = c->file_name ? c->file_name : DEFAULT_FILE_NAME,
        .date = c->date ? c->date : DEFAULT_DATE,
        .boot_date = c->boot_date ? c->boot_date : DEFAULT_DATE,
        .cycles_per_sec = c->cycles_per_sec, .cpu_num = c->ncpus,
        .sysname = "posixtrace-ksim", .nodename = c->nodename ? c->nodename : DEFAULT_NODENAME,
        .sys_release = "1", .sys_version = "simulated", .machine = "ksim",
        .syspage = syspage, .syspage_len = c->syspage_len,
        .extra = extra, .nextra = sizeof extra / sizeof extra[0],
        .order = TRACE_FILE_LITTLE_ENDIAN,          /* write_slots writes that */
    };
    rc = trace_file_header_build(&m, hdr, TRACE_FILE_HEADER_MAX, &len);
    if (rc != 0) {
        rc = ksim_fail(k, rc, "cannot build the trace file header: %s (a header value "
                       "holds a TRACE_<KEY>:: token, or the header is over %d bytes)",
                       strerror(rc), TRACE_FILE_HEADER_MAX);
        goto out;
    }
    if ((rc = sink_write(k, hdr, len)) == 0 && c->syspage_len > 0)
        rc = sink_write(k, syspage, c->syspage_len);
    k->st.header_bytes = k->st.file_bytes;
out:
    free(syspage);
    free(hdr);
    return rc;
}

/* ---- buffers ------------------------------------------------------------------ */

/* Writes n slots to the file, little-endian. */
static int write_slots(struct ksim *k, const traceevent_t *s, uint32_t n)
{
    trace_file_slots_le(s, n, k->log.out);
    k->st.buffers_logged++;
    k->st.slots_logged += n;
    return sink_write(k, k->log.out, (size_t)n * sizeof(traceevent_t));
}

/* Writes the staged copies that are next in sequence. */
static int write_staged(struct ksim *k)
{
    struct ksim_logger *l = &k->log;
    for (;;) {
        struct ksim_staged *st = &l->staged[l->next_seq % l->nstaged];
        if (!st->full)
            return 0;
        int rc = write_slots(k, st->slots, st->used);
        st->full = 0;
        l->next_seq++;
        if (rc != 0)
            return rc;
    }
}

/* The copy of buffer b is done: the kernel may reuse b. */
static int copy_done(struct ksim *k, unsigned b)
{
    struct ksim_logger *l = &k->log;
    struct ksim_buffer *buf = &k->ring.buf[b];
    int rc = 0;

    if (buf->seq == l->next_seq) {
        rc = write_slots(k, buf->slots, buf->used);
        l->next_seq++;
        if (rc == 0)
            rc = write_staged(k);
    } else {
        struct ksim_staged *st = &l->staged[buf->seq % l->nstaged];
        if (st->slots == NULL &&
            (st->slots = malloc(_TRACE_BUFFER_SLOTS * sizeof(traceevent_t))) == NULL)
            return ksim_fail(k, ENOMEM, "out of memory for the logger's staging");
        memcpy(st->slots, buf->slots, buf->used * sizeof(traceevent_t));
        st->used = buf->used;
        st->full = 1;
    }
    buf->state = BUF_FREE;
    buf->events = 0;
    return rc;
}

/* How long the next copy takes, in events generated. */
static uint64_t copy_time(struct ksim_logger *l)
{
    if (l->every == 0)
        return 0;
    if (l->jitter == 0)
        return l->every;
    uint64_t pct = 100 - l->jitter + ksim_rng_below(&l->rng, 2 * l->jitter + 1);
    return l->every / 100 * pct + l->every % 100 * pct / 100;
}

/* Free lanes take the queued buffers, in order, while the staging memory
 * can take what they will copy. */
static void assign(struct ksim *k, uint64_t now)
{
    struct ksim_logger *l = &k->log;
    for (unsigned i = 0; i < l->nlanes && l->qlen > 0; i++) {
        if (l->lane[i].busy)
            continue;
        unsigned b = l->queue[l->qhead];
        if (k->ring.buf[b].seq >= l->next_seq + l->nstaged)
            return;
        l->qhead = (l->qhead + 1) % l->qcap;
        l->qlen--;
        l->lane[i].busy = 1;
        l->lane[i].buf = b;
        l->lane[i].done_at = now + copy_time(l);
    }
}

/* Ends every copy done by `now`, earliest first (ties: the lower lane),
 * and gives free lanes new work at once: a copy may take no time. */
static int run_until(struct ksim *k, uint64_t now)
{
    struct ksim_logger *l = &k->log;
    assign(k, now);
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < l->nlanes; i++)
            if (l->lane[i].busy && l->lane[i].done_at <= now &&
                (best < 0 || l->lane[i].done_at < l->lane[best].done_at))
                best = (int)i;
        if (best < 0)
            return 0;
        l->lane[best].busy = 0;
        int rc = copy_done(k, l->lane[best].buf);
        if (rc != 0)
            return rc;
        assign(k, l->lane[best].done_at);
    }
}

int ksim_logger_handover(struct ksim *k, unsigned b)
{
    struct ksim_logger *l = &k->log;
    if (!l->have_next_seq) {
        l->next_seq = k->ring.buf[b].seq;    /* the first buffer the file takes */
        l->have_next_seq = 1;
    }
    if (l->qlen == l->qcap)
        return ksim_fail(k, EOVERFLOW, "internal error: the logger's queue is full");
    l->queue[(l->qhead + l->qlen) % l->qcap] = b;
    l->qlen++;
    k->st.buffers_handed++;
    return run_until(k, k->tick);
}

int ksim_logger_tick(struct ksim *k)
{
    return run_until(k, k->tick);
}

int ksim_logger_flush(struct ksim *k)
{
    struct ksim_logger *l = &k->log;
    uint64_t now = k->tick;
    int rc;

    /* The kernel has stopped: the logger's time runs on until it is done. */
    while ((rc = run_until(k, now)) == 0) {
        int busy = 0;
        for (unsigned i = 0; i < l->nlanes; i++)
            if (l->lane[i].busy && (!busy || l->lane[i].done_at < now)) {
                now = l->lane[i].done_at;
                busy = 1;
            }
        if (!busy) {
            if (l->qlen > 0)
                return ksim_fail(k, EOVERFLOW, "internal error: the logger is stuck with "
                                 "%u buffers queued", l->qlen);
            return 0;
        }
    }
    return rc;
}
