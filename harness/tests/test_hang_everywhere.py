# SPDX-License-Identifier: MIT
"""Minutes, not hours, on a library that hangs (issue 13, item 4), and
seconds on one after whose posix_trace_create every test blocks (issue 31,
item 4).

A copy of the reference whose posix_trace_start never returns
(harness/mutants/mutants.py, HANG_IN_START) is judged as a vendor's library
with the per-test time limits of conformance/timings.tsv.  Almost every test
calls posix_trace_start; the run must still end within 3 minutes on 2 cores,
every test that calls it UNRESOLVED, saying where it hung ("hung: every
process of the test blocked with no time limit for 1 s (pause) in
posix_trace_start (start_stop.c:57); last check passed: ...": the mutant
waits in pause(), so the runner sees it stuck, harness/runner/stuck.py, and
ends it before its time limit; or "timed out after 2 s in ..." where that
cannot be seen) or that it stopped before the call once several tests in a
row had hung there, and the tests that never call it keep their result.

A copy whose posix_trace_create, once it has returned, leaves the process
to block outside the trace functions (mutants.HANG_AFTER_CREATE: a thread it
starts keeps stdout's lock) is judged in seconds too: a few tests hang
("hung: ... outside the trace functions (the last call, posix_trace_create
at ..., had returned)"), then the others stop before calling it, "not run to
the end: posix_trace_create returned and then the test hung in several tests
in a row, ...", UNRESOLVED, never FAIL.

Slow (it builds the tests and the vector interpreter against the library): 'make check' runs it
(POSIXTRACE_SKIP_SLOW=1 skips it).  Run:
/usr/bin/python3 -m pytest harness/tests/test_hang_everywhere.py
"""

import json
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import HARNESS, PYTHON, REPO, VECRUN_SRCS

sys.path.insert(0, os.path.join(HARNESS, "mutants"))
import build as mb          # noqa: E402
import mutants as mm        # noqa: E402

# The slow tier ('make check-full'; conftest.py): runs the whole suite against a
# library that hangs (minutes).
pytestmark = pytest.mark.slow

BOUND_S = 180               # the bound for the run, on 2 cores

# Where: a test's source or header, or a vector.
AT = r"(?:[a-z_0-9]+\.[ch]|vectors/[\w/.-]+\.vec):\d+"
TIMED_OUT = re.compile(r"^(timed out after [0-9.]+ s|hung: every process of the test blocked "
                       r"with no time limit for [0-9.]+ s \([a-z0-9_, ]+\)) "
                       r"in posix_trace_start \(" + AT + r"\)"
                       r"(; last check passed: [a-z_0-9]+\.[ch]:\d+ \(\d+ checks?\)"
                       r"|; no check passed yet|)$")
STOPPED = re.compile(r"^not run to the end: posix_trace_start hung in several tests in a row, "
                     r"and (this test was about to call it \(stopped before the call\) "
                     r"\(" + AT + r"\)|a process of this test was about to call it "
                     r"\(" + AT + r"; stopped before the call\), so: .*) "
                     r"\[\S+(, \S+)* hung in posix_trace_start\]$")


