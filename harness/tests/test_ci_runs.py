# SPDX-License-Identifier: MIT
"""run.py in CI: --compare, --rerun-failed, --shard, --merge, and the paths
of the reports relative to the source tree (issue 16, items 1 and 3)."""

import copy
import json
import os
import subprocess

import pytest

from conftest import PYTHON, REPO, RUN_PY, fake_tree, load, run_runner

# The slow tier ('make check-full'; conftest.py): runs the fake suite many times, shard by shard.
pytestmark = pytest.mark.slow

NO_HANG = ["--test", "fake.[!h]*"]         # every fake test but fake.hang


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)


# ---- --compare ------------------------------------------------------------------


@pytest.fixture(scope="module")
def fake_report(tmp_path_factory):
    """A report of the fake tests (rules that pass, fail, are UNRESOLVED)."""
    env = fake_tree(tmp_path_factory.mktemp("ci"))
    run_runner(env, "-j", "4", *NO_HANG)
    return env, load(env)


def with_results(doc, changes):
    old = copy.deepcopy(doc)
    for r in old["rules"]:
        if r["id"] in changes:
            r["result"] = changes[r["id"]]
    return old


def compare(env, old_doc, tmp_path):
    old = str(tmp_path / "old.json")
    write_json(old, old_doc)
    new = os.path.join(env["reports"], "conformance.json")
    # --merge of one whole report is that report: compare it without running.
    return run_runner(dict(env, reports=str(tmp_path / "cmp")), "--merge", new,
                      "--compare", old)


