#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""sample.py -- the suite measured by mutants nobody chose: a seeded random
sample of mutants of the reference's <trace.h> implementation, each judged by
the portable suite and the golden vectors as a vendor's library would be.

    /usr/bin/python3 harness/mutants/sample.py [--seed N] [--count N] [--list]
    /usr/bin/python3 harness/mutants/sample.py --keys FILE      (a pinned sample)
    /usr/bin/python3 harness/mutants/sample.py --rejudge MUTATION_JSON

The mutants are drawn from every site the classic operators find
(harness/mutants/sites.py) in reference/posix, stream, log and shm, uniformly
(so each file in proportion to its code), in an order the seed alone decides.
A site whose mutant does not compile, or compiles to the same object files as
the reference (no mutant at all), is counted and passed over; the draw goes
on until COUNT mutants have compiled.  Each is built as the vendor's shared
library (harness/mutants/build.py: the tests and the vector interpreter are
linked once; each mutant is the library rebuilt), and harness/run.py runs the
portable tests and the vectors against it.  A mutant is

  killed    some rule that PASSes against the reference FAILs or is
            UNRESOLVED against it, and again when the rules that got worse
            are run once more on their own (run.py stopping with an error
            counts too);
  survived  no rule's result got worse, in two runs (a mutant that shows only
            in some interleavings of a test's processes gets a second chance).

Every survivor must be judged by hand in harness/mutants/triage.tsv (its
README.md says how): 'equivalent' (no program can tell it from the
reference), 'invisible' (different inside, the same through <trace.h>:
speed paths, unreachable defensive code, an allowed choice), each with the
reason; or 'observable', with the API sequence that shows it.  The kill rate
is killed / (killed + observable survivors).  It prints a line per mutant and
the figures, writes DIR/mutation.json (default reports/), and exits 1 if a
survivor is not judged or the kill rate is under --min-rate (95%), 2 if
something could not be built or run.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import build as mb      # noqa: E402
import sites as ms      # noqa: E402
import triage as mt     # noqa: E402

# The reference's <trace.h> implementation: what a vendor's library replaces.
FOLDERS = ("posix", "stream", "log", "shm")
BAD = ("FAIL", "UNRESOLVED")
RUNS = 2
# Mutants must not compile by accident into something a compiler only warns
# of: an int returned as a pointer is no mutant of the C the reference is.
MUTANT_CFLAGS = ["-Werror=int-conversion", "-Werror=incompatible-pointer-types",
                 "-Werror=implicit-function-declaration", "-Werror=return-type"]


def all_sites(repo):
    """Every mutation site of the library's implementation, in a fixed order."""
    out = []
    for folder in FOLDERS:
        for path in sorted(glob.glob(os.path.join(repo, "reference", folder, "*.[ch]"))):
            name = os.path.relpath(path, os.path.join(repo, "reference"))
            with open(path, encoding="utf-8") as f:
                out += ms.sites(f.read(), name)
    return out


def draw(repo, seed):
    """The sites in the order the seed gives."""
    order = all_sites(repo)
    random.Random(seed).shuffle(order)
    return order


def changed_rules(doc, base):
    """The rules that PASSed (or were not bad) against the reference and are
    FAIL or UNRESOLVED against the mutant, with the same tests."""
    out = []
    for r in doc["rules"]:
        b = base.get(r["id"])
        if b is not None and b["tests"] == r["tests"] and r["result"] in BAD \
                and b["result"] not in BAD:
            out.append(r["id"])
    return sorted(out)


