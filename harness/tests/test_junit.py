# SPDX-License-Identifier: MIT
"""reports/junit.xml against the JUnit format of Jenkins' xunit (junit-10.xsd,
described by harness/schemas/junit-10.xsd) and as a real consumer reads it
(junitparser), and the plain-text reports/summary.txt (issue 16, item 1)."""

import os
import shutil
import subprocess

import pytest

from conftest import HARNESS

SCHEMA = os.path.join(HARNESS, "schemas", "junit-10.xsd")


def xmllint(path):
    # Not a skip: a check that is not done would pass unseen.
    assert shutil.which("xmllint"), "xmllint is not installed: 'make deps' (libxml2-utils)"
    return subprocess.run(["xmllint", "--noout", "--schema", SCHEMA, path],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)


def junit_of(env):
    return os.path.join(env["reports"], "junit.xml")


def test_junit_validates_against_the_schema(full_run):
    env, _, _ = full_run
    p = xmllint(junit_of(env))
    assert p.returncode == 0, p.stdout
    assert "validates" in p.stdout


def test_the_schema_rejects_what_the_format_does_not_allow(tmp_path):
    # The two faults the old report had: a skipped count on <testsuites>, and
    # properties inside a testcase.  The schema must see them.
    bad = tmp_path / "bad.xml"
    bad.write_text('<?xml version="1.0"?>\n<testsuites tests="1" skipped="0">'
                   '<testsuite name="s" tests="1" failures="0" errors="0">'
                   '<testcase name="c"><properties/></testcase></testsuite></testsuites>\n')
    p = xmllint(str(bad))
    assert p.returncode != 0
    assert "'skipped'" in p.stdout and "'properties'" in p.stdout


def _suites(env):
    try:
        import junitparser
    except ImportError:
        pytest.fail("junitparser is not installed: 'make deps' (python3-junitparser)")
    xml = junitparser.JUnitXml.fromfile(junit_of(env))
    return junitparser, {s.name: s for s in xml}


def test_junitparser_reads_one_suite_per_option_holding_the_rules(full_run):
    env, _, doc = full_run
    junitparser, suites = _suites(env)
    for option in ("TRC", "TEF", "TRL"):
        rules = [r for r in doc["rules"] if r["option"] == option]
        suite = suites["rules." + option]
        assert suite.tests == len(rules)
        assert suite.failures == sum(r["result"] == "FAIL" for r in rules)
        assert suite.errors == sum(r["result"] == "UNRESOLVED" for r in rules)
        assert suite.skipped == sum(r["result"] in ("UNSUPPORTED", "UNTESTED") for r in rules)
        assert sorted(c.name for c in suite) == sorted(r["id"] for r in rules)
    cases = {c.name: c for c in suites["rules.TRC"]}
    # A failing rule: its failing check's message, every failing test in the text.
    fail = cases["r.shared"].result
    assert len(fail) == 1 and isinstance(fail[0], junitparser.Failure)
    assert "EINVAL" in fail[0].message and "fake.c:12" in fail[0].message
    assert "fake.fail" in fail[0].text
    assert isinstance(cases["r.unresolved"].result[0], junitparser.Error)
    assert isinstance(cases["r.untested"].result[0], junitparser.Skipped)
    assert isinstance(cases["r.never"].result[0], junitparser.Skipped)
    assert cases["r.pass"].result == []


def test_junitparser_reaches_the_tests_too(full_run):
    env, _, doc = full_run
    junitparser, suites = _suites(env)
    suite = suites["tests.fake_tests.py"]
    assert suite.tests == len(doc["tests"])
    assert suite.failures == doc["summary"]["tests"]["FAIL"]
    assert suite.errors == doc["summary"]["tests"]["UNRESOLVED"]
    cases = {c.name: c for c in suite}
    assert isinstance(cases["fake.fail"].result[0], junitparser.Failure)
    assert "rules: r.fail, r.shared" in cases["fake.fail"].system_out


def test_summary_txt_holds_the_summary_and_every_failure(full_run):
    env, p, doc = full_run
    with open(os.path.join(env["reports"], "summary.txt")) as f:
        text = f.read()
    assert doc["summary"]["verdict"]["text"] in text
    assert "failing rules:" in text
    for r in doc["rules"]:
        if r["result"] in ("FAIL", "UNRESOLVED"):
            assert r["id"] in text
    # The summary the terminal showed (which adds the list of report files).
    assert text in p.stdout