def test_compare_same_results_is_no_regression(fake_report, tmp_path):
    env, doc = fake_report
    p = compare(env, doc, tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr     # failures it already had do not block
    assert "0 newly failing, 0 newly passing, 0 changed" in p.stdout
    assert "no regression" in p.stdout


def test_compare_newly_failing_is_a_regression(fake_report, tmp_path):
    env, doc = fake_report
    assert by_id(doc["rules"])["r.fail"]["result"] == "FAIL"
    p = compare(env, with_results(doc, {"r.fail": "PASS", "r.unresolved": "PASS",
                                        "r.pass": "FAIL", "r.crash": "UNRESOLVED",
                                        "r.unsup": "PASS", "r.flood": "UNTESTED"}),
                tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    out = p.stdout[p.stdout.index("compared with"):]
    failing = out[out.index("newly failing:"):out.index("newly passing:")]
    assert "r.fail (was PASS)" in failing and "r.unresolved (was PASS)" in failing
    assert "fake.fail:" in failing                      # the failing check's message
    passing = out[out.index("newly passing:"):out.index("changed:")]
    assert "PASS       r.pass (was FAIL)" in passing
    changed = out[out.index("changed:"):]
    assert "r.crash (was UNRESOLVED)" in changed        # still failing: changed
    assert "r.unsup (was PASS)" in changed
    assert by_id(doc["rules"])["r.flood"]["result"] == "PASS"
    assert "r.flood (was UNTESTED)" in changed          # passing, but was not failing
    assert "REGRESSION: 2 rules newly failing" in out


def test_compare_a_missing_report_is_an_error(fake_report, tmp_path):
    env, _ = fake_report
    p = run_runner(dict(env, reports=str(tmp_path / "r")), "--compare",
                   str(tmp_path / "nothing.json"), *NO_HANG)
    assert p.returncode == 2 and "--compare: cannot read" in p.stderr


def by_id(items):
    return {x["id"]: x for x in items}


# ---- --rerun-failed ---------------------------------------------------------------


def test_rerun_failed_runs_only_what_failed(fake_report, tmp_path):
    env, doc = fake_report
    failed = sorted(t["id"] for t in doc["tests"] if t["result"] in ("FAIL", "UNRESOLVED"))
    assert failed and len(failed) < len(doc["tests"])
    rerun = dict(env, reports=str(tmp_path / "rerun"))
    p = run_runner(rerun, "--rerun-failed", os.path.join(env["reports"], "conformance.json"))
    assert p.returncode == 1, p.stdout + p.stderr
    again = load(rerun)
    assert [t["id"] for t in again["tests"]] == failed
    assert "failed in " in again["summary"]["selection"]


def test_rerun_failed_with_nothing_failed_runs_nothing(fake_report, tmp_path):
    env, doc = fake_report
    ok = str(tmp_path / "ok.json")
    write_json(ok, {"rules": [], "tests": [dict(t, result="PASS") for t in doc["tests"]]})
    p = run_runner(dict(env, reports=str(tmp_path / "r")), "--rerun-failed", ok)
    assert p.returncode == 0 and "nothing to rerun" in p.stdout
    assert not os.path.exists(str(tmp_path / "r"))


# ---- --shard ----------------------------------------------------------------------


def listed(env, *args):
    p = run_runner(env, "--list", *args)
    assert p.returncode == 0, p.stderr
    return [line.split("\t")[0] for line in p.stdout.splitlines()]


def test_shards_cut_the_selection_in_disjoint_parts(fake_env):
    whole = listed(fake_env)
    parts = [listed(fake_env, "--shard", "%d/3" % k) for k in (1, 2, 3)]
    assert sorted(sum(parts, [])) == sorted(whole)
    assert all(abs(len(p) - len(whole) / 3) < 1 for p in parts)
    # Round robin over the sorted ids: the same on every machine, every time.
    assert parts[0] == sorted(whole)[0::3] and parts[2] == sorted(whole)[2::3]
    assert listed(fake_env, "--shard", "2/3") == parts[1]


@pytest.mark.parametrize("bad", ["0/3", "4/3", "3", "a/b", "1/0"])
def test_bad_shard_is_an_error(fake_env, bad):
    p = run_runner(fake_env, "--shard", bad)
    assert p.returncode == 2 and "--shard" in p.stderr


def test_merge_refuses_an_incomplete_set(fake_env):
    for k in (1, 3):
        p = run_runner(dict(fake_env, reports=os.path.join(fake_env["tmp"], "s%d" % k)),
                       "--shard", "%d/3" % k, *NO_HANG)
        assert p.returncode in (0, 1), p.stderr
    p = run_runner(fake_env, "--merge", *[os.path.join(fake_env["tmp"], "s%d" % k,
                                                       "conformance.json") for k in (1, 3)])
    assert p.returncode == 2 and "expected each of 1/3 .. 3/3 once" in p.stderr


# ---- shards merged = one run, on the reference ----------------------------------

# A small selection of the reference suite whose results and outputs do not
# change from run to run (no process ids): test programs, vectors, KSP vectors.
SELECTION = ["--test", "attr_init.*,eventset.*,vec.trc.attr*,ksp.bad.*"]
TIMING = ("generated", "duration_s", "duration_ms")


def reference(reports, *args):
    argv = [PYTHON, RUN_PY, "--expect-reference", "--no-progress", "-j", "2",
            "--reports", reports] + SELECTION + list(args)
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300, cwd=REPO)


def untimed(v):
    if isinstance(v, dict):
        return {k: untimed(x) for k, x in v.items() if k not in TIMING}
    if isinstance(v, list):
        return [untimed(x) for x in v]
    return v


@pytest.fixture(scope="module")
def whole_and_merged(tmp_path_factory):
    if not os.access(os.path.join(REPO, "build", "conformance", "attr_init"), os.X_OK):
        pytest.skip("no test program built (make conformance-build)")
    tmp = tmp_path_factory.mktemp("shards")
    p = reference(str(tmp / "whole"))
    assert p.returncode == 0, p.stdout + p.stderr
    for k in (1, 2, 3):
        p = reference(str(tmp / ("s%d" % k)), "--shard", "%d/3" % k)
        assert p.returncode == 0, p.stdout + p.stderr
    p = reference(str(tmp / "merged"), "--merge",
                  *[str(tmp / ("s%d" % k) / "conformance.json") for k in (1, 2, 3)],
                  "--compare", str(tmp / "whole" / "conformance.json"))
    return tmp, p


def test_merged_shards_are_the_whole_run(whole_and_merged):
    tmp, p = whole_and_merged
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no regression" in p.stdout
    with open(str(tmp / "whole" / "conformance.json")) as f:
        whole = json.load(f)
    with open(str(tmp / "merged" / "conformance.json")) as f:
        merged = json.load(f)
    shard_tests = []
    for k in (1, 2, 3):
        with open(str(tmp / ("s%d" % k) / "conformance.json")) as f:
            shard = json.load(f)
        assert shard["summary"]["shard"]["index"] == k
        shard_tests += [t["id"] for t in shard["tests"]]
    assert sorted(shard_tests) == [t["id"] for t in whole["tests"]]
    assert len(whole["tests"]) > 30 and {t["executable"] for t in whole["tests"]} >= {
        "attr_init", "vecrun", "kvecrun"}
    assert untimed(merged) == untimed(whole)
    for name in ("junit.xml", "summary.txt"):
        assert os.path.isfile(str(tmp / "merged" / name))


def test_no_report_holds_the_machines_paths(whole_and_merged):
    tmp, _ = whole_and_merged
    for run in ("whole", "merged", "s1"):
        for name in ("conformance.json", "junit.xml", "index.html", "summary.txt"):
            with open(str(tmp / run / name), encoding="utf-8") as f:
                text = f.read()
            assert REPO not in text, "%s/%s names %s" % (run, name, REPO)
    with open(str(tmp / "whole" / "conformance.json")) as f:
        doc = json.load(f)
    assert doc["summary"]["spec_dir"] == "spec/posix"


def test_relative_paths():
    from reporting import report_paths
    doc = {"a": ["-I/src/tree/include /src/tree", "/src/tree2/x", "see /src/tree.",
                 "/src/tree.d/x"], "n": 1, "/src/tree/k": None}
    assert report_paths.relative(doc, "/src/tree/") == {
        "a": ["-Iinclude .", "/src/tree2/x", "see ..", "/src/tree.d/x"], "n": 1, "k": None}


def test_merged_fake_shards_keep_failures_gaps_and_warnings(fake_env):
    # Failures, UNRESOLVED, known gaps and the run's warnings (each once,
    # the specification's problems too) come out of --merge as out of one run.
    gaps = os.path.join(fake_env["tmp"], "gaps.tsv")
    with open(gaps, "w") as f:
        f.write("r.fail\tknown\nr.nosuchrule\tnot in the catalogue\n")
    common = ["--expect-reference", "--known-gaps", gaps, "-j", "2"] + NO_HANG
    bad_spec = {"POSIXTRACE_SPEC_DIR": os.path.join(fake_env["tmp"], "no-spec")}

    def run(name, *args):
        env = dict(fake_env, reports=os.path.join(fake_env["tmp"], name))
        p = run_runner(env, *(common + list(args)), extra_env=bad_spec)
        assert p.returncode in (0, 1), p.stdout + p.stderr
        return env, p
    whole_env, whole_p = run("whole")
    for k in (1, 2, 3):
        run("s%d" % k, "--shard", "%d/3" % k)
    merged_env, merged_p = run("merged", "--merge", *[
        os.path.join(fake_env["tmp"], "s%d" % k, "conformance.json") for k in (1, 2, 3)])
    whole, merged = load(whole_env), load(merged_env)
    assert whole["summary"]["rules"]["FAIL"] and whole["summary"]["rules"]["UNRESOLVED"]
    assert any("known gaps name rules not in the catalogue" in w
               for w in whole["summary"]["warnings"])
    assert len(whole["summary"]["warnings"]) >= 2       # and the specification's problem
    assert untimed(merged) == untimed(whole)
    assert merged_p.returncode == whole_p.returncode
