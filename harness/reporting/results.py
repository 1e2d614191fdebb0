# SPDX-License-Identifier: MIT
"""From test results to rule results, and the report document
(reports/conformance.json: the source of every other report).

A rule's result is the worst of its tests' results, FAIL over UNRESOLVED over
PASS (ARCHITECTURE.md); then UNSUPPORTED, when the rule's option is not
supported (and none of its tests ran all the same) or every test of it
needed something unsupported; then UNTESTED,
when no test checks it or the catalogue marks it not testable.
"""

import datetime

from runner.protocol import CODES, OPTIONS

DECISIVE = ("FAIL", "UNRESOLVED", "PASS")


def empty_counts():
    c = {"total": 0}
    for k in CODES:
        c[k] = 0
    return c


def count(results):
    c = empty_counts()
    for r in results:
        c["total"] += 1
        c[r] += 1
    return c


def for_rule(run, rule_id):
    """A test's run dict as it concerns one of its rules: its RULE-RESULT for
    that rule when it gave one (protocol.rule_results), else the test's."""
    return (run.get("rule_results") or {}).get(rule_id) or run


def rule_result(rule, tests, test_results, supported):
    """(result, reason, failures) of one rule.  tests: its TestCases;
    test_results: {test id: run dict}; supported: {option: bool}.  failures:
    the checks that failed (or could not conclude) for this rule, each with
    its test and message (file:line, expected, seen)."""
    test_results = {t.id: for_rule(test_results[t.id], rule.id) for t in tests}
    failures = [{"test": t.id, "result": test_results[t.id]["result"],
                 "message": test_results[t.id]["message"]}
                for t in tests if test_results[t.id]["result"] in ("FAIL", "UNRESOLVED")]
    if not rule.testable:
        reason = "not testable" + (": " + rule.untestable_reason
                                   if rule.untestable_reason else "")
        return "UNTESTED", reason, []
    codes = [test_results[t.id]["result"] for t in tests]
    missing = [o for o in rule.options() if o in OPTIONS and not supported.get(o, False)]
    # A rule of an unsupported option is UNSUPPORTED, unless a test of it ran
    # all the same: the rules that an implementation advertises the option
    # correctly (<unistd.h>, sysconf) hold whether it supports it or not.
    if missing and not any(c in DECISIVE for c in codes):
        return ("UNSUPPORTED", "the implementation does not support option %s"
                % ", ".join(missing), [])
    if not tests:
        return "UNTESTED", "no test checks this rule yet", []
    for c in DECISIVE:
        if c in codes:
            n = codes.count(c)
            if c == "PASS":
                reason = "%d test%s passed" % (n, "" if n == 1 else "s")
            else:
                reason = "%d of %d test%s %s" % (n, len(codes), "" if len(codes) == 1 else "s",
                                                 c)
            return c, reason, failures
    if "UNSUPPORTED" in codes:
        first = next(test_results[t.id]["message"] for t in tests
                     if test_results[t.id]["result"] == "UNSUPPORTED")
        return "UNSUPPORTED", first, []
    first = test_results[tests[0].id]["message"]
    return "UNTESTED", first, []


def verdict(rule_counts, test_counts, partial):
    bad_rules = rule_counts["FAIL"] + rule_counts["UNRESOLVED"]
    bad_tests = test_counts["FAIL"] + test_counts["UNRESOLVED"]
    scope = " (selected rules only)" if partial else ""
    if bad_rules or bad_tests:
        return {"status": "FAIL", "text": "DOES NOT CONFORM%s: %d rule%s FAIL, %d UNRESOLVED"
                % (scope, rule_counts["FAIL"], "" if rule_counts["FAIL"] == 1 else "s",
                   rule_counts["UNRESOLVED"])}
    if rule_counts["PASS"] == 0:
        return {"status": "NONE", "text": "NOTHING CHECKED%s: no rule was tested" % scope}
    return {"status": "PASS", "text": "CONFORMS to the %d rule%s tested%s (%d UNSUPPORTED,"
            " %d UNTESTED)" % (rule_counts["PASS"], "" if rule_counts["PASS"] == 1 else "s",
                               scope, rule_counts["UNSUPPORTED"], rule_counts["UNTESTED"])}


