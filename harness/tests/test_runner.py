# SPDX-License-Identifier: MIT
"""The runner (harness/run.py) against a fake test program that passes, fails,
crashes, hangs and breaks the protocol in every way the runner must handle."""

import os
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import load, run_runner

NO_HANG = ["--test", "fake.[!h]*"]         # every fake test but fake.hang


def by_id(items):
    return {x["id"]: x for x in items}


def test_exit_status_is_1_when_rules_fail(full_run):
    env, p, doc = full_run
    assert p.returncode == 1, p.stdout + p.stderr


def test_each_behaviour_gives_its_result(full_run):
    _, _, doc = full_run
    t = by_id(doc["tests"])
    expect = {
        "fake.pass": ("PASS", "3 checks passed"),
        "fake.fail": ("FAIL", "expected 0 (success), got EINVAL (22)"),
        "fake.crash": ("FAIL", "killed by signal SIGSEGV"),
        "fake.abort": ("FAIL", "killed by signal SIGABRT"),
        "fake.hang": ("UNRESOLVED", "timed out after 2 s"),
        "fake.badexit": ("UNRESOLVED", "exited with status 7 without printing a RESULT line"),
        "fake.mismatch": ("UNRESOLVED", "contradicts its RESULT line"),
        "fake.noresult": ("UNRESOLVED", "exited with status 0 (PASS) without printing a RESULT"),
        "fake.unresolved": ("UNRESOLVED", "setup failed"),
        "fake.unsupported": ("UNSUPPORTED", "optional EINVAL not detected"),
        "fake.untested": ("UNTESTED", "limit indeterminate"),
        "fake.needs_tef": ("UNSUPPORTED", "needs option TEF"),
        "fake.flood": ("PASS", "flooded"),
        "fake.child": ("PASS", "left a child"),
        "fake.trailing": ("PASS", "output followed the RESULT line"),
    }
    for tid, (result, text) in expect.items():
        assert t[tid]["result"] == result, (tid, t[tid])
        assert text in t[tid]["message"], (tid, t[tid]["message"])
    assert t["fake.crash"]["status"] == {"signal": "SIGSEGV"}
    assert t["fake.hang"]["status"] == {"timeout": 2.0}
    assert t["fake.badexit"]["status"] == {"exit": 7}


def test_output_is_kept_and_truncated(full_run):
    _, _, doc = full_run
    t = by_id(doc["tests"])
    assert "check failed at fake.c:12" in t["fake.fail"]["output"]
    assert "oops" in t["fake.badexit"]["output"]
    flood = t["fake.flood"]["output"]
    assert len(flood) < 10000 and "omitted" in flood and "RESULT PASS flooded" in flood


def test_a_left_behind_process_does_not_hold_the_run(full_run):
    _, _, doc = full_run
    assert by_id(doc["tests"])["fake.child"]["duration_ms"] < 5000


def test_unsupported_option_is_not_run(full_run):
    env, _, _ = full_run
    with open(env["log"]) as f:
        runs = [line.split() for line in f]
    ran = [r[0] for r in runs]
    assert "fake.needs_tef" not in ran
    assert sorted(ran) == sorted(set(ran)), "a test ran twice"
    assert all(r[1] == "TRC,KSP" for r in runs), runs[:3]       # CT_OPTIONS
    assert len({r[2] for r in runs}) == len(runs), "tests shared a working directory"


def test_rule_results(full_run):
    _, _, doc = full_run
    r = by_id(doc["rules"])
    expect = {"r.pass": "PASS", "r.shared": "FAIL", "r.fail": "FAIL", "r.crash": "FAIL",
              "r.hang": "UNRESOLVED", "r.badexit": "UNRESOLVED", "r.unresolved": "UNRESOLVED",
              "r.unsup": "UNSUPPORTED", "r.untested": "UNTESTED", "r.tef": "UNSUPPORTED",
              "r.flood": "PASS", "r.child": "PASS", "r.notest": "UNTESTED",
              "r.trl": "UNSUPPORTED", "r.never": "UNTESTED"}
    assert {k: r[k]["result"] for k in expect} == expect
    assert r["r.notest"]["reason"] == "no test checks this rule yet"
    assert r["r.never"]["reason"] == "not testable: cannot be provoked portably"
    assert "does not support option TRL" in r["r.trl"]["reason"]
    assert r["r.shared"]["tests"] == ["fake.fail", "fake.pass2"]
    assert r["r.shared"]["failures"][0]["test"] == "fake.fail"
    assert r["r.fail"]["sources"] == ["S0002"]
    assert r["r.fail"]["spec"][0]["text"] == "The start function shall record START."
    assert r["r.fail"]["summary"] == "fails"
    assert r["r.fail"]["functions"] == ["posix_trace_start"]


