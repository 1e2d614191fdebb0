# SPDX-License-Identifier: MIT
"""The terminal summary of a conformance run (from the report document)."""

from runner.protocol import CODES
from reporting.results import spec_note


def _counts(c):
    return "  ".join("%s %d" % (k, c[k]) for k in CODES)


def _options(opts):
    return ", ".join("%s %s" % (k, "yes" if v else "no") for k, v in opts.items())


def summary(doc, verbose=False, max_failures=50, reports=()):
    impl = doc["implementation"]
    s = doc["summary"]
    out = []
    out.append("implementation: %s" % impl["name"])
    out.append("options: %s%s" % (_options(impl["options"]),
                                  " (override)" if impl.get("options_source") == "override"
                                  else ""))
    if s.get("partial"):
        out.append("selection: %s" % s["selection"])
    if verbose:
        out.append("")
        for t in doc["tests"]:
            line = "%-11s %s (%d ms)" % (t["result"], t["id"], t["duration_ms"])
            if t["result"] != "PASS" and t["message"]:
                line += ": " + t["message"]
            out.append(line)
    out.append("")
    out.append("tests: %4d   %s   (%.1f s, %d jobs)" % (s["tests"]["total"],
                                                      _counts(s["tests"]), s["duration_s"],
                                                      s["jobs"]))
    out.append("rules: %4d   %s" % (s["rules"]["total"], _counts(s["rules"])))

    bad = [r for r in doc["rules"] if r["result"] in ("FAIL", "UNRESOLVED")]
    if bad:
        out.append("")
        out.append("failing rules:")
        for r in bad[:max_failures]:
            gap = "  [known gap of the reference: %s]" % r["known_gap"] if "known_gap" in r \
                else ""
            out.append("  %-10s %s%s%s" % (r["result"], r["id"],
                                           "  " + r["summary"] if r["summary"] else "", gap))
            for f in r.get("failures", [])[:3]:
                out.append("             %s: %s" % (f["test"], f["message"]))
            if len(r.get("failures", [])) > 3:
                out.append("             ... and %d more tests" % (len(r["failures"]) - 3))
        if len(bad) > max_failures:
            out.append("  ... and %d more (see the reports)" % (len(bad) - max_failures))
    # Tests that fail without a reported rule failing (their rules are not
    # testable, or not in the selection): say so, they would go unnoticed.
    reported = {f["test"] for r in bad for f in r.get("failures", [])}
    orphans = [t for t in doc["tests"] if t["result"] in ("FAIL", "UNRESOLVED")
               and t["id"] not in reported]
    if orphans:
        out.append("")
        out.append("failing tests of rules not reported as failing:")
        for t in orphans[:max_failures]:
            out.append("  %-10s %s: %s" % (t["result"], t["id"], t["message"]))
    for w in s.get("warnings", []):
        out.append("warning: %s" % w)
    out.append(spec_note(doc))
    out.append("")
    out.append(s["verdict"]["text"])
    if reports:
        out.append("reports: %s" % ", ".join(reports))
    return "\n".join(out) + "\n"
