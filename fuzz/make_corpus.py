#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""make_corpus.py -- (re)writes the seed corpus of the slot decoder's fuzz
target, fuzz/corpus/slot_decoder/, from build/bin/tracesim (run 'make'
first) and from slots written here.  Deterministic: the same files every
time.  See fuzz/README.md.

    /usr/bin/python3 fuzz/make_corpus.py
"""

import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "corpus", "slot_decoder")
TRACESIM = os.path.join(ROOT, "build", "bin", "tracesim")

KEYS = ["FILE_NAME", "DATE", "VER_MAJOR", "VER_MINOR", "ENDIAN", "ENCODING", "BOOT_DATE",
        "CYCLES_PER_SEC", "CPU_NUM", "SYSNAME", "NODENAME", "SYS_RELEASE", "SYS_VERSION",
        "MACHINE", "SYSPAGE_LEN"]


def header(big=False, cpus=2, syspage=0, **override):
    values = {"FILE_NAME": "f", "DATE": "d", "VER_MAJOR": "1", "VER_MINOR": "01",
              "ENCODING": "16 byte events", "BOOT_DATE": "b", "CYCLES_PER_SEC": "1000",
              "CPU_NUM": str(cpus), "SYSNAME": "s", "NODENAME": "n", "SYS_RELEASE": "r",
              "SYS_VERSION": "v", "MACHINE": "m", "SYSPAGE_LEN": str(syspage)}
    values.update(override)
    text = "TRACE_HEADER_BEGIN::"
    for k in KEYS:
        if k == "ENDIAN":
            text += "TRACE_%s_ENDIAN::TRUE" % ("BIG" if big else "LITTLE")
        elif values.get(k) is not None:
            text += "TRACE_%s::%s" % (k, values[k])
    return (text + "TRACE_HEADER_END::").encode() + bytes(range(syspage))


def slot(flag, cpu, cls, ev, t, d1=0, d2=0, big=False):
    h = flag << 30 | cpu << 24 | cls << 10 | ev
    return struct.pack(">4I" if big else "<4I", h, t, d1, d2)


S, CB, CC, CE = 0, 1, 2, 3


def handmade(big=False):
    """Interleaved and straddling combine events, TIME and DROPPED, errors."""
    s = [slot(S, 0, 1, 2, 0x1000, 0, 5, big), slot(S, 0, 1, 1, 0x1001, 5, 0x1001, big),
         slot(S, 1, 1, 1, 0x2000, 1, 0x2000, big), slot(S, 0, 1, 8, 0x1002, 3, 4, big),
         slot(CB, 0, 6, 12, 0x1003, 0xA, 0xB, big), slot(CB, 1, 6, 12, 0x1003, 1, 2, big),
         slot(CC, 0, 6, 12, 0x1003, 0xC, 0xD, big), slot(S, 1, 1, 2, 0x2001, 1, 4, big),
         slot(S, 0, 1, 1, 0x1004, 5, 0x1004, big), slot(S, 1, 1, 1, 0x2002, 1, 0x2002, big),
         slot(CE, 0, 6, 12, 0x1003, 0xE, 0, big), slot(CE, 1, 6, 12, 0x1003, 3, 4, big),
         slot(CE, 0, 6, 13, 0x1005, 1, 1, big), slot(S, 0, 9, 1, 0x1006, 0, 0, big),
         slot(CB, 1, 2, 40, 0x10, 1, 2, big)]
    return b"".join(s)


def tracesim(name, *args):
    path = os.path.join(OUT, name)
    subprocess.run([TRACESIM, "-q", "--syspage-len", "16", "-o", path] + list(args), check=True)
    with open(path, "rb") as f:
        return f.read()


def main():
    if not os.access(TRACESIM, os.X_OK):
        sys.stderr.write("make_corpus.py: %s is not built: run make first\n" % TRACESIM)
        return 2
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    small = tracesim("sim_2cpu.kev", "--cpus", "2", "--events", "80", "--seed", "1")
    tracesim("sim_64cpu.kev", "--cpus", "64", "--events", "40", "--seed", "2")
    tracesim("sim_drops.kev", "--cpus", "2", "--events", "1500", "--seed", "3", "--buffers",
             "2", "--logger-every", "450", "--wrap-early")
    tracesim("sim_ring.kev", "--cpus", "3", "--events", "1400", "--seed", "4", "--mode", "ring",
             "--buffers", "2")
    files = {
        "cut_slot.kev": small[:-7],
        "cut_header.kev": small[:200],
        "handmade_le.kev": header() + handmade(),
        "handmade_be.kev": header(big=True) + handmade(big=True),
        "handmade_syspage.kev": header(syspage=24) + handmade(),
        "bad_no_header.kev": b"hello, not a trace",
        "bad_empty.kev": b"",
        "bad_key_missing.kev": header(DATE=None),
        "bad_version.kev": header(VER_MAJOR="2"),
        "bad_encoding.kev": header(ENCODING="32 byte events"),
        "bad_cpu_num.kev": header(CPU_NUM="65"),
        "bad_syspage.kev": header(SYSPAGE_LEN="100000") + handmade(),
        "bad_not_terminated.kev": header()[:150],
        "extra_attrs.kev": header().replace(b"TRACE_HEADER_END::",
                                            b"TRACE_X::1TRACE_Y::TRACE_HEADER_END::") + handmade(),
    }
    for name, data in sorted(files.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print("make_corpus.py: %d files, %d bytes in %s" % (len(os.listdir(OUT)), total,
                                                         os.path.relpath(OUT, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