def test_summary_counts_and_order(full_run):
    _, _, doc = full_run
    s = doc["summary"]
    assert doc["schema"] == 1
    assert s["tests"]["total"] == len(doc["tests"]) == 16
    assert s["rules"]["total"] == len(doc["rules"]) == 15
    for kind in ("tests", "rules"):
        assert sum(s[kind][k] for k in ("PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED",
                                        "UNTESTED")) == s[kind]["total"]
    ids = [t["id"] for t in doc["tests"]]
    assert ids == sorted(ids)
    assert [r["id"] for r in doc["rules"]][:3] == ["r.pass", "r.shared", "r.fail"]  # catalogue
    assert s["verdict"]["status"] == "FAIL"
    assert doc["implementation"]["options"]["TRC"] is True
    assert doc["implementation"]["options"]["TEF"] is False
    assert doc["implementation"]["options_source"] == "override"


def test_terminal_summary(full_run):
    _, p, _ = full_run
    out = p.stdout
    assert "tests:   16" in out
    assert re.search(r"FAIL\s+r\.crash", out)
    assert "fake.crash: killed by signal SIGSEGV" in out
    assert "DOES NOT CONFORM" in out
    assert "\r" not in out                      # no progress line when not a terminal


def test_junit(full_run):
    env, _, _ = full_run
    root = ET.parse(os.path.join(env["reports"], "junit.xml")).getroot()
    assert root.tag == "testsuites"
    cases = {c.get("name"): c for s in root.iter("testsuite")
             if s.get("name").startswith("tests.") for c in s.iter("testcase")}
    assert len(cases) == 16
    assert cases["fake.fail"].find("failure") is not None
    assert "EINVAL" in cases["fake.fail"].find("failure").get("message")
    assert cases["fake.crash"].find("failure") is not None
    assert cases["fake.hang"].find("error") is not None
    assert cases["fake.needs_tef"].find("skipped") is not None
    assert cases["fake.untested"].find("skipped") is not None
    assert cases["fake.pass"].find("failure") is None
    tests = root.find("testsuite[@name='tests.fake_tests.py']")
    assert tests.get("failures") == "3" and tests.get("errors") == "5"


def test_html(full_run):
    env, _, _ = full_run
    with open(os.path.join(env["reports"], "index.html")) as f:
        page = f.read()
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"<script[^>]*\ssrc=", page)              # inline only
    assert "DOES NOT CONFORM" in page
    assert "The start function shall record START." in page       # the sentence broken
    assert "killed by signal SIGSEGV" in page
    assert "posix_trace_start" in page                              # by function
    assert page.count("<details") == page.count("</details>")
    assert page.count("<table") == page.count("</table>")


@pytest.mark.slow          # the slow tier ('make check-full')
def test_deterministic_whatever_the_jobs(fake_env):
    outs = []
    for jobs in ("1", "3"):
        p = run_runner(fake_env, "-j", jobs, *NO_HANG)
        assert p.returncode == 1
        doc = load(fake_env)
        outs.append(([(t["id"], t["result"], t["message"]) for t in doc["tests"]],
                     [(r["id"], r["result"], r["reason"]) for r in doc["rules"]],
                     [line for line in p.stdout.splitlines()
                      if not line.startswith(("tests:", "running"))]))
    assert outs[0] == outs[1]


@pytest.mark.slow          # the slow tier ('make check-full')
def test_allow_fail(fake_env):
    p = run_runner(fake_env, "--allow-fail", *NO_HANG)
    assert p.returncode == 0
    assert "DOES NOT CONFORM" in p.stdout


def test_exit_0_when_nothing_fails(fake_env):
    p = run_runner(fake_env, *NO_HANG, extra_env={"FAKE_ONLY_PASS": "1"})
    assert p.returncode == 0, p.stdout + p.stderr
    assert "CONFORMS to the" in p.stdout


def test_selection_by_rule(fake_env):
    p = run_runner(fake_env, "--rule", "r.crash")
    assert p.returncode == 1
    doc = load(fake_env)
    assert [t["id"] for t in doc["tests"]] == ["fake.abort", "fake.crash"]
    assert [r["id"] for r in doc["rules"]] == ["r.crash"]
    assert doc["summary"]["partial"] is True
    with open(fake_env["log"]) as f:
        assert sorted(line.split()[0] for line in f) == ["fake.abort", "fake.crash"]


