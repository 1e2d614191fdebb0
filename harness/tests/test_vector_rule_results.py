# SPDX-License-Identifier: MIT
"""Per-rule results of a vector (issue 13 item 2, vectors/README.md "A step"): in a vector of
several rules every assertion names its rule(s) with [rule-id] tags (vecrun --check and --run
refuse one that does not), and a run prints "RULE-RESULT <rule> <CODE> <message>" before its
RESULT line: the failing step's rules FAIL, a rule whose checks all ran PASS, one whose checks
were not reached UNRESOLVED, one none of whose checks ran UNTESTED.
"""

import re

import pytest

# vecrun with exact checks (vecrun) and without (vecrun_vendor): conftest.py's fixtures.
from test_vectors import result, run, write

LINT = "an assertion in a vector of several rules names none of them: add [rule-id]"
HEAD = "# per-rule results\nrules: attr_setname.sets, get_attr.copies\noptions: TRC\n\n"


def rule_results(p):
    """{rule: (CODE, message)} of the RULE-RESULT lines, which all come before RESULT."""
    lines = p.stdout.strip().splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"^RULE-RESULT (\S+) (\S+) ?(.*)$", line)
        if m:
            assert i < len(lines) - 1, "RULE-RESULT after RESULT"
            assert m.group(1) not in out, "two lines for " + m.group(1)
            out[m.group(1)] = (m.group(2), m.group(3))
    return out


def run_vector(vecrun, tmp_path, body, head=HEAD):
    path = write(str(tmp_path / "v.vec"), head + body)
    p = run([vecrun, "--file", path])
    return path, result(p), rule_results(p)


# ---- the lint -----------------------------------------------------------------

@pytest.mark.parametrize("step", [
    'attr a get name -> "x"',                   # "->" that asserts
    "exact: attr a get streamsize -> 65536",    # an exact: step
    "attr a get streamsize -> $s  @value 65536",  # only an @annotation asserts
    "check 1 == 1",                             # check
])
def test_untagged_assertion_in_a_vector_of_several_rules_is_refused(vecrun, tmp_path, step):
    path = write(str(tmp_path / "v.vec"), HEAD + 'attr a\nattr a set name "x"  [attr_setname.sets]\n'
                 + step + "\n")
    p = run([vecrun, "--check", path])
    assert p.returncode == 2
    assert p.stdout.strip() == "%s:7: %s" % (path, LINT)
    # --run: that vector alone is UNRESOLVED with the message, nothing runs.
    code, msg = result(run([vecrun, "--file", path]))
    assert (code, msg) == ("UNRESOLVED", "%s:7: %s" % (path, LINT))


def test_setup_captures_and_one_rule_vectors_need_no_tag(vecrun, tmp_path):
    # Setup steps and "-> $var" (a capture: its failure is UNRESOLVED, it blames no rule).
    body = "attr a\nattr a get streamsize -> $s\nattr a set name \"x\"\n" \
           "attr a get name -> \"x\"  [attr_setname.sets]\n"
    path = write(str(tmp_path / "two.vec"), HEAD + body)
    assert run([vecrun, "--check", path]).returncode == 0
    one = write(str(tmp_path / "one.vec"), "# t\nrules: attr_setname.sets\noptions: TRC\n\n"
                "attr a\nattr a set name \"x\" -> 0\nattr a get name -> \"x\"\n")
    assert run([vecrun, "--check", one]).returncode == 0


# ---- RULE-RESULT lines ----------------------------------------------------------

SETNAME = 'attr a\nattr a set name "net" -> 0  [attr_setname.sets]\n' \
          'attr a get name -> "net"  [attr_setname.sets]\ncreate t a\ngetattr t s\n'


def test_the_failing_step_blames_its_rule_only(vecrun, tmp_path):
    path, (code, msg), rules = run_vector(vecrun, tmp_path, SETNAME +
                                          'attr s get name -> "other"  [get_attr.copies]\n')
    assert code == "FAIL" and "[rule get_attr.copies]" in msg
    assert rules["attr_setname.sets"][0] == "PASS"
    assert rules["get_attr.copies"] == ("FAIL", msg)
    assert rules["get_attr.copies"][1].startswith(path + ":10: ")
    assert set(rules) == {"attr_setname.sets", "get_attr.copies"}


