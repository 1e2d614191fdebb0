/* SPDX-License-Identifier: MIT */
/*
 * trace_file.c -- the kernel trace file (trace_file.h): the header writer,
 * the header parser with the rejections of KSP-25, and the feeding of a
 * file's slots, in its byte order, to a slot decoder.
 *
 * The header has no separators, so a value ends where the next key token
 * (TRACE_[A-Z0-9_]+::) begins: QNX writes `TRACE_SYSNAME::QNXTRACE_NODENAME::`.
 * The writer therefore refuses a value that holds such a token, and the
 * reader looks for the first one after the value's start.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "slot/trace_file.h"

/* The keys of KSP-23, in order; "ENDIAN" stands for LITTLE_ or BIG_ENDIAN. */
static const char *const std_keys[] = {
    "FILE_NAME", "DATE", "VER_MAJOR", "VER_MINOR", "ENDIAN", "ENCODING", "BOOT_DATE",
    "CYCLES_PER_SEC", "CPU_NUM", "SYSNAME", "NODENAME", "SYS_RELEASE", "SYS_VERSION",
    "MACHINE", "SYSPAGE_LEN",
};
enum { NSTD = sizeof std_keys / sizeof std_keys[0], K_ENDIAN = 4 };

#define BEGIN_TOKEN  "TRACE_HEADER_BEGIN::"
#define END_KEY      "HEADER_END"

