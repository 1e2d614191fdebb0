/* SPDX-License-Identifier: MIT */
/*
 * kvec_decode.c -- the decoded view of a KSP vector's trace file, from the
 * reference codec or (kvec_extern.c) from another decoder, and the decoder
 * expectations checked on it: events, errors, rejection, summary and the
 * accounting of a simulated trace (vectors/ksp/README.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <posixtrace_dump.h>
#include "kvec.h"

void kv_decoded_free(struct kv_decoded *d)
{
    for (size_t i = 0; i < d->nev; i++)
        free(d->ev[i].words);
    free(d->ev);
    free(d->err);
    memset(d, 0, sizeof *d);
}

/* ---- decoding with the reference --------------------------------------------- */

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 64;
    void *q = realloc(p, c * size);
    if (q)
        *cap = c;
    return q;
}

struct collect {
    struct kv_decoded *d;
    int oom;
};

static void on_event(void *user, const struct slot_event *ev)
{
    struct collect *c = user;
    struct kv_decoded *d = c->d;
    struct kv_event *e = grow(d->ev, &d->capev, d->nev, sizeof *d->ev);
    uint32_t *w = malloc((ev->nwords ? ev->nwords : 1) * sizeof *w);
    if (e == NULL || w == NULL) {
        if (e)
            d->ev = e;
        free(w);
        c->oom = 1;
        return;
    }
    d->ev = e;
    memcpy(w, ev->words, ev->nwords * sizeof *w);
    d->ev[d->nev++] = (struct kv_event){
        .offset = ev->offset, .time = ev->time, .cpu = ev->cpu, .cls = ev->cls,
        .event = ev->event, .complete = ev->complete, .words = w, .nwords = ev->nwords,
    };
}

static void on_error(void *user, const struct slot_error *e)
{
    struct collect *c = user;
    struct kv_decoded *d = c->d;
    struct kv_error *x = grow(d->err, &d->caperr, d->nerr, sizeof *d->err);
    if (x == NULL) {
        c->oom = 1;
        return;
    }
    d->err = x;
    struct kv_error *k = &d->err[d->nerr++];
    k->offset = e->offset;
    snprintf(k->rule, sizeof k->rule, "%s", e->rule);
    snprintf(k->kind, sizeof k->kind, "%s", dump_error_kind(e->kind));
}

static int decode_reference(struct kv_run *r, const struct kv_line *l)
{
    struct kv_decoded *d = &r->dec;
    struct collect c = { d, 0 };
    struct slot_decoder_config cfg = { .on_event = on_event, .on_error = on_error, .user = &c };
    struct slot_decoder *dec = NULL;
    struct slot_summary s;
    struct trace_file_info *info = malloc(sizeof *info);

    if (info == NULL || slot_decoder_create(&cfg, &dec) != 0) {
        free(info);
        return kv_fail(r, l, KV_UNRESOLVED, "out of memory");
    }
    int rc = trace_file_decode(r->file, r->len, dec, info, d->fatal_msg, sizeof d->fatal_msg);
    slot_decoder_summary(dec, &s);
    slot_decoder_destroy(dec);
    free(info);
    if (c.oom)
        return kv_fail(r, l, KV_UNRESOLVED, "out of memory");
    if (rc != 0) {
        d->fatal = 1;
        dump_split_message(d->fatal_msg, &d->fatal_offset, d->fatal_rule, sizeof d->fatal_rule);
        snprintf(d->fatal_errno, sizeof d->fatal_errno, "%s", kv_errno_name(rc));
    }
    const uint64_t v[KV_NSUM] = { s.events, s.dropped_events, s.dropped_slots, s.buffers,
                                  s.errors, s.slots, s.combine_events, s.incomplete_events,
                                  s.time_events, s.wraps };
    memcpy(d->sum, v, sizeof v);
    d->have_sum = (1u << KV_NSUM) - 1;
    return KV_PASS;
}

int kv_decode(struct kv_run *r, const struct kv_line *l)
{
    if (r->decoded)
        return KV_PASS;
    if (!r->have_file)
        return kv_bad_vector(r, l, "nothing to decode: no file, slot, bytes or sim step");
    r->decoded = 1;
    return r->decoder ? kv_decode_external(r, l) : decode_reference(r, l);
}

/* ---- decoder expectations -------------------------------------------------------- */

/* " 0x1 0x2 ..." into buf, cut to fit. */
static void list_words(char *buf, size_t len, const uint32_t *w, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && at + 16 < len; k++)
        at += (size_t)snprintf(buf + at, len - at, " 0x%x", w[k]);
    if (at + 16 >= len && n > 0)
        snprintf(buf + at, len - at, " ...");
}

