# SPDX-License-Identifier: MIT
"""Pictures of the kernel vectors that fail, for the report page (issue 17):
for each kernel slot protocol vector (vectors/ksp, run by kvecrun) whose
result is FAIL or UNRESOLVED, the trace file the vector builds
('kvecrun --run ID --trace-out FILE') drawn by 'tracedump --svg' -- a
per-CPU timeline with its classes, DROPPED and buffer wraps
(reference/dump/EXPORT.md).  report_html.py shows each inline under the
failure.  Nothing is drawn when the tools are not built; a vector whose
trace cannot be built or drawn simply has no picture."""

import os
import subprocess
import tempfile

MAX_PICTURES = 20               # the page stays readable when everything fails
MAX_SVG_BYTES = 4 * 1024 * 1024


def _svg_of(kvecrun, tracedump, test_id, folder):
    kev = os.path.join(folder, test_id + ".kev")     # the picture's title
    try:
        subprocess.run([kvecrun, "--run", test_id, "--trace-out", kev], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=120)
        if not os.path.isfile(kev):
            return None
        # Run in the folder, on the file's own name: the picture's title is
        # then "ksp.sim.small.kev", not a temporary path of this machine.
        p = subprocess.run([os.path.abspath(tracedump), "--svg", os.path.basename(kev)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=300,
                           cwd=folder)
    except (OSError, subprocess.TimeoutExpired):
        return None
    svg = p.stdout.decode("utf-8", errors="replace")
    if p.returncode not in (0, 1) or "<svg" not in svg or len(svg) > MAX_SVG_BYTES:
        return None
    return svg[svg.index("<svg"):]          # inline: without the XML declaration


def timelines(doc, build):
    """{test id: SVG text} for the failing kernel vectors of doc."""
    kvecrun = os.path.join(build, "harness", "kvecrun")
    tracedump = os.path.join(build, "bin", "tracedump")
    if not (os.access(kvecrun, os.X_OK) and os.access(tracedump, os.X_OK)):
        return {}
    out = {}
    for t in doc["tests"]:
        if t.get("executable") != "kvecrun" or t["result"] not in ("FAIL", "UNRESOLVED"):
            continue
        if len(out) >= MAX_PICTURES:
            break
        with tempfile.TemporaryDirectory(prefix="kvec-timeline-") as folder:
            svg = _svg_of(kvecrun, tracedump, t["id"], folder)
        if svg:
            out[t["id"]] = svg
    return out
