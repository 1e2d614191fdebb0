/* SPDX-License-Identifier: MIT */
/*
 * <posixtrace_codec.h> -- the codec of the kernel slot protocol
 * (spec/kernel-slot-protocol.md, rules KSP-n): the encoder that turns an
 * event into 16-byte slots, the timestamps of KSP-9, the streaming decoder
 * that turns slots back into events (it rebuilds 64-bit times, reassembles
 * combine events across CPUs and buffers, and reports integrity errors
 * without ever stopping), and the kernel trace file (KSP-23..25): its
 * header written and parsed, and a whole file decoded.
 *
 * This is the reference's own codec, which its POSIX trace log, its kernel
 * simulator (<posixtrace_kernel.h>) and its dumper (<posixtrace_dump.h>)
 * use: reference/slot/SLOTS.md documents the choices made.  The slot, its
 * header word and the protocol's constants are <posixtrace_slot.h>'s.
 *
 * Slots handled here are in host byte order; the trace file functions
 * convert a file's byte order.  Nothing here has global state: a decoder or
 * a clock is an object of the caller's, used by one thread at a time.
 * Errors are values: 0 or an error number; the file functions also write a
 * one-line message "offset N: KSP-25: what is wrong" into the caller's err
 * buffer (err may be NULL).
 */
#ifndef POSIXTRACE_CODEC_H
#define POSIXTRACE_CODEC_H

#include <posixtrace_api.h>
#include <posixtrace_slot.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

__POSIXTRACE_BEGIN_API

/* ---- classes ---------------------------------------------------------------
 * Internal class codes as numbers (bits 14-10 of the header, not shifted):
 * the codec takes and gives these; the _TRACE_*_C constants of
 * <posixtrace_slot.h> are the same values shifted left by 10. */
enum slot_class {
    SLOT_CLASS_EMPTY = 0, SLOT_CLASS_CONTROL, SLOT_CLASS_KER_CALL, SLOT_CLASS_INT,
    SLOT_CLASS_PR_TH, SLOT_CLASS_SYSTEM, SLOT_CLASS_USER, SLOT_CLASS_COMM,
    SLOT_NCLASSES           /* 8: codes 8-31 are reserved (KSP-5) */
};

#define SLOT_NCPUS    _TRACE_MAX_CPUS   /* 64 */
#define SLOT_CPU_MAX  (SLOT_NCPUS - 1)

/* What identifies one event's slots (KSP-13): all the slots of a combine
 * event carry the same CPU, class, event and timestamp low word. */
struct slot_key {
    unsigned cpu;       /* 0-63; more is ERANGE (KSP-4) */
    unsigned cls;       /* enum slot_class, 0-7; more is EINVAL */
    unsigned event;     /* masked to 10 bits (KSP-4) */
    uint32_t ts_low;    /* low word of the 64-bit timestamp (KSP-3) */
};

/* A header word: flag is a _TRACE_STRUCT_* value; cpu, cls and event are
 * masked to their fields. */
static inline uint32_t slot_header(uint32_t flag, unsigned cpu, unsigned cls, unsigned event)
{
    return (flag & _TRACE_STRUCT_MASK) | ((uint32_t)(cpu & 0x3Fu) << 24) |
           ((uint32_t)(cls & 0x1Fu) << 10) | (event & _TRACE_EVENT_MASK);
}

/* ---- encoding (slot_encode.c) ---------------------------------------------- */

/* Slots taken by a payload of nwords 32-bit words: 1 up to two words (a
 * simple event, KSP-7), else ceil(nwords / 2) (a combine event, KSP-8). */
static inline size_t slot_count(size_t nwords)
{
    return nwords <= 2 ? 1 : nwords / 2 + (nwords & 1);
}

/* Slots taken by a payload of nbytes bytes, rounded up to words (KSP-10). */
static inline size_t slot_count_bytes(size_t nbytes)
{
    return slot_count(nbytes / 4 + (nbytes % 4 != 0));
}

/* Encodes an event whose payload is words[0..nwords-1] into out[0..cap-1]:
 * one S slot if nwords <= 2 (unused words 0), else CB, CC..., CE with two
 * words a slot, a lone last word padded with 0.  Every slot carries
 * key->ts_low in data[0].  On success *nslots is the number of slots
 * written.  Errors (nothing is written):
 *   ERANGE  key->cpu > 63 (KSP-4: refused, not wrapped)
 *   EINVAL  key->cls > 7 (a reserved class, KSP-5), or a NULL pointer
 *           (words may be NULL when nwords is 0)
 *   ENOSPC  cap is too small; *nslots is set to the number of slots needed */
int slot_encode_words(const struct slot_key *key, const uint32_t *words, size_t nwords,
                      traceevent_t *out, size_t cap, size_t *nslots);

