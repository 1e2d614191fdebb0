# SPDX-License-Identifier: MIT
"""The test framework (conformance/tests/ct.h, ct.c): its protocol, result
codes and messages, built with a self-check program that calls no trace
function (harness/tests/fixtures/ct_selfcheck.c)."""

import os
import re
import shutil
import subprocess

import pytest

from conftest import FIXTURES, REPO, STD_CFLAGS

CC = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")


@pytest.fixture(scope="module")
def selfcheck(tmp_path_factory):
    if not CC:
        pytest.skip("no C compiler")
    out = str(tmp_path_factory.mktemp("ct") / "ct_selfcheck")
    ct = os.path.join(REPO, "conformance", "tests")
    subprocess.run([CC, *STD_CFLAGS, "-pthread", "-Wall",
                    "-Wextra", "-Werror", "-I" + os.path.join(REPO, "include"), "-I" + ct,
                    "-o", out, os.path.join(FIXTURES, "ct_selfcheck.c"),
                    os.path.join(ct, "ct.c"), "-pthread"], check=True)
    return out


def run(exe, test, env=None):
    p = subprocess.run([exe, "--run", "ct_selfcheck." + test], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       env=dict(os.environ, **(env or {})))
    last = p.stdout.rstrip("\n").splitlines()[-1]
    m = re.match(r"^RESULT (\S+) (.*)$", last)
    assert m, p.stdout
    return p.returncode, m.group(1), m.group(2), p.stdout


def test_list(selfcheck):
    p = subprocess.run([selfcheck, "--list"], stdout=subprocess.PIPE, universal_newlines=True,
                       check=True)
    lines = p.stdout.splitlines()
    ids = [line.split("\t")[0] for line in lines]
    assert ids == sorted(ids) and len(ids) == 20
    assert "ct_selfcheck.check_fails\tself.a,self.b\tTRC\tposix_trace_create" in lines
    assert "ct_selfcheck.passes\tself.a\tTRC" in lines         # no functions: 3 fields


@pytest.mark.parametrize("test,code,name,pattern", [
    ("passes", 0, "PASS", r"^3 checks passed$"),
    ("check_fails", 1, "FAIL",
     r"^1 \+ 1 is 2, expected 3 \[check: two == 3\] \(breaks self\.a,self\.b; "
     r"ct_selfcheck\.c:\d+\)$"),
    ("err_fails", 1, "FAIL", r"^ret\(0\): expected EINVAL \(22\), got 0 \(success\) "),
    ("ok_fails", 1, "FAIL", r"^ret\(ENAMETOOLONG\): expected 0 \(success\), got ENAMETOOLONG "
     r"\(36\)"),
    ("odd_error_number", 1, "FAIL", r"got 123456 \(not an errno value\)"),
    ("may_err_zero", 3, "UNSUPPORTED", r"does not detect this optional .*EINVAL"),
    ("may_err_other", 1, "FAIL", r"expected EINVAL \(22\) \(or 0: a \"may fail\" error\), "
     r"got ENOSYS"),
    ("may_err_expected", 0, "PASS", r"^1 check passed$"),
    ("setup_fails", 2, "UNRESOLVED", r"^setup failed: ret\(ENOMEM\) returned ENOMEM \(12\) "
     r"\(ct_selfcheck\.c:\d+\)$"),
    ("rule_named", 1, "FAIL", r"\(breaks self\.b; "),
    ("exits_inside", 2, "UNRESOLVED", r"exited .* before the test ended"),
    ("untested", 4, "UNTESTED", r"^\{TRACE_SYS_MAX\} is indeterminate: 7 "),
    ("unsupported", 3, "UNSUPPORTED", r"^no TEF "),
    ("multiline_message", 1, "FAIL", r"^line one line two tabbed "),
    ("no_check", 2, "UNRESOLVED", r"^the test made no check \(ct_selfcheck\.c:\d+\)$"),
    ("rules_second_fails", 1, "FAIL", r"^the second rule breaks .*\(breaks self\.b; "),
    ("rules_both_pass", 0, "PASS", r"^3 checks passed$"),
    ("rules_unnamed_check", 2, "UNRESOLVED", r"^test bug: a check in a test of several rules"
     r" names none of them"),
    ("rules_one_unchecked", 2, "UNRESOLVED", r"^the test made no check of rule self\.b "),
])
def test_results_and_messages(selfcheck, test, code, name, pattern):
    rc, got, msg, out = run(selfcheck, test)
    assert (rc, got) == (code, name), out
    assert re.search(pattern, msg), msg


