# SPDX-License-Identifier: MIT
"""tracedump for people (issue 17 item 5; reference/kernel/KERNEL.md,
"tracedump"): times in seconds by default and raw ticks with --ticks,
--delta, the filters --cpu, --class, --event, --pid, --from/--to, "-" as
standard input, the summary's events by CPU and class with a total line;
and every tool answers --version and --help.

Each filter is checked against the unfiltered output: the lines it keeps
are exactly those of the full dump that match, so a filter that drops or
keeps one event too many fails.
"""

import json
import os
import re
import subprocess

import pytest

from conftest import REPO

BIN = os.path.join(REPO, "build", "bin")
TRACEDUMP = os.path.join(BIN, "tracedump")
TRACESIM = os.path.join(BIN, "tracesim")
GOLDEN_LOG = os.path.join(REPO, "vectors", "trl", "logs", "append-basic.log")

pytestmark = pytest.mark.skipif(not os.access(TRACEDUMP, os.X_OK),
                                reason="build/bin/tracedump is not built ('make')")


@pytest.fixture(scope="module")
def kev(tmp_path_factory):
    path = tmp_path_factory.mktemp("dump") / "t.kev"
    subprocess.run([TRACESIM, "-q", "--cpus", "3", "--events", "3000", "--seed", "5",
                    "--buffers", "4", "--logger-every", "300", "-o", str(path)], check=True,
                   timeout=60)
    return str(path)


def dump(*args, stdin=None, code=0):
    out = subprocess.run([TRACEDUMP] + list(args), capture_output=True, text=True,
                         stdin=stdin, timeout=120)
    assert out.returncode == code, out.stderr
    return out.stdout


def events(text):
    """Event lines as (offset, cpu, time, rest...) split on blanks."""
    return [l.split() for l in text.splitlines() if l and not l.startswith(("#", "ERROR"))]


def test_seconds_by_default_ticks_on_request(kev):
    secs, ticks = events(dump(kev)), events(dump("--ticks", kev))
    assert len(secs) == len(ticks) > 100
    assert all(re.fullmatch(r"-?\d+\.\d{9}", e[2]) for e in secs)
    assert all(re.fullmatch(r"0x[0-9a-f]{16}", e[2]) for e in ticks)
    assert "seconds" in dump(kev).split("#     offset", 1)[1].splitlines()[0]
    # Each CPU counts from its own first event: its first line is 0 s, and
    # the seconds are its ticks since then at TRACE_CYCLES_PER_SEC (10^9).
    first = {}
    for s, t in zip(secs, ticks):
        first.setdefault(s[1], (s, t))
    for s, _ in first.values():
        assert float(s[2]) == 0.0
    after_time = [(s, t) for s, t in zip(secs, ticks) if s[4] == "TIME"]
    s0, t0 = next((s, t) for s, t in after_time if s[1] == "1")
    later = [(s, t) for s, t in zip(secs, ticks) if s[1] == "1" and
             int(t[2], 16) > int(t0[2], 16)][:50]
    for s, t in later:
        assert abs((float(s[2]) - float(s0[2])) - (int(t[2], 16) - int(t0[2], 16)) / 1e9) < 2e-9


def test_delta_is_the_time_since_the_previous_event_shown(kev):
    rows = events(dump("--ticks", "--delta", kev))
    assert rows[0][3] == "+0"
    for prev, cur in zip(rows, rows[1:]):
        assert int(cur[3]) == int(cur[2], 16) - int(prev[2], 16)
    rows = events(dump("--delta", "--cpu", "2", kev))
    for prev, cur in zip(rows, rows[1:]):
        assert abs(float(cur[3]) - (float(cur[2]) - float(prev[2]))) < 2e-9


@pytest.mark.parametrize("args,keep", [
    (["--cpu", "1"], lambda e: e[1] == "1"),
    (["--cpu", "0,2"], lambda e: e[1] in ("0", "2")),
    (["--class", "INT,comm"], lambda e: e[3] in ("INT", "COMM")),
    (["--event", "BUFFER"], lambda e: e[4] == "BUFFER"),
    (["--event", "thread_create,handler_exit"],
     lambda e: e[4] in ("thread_create", "handler_exit")),
    (["--cpu", "0", "--class", "KER_CALL"], lambda e: e[1] == "0" and e[3] == "KER_CALL"),
], ids=["cpu", "cpus", "classes", "event", "events", "cpu+class"])
def test_filters_keep_exactly_the_matching_events(kev, args, keep):
    full = events(dump(kev))
    shown = dump(*(args + [kev]))
    got = events(shown)
    assert got == [e for e in full if keep(e)] and got
    assert "#   shown %d of %d events (filtered)" % (len(got), len(full)) in shown
    assert "#   shown %d of %d events (filtered)" % (len(got), len(full)) in \
        dump(*(["--summary"] + args + [kev]))


