/* SPDX-License-Identifier: MIT */
/*
 * kernel_sim_workload.c -- the seeded workload of the simulated kernel: what
 * each CPU records next.  Every external class of KSP-6 but the CONTROL ones
 * (which the kernel writes itself): kernel calls entered, exited and
 * interrupted, interrupts and their handlers, processes created and
 * destroyed with their names, thread and virtual-thread states, user events
 * with word payloads and with strings, system and communication events.
 *
 * Sizes vary from one slot up to the largest event the reserve allows
 * (ksim_max_event_slots), so that combine events of every length occur,
 * and, with several CPUs writing at once, some straddle buffers.
 *
 * The payloads look like a kernel's (pids, tids, vectors, return values)
 * but are only plausible: what matters is that they are deterministic and
 * that they exercise the encoder.
 */
#include <string.h>
#include "kernel/kernel_sim_impl.h"

/* How often each kind of event occurs, in percent. */
enum kind {
    K_KCENTER, K_KCEXIT, K_KCINT, K_INTENTER, K_INTEXIT, K_HENTER, K_HEXIT, K_PROCESS,
    K_THREAD, K_VTHREAD, K_USER, K_USERSTR, K_SYSTEM, K_COMM, K_NKINDS
};
static const unsigned char weight[K_NKINDS] = {
    [K_KCENTER] = 20, [K_KCEXIT] = 18, [K_KCINT] = 2, [K_INTENTER] = 8, [K_INTEXIT] = 8,
    [K_HENTER] = 4, [K_HEXIT] = 4, [K_PROCESS] = 3, [K_THREAD] = 10, [K_VTHREAD] = 2,
    [K_USER] = 8, [K_USERSTR] = 4, [K_SYSTEM] = 3, [K_COMM] = 6,
};

/* Kernel calls made most of the time (numbers only: the simulation does not
 * name them). */
static const unsigned char hot_calls[] = { 1, 11, 14, 15, 24, 31, 47, 48, 57, 69, 75, 80 };

static const char *const proc_names[] = {
    "procnto-smp-instr", "/proc/boot/devc-ser8250", "/proc/boot/pipe", "io-pkt-v6-hc",
    "/usr/sbin/qconn", "/bin/sh", "/usr/bin/ls", "devb-eide", "slogger2", "/usr/bin/top",
};

static const char *const words_of_text[] = {
    "tick", "sensor", "frame", "commit", "retry", "ok", "overrun", "calibrate", "axis",
    "motor", "brake", "sample", "queue", "flush", "deadline", "jitter",
};

static unsigned pick_kind(struct ksim_rng *r)
{
    unsigned x = ksim_rng_below(r, 100);
    for (unsigned k = 0; k < K_NKINDS; k++) {
        if (x < weight[k])
            return k;
        x -= weight[k];
    }
    return K_USER;
}

void ksim_workload_init(struct ksim_workload *w, uint64_t seed, unsigned ncpus)
{
    memset(w, 0, sizeof *w);
    ksim_rng_seed(&w->rng, seed, RNG_WORK);
    w->max_slots = ksim_max_event_slots(ncpus);
    w->next_pid = 4096;
    for (unsigned c = 0; c < SLOT_NCPUS; c++) {
        w->pid[c] = 1 + ksim_rng_below(&w->rng, 4000);
        w->tid[c] = 1 + ksim_rng_below(&w->rng, 16);
    }
}

/* A payload length in words, from 3 up to max (max >= 3): short ones
 * are the most frequent. */
static size_t long_words(struct ksim_rng *r, size_t max)
{
    size_t n = 3 + ksim_rng_below(r, 6);
    if (ksim_rng_below(r, 4) == 0)
        n = 3 + ksim_rng_below(r, (uint32_t)(max - 2));
    return n < max ? n : max;
}

static void fill_random(struct ksim_rng *r, uint32_t *w, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        w[i] = (uint32_t)ksim_rng_next(r);
}

