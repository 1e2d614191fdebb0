/* SPDX-License-Identifier: MIT */
/*
 * kernel_sim_verify.c -- checks a trace file against the kernel's rules, as
 * a reader would see them, whatever wrote it: the header (KSP-23, KSP-24),
 * buffers that begin with BUFFER (KSP-19) and a TIME event per CPU (KSP-16,
 * KSP-17), DROPPED only right after them (KSP-22), buffer sizes (KSP-18;
 * KSP-20's high-water mark in linear mode), sequence numbers, per-CPU times
 * that only go forward (KSP-9), and buffers that exactly fill the file.
 *
 * It reads the file through the codec (trace_file_decode): each check is
 * made on the decoded events, whose offsets say where their first slot
 * lies.  A buffer boundary that falls on a CC or CE slot (no event starts
 * there) is found because the next event is past it.
 *
 * BUFFER events are left out of the time check: no TIME event may precede
 * them, so their 64-bit time is the decoder's inference (one wrap at most
 * since the CPU's last event), right in every simulated trace of ordinary
 * speed but not a rule of the protocol.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <posixtrace_kernel.h>
#include "slot/trace_file.h"

struct vstate {
    struct ksim_verify *v;
    int linear;
    uint64_t slots_offset, slots_end;
    uint64_t next_buf;          /* offset where the next BUFFER must be */
    uint64_t buf_start;
    unsigned head;              /* TIME events of the buffer's head seen */
    int in_head;                /* still in BUFFER, TIME...: DROPPED may come */
    int have_seq;
    uint64_t short_idx[2];      /* 1 + index of the last two buffers below the mark */
    uint64_t first_short_off;   /* offset of the first buffer below the mark */
    uint64_t last_time[SLOT_NCPUS];
    uint64_t timed;             /* bit c: last_time[c] is set */
    char *err;
    size_t errlen;
};