def test_pid_filter(kev):
    full = events(dump(kev))
    pids = [w for e in full for w in e if w.startswith("pid=")]
    pid = max(set(pids), key=pids.count)[4:]
    got = events(dump("--pid", pid, kev))
    assert got == [e for e in full if "pid=" + pid in e] and got


def test_time_window(kev):
    full = events(dump(kev))
    times = sorted(float(e[2]) for e in full)
    lo, hi = times[len(times) // 4], times[len(times) // 2]
    got = events(dump("--from", repr(lo), "--to", repr(hi), kev))
    assert got == [e for e in full if lo <= float(e[2]) <= hi] and got


def test_bad_filter_arguments_are_refused(kev):
    for args in (["--cpu", "64"], ["--cpu", "x"], ["--class", "NOPE"], ["--pid", "-1"],
                 ["--from", "soon"], ["--to"]):
        dump(*(args + [kev]), code=2)


def test_standard_input_pipe_and_file(kev):
    want = dump(kev).split("\n", 1)[1]
    with open(kev, "rb") as f:                      # a regular file on stdin
        assert dump("-", stdin=f).split("\n", 1)[1] == want
    cat = subprocess.Popen(["cat", kev], stdout=subprocess.PIPE)
    try:                                            # a pipe: copied, then read
        assert dump("-", stdin=cat.stdout).split("\n", 1)[1] == want
    finally:
        cat.stdout.close()
        cat.wait()
    log = dump("-", stdin=open(GOLDEN_LOG, "rb"))
    assert "POSIX trace log" in log and "alpha" in log


def test_summary_merges_the_per_cpu_counters(kev):
    text = dump("--summary", kev)
    rows = [l[1:].split() for l in text.splitlines() if re.match(r"#\s+(\d+|total)\s+\d", l)]
    head = next(l[1:].split() for l in text.splitlines() if l.startswith("#     cpu"))
    per_cpu, total = rows[:-1], rows[-1]
    assert total[0] == "total" and len(per_cpu) == 3
    for col in range(1, len(head)):
        assert int(total[col]) == sum(int(r[col]) for r in per_cpu), head[col]
    events_line = re.search(r"events (\d+) \(combine", text).group(1)
    assert total[1] == events_line
    doc = json.loads(dump("--json", "--summary", kev))
    by = doc["summary"]["by_cpu"]
    assert by["total"]["events"] == doc["summary"]["events"]
    assert sum(v["events"] for k, v in by.items() if k != "total") == by["total"]["events"]


def test_json_keeps_its_contract_and_adds_seconds_and_delta(kev):
    doc = json.loads(dump("--json", "--delta", "--cpu", "1", kev))
    evs = doc["events"]
    assert evs and all(e["cpu"] == 1 and "time" in e and "words" in e for e in evs)
    assert all("seconds" in e and "delta" in e for e in evs)
    assert doc["summary"]["shown"] == len(evs)
    raw = json.loads(dump("--json", "--ticks", kev))
    assert all("seconds" not in e for e in raw["events"])


def test_posix_log_filters_and_delta():
    full = events(dump(GOLDEN_LOG))
    got = events(dump("--event", "beta", "--delta", GOLDEN_LOG))
    assert [e[0] for e in got] == [e[0] for e in full if e[4] == "beta"] and len(got) == 2
    assert got[1][3] == "+0.000000010"
    assert events(dump("--class", "SYSTEM", GOLDEN_LOG)) == \
        [e for e in full if e[4].startswith("posix_trace_")]
    assert events(dump("--pid", "4242", "--cpu", "2", GOLDEN_LOG)) == full
    assert events(dump("--cpu", "0", GOLDEN_LOG)) == []


def makefile_version():
    for line in open(os.path.join(REPO, "Makefile")):
        if line.startswith("VERSION ="):
            return line.split("=", 1)[1].strip()
    raise AssertionError("no VERSION in the Makefile")


@pytest.mark.parametrize("tool", ["bin/tracedump", "bin/tracesim", "harness/kvecrun",
                                  "harness/vecrun"])
def test_every_tool_answers_version_and_help(tool):
    path = os.path.join(REPO, "build", tool)
    if not os.access(path, os.X_OK):
        pytest.skip("%s is not built" % path)
    name = os.path.basename(tool)
    v = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    assert v.returncode == 0 and v.stdout.startswith(name + " (posixtrace")
    assert v.stdout.split()[-1] == makefile_version()
    h = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=30)
    assert h.returncode == 0 and "usage: " + name in h.stdout and "--version" in h.stdout
