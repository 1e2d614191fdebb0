/*
 * trace_file.h -- the kernel trace file (KSP-23..25): its text header and
 * system page, written and parsed, and the feeding of its slots, in the
 * file's byte order, to a slot decoder (slot_codec.h).
 *
 * A file is: the header text `TRACE_HEADER_BEGIN::TRACE_FILE_NAME::...
 * TRACE_HEADER_END::` (keys back to back, no separator), SYSPAGE_LEN bytes
 * of system page, then slots of 16 bytes.  The writer writes the host's
 * byte order and declares it; the reader takes either.
 *
 * Errors are values: 0, or an error number, with a one-line message of the
 * form "offset N: KSP-25: what is wrong" in the caller's err buffer.
 */
#ifndef POSIXTRACE_TRACE_FILE_H
#define POSIXTRACE_TRACE_FILE_H

#include <stdint.h>
#include <stdio.h>
#include "slot/slot_codec.h"

#define TRACE_FILE_HEADER_MAX  16384    /* header text a reader accepts, bytes */
#define TRACE_FILE_ATTRS_MAX   64       /* key/value pairs, BEGIN and END not counted */

/* The fixed values of this version of the format (KSP-23). */
#define TRACE_FILE_VER_MAJOR   "1"
#define TRACE_FILE_VER_MINOR   "01"
#define TRACE_FILE_ENCODING    "16 byte events"

/* An extra attribute: key without the TRACE_ prefix ([A-Z0-9_]+), value. */
struct trace_file_attr {
    const char *key;
    const char *value;
};

/* What the caller gives the writer; a NULL string is written empty. */
struct trace_file_meta {
    const char *file_name;
    const char *date;
    const char *boot_date;
    uint64_t cycles_per_sec;        /* > 0 */
    unsigned cpu_num;               /* 1-64 */
    const char *sysname, *nodename, *sys_release, *sys_version, *machine;
    const void *syspage;            /* syspage_len bytes (NULL if 0) */
    size_t syspage_len;
    const struct trace_file_attr *extra;    /* written after SYSPAGE_LEN */
    size_t nextra;
    int order;      /* the byte order the header declares: TRACE_FILE_HOST_ORDER
                     * (0), or the writer's fixed one: TRACE_FILE_LITTLE_ENDIAN */
};

#define TRACE_FILE_HOST_ORDER     0
#define TRACE_FILE_LITTLE_ENDIAN  1
#define TRACE_FILE_BIG_ENDIAN     2

/* Writes the header text (without the system page) into buf[0..cap-1].
 * *len is set to its length, also when it does not fit.  0; ENOSPC (too
 * small, nothing useful in buf); EINVAL: cycles_per_sec 0, cpu_num out of
 * 1-64, an extra key not of [A-Z0-9_]+ or one of the standard keys, a value
 * that holds something a reader would take for a key (TRACE_<KEY>::), or a
 * header longer than TRACE_FILE_HEADER_MAX. */
int trace_file_header_build(const struct trace_file_meta *m, char *buf, size_t cap,
                            size_t *len);

/* 1 if this host stores integers big-endian (the order a header declares
 * with TRACE_FILE_HOST_ORDER, and what the writers of little-endian files
 * convert from), else 0. */
int trace_file_host_big_endian(void);

/* n slots as the little-endian bytes of a file (n * 16 bytes at out), whatever
 * the host's order: the simulator's .kev files and the trace logs are the
 * same bytes on every host. */
void trace_file_slots_le(const traceevent_t *s, size_t n, unsigned char *out);

/* Writes the header and the system page to f.  0, an error of
 * trace_file_header_build, ENOMEM, or EIO if f refuses the bytes. */
int trace_file_write_header(FILE *f, const struct trace_file_meta *m);

/* A parsed header. */
struct trace_file_info {
    int big_endian;             /* the file's byte order */
    int swap;                   /* it differs from the host's */
    uint64_t cycles_per_sec;
    unsigned cpu_num;
    uint64_t header_len;        /* bytes of header text: the system page's offset */
    uint64_t syspage_len;
    uint64_t slots_offset;      /* offset of the first slot */
    uint64_t file_len;
    uint64_t nslots;            /* whole slots in the file */
    unsigned cut_bytes;         /* bytes of a last slot cut short (0-15) */
    unsigned nattrs;            /* key/value pairs, standard keys first */
    uint16_t key_at[TRACE_FILE_ATTRS_MAX];      /* offsets into text */
    uint16_t value_at[TRACE_FILE_ATTRS_MAX];
    char text[TRACE_FILE_HEADER_MAX];           /* keys and values, NUL-terminated */
};

/* Parses the header of a file of file_len bytes whose first len bytes are
 * in buf (the whole file, or at least its header).  0; EINVAL: no header,
 * a malformed one (keys out of the order of KSP-23, a key missing or
 * repeated, a bad number, no TRACE_HEADER_END:: in the first
 * TRACE_FILE_HEADER_MAX bytes), or SYSPAGE_LEN past the end of the file;
 * ENOTSUP: an unknown version or encoding.  A last slot cut short is not an
 * error here: info->cut_bytes says so. */
int trace_file_parse(const void *buf, size_t len, uint64_t file_len,
                     struct trace_file_info *info, char *err, size_t errlen);

/* The same from a file descriptor (regular file), reading at most
 * TRACE_FILE_HEADER_MAX bytes.  Also EIO or errno of fstat/pread. */
int trace_file_read_header(int fd, struct trace_file_info *info, char *err, size_t errlen);

/* Attribute i (0 <= i < nattrs): key (without TRACE_) and value. */
const char *trace_file_key(const struct trace_file_info *info, unsigned i);
const char *trace_file_value_at(const struct trace_file_info *info, unsigned i);
/* The value of key, or NULL. */
const char *trace_file_value(const struct trace_file_info *info, const char *key);

/* Feeds the whole slots of bytes[0..n-1], which sit at byte offset `offset`
 * of the file, to d in host order (n % 16 trailing bytes are ignored). */
void trace_file_feed(const struct trace_file_info *info, struct slot_decoder *d,
                     const void *bytes, size_t n, uint64_t offset);

/* Decodes a whole file in memory: parses its header (errors as
 * trace_file_parse: nothing is fed), feeds every whole slot, reports a last
 * slot cut short through d (KSP-25), then calls slot_decoder_finish. */
int trace_file_decode(const void *file, size_t len, struct slot_decoder *d,
                      struct trace_file_info *info, char *err, size_t errlen);

/* The same from a file descriptor, in bounded memory (64 KiB at a time).
 * A read error after the header stops the decoding: the error number is
 * returned with a message, after what was read has been decoded. */
int trace_file_decode_fd(int fd, struct slot_decoder *d, struct trace_file_info *info,
                         char *err, size_t errlen);

#endif /* POSIXTRACE_TRACE_FILE_H */