static uint64_t slot_at(const struct kv_run *r, uint64_t n)
{
    return r->slots_offset + 16 * n;
}

/* expect event CPU CLASS EVENT TIME [words W...] [incomplete] [at N] */
static int expect_event(struct kv_run *r, const struct kv_line *l, size_t *next)
{
    uint64_t cpu, ev, t, at = 0;
    unsigned cls;
    uint32_t words[KV_MAX_TOKENS];
    size_t nw = 0;
    int incomplete = 0, has_words = 0, has_at = 0;

    if (l->ntok < 6 || kv_u64(l->tok[2], &cpu) || kv_class(l->tok[3], &cls) ||
        kv_u64(l->tok[4], &ev) || kv_u64(l->tok[5], &t))
        return kv_bad_vector(r, l, "expected expect event CPU CLASS EVENT TIME [words W...] "
                          "[incomplete] [at N]");
    for (unsigned i = 6; i < l->ntok; i++) {
        uint64_t x;
        if (strcmp(l->tok[i], "incomplete") == 0) {
            incomplete = 1;
        } else if (strcmp(l->tok[i], "at") == 0 && i + 1 < l->ntok &&
                   kv_u64(l->tok[i + 1], &at) == 0) {
            has_at = 1;
            i++;
        } else if (strcmp(l->tok[i], "words") == 0) {
            has_words = 1;
        } else if (has_words && kv_u64(l->tok[i], &x) == 0 && x <= UINT32_MAX) {
            words[nw++] = (uint32_t)x;
        } else {
            return kv_bad_vector(r, l, "expect event: unexpected token");
        }
    }
    size_t i = (*next)++;
    r->checks++;
    if (i >= r->dec.nev)
        return kv_fail(r, l, KV_FAIL, "the decoder gave %zu events; the vector expects event "
                       "%zu here (cpu %llu, class %u, event %llu)", r->dec.nev, i,
                       (unsigned long long)cpu, cls, (unsigned long long)ev);
    const struct kv_event *e = &r->dec.ev[i];
    if (e->cpu != cpu || e->cls != cls || e->event != ev || e->time != t ||
        e->complete == incomplete || (has_at && e->offset != slot_at(r, at)))
        return kv_fail(r, l, KV_FAIL, "event %zu: expected cpu %llu class %u event %llu time "
                       "0x%016llx%s%s, the decoder gave cpu %u class %u event %u time 0x%016llx%s "
                       "at offset %llu", i, (unsigned long long)cpu, cls,
                       (unsigned long long)ev, (unsigned long long)t,
                       incomplete ? " incomplete" : "", has_at ? " at the slot given" : "",
                       e->cpu, e->cls, e->event, (unsigned long long)e->time,
                       e->complete ? "" : " incomplete", (unsigned long long)e->offset);
    if (has_words && (e->nwords != nw || memcmp(e->words, words, nw * sizeof *words) != 0)) {
        char got[160], want[160];
        list_words(got, sizeof got, e->words, e->nwords);
        list_words(want, sizeof want, words, nw);
        return kv_fail(r, l, KV_FAIL, "event %zu: payload words (2 a slot, KSP-12): expected "
                       "%zu:%s; the decoder gave %zu:%s", i, nw, want, e->nwords, got);
    }
    return KV_PASS;
}

static int expect_error(struct kv_run *r, const struct kv_line *l, unsigned char *used)
{
    uint64_t at;
    const char *kind = NULL;
    if (l->ntok < 5 || strcmp(l->tok[3], "at") || kv_u64(l->tok[4], &at) ||
        (l->ntok != 5 && (l->ntok != 7 || strcmp(l->tok[5], "kind"))))
        return kv_bad_vector(r, l, "expected expect error RULE at N [kind K]");
    if (l->ntok == 7)
        kind = l->tok[6];
    uint64_t off = slot_at(r, at);
    r->checks++;
    for (size_t i = 0; i < r->dec.nerr; i++) {
        const struct kv_error *e = &r->dec.err[i];
        if (used[i] || e->offset != off || strcmp(e->rule, l->tok[2]) ||
            (kind && e->kind[0] && strcmp(e->kind, kind)))
            continue;
        used[i] = 1;
        return KV_PASS;
    }
    char seen[300] = "";
    size_t n = 0;
    for (size_t i = 0; i < r->dec.nerr && n + 60 < sizeof seen; i++)
        n += (size_t)snprintf(seen + n, sizeof seen - n, "%s%s at offset %llu%s%s",
                              i ? "; " : "", r->dec.err[i].rule,
                              (unsigned long long)r->dec.err[i].offset,
                              r->dec.err[i].kind[0] ? " " : "", r->dec.err[i].kind);
    return kv_fail(r, l, KV_FAIL, "expected an error %s%s%s at offset %llu (slot %llu); the "
                   "decoder reported %zu: %s", l->tok[2], kind ? " " : "", kind ? kind : "",
                   (unsigned long long)off, (unsigned long long)at, r->dec.nerr,
                   r->dec.nerr ? seen : "none");
}