static void problem(struct vstate *s, uint64_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void problem(struct vstate *s, uint64_t off, const char *fmt, ...)
{
    if (s->v->problems++ == 0 && s->err && s->errlen > 0) {
        int n = snprintf(s->err, s->errlen, "offset %llu: ", (unsigned long long)off);
        if (n >= 0 && (size_t)n < s->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
}

static int is_control(const struct slot_event *ev, unsigned event)
{
    return ev->cls == SLOT_CLASS_CONTROL && ev->event == event && !ev->combine;
}

/* The TIME events of the buffer's head are all there (KSP-17). */
static void head_done(struct vstate *s)
{
    if (s->v->buffers > 0 && s->head < s->v->ncpus)
        problem(s, s->buf_start, "KSP-17: the buffer at offset %llu begins with %u TIME "
                "events, not one per CPU (%u)", (unsigned long long)s->buf_start, s->head,
                s->v->ncpus);
    s->head = s->v->ncpus;
}

/* A BUFFER event where a buffer must begin. */
static void buffer_begins(struct vstate *s, const struct slot_event *ev)
{
    struct ksim_verify *v = s->v;
    uint32_t seq = ev->words[0], count = ev->words[1];
    unsigned min = 1 + v->ncpus;

    head_done(s);
    v->buffers++;
    s->buf_start = ev->offset;
    s->head = 0;
    s->in_head = 1;
    if (count < min || count > _TRACE_BUFFER_SLOTS) {
        problem(s, ev->offset, "KSP-18: BUFFER says %u slots: a buffer holds %u to %d "
                "(BUFFER and a TIME per CPU, at most 1014)", (unsigned)count, min,
                _TRACE_BUFFER_SLOTS);
        count = count < min ? min : _TRACE_BUFFER_SLOTS;
    }
    s->next_buf = ev->offset + (uint64_t)count * sizeof(traceevent_t);
    if (s->next_buf > s->slots_end)
        problem(s, ev->offset, "KSP-24: BUFFER says %u slots but the file ends %llu slots "
                "after it", (unsigned)count,
                (unsigned long long)((s->slots_end - ev->offset) / sizeof(traceevent_t)));
    if (count < _TRACE_BUFFER_HIGH_WATER) {
        if (v->short_buffers++ == 0)
            s->first_short_off = ev->offset;
        s->short_idx[0] = s->short_idx[1];
        s->short_idx[1] = v->buffers;
    }
    if (!s->have_seq) {
        v->first_seq = seq;
    } else if (seq != (uint32_t)(v->last_seq + 1)) {
        /* Compared modulo 2^32, as written: ahead by less than 2^31 is a
         * gap (buffers not in the file), anything else goes back. */
        uint32_t gap = seq - (uint32_t)(v->last_seq + 1);
        if (gap >= UINT32_C(0x80000000))
            problem(s, ev->offset, "KSP-19: buffer sequence number %u does not increase "
                    "(the previous buffer's is %u)", (unsigned)seq, (unsigned)v->last_seq);
        else
            v->seq_gaps += gap;
        if (s->linear && gap < UINT32_C(0x80000000))
            problem(s, ev->offset, "KSP-19: buffer sequence number %u follows %u (linear "
                    "mode writes every buffer)", (unsigned)seq, (unsigned)v->last_seq);
    }
    v->last_seq = seq;
    s->have_seq = 1;
}

/* Where the event stands in its buffer's head: BUFFER, TIME per CPU, then
 * (after drops) DROPPED, possibly after TIME events of that CPU's wrap. */
static void check_head(struct vstate *s, const struct slot_event *ev)
{
    struct ksim_verify *v = s->v;
    uint64_t slot = (ev->offset - s->buf_start) / sizeof(traceevent_t);

    if (slot >= 1 && slot <= v->ncpus) {
        unsigned want = (unsigned)slot - 1;
        if (ev->offset != s->buf_start + slot * sizeof(traceevent_t) ||
            !is_control(ev, _TRACE_CONTROL_TIME) || ev->cpu != want) {
            problem(s, ev->offset, "KSP-17: slot %llu of the buffer at offset %llu is not "
                    "the TIME event of cpu %u (header 0x%08x)", (unsigned long long)slot,
                    (unsigned long long)s->buf_start, want, (unsigned)ev->header);
        } else if (ev->words[1] != (uint32_t)ev->time) {
            problem(s, ev->offset, "KSP-16: TIME event of cpu %u: low word at emission "
                    "0x%08x differs from its timestamp 0x%08x", ev->cpu,
                    (unsigned)ev->words[1], (unsigned)ev->time);
        }
        s->head++;
        return;
    }
    if (s->head < v->ncpus)
        head_done(s);
    if (is_control(ev, _TRACE_CONTROL_TIME) && s->in_head)
        return;                 /* a wrap's TIME before DROPPED */
    if (is_control(ev, _TRACE_CONTROL_DROPPED)) {
        if (!s->in_head || s->head != v->ncpus)
            problem(s, ev->offset, "KSP-22: DROPPED event not right after its buffer's "
                    "BUFFER and TIME events (buffer at offset %llu)",
                    (unsigned long long)s->buf_start);
        s->in_head = 0;
        return;
    }
    s->in_head = 0;
}

/* Whether ev is the rest of a combine event without its CB: the decoder
 * delivers it incomplete, with the header of its first CC/CE (KSP-14). */
static int is_tail(const struct slot_event *ev)
{
    return ev->combine && !ev->complete && _TRACE_GET_STRUCT(ev->header) != _TRACE_STRUCT_CB;
}

static void on_event(void *user, const struct slot_event *ev)
{
    struct vstate *s = user;
    struct ksim_verify *v = s->v;

    v->events++;
    v->combine_events += (unsigned)ev->combine;
    /* The rest of a combine event begun in a buffer not in the file (KSP-14):
     * the simulator counted that event overwritten (ring mode) when its first
     * slot's buffer was, so it is not decoded again here.  Linear mode loses
     * no buffer: there it is a problem. */
    int tail = is_tail(ev);
    if (tail) {
        v->orphan_slots += ev->nslots;
        if (s->linear)
            problem(s, ev->offset, "KSP-20: the rest of a combine event whose first slot "
                    "is in no buffer of the file (linear mode loses no buffer)");
    } else if (ev->cls != SLOT_CLASS_CONTROL) {
        v->workload_events++;
    }
    if (is_control(ev, _TRACE_CONTROL_TIME))
        v->time_events++;

    if (ev->offset > s->next_buf && s->next_buf < s->slots_end) {
        problem(s, s->next_buf, "KSP-19: no BUFFER event where the buffer that began at "
                "offset %llu ends (a combine slot is there)", (unsigned long long)s->buf_start);
        s->next_buf = s->slots_end;     /* the boundaries are lost: stop checking them */
    }
    if (ev->offset == s->next_buf) {
        if (is_control(ev, _TRACE_CONTROL_BUFFER))
            buffer_begins(s, ev);
        else
            problem(s, ev->offset, "KSP-19: the buffer's first slot is not a BUFFER event "
                    "(header 0x%08x)", (unsigned)ev->header);
    } else if (is_control(ev, _TRACE_CONTROL_BUFFER)) {
        problem(s, ev->offset, "KSP-19: BUFFER event inside the buffer that began at "
                "offset %llu", (unsigned long long)s->buf_start);
    } else {
        check_head(s, ev);
    }

    /* A tail's time is its CB's, from before the buffer's TIME events. */
    if (!is_control(ev, _TRACE_CONTROL_BUFFER) && !tail) {
        uint64_t bit = (uint64_t)1 << ev->cpu;
        if ((s->timed & bit) && ev->time <= s->last_time[ev->cpu])
            problem(s, ev->offset, "KSP-9: cpu %u: time 0x%016llx does not come after the "
                    "cpu's previous 0x%016llx", ev->cpu, (unsigned long long)ev->time,
                    (unsigned long long)s->last_time[ev->cpu]);
        s->last_time[ev->cpu] = ev->time;
        s->timed |= bit;
    }
}

static void on_error(void *user, const struct slot_error *e)
{
    struct vstate *s = user;
    char msg[256];
    /* The rest of a combine event whose first slot was overwritten is not an
     * error but an incomplete event (KSP-14; on_event counts it): every error
     * the decoder still reports is a problem, in ring mode too. */
    slot_error_format(e, msg, sizeof msg);
    /* The message has its own "offset N: " prefix. */
    const char *p = strstr(msg, ": ");
    problem(s, e->offset, "decoder: %s", p ? p + 2 : msg);
}

int ksim_verify_file(const void *file, size_t len, int linear, struct ksim_verify *v,
                     char *err, size_t errlen)
{
    struct trace_file_info *info;
    struct slot_decoder d;
    struct slot_summary sum;
    struct vstate s;
    int rc;

    memset(v, 0, sizeof *v);
    if (err && errlen)
        err[0] = '\0';
    /* The info holds the header text (16 KiB): not on the stack. */
    if ((info = malloc(sizeof *info)) == NULL)
        return ENOMEM;
    if ((rc = trace_file_parse(file, len, len, info, err, errlen)) != 0) {
        v->problems = 1;
        free(info);
        return EINVAL;
    }
    memset(&s, 0, sizeof s);
    s.v = v;
    s.linear = linear;
    s.err = err;
    s.errlen = errlen;
    s.slots_offset = s.next_buf = info->slots_offset;
    s.slots_end = info->slots_offset + info->nslots * sizeof(traceevent_t);
    v->ncpus = info->cpu_num;
    v->slots = info->nslots;

    struct slot_decoder_config cfg = { .on_event = on_event, .on_error = on_error, .user = &s };
    if ((rc = slot_decoder_init(&d, &cfg)) != 0) {
        free(info);
        return rc;
    }
    rc = trace_file_decode(file, len, &d, info, err, errlen);
    slot_decoder_summary(&d, &sum);
    slot_decoder_free(&d);
    v->dropped_events = sum.dropped_events;
    v->dropped_slots = sum.dropped_slots;
    v->decode_errors = sum.errors;

    head_done(&s);
    if (rc == 0 && info->nslots == 0)
        problem(&s, s.slots_offset, "KSP-19: the file holds no buffer");
    else if (rc == 0 && s.next_buf != s.slots_end)
        problem(&s, s.next_buf, "KSP-24: the last buffer ends at offset %llu, the slots at "
                "%llu", (unsigned long long)s.next_buf, (unsigned long long)s.slots_end);
    if (rc == 0 && info->cut_bytes)
        problem(&s, s.slots_end, "KSP-24: %u bytes after the last whole slot",
                info->cut_bytes);
    /* KSP-20: only the buffer current when tracing stopped, and the one that
     * reports drops left at the end, may be handed over below the mark. */
    uint64_t late = 0;
    for (int i = 0; i < 2; i++)
        late += s.short_idx[i] != 0 && s.short_idx[i] + 1 >= v->buffers;
    if (rc == 0 && linear && v->short_buffers > late)
        problem(&s, s.first_short_off, "KSP-20: %llu buffers before the last two were handed "
                "over below the high-water mark (%d slots)",
                (unsigned long long)(v->short_buffers - late), _TRACE_BUFFER_HIGH_WATER);
    free(info);
    if (rc != 0)
        return rc;
    return v->problems ? EINVAL : 0;
}
