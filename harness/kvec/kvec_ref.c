/* SPDX-License-Identifier: MIT */
/*
 * kvec_ref.c -- the steps of a KSP vector that exercise the reference
 * itself (vectors/ksp/README.md): the encoder (encode), the class map
 * (map), the header macros (fields, compose), the per-CPU stamps (stamp),
 * the kernel simulator (sim), and the expectations on the reference's own
 * output: header text, file bytes, SHA-256, the tracedump text, the
 * simulator's statistics and the kernel rules checked by ksim_verify_file.
 *
 * Against another decoder these steps still build the inputs (sim), but
 * their expectations are skipped: they say nothing of that decoder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <posixtrace_dump.h>
#include "kvec.h"

/* ---- key/value arguments ---------------------------------------------------- */

/* The token after `key` among l->tok[from..to-1], or NULL. */
static const char *arg(const struct kv_line *l, unsigned from, unsigned to, const char *key)
{
    for (unsigned i = from; i + 1 < to; i++)
        if (strcmp(l->tok[i], key) == 0)
            return l->tok[i + 1];
    return NULL;
}

/* The index of "->" in l, or ntok. */
static unsigned arrow(const struct kv_line *l)
{
    for (unsigned i = 0; i < l->ntok; i++)
        if (strcmp(l->tok[i], "->") == 0)
            return i;
    return l->ntok;
}

/* A number argument; 0, or the run's failure (a vector error). */
static int num(struct kv_run *r, const struct kv_line *l, const char *tok, uint64_t *v,
               const char *what)
{
    if (tok == NULL || kv_u64(tok, v) != 0) {
        char m[96];
        snprintf(m, sizeof m, "expected a number: %s", what);
        return kv_bad_vector(r, l, m);
    }
    return 0;
}

#define NUM(tok, var, what) \
    do { if (num(r, l, (tok), &(var), what)) return r->code; } while (0)

/* ---- encode ------------------------------------------------------------------ */

#define ENC_CAP 4096