/* The same with a payload of nbytes bytes, rounded up to whole words with
 * zero padding (KSP-10).  Word i is bytes 4i..4i+3 in little-endian order
 * (byte 4i is the least significant), whatever the host: "hell" is word
 * 0x6c6c6568.  A byte payload thus reads the same from a file of either
 * byte order once its words are in host order. */
int slot_encode_bytes(const struct slot_key *key, const void *bytes, size_t nbytes,
                      traceevent_t *out, size_t cap, size_t *nslots);

/* A string event (QNX's INSERTUSRSTREVENT, KSP-11): the string with its
 * NUL, 8 bytes a slot, zero-padded; one S slot up to 7 characters. */
int slot_encode_string(const struct slot_key *key, const char *str,
                       traceevent_t *out, size_t cap, size_t *nslots);

/* Maps an external class and code (KSP-6) to the internal class and event
 * code.  code is: the kernel call number k (0-127) for KERCALLENTER, EXIT
 * and INT; the thread event 0-25 (a state 0-23, create 24, destroy 25) for
 * THREAD and VTHREAD; one of 64, 128, 192, 256, 320 for PROCESS; 0-1023 for
 * CONTROL, USER, SYSTEM, COMM and EMPTY; ignored for the INT classes (the
 * vector goes in the data).  0, or EINVAL: an unknown class, a class that
 * names several events (KERCALL, INT), or a code out of its range. */
int slot_external_to_internal(int ext_class, unsigned code, unsigned *cls, unsigned *event);

/* ---- timestamps (KSP-9) ----------------------------------------------------
 * Gives each event of a CPU a timestamp of its own: the clock's value, or
 * the CPU's previous timestamp plus one when the clock has not moved (or has
 * gone back).  The slots of one combine event share one stamp. */
struct slot_clock {
    uint64_t last[SLOT_NCPUS];  /* last timestamp given, per CPU */
    uint64_t stamped;           /* bit c: CPU c has had a timestamp */
};

void slot_clock_init(struct slot_clock *c);

/* Sets *ts to the timestamp of a new event on cpu, the clock reading now.
 * If new_high is not NULL, *new_high is set to 1 when the high word differs
 * from that of the CPU's previous timestamp (its low word wrapped): the
 * kernel then emits a TIME event (KSP-17) so that decoders follow.  0, or
 * ERANGE for a CPU above 63 (nothing changes). */
int slot_clock_stamp(struct slot_clock *c, unsigned cpu, uint64_t now, uint64_t *ts,
                     int *new_high);

/* ---- decoding (slot_decode.c) ---------------------------------------------- */

/* An event as the decoder delivers it.  words (2 per slot, KSP-12) is valid
 * during the callback only. */
struct slot_event {
    uint64_t time;          /* 64-bit timestamp rebuilt per CPU (KSP-17) */
    uint64_t offset;        /* byte offset of the event's first slot */
    const uint32_t *words;  /* payload: data[1], data[2] of each slot in order */
    uint32_t nwords;        /* 2 * nslots */
    uint32_t nslots;        /* slots received */
    uint32_t header;        /* the first slot's header word (flag S or CB; CC or
                             * CE for the rest of an event begun before a buffer
                             * gap, delivered incomplete: KSP-14) */
    unsigned cpu;           /* 0-63 */
    unsigned cls;           /* enum slot_class, 0-7 */
    unsigned event;         /* 0-1023 */
    int combine;            /* 0: a simple event (S); 1: a combine event */
    int complete;           /* 0: a combine event abandoned or left open, or
                             * such a rest */
};

/* Integrity errors (KSP-5, KSP-14, KSP-25), each reported once. */
enum slot_error_kind {
    SLOT_ERR_RESERVED_CLASS,    /* KSP-5: class 8-31; the slot is ignored */
    SLOT_ERR_NO_OPEN_COMBINE,   /* KSP-14: CC or CE matching no open combine event */
    SLOT_ERR_NESTED_CB,         /* KSP-14: CB while the CPU's combine is open; the
                                 * open one is abandoned */
    SLOT_ERR_LEFT_OPEN,         /* KSP-14: combine event still open at the end */
    SLOT_ERR_HOLD_LIMIT,        /* KSP-14: combine event abandoned: too much held
                                 * back behind it (the memory bound) */
    SLOT_ERR_NO_MEMORY,         /* combine event abandoned: out of memory */
    SLOT_ERR_CUT_SLOT,          /* KSP-25: the trace's last slot is cut short */
    SLOT_NERROR_KINDS
};

struct slot_error {
    enum slot_error_kind kind;
    const char *rule;           /* "KSP-14"; "" for SLOT_ERR_NO_MEMORY */
    uint64_t offset;            /* the slot the error is about */
    uint64_t other_offset;      /* NESTED_CB: the open CB; HOLD_LIMIT: unused */
    uint32_t header;            /* that slot's header word */
    uint32_t ts_low;            /* its data[0] */
    uint32_t count;             /* LEFT_OPEN/HOLD_LIMIT/NESTED_CB: slots received of the
                                 * abandoned event; CUT_SLOT: bytes present */
};

