# SPDX-License-Identifier: MIT
"""tracedump --ctf DIR FILE (issue 17, item 1; reference/dump/export_ctf.c):
Debian's babeltrace2 reads the CTF 1.8 trace written from every golden POSIX
trace log and from simulated kernel traces, and every event it prints agrees
with tracedump --json of the same file: the count, the order (a kernel
trace: each CPU's events in file order, and babeltrace2's merge in time
order; a log: its one stream in file order), the time (clock cycles = the
file's ticks), the CPU, pid and tid, and every field (the kernel classes'
named arguments and words; a POSIX event's prog, truncation, length and
data bytes).  The figures go to reports/export/ctf_compare.txt.

Skipped, with the reason, if babeltrace2 is not installed ('make deps')."""

import os
import re
import shutil
import subprocess

import pytest

import export_common as ec

BABELTRACE = shutil.which("babeltrace2")

pytestmark = [
    ec.NEEDS_TOOLS,
    pytest.mark.skipif(BABELTRACE is None, reason="Debian's babeltrace2 is not installed "
                       "('make deps' installs it): the CTF export is not checked"),
]

LINE = re.compile(r"^\[(\d+)\] (.*?): \{ cpu_id = (\d+) \}, "
                  r"\{ cpu = (-?\d+), pid = (-?\d+), tid = (-?\d+) \}(?:, \{ (.*) \})?$")


class Payload:
    """babeltrace2's text of a payload: name = value, ... with integers
    (decimal, or 0x... for the hexadecimal fields), "strings" and arrays
    [ [0] = v, ... ].  Parsed into a list of (name, value)."""

    def __init__(self, text):
        self.s, self.i = text, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def value(self):
        self.ws()
        c = self.s[self.i]
        if c == '"':                    # babeltrace2 escapes \\ and \" (C's way)
            out, j = [], self.i + 1
            while self.s[j] != '"':
                if self.s[j] == "\\":
                    j += 1
                    out.append({"n": "\n", "t": "\t", "r": "\r"}.get(self.s[j], self.s[j]))
                else:
                    out.append(self.s[j])
                j += 1
            self.i = j + 1
            return "".join(out)
        if c == "[":
            self.i += 1
            items = []
            while True:
                self.ws()
                if self.s[self.i] == "]":
                    self.i += 1
                    return items
                m = re.compile(r"\[\d+\] = ").match(self.s, self.i)
                assert m, self.s[self.i:]
                self.i = m.end()
                items.append(self.value())
                self.ws()
                if self.s[self.i] == ",":
                    self.i += 1
        m = re.compile(r"-?0x[0-9A-Fa-f]+|-?\d+").match(self.s, self.i)
        assert m, self.s[self.i:]
        self.i = m.end()
        return int(m.group(0), 0)

    def fields(self):
        out = []
        while self.i < len(self.s):
            self.ws()
            m = re.compile(r"([A-Za-z_][A-Za-z0-9_]*) = ").match(self.s, self.i)
            assert m, self.s[self.i:]
            self.i = m.end()
            out.append((m.group(1), self.value()))
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == ",":
                self.i += 1
        return out