int kv_step_encode(struct kv_run *r, size_t *idx)
{
    const struct kv_line *l = &r->v->lines[*idx];
    unsigned to = arrow(l), cls = 0;
    uint64_t cpu = 0, event = 0, ts = 0;
    const char *c = arg(l, 1, to, "class");

    NUM(arg(l, 1, to, "cpu"), cpu, "cpu N");
    NUM(arg(l, 1, to, "event"), event, "event E");
    NUM(arg(l, 1, to, "time"), ts, "time T");
    if (c == NULL || kv_class(c, &cls) != 0)
        return kv_bad_vector(r, l, "expected class NAME (EMPTY ... COMM) or a number 0-31");

    /* The payload: words W..., bytes DATA or string DATA. */
    unsigned p = 1;
    while (p < to && strcmp(l->tok[p], "words") && strcmp(l->tok[p], "bytes") &&
           strcmp(l->tok[p], "string"))
        p++;
    if (p == to)
        return kv_bad_vector(r, l, "expected a payload: words W..., bytes DATA or string DATA");

    uint32_t words[KV_MAX_TOKENS];
    size_t nwords = 0, nslots = 0, len = 0;
    unsigned char *data = NULL;
    traceevent_t *out = malloc(ENC_CAP * sizeof *out);
    struct slot_key key = { (unsigned)(cpu > 1000 ? 1000 : cpu), cls, (unsigned)event,
                            (uint32_t)ts };
    int rc;

    if (out == NULL)
        return kv_fail(r, l, KV_UNRESOLVED, "out of memory");
    if (strcmp(l->tok[p], "words") == 0) {
        for (unsigned i = p + 1; i < to; i++, nwords++) {
            uint64_t w;
            if (kv_u64(l->tok[i], &w) != 0 || w > UINT32_MAX) {
                free(out);
                return kv_bad_vector(r, l, "words: expected 32-bit numbers");
            }
            words[nwords] = (uint32_t)w;
        }
        rc = slot_encode_words(&key, words, nwords, out, ENC_CAP, &nslots);
    } else {
        if (p + 2 != to || kv_data(l->tok[p + 1], &data, &len) != 0) {
            free(out);
            return kv_bad_vector(r, l, "expected one data token (\"text\" or hex:...)");
        }
        if (strcmp(l->tok[p], "bytes") == 0) {
            rc = slot_encode_bytes(&key, data, len, out, ENC_CAP, &nslots);
        } else {
            if (memchr(data, '\0', len) != NULL) {
                free(data);
                free(out);
                return kv_bad_vector(r, l, "a string holds no NUL: its NUL is the encoder's");
            }
            char *s = malloc(len + 1);
            if (s != NULL) {
                memcpy(s, data, len);
                s[len] = '\0';
            }
            rc = s ? slot_encode_string(&key, s, out, ENC_CAP, &nslots) : ENOMEM;
            free(s);
        }
        free(data);
    }

    /* The expectation: -> ERRNO, or the => lines that follow. */
    int want_rc = 0;
    if (to < l->ntok && (to + 2 != l->ntok || kv_errno(l->tok[to + 1], &want_rc) != 0)) {
        free(out);
        return kv_bad_vector(r, l, "expected -> ERRNO (EINVAL, ERANGE) or => lines after");
    }
    r->checks++;
    if (rc != want_rc) {
        free(out);
        return kv_fail(r, l, KV_FAIL, "encode returned %s, expected %s", kv_errno_name(rc),
                       kv_errno_name(want_rc));
    }
    size_t k = 0;
    int result = KV_PASS;
    while (*idx + 1 < r->v->nlines && strcmp(r->v->lines[*idx + 1].tok[0], "=>") == 0) {
        const struct kv_line *e = &r->v->lines[++*idx];
        uint32_t flag, w[4];
        uint64_t x;
        if (e->ntok != 6 || kv_flag(e->tok[1], &flag) != 0) {
            result = kv_bad_vector(r, e, "expected => FLAG HEADER D0 D1 D2");
            break;
        }
        for (int j = 0; j < 4; j++) {
            if (kv_u64(e->tok[2 + j], &x) != 0 || x > UINT32_MAX) {
                free(out);
                return kv_bad_vector(r, e, "expected 32-bit numbers");
            }
            w[j] = (uint32_t)x;
        }
        if (_TRACE_GET_STRUCT(w[0]) != flag) {
            result = kv_bad_vector(r, e, "the flag and the header's struct bits disagree");
            break;
        }
        if (k >= nslots) {
            result = kv_fail(r, e, KV_FAIL, "the encoder wrote %zu slots, the vector expects "
                             "at least %zu", nslots, k + 1);
            break;
        }
        const traceevent_t *s = &out[k];
        if (s->header != w[0] || s->data[0] != w[1] || s->data[1] != w[2] || s->data[2] != w[3]) {
            result = kv_fail(r, e, KV_FAIL, "slot %zu: expected %s 0x%08x 0x%08x 0x%08x 0x%08x, "
                             "the encoder wrote 0x%08x 0x%08x 0x%08x 0x%08x", k, e->tok[1],
                             w[0], w[1], w[2], w[3], s->header, s->data[0], s->data[1],
                             s->data[2]);
            break;
        }
        k++;
    }
    if (result == KV_PASS && want_rc == 0 && k != nslots)
        result = kv_fail(r, l, KV_FAIL, "the encoder wrote %zu slots, the vector expects %zu",
                         nslots, k);
    free(out);
    return result;
}

/* ---- map, fields, compose, stamp -------------------------------------------- */