@pytest.mark.slow          # the slow tier ('make check-full')
def test_selection_by_function_and_option(fake_env):
    p = run_runner(fake_env, "--function", "posix_trace_st*")
    doc = load(fake_env)
    assert [t["id"] for t in doc["tests"]] == ["fake.abort", "fake.crash", "fake.fail",
                                               "fake.pass2"]
    p = run_runner(fake_env, "--option", "TEF,TRL")
    assert p.returncode == 0, p.stdout + p.stderr
    doc = load(fake_env)
    assert [t["id"] for t in doc["tests"]] == ["fake.needs_tef"]
    assert {r["id"]: r["result"] for r in doc["rules"]} == {"r.tef": "UNSUPPORTED",
                                                            "r.trl": "UNSUPPORTED"}


def test_selection_by_test_glob_and_list(fake_env):
    p = run_runner(fake_env, "--test", "fake.pass*", "--list")
    assert p.returncode == 0
    assert [line.split("\t")[0] for line in p.stdout.splitlines()] == ["fake.pass",
                                                                        "fake.pass2"]
    assert not os.path.exists(fake_env["log"])                 # --list runs nothing


def test_unknown_rule_fails_loudly(fake_env):
    lst = "fake.pass\tr.pass\tTRC\nfake.fail\tr.nope\tTRC\n"
    p = run_runner(fake_env, extra_env={"FAKE_LIST": lst})
    assert p.returncode == 2
    assert "r.nope" in p.stderr and "catalogue" in p.stderr
    assert not os.path.exists(os.path.join(fake_env["reports"], "conformance.json"))


@pytest.mark.parametrize("listing,complaint", [
    ("fake.pass\tr.pass\n", "expected 3 or 4 tab-separated fields"),
    ("fake.pass\tr.pass\tXYZ\n", "unknown option 'XYZ'"),
    ("fake pass\tr.pass\tTRC\n", "bad test id"),
    ("fake.pass\t\tTRC\n", "no rule id"),
    ("fake.pass\tr.pass\tTRC\tnot a function\n", "bad function name"),
    ("fake.pass\tr.pass\tTRC\nfake.pass\tr.pass\tTRC\n", "given by both"),
])
def test_bad_list_output_fails_loudly(fake_env, listing, complaint):
    p = run_runner(fake_env, extra_env={"FAKE_LIST": listing})
    assert p.returncode == 2, p.stdout
    assert complaint in p.stderr
    if "line" in p.stderr:
        assert "fake_tests.py --list, line" in p.stderr


@pytest.mark.slow          # the slow tier ('make check-full')
def test_duplicate_test_ids_across_programs(fake_env):
    p = run_runner(fake_env, "--exe", fake_env["fake"])
    assert p.returncode == 2
    assert "given by both" in p.stderr


