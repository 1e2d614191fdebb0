#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""calibrate_timings.py -- measures each conformance test's wall time on the
reference and writes the table the runner's time limits come from
(conformance/timings.tsv, harness/runner/timelimits.py).

    make calibrate-timings                  (builds first; the usual way)
    harness/tools/calibrate_timings.py [--runs 3] [--out conformance/timings.tsv]

Runs the whole suite RUNS times against the reference (harness/run.py
--expect-reference, with the built programs) and keeps each test's longest
time: the table is what a test needs on a machine like this one at its
slowest, and the runner multiplies it (timelimits.FACTOR) and gives at least
timelimits.FLOOR seconds.  Run it again when tests are added or become slower,
and commit the table.  Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HARNESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(HARNESS_DIR)
sys.path.insert(0, HARNESS_DIR)

from runner import timelimits       # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(prog="calibrate_timings.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="runs of the suite (default 3)")
    p.add_argument("--out", default=os.path.join(ROOT, "conformance", "timings.tsv"))
    p.add_argument("--python", default=sys.executable)
    p.add_argument("run_args", nargs="*", help="more arguments for run.py (after --)")
    args = p.parse_args(argv)
    longest = {}
    with tempfile.TemporaryDirectory(prefix="calibrate.") as tmp:
        for n in range(1, args.runs + 1):
            reports = os.path.join(tmp, "reports%d" % n)
            # The default limit for every test: the table is not used to make itself.
            cmd = [args.python, os.path.join(HARNESS_DIR, "run.py"), "--expect-reference",
                   "--no-timings", "--no-progress", "--reports", reports] + args.run_args
            r = subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True)
            if r.returncode != 0:
                sys.stdout.write(r.stdout)
                sys.stderr.write("calibrate_timings.py: run %d: run.py exited %d; the table is "
                                 "made from a passing run of the reference only\n"
                                 % (n, r.returncode))
                return 2
            with open(os.path.join(reports, "conformance.json")) as f:
                doc = json.load(f)
            ran = [t for t in doc["tests"] if t.get("status")]      # not the unrun ones
            for t in ran:
                s = t["duration_ms"] / 1000.0
                longest[t["id"]] = max(s, longest.get(t["id"], 0.0))
            print("run %d: %d tests, %.1f s" % (n, len(ran), doc["summary"]["duration_s"]))
    timelimits.write_timings(args.out, longest)
    slowest = sorted(longest.items(), key=lambda kv: -kv[1])[:5]
    print("wrote %s: %d tests; slowest %s" % (os.path.relpath(args.out), len(longest), ", ".join(
        "%s %.2f s" % kv for kv in slowest)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
