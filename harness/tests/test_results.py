# SPDX-License-Identifier: MIT
"""results.rule_result: how test results make a rule's result (and
protocol.rule_results: a test's result for each of its rules)."""

from types import SimpleNamespace

from runner import protocol
from reporting import results


def rule(option, testable=True, id="r.a"):
    return SimpleNamespace(id=id, option=option, testable=testable, untestable_reason="",
                           options=lambda: option.split())


def run(*codes):
    tests = [SimpleNamespace(id="t%d" % i) for i in range(len(codes))]
    res = {t.id: {"result": c, "message": "m%d" % i} for i, (t, c) in enumerate(zip(tests, codes))}
    return tests, res


NO_TEF = {"TRC": True, "TEF": False}


def test_unsupported_option_without_a_test_that_ran():
    tests, res = run("UNSUPPORTED")
    got = results.rule_result(rule("TEF"), tests, res, NO_TEF)
    assert got[0] == "UNSUPPORTED" and "does not support option TEF" in got[1]
    assert results.rule_result(rule("TEF"), [], {}, NO_TEF)[0] == "UNSUPPORTED"


def test_unsupported_option_but_a_test_ran():
    # <unistd.h> and sysconf say whether TEF is there: checked either way.
    tests, res = run("PASS", "UNSUPPORTED")
    assert results.rule_result(rule("TEF"), tests, res, NO_TEF)[:2] == ("PASS", "1 test passed")
    tests, res = run("FAIL")
    got = results.rule_result(rule("TEF"), tests, res, NO_TEF)
    assert got[0] == "FAIL" and got[2][0]["test"] == "t0"


def test_worst_result_wins():
    tests, res = run("PASS", "UNRESOLVED", "FAIL")
    assert results.rule_result(rule("TRC"), tests, res, NO_TEF)[0] == "FAIL"
    tests, res = run("PASS", "UNRESOLVED")
    assert results.rule_result(rule("TRC"), tests, res, NO_TEF)[0] == "UNRESOLVED"


def test_not_testable_and_no_test():
    assert results.rule_result(rule("TRC", testable=False), [], {}, NO_TEF)[0] == "UNTESTED"
    assert results.rule_result(rule("TRC"), [], {}, NO_TEF)[1] == "no test checks this rule yet"


OUT = """test t (x.c:1)
RULE-RESULT r.a UNRESOLVED not concluded: the test stopped at a failure of r.b
RULE-RESULT r.b FAIL 1 + 1 is 2 (breaks r.b; x.c:9)
RESULT FAIL 1 + 1 is 2 (breaks r.b; x.c:9)
"""


def test_a_failure_blames_its_rule_alone():
    per = protocol.rule_results(OUT, ["r.a", "r.b"], "FAIL")
    assert per == {"r.a": {"result": "UNRESOLVED", "message": "not concluded: the test "
                           "stopped at a failure of r.b"},
                   "r.b": {"result": "FAIL", "message": "1 + 1 is 2 (breaks r.b; x.c:9)"}}
    tests, res = run("FAIL")
    res["t0"]["rule_results"] = per
    a = results.rule_result(rule("TRC", id="r.a"), tests, res, NO_TEF)
    b = results.rule_result(rule("TRC", id="r.b"), tests, res, NO_TEF)
    assert a[0] == "UNRESOLVED" and b[0] == "FAIL"
    # The rule's FAIL lists the check that failed, with its place.
    assert b[2] == [{"test": "t0", "result": "FAIL", "message": "1 + 1 is 2 (breaks r.b; x.c:9)"}]
    # A rule of the test that printed no line gets the test's result.
    assert results.rule_result(rule("TRC", id="r.c"), tests, res, NO_TEF)[0] == "FAIL"


def test_rule_results_that_cannot_be_trusted_are_ignored():
    # Not the test's result (a PASS test whose lines say FAIL), unknown
    # rules and codes, or a result the test did not give itself (a timeout).
    assert protocol.rule_results(OUT, ["r.a", "r.b"], "PASS") == {}
    assert protocol.rule_results("RULE-RESULT r.z FAIL x\n", ["r.a"], "FAIL") == {}
    assert protocol.rule_results("RULE-RESULT r.a BAD x\n", ["r.a"], "FAIL") == {}
    assert protocol.rule_results(OUT, ["r.a", "r.b"], "UNSUPPORTED") == {}
