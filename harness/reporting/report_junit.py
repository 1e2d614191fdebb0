# SPDX-License-Identifier: MIT
"""reports/junit.xml: the rule verdicts and the tests, for CI systems.

The file follows the JUnit format of Jenkins' xunit plugin (junit-10.xsd,
which GitLab and the other CI systems read too); harness/schemas/junit-10.xsd
is the project's description of it, checked in harness/tests/test_junit.py.

- One testsuite per option (TRC, TEF, TRI, TRL, KSP, in that order; a rule of
  no option in "other"), named "rules.<option>": each rule is a testcase.  A
  rule that FAILs is a <failure> whose message is its first failing check
  and whose text lists every failing check (test: message); UNRESOLVED is an
  <error>; UNSUPPORTED and UNTESTED are <skipped> with the reason.
- One testsuite per test executable, named "tests.<executable>": each test is
  a testcase of classname <executable>, with its output in <system-out> (the
  rules it checks first).
- The format has no properties on a testcase and no "skipped" count on
  <testsuites>: the report keeps to it.
"""

import re
import xml.etree.ElementTree as ET

from runner.protocol import OPTIONS
from reporting.results import spec_note

# Characters XML 1.0 cannot hold, even escaped.
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
SKIPPED = ("UNSUPPORTED", "UNTESTED")


def _clean(text):
    return _BAD_XML.sub("?", text or "")


def _seconds(s):
    return "%.3f" % s


class _Suite:
    """A testsuite being filled: its element and its counts."""

    def __init__(self, root, name, properties):
        self.el = ET.SubElement(root, "testsuite", {"name": _clean(name)})
        self.counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        self.time = 0.0
        props = ET.SubElement(self.el, "properties")
        for pname, value in properties:
            ET.SubElement(props, "property", {"name": pname, "value": _clean(value)})

    def case(self, name, classname, seconds, result, message, text):
        """A testcase of result (a protocol code): message is the outcome's one line,
        text its details."""
        case = ET.SubElement(self.el, "testcase", {
            "name": _clean(name), "classname": _clean(classname), "time": _seconds(seconds)})
        self.counts["tests"] += 1
        self.time += seconds
        line = _clean("%s: %s" % (result, message))
        if result == "FAIL":
            self.counts["failures"] += 1
            ET.SubElement(case, "failure", {"message": line, "type": result}).text = _clean(text)
        elif result == "UNRESOLVED":
            self.counts["errors"] += 1
            ET.SubElement(case, "error", {"message": line, "type": result}).text = _clean(text)
        elif result in SKIPPED:
            self.counts["skipped"] += 1
            ET.SubElement(case, "skipped", {"message": line, "type": result})
        return case

    def close(self):
        for k, v in self.counts.items():
            self.el.set(k, str(v))
        self.el.set("time", _seconds(self.time))


def rule_suite_name(rule):
    """The option suite a rule's testcase goes in: its first option."""
    opts = [o for o in re.split(r"[\s,+|/]+", rule.get("option") or "") if o]
    return opts[0] if opts else "other"


def _rule_cases(root, doc, properties, durations):
    by_option = {}
    for r in doc["rules"]:
        by_option.setdefault(rule_suite_name(r), []).append(r)
    order = [o for o in OPTIONS if o in by_option] + sorted(o for o in by_option
                                                             if o not in OPTIONS)
    suites = []
    for option in order:
        suite = _Suite(root, "rules." + option, properties)
        for r in by_option[option]:
            failures = r.get("failures") or []
            message = failures[0]["message"] if failures else r["reason"]
            text = "\n".join("%s: %s: %s" % (f["test"], f["result"], f["message"])
                             for f in failures) or r["reason"]
            if r.get("known_gap"):
                text += "\n(known gap of the reference: %s)" % r["known_gap"]
            case = suite.case(r["id"], "rules." + option,
                              sum(durations.get(t, 0) for t in r["tests"]) / 1000.0,
                              r["result"], message, text)
            out = ["rule %s (%s): %s" % (r["id"], r["option"] or "no option", r["summary"]),
                   "tests: %s" % (", ".join(r["tests"]) or "none"),
                   "%s: %s" % (r["result"], r["reason"])]
            ET.SubElement(case, "system-out").text = _clean("\n".join(out) + "\n")
        suites.append(suite)
    return suites


def _test_cases(root, doc, properties):
    by_exe = {}
    for t in doc["tests"]:
        by_exe.setdefault(t["executable"], []).append(t)
    suites = []
    for name in sorted(by_exe):
        suite = _Suite(root, "tests." + name, properties)
        for t in by_exe[name]:
            case = suite.case(t["id"], name, t["duration_ms"] / 1000.0,
                              t["result"], t["message"], t["message"])
            out = "rules: %s\n%s" % (", ".join(t["rules"]), t.get("output") or "")
            ET.SubElement(case, "system-out").text = _clean(out)
        suites.append(suite)
    return suites


def write(doc, path):
    properties = [("specification", spec_note(doc))]
    # The run's warnings (a program or the profile that did not build, ...).
    properties += [("warning", w) for w in doc["summary"].get("warnings", [])]
    root = ET.Element("testsuites", {
        "name": "posixtrace conformance: " + _clean(doc["implementation"]["name"])})
    durations = {t["id"]: t["duration_ms"] for t in doc["tests"]}
    suites = _rule_cases(root, doc, properties, durations) + _test_cases(root, doc, properties)
    for s in suites:
        s.close()
    for k in ("tests", "failures", "errors"):
        root.set(k, str(sum(s.counts[k] for s in suites)))
    root.set("time", _seconds(doc["summary"]["duration_s"]))
    tree = ET.ElementTree(root)
    if hasattr(ET, "indent"):
        ET.indent(tree)
    with open(path, "wb") as f:
        tree.write(f, encoding="utf-8", xml_declaration=True)