static int expect_fatal(struct kv_run *r, const struct kv_line *l)
{
    uint64_t off;
    if (l->ntok < 5 || strcmp(l->tok[3], "offset") || kv_u64(l->tok[4], &off))
        return kv_bad_vector(r, l, "expected expect fatal RULE offset N [errno E] [message DATA]");
    const char *en = NULL;
    unsigned char *msg = NULL;
    size_t mlen = 0;
    for (unsigned i = 5; i + 1 < l->ntok; i += 2) {
        if (strcmp(l->tok[i], "errno") == 0)
            en = l->tok[i + 1];
        else if (strcmp(l->tok[i], "message") == 0 && !msg &&
                 kv_data(l->tok[i + 1], &msg, &mlen) == 0)
            ;
        else
            return kv_bad_vector(r, l, "expect fatal: errno E or message \"text\" after offset");
    }
    r->checks++;
    int rc = KV_PASS;
    if (!r->dec.fatal)
        rc = kv_fail(r, l, KV_FAIL, "expected the file to be rejected (%s at offset %llu); "
                     "the decoder read it: %zu events, %zu errors", l->tok[2],
                     (unsigned long long)off, r->dec.nev, r->dec.nerr);
    else if (strcmp(r->dec.fatal_rule, l->tok[2]) || r->dec.fatal_offset != off)
        rc = kv_fail(r, l, KV_FAIL, "expected the rejection %s at offset %llu; the decoder "
                     "said %s at offset %llu: %s", l->tok[2], (unsigned long long)off,
                     r->dec.fatal_rule[0] ? r->dec.fatal_rule : "(no rule)",
                     (unsigned long long)r->dec.fatal_offset, r->dec.fatal_msg);
    else if (en && !r->external_only && strcmp(en, r->dec.fatal_errno))
        rc = kv_fail(r, l, KV_FAIL, "rejected with %s, expected %s: %s", r->dec.fatal_errno,
                     en, r->dec.fatal_msg);
    else if (msg && !r->external_only) {
        char *m = malloc(mlen + 1);
        if (m) {
            memcpy(m, msg, mlen);
            m[mlen] = '\0';
            if (strstr(r->dec.fatal_msg, m) == NULL)
                rc = kv_fail(r, l, KV_FAIL, "the rejection message \"%s\" does not say \"%s\"",
                             r->dec.fatal_msg, m);
        }
        free(m);
    }
    free(msg);
    return rc;
}

static int expect_summary(struct kv_run *r, const struct kv_line *l)
{
    if (l->ntok < 4 || l->ntok % 2)
        return kv_bad_vector(r, l, "expected expect summary KEY VALUE [KEY VALUE...]");
    for (unsigned i = 2; i + 1 < l->ntok; i += 2) {
        uint64_t want;
        unsigned k = 0;
        while (k < KV_NSUM && strcmp(kv_summary_keys[k], l->tok[i]))
            k++;
        if (k == KV_NSUM || kv_u64(l->tok[i + 1], &want))
            return kv_bad_vector(r, l, "expect summary: unknown key or bad value");
        if (!(r->dec.have_sum >> k & 1)) {
            r->skipped++;   /* an optional key the decoder does not give */
            continue;
        }
        r->checks++;
        if (r->dec.sum[k] != want)
            return kv_fail(r, l, KV_FAIL, "summary %s: expected %llu, the decoder says %llu",
                           l->tok[i], (unsigned long long)want,
                           (unsigned long long)r->dec.sum[k]);
    }
    return KV_PASS;
}

/* Every generated event is decoded, or reported dropped, or (ring mode)
 * was overwritten. */