/* Packs the bytes of s (with its NUL) into words from `at`, little-endian as
 * the codec packs bytes (KSP-10), at most max words in all: a name cut to
 * fit still ends with a NUL. */
static size_t pack_name(uint32_t *w, size_t at, size_t max, const char *s)
{
    size_t cap = (max - at) * 4, len = strlen(s);
    if (len + 1 > cap)
        len = cap - 1;
    size_t n = (len + 1 + 3) / 4;
    memset(w + at, 0, n * 4);
    for (size_t i = 0; i < len; i++)
        w[at + i / 4] |= (uint32_t)(unsigned char)s[i] << (8 * (i % 4));
    return at + n;
}

/* A string of a random length below max bytes (NUL included). */
static void make_string(struct ksim_rng *r, char *out, size_t max)
{
    size_t want = ksim_rng_below(r, (uint32_t)max), len = 0;
    while (len < want) {
        const char *wd = words_of_text[ksim_rng_below(r, sizeof words_of_text /
                                                         sizeof words_of_text[0])];
        size_t n = strlen(wd);
        if (len > 0 && len < want)
            out[len++] = ' ';
        for (size_t i = 0; i < n && len < want; i++)
            out[len++] = wd[i];
    }
    out[len] = '\0';
}

static void set(struct ksim_event *ev, int ext, unsigned code)
{
    ev->ext_class = ext;
    /* The codes chosen below are always in range: this cannot fail. */
    (void)slot_external_to_internal(ext, code, &ev->cls, &ev->event);
}