int kv_step_map(struct kv_run *r, const struct kv_line *l)
{
    unsigned to = arrow(l), cls = 0, event = 0, want_cls = 0;
    int ext, want_rc = 0;
    uint64_t code, want_ev = 0;

    if (to != 3 || kv_ext_class(l->tok[1], &ext) != 0 || kv_u64(l->tok[2], &code) != 0)
        return kv_bad_vector(r, l, "expected map EXTCLASS CODE -> ...");
    if (to + 2 == l->ntok) {
        if (kv_errno(l->tok[to + 1], &want_rc) != 0)
            return kv_bad_vector(r, l, "expected -> EINVAL");
    } else {
        const char *c = arg(l, to, l->ntok, "class");
        if (c == NULL || kv_class(c, &want_cls) != 0)
            return kv_bad_vector(r, l, "expected -> class C event E");
        NUM(arg(l, to, l->ntok, "event"), want_ev, "event E");
    }
    int rc = slot_external_to_internal(ext, (unsigned)code, &cls, &event);
    r->checks++;
    if (rc != want_rc)
        return kv_fail(r, l, KV_FAIL, "slot_external_to_internal(%s, %llu) returned %s, "
                       "expected %s", l->tok[1], (unsigned long long)code, kv_errno_name(rc),
                       kv_errno_name(want_rc));
    if (rc == 0 && (cls != want_cls || event != want_ev))
        return kv_fail(r, l, KV_FAIL, "%s %llu maps to class %u event %u, expected class %u "
                       "event %llu", l->tok[1], (unsigned long long)code, cls, event, want_cls,
                       (unsigned long long)want_ev);
    return KV_PASS;
}

int kv_step_fields(struct kv_run *r, const struct kv_line *l)
{
    unsigned to = arrow(l), cls;
    uint64_t h, cpu, ev;
    uint32_t flag;
    const char *f = arg(l, to, l->ntok, "flag"), *c = arg(l, to, l->ntok, "class");

    if (to != 2 || kv_u64(l->tok[1], &h) != 0 || h > UINT32_MAX || f == NULL ||
        kv_flag(f, &flag) != 0 || c == NULL || kv_class(c, &cls) != 0)
        return kv_bad_vector(r, l, "expected fields HEADER -> flag F cpu N class C event E");
    NUM(arg(l, to, l->ntok, "cpu"), cpu, "cpu N");
    NUM(arg(l, to, l->ntok, "event"), ev, "event E");
    uint32_t hw = (uint32_t)h;
    r->checks++;
    if (_TRACE_GET_STRUCT(hw) != flag || _NTO_TRACE_GETCPU(hw) != cpu ||
        _NTO_TRACE_GETEVENT_C(hw) != (uint32_t)cls << 10 || _NTO_TRACE_GETEVENT(hw) != ev)
        return kv_fail(r, l, KV_FAIL, "header 0x%08x: _TRACE_GET_STRUCT 0x%08x, "
                       "_NTO_TRACE_GETCPU %u, _NTO_TRACE_GETEVENT_C 0x%04x, _NTO_TRACE_GETEVENT "
                       "%u; expected 0x%08x, %llu, 0x%04x, %llu", hw,
                       (unsigned)_TRACE_GET_STRUCT(hw), _NTO_TRACE_GETCPU(hw),
                       (unsigned)_NTO_TRACE_GETEVENT_C(hw), (unsigned)_NTO_TRACE_GETEVENT(hw),
                       (unsigned)flag, (unsigned long long)cpu, cls << 10,
                       (unsigned long long)ev);
    return KV_PASS;
}