class Judge:
    """The reference built once as a vendor's library with the tests and the
    vector interpreter linked against it; mutants judged against its run."""

    def __init__(self, repo, wd, out):
        self.repo, self.wd, self.out = repo, wd, out
        self.base = mb.Implementation(repo, os.path.join(wd, "base"))
        self.progs = mb.TestPrograms(repo, self.base.include, os.path.join(wd, "obj"))
        self.bdir = os.path.join(wd, "build")
        self.base_so = self.base.build_shared()
        self.progs.link(self.base_so, self.bdir)
        self._vecrun()
        doc = self.run(self.base_so, os.path.join(wd, "base-rep"), "reference as a vendor's")
        self.baseline = {r["id"]: r for r in doc["rules"]}
        self.passing = sum(r["result"] == "PASS" for r in doc["rules"])

    def _vecrun(self):
        """build/harness/vecrun: the vectors without their exact annotations,
        as a vendor's build makes it (mk/vectors.mk)."""
        srcs = sorted(glob.glob(os.path.join(self.repo, "harness", "vec", "*.c"))) + [
            os.path.join(self.repo, "harness", "common", "vec_rule_results.c")]
        exe = os.path.join(self.bdir, "harness", "vecrun")
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        mb._cc(mb.BASE_CFLAGS + ['-DVECRUN_VERSION="mutants"', "-I" + self.base.include] +
               srcs + ["-o", exe, self.base_so, "-pthread"], "building the vector interpreter")

    def run(self, so, reports, name, *args):
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(so))
        doc, _ = mb.run_harness(self.repo, self.bdir, reports, "--name", name, *args,
                                env=env, vectors=True)
        return doc

    def confirm(self, so, d, run, site, changed):
        """The rules of changed that fail again when run on their own against
        the mutant; of those that only timed out or hung, the ones that do
        not time out against the reference in the same moment (a loaded
        machine slows the reference's tests too: that is no kill)."""
        args = [a for r in changed[:20] for a in ("--rule", r)]
        doc = self.run(so, os.path.join(d, "conf%d" % run), "mutant " + site.key, *args)
        again = changed_rules(doc, self.baseline)
        slow = [r for r in again if only_slow(doc, r)]
        if slow:
            args = [a for r in slow for a in ("--rule", r)]
            base = self.run(self.base_so, os.path.join(d, "base%d" % run), "reference", *args)
            also = set(changed_rules(base, self.baseline))
            again = [r for r in again if r not in also]
        return again

    def build(self, site, d):
        """The mutant's library, or (None, why) if it is no mutant."""
        impl = mb.Implementation(self.repo, os.path.join(d, "impl"), base=self.base)
        path = os.path.join(impl.src, site.file)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(site.apply(text))
        impl.changed.add(site.file)
        try:
            so = impl.build_shared(extra_flags=MUTANT_CFLAGS)
        except mb.BuildError:
            return None, "did not compile"
        if all(_same_file(os.path.join(impl.dir, "obj-pic", o),
                          os.path.join(self.base.dir, "obj-pic", o))
               for o in impl.rebuilt):
            return None, "same object code"
        return so, None

    def judge(self, site, index):
        d = os.path.join(self.wd, "m%05d" % index)
        t0 = time.monotonic()
        so, why = self.build(site, d)
        v = {"key": site.key, "file": site.file, "line": site.line, "op": site.op,
             "old": site.old, "new": site.new, "line_text": site.line_text}
        if so is None:
            v["outcome"] = why
            shutil.rmtree(d, ignore_errors=True)
            return v
        unconfirmed = []
        for run in range(1, RUNS + 1):
            try:
                doc = self.run(so, os.path.join(d, "rep%d" % run), "mutant " + site.key)
                changed = changed_rules(doc, self.baseline)
                stopped = None
                if changed:
                    messages = failure_messages(doc, changed)
                    changed = self.confirm(so, d, run, site, changed)
                    if not changed:
                        unconfirmed += changed_rules(doc, self.baseline)
            except mb.BuildError as e:
                # run.py stopped: the mutant's doing only if it runs against
                # the reference (else the harness itself is broken: an error).
                self.run(self.base_so, os.path.join(d, "base-check"), "reference")
                changed, stopped = [], str(e).splitlines()[0]
            if changed or stopped:
                break
        if changed:
            v["messages"] = messages
        v.update(outcome="killed" if changed or stopped else "survived", runs=run,
                 rules=changed[:12], rules_changed=len(changed),
                 duration_s=round(time.monotonic() - t0, 1))
        if stopped:
            v["stopped"] = stopped
        if unconfirmed:
            v["unconfirmed"] = sorted(set(unconfirmed))
        shutil.rmtree(d, ignore_errors=True)
        return v


