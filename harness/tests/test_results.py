"""results.rule_result: how test results make a rule's result."""

from types import SimpleNamespace

import results


def rule(option, testable=True):
    return SimpleNamespace(option=option, testable=testable, untestable_reason="",
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
