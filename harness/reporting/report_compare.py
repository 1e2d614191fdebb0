# SPDX-License-Identifier: MIT
"""What changed between two runs: the rules of an earlier report against a new one.

run.py --compare OLD.json prints it after a run (or after --merge) and exits
1 on a regression: a rule that newly FAILs or is newly UNRESOLVED -- the
gate of a vendor's library from one version to the next, where the failures
it already had do not block.

- newly failing: FAIL or UNRESOLVED now, anything else (or absent) before;
- newly passing: PASS now, FAIL or UNRESOLVED before;
- changed: any other change of result (FAIL -> UNRESOLVED, PASS ->
  UNSUPPORTED, UNTESTED -> PASS, ...), and rules only one report has.
"""

BAD = ("FAIL", "UNRESOLVED")


def compare(old, new):
    """{"newly_failing", "newly_passing", "changed": [(rule id, old result or None,
    new result or None)], "unchanged": n}.  A partial new run (a selection)
    is compared on its own rules: the rules it did not report are not
    "removed"."""
    before = {r["id"]: r["result"] for r in old["rules"]}
    after = {r["id"]: r["result"] for r in new["rules"]}
    out = {"newly_failing": [], "newly_passing": [], "changed": [], "unchanged": 0}
    for rid, now in after.items():
        was = before.get(rid)
        if was == now:
            out["unchanged"] += 1
        elif now in BAD and was not in BAD:
            out["newly_failing"].append((rid, was, now))
        elif now == "PASS" and was in BAD:
            out["newly_passing"].append((rid, was, now))
        else:
            out["changed"].append((rid, was, now))
    if not new["summary"].get("partial"):
        out["changed"] += [(rid, was, None) for rid, was in before.items() if rid not in after]
    return out


def regressed(diff):
    return bool(diff["newly_failing"])


def text(diff, old_name, new_doc):
    """The comparison for the terminal and the logs."""
    failures = {r["id"]: r.get("failures") or [] for r in new_doc["rules"]}
    lines = ["", "compared with %s: %d newly failing, %d newly passing, %d changed, "
             "%d unchanged" % (old_name, len(diff["newly_failing"]),
                               len(diff["newly_passing"]), len(diff["changed"]),
                               diff["unchanged"])]
    for title, key in (("newly failing", "newly_failing"), ("newly passing", "newly_passing"),
                       ("changed", "changed")):
        if not diff[key]:
            continue
        lines.append("%s:" % title)
        for rid, was, now in diff[key]:
            lines.append("  %-10s %s (was %s)" % (now or "(gone)", rid, was or "not reported"))
            if key == "newly_failing":
                for f in failures.get(rid, [])[:3]:
                    lines.append("             %s: %s" % (f["test"], f["message"]))
    lines.append("REGRESSION: %d rule%s newly failing" % (
        len(diff["newly_failing"]), "" if len(diff["newly_failing"]) == 1 else "s")
        if regressed(diff) else "no regression")
    return "\n".join(lines) + "\n"
