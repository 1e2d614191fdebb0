# SPDX-License-Identifier: MIT
"""make bench-compare (bench/compare.py, issue 19 item 5): the reference and
LTTng-UST side by side.  A tiny run checks the shape of reports/bench.json and
the SVG it draws; without LTTng-UST the driver says how to get it and exits 0."""

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import PYTHON, REPO

COMPARE = os.path.join(REPO, "bench", "compare.py")
REF = os.path.join(REPO, "build", "bench", "bench_compare")
SVG_NS = "{http://www.w3.org/2000/svg}"
THREADS = [1, 2]


def lttng_installed():
    return shutil.which("lttng") and shutil.which("lttng-sessiond") and \
        shutil.which("babeltrace2") and subprocess.run(
            ["cc", "-E", "-x", "c", "-"], input="#include <lttng/tracepoint.h>\n",
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            universal_newlines=True).returncode == 0


def test_without_lttng_it_says_how_to_get_it_and_exits_0(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))           # no lttng, no compiler
    p = subprocess.run([PYTHON, COMPARE, "--json", str(tmp_path / "b.json"),
                        "--svg", str(tmp_path / "b.svg")], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    assert p.returncode == 0, p.stdout
    assert "make bench-deps" in p.stdout and "liblttng-ust-dev" in p.stdout
    assert not (tmp_path / "b.json").exists()


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    if not os.access(REF, os.X_OK):
        pytest.skip("build/bench/bench_compare is not built (make build/bench/bench_compare)")
    if not lttng_installed():
        pytest.skip("LTTng-UST is not installed (make bench-deps)")
    d = tmp_path_factory.mktemp("bench")
    p = subprocess.run([PYTHON, COMPARE, "--runs", "1", "--log-runs", "1", "--events", "20000",
                        "--flush-events", "20000", "--threads", ",".join(map(str, THREADS)),
                        "--lttng-bin", str(d / "bench_lttng"),
                        "--json", str(d / "bench.json"), "--svg", str(d / "bench.svg")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout
    with open(str(d / "bench.json")) as f:
        return p.stdout, json.load(f), ET.parse(str(d / "bench.svg")).getroot()


@pytest.mark.slow
def test_bench_json_has_every_row_of_the_table(tiny_run):
    out, doc, _ = tiny_run
    cases = [r["reference_case"] for r in doc["rows"]]
    assert cases == ["record-sim", "record-real", "filtered", "nostream", "log-bytes",
                     "log-kept", "readback"]
    for r in doc["rows"]:
        assert r["reference"] > 0 and r["lttng"] > 0, r
        assert r["case"].split(",")[0] in out                # the table was printed
    assert [t["threads"] for t in doc["threads"]] == THREADS
    for t in doc["threads"]:
        for k in ("reference_events_per_s", "lttng_events_per_s",
                  "reference_ns_per_event", "lttng_ns_per_event"):
            assert t[k] > 0, (k, t)
    assert doc["setup"]["runs"] == 1 and doc["setup"]["events"] == 20000
    for tracer in ("reference", "lttng"):                  # a share of the events fired
        assert 0 < doc["medians"]["log-kept"][tracer] <= 1, tracer
    assert "2 threads on 2 cores" in doc["table"]


@pytest.mark.slow
def test_svg_draws_ns_per_event_against_threads(tiny_run):
    _, doc, svg = tiny_run
    assert svg.tag == SVG_NS + "svg"
    lines = {p.get("class"): p for p in svg.iter(SVG_NS + "polyline")}
    assert set(lines) == {"reference", "lttng"}
    for name, line in lines.items():
        points = [tuple(map(float, xy.split(","))) for xy in line.get("points").split()]
        assert len(points) == len(THREADS)
        assert [x for x, _ in points] == sorted(x for x, _ in points)
    labels = [t.text for t in svg.iter(SVG_NS + "text")]
    assert "LTTng-UST" in labels and "threads" in labels
