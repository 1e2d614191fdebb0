/* SPDX-License-Identifier: MIT */
/*
 * trace_file_qnx.c -- a model of how QNX 6's stock libtraceparser (the
 * parser of `traceprinter`) reads a trace file header, so that the writer
 * (trace_file.c) can keep every header it writes readable by it
 * (reference/kernel/KERNEL.md, "Stock QNX tools").
 *
 * What is modelled, from lib/traceparser/traceparser.c's get_header() of
 * QNX 6.x (published source; no code of it is copied here):
 *   - the file is read through a window of 99 bytes (a 100-byte buffer and
 *     its NUL), first at offset 0, then again at the offset of the last key
 *     found, whenever the next key token is not inside the window;
 *   - a key runs to its "::" (strstr: stops at a NUL), its value to the next
 *     "TRACE_", looked for by a memfind() whose restart offset adds the
 *     absolute position of each false 'T' to the previous offset (so it may
 *     jump past a real "TRACE_"), and which only looks while offset + 6 is
 *     below the bytes left;
 *   - the header ends when that next token compares equal to all 18 bytes
 *     of "TRACE_HEADER_END::" inside the window.
 * When the window ends inside "TRACE_HEADER_END::" after its "TRACE_", the
 * parser takes HEADER_END for a key, re-reads from it, finds no further
 * "TRACE_" in the binary data and re-reads the same bytes forever: the
 * stock traceprinter hangs.  A re-read at an offset already read is that
 * loop (the parser's state there depends on nothing else).
 */
#include <string.h>
#include "slot/trace_file.h"

#define WINDOW 99                       /* sizeof(buffer) - 1 in get_header() */
#define PREFIX "TRACE_"
#define END_TOKEN "TRACE_HEADER_END::"

/* The window at off: its bytes, NUL after them; returns its length. */
static int fill(const unsigned char *file, size_t len, size_t off, char *buf)
{
    size_t n = off < len ? len - off : 0;
    if (n > WINDOW)
        n = WINDOW;
    memcpy(buf, file + off, n);
    buf[n] = '\0';
    return (int)n;
}

/* get_header()'s memfind of "TRACE_" in b[0..blen-1], faithful to its
 * offset arithmetic; bytes past blen read as the window's NUL. */
static char *memfind_prefix(char *b, int blen)
{
    unsigned offset = 0;
    while ((long)offset + 6 < (long)blen) {
        char *found = memchr(b + offset, 'T', (size_t)blen - offset);
        if (found == NULL)
            return NULL;
        if (found - b + 6 <= blen && memcmp(found, PREFIX, 6) == 0)
            return found;
        offset += (unsigned)(found - b) + 1;
    }
    return NULL;
}

int trace_file_qnx_outcome(const void *file, size_t len, uint64_t *end)
{
    const unsigned char *f = file;
    char buf[WINDOW + 1];
    size_t lastkey = 0, reread_at = 0;
    int buflen = fill(f, len, 0, buf);
    char *start = strstr(buf, "TRACE_HEADER_BEGIN::");

    if (buflen <= 0 || start == NULL)
        return TRACE_QNX_FAILS;
    start = strstr(start, "::") + 2;
    start = strstr(start, PREFIX);
    if (start == NULL)
        return TRACE_QNX_FAILS;
    start += 6;
    lastkey = (size_t)(start - buf);
    for (;;) {
        for (;;) {
            char *key = start, *value = strstr(key, "::");
            if (value == NULL || (value - buf) + 2 > buflen)
                break;
            *value = '\0';
            value += 2;
            start = memfind_prefix(value, buflen - (int)(value - buf));
            if (start == NULL)
                break;
            if (strncmp(start, END_TOKEN, sizeof END_TOKEN - 1) == 0) {
                if (end)
                    *end = lastkey + (size_t)(start - key) + sizeof END_TOKEN - 1;
                return TRACE_QNX_PARSED;
            }
            *start = '\0';
            start += 6;
            lastkey += (size_t)(start - key);
        }
        if (start == buf)
            return TRACE_QNX_FAILS;         /* "Can't find header end" */
        if (reread_at != 0 && lastkey <= reread_at)
            return TRACE_QNX_LOOPS;
        reread_at = lastkey;
        buflen = fill(f, len, lastkey, buf);
        if (buflen <= 0)
            return TRACE_QNX_FAILS;         /* it returns with no header end */
        start = buf;
    }
}