int trace_file_host_big_endian(void)
{
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

static int key_char(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Length of the key token TRACE_<KEY>:: at p (n bytes available), or 0. */
static size_t key_token(const unsigned char *p, size_t n)
{
    size_t i = 6;
    if (n < 9 || memcmp(p, "TRACE_", 6) != 0)
        return 0;
    while (i < n && key_char(p[i]))
        i++;
    if (i == 6 || i + 2 > n || p[i] != ':' || p[i + 1] != ':')
        return 0;
    return i + 2;
}

/* The offset of the first key token in p[from..n-1], or n.  Linear: the end
 * of a run of key characters is found once for all the TRACE_ in it. */
static size_t find_key(const unsigned char *p, size_t from, size_t n)
{
    size_t run_end = 0;
    for (size_t j = from; j + 9 <= n; j++) {
        if (p[j] != 'T' || memcmp(p + j, "TRACE_", 6) != 0)
            continue;
        if (run_end <= j + 6) {
            run_end = j + 6;
            while (run_end < n && key_char(p[run_end]))
                run_end++;
        }
        if (run_end > j + 6 && run_end + 2 <= n && p[run_end] == ':' && p[run_end + 1] == ':')
            return j;
    }
    return n;
}

static int is_std_key(const char *k, size_t n)
{
    for (unsigned i = 0; i < NSTD; i++)
        if (i != K_ENDIAN && strlen(std_keys[i]) == n && memcmp(std_keys[i], k, n) == 0)
            return 1;
    return (n == 13 && (memcmp(k, "LITTLE_ENDIAN", 13) == 0)) ||
           (n == 10 && (memcmp(k, "BIG_ENDIAN", 10) == 0 || memcmp(k, END_KEY, 10) == 0)) ||
           (n == 12 && memcmp(k, "HEADER_BEGIN", 12) == 0) ||
           (n == sizeof TRACE_FILE_PAD_KEY - 1 && memcmp(k, TRACE_FILE_PAD_KEY, n) == 0);
}

/* ---- writing ------------------------------------------------------------------ */

struct out {
    char *buf;
    size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->len < o->cap)
        memcpy(o->buf + o->len, s, n <= o->cap - o->len ? n : o->cap - o->len);
    o->len += n;
}

static void put_pair(struct out *o, const char *key, const char *value)
{
    put(o, "TRACE_", 6);
    put(o, key, strlen(key));
    put(o, "::", 2);
    if (value)
        put(o, value, strlen(value));
}

static void put_num(struct out *o, const char *key, uint64_t v)
{
    char num[24];
    snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    put_pair(o, key, num);
}

static int value_ok(const char *v)
{
    size_t n = v ? strlen(v) : 0;
    return v == NULL || find_key((const unsigned char *)v, 0, n) == n;
}

/* The header's text with a pad of `pad` filler bytes into buf[0..cap-1]
 * (nothing if buf is NULL); returns its length.  m is valid. */
static size_t build(const struct trace_file_meta *m, char *buf, size_t cap, unsigned pad)
{
    struct out o = { buf, buf ? cap : 0, 0 };
    char filler[TRACE_FILE_PAD_MAX + 1];

    memset(filler, TRACE_FILE_PAD_BYTE, pad);
    filler[pad] = '\0';
    put(&o, BEGIN_TOKEN, sizeof BEGIN_TOKEN - 1);
    put_pair(&o, "FILE_NAME", m->file_name);
    put_pair(&o, "DATE", m->date);
    put_pair(&o, "VER_MAJOR", TRACE_FILE_VER_MAJOR);
    put_pair(&o, "VER_MINOR", TRACE_FILE_VER_MINOR);
    int big = m->order == TRACE_FILE_HOST_ORDER ? trace_file_host_big_endian()
                                                : m->order == TRACE_FILE_BIG_ENDIAN;
    put_pair(&o, big ? "BIG_ENDIAN" : "LITTLE_ENDIAN", "TRUE");
    put_pair(&o, "ENCODING", TRACE_FILE_ENCODING);
    put_pair(&o, "BOOT_DATE", m->boot_date);
    put_num(&o, "CYCLES_PER_SEC", m->cycles_per_sec);
    put_num(&o, "CPU_NUM", m->cpu_num);
    put_pair(&o, "SYSNAME", m->sysname);
    put_pair(&o, "NODENAME", m->nodename);
    put_pair(&o, "SYS_RELEASE", m->sys_release);
    put_pair(&o, "SYS_VERSION", m->sys_version);
    put_pair(&o, "MACHINE", m->machine);
    put_num(&o, "SYSPAGE_LEN", m->syspage_len);
    for (size_t i = 0; i < m->nextra; i++)
        put_pair(&o, m->extra[i].key, m->extra[i].value);
    put_pair(&o, TRACE_FILE_PAD_KEY, filler);
    put_pair(&o, END_KEY, NULL);
    return o.len;
}

/* The pad that lets QNX's stock parser read the header (0 if none does:
 * a value too long for its window, which no pad mends), or -1 (ENOMEM). */
static int stock_parser_pad(const struct trace_file_meta *m, size_t len0)
{
    size_t cap = len0 + TRACE_FILE_PAD_MAX;
    char *tmp = malloc(cap);
    int pad = 0;

    if (tmp == NULL)
        return -1;
    /* The window holding the pad key starts before it, wherever the pad's
     * value ends: of 13 lengths at most 12 put the window's end inside
     * the 12 bytes of HEADER_END:: (trace_file_qnx.c). */
    for (unsigned k = 0; k <= TRACE_FILE_PAD_MAX; k++) {
        size_t n = build(m, tmp, cap, k);
        if (trace_file_qnx_outcome(tmp, n, NULL) == TRACE_QNX_PARSED) {
            pad = (int)k;
            break;
        }
    }
    free(tmp);
    return pad;
}

int trace_file_header_build(const struct trace_file_meta *m, char *buf, size_t cap,
                            size_t *len)
{
    const char *text[] = { m ? m->file_name : NULL, m ? m->date : NULL,
                           m ? m->boot_date : NULL, m ? m->sysname : NULL,
                           m ? m->nodename : NULL, m ? m->sys_release : NULL,
                           m ? m->sys_version : NULL, m ? m->machine : NULL };

    if (m == NULL || len == NULL || m->cycles_per_sec == 0 || m->cpu_num < 1 ||
        m->cpu_num > SLOT_NCPUS || (m->syspage == NULL && m->syspage_len > 0) ||
        (m->extra == NULL && m->nextra > 0))
        return EINVAL;
    for (unsigned i = 0; i < sizeof text / sizeof text[0]; i++)
        if (!value_ok(text[i]))
            return EINVAL;
    for (size_t i = 0; i < m->nextra; i++) {
        const char *k = m->extra[i].key;
        size_t kn = k ? strlen(k) : 0;
        if (kn == 0 || is_std_key(k, kn) || !value_ok(m->extra[i].value))
            return EINVAL;
        for (size_t j = 0; j < kn; j++)
            if (!key_char((unsigned char)k[j]))
                return EINVAL;
    }

    size_t len0 = build(m, NULL, 0, 0);
    *len = len0;
    if (len0 > TRACE_FILE_HEADER_MAX || m->nextra + NSTD > TRACE_FILE_ATTRS_MAX)
        return EINVAL;     /* a reader would refuse it */
    int pad = stock_parser_pad(m, len0);
    if (pad < 0)
        return ENOMEM;
    if (len0 + (size_t)pad > TRACE_FILE_HEADER_MAX)
        pad = 0;           /* our readers' limit comes first */
    *len = build(m, buf, cap, (unsigned)pad);
    return *len <= cap ? 0 : ENOSPC;
}

void trace_file_slots_le(const traceevent_t *s, size_t n, unsigned char *out)
{
    for (size_t i = 0; i < n; i++) {
        const uint32_t w[4] = { s[i].header, s[i].data[0], s[i].data[1], s[i].data[2] };
        for (int j = 0; j < 4; j++, out += 4) {
            out[0] = (unsigned char)w[j];
            out[1] = (unsigned char)(w[j] >> 8);
            out[2] = (unsigned char)(w[j] >> 16);
            out[3] = (unsigned char)(w[j] >> 24);
        }
    }
}

int trace_file_write_header(FILE *f, const struct trace_file_meta *m)
{
    size_t len = 0;
    int rc = trace_file_header_build(m, NULL, 0, &len);
    if (rc != 0 && rc != ENOSPC)
        return rc;
    if (f == NULL)
        return EINVAL;
    char *buf = malloc(len);
    if (buf == NULL)
        return ENOMEM;
    rc = trace_file_header_build(m, buf, len, &len);
    if (rc == 0 && (fwrite(buf, 1, len, f) != len ||
                    (m->syspage_len > 0 &&
                     fwrite(m->syspage, 1, m->syspage_len, f) != m->syspage_len)))
        rc = EIO;
    free(buf);
    return rc;
}

/* ---- parsing ------------------------------------------------------------------ */

/* A message without a rule (I/O errors), when the caller wants one. */
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
}

