/* SPDX-License-Identifier: MIT */
/*
 * export_ctf.c -- a trace as CTF 1.8 (https://diamon.org/ctf/v1.8.3/), the
 * Common Trace Format that babeltrace2 and Trace Compass read: a folder with
 * the TSDL text "metadata" and one binary stream file per CPU of a kernel
 * trace ("cpu0", "cpu1"...) or one for a POSIX trace log ("stream"), each
 * one packet.
 *
 * Layout (little-endian, every field byte-aligned):
 *   packet header   uint32 magic 0xc1fc1fc1
 *   packet context  uint64 content_size, packet_size (bits), uint32 cpu_id
 *   event header    uint32 id, uint64 timestamp (ticks of the clock "trace_clock",
 *                   whose freq is the file's cycles per second; ns for a log)
 *   event context   int32 cpu (-1 unknown), int64 pid, int64 tid (-1 unknown)
 *   payload         kernel: each named argument of tracedump (uint64, or a
 *                   string), then uint32 nwords, uint32 words[nwords];
 *                   POSIX: uint64 prog, uint8 truncated, uint32 len, uint8 data[len]
 *
 * One event class per event name and argument layout, made as the events
 * come (so memory is bounded by the distinct classes, at most MAX_CLASSES):
 * the metadata is written last, when they are all known.  Field names start
 * with '_' so that no argument name can be a TSDL keyword ("string");
 * readers drop that underscore (CTF 1.8 section 4.1.14).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "dump/export.h"

#define CTF_MAGIC     0xc1fc1fc1u
#define PACKET_BYTES  24u           /* header and context */
#define MAX_CLASSES   65536u
#define NSTREAMS      (SLOT_NCPUS + 1)

struct ctf_class {
    char *key;                  /* name, 0x1f, the layout of its arguments */
    char *fields;               /* its TSDL payload declaration */
};

struct ctf {
    const struct export_source *src;
    FILE *stream[NSTREAMS];
    uint64_t bytes[NSTREAMS];
    uint64_t last_time[NSTREAMS];   /* the stream's latest timestamp written */
    struct ctf_class *classes;
    uint32_t nclasses, cap;
    uint32_t *hash;             /* class index + 1, 0 empty; hcap entries */
    uint32_t hcap;
};

static void put_u8(unsigned char **p, unsigned v) { *(*p)++ = (unsigned char)v; }
static void put_u32(unsigned char **p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        put_u8(p, (v >> (8 * i)) & 0xff);
}
static void put_u64(unsigned char **p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        put_u8(p, (unsigned)(v >> (8 * i)) & 0xff);
}

static int say(char *err, size_t errlen, int rc, const char *what, const char *path)
{
    snprintf(err, errlen, "%s %s: %s", what, path, strerror(rc));
    return rc;
}

static int ctf_begin(void **state, const struct export_source *src, char *err, size_t errlen)
{
    struct stat st;
    if (src->dir == NULL || src->dir[0] == '\0') {
        snprintf(err, errlen, "--ctf needs a folder");
        return EINVAL;
    }
    if (mkdir(src->dir, 0777) != 0 && errno != EEXIST)
        return say(err, errlen, errno, "cannot create the folder", src->dir);
    if (stat(src->dir, &st) != 0)
        return say(err, errlen, errno, "cannot use the folder", src->dir);
    if (!S_ISDIR(st.st_mode))
        return say(err, errlen, ENOTDIR, "cannot use the folder", src->dir);
    struct ctf *c = calloc(1, sizeof *c);
    if (c == NULL)
        return say(err, errlen, ENOMEM, "cannot write", src->dir);
    c->src = src;
    *state = c;
    return 0;
}

