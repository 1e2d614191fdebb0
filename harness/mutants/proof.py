#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""proof.py -- the mutant proof: does the suite catch each mutant of the
reference (harness/mutants/mutants.py), and does it blame the rule the
mutant breaks?

    /usr/bin/python3 harness/mutants/proof.py [--reports DIR] [--verbose] [NAME...]

Builds the unmodified reference and each mutant as a vendor's implementation
in a temporary folder (reference/ is not touched), runs the portable tests
against each, and reports per mutant:

  killed   the run against the mutant differs from the run against the
           reference: some rule that PASSed there FAILs or is UNRESOLVED;
  blamed   the rule the mutant breaks is among the rules that FAIL (or has
           a result the mutant accepts, its "results"), and a failure
           message of that rule names it: the report points at the bug;
  other    rules beyond the mutant's own whose result changed and that its
           declared collateral does not cover (shown, not counted: a test of
           another rule that needs the broken behaviour for its own setup).

A mutant that is not both killed and blamed is run again, up to RUNS runs in
all: some mutants show their bug only in some interleavings of a test's
processes (a traced child recording as its controller exits); the line of
such a mutant says on which run it was caught.

It prints a line per mutant and the two figures, writes DIR/mutants.json
(default reports/), and exits 1 if fewer than 100% are killed or fewer than
95% blamed, 2 if something could not be built or run.  A mutant whose rule
no portable test names, or that the reference itself does not pass, cannot
be measured: it is listed and left out of both figures.  --verbose also lists
each mutant's changed rules (what to review before declaring collateral).
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import build as mb      # noqa: E402
import mutants as mm    # noqa: E402

KILL_MIN = 1.0          # every measurable mutant must be caught
RUNS = 3                # a mutant not caught is run again, up to this many runs in all
BLAME_MIN = 0.95        # and at least 95% of them blamed on their own rule

BAD = ("FAIL", "UNRESOLVED")


def judge(mutant, doc, base):
    """The verdict on one mutant from its report doc and the baseline's rules
    (by id): a dict for mutants.json."""
    rules = {r["id"]: r for r in doc["rules"]}
    target = mutant["rule"]
    got = rules.get(target, {})
    changed = sorted(rid for rid, r in rules.items()
                     if rid in base and base[rid]["tests"] == r["tests"]
                     and base[rid]["result"] != r["result"])
    killed = any(rules[rid]["result"] in BAD and base[rid]["result"] not in BAD
                 for rid in changed)
    accepted = mutant.get("results", ["FAIL"])
    named = [f for f in got.get("failures", []) if f["result"] == "FAIL"
             and target in f["message"]]
    blamed = got.get("result") in accepted and (got.get("result") != "FAIL" or bool(named))
    other = [rid for rid in changed if rid != target
             and not any(fnmatch.fnmatchcase(rid, p) for p in mutant["collateral"])]
    return {"name": mutant["name"], "rule": target, "what": mutant["what"],
            "killed": killed, "blamed": blamed, "rule_result": got.get("result", "absent"),
            "rule_reason": got.get("reason", ""), "changed": changed, "other": other,
            "failures": [f["message"] for f in got.get("failures", [])][:3]}


def measurable(mutant, base):
    """None, or why the mutant cannot be measured against the baseline."""
    b = base.get(mutant["rule"])
    if b is None:
        return "rule %s is not in the catalogue" % mutant["rule"]
    if not b["tests"]:
        return "no portable test names rule %s yet" % mutant["rule"]
    if b["result"] != "PASS":
        return "the reference itself does not pass %s (%s)" % (mutant["rule"], b["result"])
    return None


def line(v):
    flags = "%-6s %-6s" % ("killed" if v["killed"] else "ALIVE",
                           "blamed" if v["blamed"] else "MISSED")
    extra = "  (+%d other rule%s)" % (len(v["other"]), "" if len(v["other"]) == 1 else "s") \
        if v["other"] else ""
    if v.get("runs", 1) > 1:
        extra += "  (%s on run %d of up to %d)" % (
            "caught" if v["killed"] and v["blamed"] else "not caught", v["runs"], RUNS)
    return "%s  %-34s %s: %s%s" % (flags, v["name"], v["rule"], v["rule_result"], extra)


def percent(n, d):
    return 100.0 * n / d if d else 100.0