static int expect_accounting(struct kv_run *r, const struct kv_line *l)
{
    if (!r->have_sim)
        return kv_bad_vector(r, l, "expect accounting needs a sim step");
    uint64_t decoded = 0;
    /* A simulated trace's only incomplete events are the rests of events
     * begun in overwritten buffers (KSP-14): counted in `over` already. */
    for (size_t i = 0; i < r->dec.nev; i++)
        decoded += r->dec.ev[i].cls != SLOT_CLASS_CONTROL && r->dec.ev[i].complete;
    uint64_t dropped = r->dec.sum[1], over = r->stats.events_overwritten;
    r->checks++;
    if (decoded + dropped + over != r->stats.events_generated)
        return kv_fail(r, l, KV_FAIL, "%llu events generated, but %llu decoded + %llu reported "
                       "dropped + %llu overwritten = %llu", (unsigned long long)r->stats
                       .events_generated, (unsigned long long)decoded,
                       (unsigned long long)dropped, (unsigned long long)over,
                       (unsigned long long)(decoded + dropped + over));
    if (r->stats.events_dropped != dropped)
        return kv_fail(r, l, KV_FAIL, "the simulator dropped %llu events, the decoder's "
                       "summary reports %llu (KSP-22)",
                       (unsigned long long)r->stats.events_dropped,
                       (unsigned long long)dropped);
    return KV_PASS;
}

/* Checks the decoder expectations in order, then that the events and
 * errors listed were all there were. */
int kv_expect_decoded(struct kv_run *r, const struct kv_line *l)
{
    (void)l;
    const struct kv_vector *v = r->v;
    const struct kv_line *first = NULL, *last_ev = NULL, *last_err = NULL;
    size_t next = 0;
    int rc = KV_PASS, want_errors = 0;

    for (size_t i = 0; i < v->nlines; i++)
        if (strcmp(v->lines[i].tok[0], "expect") == 0 && kv_is_decoder_expect(&v->lines[i])) {
            first = &v->lines[i];
            break;
        }
    if (first == NULL)
        return KV_PASS;
    if ((rc = kv_decode(r, first)) != KV_PASS)
        return rc;
    unsigned char *used = calloc(r->dec.nerr + 1, 1);
    if (used == NULL)
        return kv_fail(r, first, KV_UNRESOLVED, "out of memory");
    for (size_t i = 0; i < v->nlines && rc == KV_PASS; i++) {
        const struct kv_line *x = &v->lines[i];
        if (strcmp(x->tok[0], "expect") || !kv_is_decoder_expect(x))
            continue;
        unsigned checks = r->checks;
        const char *k = x->tok[1];
        if (strcmp(k, "event") == 0) {
            rc = expect_event(r, x, &next);
            last_ev = x;
        } else if (strcmp(k, "events") == 0) {
            uint64_t n;
            if (x->ntok != 3 || kv_u64(x->tok[2], &n))
                rc = kv_bad_vector(r, x, "expected expect events N");
            else if (r->checks++, r->dec.nev != n)
                rc = kv_fail(r, x, KV_FAIL, "the decoder gave %zu events, expected %llu",
                             r->dec.nev, (unsigned long long)n);
        } else if (strcmp(k, "error") == 0) {
            rc = expect_error(r, x, used);
            last_err = x;
            want_errors = 1;
        } else if (strcmp(k, "no-errors") == 0) {
            want_errors = 1;
            last_err = x;
        } else if (strcmp(k, "fatal") == 0) {
            rc = expect_fatal(r, x);
        } else if (strcmp(k, "summary") == 0) {
            rc = expect_summary(r, x);
        } else {
            rc = expect_accounting(r, x);
        }
        if (rc == KV_PASS && r->checks != checks)
            kv_rules_ran(r, x, x);
    }
    if (rc == KV_PASS && last_ev && next != r->dec.nev) {
        const struct kv_event *e = &r->dec.ev[next];
        rc = kv_fail(r, last_ev, KV_FAIL, "the decoder gave %zu events, the vector lists %zu; "
                     "the first unexpected: cpu %u class %u event %u time 0x%016llx at offset "
                     "%llu", r->dec.nev, next, e->cpu, e->cls, e->event,
                     (unsigned long long)e->time, (unsigned long long)e->offset);
    }
    if (rc == KV_PASS && want_errors) {
        for (size_t i = 0; i < r->dec.nerr; i++)
            if (!used[i]) {
                r->checks++;
                rc = kv_fail(r, last_err, KV_FAIL, "unexpected error %s %s at offset %llu "
                             "(slot %lld)", r->dec.err[i].rule, r->dec.err[i].kind,
                             (unsigned long long)r->dec.err[i].offset,
                             (long long)(r->dec.err[i].offset - r->slots_offset) / 16);
                break;
            }
    }
    if (rc == KV_PASS && want_errors)
        kv_rules_ran(r, last_err, last_err);    /* "no-errors": checked just above */
    free(used);
    return rc;
}