def _failures(doc, rid):
    for r in doc["rules"]:
        if r["id"] == rid:
            return r.get("failures", []) or [{"message": r.get("reason", "")}]
    return []


def only_slow(doc, rid):
    """Whether every failure of rule rid in doc is a time limit or a hang."""
    fs = _failures(doc, rid)
    return bool(fs) and all(("timed out" in f.get("message", "") or
                             "hung" in f.get("message", "")) for f in fs)


def failure_messages(doc, rules):
    """The first failure message of each of the first few rules (for the
    reader of mutation.json)."""
    out = []
    for rid in rules[:3]:
        fs = _failures(doc, rid)
        if fs:
            out.append("%s: %s" % (rid, fs[0].get("message", "")[:300]))
    return out


def _same_file(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def rejudged(repo, path):
    """The sites of the mutants that survived in an earlier mutation.json, in
    its order (after new tests: are they still alive?).  Raises
    mt.TriageError if one of them is no longer in the reference."""
    with open(path) as f:
        doc = json.load(f)
    by_key = {s.key: s for s in all_sites(repo)}
    keys = [v["key"] for v in doc["mutants"] if v["outcome"] == "survived"]
    killed = [v for v in doc["mutants"] if v["outcome"] == "killed"]
    gone = [k for k in keys if k not in by_key]
    if gone:
        raise mt.TriageError("%s: %d survivor%s no longer in the reference (their lines "
                             "changed): %s" % (path, len(gone), "" if len(gone) == 1 else "s",
                                               ", ".join(gone[:5])))
    return doc["summary"]["seed"], [by_key[k] for k in keys], killed, doc["passed_over"]


def pinned(repo, path):
    """The sites a pinned sample names (the first column of each line of
    path, '#' lines aside), in its order, and the keys no longer in the
    reference (their lines changed since the list was made)."""
    by_key = {s.key: s for s in all_sites(repo)}
    sites, gone = [], []
    with open(path) as f:
        for line in f:
            key = line.split("\t", 1)[0].strip()
            if not key or key.startswith("#"):
                continue
            if key in by_key:
                sites.append(by_key[key])
            else:
                gone.append(key)
    if not sites:
        raise mt.TriageError("%s: none of its %d mutants is in the reference any more"
                             % (path, len(gone)))
    return sites, gone


def measure(seed, count, reports, triage_path, min_rate, jobs=2, out=sys.stdout,
            order=None, earlier=((), ())):
    """earlier: the killed mutants and the sites passed over of an earlier
    sample whose survivors are order (--rejudge): they stay in the report."""
    started = time.monotonic()
    book = mt.load(triage_path)
    order = draw(REPO, seed) if order is None else order
    with tempfile.TemporaryDirectory(prefix="posixtrace-mutation.") as wd:
        # A copy of the tree as it is now: the sample runs for minutes, and
        # what is edited meanwhile (a test added, the reference changed) must
        # not reach the mutants built or the suite they are judged by.
        tree = os.path.join(wd, "tree")
        shutil.copytree(REPO, tree, symlinks=True, ignore=shutil.ignore_patterns(
            ".git", "build", "build-*", "reports", "__pycache__", "config.mk", "config.log"))
        judge = Judge(tree, wd, out)
        out.write("mutation sample: %s, %d mutants wanted of %d sites in reference/{%s}; "
                  "%d rules PASS against the reference as a vendor's\n"
                  % (_sample_name(seed), count, len(order), ",".join(FOLDERS),
                     judge.passing))
        out.flush()
        # The mutants are the first COUNT sites, in the draw's order, that
        # compile to something new: sites are judged two at a time, and once
        # enough have compiled, those in flight are finished and the set cut
        # back to the first COUNT by their place in the draw.
        results = {}
        it = iter(enumerate(order))
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            pending, compiled = set(), 0
            while True:
                while len(pending) < jobs and compiled + len(pending) < count:
                    nxt = next(it, None)
                    if nxt is None:
                        break
                    f = pool.submit(judge.judge, nxt[1], nxt[0])
                    f.index = nxt[0]
                    pending.add(f)
                if not pending:
                    break
                finished, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for f in finished:
                    v = results[f.index] = f.result()
                    if v["outcome"] in ("killed", "survived"):
                        compiled += 1
                        _line(out, v, book, compiled, count)
        verdicts, passed_over = [], []
        for i in sorted(results):
            v = results[i]
            if len(verdicts) == count:
                break
            (verdicts if v["outcome"] in ("killed", "survived") else passed_over).append(v)
        verdicts += earlier[0]
        passed_over += earlier[1]
        count = len(verdicts)
    return report(seed, count, verdicts, passed_over, book, reports, min_rate,
                  time.monotonic() - started, out)


def _sample_name(seed):
    """'seed 7', or the pinned sample's file (seed is then its path)."""
    return "seed %d" % seed if isinstance(seed, int) else "pinned sample %s" % seed


def _line(out, v, book, i, n):
    where = "%s:%d %s %r -> %r" % (v["file"], v["line"], v["op"], v["old"][:40], v["new"][:40])
    if v["outcome"] == "killed":
        why = v.get("stopped") or "%d rule%s: %s" % (
            v["rules_changed"], "" if v["rules_changed"] == 1 else "s", ", ".join(v["rules"][:3]))
        out.write("  [%d/%d] killed   %s  (%s)  %.0f s\n" % (i, n, where, why, v["duration_s"]))
    else:
        j = book.get(v["key"])
        out.write("  [%d/%d] SURVIVED %s  [%s]  %s\n      %s\n" % (
            i, n, where, j.verdict if j else "NOT JUDGED", v["key"], v["line_text"][:100]))
    out.flush()


def report(seed, count, verdicts, passed_over, book, reports, min_rate, seconds, out):
    killed = [v for v in verdicts if v["outcome"] == "killed"]
    survived = [v for v in verdicts if v["outcome"] == "survived"]
    for v in survived:
        j = book.get(v["key"])
        v["verdict"] = j.verdict if j else None
        v["reason"] = j.reason if j else None
    unjudged = [v for v in survived if v["verdict"] is None]
    observable = [v for v in survived if v["verdict"] == "observable"]
    harmless = [v for v in survived if v["verdict"] in mt.HARMLESS]
    judged_killed = [v for v in killed if v["key"] in book]
    rate = 100.0 * len(killed) / (len(killed) + len(observable)) if killed or observable \
        else 100.0
    summary = {
        "seed": seed, "wanted": count,
        "drawn": len(verdicts) + len(passed_over),
        "did_not_compile": sum(v["outcome"] == "did not compile" for v in passed_over),
        "same_object_code": sum(v["outcome"] == "same object code" for v in passed_over),
        "compiled": len(verdicts), "killed": len(killed), "survived": len(survived),
        "survived_harmless": len(harmless), "survived_observable": len(observable),
        "survived_unjudged": len(unjudged),
        "kill_rate_observable_percent": round(rate, 1), "required_percent": min_rate,
        "duration_s": round(seconds, 1)}
    os.makedirs(reports, exist_ok=True)
    path = os.path.join(reports, "mutation.json")
    with open(path, "w") as f:
        json.dump({"summary": summary, "mutants": verdicts, "passed_over": passed_over},
                  f, indent=1)
    out.write("\n%s: %d sites drawn, %d did not compile, %d compiled to the reference's "
              "own object code;\n%d mutants: %d killed, %d survived (%d judged equivalent or "
              "invisible, %d observable, %d not judged)\n"
              % (_sample_name(seed), summary["drawn"], summary["did_not_compile"],
                 summary["same_object_code"], len(verdicts), len(killed), len(survived),
                 len(harmless), len(observable), len(unjudged)))
    out.write("kill rate over the observable mutants: %d of %d = %.1f%% (required %.0f%%); "
              "%.0f s; %s\n" % (len(killed), len(killed) + len(observable), rate, min_rate,
                                seconds, path))
    if judged_killed:
        out.write("now killed, with a judgement in the triage file (it can go): %s\n"
                  % ", ".join(v["key"] for v in judged_killed))
    for v in unjudged:
        out.write("NOT JUDGED: %s\t%s:%d\t%s %r -> %r\t%s\n" % (
            v["key"], v["file"], v["line"], v["op"], v["old"], v["new"], v["line_text"]))
    for v in observable:
        out.write("OBSERVABLE, NOT CAUGHT: %s (%s:%d): %s\n" % (v["key"], v["file"], v["line"],
                                                               v["reason"]))
    ok = not unjudged and rate >= min_rate
    if unjudged:
        out.write("%d survivor%s not judged: add %s to %s (harness/mutants/README.md)\n"
                  % (len(unjudged), "" if len(unjudged) == 1 else "s",
                     "it" if len(unjudged) == 1 else "them", os.path.relpath(book.path, REPO)))
    out.write("MUTATION SAMPLE %s\n" % ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv=None):
    global RUNS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="the draw's seed (default 1)")
    ap.add_argument("--count", type=int, default=40,
                    help="how many compiling mutants to judge (default 40)")
    ap.add_argument("--reports", default=os.path.join(REPO, "reports"),
                    help="where mutation.json goes (default: reports/)")
    ap.add_argument("--triage", default=os.path.join(HERE, "triage.tsv"),
                    help="the judgements of survivors (default: harness/mutants/triage.tsv)")
    ap.add_argument("--min-rate", type=float, default=95.0,
                    help="the kill rate over observable mutants required, in percent")
    ap.add_argument("--jobs", type=int, default=2, help="mutants built and run at once")
    ap.add_argument("--runs", type=int, default=RUNS,
                    help="runs of the suite a mutant gets before it counts as a survivor "
                         "(default %d)" % RUNS)
    ap.add_argument("--rejudge", default=None, metavar="MUTATION_JSON",
                    help="judge again only the survivors of an earlier sample (its seed)")
    ap.add_argument("--keys", default=None, metavar="FILE",
                    help="judge exactly the mutants FILE names, one key a line (a pinned "
                         "sample, as CI's: harness/mutants/ci_sample.tsv), not a seed's draw")
    ap.add_argument("--list", action="store_true",
                    help="print the first COUNT sites the seed draws (not built, not judged)")
    args = ap.parse_args(argv)
    if args.count < 1:
        ap.error("--count must be at least 1")
    if args.list:
        for s in draw(REPO, args.seed)[:args.count]:
            sys.stdout.write("%s\t%s\n" % (s.key, s.describe()))
        return 0
    RUNS = args.runs
    try:
        order, earlier = None, ((), ())
        if args.rejudge:
            args.seed, order, killed, passed_over = rejudged(REPO, args.rejudge)
            args.count, earlier = len(order), (killed, passed_over)
        elif args.keys:
            order, gone = pinned(REPO, args.keys)
            args.count, args.seed = len(order), os.path.relpath(args.keys, REPO)
            if gone:
                sys.stdout.write("%s: %d of its mutants are no longer in the reference (their "
                                 "lines changed): %s; judged without them (make a new list "
                                 "with --list)\n" % (args.keys, len(gone), ", ".join(gone)))
        return measure(args.seed, args.count, args.reports, args.triage, args.min_rate,
                       args.jobs, order=order, earlier=earlier)
    except (mb.BuildError, mt.TriageError) as e:
        sys.stdout.write("sample.py: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