int kv_step_compose(struct kv_run *r, const struct kv_line *l)
{
    unsigned to = arrow(l), cls;
    uint64_t from = 0, cpu, ev, want;
    uint32_t flag;
    const char *f = arg(l, 1, to, "flag"), *c = arg(l, 1, to, "class");
    const char *start = arg(l, 1, to, "from");

    if (to + 2 != l->ntok || kv_u64(l->tok[to + 1], &want) != 0 || f == NULL ||
        kv_flag(f, &flag) != 0 || c == NULL || kv_class(c, &cls) != 0 ||
        (start && kv_u64(start, &from) != 0))
        return kv_bad_vector(r, l, "expected compose [from H] flag F cpu N class C event E -> H");
    NUM(arg(l, 1, to, "cpu"), cpu, "cpu N");
    NUM(arg(l, 1, to, "event"), ev, "event E");
    uint32_t h = (uint32_t)from;
    _TRACE_SET_STRUCT(h, flag);
    _NTO_TRACE_SETCPU(h, cpu);
    _NTO_TRACE_SETEVENT_C(h, (uint32_t)cls << 10);
    _NTO_TRACE_SETEVENT(h, ev);
    r->checks++;
    if (h != want)
        return kv_fail(r, l, KV_FAIL, "the setters made 0x%08x, expected 0x%08llx", h,
                       (unsigned long long)want);
    return KV_PASS;
}

int kv_step_stamp(struct kv_run *r, const struct kv_line *l)
{
    unsigned to = arrow(l);
    uint64_t cpu, now, want = 0, ts = 0;
    int want_rc = 0, high = 0;

    NUM(arg(l, 1, to, "cpu"), cpu, "cpu N");
    NUM(arg(l, 1, to, "now"), now, "now T");
    if (to + 1 >= l->ntok)
        return kv_bad_vector(r, l, "expected -> T [newhigh] or -> ERANGE");
    if (kv_errno(l->tok[to + 1], &want_rc) != 0 && kv_u64(l->tok[to + 1], &want) != 0)
        return kv_bad_vector(r, l, "expected -> T [newhigh] or -> ERANGE");
    int want_high = to + 2 < l->ntok && strcmp(l->tok[to + 2], "newhigh") == 0;
    int rc = slot_clock_stamp(&r->clock, (unsigned)(cpu > 1000 ? 1000 : cpu), now, &ts, &high);
    r->checks++;
    if (rc != want_rc)
        return kv_fail(r, l, KV_FAIL, "slot_clock_stamp returned %s, expected %s",
                       kv_errno_name(rc), kv_errno_name(want_rc));
    if (rc == 0 && (ts != want || high != want_high))
        return kv_fail(r, l, KV_FAIL, "stamp 0x%016llx%s, expected 0x%016llx%s",
                       (unsigned long long)ts, high ? " with a new high word" : "",
                       (unsigned long long)want, want_high ? " with a new high word" : "");
    return KV_PASS;
}

/* ---- sim ------------------------------------------------------------------------- */

static int sink_append(void *user, const void *p, size_t n)
{
    return kv_append(user, p, n) == 0 ? 0 : ENOMEM;
}

int kv_step_sim(struct kv_run *r, const struct kv_line *l)
{
    struct ksim_config *c = &r->sim;
    char err[512];

    if (r->have_file)
        return kv_bad_vector(r, l, "one file per vector: sim after file or sim");
    ksim_config_default(c);
    for (unsigned i = 1; i < l->ntok; i++) {
        const char *k = l->tok[i], *v = i + 1 < l->ntok ? l->tok[i + 1] : NULL;
        uint64_t x = 0;
        if (strcmp(k, "wrap-early") == 0) {
            c->wrap_early = 1;
            continue;
        }
        if (strcmp(k, "mode") == 0) {
            if (v == NULL || (strcmp(v, "linear") && strcmp(v, "ring")))
                return kv_bad_vector(r, l, "mode: linear or ring");
            c->mode = strcmp(v, "ring") == 0 ? KSIM_RING : KSIM_LINEAR;
            i++;
            continue;
        }
        if (v == NULL || kv_u64(v, &x) != 0)
            return kv_bad_vector(r, l, "sim: expected KEY NUMBER pairs");
        i++;
        if (strcmp(k, "cpus") == 0)
            c->ncpus = (unsigned)(x > 1000 ? 1000 : x);
        else if (strcmp(k, "events") == 0)
            c->nevents = x;
        else if (strcmp(k, "seed") == 0)
            c->seed = x;
        else if (strcmp(k, "buffers") == 0)
            c->nbuffers = (unsigned)(x > 100000 ? 100000 : x);
        else if (strcmp(k, "logger-every") == 0)
            c->logger_every = x;
        else if (strcmp(k, "logger-lanes") == 0)
            c->logger_lanes = (unsigned)(x > 1000 ? 1000 : x);
        else if (strcmp(k, "logger-jitter") == 0)
            c->logger_jitter = (unsigned)(x > 1000 ? 1000 : x);
        else if (strcmp(k, "cps") == 0)
            c->cycles_per_sec = x;
        else if (strcmp(k, "gap-ns") == 0)
            c->gap_ns = x;
        else if (strcmp(k, "syspage") == 0)
            c->syspage_len = (size_t)(x > 1000000 ? 1000000 : x);
        else
            return kv_bad_vector(r, l, "sim: unknown key");
    }
    struct ksim_sink sink = { sink_append, r };
    int rc = ksim_run(c, &sink, NULL, &r->stats, err, sizeof err);
    if (rc != 0)
        return kv_fail(r, l, KV_UNRESOLVED, "the simulation failed: %s", err);
    r->have_file = r->have_sim = 1;
    return KV_PASS;
}

