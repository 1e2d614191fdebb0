# SPDX-License-Identifier: MIT
"""Vendor mode: the harness judges implementations other than the reference.

(a) The reference compiled with a different <trace.h> (every constant
    renumbered, other event ids, other integer types), through ./configure
    --with-trace-cflags/--with-trace-libs and 'make conformance' in a copy of
    the tree: every rule keeps the result it has against the reference.
(b) Mutants of the reference (harness/mutants/mutants.py): their edits still
    apply, and the verdict of the mutant proof (harness/mutants/proof.py,
    'make check-mutants', which runs them all) on one mutant.
(c) An implementation that crashes (SIGSEGV) in one function and hangs in
    another: FAIL naming the signal, UNRESOLVED as hung (stuck in pause(),
    before the time limit), and a complete report for everything else.

Everything is built in temporary folders from copies; reference/ is never
modified.  Run: /usr/bin/python3 -m pytest harness/tests/test_vendor_mode.py
"""

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import HARNESS, PYTHON, REPO

sys.path.insert(0, os.path.join(HARNESS, "mutants"))
import build as mb          # noqa: E402
import proof as mp          # noqa: E402

# The slow tier ('make check-full'; conftest.py): builds and runs the suite against variants of the reference.
pytestmark = pytest.mark.slow
import mutants as mm        # noqa: E402


def by_id(items):
    return {x["id"]: x for x in items}


def catalogue_ids():
    sys.path.insert(0, HARNESS)
    from rules import rulebook
    book = rulebook.load(REPO)
    if book is None:
        pytest.skip("no rule catalogue yet (conformance/catalogue.tsv)")
    return set(book.ids())


@pytest.fixture(scope="module")
def baseline(reference_as_vendor, tmp_path_factory):
    """The unmodified reference, built (once for the session, conftest.py)
    and judged as a vendor's implementation."""
    wd = str(tmp_path_factory.mktemp("vendor"))
    impl, progs = reference_as_vendor["impl"], reference_as_vendor["progs"]
    lib = impl.lib
    build_dir = os.path.join(wd, "base-build")
    progs.link(lib, build_dir)
    doc, _ = mb.run_harness(REPO, build_dir, os.path.join(wd, "base-reports"),
                            "--name", "reference as a vendor's",
                            env=dict(os.environ),
                            programs=progs.programs(build_dir))
    unbuilt = sorted({t["executable"] for t in doc["tests"]
                      if t["message"].startswith("BUILD-ERROR")})
    assert not unbuilt, "test programs that do not build against the reference: %s" % unbuilt
    return {"impl": impl, "progs": progs, "doc": doc, "dir": wd}


def rule_changes(doc, base_doc, allowed, target):
    """Rules whose result differs from the baseline, other than target and
    those matching the allowed patterns: [(id, baseline, now)].  Rules whose
    tests are not the same in both runs (a test file added meanwhile) are not
    compared."""
    base = {r["id"]: r for r in base_doc["rules"]}
    out = []
    for r in doc["rules"]:
        if r["id"] == target or any(fnmatch.fnmatchcase(r["id"], p) for p in allowed):
            continue
        b = base.get(r["id"])
        if b is None or b["tests"] != r["tests"]:
            continue
        if b["result"] != r["result"]:
            out.append((r["id"], b["result"], r["result"]))
    return out


def failure_lines(doc, rule_ids):
    lines = []
    for r in doc["rules"]:
        if r["id"] in rule_ids:
            for f in r.get("failures", []):
                lines.append("  %s %s: %s" % (f["result"], f["test"], f["message"]))
    return "\n".join(lines)


# ---- (a) a different <trace.h> -------------------------------------------------------


def _copy_tree(dst):
    def ignore(d, names):
        return [n for n in names if n in (".git", "build", "reports", "__pycache__",
                                          ".pytest_cache", "config.mk", "config.log")]
    shutil.copytree(REPO, dst, ignore=ignore)
    os.makedirs(os.path.join(dst, "reports"), exist_ok=True)


