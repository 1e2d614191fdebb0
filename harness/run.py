#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""run.py -- the conformance runner.

Finds the test programs (build/conformance/<name>, built from
conformance/tests/<name>.c, and the vector interpreter build/harness/vecrun
in reference mode), asks each for its tests (--list), checks the rules they
name against the rule catalogue, runs the selected tests in parallel, each in
a process of its own with a time limit, and writes reports/conformance.json,
reports/junit.xml and reports/index.html, and a summary on the terminal.

Exit status: 0 if no rule of a supported option FAILs or is UNRESOLVED (and
no test does), 1 otherwise (0 with --allow-fail), 2 if the run itself could
not be done (a test program missing or breaking the protocol, a rule unknown
to the catalogue, bad arguments, an error of the runner itself).

See harness/README.md.  Python 3 standard library only.
"""

import argparse
import concurrent.futures
import fnmatch
import glob
import json
import os
import shutil
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HARNESS_DIR)

from reporting import report_compare, report_file, report_html, report_junit  # noqa: E402
from reporting import report_paths, report_text, results, shards              # noqa: E402
from reporting import kvec_timelines                                         # noqa: E402
from rules import rulebook                                                     # noqa: E402
from rules.spec import Spec                                                    # noqa: E402
from runner import preflight, protocol, target, timelimits                     # noqa: E402
from runner.protocol import OPTIONS, Executable                                # noqa: E402
from unbuilt import build_results, header_options, vector_list                 # noqa: E402

TRACE_OPTIONS = ("TRC", "TEF", "TRI", "TRL")


class RunError(Exception):
    """The run cannot be done; the message says why and what to do."""


# ---- configuration ---------------------------------------------------------------


def read_config_mk(path):
    """The NAME = value lines of config.mk ({} if there is none)."""
    conf = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#") or "=" not in line:
                    continue
                name, _, value = line.partition("=")
                name = name.strip().rstrip(":?+")
                if name.replace("_", "").isalnum():
                    conf[name] = value.strip()
    except OSError:
        pass
    return conf


def parse_options_list(text, what):
    opts = [o.strip().upper() for o in text.replace(" ", ",").split(",") if o.strip()]
    bad = [o for o in opts if o not in OPTIONS]
    if bad:
        raise RunError("%s: unknown option %s (expected a comma-separated list of %s)"
                       % (what, ", ".join(bad), ", ".join(TRACE_OPTIONS)))
    return opts


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="run.py", description="Runs the POSIX Tracing conformance tests against the "
        "implementation under test and writes the reports.",
        epilog="Selections take shell-style patterns (*, ?, [...]); repeat an option or give "
        "a comma-separated list.  A test runs if it matches every kind of selection given.")
    p.add_argument("-j", "--jobs", type=int, default=None,
                   help="tests run at once (default: the number of CPUs)")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="seconds a test not in the timings table may run before it is "
                   "killed (default 10)")
    p.add_argument("--timings", default=None, metavar="TSV",
                   help="each test's time measured on the reference, which its time limit "
                   "comes from (default: ROOT/conformance/timings.tsv; 'make "
                   "calibrate-timings' writes it)")
    p.add_argument("--no-timings", action="store_true",
                   help="give every test the --timeout limit")
    p.add_argument("--timeout-factor", type=float, default=timelimits.FACTOR, metavar="X",
                   help="a test's limit is X times its measured time (default %(default)g; "
                   "more under valgrind or on a slow target)")
    p.add_argument("--timeout-floor", type=float, default=timelimits.FLOOR, metavar="S",
                   help="but at least S seconds (default %(default)g)")
    p.add_argument("--stop-after-hangs", type=int, default=timelimits.STOP_AFTER,
                   metavar="N", help="once N tests in a row time out in the same trace "
                   "function, the tests started afterwards stop before calling it, "
                   "UNRESOLVED (default %(default)d; 0: never)")
    p.add_argument("--hang-idle", type=float, default=timelimits.HANG_IDLE, metavar="S",
                   help="a test whose every process has been blocked with no time limit "
                   "(a deadlock, a wait for an event nobody sends) for S seconds ends then, "
                   "UNRESOLVED 'hung', before its time limit (default %(default)g: a vendor's "
                   "library may wait that long for a daemon outside the test; 0: never; off "
                   "through a test wrapper that runs the tests elsewhere)")
    p.add_argument("--test-wrapper", default=None, metavar="CMD",
                   help="run every program as 'CMD program args': an emulator or a board "
                   "runner, harness/runner/target.py (default: TEST_WRAPPER of config.mk)")
    p.add_argument("--time-factor", type=float, default=None, metavar="T",
                   help="multiply every time limit by T, for a slow target (default: "
                   "TIME_FACTOR of config.mk, else 1)")
    p.add_argument("--test", action="append", default=[], metavar="GLOB",
                   help="run the tests whose id matches")
    p.add_argument("--rule", action="append", default=[], metavar="GLOB",
                   help="run the tests of the rules whose id matches, report those rules")
    p.add_argument("--function", action="append", default=[], metavar="GLOB",
                   help="run the tests exercising a function that matches (as the test or "
                   "its rules name it)")
    p.add_argument("--option", action="append", default=[], metavar="GLOB",
                   help="run the tests of the rules of these options (TRC, TEF, TRI, TRL, KSP)")
    p.add_argument("--list", action="store_true",
                   help="list the selected tests and exit, running nothing")
    p.add_argument("--impl", choices=("reference", "vendor"), default=None,
                   help="the implementation under test (default: IMPL of config.mk)")
    p.add_argument("--options", default=None, metavar="LIST",
                   help="take these options as supported (e.g. TRC,TEF) instead of the "
                   "profile's answer (default: TRACE_OPTIONS_OVERRIDE of config.mk)")
    p.add_argument("--name", default=None, help="the implementation's name in the reports")
    p.add_argument("--root", default=os.path.dirname(HARNESS_DIR),
                   help="the source tree (default: the folder above harness/)")
    p.add_argument("--build", default=None, help="the build folder (default: ROOT/build)")
    p.add_argument("--reports", default=None, help="where to write the reports "
                   "(default: ROOT/reports)")
    p.add_argument("--catalogue", default=None, metavar="TSV",
                   help="read the rules from this TSV instead of the project's catalogue")
    p.add_argument("--exe", action="append", default=[], metavar="PATH",
                   help="also run the tests of this program (it follows the protocol)")
    p.add_argument("--no-discover", action="store_true",
                   help="run only the programs given with --exe")
    p.add_argument("--no-vectors", action="store_true",
                   help="do not run the vector interpreter")
    p.add_argument("--vectors", default=None, help="the vectors folder (default: ROOT/vectors)")
    p.add_argument("--profile", default=None, metavar="PATH",
                   help="the profile program (default: BUILD/harness/profile)")
    p.add_argument("--no-profile", action="store_true", help="do not run the profile program")
    p.add_argument("--preflight", default=None, metavar="PATH",
                   help="with a test wrapper, the program run through it before any test, to "
                   "check that it runs a thread and a trace stream (default: "
                   "BUILD/harness/preflight; harness/runner/preflight.py)")
    p.add_argument("--no-preflight", action="store_true",
                   help="do not check the test wrapper before the run")
    p.add_argument("--expect-reference", action="store_true",
                   help="the gate of 'make check': the implementation must be the reference; "
                   "fails if a rule it implements fails (rules listed in --known-gaps excepted)")
    p.add_argument("--known-gaps", default=None, metavar="FILE",
                   help="with --expect-reference: rules the reference does not meet yet, one "
                   "'rule-id TAB reason' a line (default: ROOT/conformance/reference_gaps.tsv); "
                   "an error without --expect-reference (a vendor's failures are never waived)")
    p.add_argument("--allow-fail", action="store_true",
                   help="exit 0 even if rules fail (reporting only)")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show the progress line even if stdout is not a terminal")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress line")
    p.add_argument("-v", "--verbose", action="store_true", help="list every test's result")
    add_ci_arguments(p)
    args = p.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        p.error("--jobs must be at least 1")
    if not (args.timeout > 0 and args.timeout_factor > 0 and args.timeout_floor > 0):
        p.error("--timeout, --timeout-factor and --timeout-floor must be positive")
    if args.stop_after_hangs < 0:
        p.error("--stop-after-hangs must be 0 or more")
    if args.hang_idle < 0:
        p.error("--hang-idle must be 0 or more")
    return args


# ---- CI: compare, rerun, shard, merge (harness/README.md, "In CI") ----------------


def add_ci_arguments(p):
    g = p.add_argument_group("CI: compare, rerun, shard, merge")
    g.add_argument("--compare", default=None, metavar="OLD.json",
                   help="after the run (or --merge), print the rules newly failing, newly "
                   "passing and changed since this earlier report; the exit status is then "
                   "1 on a regression (a rule newly FAIL or UNRESOLVED), else 0")
    g.add_argument("--rerun-failed", default=None, metavar="REPORT",
                   help="run only the tests that FAIL or are UNRESOLVED in this earlier "
                   "report (conformance.json)")
    g.add_argument("--shard", default=None, metavar="K/N",
                   help="run the Kth of N parts of the selected tests (round robin over the "
                   "tests sorted by id: the same on every machine); --merge joins the parts")
    g.add_argument("--merge", nargs="+", default=None, metavar="REPORT",
                   help="run nothing: join these shard reports (of --shard 1/N .. N/N) into "
                   "the reports one run writes, in --reports")


def ci_select(chosen, args):
    """The selected tests, cut by --rerun-failed and --shard: (tests, shard or None)."""
    if args.rerun_failed:
        try:
            failed = set(shards.failed_ids(report_file.read(args.rerun_failed)))
        except report_file.ReportError as e:
            raise RunError("--rerun-failed: %s" % e)
        chosen = [t for t in chosen if t.id in failed]
    part = None
    if args.shard:
        try:
            part = shards.parse(args.shard)
        except shards.ShardError as e:
            raise RunError(str(e))
        chosen = shards.shard(chosen, *part)
    return chosen, part


def ci_compare(doc, args):
    """--compare: prints what changed; 1 on a regression, else 0."""
    try:
        old = report_file.read(args.compare)
    except report_file.ReportError as e:
        raise RunError("--compare: %s" % e)
    diff = report_compare.compare(old, doc)
    sys.stdout.write(report_compare.text(diff, args.compare, doc))
    return 1 if report_compare.regressed(diff) else 0


def merge(args, root, reports_dir):
    """--merge: the reports of the whole run of the shard reports, and its exit status."""
    if args.shard or args.rerun_failed or args.list:
        raise RunError("--merge runs nothing: it cannot be given with --shard, --rerun-failed "
                       "or --list")
    try:
        docs = [report_file.read(p) for p in args.merge]
        book = rulebook.load(root, args.catalogue)
        if book is None:
            book = rules_of_tests([TestDoc(t) for d in docs for t in d["tests"]])
        doc = shards.merge(docs, args.merge, book, Spec.tolerant(root), root)
    except (report_file.ReportError, shards.ShardError, rulebook.CatalogueError,
            OSError) as e:
        raise RunError("--merge: %s" % e)
    gaps = {r["id"]: r["known_gap"] for r in doc["rules"] if "known_gap" in r}
    return conclude(doc, args, root, reports_dir, gaps)


class TestDoc:
    """A test of a report, as rules_of_tests() reads it."""

    def __init__(self, d):
        self.rules, self.options, self.functions = d["rules"], d["options"], d["functions"]


def rules_of_tests(tests):
    """The rules as the tests name them, when there is no catalogue."""
    return rulebook.Rulebook(
        [rulebook.Rule(r, option=",".join(t.options), functions=t.functions)
         for r, t in sorted({r: t for t in tests for r in t.rules}.items())],
        "the tests")


def globs(values):
    out = []
    for v in values:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return out


# ---- discovery -------------------------------------------------------------------


def discover(root, build, impl, vectors_dir, use_vectors):
    """The test programs: (executables, warnings).  A program whose last build
    failed (its build log says BUILD-ERROR) is one too, with build_failure
    set, even if an older build of it is still there.  Raises RunError if a
    test source has no program and no build log."""
    exes, missing, warnings = [], [], []
    sources = sorted(s for s in glob.glob(os.path.join(root, "conformance", "tests", "*.c"))
                     if os.path.basename(s) != "ct.c")
    for src in sources:
        name = os.path.splitext(os.path.basename(src))[0]
        path = os.path.join(build, "conformance", name)
        failed = build_results.failed_program(path, name, src, root)
        if failed is not None:
            exes.append(failed)
        elif os.path.isfile(path) and os.access(path, os.X_OK):
            if os.path.getmtime(path) < os.path.getmtime(src):
                warnings.append("%s is older than %s: rebuild ('make conformance-build')"
                                % (os.path.relpath(path, root), os.path.relpath(src, root)))
            exes.append(Executable(path, name=name, source=os.path.relpath(src, root)))
        else:
            missing.append((os.path.relpath(src, root), os.path.relpath(path, root)))
    if missing:
        raise RunError("test programs missing:\n" + "\n".join(
            "  %s (from %s)" % (b if not b.startswith(os.pardir) else
                                os.path.join(root, b), s) for s, b in missing) +
            "\nbuild them with 'make conformance-build' (or run 'make conformance')")
    vecrun = os.path.join(build, "harness", "vecrun")
    # vecrun that did not build (its build log says BUILD-ERROR): its vectors
    # are read from the .vec files and reported BUILD-ERROR.
    vecrun_failed = use_vectors and os.path.isdir(vectors_dir) and build_results.failed_program(
        vecrun, "vecrun", os.path.join(root, "harness", "vec", "vecrun.c"), root,
        lister=lambda exe: vector_list.tests(vectors_dir, exe))
    if vecrun_failed:
        exes.append(vecrun_failed)
    elif use_vectors and os.path.isfile(vecrun) \
            and os.access(vecrun, os.X_OK):
        if os.path.isdir(vectors_dir):
            exes.append(Executable(vecrun, prefix=["--dir", os.path.abspath(vectors_dir)],
                                   name="vecrun"))
        else:
            warnings.append("%s exists but there is no vectors folder %s: vectors not run"
                            % (os.path.relpath(vecrun, root), vectors_dir))
    # The kernel slot protocol's vectors (vectors/ksp, rules KSP-n): their
    # interpreter knows where they are (KSP_VECTORS overrides it).
    kvecrun = os.path.join(build, "harness", "kvecrun")
    if use_vectors and os.path.isfile(kvecrun) and os.access(kvecrun, os.X_OK):
        exes.append(Executable(kvecrun, name="kvecrun"))
    return exes, warnings


def given_program(root, path):
    """The Executable of a program given with --exe: one that harness/build_test.sh
    failed to build (its build log says BUILD-ERROR) is read from its source,
    ROOT/conformance/tests/<name>.c."""
    name = os.path.basename(path)
    src = os.path.join(root, "conformance", "tests", name + ".c")
    failed = build_results.failed_program(path, name, src, root)
    if failed is None:
        return Executable(path)
    if not os.path.isfile(src):
        raise RunError("%s did not build (%s.build.log) and there is no %s to read its tests "
                       "from" % (path, path, src))
    return failed


def collect(exes, jobs):
    """--list of every program, in parallel (the registrations in the source
    of a program that did not build): (tests sorted by id, errors)."""
    errors, tests = [], []

    def list_tests(exe):
        if exe.build_failure is None:
            return protocol.list_tests(exe)
        return exe.list_statically()

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [(exe, pool.submit(list_tests, exe)) for exe in exes]
        for exe, fut in futures:
            try:
                tests += fut.result()
            except protocol.ProtocolError as e:
                errors.append(str(e))
    seen = {}
    for t in tests:
        if t.id in seen:
            errors.append("test id %s is given by both %s and %s" % (
                t.id, seen[t.id].exe.name, t.exe.name))
        else:
            seen[t.id] = t
    return sorted(seen.values(), key=lambda t: t.id), errors


# ---- the implementation ------------------------------------------------------------


def run_profile(path, timeout=20.0, hang_idle=0):
    """The profile program's JSON, section by section (a section whose program
    run fails, times out or hangs, as a test would, is recorded as {"error":
    ...}), or {"error": ...}."""
    if not path or not os.path.isfile(path):
        failure = path and build_results.read_build_log(path + ".build.log")
        if failure:
            # harness/build_test.sh kept why it did not build.
            return {"error": "the implementation profile did not build: harness/profile/profile.c "
                    "does not %s against the implementation under test: %s (log: %s); "
                    "the run goes on without it" % (failure.step, (failure.errors or [
                        "(no error line in the log)"])[0], os.path.relpath(failure.log_path)),
                    "build_error": failure.step}
        return {"error": "no profile program (%s): build it with 'make conformance-build'"
                % (path or "none")}
    profile = {}
    for section in ("options", "attr", "types", "stream"):
        try:
            rc, out, _, how = protocol.run_program(target.wrapped([path, section]), timeout,
                                                   hang_idle)
        except OSError as e:
            return {"error": "cannot run %s: %s" % (path, e.strerror or e)}
        if how is not None:
            profile.setdefault("errors", {})[section] = how
            continue
        if rc != 0:
            profile.setdefault("errors", {})[section] = protocol.describe_status(rc)
            continue
        try:
            part = json.loads(out)
        except ValueError as e:
            profile.setdefault("errors", {})[section] = "bad JSON: %s" % e
            continue
        part.pop("schema", None)
        profile.update(part)
    return profile


def check_wrapper(path, timeout, hang_idle, native):
    """Whether the test wrapper runs what the tests need (runner/preflight.py),
    before any test: raises RunError when it does not (exit 2: no verdict
    rather than every rule blamed on the implementation); returns the
    warnings.  Without the preflight program the run goes on, saying so."""
    if not os.path.isfile(path):
        failure = build_results.read_build_log(path + ".build.log")
        if failure:
            return ["the preflight did not build: %s does not %s against the implementation "
                    "under test: %s (log: %s); the test wrapper was not checked before the run"
                    % (preflight.SOURCE, failure.step, (failure.errors or [
                        "(no error line in the log)"])[0], os.path.relpath(failure.log_path))]
        return ["no preflight program (%s): the test wrapper was not checked before the run "
                "(build it with 'make conformance-build')" % path]
    stop, warnings = preflight.check(path, timeout, hang_idle, native)
    if stop:
        raise RunError(stop + "; no test was run (fix the wrapper, or run the tests "
                       "elsewhere; --no-preflight skips this check)")
    return warnings


def derive_options(profile, override, impl, from_headers=None):
    """({option: supported}, source): from the override, else the profile,
    else from_headers() ((options, source) or (None, why), the header
    macros: harness/unbuilt/header_options.py), else TRC only."""
    headers = from_headers() if from_headers and override is None and \
        not isinstance(profile.get("options"), dict) else (None, None)
    if override is not None:
        opts = {o: o in override for o in TRACE_OPTIONS}
        source = "override"
    elif isinstance(profile.get("options"), dict):
        opts = {o: bool((profile["options"].get(o) or {}).get("supported"))
                for o in TRACE_OPTIONS}
        source = "profile"
    elif headers[0] is not None:
        opts, source = dict(headers[0]), headers[1]
    else:
        opts = {o: o == "TRC" for o in TRACE_OPTIONS}
        source = "assumed (no profile%s: TRC only)" % (
            "; the header macros could not be read: %s" % headers[1] if headers[1] else "")
    if not opts["TRC"]:
        for o in ("TEF", "TRI", "TRL"):     # each needs TRC (XBD 2.1.3)
            opts[o] = False
    opts["KSP"] = impl == "reference"        # the kernel slot protocol is the reference's
    return opts, source


def implementation_doc(args, conf, impl, profile, options, source):
    attr = profile.get("attr_defaults") if isinstance(profile.get("attr_defaults"), dict) else {}
    genversion = attr.get("genversion") if isinstance(attr.get("genversion"), str) else None
    if args.name:
        name = args.name
    elif impl == "reference":
        name = "posixtrace reference implementation" + (" (%s)" % genversion if genversion
                                                         else "")
    else:
        name = (genversion or "vendor implementation") + \
            (" [%s]" % conf["TRACE_LIBS"] if conf.get("TRACE_LIBS") else "")
    build = {"impl": impl}
    for k in ("TRACE_CFLAGS", "TRACE_LIBS", "CC", "CFLAGS", "HOST"):
        if conf.get(k):
            build[k.lower()] = conf[k]
    if target.wrapper():
        build["test_wrapper"] = " ".join(target.wrapper())
    return {"name": name, "impl": impl, "options": options, "options_source": source,
            "build": build, "profile": profile}


# ---- selection ---------------------------------------------------------------------


def _match(value, patterns):
    return any(fnmatch.fnmatchcase(value, p) for p in patterns)


def select(tests, book, args):
    """(selected tests, {rule ids to report}, selection text or None)."""
    tpat, rpat, fpat, opat = (globs(args.test), globs(args.rule), globs(args.function),
                              globs(args.option))
    if not (tpat or rpat or fpat or opat):
        return tests, None, None

    def rule_functions(rid):
        r = book.get(rid) if book else None
        return r.functions if r else []

    def rule_options(rid):
        r = book.get(rid) if book else None
        return r.options() if r else []

    def test_ok(t):
        if tpat and not _match(t.id, tpat):
            return False
        if rpat and not any(_match(r, rpat) for r in t.rules):
            return False
        if fpat and not (any(_match(f, fpat) for f in t.functions) or
                         any(_match(f, fpat) for r in t.rules for f in rule_functions(r))):
            return False
        if opat and not (any(_match(o, opat) for o in t.options) or
                         any(_match(o, opat) for r in t.rules for o in rule_options(r))):
            return False
        return True

    def rule_ok(rule):
        if rpat and not _match(rule.id, rpat):
            return False
        if fpat and not any(_match(f, fpat) for f in rule.functions):
            return False
        if opat and not any(_match(o, opat) for o in rule.options()):
            return False
        return True

    chosen = [t for t in tests if test_ok(t)]
    report_rules = set()
    for t in chosen:
        for r in t.rules:
            rule = book.get(r) if book else None
            if rule is None or not (rpat or fpat or opat) or rule_ok(rule):
                report_rules.add(r)
    if book and (rpat or fpat or opat) and not tpat:
        report_rules |= {rid for rid in book.ids() if rule_ok(book.get(rid))}
    parts = []
    for label, pats in (("test", tpat), ("rule", rpat), ("function", fpat), ("option", opat)):
        if pats:
            parts.append("%s %s" % (label, ",".join(pats)))
    return chosen, report_rules, "; ".join(parts)


# ---- known gaps ----------------------------------------------------------------------


def read_known_gaps(path):
    gaps = {}
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                rid, _, reason = line.partition("\t")
                gaps[rid.strip()] = reason.strip() or "(no reason given)"
    except FileNotFoundError:
        pass
    except OSError as e:
        raise RunError("cannot read %s: %s" % (path, e.strerror))
    return gaps


# ---- running -------------------------------------------------------------------------


class Progress:
    """A single updating line on a terminal; nothing otherwise."""

    def __init__(self, total, enabled, stream=sys.stdout):
        self.total, self.enabled, self.stream = total, enabled, stream
        self.done = 0
        self.counts = {k: 0 for k in protocol.CODES}
        self.lock = threading.Lock()
        self.width = shutil.get_terminal_size((80, 24)).columns

    def update(self, test_id, result):
        with self.lock:
            self.done += 1
            self.counts[result] += 1
            if not self.enabled:
                return
            line = "[%d/%d] %s  %s" % (self.done, self.total, "  ".join(
                "%s %d" % (k, v) for k, v in self.counts.items() if v), test_id)
            self.stream.write("\r\033[K" + line[:max(10, self.width - 1)])
            self.stream.flush()

    def finish(self):
        if self.enabled and self.done:
            self.stream.write("\r\033[K")
            self.stream.flush()


def run_tests(tests, options, jobs, limits, progress, tmp_root, watch=None, hang_idle=0):
    """Runs the tests that can run, each with its limits.of(id) time limit,
    ended as hung once stuck for hang_idle seconds (0: never); returns {test
    id: run dict}.  watch (a timelimits.HangWatch) sees every result and may
    tell the tests started later not to call a function."""
    watch = watch or timelimits.HangWatch(0)
    out = {}
    runnable = []
    for t in tests:
        missing = [o for o in t.options if not options.get(o, False)]
        if missing:
            out[t.id] = {"result": "UNSUPPORTED", "message": "not run: needs option %s, which "
                         "the implementation does not support" % ", ".join(missing),
                         "duration_ms": 0, "status": None, "output": ""}
            progress.update(t.id, "UNSUPPORTED")
        elif t.exe.build_failure is not None:
            out[t.id] = build_results.result(t, t.exe.build_failure)
            progress.update(t.id, out[t.id]["result"])
        else:
            runnable.append(t)
    supported = ",".join(o for o in OPTIONS if options.get(o))
    base_env = target.exec_env(dict(os.environ, CT_OPTIONS=supported,
                                    POSIXTRACE_CONFORMANCE="1"))

    def one(t):
        work = tempfile.mkdtemp(prefix="t.", dir=tmp_root)
        env = dict(base_env, TMPDIR=work)
        stop_at, hung_after = watch.stop_at(), watch.stop_hung_after()
        if stop_at:
            env["CT_STOP_AT"] = stop_at
        if hung_after:
            env["CT_STOP_HUNG_AFTER"] = hung_after
        # The test's notes of where it is (ct.c), beside its folder, not in it.
        notes = work + ".progress"
        limit = limits.of(t.id)
        try:
            run = protocol.run_test(t, limit, env=env, cwd=work, progress_path=notes,
                                    hang_idle=hang_idle)
            run["time_limit_s"] = limit
            return run
        finally:
            shutil.rmtree(work, ignore_errors=True)
            try:
                os.remove(notes)
            except OSError:
                pass

    # Slowest first would be better; without history, the order of the ids.
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(one, t): t for t in runnable}
        try:
            for fut in concurrent.futures.as_completed(futures):
                t = futures[fut]
                try:
                    out[t.id] = fut.result()
                except Exception as e:          # the runner's own bug: keep going
                    out[t.id] = {"result": "UNRESOLVED", "message": "runner error: %s: %s"
                                 % (type(e).__name__, e), "duration_ms": 0, "status": None,
                                 "output": ""}
                watch.finished(t.id, out[t.id])
                progress.update(t.id, out[t.id]["result"])
        except KeyboardInterrupt:
            for f in futures:
                f.cancel()
            protocol.kill_running()
            raise
    for run in out.values():
        watch.explain(run)
    return out


# ---- main --------------------------------------------------------------------------------


def write_reports(doc, reports_dir, timelines=None):
    os.makedirs(reports_dir, exist_ok=True)
    paths = []
    path = os.path.join(reports_dir, "conformance.json")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=False, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)
    paths.append(path)
    path = os.path.join(reports_dir, "junit.xml")
    report_junit.write(doc, path)
    paths.append(path)
    path = os.path.join(reports_dir, "index.html")
    report_html.write(doc, path, timelines)
    paths.append(path)
    # The summary and every failure, plain text: to attach to a ticket.
    path = os.path.join(reports_dir, "summary.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(report_text.summary(doc, max_failures=len(doc["rules"]) + len(doc["tests"])))
    paths.append(path)
    return paths


def _shown_path(path):
    """path relative to the current folder if it is below it, else absolute."""
    rel = os.path.relpath(path)
    return path if rel.startswith(os.pardir) else rel


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except RunError as e:
        sys.stdout.flush()
        sys.stderr.write("run.py: error: %s\n" % e)
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\nrun.py: interrupted\n")
        return 130
    except Exception:
        # The runner's own bug is the harness failing (2), never a verdict:
        # Python's own status for it would be 1, "does not conform".
        import traceback
        sys.stdout.flush()
        traceback.print_exc()
        sys.stderr.write("run.py: error: internal error in the harness (above); no verdict\n")
        return 2


def target_setup(args, conf):
    """The test wrapper and the time factor (harness/runner/target.py), from the
    arguments, else the environment (make exports TEST_WRAPPER and TIME_FACTOR:
    config.mk's, or the make line's), else config.mk; returns the time factor."""
    def setting(value, name):
        if value is not None:
            return value
        return os.environ[name] if name in os.environ else conf.get(name, "")
    text = setting(args.test_wrapper, "TEST_WRAPPER")
    try:
        target.set_wrapper(target.parse(text))
    except target.WrapperError as e:
        raise RunError(str(e))
    factor = args.time_factor
    if factor is None:
        text = setting(None, "TIME_FACTOR")
        try:
            factor = float(text or 1)
        except ValueError:
            raise RunError("TIME_FACTOR = %s: expected a number" % text)
    if not factor > 0:
        raise RunError("the time factor must be positive, not %g" % factor)
    return factor


def run(args):
    started = time.monotonic()
    root = os.path.abspath(args.root)
    build = os.path.abspath(args.build or os.path.join(root, "build"))
    reports_dir = os.path.abspath(args.reports or os.path.join(root, "reports"))
    if args.merge:
        return merge(args, root, reports_dir)
    conf = read_config_mk(os.path.join(root, "config.mk"))
    impl = args.impl or conf.get("IMPL") or "reference"
    if impl not in ("reference", "vendor"):
        raise RunError("config.mk: IMPL = %s: expected reference or vendor" % impl)
    override_text = args.options if args.options is not None else \
        (conf.get("TRACE_OPTIONS_OVERRIDE") or None)
    override = parse_options_list(override_text, "--options") if override_text else None
    if args.known_gaps and not args.expect_reference:
        # The known gaps are the reference's, excused in its own gate only; a
        # vendor's report never hides a failure (--allow-fail only changes
        # the exit status).
        raise RunError("--known-gaps FILE needs --expect-reference: the known gaps are the "
                       "reference's, excused only in its own check ('make check-conformance'); "
                       "a run without --expect-reference reports every failure")
    if args.expect_reference and impl != "reference":
        raise RunError("--expect-reference checks the reference, but the implementation under "
                       "test is a vendor's (IMPL = %s): use 'make conformance'" % impl)
    if args.jobs:
        jobs = args.jobs
    elif hasattr(os, "sched_getaffinity"):
        jobs = len(os.sched_getaffinity(0))
    else:
        jobs = os.cpu_count() or 1
    warnings = []
    stretch = target_setup(args, conf)

    # The rules.
    try:
        book = rulebook.load(root, args.catalogue)
    except (rulebook.CatalogueError, OSError) as e:
        raise RunError("the rule catalogue cannot be read: %s" % e)
    if book is None:
        warnings.append("no rule catalogue (conformance/catalogue.tsv): rules are taken from "
                        "the tests, without option, summary or sources")

    # The tests.
    exes = []
    if not args.no_discover:
        found, w = discover(root, build, impl, args.vectors or os.path.join(root, "vectors"),
                            not args.no_vectors)
        exes += found
        warnings += w
    exes += [given_program(root, p) for p in args.exe]
    if not exes:
        raise RunError("no test program: nothing in conformance/tests/*.c, no --exe")
    tests, errors = collect(exes, jobs)
    if errors:
        raise RunError("the test programs broke the protocol:\n  " + "\n  ".join(errors))
    for exe in exes:
        if exe.build_failure is not None:
            warnings.append(build_results.warning(exe, sum(t.exe is exe for t in tests)))
    if book is not None:
        errors = book.check_references({t.id: t.rules for t in tests})
        if errors:
            raise RunError("the tests name rules the catalogue (%s) does not have:\n  %s\n"
                           "fix the test's rule ids or add the rules to the catalogue"
                           % (book.origin, "\n  ".join(errors)))
        for t in tests:
            for r in t.rules:
                if not book.get(r).testable:
                    warnings.append("test %s names rule %s, which the catalogue marks not "
                                    "testable" % (t.id, r))
    else:
        book = rules_of_tests(tests)

    chosen, report_rules, selection = select(tests, book, args)
    chosen, part = ci_select(chosen, args)
    if args.rerun_failed and not chosen:
        print("run.py: no test of the selection FAILs or is UNRESOLVED in %s: nothing to rerun"
              % args.rerun_failed)
        return 0
    if args.list:
        for t in chosen:
            print("%s\t%s\t%s\t%s" % (t.id, ",".join(t.rules), ",".join(t.options),
                                      ",".join(t.functions)))
        return 0

    # The implementation.
    # Whether a test (or the profile) is stuck is seen in its processes: not
    # through a wrapper that runs it elsewhere.
    hang_idle = args.hang_idle if target.runs_here() else 0
    if target.wrapper() and not args.no_preflight:
        warnings += check_wrapper(args.preflight or os.path.join(build, "harness", "preflight"),
                                  max(5.0, args.timeout) * stretch, hang_idle,
                                  native=conf.get("CROSS_COMPILING") != "yes")
    profile = {} if args.no_profile else run_profile(
        args.profile or os.path.join(build, "harness", "profile"),
        timeout=max(5.0, args.timeout) * stretch, hang_idle=hang_idle)
    if "error" in profile:
        warnings.append("implementation profile: %s" % profile["error"])
    for section, err in sorted((profile.get("errors") or {}).items()):
        warnings.append("implementation profile, section %s: %s" % (section, err))
    # Without the profile (not --no-profile), the options come from the
    # header's macros.
    from_headers = None if args.no_profile else lambda: header_options.options(conf)
    options, source = derive_options(profile, override, impl, from_headers)
    implementation = implementation_doc(args, conf, impl, profile, options, source)

    # Run.
    timings_path = args.timings or os.path.join(root, "conformance", "timings.tsv")
    try:
        timings = {} if args.no_timings else timelimits.read_timings(timings_path)
    except timelimits.TimingsError as e:
        raise RunError(str(e))
    limits = timelimits.Limits(timings, args.timeout, args.timeout_factor, args.timeout_floor,
                               stretch)
    watch = timelimits.HangWatch(args.stop_after_hangs)
    tty = sys.stdout.isatty()
    progress = Progress(len(chosen), tty if args.progress is None else args.progress)
    if not progress.enabled:
        print("running %d tests of %d programs (%d jobs, %s) against %s%s"
              % (len(chosen), len(exes), jobs, limits.describe(_shown_path(timings_path)),
                 implementation["name"], (" " + target.describe()) if target.wrapper() else ""))
        sys.stdout.flush()
    tmp_root = tempfile.mkdtemp(prefix="posixtrace-conformance.")
    try:
        test_results = run_tests(chosen, options, jobs, limits, progress, tmp_root, watch,
                                 hang_idle)
    finally:
        progress.finish()
        shutil.rmtree(tmp_root, ignore_errors=True)
    warnings += watch.warnings()

    gaps = {}
    if args.expect_reference:
        gaps = read_known_gaps(args.known_gaps or os.path.join(root, "conformance",
                                                               "reference_gaps.tsv"))
        unknown = sorted(g for g in gaps if g not in book)
        if unknown:
            warnings.append("known gaps name rules not in the catalogue: %s" % ", ".join(unknown))
    order = [rid for rid in book.ids() if report_rules is None or rid in report_rules]
    spec = Spec.tolerant(root)
    partial = selection is not None
    if args.rerun_failed:
        selection = "; ".join(x for x in (selection, "failed in %s" % args.rerun_failed) if x)
    whole = (partial or bool(args.rerun_failed), selection)
    if part:
        # A shard's own report is partial; the whole run's selection is kept
        # for --merge.
        selection = "; ".join(x for x in (selection, "shard %d/%d" % part) if x)
    doc = results.build(implementation=implementation, rules=book.rules, rule_order=order,
                        tests=chosen, test_results=test_results, spec=spec,
                        partial=partial or bool(args.rerun_failed or part),
                        selection=selection,
                        duration_s=time.monotonic() - started, jobs=jobs, timeout=args.timeout,
                        known_gaps=gaps, warnings=warnings)
    if part:
        shards.note(doc, part[0], part[1], *whole)
    return conclude(doc, args, root, reports_dir, gaps)


def conclude(doc, args, root, reports_dir, gaps):
    """Writes the reports of doc, prints the summary (and --compare's
    comparison); returns the exit status."""
    doc = report_paths.relative(doc, root)
    # The failing kernel vectors' traces, drawn for the page (issue 17).
    pictures = kvec_timelines.timelines(doc, os.path.abspath(args.build or
                                                             os.path.join(root, "build")))
    try:
        paths = write_reports(doc, reports_dir, pictures)
    except OSError as e:
        raise RunError("cannot write the reports in %s: %s" % (reports_dir, e.strerror or e))
    sys.stdout.write(report_text.summary(doc, verbose=args.verbose,
                                         reports=[_shown_path(p) for p in paths]))

    failing = results.failing_rules(doc, ignore_gaps=args.expect_reference)
    bad_tests = results.failing_tests(doc, gap_rules=gaps if args.expect_reference else ())
    if args.expect_reference:
        fixed = [r["id"] for r in doc["rules"] if "known_gap" in r and r["result"] == "PASS"]
        if fixed:
            print("note: known gaps that now PASS (remove them from the known gaps): %s"
                  % ", ".join(fixed))
        if failing or bad_tests:
            print("check-conformance: the reference breaks %d rule%s it implements"
                  % (len(failing), "" if len(failing) == 1 else "s"))
    runner_errors = [t["id"] for t in doc["tests"] if t["message"].startswith("runner error")]
    if runner_errors:
        print("run.py: the runner failed on %d test%s (%s): no verdict" % (
            len(runner_errors), "" if len(runner_errors) == 1 else "s",
            ", ".join(runner_errors[:5])))
        return 2
    if args.compare:
        return ci_compare(doc, args)
    if (failing or bad_tests) and not args.allow_fail:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