def test_a_rule_whose_checks_were_not_reached_is_unresolved(vecrun, tmp_path):
    body = 'attr a\nattr a set name "net" -> 0  [attr_setname.sets]\n' \
           'attr a get name -> "other"  [attr_setname.sets]\ncreate t a\ngetattr t s\n' \
           'attr s get name -> "net"  [get_attr.copies]\n'
    _, (code, _), rules = run_vector(vecrun, tmp_path, body)
    assert code == "FAIL"
    assert rules["attr_setname.sets"][0] == "FAIL"
    assert rules["get_attr.copies"] == (
        "UNRESOLVED", "not reached: the test stopped at a failure of attr_setname.sets")


def test_a_rule_checked_again_in_later_rounds_of_a_repeat_block_is_unresolved(vecrun, tmp_path):
    body = 'attr a\nattr a set name "net"\ncreate t a\ngetattr t s\nrepeat 2 {\n' \
           'attr s get name -> "net"  [get_attr.copies]\n' \
           'check $i == 0  [attr_setname.sets]\n}\n'
    _, (code, _), rules = run_vector(vecrun, tmp_path, body)
    assert code == "FAIL"
    assert rules["attr_setname.sets"][0] == "FAIL"
    assert rules["get_attr.copies"][0] == "UNRESOLVED"


def test_a_pass_gives_every_rule_with_a_check_pass(vecrun, vecrun_vendor, tmp_path):
    for exe in (vecrun, vecrun_vendor):
        _, (code, _), rules = run_vector(exe, tmp_path, SETNAME +
                                         'attr s get name -> "net"  [get_attr.copies]\n')
        assert code == "PASS"
        assert {r: c for r, (c, _) in rules.items()} == {
            "attr_setname.sets": "PASS", "get_attr.copies": "PASS"}


def test_a_rule_with_exact_checks_only_is_untested_without_them(vecrun, vecrun_vendor, tmp_path):
    body = SETNAME + "exact: attr s get streamsize -> 65536  [get_attr.copies]\n" \
                     'attr s get name -> $n  [get_attr.copies]  @value "net"\n'
    _, (code, _), rules = run_vector(vecrun_vendor, tmp_path, body)
    assert code == "PASS"
    assert rules["attr_setname.sets"][0] == "PASS"
    assert rules["get_attr.copies"] == ("UNTESTED", "no portable check of this rule ran")
    # The reference's build checks them.
    _, (code, _), rules = run_vector(vecrun, tmp_path, body)
    assert code == "PASS" and rules["get_attr.copies"][0] == "PASS"


def test_a_check_that_when_skipped_did_not_run(vecrun, tmp_path):
    body = SETNAME + 'when 1 == 0 attr s get name -> "net"  [get_attr.copies]\n'
    _, (code, _), rules = run_vector(vecrun, tmp_path, body)
    assert code == "PASS" and rules["get_attr.copies"][0] == "UNTESTED"


def test_a_setup_failure_is_every_rule_s(vecrun, tmp_path):
    """UNRESOLVED, UNSUPPORTED, timeouts: the RESULT applies to every rule, no RULE-RESULT."""
    _, (code, _), rules = run_vector(vecrun, tmp_path, SETNAME + "start gone\n")
    assert code == "UNRESOLVED" and rules == {}
    _, (code, _), rules = run_vector(vecrun, tmp_path, SETNAME + "attr s set streamsize 0\n")
    assert code == "UNRESOLVED" and rules == {}


def test_a_background_read_not_joined_yet_is_not_reached(vecrun, tmp_path):
    """A bg read's check runs at its join: a failure before the join leaves its rule
    UNRESOLVED (its step came earlier, but its check was still to run); after the join, PASS."""
    bg = "create t null\nstart t\nbg r trygetnext t -> event START  [get_attr.copies]\n"
    _, (code, _), rules = run_vector(vecrun, tmp_path, bg + "check 1 == 0  [attr_setname.sets]\n"
                                     "join r\n")
    assert code == "FAIL" and rules["get_attr.copies"][0] == "UNRESOLVED"
    _, (code, _), rules = run_vector(vecrun, tmp_path, bg + "join r\n"
                                     "check 1 == 0  [attr_setname.sets]\n")
    assert code == "FAIL" and rules["get_attr.copies"][0] == "PASS"