def test_missing_program_for_a_source(fake_env):
    with open(os.path.join(fake_env["root"], "conformance", "tests", "foo.c"), "w") as f:
        f.write("/* a test */\n")
    from conftest import PYTHON, RUN_PY
    import subprocess
    p = subprocess.run([PYTHON, RUN_PY, "--root", fake_env["root"], "--catalogue",
                        fake_env["catalogue"], "--reports", fake_env["reports"], "--no-profile"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    assert p.returncode == 2
    assert "build/conformance/foo" in p.stderr and "make conformance" in p.stderr


def test_unknown_option_override(fake_env):
    p = run_runner(fake_env, "--options", "TRC,BOGUS")
    assert p.returncode == 2
    assert "BOGUS" in p.stderr


@pytest.mark.slow          # the slow tier ('make check-full')
def test_expect_reference_and_known_gaps(fake_env):
    gaps = os.path.join(fake_env["tmp"], "gaps.tsv")
    p = run_runner(fake_env, "--expect-reference", "--rule", "r.fail,r.shared")
    assert p.returncode == 1
    assert "check-conformance: the reference breaks 2 rules" in p.stdout
    with open(gaps, "w") as f:
        f.write("# rules the reference does not meet yet\nr.fail\tnot written yet\n"
                "r.shared\tsame\nr.pass\tfixed already\n")
    p = run_runner(fake_env, "--expect-reference", "--known-gaps", gaps,
                   "--rule", "r.fail,r.shared,r.pass")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "known gap of the reference: not written yet" in p.stdout
    assert "known gaps that now PASS" in p.stdout and "r.pass" in p.stdout
    doc = load(fake_env)
    assert by_id(doc["rules"])["r.fail"]["known_gap"] == "not written yet"


def test_known_gaps_needs_expect_reference(fake_env):
    """--known-gaps alone would be silently ignored: it is an error (exit 2, no
    report written)."""
    gaps = os.path.join(fake_env["tmp"], "gaps.tsv")
    with open(gaps, "w") as f:
        f.write("r.fail\tnot written yet\n")
    p = run_runner(fake_env, "--known-gaps", gaps, "--rule", "r.fail")
    assert p.returncode == 2, p.stdout + p.stderr
    assert "--known-gaps FILE needs --expect-reference" in p.stderr
    assert not os.path.exists(os.path.join(fake_env["reports"], "conformance.json"))


def test_expect_reference_refuses_a_vendor(fake_env):
    p = run_runner(fake_env, "--expect-reference", "--impl", "vendor")
    assert p.returncode == 2
    assert "--expect-reference" in p.stderr


def test_progress_line(fake_env):
    p = run_runner(fake_env, "--progress", "--test", "fake.pass*")
    assert "\x1b[K" in p.stdout and "[2/2]" in p.stdout


def test_no_catalogue_still_reports(fake_env):
    from conftest import PYTHON, RUN_PY
    import subprocess
    env = dict(os.environ, POSIXTRACE_SPEC_DIR=fake_env["spec"])
    p = subprocess.run([PYTHON, RUN_PY, "--root", fake_env["root"], "--reports",
                        fake_env["reports"], "--no-discover", "--no-profile", "--options", "TRC",
                        "--exe", fake_env["fake"], "--test", "fake.pass*"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       env=env)
    assert p.returncode == 0, p.stderr
    assert "no rule catalogue" in p.stdout
    doc = load(fake_env)
    assert {r["id"] for r in doc["rules"]} == {"r.pass", "r.shared"}


def test_an_error_of_the_runner_itself_exits_2(fake_env):
    """A bug in the runner is the harness failing (2), never "does not
    conform" (1, which Python's own status for an uncaught exception would be)."""
    from conftest import HARNESS, PYTHON
    import subprocess
    code = ("import sys; sys.path.insert(0, %r); import run\n"
            "def broken(args): raise ValueError('a bug')\n"
            "run.run = broken\n"
            "sys.exit(run.main(['--no-profile']))\n" % HARNESS)
    p = subprocess.run([PYTHON, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "internal error in the harness" in p.stderr and "ValueError: a bug" in p.stderr


def test_hang_watch_stops_at_a_function_tests_hung_in_or_after():
    """timelimits.HangWatch: three hangs in a row in one function name it in
    CT_STOP_AT; three outside the trace functions after the same function
    returned name it in CT_STOP_HUNG_AFTER (issue 31, item 4); a streak is of
    one kind, and a test that ends otherwise breaks it."""
    from runner import timelimits
    w = timelimits.HangWatch(3)
    after = {"hung_in": None, "hung_after": "posix_trace_create"}
    inside = {"hung_in": "posix_trace_create", "hung_after": None}
    for i, run in enumerate((after, after, inside, after, after, {"result": "PASS"}, after)):
        w.finished("t%d" % i, run)
    assert (w.stop_at(), w.stop_hung_after()) == ("", "")
    w.finished("t7", after)
    w.finished("t8", after)
    assert (w.stop_at(), w.stop_hung_after()) == ("", "posix_trace_create")
    run = {"result": "UNRESOLVED", "message": "not run to the end: posix_trace_create returned "
           "and then the test hung in several tests in a row, and this test was about to call "
           "it (stopped before the call) (x.c:3)"}
    w.explain(run)
    assert run["message"].endswith("(x.c:3) [t6, t7, t8 hung after posix_trace_create returned]")
    assert w.warnings() == ["3 tests in a row hung outside the trace functions after "
                            "posix_trace_create had returned (t6, t7, t8): the tests started "
                            "afterwards stopped before calling it (UNRESOLVED)"]
    for i in range(3):
        w.finished("u%d" % i, inside)
    # Hung in it too: CT_STOP_AT says so, and it is not named twice.
    assert (w.stop_at(), w.stop_hung_after()) == ("posix_trace_create", "")