/* Writes the one-line description of e, e.g.
 *   "offset 1234: KSP-14: CE matches no open combine event (cpu 1, class 6,
 *    event 12, time 0x0000abcd)"
 * into buf (snprintf rules: returns the length it needs). */
int slot_error_format(const struct slot_error *e, char *buf, size_t len);

/* Default bounds of what a decoder holds back behind an open combine event. */
#define SLOT_HELD_EVENTS_DEFAULT   65536u      /* events waiting */
#define SLOT_HELD_WORDS_DEFAULT    (1u << 20)  /* combine payload words (4 MiB) */

struct slot_decoder_config {
    /* Called for each event, in the order of their first slots (KSP-13).
     * NULL: events are counted only.  A callback must not feed the decoder. */
    void (*on_event)(void *user, const struct slot_event *ev);
    /* Called for each integrity error.  NULL: errors are counted only. */
    void (*on_error)(void *user, const struct slot_error *err);
    void *user;
    size_t max_held_events;     /* 0: SLOT_HELD_EVENTS_DEFAULT; at most 2^24 */
    size_t max_held_words;      /* 0: SLOT_HELD_WORDS_DEFAULT; at most 2^28 */
};

/* Totals of one decoding (slot_decoder_summary). */
struct slot_summary {
    uint64_t slots;                         /* slots fed */
    uint64_t events;                        /* events delivered */
    uint64_t events_per_cpu[SLOT_NCPUS];
    uint64_t events_per_class[SLOT_NCLASSES];
    uint64_t combine_events;                /* of which combine events */
    uint64_t incomplete_events;             /* of which delivered incomplete */
    uint64_t discarded_slots;               /* CC/CE of an abandoned event, dropped
                                             * without a report of their own */
    uint64_t time_events;                   /* CONTROL/TIME */
    uint64_t wraps;                         /* low-word wraps counted without TIME */
    uint64_t buffers;                       /* CONTROL/BUFFER */
    uint64_t buffer_seq_gaps;               /* buffer sequence numbers skipped */
    uint64_t dropped_events;                /* sum of CONTROL/DROPPED data[1] */
    uint64_t dropped_slots;                 /* sum of CONTROL/DROPPED data[2] */
    uint64_t errors;                        /* integrity errors reported */
    uint64_t errors_by_kind[SLOT_NERROR_KINDS];
    uint64_t max_held_events;               /* most events ever held back at once */
};

/* A streaming decoder: an opaque object of the caller's. */
struct slot_decoder;

/* Makes a decoder that delivers to cfg's callbacks.  0, EINVAL (NULL d or
 * cfg), or ENOMEM. */
int slot_decoder_create(const struct slot_decoder_config *cfg, struct slot_decoder **d);

/* Feeds n slots (host byte order); slot i is at byte offset offset + 16 i of
 * the trace.  Events come out through on_event as soon as their order
 * allows.  Any input is accepted: what is wrong goes to on_error. */
void slot_decoder_feed(struct slot_decoder *d, const traceevent_t *slots, size_t n,
                       uint64_t offset);

/* The end of the trace: reports and delivers, incomplete, every combine
 * event still open (KSP-14), so that every held event is delivered.  Further
 * calls do nothing; feeding after it starts a continuation of the trace. */
void slot_decoder_finish(struct slot_decoder *d);

/* The totals so far. */
void slot_decoder_summary(const struct slot_decoder *d, struct slot_summary *s);

/* Frees d and what it holds (without delivering it: call finish first).
 * NULL does nothing. */
void slot_decoder_destroy(struct slot_decoder *d);

/* ---- the trace file (KSP-23..25) --------------------------------------------
 * A file is: the header text `TRACE_HEADER_BEGIN::TRACE_FILE_NAME::...
 * TRACE_HEADER_END::` (keys back to back, no separator), SYSPAGE_LEN bytes
 * of system page, then slots of 16 bytes.  The writer writes the host's
 * byte order and declares it; the reader takes either. */

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
 * header longer than TRACE_FILE_HEADER_MAX; ENOMEM.  The last key before
 * TRACE_HEADER_END:: is TRACE_PAD:: with 0-12 '-' as its value, as many as
 * keep the header readable by QNX's stock traceprinter (KERNEL.md, "Stock
 * QNX tools"); trace_file_parse skips it. */
int trace_file_header_build(const struct trace_file_meta *m, char *buf, size_t cap,
                            size_t *len);

/* Writes the header and the system page to f.  0, an error of
 * trace_file_header_build, ENOMEM, or EIO if f refuses the bytes. */
int trace_file_write_header(FILE *f, const struct trace_file_meta *m);

/* A parsed header: a value of the caller's (about 16 KiB: allocate it).
 * The attributes' text is read with trace_file_key() and trace_file_value(),
 * not through key_at, value_at and text, which are the parser's storage. */
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

__POSIXTRACE_END_API

#endif /* POSIXTRACE_CODEC_H */
