#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Judges a conformance run against the odd vendor (make check-odd-vendor).

    check_report.py REPORT.json REFERENCE_GAPS.tsv EXPECTED_GAPS.tsv

Passes (exit 0) when every rule that FAILs or is UNRESOLVED is a known gap
of the reference (REFERENCE_GAPS.tsv) or one of the fixture's deliberate gaps
(EXPECTED_GAPS.tsv), every deliberate gap does FAIL (else the fixture no
longer plays what it says), no test is FAIL or UNRESOLVED outside those
rules, and the report is of the fixture at all.  Prints the run's summary
line and, on failure, what is wrong.
"""

import json
import sys


def read_gaps(path):
    """{rule id: reason} from a "rule-id<TAB>reason" file (# comments)."""
    gaps = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            rule, _, reason = line.partition("\t")
            gaps[rule.strip()] = reason.strip()
    return gaps


def problems(doc, reference_gaps, expected):
    """The lines that make the run fail; [] if it passes."""
    out = []
    rules = {r["id"]: r for r in doc["rules"]}
    allowed = set(reference_gaps) | set(expected)
    shown = set()
    for r in doc["rules"]:
        if r["result"] in ("FAIL", "UNRESOLVED") and r["id"] not in allowed:
            out.append("%s %s: %s" % (r["result"], r["id"], r["reason"]))
            for f in r.get("failures", []):
                out.append("    %s %s: %s" % (f["result"], f["test"], f["message"]))
                shown.add(f["test"])
    for rule, reason in sorted(expected.items()):
        got = rules.get(rule, {}).get("result", "missing from the report")
        if got != "FAIL":
            out.append("deliberate gap %s is %s, expected FAIL (%s)" % (rule, got, reason))
    for t in doc["tests"]:
        if t["result"] in ("FAIL", "UNRESOLVED") and t["id"] not in shown \
                and not set(t.get("rules", [])) & allowed:
            out.append("%s test %s: %s" % (t["result"], t["id"], t.get("message", "")))
    return out


def not_the_fixture(doc):
    """Why the report is not of the odd vendor, or None: a vendor-mode run
    whose profile saw the fixture's header (POSIX_TRACE_APPEND equal to
    POSIX_TRACE_FLUSH, which the reference's are not), so that a build that
    silently picked up another <trace.h> is not taken for a pass."""
    impl = doc.get("implementation", {})
    consts = impl.get("profile", {}).get("constants", {})
    if impl.get("impl") != "vendor":
        return "the run was not in vendor mode (impl %s)" % impl.get("impl")
    if consts.get("POSIX_TRACE_APPEND") is None or \
            consts.get("POSIX_TRACE_APPEND") != consts.get("POSIX_TRACE_FLUSH"):
        return ("the profile did not see the odd header (POSIX_TRACE_APPEND %s, POSIX_TRACE_FLUSH"
                " %s)" % (consts.get("POSIX_TRACE_APPEND"), consts.get("POSIX_TRACE_FLUSH")))
    return None


def summary_line(doc):
    s = doc["summary"]
    rules = s["rules"]
    return "odd vendor: rules %s; tests %s" % (
        ", ".join("%s %d" % (k, rules[k]) for k in rules if k != "total" and rules[k]),
        ", ".join("%s %d" % (k, s["tests"][k]) for k in s["tests"]
                  if k != "total" and s["tests"][k]))


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(argv[1]) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("check-odd-vendor: no report to judge: %s" % e)
        return 1
    out = problems(doc, read_gaps(argv[2]), read_gaps(argv[3]))
    wrong = not_the_fixture(doc)
    if wrong:
        out.insert(0, "not a run against the odd vendor: " + wrong)
    print(summary_line(doc))
    if out:
        print("check-odd-vendor: %d problem%s:" % (len(out), "" if len(out) == 1 else "s"))
        print("\n".join("  " + line for line in out))
        return 1
    print("check-odd-vendor: no FAIL or UNRESOLVED beyond the known and deliberate gaps")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