static int fail(char *err, size_t errlen, int rc, uint64_t offset, const char *fmt, ...)
{
    if (err && errlen > 0) {
        int n = snprintf(err, errlen, "offset %llu: KSP-25: ", (unsigned long long)offset);
        if (n >= 0 && (size_t)n < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return rc;
}

/* A value for a message: at most 40 characters, non-printables as '?'. */
static const char *shown(const char *v, char *tmp, size_t n)
{
    size_t i = 0;
    for (; v[i] && i + 1 < n && i < 40; i++)
        tmp[i] = (v[i] >= 0x20 && v[i] < 0x7f) ? v[i] : '?';
    tmp[i] = '\0';
    return tmp;
}

/* A decimal number of at most 20 digits that fits 64 bits. */
static int decimal(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return -1;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return 0;
}

/* Checks attribute i (key k, value v at offset at) against KSP-23 and
 * takes what the reader needs from it. */
static int check_attr(struct trace_file_info *info, unsigned i, const char *k, const char *v,
                      uint64_t at, char *err, size_t errlen)
{
    char tmp[48];
    uint64_t num;

    if (i >= NSTD) {
        for (unsigned j = 0; j < i; j++)
            if (strcmp(trace_file_key(info, j), k) == 0)
                return fail(err, errlen, EINVAL, at, "malformed header: key TRACE_%s:: "
                            "repeated", k);
        if (is_std_key(k, strlen(k)))
            return fail(err, errlen, EINVAL, at, "malformed header: key TRACE_%s:: "
                        "repeated or out of place (KSP-23 order)", k);
        return 0;
    }
    if (i == K_ENDIAN) {
        if (strcmp(k, "LITTLE_ENDIAN") == 0)
            info->big_endian = 0;
        else if (strcmp(k, "BIG_ENDIAN") == 0)
            info->big_endian = 1;
        else
            return fail(err, errlen, EINVAL, at, "malformed header: expected "
                        "TRACE_LITTLE_ENDIAN:: or TRACE_BIG_ENDIAN::, found TRACE_%s::", k);
        if (strcmp(v, "TRUE") != 0)
            return fail(err, errlen, EINVAL, at, "malformed header: TRACE_%s:: is \"%s\", "
                        "not TRUE", k, shown(v, tmp, sizeof tmp));
        info->swap = info->big_endian != trace_file_host_big_endian();
        return 0;
    }
    if (strcmp(k, std_keys[i]) != 0)
        return fail(err, errlen, EINVAL, at, "malformed header: expected TRACE_%s::, "
                    "found TRACE_%s:: (KSP-23 order)", std_keys[i], k);
    if (strcmp(k, "VER_MAJOR") == 0 && strcmp(v, TRACE_FILE_VER_MAJOR) != 0)
        return fail(err, errlen, ENOTSUP, at, "unknown version: TRACE_VER_MAJOR:: is "
                    "\"%s\" (this reader knows 1.01)", shown(v, tmp, sizeof tmp));
    if (strcmp(k, "VER_MINOR") == 0 && strcmp(v, TRACE_FILE_VER_MINOR) != 0)
        return fail(err, errlen, ENOTSUP, at, "unknown version: TRACE_VER_MINOR:: is "
                    "\"%s\" (this reader knows 1.01)", shown(v, tmp, sizeof tmp));
    if (strcmp(k, "ENCODING") == 0 && strcmp(v, TRACE_FILE_ENCODING) != 0)
        return fail(err, errlen, ENOTSUP, at, "unknown encoding \"%s\" (this reader knows "
                    "\"" TRACE_FILE_ENCODING "\")", shown(v, tmp, sizeof tmp));
    if (strcmp(k, "CYCLES_PER_SEC") == 0) {
        if (decimal(v, &num) != 0 || num == 0)
            return fail(err, errlen, EINVAL, at, "malformed header: TRACE_CYCLES_PER_SEC:: "
                        "\"%s\" is not a positive decimal number", shown(v, tmp, sizeof tmp));
        info->cycles_per_sec = num;
    }
    if (strcmp(k, "CPU_NUM") == 0) {
        if (decimal(v, &num) != 0 || num < 1 || num > SLOT_NCPUS)
            return fail(err, errlen, EINVAL, at, "malformed header: TRACE_CPU_NUM:: \"%s\" "
                        "is not a number of CPUs from 1 to 64", shown(v, tmp, sizeof tmp));
        info->cpu_num = (unsigned)num;
    }
    if (strcmp(k, "SYSPAGE_LEN") == 0) {
        if (decimal(v, &num) != 0)
            return fail(err, errlen, EINVAL, at, "malformed header: TRACE_SYSPAGE_LEN:: "
                        "\"%s\" is not a decimal number", shown(v, tmp, sizeof tmp));
        info->syspage_len = num;
    }
    return 0;
}

int trace_file_parse(const void *buf, size_t len, uint64_t file_len,
                     struct trace_file_info *info, char *err, size_t errlen)
{
    const unsigned char *p = buf;
    size_t limit = len < TRACE_FILE_HEADER_MAX ? len : TRACE_FILE_HEADER_MAX;
    size_t pos, used = 0;
    uint64_t syspage_at = 0;
    int ended = 0;

    if (err && errlen)
        err[0] = '\0';
    if (info == NULL || (buf == NULL && len > 0) || len > file_len) {
        say(err, errlen, "trace_file_parse: bad arguments");
        return EINVAL;
    }
    memset(info, 0, offsetof(struct trace_file_info, text));
    info->text[0] = '\0';
    info->file_len = file_len;

    if (limit < sizeof BEGIN_TOKEN - 1 || memcmp(p, BEGIN_TOKEN, sizeof BEGIN_TOKEN - 1) != 0)
        return fail(err, errlen, EINVAL, 0, "no trace header (the file does not begin with "
                    BEGIN_TOKEN ")");
    pos = sizeof BEGIN_TOKEN - 1;
    for (;;) {
        size_t tok = key_token(p + pos, limit - pos);
        if (tok == 0) {
            if (find_key(p, pos, limit) == limit)
                break;      /* the header is not terminated: below */
            return fail(err, errlen, EINVAL, pos, "malformed header: expected "
                        "TRACE_<KEY>::");
        }
        const char *key = (const char *)p + pos + 6;
        size_t keylen = tok - 8;
        if (keylen == sizeof END_KEY - 1 && memcmp(key, END_KEY, keylen) == 0) {
            pos += tok;
            ended = 1;
            break;
        }
        if (keylen == 12 && memcmp(key, "HEADER_BEGIN", 12) == 0)
            return fail(err, errlen, EINVAL, pos, "malformed header: TRACE_HEADER_BEGIN:: "
                        "repeated");
        size_t vstart = pos + tok, vend = find_key(p, vstart, limit);
        if (vend == limit)
            break;
        if (keylen == sizeof TRACE_FILE_PAD_KEY - 1 &&
            memcmp(key, TRACE_FILE_PAD_KEY, keylen) == 0) {
            pos = vend;     /* the writer's padding for stock parsers: no attribute */
            continue;
        }
        if (memchr(p + vstart, '\0', vend - vstart) != NULL)
            return fail(err, errlen, EINVAL, vstart, "malformed header: a NUL byte in the "
                        "value of TRACE_%.*s::", (int)keylen, key);
        if (info->nattrs == TRACE_FILE_ATTRS_MAX)
            return fail(err, errlen, EINVAL, pos, "malformed header: more than %d keys",
                        TRACE_FILE_ATTRS_MAX);
        /* Key and value, each with a NUL, take less room than their token
         * and value did, so text never overflows. */
        unsigned i = info->nattrs++;
        info->key_at[i] = (uint16_t)used;
        memcpy(info->text + used, key, keylen);
        info->text[used + keylen] = '\0';
        used += keylen + 1;
        info->value_at[i] = (uint16_t)used;
        memcpy(info->text + used, p + vstart, vend - vstart);
        info->text[used + (vend - vstart)] = '\0';
        used += vend - vstart + 1;
        if (i == NSTD - 1)
            syspage_at = pos;
        int rc = check_attr(info, i, trace_file_key(info, i), trace_file_value_at(info, i),
                            pos, err, errlen);
        if (rc != 0)
            return rc;
        pos = vend;
    }
    if (!ended && len < TRACE_FILE_HEADER_MAX && len == file_len)
        return fail(err, errlen, EINVAL, len, "header not terminated: the file ends before "
                    "TRACE_HEADER_END::");
    if (!ended)
        return fail(err, errlen, EINVAL, limit, "header not terminated: no "
                    "TRACE_HEADER_END:: in the first %zu bytes", limit);
    if (info->nattrs < NSTD)
        return fail(err, errlen, EINVAL, pos - (sizeof "TRACE_" END_KEY "::" - 1),
                    "malformed header: TRACE_%s:: missing before TRACE_HEADER_END::",
                    info->nattrs == K_ENDIAN ? "LITTLE_ENDIAN" : std_keys[info->nattrs]);
    info->header_len = pos;
    if (info->syspage_len > file_len - pos)
        return fail(err, errlen, EINVAL, syspage_at, "TRACE_SYSPAGE_LEN:: %llu runs past the "
                    "end of the file: %llu bytes follow the header, which ends at offset %llu",
                    (unsigned long long)info->syspage_len,
                    (unsigned long long)(file_len - pos), (unsigned long long)pos);
    info->slots_offset = pos + info->syspage_len;
    info->nslots = (file_len - info->slots_offset) / sizeof(traceevent_t);
    info->cut_bytes = (unsigned)((file_len - info->slots_offset) % sizeof(traceevent_t));
    return 0;
}

int trace_file_read_header(int fd, struct trace_file_info *info, char *err, size_t errlen)
{
    struct stat st;
    unsigned char *buf;
    size_t want, got = 0;
    int rc;

    if (fstat(fd, &st) != 0) {
        rc = errno;
        say(err, errlen, "cannot stat the file: %s", strerror(rc));
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        say(err, errlen, "not a regular file");
        return EINVAL;
    }
    want = (uint64_t)st.st_size < TRACE_FILE_HEADER_MAX ? (size_t)st.st_size
                                                        : TRACE_FILE_HEADER_MAX;
    if ((buf = malloc(want ? want : 1)) == NULL)
        return ENOMEM;
    while (got < want) {
        ssize_t n = pread(fd, buf + got, want - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = errno;
            say(err, errlen, "offset %zu: read error: %s", got, strerror(rc));
            free(buf);
            return rc;
        }
        if (n == 0)
            break;      /* shrank meanwhile: what there is is the file */
        got += (size_t)n;
    }
    rc = trace_file_parse(buf, got, got < want ? got : (uint64_t)st.st_size, info, err,
                          errlen);
    free(buf);
    return rc;
}

const char *trace_file_key(const struct trace_file_info *info, unsigned i)
{
    return i < info->nattrs ? info->text + info->key_at[i] : NULL;
}

const char *trace_file_value_at(const struct trace_file_info *info, unsigned i)
{
    return i < info->nattrs ? info->text + info->value_at[i] : NULL;
}

const char *trace_file_value(const struct trace_file_info *info, const char *key)
{
    for (unsigned i = 0; i < info->nattrs; i++)
        if (strcmp(info->text + info->key_at[i], key) == 0)
            return info->text + info->value_at[i];
    return NULL;
}

/* ---- slots -------------------------------------------------------------------- */

/* A word stored in the given byte order (the compiler makes these one load,
 * byte-swapped or not). */
static inline uint32_t load32(const unsigned char *p, int big_endian)
{
    if (big_endian)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* k slots from bytes in the given byte order; big_endian is a constant at
 * each call, so that each loop compiles to plain loads and swaps. */
static inline void swap_in(traceevent_t *out, const unsigned char *p, size_t k, int big_endian)
{
    for (size_t i = 0; i < k; i++, p += sizeof(traceevent_t)) {
        out[i].header = load32(p, big_endian);
        out[i].data[0] = load32(p + 4, big_endian);
        out[i].data[1] = load32(p + 8, big_endian);
        out[i].data[2] = load32(p + 12, big_endian);
    }
}

#define CHUNK_SLOTS 256

void trace_file_feed(const struct trace_file_info *info, struct slot_decoder *d,
                     const void *bytes, size_t n, uint64_t offset)
{
    traceevent_t chunk[CHUNK_SLOTS];
    const unsigned char *p = bytes;
    size_t left = n / sizeof(traceevent_t);

    /* Copied, not cast: the bytes may sit at any alignment. */
    while (left > 0) {
        size_t k = left < CHUNK_SLOTS ? left : CHUNK_SLOTS;
        if (!info->swap) {
            memcpy(chunk, p, k * sizeof(traceevent_t));
        } else if (info->big_endian) {
            swap_in(chunk, p, k, 1);
        } else {
            swap_in(chunk, p, k, 0);
        }
        slot_decoder_feed(d, chunk, k, offset);
        p += k * sizeof(traceevent_t);
        offset += k * sizeof(traceevent_t);
        left -= k;
    }
}

int trace_file_decode(const void *file, size_t len, struct slot_decoder *d,
                      struct trace_file_info *info, char *err, size_t errlen)
{
    int rc = trace_file_parse(file, len, len, info, err, errlen);
    if (rc != 0)
        return rc;
    uint64_t whole = info->nslots * sizeof(traceevent_t);
    trace_file_feed(info, d, (const unsigned char *)file + info->slots_offset, (size_t)whole,
                    info->slots_offset);
    if (info->cut_bytes)
        slot_decoder_report_cut(d, info->slots_offset + whole, info->cut_bytes);
    slot_decoder_finish(d);
    return 0;
}

#define FD_CHUNK (4096 * sizeof(traceevent_t))     /* 64 KiB */

int trace_file_decode_fd(int fd, struct slot_decoder *d, struct trace_file_info *info,
                         char *err, size_t errlen)
{
    int rc = trace_file_read_header(fd, info, err, errlen);
    if (rc != 0)
        return rc;
    unsigned char *buf = malloc(FD_CHUNK);
    if (buf == NULL)
        return ENOMEM;
    uint64_t at = info->slots_offset;       /* file offset of buf[0] */
    size_t have = 0;                        /* bytes in buf */
    for (;;) {
        ssize_t n = pread(fd, buf + have, FD_CHUNK - have, (off_t)(at + have));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = errno;
            say(err, errlen, "offset %llu: read error: %s", (unsigned long long)(at + have),
                strerror(rc));
            break;
        }
        if (n == 0)
            break;
        have += (size_t)n;
        if (have == FD_CHUNK) {
            trace_file_feed(info, d, buf, have, at);
            at += have;
            have = 0;
        }
    }
    /* What is left: whole slots, then perhaps a cut one (KSP-25).  The file
     * is what could be read, whatever fstat said. */
    size_t whole = have - have % sizeof(traceevent_t);
    trace_file_feed(info, d, buf, whole, at);
    info->nslots = (at + whole - info->slots_offset) / sizeof(traceevent_t);
    info->cut_bytes = (unsigned)(have - whole);
    info->file_len = at + have;
    if (rc == 0 && info->cut_bytes)
        slot_decoder_report_cut(d, at + whole, info->cut_bytes);
    slot_decoder_finish(d);
    free(buf);
    return rc;
}
