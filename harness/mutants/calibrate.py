#!/usr/bin/python3
"""calibrate.py -- runs every mutant (or those named) against the current
portable tests and prints, for each, the result of its target rule and every
other rule whose result differs from the unmodified reference: what to review
before declaring a mutant's collateral rules in mutants.py.

    /usr/bin/python3 harness/mutants/calibrate.py [NAME...]

Builds in a temporary folder; reference/ is not touched.
"""

import fnmatch
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import build as mb      # noqa: E402
import mutants as mm    # noqa: E402


def main(names):
    chosen = [m for m in mm.MUTANTS if not names or m["name"] in names]
    with tempfile.TemporaryDirectory(prefix="posixtrace-mutants.") as wd:
        base = mb.Implementation(REPO, os.path.join(wd, "base"))
        lib = base.build()
        progs = mb.TestPrograms(REPO, base.include, os.path.join(wd, "obj"))
        bdir = os.path.join(wd, "base-build")
        progs.link(lib, bdir)
        bdoc, _ = mb.run_harness(REPO, bdir, os.path.join(wd, "base-rep"),
                                 programs=progs.programs(bdir))
        before = {r["id"]: r for r in bdoc["rules"]}
        for m in chosen:
            d = os.path.join(wd, m["name"])
            impl = mb.Implementation(REPO, os.path.join(d, "impl"), base=base)
            impl.edit(m["edits"], m["name"])
            mlib = impl.build()
            progs.link(mlib, os.path.join(d, "build"))
            doc, _ = mb.run_harness(REPO, os.path.join(d, "build"), os.path.join(d, "rep"),
                                    programs=progs.programs(os.path.join(d, "build")))
            rules = {r["id"]: r for r in doc["rules"]}
            t = rules.get(m["rule"], {})
            print("== %s: %s -> %s" % (m["name"], m["rule"], t.get("result", "not reported")))
            for rid, r in rules.items():
                b = before.get(rid)
                if rid == m["rule"] or b is None or b["result"] == r["result"]:
                    continue
                declared = any(fnmatch.fnmatchcase(rid, p) for p in m["collateral"])
                print("   %s %s: %s -> %s" % ("  " if declared else "!!", rid, b["result"],
                                            r["result"]))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