static uint32_t fnv(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int grow_hash(struct ctf *c)
{
    uint32_t cap = c->hcap ? 2 * c->hcap : 256;
    uint32_t *h = calloc(cap, sizeof *h);
    if (h == NULL)
        return ENOMEM;
    for (uint32_t i = 0; i < c->nclasses; i++) {
        uint32_t at = fnv(c->classes[i].key) & (cap - 1);
        while (h[at])
            at = (at + 1) & (cap - 1);
        h[at] = i + 1;
    }
    free(c->hash);
    c->hash = h;
    c->hcap = cap;
    return 0;
}

/* The layout of an event's arguments, and their TSDL declaration. */
static void layout(const struct export_event *ev, char *key, size_t keylen, char *fields,
                   size_t flen)
{
    size_t k = (size_t)snprintf(key, keylen, "%s.%s\x1f", ev->class_name, ev->name), f = 0;
    if (ev->d == NULL) {
        snprintf(key + k, keylen - k, "posix");
        snprintf(fields, flen, "uint64_hex_t _prog; uint8_t _truncated; uint32_t _len; "
                 "uint8_t _data[_len];");
        return;
    }
    for (unsigned i = 0; i < ev->d->nargs && k < keylen && f < flen; i++) {
        const struct dump_arg *a = &ev->d->args[i];
        k += (size_t)snprintf(key + k, keylen - k, "%s:%c,", a->key,
                              a->is_str ? 's' : a->hex ? 'x' : 'n');
        f += (size_t)snprintf(fields + f, flen - f, "%s _%s; ",
                              a->is_str ? "string" : a->hex ? "uint64_hex_t" : "uint64_t", a->key);
    }
    if (f < flen)
        snprintf(fields + f, flen - f, "uint32_t _nwords; uint32_t _words[_nwords];");
}

/* The id of the event's class, made if new: 0 and *id, or an error number. */
static int class_of(struct ctf *c, const struct export_event *ev, uint32_t *id)
{
    char key[1024], fields[1024];
    layout(ev, key, sizeof key, fields, sizeof fields);
    if (c->nclasses * 2 >= c->hcap && grow_hash(c) != 0)
        return ENOMEM;
    uint32_t at = fnv(key) & (c->hcap - 1);
    for (; c->hash[at]; at = (at + 1) & (c->hcap - 1)) {
        if (strcmp(c->classes[c->hash[at] - 1].key, key) == 0) {
            *id = c->hash[at] - 1;
            return 0;
        }
    }
    if (c->nclasses >= MAX_CLASSES)
        return E2BIG;
    if (c->nclasses == c->cap) {
        uint32_t cap = c->cap ? 2 * c->cap : 64;
        struct ctf_class *n = realloc(c->classes, cap * sizeof *n);
        if (n == NULL)
            return ENOMEM;
        c->classes = n;
        c->cap = cap;
    }
    struct ctf_class *k = &c->classes[c->nclasses];
    if ((k->key = strdup(key)) == NULL || (k->fields = strdup(fields)) == NULL) {
        free(k->key);
        return ENOMEM;
    }
    c->hash[at] = ++c->nclasses;
    *id = c->nclasses - 1;
    return 0;
}

static FILE *stream_of(struct ctf *c, unsigned s, char *err, size_t errlen, int *rc)
{
    if (c->stream[s])
        return c->stream[s];
    char path[4096], name[16];
    if (c->src->posix)
        snprintf(name, sizeof name, "stream");
    else
        snprintf(name, sizeof name, "cpu%u", s);
    snprintf(path, sizeof path, "%s/%s", c->src->dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        *rc = say(err, errlen, errno, "cannot write", path);
        return NULL;
    }
    unsigned char buf[PACKET_BYTES], *p = buf;
    put_u32(&p, CTF_MAGIC);
    put_u64(&p, 0);             /* the sizes, written at the end */
    put_u64(&p, 0);
    put_u32(&p, c->src->posix ? 0 : s);
    fwrite(buf, 1, sizeof buf, f);
    c->stream[s] = f;
    c->bytes[s] = PACKET_BYTES;
    return f;
}

static int ctf_event(void *state, const struct export_event *ev, char *err, size_t errlen)
{
    struct ctf *c = state;
    uint32_t id;
    int rc = class_of(c, ev, &id);
    if (rc == E2BIG) {
        snprintf(err, errlen, "more than %u distinct event classes: not written as CTF",
                 MAX_CLASSES);
        return rc;
    }
    if (rc) {
        snprintf(err, errlen, "out of memory");
        return rc;
    }
    unsigned s = c->src->posix ? 0 : (unsigned)ev->cpu;
    FILE *f = stream_of(c, s, err, errlen, &rc);
    if (f == NULL)
        return rc;
    unsigned char buf[32 + 8 * DUMP_MAX_ARGS], *p = buf;
    /* A CTF stream's timestamps do not go back, but an event may be stamped
     * before the previous one of its CPU: the rest of a combine event begun
     * in an overwritten buffer carries its CB's time, from before the
     * buffer's TIME events (KSP-14).  It is written at its stream's latest
     * time, in its place; tracedump shows its own time. */
    uint64_t time = ev->time > c->last_time[s] ? ev->time : c->last_time[s];
    c->last_time[s] = time;
    put_u32(&p, id);
    put_u64(&p, time);
    put_u32(&p, (uint32_t)(int32_t)ev->cpu);
    put_u64(&p, ev->has_thread ? ev->pid : UINT64_MAX);
    put_u64(&p, ev->has_thread ? ev->tid : UINT64_MAX);
    uint64_t n = (uint64_t)(p - buf);
    fwrite(buf, 1, (size_t)(p - buf), f);
    if (ev->d == NULL) {
        p = buf;
        put_u64(&p, ev->prog);
        put_u8(&p, ev->truncated != 0);
        put_u32(&p, ev->len);
        fwrite(buf, 1, (size_t)(p - buf), f);
        fwrite(ev->data, 1, ev->len, f);
        n += (uint64_t)(p - buf) + ev->len;
    } else {
        for (unsigned i = 0; i < ev->d->nargs; i++) {
            const struct dump_arg *a = &ev->d->args[i];
            if (a->is_str) {
                size_t l = strlen(a->str) + 1;
                fwrite(a->str, 1, l, f);
                n += l;
            } else {
                p = buf;
                put_u64(&p, a->num);
                fwrite(buf, 1, 8, f);
                n += 8;
            }
        }
        p = buf;
        put_u32(&p, ev->nwords);
        fwrite(buf, 1, 4, f);
        for (uint32_t i = 0; i < ev->nwords; i++) {
            p = buf;
            put_u32(&p, ev->words[i]);
            fwrite(buf, 1, 4, f);
        }
        n += 4 + 4 * (uint64_t)ev->nwords;
    }
    c->bytes[s] += n;
    return 0;
}

/* A TSDL string literal of s: quotes and backslashes escaped, bytes that are
 * not printable ASCII as '?'. */
static void tsdl_str(FILE *f, const char *s, const char *end)
{
    fputc('"', f);
    for (; *s && s != end; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else
            fputc(ch >= 0x20 && ch < 0x7f ? ch : '?', f);
    }
    fputc('"', f);
}

static int write_metadata(struct ctf *c, const struct export_source *src, char *err,
                          size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/metadata", src->dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return say(err, errlen, errno, "cannot write", path);
    fprintf(f, "/* CTF 1.8 */\n\n"
            "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
            "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
            "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
            "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
            "typealias integer { size = 64; align = 8; signed = false; base = 16; } "
            ":= uint64_hex_t;\n"
            "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n"
            "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
            "\tpacket.header := struct { uint32_t magic; };\n};\n\n"
            "env {\n\tdomain = \"posixtrace\";\n\ttracer_name = \"posixtrace tracedump\";\n"
            "\ttrace_kind = \"%s\";\n\tsource_file = ", src->posix ? "posix-log" : "kernel");
    tsdl_str(f, src->name, NULL);
    fprintf(f, ";\n};\n\n"
            "clock {\n\tname = trace_clock;\n\tdescription = \"%s\";\n"
            "\tfreq = %" PRIu64 ";\n\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n"
            "\tabsolute = %s;\n};\n\n"
            "typealias integer { size = 64; align = 8; signed = false; "
            "map = clock.trace_clock.value; } := clock_t;\n\n"
            "stream {\n\tpacket.context := struct { uint64_t content_size; "
            "uint64_t packet_size; uint32_t cpu_id; };\n"
            "\tevent.header := struct { uint32_t id; clock_t timestamp; };\n"
            "\tevent.context := struct { int32_t cpu; int64_t pid; int64_t tid; };\n};\n",
            src->posix ? "CLOCK_REALTIME of the POSIX trace log, ns since the Epoch"
                       : "the trace file's cycle counter (TRACE_CYCLES_PER_SEC)",
            src->freq, src->posix ? "true" : "false");
    for (uint32_t i = 0; i < c->nclasses; i++) {
        fputs("\nevent {\n\tname = ", f);
        tsdl_str(f, c->classes[i].key, strchr(c->classes[i].key, '\x1f'));
        fprintf(f, ";\n\tid = %" PRIu32 ";\n\tfields := struct { %s };\n};\n", i,
                c->classes[i].fields);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return say(err, errlen, errno ? errno : EIO, "cannot write", path);
    return 0;
}

static int ctf_end(void *state, const struct export_source *src, int failed, char *err,
                   size_t errlen)
{
    struct ctf *c = state;
    int rc = 0;
    for (unsigned s = 0; s < NSTREAMS; s++) {
        FILE *f = c->stream[s];
        if (f == NULL)
            continue;
        unsigned char buf[16], *p = buf;
        put_u64(&p, c->bytes[s] * 8);
        put_u64(&p, c->bytes[s] * 8);
        int bad = fseeko(f, 4, SEEK_SET) != 0 || fwrite(buf, 1, 16, f) != 16 || ferror(f);
        if ((fclose(f) != 0 || bad) && rc == 0 && !failed) {
            rc = say(err, errlen, errno ? errno : EIO, "cannot write the streams of",
                     src->dir);
        }
    }
    if (rc == 0 && !failed)
        rc = write_metadata(c, src, err, errlen);
    for (uint32_t i = 0; i < c->nclasses; i++) {
        free(c->classes[i].key);
        free(c->classes[i].fields);
    }
    free(c->classes);
    free(c->hash);
    free(c);
    return rc;
}

const struct export_writer export_ctf_writer = { ctf_begin, NULL, ctf_event, ctf_end };
