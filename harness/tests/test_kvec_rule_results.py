# SPDX-License-Identifier: MIT
"""Per-rule results of a kernel slot protocol vector (issue 13 item 2; vectors/ksp/README.md
"Which rule a check serves"): in a .kvec of several rules every check (expect, =>, a step with
->) names its rule(s) with [KSP-n] tags (kvecrun --check and --run refuse one that does not, and
a tag that is not a rule of the header), and a run prints "RULE-RESULT <rule> <CODE> <message>"
before its RESULT line, with vecrun's semantics (test_vector_rule_results.py): the failing
step's rules FAIL, a rule whose checks all ran PASS, one whose checks were not reached
UNRESOLVED, one none of whose checks ran UNTESTED.  Needs build/harness/kvecrun.
"""

import os
import re
import subprocess

import pytest

from conftest import REPO

KVECRUN = os.path.join(REPO, "build", "harness", "kvecrun")
TRACEDUMP = os.path.join(REPO, "build", "bin", "tracedump")
LINT = "a check in a vector of several rules names none of them: add [KSP-n]"

pytestmark = pytest.mark.skipif(not os.access(KVECRUN, os.X_OK),
                                reason="build/harness/kvecrun is not built ('make kvecrun')")

# Three rules; the encoder's checks come first, the decoder's after them.
HEAD = "# per-rule results\nrules: KSP-7, KSP-8, KSP-12\n\n"
SIMPLE = "encode cpu 0 class USER event 5 time 1 words 1 2  [KSP-7]\n" \
         "=> S 0x00001805 0x00000001 0x00000001 0x00000002\n"
COMBINE = "encode cpu 0 class USER event 5 time 2 words 1 2 3  [KSP-8]\n" \
          "=> CB 0x40001805 0x00000002 0x00000001 0x00000002\n" \
          "=> CE 0xC0001805 0x00000002 0x00000003 %s\n"
DECODED = "file little\nslot S 0 USER 13 0x41 0xD 0\n" \
          "expect event 0 USER 13 0x41 words 0xD 0  [KSP-12]\n"


def kvecrun(*args, env=None):
    full_env = dict(os.environ)
    full_env.pop("KSP_DECODER", None)
    return subprocess.run([KVECRUN] + list(args), capture_output=True, text=True, timeout=120,
                          env=full_env)


def run_vector(tmp_path, body, head=HEAD, decoder=None):
    """kvecrun --file: (code, message, {rule: (CODE, message)})."""
    path = tmp_path / "v.kvec"
    path.write_text(head + body)
    p = kvecrun(*(["--decoder", decoder] if decoder else []), "--file", str(path))
    lines = p.stdout.strip().splitlines()
    assert lines and lines[-1].startswith("RESULT "), p.stdout + p.stderr
    code, _, msg = lines[-1][len("RESULT "):].partition(" ")
    assert p.returncode == ["PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED", "UNTESTED"].index(code)
    rules = {}
    for line in lines[:-1]:
        m = re.match(r"^RULE-RESULT (\S+) (\S+) ?(.*)$", line)
        if m:
            assert m.group(1) not in rules, "two lines for " + m.group(1)
            rules[m.group(1)] = (m.group(2), m.group(3))
    return str(path), code, msg, rules


# ---- the lint -----------------------------------------------------------------

@pytest.mark.parametrize("check", [
    "expect event 0 USER 13 0x41 words 0xD 0",         # a decoder expectation
    "expect bytes slot 0 hex:0d180000",                 # a reference-only expectation
    "stamp cpu 0 now 100 -> 100",                       # a step with ->
    "encode cpu 0 class USER event 5 time 1 words 1 2\n=> S 0x00001805 0x00000001 1 2",  # =>
])
def test_untagged_check_in_a_vector_of_several_rules_is_refused(tmp_path, check):
    path = tmp_path / "v.kvec"
    path.write_text(HEAD + "file little\nslot S 0 USER 13 0x41 0xD 0\n" + check + "\n")
    line = 7 if check.startswith("encode") else 6   # the => line; encode itself is no check
    p = kvecrun("--check", str(path))
    assert p.returncode == 2
    assert p.stdout.strip() == "%s:%d: %s" % (path, line, LINT)
    # --run: that vector alone is UNRESOLVED with the message, nothing runs.
    _, code, msg, rules = run_vector(tmp_path, path.read_text()[len(HEAD):])
    assert (code, msg) == ("UNRESOLVED", "vector error: %s:%d: %s" % (path, line, LINT))
    assert rules == {}


