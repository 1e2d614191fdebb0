# SPDX-License-Identifier: MIT
"""Every trace file header the reference writes is read by QNX 6's stock
traceprinter: its parser (libtraceparser's get_header, modelled in
qnx_header_model.py) searches a 99-byte window for the next key and loops
forever when the window ends inside TRACE_HEADER_END:: (issue 17 item 4;
reference/kernel/KERNEL.md, "Stock QNX tools"; KSP-23).  The writer puts
TRACE_PAD:: with 0-12 filler bytes last to keep it out of that spot.

Checked: headers of tracesim over a sweep of its options (CPUs, names and
dates of every length up to past the window, sizes, logger settings); the
log writer's header shape over every date width, geometry and policy
(trace_file_header_build through ctypes); the pinned .kev vectors and
golden logs.  The same headers without the pad make the model loop, and
tracedump still reads those files (our readers accept both).
"""

import ctypes
import glob
import os
import subprocess

import pytest

from conftest import REPO
from qnx_header_model import LOOPS, PARSED, outcome

TRACESIM = os.path.join(REPO, "build", "bin", "tracesim")
TRACEDUMP = os.path.join(REPO, "build", "bin", "tracedump")
LIBSO = os.path.join(REPO, "build", "lib", "libposixtrace.so")

pytestmark = pytest.mark.skipif(not os.access(TRACESIM, os.X_OK),
                                reason="build/bin/tracesim is not built ('make')")

HEADER_END = b"TRACE_HEADER_END::"


def header_len(data):
    return data.index(HEADER_END) + len(HEADER_END)


def strip_pad(data):
    """The same file as written before the pad: TRACE_PAD:: and its filler gone."""
    at = data.index(b"TRACE_PAD::")
    end = data.index(HEADER_END)
    return data[:at] + data[end:]


def sim_header(tmp_path, *args):
    """The file tracesim writes with args (3 events unless args say; the
    last --events given wins)."""
    out = tmp_path / "s.kev"
    subprocess.run([TRACESIM, "-q", "--events", "3", "-o", str(out)] + list(args), check=True,
                   timeout=60)
    return out.read_bytes()


# The stock parser finds a value's end only inside the window that starts
# at its key: TRACE_FILE_NAME:: (after TRACE_, 11 bytes), the value, the
# next TRACE_ (6) must fit 99 bytes.  A longer value hangs it, pad or not.
READABLE_FILE_NAME = 99 - len("FILE_NAME::") - len("TRACE_")


def test_a_value_too_long_for_the_window_hangs_the_stock_parser(tmp_path):
    """The limit the pad cannot mend (KERNEL.md, "Stock QNX tools")."""
    fits = sim_header(tmp_path, "--file-name", "/" + "x" * (READABLE_FILE_NAME - 1))
    assert outcome(fits)[0] == PARSED
    long = sim_header(tmp_path, "--file-name", "/" + "x" * READABLE_FILE_NAME)
    assert outcome(long)[0] == LOOPS


def sweep():
    """tracesim option sets: every window alignment of the keys after a
    field, times the fields whose width varies."""
    runs = []
    for n in range(0, READABLE_FILE_NAME - 1):
        runs.append(["--file-name", "/" + "x" * n])
    for n in range(0, 60):
        runs.append(["--nodename", "n" * (n + 1), "--cpus", str(1 + n % 64)])
        runs.append(["--date", "D" * (n + 1), "--syspage-len", str((0, 7, 256, 65536)[n % 4])])
    for cpus in (1, 9, 10, 63, 64):
        for events in ("1", "99", "1234"):
            runs.append(["--cpus", str(cpus), "--events", events, "--buffers",
                         str(2 + cpus), "--seed", str(cpus * 7)])
    for every, lanes, jitter in ((0, 1, 0), (7, 2, 5), (700, 8, 100), (123456789, 3, 33)):
        runs.append(["--logger-every", str(every), "--logger-lanes", str(lanes),
                     "--logger-jitter", str(jitter), "--gap-ns", str(every + 1),
                     "--cycles-per-sec", str(10 ** (lanes + 3)), "--mode",
                     "ring" if lanes % 2 else "linear", "--wrap-early"])
    return runs