def run(names, reports, verbose, quick=False, out=sys.stdout):
    chosen = [m for m in mm.MUTANTS if not names or m["name"] in names]
    unknown = sorted(set(names) - {m["name"] for m in mm.MUTANTS})
    if unknown:
        out.write("proof.py: no mutant named %s\n" % ", ".join(unknown))
        return 2
    started = time.monotonic()
    verdicts, skipped = [], []
    with tempfile.TemporaryDirectory(prefix="posixtrace-mutants.") as wd:
        # The tests are linked once, against the reference as a shared library
        # of a fixed soname; each mutant is that library rebuilt, found through
        # LD_LIBRARY_PATH.
        base_impl = mb.Implementation(REPO, os.path.join(wd, "base"))
        progs = mb.TestPrograms(REPO, base_impl.include, os.path.join(wd, "obj"))
        bdir = os.path.join(wd, "build")
        base_so = base_impl.build_shared()
        progs.link(base_so, bdir)
        programs = progs.programs(bdir)

        def harness(so, name, reports_dir, *args):
            env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(so))
            doc, _ = mb.run_harness(REPO, bdir, reports_dir, "--name", name, *args, env=env,
                                    programs=programs)
            return doc

        bdoc = harness(base_so, "reference as a vendor's",
                       os.path.join(wd, "base-rep"))
        base = {r["id"]: r for r in bdoc["rules"]}
        out.write("mutant proof: %d mutants of the reference, %s rules PASS unmodified\n"
                  % (len(chosen), sum(r["result"] == "PASS" for r in bdoc["rules"])))

        def one(m):
            t0 = time.monotonic()
            d = os.path.join(wd, m["name"])
            impl = mb.Implementation(REPO, os.path.join(d, "impl"), base=base_impl)
            impl.edit(m["edits"], m["name"])
            so = impl.build_shared()
            # quick: the tests of the mutant's own rule first.  Caught and
            # blamed there, it is caught and blamed by the whole suite (the
            # same tests run there); only the rules beyond its own that it
            # changes ("other") are not looked at.  Else the whole suite, as
            # without quick, decides.
            if quick:
                doc = harness(so, "mutant " + m["name"], os.path.join(d, "rule"),
                              "--rule", m["rule"])
                v = judge(m, doc, base)
                if v["killed"] and v["blamed"]:
                    v["runs"], v["scope"] = 1, "rule"
                    v["duration_s"] = round(time.monotonic() - t0, 1)
                    return v, doc
            # A mutant some runs catch and others do not (its bug shows only
            # in some interleavings of the processes of a test) is run again,
            # up to RUNS times in all: it counts as caught if a run catches
            # it, and its verdict says on which run.
            for run in range(1, RUNS + 1):
                doc = harness(so, "mutant " + m["name"], os.path.join(d, "rep%d" % run))
                v = judge(m, doc, base)
                if v["killed"] and v["blamed"]:
                    break
            v["runs"], v["scope"] = run, "suite"
            v["duration_s"] = round(time.monotonic() - t0, 1)
            return v, doc

        todo = []
        for m in chosen:
            why = measurable(m, base)
            if why:
                skipped.append({"name": m["name"], "rule": m["rule"], "why": why})
                out.write("  %-48s not measurable: %s\n" % (m["name"], why))
            else:
                todo.append(m)
        # Two mutants at a time: a mutant whose tests hang with a time limit
        # or spinning leaves the processors idle until their time limits (one
        # stuck with none ends after build.HANG_IDLE).
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            futures = [pool.submit(one, m) for m in todo]
            for i, f in enumerate(futures, 1):
                v, doc = f.result()
                verdicts.append(v)
                out.write("  [%d/%d] %s  %.0f s\n" % (i, len(todo), line(v), v["duration_s"]))
                if verbose or not v["blamed"]:
                    now = {r["id"]: r["result"] for r in doc["rules"]}
                    for rid in v["changed"]:
                        out.write("           %s %s: %s -> %s\n" % (
                            "!!" if rid in v["other"] else "  ", rid, base[rid]["result"],
                            now[rid]))
                out.flush()
    n = len(verdicts)
    killed = sum(v["killed"] for v in verdicts)
    blamed = sum(v["blamed"] for v in verdicts)
    precise = sum(v["blamed"] and not v["other"] and v["scope"] == "suite" for v in verdicts)
    looked = sum(v["scope"] == "suite" for v in verdicts)
    summary = {"mutants": n, "not_measurable": len(skipped), "killed": killed,
               "blamed": blamed, "blamed_only_declared": precise, "whole_suite_runs": looked,
               "killed_percent": round(percent(killed, n), 1),
               "blamed_percent": round(percent(blamed, n), 1),
               "required": {"killed_percent": KILL_MIN * 100, "blamed_percent": BLAME_MIN * 100},
               "duration_s": round(time.monotonic() - started, 1)}
    os.makedirs(reports, exist_ok=True)
    with open(os.path.join(reports, "mutants.json"), "w") as f:
        json.dump({"summary": summary, "mutants": verdicts, "not_measurable": skipped}, f,
                  indent=1)
    ok = n == 0 or (killed >= KILL_MIN * n and blamed >= BLAME_MIN * n)
    out.write("\nkilled: %d of %d mutants (%.1f%%, required 100%%)\n"
              "blamed on the rule they break: %d of %d (%.1f%%, required 95%%); "
              "%d of them with no other rule changed beyond their declared collateral%s\n"
              "not measurable: %d; %.0f s; %s\n%s\n"
              % (killed, n, percent(killed, n), blamed, n, percent(blamed, n), precise,
                 "" if looked == n else " (of the %d run on the whole suite: --quick)" % looked,
                 len(skipped), summary["duration_s"], os.path.join(reports, "mutants.json"),
                 "MUTANT PROOF PASSED" if ok else "MUTANT PROOF FAILED"))
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help="only these mutants")
    ap.add_argument("--reports", default=os.path.join(REPO, "reports"),
                    help="where mutants.json goes (default: reports/)")
    ap.add_argument("--quick", action="store_true",
                    help="run each mutant's own rule's tests first, and the whole suite only "
                         "if they do not catch and blame it (CI)")
    ap.add_argument("--verbose", action="store_true",
                    help="list every rule each mutant changed")
    args = ap.parse_args(argv)
    try:
        return run(args.names, args.reports, args.verbose, args.quick)
    except (mb.BuildError, mm.MutantError) as e:
        sys.stdout.write("proof.py: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