def test_a_tag_must_be_a_rule_of_the_vector(tmp_path):
    path = tmp_path / "v.kvec"
    path.write_text(HEAD + SIMPLE.replace("[KSP-7]", "[KSP-7] [KSP-9]"))
    p = kvecrun("--check", str(path))
    assert p.returncode == 2
    assert p.stdout.strip() == "%s:4: the tag [KSP-9] is not a rule of this vector " \
        "(rules: KSP-7,KSP-8,KSP-12)" % path


def test_tagged_checks_and_one_rule_vectors_pass_the_lint(tmp_path):
    # The => lines take their encode line's tags; a vector of one rule needs none.
    ok = tmp_path / "ok.kvec"
    ok.write_text(HEAD + SIMPLE + COMBINE % "0x00000000" + DECODED)
    one = tmp_path / "one.kvec"
    one.write_text("# one rule\nrules: KSP-7\n\n" + SIMPLE.replace("  [KSP-7]", ""))
    p = kvecrun("--check", str(ok), str(one))
    assert (p.returncode, p.stdout) == (0, "")


def test_every_vector_of_the_suite_passes_the_lint():
    p = kvecrun("--check")
    assert (p.returncode, p.stdout) == (0, "")


# ---- the per-rule results -----------------------------------------------------

def test_a_failing_check_blames_its_rule_alone(tmp_path):
    # The combine event's padding word is wrong: KSP-8 fails; KSP-7's check ran before it;
    # KSP-12's (a decoder expectation, checked after the steps) was not reached.
    path, code, msg, rules = run_vector(tmp_path, SIMPLE + COMBINE % "0x00000009" + DECODED)
    assert code == "FAIL"
    assert msg.startswith("%s:8: slot 1: expected CE" % path) and msg.endswith("[KSP-8]")
    assert rules == {
        "KSP-7": ("PASS", "1 check ran and passed"),
        "KSP-8": ("FAIL", msg),
        "KSP-12": ("UNRESOLVED", "not reached: the test stopped at a failure of KSP-8"),
    }


def test_a_failing_encode_line_blames_the_rules_of_its_slots(tmp_path):
    # The encoder writes two slots, the vector lists one: the encode line's own failure,
    # blamed on the rule of its => lines.
    body = SIMPLE + "encode cpu 0 class USER event 5 time 2 words 1 2 3\n" \
        "=> CB 0x40001805 0x00000002 0x00000001 0x00000002  [KSP-8]\n" + DECODED
    path, code, msg, rules = run_vector(tmp_path, body)
    assert code == "FAIL" and msg.startswith("%s:6: the encoder wrote 2 slots" % path), msg
    assert [rules[r][0] for r in ("KSP-7", "KSP-8", "KSP-12")] == ["PASS", "FAIL", "UNRESOLVED"]


def test_a_pass_gives_each_rule_its_checks(tmp_path):
    _, code, _, rules = run_vector(tmp_path, SIMPLE + COMBINE % "0x00000000" + DECODED)
    assert code == "PASS"
    assert rules == {"KSP-7": ("PASS", "1 check ran and passed"),
                     "KSP-8": ("PASS", "2 checks ran and passed"),    # its two => lines
                     "KSP-12": ("PASS", "1 check ran and passed")}


@pytest.mark.skipif(not os.access(TRACEDUMP, os.X_OK), reason="build/bin/tracedump is not built")
def test_against_another_decoder_the_reference_only_rules_are_untested(tmp_path):
    _, code, _, rules = run_vector(tmp_path, SIMPLE + COMBINE % "0x00000000" + DECODED,
                                   decoder=TRACEDUMP + " --json {file}")
    assert code == "PASS"
    assert rules["KSP-12"] == ("PASS", "1 check ran and passed")
    assert rules["KSP-7"][0] == rules["KSP-8"][0] == "UNTESTED"


def test_a_check_of_several_rules_blames_the_one_its_failure_names(tmp_path):
    # "expect verify" checks several kernel rules; a trace without a BUFFER slot breaks
    # KSP-19, and the problem says so: KSP-19 fails, not KSP-24 (the same step's other rule).
    head = "# verify\nrules: KSP-19, KSP-24, KSP-1\n\n"
    body = "file little cpus 1\nslot S 0 USER 1 0x10 1 2\nexpect verify  [KSP-19] [KSP-24]\n" \
           "expect bytes slot 0 hex:01180000  [KSP-1]\n"
    _, code, msg, rules = run_vector(tmp_path, body, head=head)
    assert code == "FAIL" and ": KSP-19: the buffer's first slot" in msg, msg
    assert msg.endswith("[KSP-19]")
    assert rules["KSP-19"] == ("FAIL", msg)
    assert rules["KSP-24"][0] == "UNTESTED"
    assert rules["KSP-1"] == ("UNRESOLVED", "not reached: the test stopped at a failure of KSP-19")