def test_variant_header_through_configure(baseline, tmp_path):
    header, types = _variant()
    impl = mb.Implementation(REPO, str(tmp_path / "impl"))
    mb.constants_in_reference_tables(impl.src)
    impl.write_header(header)
    impl.write_header(types, "posixtrace_types.h")
    lib = impl.build()

    tree = str(tmp_path / "tree")
    _copy_tree(tree)
    env = dict(os.environ)
    # The tests built quickly (-O1 -g0), as the mutant runs and the odd
    # vendor's tree build them: what is compared is the verdicts, not speed.
    p = subprocess.run(["sh", "./configure", "CFLAGS=-O1 -g0",
                        "--with-trace-cflags=-I" + impl.include,
                        "--with-trace-libs=%s -pthread" % lib], cwd=tree, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    assert p.returncode == 0, p.stdout
    assert "IMPL = vendor" in open(os.path.join(tree, "config.mk")).read()
    p = subprocess.run(["make", "-j%d" % mb.JOBS, "conformance",
                        "CONFORMANCE_FLAGS=--allow-fail --timeout 5 --no-progress"],
                       cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    assert p.returncode == 0, p.stdout[-5000:]
    with open(os.path.join(tree, "reports", "conformance.json")) as f:
        doc = json.load(f)

    prof = doc["implementation"]["profile"]
    assert doc["implementation"]["impl"] == "vendor"
    assert prof["constants"]["POSIX_TRACE_RUNNING"] == 1037        # the variant was used
    assert prof["type_sizes"]["trace_event_id_t"] == 2
    assert prof["type_sizes"]["trace_id_t"] == 4
    assert "-I" + impl.include in doc["implementation"]["build"]["trace_cflags"]
    assert not os.path.exists(os.path.join(tree, "build", "lib"))   # the reference not built

    changes = rule_changes(doc, baseline["doc"], [], None)
    assert not changes, "rules whose result changed with the variant <trace.h>:\n" + \
        "\n".join("  %s: %s -> %s" % c for c in changes) + "\n" + \
        failure_lines(doc, {c[0] for c in changes})
    assert doc["summary"]["rules"]["PASS"] > 0


def _variant():
    with open(os.path.join(REPO, "include", "trace.h")) as f:
        trace_h = f.read()
    with open(os.path.join(REPO, "include", "posixtrace_types.h")) as f:
        types_h = f.read()
    return mb.variant_headers(trace_h, types_h)


def test_variant_header_is_different():
    variant, types = _variant()
    assert "typedef unsigned short trace_event_id_t;" in types
    assert "#define POSIX_TRACE_RUNNING           1037" in variant
    assert "((trace_event_id_t)300)" in variant and "((trace_event_id_t)1)" not in variant


# ---- (b) mutants ----------------------------------------------------------------------


def test_mutant_list():
    ids = catalogue_ids()
    names = [m["name"] for m in mm.MUTANTS]
    assert len(names) == len(set(names)) and len(names) >= 20
    unknown = [(m["name"], m["rule"]) for m in mm.MUTANTS if m["rule"] not in ids]
    assert not unknown, "mutants name rules not in the catalogue: %s" % unknown


@pytest.mark.parametrize("mutant", mm.MUTANTS, ids=[m["name"] for m in mm.MUTANTS])
def test_mutant_applies(mutant, tmp_path):
    """Every mutant's edits still apply to the reference as it is now."""
    impl = mb.Implementation(REPO, str(tmp_path))
    impl.edit(mutant["edits"], mutant["name"])


def test_a_header_edit_reaches_every_file_that_includes_it(tmp_path):
    """A mutant that edits a header recompiles the files that include it,
    directly or through another header (it once recompiled only the edited
    files: an edit of stream_put.h reached nothing and its mutants lived)."""
    impl = mb.Implementation(REPO, str(tmp_path))
    reach = impl._including({"posix/stream_put.h"})
    assert {"posix/record.c", "posix/stream_put.c"} <= reach           # directly
    assert "posix/stage.c" in reach                     # through posix/stage.h
    assert "slot/slot_encode.c" not in reach and "posix/stream_put.h" not in reach


def _rules(**results):
    return {"rules": [{"id": k.replace("_", "."), "result": v[0], "tests": ["t"],
                       "failures": [{"result": v[0], "message": v[1]}] if len(v) > 1 else []}
                      for k, v in results.items()]}


def test_proof_judges_kill_and_blame():
    """proof.py's verdict on one mutant: killed when a passing rule no longer
    passes, blamed when its own rule FAILs with a message naming it."""
    m = {"name": "m", "rule": "a.x", "what": "w", "collateral": ["c.*"]}
    base = {r["id"]: r for r in _rules(a_x=["PASS"], b_y=["PASS"], c_z=["PASS"])["rules"]}
    v = mp.judge(m, _rules(a_x=["FAIL", "got 1 (breaks a.x; t.c:3)"], b_y=["PASS"],
                           c_z=["FAIL", "x"]), base)
    assert v["killed"] and v["blamed"] and v["other"] == [] and v["changed"] == ["a.x", "c.z"]
    # Caught, but another rule is blamed: killed, not blamed, and shown.
    v = mp.judge(m, _rules(a_x=["PASS"], b_y=["FAIL", "breaks b.y"], c_z=["PASS"]), base)
    assert v["killed"] and not v["blamed"] and v["other"] == ["b.y"]
    # Its rule FAILs but no message names it.
    v = mp.judge(m, _rules(a_x=["FAIL", "breaks b.y"], b_y=["PASS"], c_z=["PASS"]), base)
    assert v["killed"] and not v["blamed"]
    # Nothing changed: alive.
    v = mp.judge(m, _rules(a_x=["PASS"], b_y=["PASS"], c_z=["PASS"]), base)
    assert not v["killed"] and not v["blamed"]
    assert mp.measurable(dict(m, rule="q.q"), base) == "rule q.q is not in the catalogue"


# ---- (c) crashes and hangs -------------------------------------------------------------


def test_crash_and_hang(baseline, tmp_path):
    tests = by_id(baseline["doc"]["tests"])
    if "attr_init.reinit" not in tests or "attr_init.defaults" not in tests:
        pytest.skip("conformance/tests/attr_init.c is not there")
    impl = mb.Implementation(REPO, str(tmp_path / "impl"), base=baseline["impl"])
    impl.edit(mm.CRASH_AND_HANG, "crash-and-hang")
    lib = impl.build()
    build_dir = str(tmp_path / "build")
    baseline["progs"].link(lib, build_dir)
    reports = str(tmp_path / "reports")
    doc, p = mb.run_harness(REPO, build_dir, reports, "--name", "crash-and-hang", timeout=2,
                            env=dict(os.environ),
                            programs=baseline["progs"].programs(build_dir))
    t = by_id(doc["tests"])
    # posix_trace_attr_setname crashes: FAIL with the signal's name and where
    # the test was (its notes, ct_calls.h).
    assert t["attr_init.reinit"]["result"] == "FAIL"
    assert re.match(r"killed by signal SIGSEGV in posix_trace_attr_setname \(attr_init\.c:\d+\)"
                    r"; last check passed: attr_init\.c:\d+ \(\d+ checks?\)$",
                    t["attr_init.reinit"]["message"]), t["attr_init.reinit"]["message"]
    # posix_trace_attr_getcreatetime hangs in pause(): stuck, every process
    # blocked with no time limit, it ends as hung (run_harness's --hang-idle),
    # before the test's time limit (2 s: the floor of the calibrated limits),
    # UNRESOLVED, saying where.  (A hang that spins reaches the time limit:
    # test_runner.py, test_hang_detection.py.)
    assert t["attr_init.defaults"]["result"] == "UNRESOLVED"
    assert re.match(r"hung: every process of the test blocked with no time limit for "
                    r"%g s \((pause|ppoll)\) in posix_trace_attr_getcreatetime "
                    r"\(attr_init\.c:\d+\); " % mb.HANG_IDLE,
                    t["attr_init.defaults"]["message"]), t["attr_init.defaults"]["message"]
    assert t["attr_init.defaults"]["status"] == {"hung": mb.HANG_IDLE}
    assert t["attr_init.defaults"]["duration_ms"] < 2000
    r = by_id(doc["rules"])
    assert r["attr_init.reinit"]["result"] == "FAIL"
    assert r["attr_init.defaults"]["result"] == "UNRESOLVED"
    # The rest is there and unaffected.
    assert t["attr_init.return_convention"]["result"] == "PASS"
    assert t["attr_init.default_name_empty"]["result"] == "PASS"
    assert set(t) == set(tests)
    for x in doc["tests"]:
        assert x["result"] in ("PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED", "UNTESTED")
    s = doc["summary"]
    assert s["tests"]["total"] == len(doc["tests"]) and s["verdict"]["status"] == "FAIL"
    # The profile survived the hang in one of its sections.
    prof = doc["implementation"]["profile"]
    assert prof["options"]["TRC"]["supported"] is True
    assert "attr" in prof.get("errors", {})
    for name in ("junit.xml", "index.html"):
        assert os.path.getsize(os.path.join(reports, name)) > 0
    assert "killed by signal SIGSEGV" in p.stdout
