# SPDX-License-Identifier: MIT
"""A ring capture is a sound capture (issue 32, item 5; spec KSP-14, KSP-21):
tracedump exits 0 on every file tracesim writes, in linear and in ring mode,
over seeds, CPU counts and logger settings.  A ring capture begins with the
rest of combine events whose first slots were in overwritten buffers: the
decoder counts each such rest as an incomplete event, not as an integrity
error; a CC/CE with no open event anywhere else is still an error (here on a
corrupted ring capture; vectors/ksp/decode/ring_start.kvec crafts every case).
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

pytestmark = pytest.mark.skipif(
    not (os.access(TRACEDUMP, os.X_OK) and os.access(TRACESIM, os.X_OK)),
    reason="build/bin/tracedump and tracesim are not built ('make')")

SEEDS = [1, 7, 42, 99, 2024]
CPUS = [1, 2, 3, 4, 7, 16, 64]
# Few buffers overwrite often (ring) or make the logger drop and skip (linear).
SETTINGS = [
    [],
    ["--buffers", "4"],
    ["--buffers", "6", "--logger-every", "500", "--logger-lanes", "2",
     "--logger-jitter", "80", "--wrap-early"],
]


def simulate(path, mode, cpus, seed, extra):
    subprocess.run([TRACESIM, "-q", "--mode", mode, "--cpus", str(cpus), "--events", "8000",
                    "--seed", str(seed), "-o", path] + extra, check=True, timeout=60)


def summary(path):
    """tracedump --summary: (exit status, incomplete events, integrity errors, output)."""
    p = subprocess.run([TRACEDUMP, "--summary", "--no-totals", path], capture_output=True,
                       text=True, timeout=60)
    inc = re.search(r"incomplete (\d+)\)", p.stdout)
    err = re.search(r"integrity errors (\d+)", p.stdout)
    assert inc and err, p.stdout + p.stderr
    return p.returncode, int(inc.group(1)), int(err.group(1)), p.stdout


@pytest.mark.parametrize("mode", ["linear", "ring"])
def test_tracedump_exits_0_on_every_capture(tmp_path, mode):
    path = str(tmp_path / "t.kev")
    bad, incomplete = [], 0
    for cpus in CPUS:
        for seed in SEEDS:
            for extra in SETTINGS:
                simulate(path, mode, cpus, seed, extra)
                code, inc, errors, out = summary(path)
                incomplete += inc
                if code != 0 or errors != 0:
                    bad.append("--mode %s --cpus %d --seed %d %s: exit %d, %d integrity errors"
                               % (mode, cpus, seed, " ".join(extra), code, errors))
    assert not bad, "\n".join(bad)
    if mode == "ring":
        # The case this guards is met: ring captures begin with such rests.
        assert incomplete > 0
    else:
        # Linear mode loses no buffer: every combine event is whole.
        assert incomplete == 0


def test_a_continuation_slot_in_the_middle_of_a_buffer_is_still_an_error(tmp_path):
    path = str(tmp_path / "ring.kev")
    simulate(path, "ring", 4, 7, ["--buffers", "4"])
    doc = json.loads(subprocess.run([TRACEDUMP, "--json", path], capture_output=True,
                                    text=True, timeout=60, check=True).stdout)
    assert doc["summary"]["incomplete_events"] > 0 and doc["errors"] == []
    # In the first buffer (it follows overwritten ones): the second event of
    # a CPU whose first two events there are simple (no rest, no CB: either
    # would close the CPU's window by itself; this checks that a simple event
    # does).  Its header made a CC (struct flag 2, bits 31-30) continues
    # nothing: KSP-14.
    evs = doc["events"]
    second_buffer = next(e["offset"] for e in evs[1:] if e["name"] == "BUFFER")
    per_cpu = {}
    for e in evs:
        if e["offset"] < second_buffer and e["class_name"] != "CONTROL":
            per_cpu.setdefault(e["cpu"], []).append(e)
    victim = next((l[1] for l in per_cpu.values()
                   if len(l) > 1 and not l[0]["combine"] and not l[1]["combine"]), None)
    assert victim is not None
    data = bytearray(open(path, "rb").read())
    assert data[victim["offset"] + 3] >> 6 == 0            # little-endian header: an S slot
    data[victim["offset"] + 3] |= 0x80
    with open(path, "wb") as f:
        f.write(data)
    p = subprocess.run([TRACEDUMP, "--json", path], capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, p.stderr
    bad = json.loads(p.stdout)
    assert [(e["offset"], e["rule"], e["kind"]) for e in bad["errors"]] == \
        [(victim["offset"], "KSP-14", "no_open_combine")]
    # The rests at the buffer's start are still incomplete events, not errors.
    assert bad["summary"]["incomplete_events"] == doc["summary"]["incomplete_events"]
