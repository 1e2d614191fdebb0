#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""ksp_mini_decoder.py -- a deliberately small kernel-trace decoder, written
from the specification alone, to show what the KSP vectors check of a
decoder that is not the reference (vectors/ksp/README.md, "Checking another
decoder").

    python3 harness/tests/ksp_mini_decoder.py TRACE.kev    -> tracedump --json's document

What it does right: the header (key order not checked), simple events, the
64-bit time per CPU (TIME events, one wrap when a low word goes back), the
DROPPED and BUFFER totals.  What it does wrong, on purpose: it skips every
slot of a combine event (CB, CC, CE) without a word, and reports no
integrity error at all (reserved classes are delivered as events, a cut
slot is ignored).  test_ksp_decoder.py expects the vectors of the first kind
to PASS and those of the second to FAIL.
"""

import json
import re
import struct
import sys

KEY = re.compile(rb"TRACE_([A-Z0-9_]+)::")


def fatal(offset, message):
    return {"offset": offset, "rule": "KSP-25", "errno": "EINVAL", "message": message}


def decode(data):
    doc = {"format": "ksp-mini", "version": 1, "events": [], "errors": [], "fatal": None,
           "summary": {"events": 0, "dropped_events": 0, "dropped_slots": 0, "buffers": 0,
                       "errors": 0}}
    if not data.startswith(b"TRACE_HEADER_BEGIN::"):
        doc["fatal"] = fatal(0, "offset 0: KSP-25: no trace header")
        return doc
    end = data.find(b"TRACE_HEADER_END::")
    if end < 0:
        doc["fatal"] = fatal(len(data), "header not terminated")
        return doc
    attrs = {}
    keys = list(KEY.finditer(data, 0, end + 18))
    for k, nxt in zip(keys, keys[1:]):
        attrs[k.group(1).decode()] = data[k.end():nxt.start()]
    order = "<" if attrs.get("LITTLE_ENDIAN") == b"TRUE" else ">"
    syspage = int(attrs.get("SYSPAGE_LEN", b"0") or 0)
    pos = end + len(b"TRACE_HEADER_END::") + syspage
    high, last = {}, {}
    while pos + 16 <= len(data):
        h, t, d1, d2 = struct.unpack(order + "4I", data[pos:pos + 16])
        flag, cpu, cls, ev = h >> 30, (h >> 24) & 63, (h >> 10) & 31, h & 1023
        if flag == 0:
            if cls == 1 and ev == 1:
                high[cpu] = d1
            elif t < last.get(cpu, 0):
                high[cpu] = high.get(cpu, 0) + 1
            last[cpu] = t
            if cls == 1 and ev == 2:
                doc["summary"]["buffers"] += 1
            if cls == 1 and ev == 8:
                doc["summary"]["dropped_events"] += d1
                doc["summary"]["dropped_slots"] += d2
            doc["events"].append({"offset": pos, "cpu": cpu, "class": cls, "event": ev,
                                  "time": high.get(cpu, 0) << 32 | t, "words": [d1, d2],
                                  "complete": True})
        pos += 16
    doc["summary"]["events"] = len(doc["events"])
    return doc


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: ksp_mini_decoder.py TRACE\n")
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    json.dump(decode(data), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