def babeltrace(folder):
    p = subprocess.run([BABELTRACE, "--clock-cycles", "--no-delta", folder],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    events = []
    for line in p.stdout.decode().splitlines():
        m = LINE.match(line)
        assert m, "babeltrace2 printed a line of no event: %r" % line
        events.append({"time": int(m.group(1)), "name": m.group(2), "stream_cpu": int(m.group(3)),
                       "cpu": int(m.group(4)), "pid": int(m.group(5)), "tid": int(m.group(6)),
                       "fields": Payload(m.group(7) or "").fields()})
    return events


def export(path, tmp_path):
    folder = os.path.join(str(tmp_path), os.path.basename(path) + ".ctf")
    ec.tracedump("--ctf", folder, path)
    return folder


def expected_kernel(doc):
    """tracedump --json's events as the CTF holds them: the thread running on
    each CPU is the last PR_TH thread RUNNING event's pid and tid (KSP-6)."""
    running, last = {}, {}
    out = []
    for e in doc["events"]:
        if e["class"] == 4 and e["event"] == 1 and len(e["words"]) >= 2:
            running[e["cpu"]] = (e["words"][0], e["words"][1])
        pid, tid = running.get(e["cpu"], (-1, -1))
        fields = [(k, v) for k, v in e["args"].items()]
        fields += [("nwords", len(e["words"])), ("words", e["words"])]
        # A stream's time does not go back: the rest of an event begun in an
        # overwritten buffer (its CB's time, KSP-14) takes its CPU's latest.
        last[e["cpu"]] = max(e["time"], last.get(e["cpu"], 0))
        out.append({"time": last[e["cpu"]], "name": e["class_name"] + "." + e["name"],
                    "stream_cpu": e["cpu"], "cpu": e["cpu"], "pid": pid, "tid": tid,
                    "fields": fields})
    return out


def expected_log(doc):
    out = []
    for e in doc["events"]:
        data = bytes.fromhex(e["data"])
        out.append({"time": e["timestamp_ns"], "name": e["name"], "stream_cpu": 0,
                    "cpu": e["cpu"], "pid": e["pid"], "tid": e["thread"],
                    "fields": [("prog", e["prog"]), ("truncated", int(e["truncation"] != "none")),
                               ("len", e["len"]), ("data", list(data))]})
    return out


def compare_kernel(got, want):
    assert len(got) == len(want), "babeltrace2: %d events, tracedump --json: %d" % (
        len(got), len(want))
    # babeltrace2 merges the CPUs' streams in time order ...
    times = [g["time"] for g in got]
    assert times == sorted(times)
    # ... and each CPU's stream is the file's order of that CPU's events.
    for cpu in sorted({w["cpu"] for w in want}):
        g = [x for x in got if x["stream_cpu"] == cpu]
        w = [x for x in want if x["cpu"] == cpu]
        assert len(g) == len(w)
        for i, (a, b) in enumerate(zip(g, w)):
            assert a == b, "CPU %d, event %d: babeltrace2 %r, tracedump --json %r" % (
                cpu, i, a, b)


def compare_log(got, want):
    assert len(got) == len(want), "babeltrace2: %d events, tracedump --json: %d" % (
        len(got), len(want))
    for i, (a, b) in enumerate(zip(got, want)):
        cls, _, name = a["name"].partition(".")
        assert cls in ("POSIX_SYSTEM", "POSIX_USER")
        a = dict(a, name=name)
        assert a == b, "event %d: babeltrace2 %r, tracedump --json %r" % (i, a, b)


FIGURES = []


@pytest.fixture(scope="module")
def sims(tmp_path_factory):
    return ec.make_sims(tmp_path_factory.mktemp("sims"))


def record(name, n):
    FIGURES.append("%s: %d events compared (count, order, time, cpu, pid, tid, fields)"
                   % (name, n))
    with open(os.path.join(ec.reports_dir(), "ctf_compare.txt"), "w") as f:
        f.write("babeltrace2 (%s) on tracedump --ctf against tracedump --json\n" % BABELTRACE)
        f.write("\n".join(FIGURES) + "\n")


@pytest.mark.slow          # the slow tier ('make check-full')
@pytest.mark.parametrize("log", ec.GOLDEN_LOGS, ids=os.path.basename)
def test_golden_log_reads_the_same_in_babeltrace2(log, tmp_path):
    got = babeltrace(export(log, tmp_path))
    want = expected_log(ec.dump_json(log))
    compare_log(got, want)
    assert want, "a golden log with no event checks nothing"
    record(os.path.basename(log), len(want))


@pytest.mark.slow          # the slow tier ('make check-full')
@pytest.mark.parametrize("name", sorted(ec.SIMS))
def test_simulated_kev_reads_the_same_in_babeltrace2(name, sims, tmp_path):
    got = babeltrace(export(sims[name], tmp_path))
    doc = ec.dump_json(sims[name])
    want = expected_kernel(doc)
    compare_kernel(got, want)
    assert len(want) > 1000
    assert any(w["pid"] != -1 for w in want)           # threads known from RUNNING
    assert any(w["name"] == "CONTROL.DROPPED" for w in want) or name != "sim-linear.kev"
    record(name, len(want))


def test_metadata_declares_a_clock_and_typed_fields(sims, tmp_path):
    folder = export(sims["sim-linear.kev"], tmp_path)
    meta = open(os.path.join(folder, "metadata")).read()
    assert meta.startswith("/* CTF 1.8 */")
    assert re.search(r"clock \{\n\tname = trace_clock;.*\tfreq = 1000000000;", meta, re.S)
    assert "map = clock.trace_clock.value" in meta
    assert 'name = "INT.entry";' in meta
    assert re.search(r'name = "INT\.entry";\n\tid = \d+;\n\tfields := struct \{ uint64_t '
                     r'_vector; uint64_hex_t _ip; uint32_t _nwords; uint32_t _words\[_nwords\];',
                     meta)
    assert sorted(os.listdir(folder)) == ["cpu0", "cpu1", "metadata"]


def test_bad_folders_are_clear_errors(sims, tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for folder, what in ((str(a_file), "Not a directory"),
                         (str(a_file / "sub"), "cannot create the folder"),
                         ("/proc/no-such/ctf", "cannot create the folder")):
        p = ec.tracedump("--ctf", folder, sims["sim-linear.kev"], check=False)
        assert p.returncode == 2
        assert what.encode() in p.stderr, p.stderr
    p = ec.tracedump("--ctf", check=False)
    assert p.returncode == 2 and b"--ctf needs a folder" in p.stderr
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        p = ec.tracedump("--ctf", str(ro), sims["sim-linear.kev"], check=False)
        assert p.returncode == 2 and b"cannot write" in p.stderr
    bad = tmp_path / "bad.kev"
    bad.write_bytes(b"not a trace")
    p = ec.tracedump("--ctf", str(tmp_path / "out"), str(bad), check=False)
    assert p.returncode == 2 and b"KSP-25" in p.stderr
