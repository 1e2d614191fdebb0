/* SPDX-License-Identifier: MIT */
/*
 * log_reader.h -- reading a trace log file (LOGFORMAT section 8), for
 * posix_trace_open() (prerecorded.c), tracedump (dump_posix.c) and the
 * fuzzer (fuzz/fuzz_log_reader.c).
 *
 * Opening reads the header, the metadata area and, for a LOOP log, the
 * BUFFER slot of each segment; events are then decoded one segment at a
 * time as they are asked for, oldest first.  Memory stays bounded by two
 * segments, the metadata and the decoder's own bounds, whatever the input;
 * any input gives EINVAL at open or is read up to its last whole record,
 * never a crash, a hang or a read out of bounds.  What is wrong goes to an
 * optional error callback, with its byte offset.
 */
#ifndef POSIXTRACE_LOG_READER_H
#define POSIXTRACE_LOG_READER_H

#include <stdint.h>
#include "log/log_format.h"
#include "slot/trace_file.h"

/* Where the log is: a file descriptor (pread, never the file offset), or
 * len bytes in memory (mem not NULL). */
struct log_source {
    int fd;
    const unsigned char *mem;
    uint64_t len;
};

/* An integrity error: its byte offset and a one-line message. */
typedef void (*log_error_fn)(void *user, uint64_t offset, const char *msg);

/* One event read back.  data (h.len & REC_LEN_MASK bytes) stays valid until
 * the next call on the reader. */
struct log_event {
    struct rec_hdr h;
    const unsigned char *data;
    uint64_t offset;            /* of its first slot */
    uint32_t seg_seq;           /* its segment's number */
};

/* What a reading found so far (since open or the last rewind). */
struct log_reader_stats {
    uint64_t events;            /* events delivered */
    uint64_t segments;          /* segments read */
    uint64_t segments_skipped;  /* slots without a valid segment, or out of order */
    uint64_t segments_cut;      /* segments the file ends inside */
    uint64_t bad_records;       /* records that are no POSIX event */
    uint64_t errors;            /* every integrity error reported */
};

struct log_reader;

/* Opens the log.  0; EINVAL: not a trace log of this format (the header's
 * rejection, its POSIX marks or geometry, no attributes record), with a
 * message in err; ENOMEM; or the error of a read. */
int log_reader_open(const struct log_source *src, log_error_fn on_error, void *user,
                    struct log_reader **out, char *err, size_t errlen);

/* The next event: 1 and *ev, or 0 at the end of the log. */
int log_reader_next(struct log_reader *r, struct log_event *ev);

/* Back to the oldest event. */
void log_reader_rewind(struct log_reader *r);

void log_reader_close(struct log_reader *r);

/* What the metadata says. */
const trace_attr_t *log_reader_attr(const struct log_reader *r);
/* The last whole status record; *have is 0 if there is none. */
const struct log_status *log_reader_status(const struct log_reader *r, int *have);
/* The name recorded for user event id: 0 and name, or EINVAL. */
int log_reader_name(const struct log_reader *r, trace_event_id_t id,
                    char name[TRACE_EVENT_NAME_MAX + 1]);
/* The n-th named user event recorded, in id order: 0 and *id, or -1. */
int log_reader_name_nth(const struct log_reader *r, unsigned n, trace_event_id_t *id);

const struct log_geometry *log_reader_geometry(const struct log_reader *r);
const struct trace_file_info *log_reader_info(const struct log_reader *r);
const struct log_reader_stats *log_reader_stats(const struct log_reader *r);
/* Segment slots present in the file. */
uint64_t log_reader_slots(const struct log_reader *r);

#endif /* POSIXTRACE_LOG_READER_H */