def rule_lines(out):
    return [line.split(" ", 3)[1:3] for line in out.splitlines()
            if line.startswith("RULE-RESULT ")]


@pytest.mark.parametrize("test,expected", [
    # The failing check's rule alone FAILs; the other one had passed checks
    # but its later ones did not run.
    ("rules_second_fails", [["self.a", "UNRESOLVED"], ["self.b", "FAIL"]]),
    ("rules_both_pass", [["self.a", "PASS"], ["self.b", "PASS"]]),
    ("rules_one_unchecked", [["self.a", "PASS"], ["self.b", "UNRESOLVED"]]),
    # A failure with no rule named is every rule's: no per-rule lines.
    ("check_fails", []),
    # One rule: its RESULT says it all.
    ("err_fails", []),
])
def test_rule_results(selfcheck, test, expected):
    _, _, _, out = run(selfcheck, test)
    assert rule_lines(out) == expected, out


def test_failed_check_prints_details(selfcheck):
    _, _, _, out = run(selfcheck, "check_fails")
    assert "condition: two == 3" in out and "seen:      1 + 1 is 2, expected 3" in out


def test_helpers(selfcheck):
    rc, got, msg, out = run(selfcheck, "options_and_hex", {"CT_OPTIONS": "TRC,TEF"})
    assert (rc, got) == (0, "PASS"), out
    assert "note: all helpers answered" in out


def test_unknown_test_and_usage(selfcheck):
    p = subprocess.run([selfcheck, "--run", "nope"], stdout=subprocess.PIPE,
                       universal_newlines=True)
    assert p.returncode == 2 and p.stdout.startswith("RESULT UNRESOLVED no test named 'nope'")
    p = subprocess.run([selfcheck], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 2 and b"usage" in p.stderr


def test_run_all(selfcheck):
    p = subprocess.run([selfcheck, "--run-all"], stdout=subprocess.PIPE,
                       universal_newlines=True, env=dict(os.environ, CT_OPTIONS="TRC,TEF"))
    assert p.returncode == 1
    assert re.search(r"^PASS\s+ct_selfcheck\.passes$", p.stdout, re.M)
    assert re.search(r"^FAIL\s+ct_selfcheck\.check_fails$", p.stdout, re.M)
    assert "4 PASS, 8 FAIL, 5 UNRESOLVED, 2 UNSUPPORTED, 1 UNTESTED" in p.stdout


def test_portable_tests_include_only_standard_headers():
    """conformance/tests/*.c may include standard headers, <trace.h>, "ct.h" and
    the shared portable helpers "ct_stream.h", "ct_log.h", "ct_tef.h", "ct_probe.h",
    "ct_trace_h.h", "ct_calls.h", "ct_notes.h" and "ct_exec.h" (exec through the test
    wrapper) only: never the reference's private headers or <posixtrace_sim.h>."""
    allowed_local = {"ct.h", "ct_stream.h", "ct_log.h", "ct_tef.h", "ct_probe.h", "ct_trace_h.h",
                     "ct_calls.h", "ct_notes.h", "ct_exec.h"}
    bad = []
    tests_dir = os.path.join(REPO, "conformance", "tests")
    for name in sorted(os.listdir(tests_dir)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(tests_dir, name), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = re.match(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
                if not m:
                    continue
                header = m.group(2)
                if m.group(1) == '"' and header not in allowed_local:
                    bad.append("%s:%d: #include \"%s\"" % (name, n, header))
                if "posixtrace" in header or header.startswith(("reference/", "../")):
                    bad.append("%s:%d: #include <%s>" % (name, n, header))
    assert not bad, "portable tests include non-portable headers:\n" + "\n".join(bad)
