# SPDX-License-Identifier: MIT
"""The odd vendor (harness/vendors/odd/README.md): the judge of its run
(check_report.py) and a variant of its header with one declaration removed.

The full run against the fixture is 'make check-odd-vendor' (part of 'make
check'); these tests check that its judgement can fail, and that a header
missing one declaration costs exactly the rule that requires it (issue 12,
item 5) -- which needs the harness to report a test program that does not
compile as a result instead of stopping.
Run: /usr/bin/python3 -m pytest harness/tests/test_odd_vendor.py
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import HARNESS, REPO

ODD = os.path.join(HARNESS, "vendors", "odd")
sys.path.insert(0, ODD)
import check_report  # noqa: E402

GAPS = check_report.read_gaps(os.path.join(ODD, "expected_gaps.tsv"))


def doc_with(results):
    """A report document with one test per rule: {rule: result}."""
    return {"rules": [{"id": r, "result": v, "reason": v.lower(),
                       "failures": [] if v == "PASS" else
                       [{"test": "t." + r, "result": v, "message": "m"}]}
                      for r, v in results.items()],
            "tests": [{"id": "t." + r, "rules": [r], "result": v, "message": "m"}
                      for r, v in results.items()]}


def test_expected_gaps_are_the_four_minima():
    assert sorted(GAPS) == ["limits._POSIX_TRACE_EVENT_NAME_MAX", "limits._POSIX_TRACE_NAME_MAX",
                            "limits._POSIX_TRACE_SYS_MAX", "limits._POSIX_TRACE_USER_EVENT_MAX"]


def test_judge_passes_only_the_gaps():
    results = dict.fromkeys(GAPS, "FAIL")
    results.update({"a.ok": "PASS", "b.known": "UNRESOLVED"})
    assert check_report.problems(doc_with(results), {"b.known": "reason"}, GAPS) == []


def test_judge_fails_an_unexpected_result():
    for bad in ("FAIL", "UNRESOLVED"):
        results = dict.fromkeys(GAPS, "FAIL")
        results["a.new"] = bad
        out = check_report.problems(doc_with(results), {}, GAPS)
        assert out and out[0].startswith(bad + " a.new"), out


def test_judge_fails_a_gap_that_passes():
    results = dict.fromkeys(GAPS, "FAIL")
    results["limits._POSIX_TRACE_SYS_MAX"] = "PASS"
    out = check_report.problems(doc_with(results), {}, GAPS)
    assert out == ["deliberate gap limits._POSIX_TRACE_SYS_MAX is PASS, expected FAIL (%s)"
                   % GAPS["limits._POSIX_TRACE_SYS_MAX"]]


def test_judge_knows_the_fixture():
    odd = {"implementation": {"impl": "vendor", "profile": {"constants": {
        "POSIX_TRACE_APPEND": 73, "POSIX_TRACE_FLUSH": 73}}}}
    assert check_report.not_the_fixture(odd) is None
    ref = {"implementation": {"impl": "vendor", "profile": {"constants": {
        "POSIX_TRACE_APPEND": 4, "POSIX_TRACE_FLUSH": 3}}}}
    assert "did not see the odd header" in check_report.not_the_fixture(ref)
    odd["implementation"]["impl"] = "reference"
    assert "vendor mode" in check_report.not_the_fixture(odd)


# ---- a header missing one declaration ---------------------------------------------

# The prototype of posix_trace_attr_getclockres: only header_trace_h.c needs it
# declared (the other tests that call it still compile with the C11 compilers
# of Debian 12, with a warning about an implicit declaration, and link).
MISSING = "int  posix_trace_attr_getclockres(const trace_attr_t *, struct timespec *);\n"
MISSING_RULE = "trace_h.prototypes-trc"


@pytest.mark.slow          # the slow tier ('make check-full')
def test_header_missing_one_declaration(tmp_path):
    if not shutil.which("make") or not os.path.exists(os.path.join(REPO, "config.mk")):
        pytest.skip("needs make and a configured tree")
    include = tmp_path / "include"
    shutil.copytree(os.path.join(ODD, "include"), str(include))
    header = include / "trace.h"
    text = header.read_text()
    assert text.count(MISSING) == 1, "the fixture's trace.h no longer declares it so"
    header.write_text(text.replace(MISSING, ""))
    gaps = tmp_path / "gaps.tsv"
    gaps.write_text(open(os.path.join(ODD, "expected_gaps.tsv")).read() +
                    "%s\tthe variant header lacks posix_trace_attr_getclockres\n" % MISSING_RULE)
    run = tmp_path / "run"
    # A make of its own (not the jobserver of a 'make check' that runs pytest).
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(["make", "-j2", "-C", REPO, "--no-print-directory", "check-odd-vendor",
                        "ODD_BUILD=%s" % (tmp_path / "build"), "ODD_RUN=%s" % run,
                        "ODD_TRACE_INCLUDE=%s" % include, "ODD_EXPECTED=%s" % gaps],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=env)
    report = run / "reports" / "conformance.json"
    assert report.exists(), "no report:\n" + p.stdout[-4000:]
    # check_report.py: no other rule FAILs or is UNRESOLVED, the gaps do FAIL.
    assert p.returncode == 0, p.stdout[-4000:]
    doc = json.loads(report.read_text())
    rules = {r["id"]: r for r in doc["rules"]}
    failure = " ".join(f["message"] for f in rules[MISSING_RULE]["failures"])
    assert "posix_trace_attr_getclockres" in failure
    # A complete report: every rule of the header test is there, and judged.
    header_rules = {r for t in doc["tests"] if t["id"].startswith("header_trace_h.")
                    for r in t["rules"]}
    assert MISSING_RULE in header_rules and len(header_rules) > 10
    for name in ("junit.xml", "index.html"):
        assert (run / "reports" / name).stat().st_size > 0