def run_broken(reference_as_vendor, tmp_path_factory, folder, edit, name):
    """The whole suite (tests and vectors) run against the reference with
    one edit (mutants.py), as a vendor's library: (conformance.json, the
    completed process, seconds)."""
    if os.environ.get("POSIXTRACE_SKIP_SLOW"):
        pytest.skip("POSIXTRACE_SKIP_SLOW is set")
    wd = str(tmp_path_factory.mktemp(folder))
    # The tests compiled against the reference's headers are linked with the
    # edited library, and the vector interpreter too, as a vendor's run
    # builds it (mk/vectors.mk).
    impl = mb.Implementation(REPO, os.path.join(wd, "impl"), base=reference_as_vendor["impl"])
    impl.edit(edit, folder)
    lib = impl.build()
    build_dir = os.path.join(wd, "build")
    reference_as_vendor["progs"].link(lib, build_dir)
    subprocess.run([mb.CC] + mb.BASE_CFLAGS + ["-I" + impl.include, "-o",
                    os.path.join(build_dir, "harness", "vecrun"),
                    ] + VECRUN_SRCS + [lib, "-pthread"],
                   check=True)
    reports = os.path.join(wd, "reports")
    start = time.monotonic()
    p = subprocess.run([PYTHON, os.path.join(HARNESS, "run.py"), "--root", REPO,
                        "--build", build_dir, "--reports", reports, "--impl", "vendor",
                        "--name", name, "--no-progress", "-j", "2"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    seconds = time.monotonic() - start
    assert p.returncode == 1, p.stdout[-3000:] + p.stderr[-3000:]
    with open(os.path.join(reports, "conformance.json")) as f:
        return json.load(f), p, seconds


@pytest.fixture(scope="module")
def hanging_run(reference_as_vendor, tmp_path_factory):
    return run_broken(reference_as_vendor, tmp_path_factory, "hang-in-start",
                      mm.HANG_IN_START, "hangs in posix_trace_start")


def test_the_run_takes_minutes(hanging_run):
    doc, p, seconds = hanging_run
    assert seconds < BOUND_S, "the run against a library that hangs in posix_trace_start " \
        "took %.0f s (bound %d s)" % (seconds, BOUND_S)
    print("run against a library hanging in posix_trace_start: %.1f s, %d tests"
          % (seconds, len(doc["tests"])))


def test_each_test_that_calls_it_says_where(hanging_run):
    doc, _, _ = hanging_run
    hung = [t for t in doc["tests"] if {"timeout", "hung"} & set(t.get("status") or {})]
    stopped = [t for t in doc["tests"] if t["message"].startswith("not run to the end")]
    # A few hang -- seen stuck in pause() after --hang-idle (1 s), or at their
    # calibrated limits -- before the rest stop early.
    assert 3 <= len(hung) <= 12, [t["id"] for t in hung]
    assert len(stopped) > 100, len(stopped)
    for t in hung:
        assert t["result"] == "UNRESOLVED" and TIMED_OUT.match(t["message"]), t
        if "hung" in t["status"]:
            assert t["status"]["hung"] == 1 and t["duration_ms"] < 1000 * t["time_limit_s"]
        else:
            assert t["status"]["timeout"] == t["time_limit_s"] <= 10
    assert any("hung" in t["status"] for t in hung), "no hang in pause() was seen as one"
    for t in stopped:
        assert t["result"] == "UNRESOLVED" and STOPPED.match(t["message"]), t
    assert any("hung in posix_trace_start" in w for w in doc["summary"]["warnings"])


def test_the_others_keep_their_result(hanging_run):
    """A test that never calls posix_trace_start runs as usual: nothing else
    is UNRESOLVED, and only rules of starting or of what a started stream does
    FAIL (a test that checks a stream's status after posix_trace_start)."""
    doc, _, _ = hanging_run
    other = [t for t in doc["tests"] if t["result"] == "UNRESOLVED"
             and "posix_trace_start" not in t["message"]]
    assert not other, [(t["id"], t["message"]) for t in other]
    passed = [t["id"] for t in doc["tests"] if t["result"] == "PASS"]
    assert "attr_init.defaults" in passed and "eventid.open_same_name" in passed \
        or len(passed) > 50, passed
    assert doc["summary"]["verdict"]["status"] == "FAIL"


# ---- hangs after posix_trace_create returned (issue 31, item 4) ---------------------

AFTER_BOUND_S = 60          # seconds for the run (it took 250 s before the early stop saw it)
HUNG_AFTER = re.compile(r"^hung: every process of the test blocked with no time limit for "
                        r"[0-9.]+ s \([a-z0-9_, ]+\) outside the trace functions \(the last "
                        r"call, posix_trace_create at " + AT + r", had returned\)"
                        r"(; last check passed: [a-z_0-9]+\.[ch]:\d+ \(\d+ checks?\)"
                        r"|; no check passed yet|)$")
STOPPED_AFTER = re.compile(r"^not run to the end: posix_trace_create returned and then the "
                           r"test hung in several tests in a row, and (this test was about to "
                           r"call it \(stopped before the call\) \(" + AT + r"\)|a process of "
                           r"this test was about to call it \(" + AT + r"; stopped before the "
                           r"call\), so: .*) \[\S+(, \S+)* hung after posix_trace_create "
                           r"returned\]$")


@pytest.fixture(scope="module")
def hang_after_create_run(reference_as_vendor, tmp_path_factory):
    return run_broken(reference_as_vendor, tmp_path_factory, "hang-after-create",
                      mm.HANG_AFTER_CREATE, "blocks after posix_trace_create")


def test_hangs_after_a_call_take_seconds(hang_after_create_run):
    doc, p, seconds = hang_after_create_run
    assert seconds < AFTER_BOUND_S, "the run against a library that blocks after " \
        "posix_trace_create took %.0f s (bound %d s)" % (seconds, AFTER_BOUND_S)
    print("run against a library blocking after posix_trace_create: %.1f s, %d tests"
          % (seconds, len(doc["tests"])))


def test_hangs_after_a_call_stop_before_it(hang_after_create_run):
    """A few tests hang outside the trace functions, the last call
    posix_trace_create; the tests started afterwards stop before calling it,
    saying that tests hung after it returned; none of them FAILs."""
    doc, _, _ = hang_after_create_run
    hung = [t for t in doc["tests"] if {"timeout", "hung"} & set(t.get("status") or {})]
    stopped = [t for t in doc["tests"] if t["message"].startswith("not run to the end")]
    assert 3 <= len(hung) <= 12, [(t["id"], t["message"]) for t in hung]
    assert len(stopped) > 100, len(stopped)
    for t in hung:
        assert t["result"] == "UNRESOLVED" and HUNG_AFTER.match(t["message"]), t
    for t in stopped:
        assert t["result"] == "UNRESOLVED" and STOPPED_AFTER.match(t["message"]), t
    assert any("hung outside the trace functions after posix_trace_create had returned" in w
               for w in doc["summary"]["warnings"]), doc["summary"]["warnings"]
    # The rules of creating a stream are not blamed: UNRESOLVED, not FAIL.
    rules = {r["id"]: r["result"] for r in doc["rules"]}
    create = {rid: res for rid, res in rules.items() if rid.startswith("create.")}
    assert create and set(create.values()) <= {"UNRESOLVED", "UNSUPPORTED", "UNTESTED"}, create
    failed = [t["id"] for t in doc["tests"] if t["result"] == "FAIL"]
    calls_create = [t["id"] for t in doc["tests"] if t["result"] == "FAIL"
                    and "posix_trace_create" in t.get("output", "")]
    assert not calls_create, calls_create
    print("%d hung, %d stopped before posix_trace_create, %d FAIL (%s)"
          % (len(hung), len(stopped), len(failed), ", ".join(failed[:10])))