void ksim_workload_next(struct ksim_workload *w, unsigned cpu, struct ksim_event *ev)
{
    struct ksim_rng *r = &w->rng;
    size_t maxw = 2 * (size_t)w->max_slots;
    uint32_t *d = ev->words;
    unsigned kind = pick_kind(r), k = hot_calls[ksim_rng_below(r, sizeof hot_calls)];

    if (ksim_rng_below(r, 4) == 0)
        k = ksim_rng_below(r, _TRACE_MAX_KER_CALL_NUM);
    ev->is_string = 0;
    ev->nwords = 2;
    d[0] = w->pid[cpu];
    d[1] = w->tid[cpu];
    switch (kind) {
    case K_KCENTER:     /* the call's first arguments; some calls log more */
        set(ev, _NTO_TRACE_KERCALLENTER, k);
        if (ksim_rng_below(r, 4) == 0)
            ev->nwords = long_words(r, maxw);
        fill_random(r, d, 0, ev->nwords);
        break;
    case K_KCEXIT:      /* return value and errno, or more */
        set(ev, _NTO_TRACE_KERCALLEXIT, k);
        d[0] = ksim_rng_below(r, 8) == 0 ? UINT32_MAX : ksim_rng_below(r, 4096);
        d[1] = d[0] == UINT32_MAX ? 1 + ksim_rng_below(r, 130) : 0;
        if (ksim_rng_below(r, 7) == 0) {
            ev->nwords = long_words(r, maxw);
            fill_random(r, d, 2, ev->nwords);
        }
        break;
    case K_KCINT:       /* interrupted: EINTR */
        set(ev, _NTO_TRACE_KERCALLINT, k);
        d[0] = UINT32_MAX;
        d[1] = 4;
        break;
    case K_INTENTER:    /* vector, interrupted instruction pointer */
        set(ev, _NTO_TRACE_INTENTER, 0);
        d[0] = ksim_rng_below(r, 64);
        d[1] = 0x08048000u + ksim_rng_below(r, 0x100000);
        break;
    case K_INTEXIT:
        set(ev, _NTO_TRACE_INTEXIT, 0);
        d[0] = ksim_rng_below(r, 64);
        d[1] = 0;
        break;
    case K_HENTER:      /* pid, tid, handler, area: a two-slot combine event */
        set(ev, _NTO_TRACE_INT_HANDLER_ENTER, 0);
        ev->nwords = 4;
        d[2] = 0x08050000u + ksim_rng_below(r, 0x10000);
        d[3] = (uint32_t)ksim_rng_next(r);
        break;
    case K_HEXIT:
        set(ev, _NTO_TRACE_INT_HANDLER_EXIT, 0);
        d[1] = ksim_rng_below(r, 2);
        break;
    case K_PROCESS: {   /* ppid, pid [, name] */
        static const unsigned codes[] = { _TRACE_PR_TH_CREATE_P, _TRACE_PR_TH_DESTROY_P,
            _TRACE_PR_TH_CREATE_P_NAME, _TRACE_PR_TH_DESTROY_P_NAME, _TRACE_PR_TH_NAME_T };
        unsigned code = codes[ksim_rng_below(r, 5)];
        set(ev, _NTO_TRACE_PROCESS, code);
        d[0] = w->pid[cpu];
        d[1] = code == _TRACE_PR_TH_CREATE_P || code == _TRACE_PR_TH_CREATE_P_NAME
                   ? w->next_pid++ : 4096 + ksim_rng_below(r, 4096);
        if (code == _TRACE_PR_TH_NAME_T)
            d[1] = w->tid[cpu];
        if (code != _TRACE_PR_TH_CREATE_P && code != _TRACE_PR_TH_DESTROY_P)
            ev->nwords = pack_name(d, 2, maxw, proc_names[ksim_rng_below(r, 10)]);
        break;
    }
    case K_THREAD:      /* a state change, or a thread created or destroyed */
    case K_VTHREAD: {
        unsigned code = ksim_rng_below(r, 10) == 0 ? _TRACE_PR_TH_CREATE_T + ksim_rng_below(r, 2)
                                                    : ksim_rng_below(r, 21);
        set(ev, kind == K_VTHREAD ? _NTO_TRACE_VTHREAD : _NTO_TRACE_THREAD, code);
        if (code == 1)          /* RUNNING: another thread is scheduled */
            w->tid[cpu] = 1 + ksim_rng_below(r, 16);
        d[1] = w->tid[cpu];
        break;
    }
    case K_USER:        /* a user event: 0 to maxw words */
        set(ev, _NTO_TRACE_USER, ksim_rng_below(r, 8) ? ksim_rng_below(r, 32)
                                                      : ksim_rng_below(r, 1024));
        ev->nwords = ksim_rng_below(r, 2) ? ksim_rng_below(r, 3) : long_words(r, maxw);
        fill_random(r, d, 0, ev->nwords);
        break;
    case K_USERSTR:     /* a string event (INSERTUSRSTREVENT, KSP-11) */
        set(ev, _NTO_TRACE_USER, ksim_rng_below(r, 16));
        ev->is_string = 1;
        make_string(r, ev->str, 8 * (size_t)w->max_slots);
        break;
    case K_SYSTEM:
        set(ev, _NTO_TRACE_SYSTEM, ksim_rng_below(r, 16));
        ev->nwords = 2 + ksim_rng_below(r, 5);
        if (ev->nwords > maxw)
            ev->nwords = maxw;
        fill_random(r, d, 0, ev->nwords);
        break;
    default:            /* COMM: connection or receive id, and the peer's pid */
        /* QNX's codes: message send/receive, pulse send/receive, reply (10)
         * and error (11); one draw, as before. */
        set(ev, _NTO_TRACE_COMM, (unsigned[]){ 0, 1, 2, 3, 10, 11 }[ksim_rng_below(r, 6)]);
        d[0] = ksim_rng_below(r, 1024);
        d[1] = 1 + ksim_rng_below(r, 8192);
        if (ksim_rng_below(r, 5) == 0 && maxw >= 4) {
            ev->nwords = 4;     /* a pulse: code and value too */
            d[2] = ksim_rng_below(r, 128);
            d[3] = (uint32_t)ksim_rng_next(r);
        }
        break;
    }
    ev->nslots = ev->is_string ? slot_count_bytes(strlen(ev->str) + 1) : slot_count(ev->nwords);
}