/* ---- expectations on the reference's output ---------------------------------- */

static const struct { const char *name; size_t off; } stat_fields[] = {
#define F(x) { #x, offsetof(struct ksim_stats, x) }
    F(events_generated), F(events_written), F(events_dropped), F(slots_dropped),
    F(events_overwritten), F(buffers_overwritten), F(combine_events), F(straddling_events),
    F(slots_written), F(buffers_started), F(buffers_handed), F(buffers_logged),
    F(slots_logged), F(drop_reports), F(time_events), F(time_at_wrap), F(buffer_events),
    F(stamp_bumps), F(file_bytes), F(header_bytes),
    { "skips0", offsetof(struct ksim_stats, skips) },
    { "skips1", offsetof(struct ksim_stats, skips) + sizeof(uint64_t) },
    { "skips2", offsetof(struct ksim_stats, skips) + 2 * sizeof(uint64_t) },
#undef F
};

static int compare(uint64_t a, const char *op, uint64_t b, int *ok)
{
    if (strcmp(op, "==") == 0) *ok = a == b;
    else if (strcmp(op, "!=") == 0) *ok = a != b;
    else if (strcmp(op, "<") == 0) *ok = a < b;
    else if (strcmp(op, "<=") == 0) *ok = a <= b;
    else if (strcmp(op, ">") == 0) *ok = a > b;
    else if (strcmp(op, ">=") == 0) *ok = a >= b;
    else return -1;
    return 0;
}

static int expect_stat(struct kv_run *r, const struct kv_line *l)
{
    uint64_t want;
    int ok;
    if (!r->have_sim)
        return kv_bad_vector(r, l, "expect stat needs a sim step before it");
    if (l->ntok != 5 || kv_u64(l->tok[4], &want) != 0)
        return kv_bad_vector(r, l, "expected expect stat NAME OP VALUE");
    for (size_t i = 0; i < sizeof stat_fields / sizeof stat_fields[0]; i++) {
        if (strcmp(stat_fields[i].name, l->tok[2]) != 0)
            continue;
        uint64_t v;
        memcpy(&v, (const char *)&r->stats + stat_fields[i].off, sizeof v);
        if (compare(v, l->tok[3], want, &ok) != 0)
            return kv_bad_vector(r, l, "OP: == != < <= > >=");
        r->checks++;
        if (!ok)
            return kv_fail(r, l, KV_FAIL, "the simulator's %s is %llu, expected %s %llu",
                           l->tok[2], (unsigned long long)v, l->tok[3],
                           (unsigned long long)want);
        return KV_PASS;
    }
    return kv_bad_vector(r, l, "expect stat: unknown statistic");
}

