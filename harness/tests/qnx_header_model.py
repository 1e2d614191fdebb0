# SPDX-License-Identifier: MIT
"""A model of how QNX 6's stock libtraceparser (traceprinter's parser) reads a
trace file header: get_header() of lib/traceparser/traceparser.c, modelled
apart from the C one the writer uses (reference/slot/trace_file_qnx.c), so
that each checks the other (reference/kernel/KERNEL.md, "Stock QNX tools").

The parser reads the file through a window of 99 bytes (a 100-byte buffer
and its NUL): first at offset 0, then at the offset of the last key found
whenever the next "TRACE_" is not inside the window.  A key runs to its
"::", its value to the next "TRACE_" (found by a memfind whose restart
offset adds each false 'T''s absolute position to the previous offset);
the header ends when that token compares equal to all of
"TRACE_HEADER_END::" inside the window.  A re-read at an offset already
read repeats forever: that is the stock traceprinter's hang.
"""

WINDOW = 99
PREFIX = b"TRACE_"
END = b"TRACE_HEADER_END::"

PARSED, FAILS, LOOPS = "parsed", "fails", "loops"


def _cstr_find(buf, at, needle):
    """strstr from buf[at]: the text stops at the first NUL."""
    nul = buf.find(b"\0", at)
    stop = len(buf) if nul < 0 else nul
    i = buf.find(needle, at, stop)
    return None if i < 0 else i


def _memfind(buf, at, n):
    """memfind(buf+at, n, "TRACE_", 6), its offset arithmetic kept; bytes
    past the window are its NUL (no match there).  An index into buf."""
    offset = 0
    while offset + 6 < n:
        rel = buf.find(b"T", at + offset, at + n)
        if rel < 0:
            return None
        found = rel - at
        if found + 6 <= n and buf[rel:rel + 6] == PREFIX:
            return rel
        offset += found + 1
    return None


def outcome(data):
    """(PARSED | FAILS | LOOPS, offset after TRACE_HEADER_END:: or None,
    [(key, value)] as the parser stored them)."""
    def window(off):
        chunk = data[off:off + WINDOW]
        return bytearray(chunk) + b"\0", len(chunk)

    attrs = []
    buf, buflen = window(0)
    start = _cstr_find(buf, 0, b"TRACE_HEADER_BEGIN::")
    if buflen <= 0 or start is None:
        return FAILS, None, attrs
    start = _cstr_find(buf, start, b"::") + 2
    start = _cstr_find(buf, start, PREFIX)
    if start is None:
        return FAILS, None, attrs
    start += 6
    lastkey = start
    reread = None
    while True:
        while True:
            key = start
            value = _cstr_find(buf, key, b"::")
            if value is None or value + 2 > buflen:
                break
            k = bytes(buf[key:value])
            buf[value] = 0
            value += 2
            start = _memfind(buf, value, buflen - value)
            if start is None:
                break
            attrs.append((k, bytes(buf[value:start])))
            if bytes(buf[start:start + len(END)]) == END:
                return PARSED, lastkey + (start - key) + len(END), attrs
            buf[start] = 0
            start += 6
            lastkey += start - key
        if start == 0:
            return FAILS, None, attrs
        if reread is not None and lastkey <= reread:
            return LOOPS, None, attrs
        reread = lastkey
        buf, buflen = window(lastkey)
        if buflen <= 0:
            return FAILS, None, attrs
        start = 0