def build(*, implementation, rules, rule_order, tests, test_results, spec, partial,
          selection, duration_s, jobs, timeout, known_gaps=None, warnings=()):
    """The report document.  rules: {id: Rule}; rule_order: the ids to report,
    in order; tests: the selected TestCases; test_results: {test id: run dict}."""
    supported = implementation["options"]
    by_rule = {}
    for t in tests:
        for r in t.rules:
            by_rule.setdefault(r, []).append(t)
    known_gaps = known_gaps or {}

    rule_docs = []
    for rid in rule_order:
        rule = rules[rid]
        rtests = sorted(by_rule.get(rid, []), key=lambda t: t.id)
        result, reason, failures = rule_result(rule, rtests, test_results, supported)
        functions = list(rule.functions)
        for t in rtests:
            for f in t.functions:
                if f not in functions:
                    functions.append(f)
        doc = {"id": rid, "option": rule.option, "sources": spec.source_ids(rule.sources)
               or list(rule.sources), "testable": rule.testable, "result": result,
               "reason": reason, "tests": [t.id for t in rtests], "summary": rule.summary,
               "functions": functions, "spec": spec.text_of(rule.sources)}
        if failures:
            doc["failures"] = failures
        if rid in known_gaps:
            doc["known_gap"] = known_gaps[rid]
        rule_docs.append(doc)

    test_docs = []
    for t in sorted(tests, key=lambda t: t.id):
        r = test_results[t.id]
        d = t.to_json()
        d.update({"result": r["result"], "message": r["message"],
                  "duration_ms": r["duration_ms"]})
        if r.get("time_limit_s") is not None:
            d["time_limit_s"] = r["time_limit_s"]
        if r.get("status") is not None:
            d["status"] = r["status"]
        if r.get("output"):
            d["output"] = r["output"]
        if r.get("rule_results"):
            d["rule_results"] = r["rule_results"]
        test_docs.append(d)

    rc = count(d["result"] for d in rule_docs)
    tc = count(d["result"] for d in test_docs)
    return {
        "schema": 1,
        "generated": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ"),
        "implementation": implementation,
        "summary": {"rules": rc, "tests": tc, "duration_s": round(duration_s, 2),
                    "verdict": verdict(rc, tc, partial), "jobs": jobs, "timeout_s": timeout,
                    "partial": partial, "selection": selection,
                    "spec_dir": spec.directory, "spec": spec.describe(),
                    "warnings": list(warnings) + list(spec.problems)},
        "rules": rule_docs,
        "tests": test_docs,
    }


def spec_note(doc):
    """One line on the specification a report quotes: where the shall sentences came from,
    and whether the full specification pages were there (POSIXTRACE_SPEC_DIR)."""
    sp = doc["summary"].get("spec") or {}
    if not sp.get("sentences"):
        said = "no shall sentences could be read: rules are shown without their text"
    else:
        said = "%d shall sentences from %s" % (sp["sentences"], sp["statements"])
    if sp.get("full_pages"):
        return "specification: %s; full pages from %s" % (said, sp["full_pages"])
    return ("specification: %s; the full specification pages were not there (set "
            "POSIXTRACE_SPEC_DIR to a folder holding posix/issue7-2016/)" % said)


def failing_rules(doc, ignore_gaps=False):
    """The rules that FAIL or are UNRESOLVED (known gaps left out if asked)."""
    return [r for r in doc["rules"] if r["result"] in ("FAIL", "UNRESOLVED")
            and not (ignore_gaps and "known_gap" in r)]


def failing_tests(doc, gap_rules=()):
    """Tests that FAIL or are UNRESOLVED (those whose rules are all known gaps
    left out when gap_rules is given)."""
    gaps = set(gap_rules)

    def bad_rules(t):
        per = t.get("rule_results") or {}
        return [r for r in t["rules"]
                if per.get(r, t)["result"] in ("FAIL", "UNRESOLVED")] or t["rules"]
    return [t for t in doc["tests"] if t["result"] in ("FAIL", "UNRESOLVED")
            and not (gaps and all(r in gaps for r in bad_rules(t)))]
