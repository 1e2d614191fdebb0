/* SPDX-License-Identifier: MIT */
/*
 * kvec_build.c -- the steps of a KSP vector that build a trace file (the
 * language of vectors/ksp/README.md): a header from the codec's writer in
 * either byte order (file), slots (slot, raw) and raw bytes (bytes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kvec.h"

int kv_append(struct kv_run *r, const void *p, size_t n)
{
    if (n > r->cap - r->len) {
        size_t c = r->cap ? r->cap : 1 << 16;
        while (c - r->len < n) {
            if (c > SIZE_MAX / 2)
                return -1;
            c *= 2;
        }
        unsigned char *f = realloc(r->file, c);
        if (f == NULL)
            return -1;
        r->file = f;
        r->cap = c;
    }
    if (n)
        memcpy(r->file + r->len, p, n);
    r->len += n;
    return 0;
}

static int host_big_endian(void)
{
    const uint32_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

/* Swaps the byte-order key of a header the writer made for this host. */
static void set_order(char *h, size_t *len, int big)
{
    const char *from = big ? "TRACE_LITTLE_ENDIAN::TRUE" : "TRACE_BIG_ENDIAN::TRUE";
    const char *to = big ? "TRACE_BIG_ENDIAN::TRUE" : "TRACE_LITTLE_ENDIAN::TRUE";
    size_t fl = strlen(from), tl = strlen(to);
    for (size_t i = 0; i + fl <= *len; i++)
        if (memcmp(h + i, from, fl) == 0) {
            memmove(h + i + tl, h + i + fl, *len - i - fl);
            memcpy(h + i, to, tl);
            *len = *len - fl + tl;
            return;
        }
}

int kv_step_file(struct kv_run *r, const struct kv_line *l)
{
    uint64_t cpus = 1, cps = 1000000, syspage = 0;
    int big = 0;

    if (r->have_file)
        return kv_bad_vector(r, l, "one file per vector");
    for (unsigned i = 1; i < l->ntok; i++) {
        const char *k = l->tok[i], *v = i + 1 < l->ntok ? l->tok[i + 1] : "";
        if (strcmp(k, "little") == 0 || strcmp(k, "big") == 0) {
            big = k[0] == 'b';
            continue;
        }
        uint64_t x;
        if (kv_u64(v, &x) != 0)
            return kv_bad_vector(r, l, "file: expected little|big, cpus N, cps N, syspage N");
        i++;
        if (strcmp(k, "cpus") == 0)
            cpus = x;
        else if (strcmp(k, "cps") == 0)
            cps = x;
        else if (strcmp(k, "syspage") == 0 && x <= 65536)
            syspage = x;
        else
            return kv_bad_vector(r, l, "file: unknown key or value out of range");
    }
    unsigned char *page = calloc(1, syspage + 1);
    char *h = malloc(TRACE_FILE_HEADER_MAX + 8);
    size_t len = 0;
    for (size_t i = 0; page && i < syspage; i++)
        page[i] = (unsigned char)i;
    struct trace_file_meta m = {
        .file_name = "kvec.kev", .date = "vector", .boot_date = "vector",
        .cycles_per_sec = cps, .cpu_num = (unsigned)(cpus > 1000 ? 1000 : cpus),
        .sysname = "kvec", .nodename = "kvec", .sys_release = "1", .sys_version = "1",
        .machine = "kvec", .syspage = page, .syspage_len = syspage,
    };
    int rc = page && h ? trace_file_header_build(&m, h, TRACE_FILE_HEADER_MAX, &len) : ENOMEM;
    if (rc == 0) {
        if (big != host_big_endian())
            set_order(h, &len, big);
        r->header_len = len;
        if (kv_append(r, h, len) != 0 || kv_append(r, page, syspage) != 0)
            rc = ENOMEM;
    }
    free(page);
    free(h);
    if (rc != 0)
        return kv_fail(r, l, KV_UNRESOLVED, "the header writer refused the file step: %s",
                       kv_errno_name(rc));
    r->slots_offset = r->len;
    r->big_endian = big;
    r->have_file = 1;
    return KV_PASS;
}

static void put32(unsigned char *p, uint32_t w, int big)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(w >> (big ? 24 - 8 * i : 8 * i));
}

int kv_step_slot(struct kv_run *r, const struct kv_line *l)
{
    uint32_t w[4] = { 0, 0, 0, 0 }, flag;
    uint64_t x;
    unsigned cls;

    if (!r->have_file || r->have_sim)
        return kv_bad_vector(r, l, "slot and raw need a file step before them");
    if (strcmp(l->tok[0], "raw") == 0) {
        if (l->ntok != 5)
            return kv_bad_vector(r, l, "expected raw HEADER D0 D1 D2");
        for (int i = 0; i < 4; i++) {
            if (kv_u64(l->tok[1 + i], &x) != 0 || x > UINT32_MAX)
                return kv_bad_vector(r, l, "raw: expected 32-bit numbers");
            w[i] = (uint32_t)x;
        }
    } else {
        /* slot FLAG CPU CLASS EVENT TIME [D1 [D2]] */
        uint64_t cpu, ev;
        if (l->ntok < 6 || l->ntok > 8 || kv_flag(l->tok[1], &flag) != 0 ||
            kv_u64(l->tok[2], &cpu) != 0 || cpu > 63 || kv_class(l->tok[3], &cls) != 0 ||
            kv_u64(l->tok[4], &ev) != 0 || ev > 1023)
            return kv_bad_vector(r, l, "expected slot FLAG CPU CLASS EVENT TIME [D1 [D2]]");
        w[0] = slot_header(flag, (unsigned)cpu, cls, (unsigned)ev);
        for (unsigned i = 5; i < l->ntok; i++) {
            if (kv_u64(l->tok[i], &x) != 0 || x > UINT32_MAX)
                return kv_bad_vector(r, l, "slot: expected 32-bit numbers");
            w[i - 4] = (uint32_t)x;
        }
    }
    unsigned char b[16];
    for (int i = 0; i < 4; i++)
        put32(b + 4 * i, w[i], r->big_endian);
    return kv_append(r, b, 16) == 0 ? KV_PASS : kv_fail(r, l, KV_UNRESOLVED, "out of memory");
}

int kv_step_bytes(struct kv_run *r, const struct kv_line *l)
{
    unsigned char *d;
    size_t n;
    if (r->have_sim || l->ntok != 2 || kv_data(l->tok[1], &d, &n) != 0)
        return kv_bad_vector(r, l, "expected bytes DATA (\"text\" or hex:...)");
    int rc = kv_append(r, d, n);
    free(d);
    r->have_file = 1;
    return rc == 0 ? KV_PASS : kv_fail(r, l, KV_UNRESOLVED, "out of memory");
}