static int expect_sha256(struct kv_run *r, const struct kv_line *l)
{
    char hex[65];
    if (l->ntok != 3 || strlen(l->tok[2]) != 64)
        return kv_bad_vector(r, l, "expected expect sha256 HEX (64 digits)");
    kv_sha256_hex(r->file, r->len, hex);
    r->checks++;
    if (r->bless) {         /* --bless reports, it does not judge */
        printf("%s:%u: sha256 %s%s\n", r->v->path, l->lineno, hex,
               strcmp(hex, l->tok[2]) ? " (differs from the pin)" : "");
        return KV_PASS;
    }
    if (strcmp(hex, l->tok[2]) != 0)
        return kv_fail(r, l, KV_FAIL, "the file's SHA-256 is %s, the vector pins %s (the "
                       "reference's output changed: a regression, or re-pin it with kvecrun "
                       "--bless after review)", hex, l->tok[2]);
    return KV_PASS;
}

/* The vector's folder + name. */
static char *beside(const struct kv_run *r, const char *name)
{
    const char *slash = strrchr(r->v->path, '/');
    size_t dir = slash ? (size_t)(slash - r->v->path) + 1 : 0;
    char *p = malloc(dir + strlen(name) + 1);
    if (p) {
        memcpy(p, r->v->path, dir);
        strcpy(p + dir, name);
    }
    return p;
}

static int expect_dump(struct kv_run *r, const struct kv_line *l)
{
    if (l->ntok != 3 || strchr(l->tok[2], '/') != NULL)
        return kv_bad_vector(r, l, "expected expect dump NAME (a file beside the vector)");
    char *path = beside(r, l->tok[2]), *got = NULL, err[512];
    size_t gotlen = 0;
    FILE *mem = open_memstream(&got, &gotlen);
    struct dump_trace_options o = { .format = DUMP_TEXT, .name = l->tok[2] };
    struct dump_trace_result res;
    int rc = KV_PASS;

    if (path == NULL || mem == NULL) {
        if (mem)
            fclose(mem);
        free(got);
        free(path);
        return kv_fail(r, l, KV_UNRESOLVED, "out of memory");
    }
    dump_trace_mem(r->file, r->len, mem, &o, &res, err, sizeof err);
    fclose(mem);
    if (r->bless) {
        FILE *f = fopen(path, "wb");
        if (f == NULL || fwrite(got, 1, gotlen, f) != gotlen || fclose(f) != 0)
            fprintf(stderr, "kvecrun: cannot write %s\n", path);
        else
            printf("%s:%u: wrote %s\n", r->v->path, l->lineno, path);
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        rc = kv_fail(r, l, KV_UNRESOLVED, "cannot read %s: %s", path, strerror(errno));
    } else {
        size_t line = 1, i = 0;
        int c;
        for (; (c = fgetc(f)) != EOF; i++) {
            if (i >= gotlen || got[i] != (char)c)
                break;
            line += c == '\n';
        }
        int equal = c == EOF && i == gotlen;
        fclose(f);
        r->checks++;
        if (!equal)
            rc = kv_fail(r, l, KV_FAIL, "the tracedump text differs from %s at line %zu "
                         "(byte %zu): the reference's output changed (re-pin with kvecrun "
                         "--bless after review)", l->tok[2], line, i);
    }
    free(got);
    free(path);
    return rc;
}

static int expect_verify(struct kv_run *r, const struct kv_line *l)
{
    struct ksim_verify v;
    char err[512];
    int linear = !(r->have_sim && r->sim.mode == KSIM_RING);
    int rc = ksim_verify_file(r->file, r->len, linear, &v, err, sizeof err);
    r->checks++;
    if (rc == 0)
        return KV_PASS;
    /* Each problem names the rule it breaks ("offset 359: KSP-19: ..."):
     * verify checks several rules, and a failure blames that one. */
    const char *k = strncmp(err, "offset ", 7) == 0 ? strstr(err, ": ") : NULL;
    k = k ? k + 2 : err;
    size_t n = strncmp(k, "KSP-", 4) == 0 ? strspn(k + 4, "0123456789") : 0;
    if (r->code == KV_PASS && n > 0 && n < 4 && k[4 + n] == ':')
        snprintf(r->fail_rule, sizeof r->fail_rule, "%.*s", (int)(4 + n), k);
    return kv_fail(r, l, KV_FAIL, "%llu problems in the simulated trace; the first: %s",
                   (unsigned long long)v.problems, err);
}