@pytest.mark.slow          # the slow tier ('make check-full')
def test_every_tracesim_header_is_read_by_the_stock_parser(tmp_path):
    loops_without_pad = 0
    runs = sweep()
    for args in runs:
        data = sim_header(tmp_path, *args)
        verdict, end, attrs = outcome(data)
        assert verdict == PARSED and end == header_len(data), (args, verdict)
        keys = [k for k, _ in attrs]
        assert keys[0] == b"FILE_NAME" and keys[-1] == b"PAD", (args, keys)
        if outcome(strip_pad(data))[0] == LOOPS:
            loops_without_pad += 1
    # The model can fail: without the pad, a good share of these headers
    # hang the stock parser (as 16 of 17 simulator files did, issue 17).
    assert loops_without_pad > len(runs) // 20, loops_without_pad


class Attr(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class Meta(ctypes.Structure):
    _fields_ = [("file_name", ctypes.c_char_p), ("date", ctypes.c_char_p),
                ("boot_date", ctypes.c_char_p), ("cycles_per_sec", ctypes.c_uint64),
                ("cpu_num", ctypes.c_uint), ("sysname", ctypes.c_char_p),
                ("nodename", ctypes.c_char_p), ("sys_release", ctypes.c_char_p),
                ("sys_version", ctypes.c_char_p), ("machine", ctypes.c_char_p),
                ("syspage", ctypes.c_void_p), ("syspage_len", ctypes.c_size_t),
                ("extra", ctypes.POINTER(Attr)), ("nextra", ctypes.c_size_t),
                ("order", ctypes.c_int)]


def log_header(lib, date, meta, seg, policy, segments):
    """The header reference/log/log_writer.c builds (build_header), its
    variable fields given."""
    extra = (Attr * 5)(Attr(b"POSIX_LOG", b"2"), Attr(b"POSIX_META_BYTES", meta),
                       Attr(b"POSIX_SEG_BYTES", seg), Attr(b"POSIX_LOG_POLICY", policy),
                       Attr(b"POSIX_SEGMENTS", segments))
    m = Meta(b"posixtrace-log", date, date, 1000000000, 64, b"posixtrace", b"posixtrace",
             b"0.1", b"reference", b"little-endian", None, 0, extra, 5, 1)
    buf = ctypes.create_string_buffer(16384)
    n = ctypes.c_size_t(0)
    rc = lib.trace_file_header_build(ctypes.byref(m), buf, 16384, ctypes.byref(n))
    assert rc == 0
    return buf.raw[:n.value]


@pytest.mark.skipif(not os.path.exists(LIBSO), reason="build/lib/libposixtrace.so not built")
def test_every_log_writer_header_is_read_by_the_stock_parser():
    lib = ctypes.CDLL(LIBSO)
    checked = 0
    for digits in range(1, 21):                     # tv_sec of 1 to 20 digits
        date = b"9" * digits + b".123456789"
        for meta in (b"8", b"4096", b"65536", b"4294967295"):
            for seg in (b"16", b"65536", b"1048576"):
                for policy in (b"LOOP", b"UNTIL_FULL", b"APPEND"):
                    for segments in (b"0", b"7", b"18446744073709551615"):
                        data = log_header(lib, date, meta, seg, policy, segments)
                        verdict, end, _ = outcome(data)
                        assert verdict == PARSED and end == len(data), (date, meta, seg)
                        checked += 1
    assert checked == 20 * 4 * 3 * 3 * 3


def pinned_files():
    return sorted(glob.glob(os.path.join(REPO, "vectors", "trl", "logs", "*.log")))


@pytest.mark.parametrize("path", pinned_files(), ids=os.path.basename)
def test_golden_logs_are_read_by_the_stock_parser(path):
    data = open(path, "rb").read()
    verdict, end, _ = outcome(data)
    assert verdict == PARSED and end == header_len(data)


def test_tracedump_reads_files_with_and_without_the_pad(tmp_path):
    """Our readers take both: the events and the attributes are the same;
    only the offsets move by the pad's length."""
    data = sim_header(tmp_path, "--cpus", "3", "--events", "500")
    old = tmp_path / "old.kev"
    old.write_bytes(strip_pad(data))
    new = tmp_path / "s.kev"

    def events(p):
        out = subprocess.run([TRACEDUMP, "--ticks", str(p)], capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        attrs = [l for l in lines if l.startswith("# TRACE_")]
        evs = [l.split(None, 1)[1] for l in lines if not l.startswith("#")]
        return attrs, evs

    assert events(new) == events(old)
    assert b"TRACE_PAD" not in subprocess.run([TRACEDUMP, str(new)], capture_output=True,
                                              timeout=60).stdout
