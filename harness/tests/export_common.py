# SPDX-License-Identifier: MIT
"""Shared by the tests of tracedump's exports (test_export_*.py, issue 17):
the tools, the files exported (the golden POSIX trace logs and simulated
kernel traces made by tracesim), and where the figures and pictures go."""

import glob
import json
import os
import subprocess

import pytest

from conftest import REPO

TRACEDUMP = os.path.join(REPO, "build", "bin", "tracedump")
TRACESIM = os.path.join(REPO, "build", "bin", "tracesim")
GOLDEN_LOGS = sorted(glob.glob(os.path.join(REPO, "vectors", "trl", "logs", "*.log")))
REPORTS = os.path.join(REPO, "reports", "export")

# Simulated kernel traces: drops and per-CPU wraps of the low word (linear),
# and a ring that overwrites its oldest buffers (BUFFER sequence gaps).
SIMS = {
    "sim-linear.kev": ["--cpus", "2", "--events", "20000", "--seed", "3", "--buffers", "2",
                       "--logger-every", "450", "--wrap-early"],
    "sim-ring.kev": ["--cpus", "3", "--events", "100000", "--seed", "5", "--mode", "ring",
                     "--buffers", "8", "--logger-every", "300"],
}


def built():
    return os.access(TRACEDUMP, os.X_OK) and os.access(TRACESIM, os.X_OK)


# The mark of every export test: it needs the tools built.
NEEDS_TOOLS = pytest.mark.skipif(not built(), reason="build/bin/tracedump and tracesim are "
                                 "not built ('make')")


def make_sims(folder):
    """The simulated traces in folder: {name: path}."""
    out = {}
    for name, args in SIMS.items():
        path = os.path.join(str(folder), name)
        subprocess.run([TRACESIM, "-q", "-o", path] + args, check=True, timeout=120)
        out[name] = path
    return out


def tracedump(*args, check=True):
    p = subprocess.run([TRACEDUMP] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    if check and p.returncode not in (0, 1):
        raise AssertionError("tracedump %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                           p.stderr.decode(errors="replace")))
    return p


def dump_json(path):
    return json.loads(tracedump("--json", path).stdout)


def reports_dir():
    os.makedirs(REPORTS, exist_ok=True)
    return REPORTS