/* The end of the header text, from the file itself. */
static size_t header_end(const struct kv_run *r)
{
    if (r->header_len)
        return r->header_len;
    struct trace_file_info *info = malloc(sizeof *info);
    size_t n = 0;
    if (info && trace_file_parse(r->file, r->len, r->len, info, NULL, 0) == 0)
        n = (size_t)info->header_len;
    free(info);
    return n;
}

static int expect_header(struct kv_run *r, const struct kv_line *l)
{
    unsigned char *want;
    size_t wlen, hlen = header_end(r);
    if (l->ntok != 3 || kv_data(l->tok[2], &want, &wlen) != 0)
        return kv_bad_vector(r, l, "expected expect header \"TEXT\"");
    r->checks++;
    int same = hlen == wlen && memcmp(r->file, want, wlen) == 0;
    free(want);
    if (!same)
        return kv_fail(r, l, KV_FAIL, "the header written is \"%.*s\" (%zu bytes), not the "
                       "vector's (%zu bytes)", (int)(hlen < 600 ? hlen : 600),
                       (const char *)r->file, hlen, wlen);
    return KV_PASS;
}

static int expect_bytes(struct kv_run *r, const struct kv_line *l)
{
    uint64_t at;
    unsigned char *want;
    size_t wlen;
    if (l->ntok != 5 || kv_u64(l->tok[3], &at) != 0 ||
        (strcmp(l->tok[2], "offset") && strcmp(l->tok[2], "slot")) ||
        kv_data(l->tok[4], &want, &wlen) != 0)
        return kv_bad_vector(r, l, "expected expect bytes offset|slot N DATA");
    if (strcmp(l->tok[2], "slot") == 0) {
        size_t h = header_end(r);
        struct trace_file_info *info = malloc(sizeof *info);
        uint64_t base = h;
        if (info && trace_file_parse(r->file, r->len, r->len, info, NULL, 0) == 0)
            base = info->slots_offset;
        free(info);
        at = base + 16 * at;
    }
    r->checks++;
    int ok = at <= r->len && wlen <= r->len - at && memcmp(r->file + at, want, wlen) == 0;
    char got[100] = "";
    for (size_t i = 0; i < wlen && i < 32 && at + i < r->len; i++)
        snprintf(got + 2 * i, 3, "%02x", r->file[at + i]);
    free(want);
    if (!ok)
        return kv_fail(r, l, KV_FAIL, "bytes at offset %llu are %s, not the vector's %s",
                       (unsigned long long)at, got, l->tok[4]);
    return KV_PASS;
}

int kv_expect_ref(struct kv_run *r, const struct kv_line *l)
{
    const char *what = l->ntok > 1 ? l->tok[1] : "";
    if (r->external_only) {
        r->skipped++;
        return KV_PASS;
    }
    if (!r->have_file && strcmp(what, "stat") != 0)
        return kv_bad_vector(r, l, "this expectation needs a file (file or sim) before it");
    if (strcmp(what, "stat") == 0)
        return expect_stat(r, l);
    if (strcmp(what, "sha256") == 0)
        return expect_sha256(r, l);
    if (strcmp(what, "dump") == 0)
        return expect_dump(r, l);
    if (strcmp(what, "verify") == 0)
        return expect_verify(r, l);
    if (strcmp(what, "header") == 0)
        return expect_header(r, l);
    if (strcmp(what, "bytes") == 0)
        return expect_bytes(r, l);
    return kv_bad_vector(r, l, "unknown expectation");
}
