# SPDX-License-Identifier: MIT
"""The KSP vectors as a check of decoders other than the reference's
(vectors/ksp/README.md, "Checking another decoder"), and as tests of the
harness: build/harness/kvecrun must exist ('make kvecrun', or 'make
conformance-build' against the reference, which 'make check-pytest' runs).

* ksp_mini_decoder.py decodes simple events only and reports no integrity
  error: the vectors it meets PASS, those it does not FAIL with a message
  that says what differs; the reference-only vectors are UNTESTED.
* A decoder that breaks the contract (no JSON, missing fields, a crash, a
  hang) is a FAIL, or UNRESOLVED for the hang.
* tracedump --json, as "another decoder", passes every decoder vector.
* Through harness/run.py, every rule KSP-1..25 PASSes against the reference.
"""

import json
import os
import subprocess
import sys

import pytest

from conftest import PYTHON, REPO, RUN_PY

KVECRUN = os.path.join(REPO, "build", "harness", "kvecrun")
TRACEDUMP = os.path.join(REPO, "build", "bin", "tracedump")
MINI = "%s %s {file}" % (PYTHON, os.path.join(REPO, "harness", "tests", "ksp_mini_decoder.py"))

pytestmark = pytest.mark.skipif(not os.access(KVECRUN, os.X_OK),
                                reason="build/harness/kvecrun is not built ('make kvecrun')")


def run(test_id, decoder=None, env=None, timeout=None):
    """kvecrun --run test_id: (code, message)."""
    argv = [KVECRUN, "--run", test_id]
    if decoder is not None:
        argv += ["--decoder", decoder]
    if timeout is not None:
        argv += ["--timeout", str(timeout)]
    full_env = dict(os.environ)
    full_env.pop("KSP_DECODER", None)
    full_env.update(env or {})
    p = subprocess.run(argv, capture_output=True, text=True, env=full_env, timeout=120)
    last = p.stdout.strip().splitlines()[-1]
    assert last.startswith("RESULT "), p.stdout
    code, _, message = last[len("RESULT "):].partition(" ")
    assert p.returncode == ["PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED", "UNTESTED"].index(code)
    return code, message


@pytest.mark.parametrize("test_id", [
    "ksp.decode.dropped",       # simple events, DROPPED totals
    "ksp.file.syspage",         # the system page skipped
    "ksp.file.raw_valid",       # a value running into the next key
    "ksp.bad.no_header",        # rejected at offset 0
    "ksp.bad.empty",
])
def test_mini_decoder_passes_what_it_does_right(test_id):
    code, message = run(test_id, MINI)
    assert code == "PASS", message
    assert "against the decoder" in message


@pytest.mark.parametrize("test_id, says", [
    # It skips combine events: the events do not match.
    ("ksp.decode.interleaved", "event 0: expected cpu 0 class 6 event 10"),
    ("ksp.decode.straddle", "KSP-21"),
    # It reports no integrity error and delivers reserved classes.
    ("ksp.bad.cut_slot", "expected an error KSP-25 cut_slot"),
    ("ksp.classes.reserved_class", "class 8 event 5"),
    # It does not check the header's keys.
    ("ksp.bad.version", "expected the file to be rejected (KSP-25 at offset 51)"),
    # Combine events lost: not every event accounted for.
    ("ksp.sim.small", "1500 events generated, but"),
])
def test_mini_decoder_fails_what_it_does_wrong(test_id, says):
    code, message = run(test_id, MINI)
    assert code == "FAIL", message
    assert says in message
    assert message.startswith(os.path.join(REPO, "vectors", "ksp"))    # names file and line


def test_reference_only_vectors_are_untested_against_another_decoder():
    code, message = run("ksp.encode.worked_words", MINI)
    assert code == "UNTESTED", message
    assert "reference only" in message


def test_the_decoder_may_come_from_the_environment():
    code, message = run("ksp.decode.interleaved", env={"KSP_DECODER": MINI})
    assert code == "FAIL", message
    code, message = run("ksp.decode.interleaved")
    assert code == "PASS", message                  # the reference, without KSP_DECODER


@pytest.mark.parametrize("decoder, code, says", [
    # (Each ignores its file: "#{file}" puts the path in a shell comment.)
    ("echo this is not JSON #{file}", "FAIL", "not JSON"),
    ("echo '{\"events\": [], \"errors\": []}' #{file}", "FAIL", "breaks the contract"),
    ("echo '{\"events\": [{\"offset\": 1}], \"errors\": [], \"summary\": {}}' #{file}",
     "FAIL", "event 0 needs offset, cpu"),
    ("kill -SEGV $$ #{file}", "FAIL", "killed by signal"),
    ("sleep 30 #{file}", "UNRESOLVED", "did not finish within 1 s"),
])
def test_a_decoder_that_breaks_the_contract(decoder, code, says):
    got, message = run("ksp.decode.dropped", decoder, timeout=1)
    assert got == code, message
    assert says in message


@pytest.mark.slow          # the slow tier ('make check-full')
@pytest.mark.skipif(not os.access(TRACEDUMP, os.X_OK), reason="build/bin/tracedump is not built")
def test_tracedump_json_passes_every_decoder_vector():
    p = subprocess.run([KVECRUN, "--run-all", "--decoder", TRACEDUMP + " --json {file}"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:]
    assert " 0 FAIL, 0 UNRESOLVED" in p.stdout


def test_every_ksp_rule_passes_through_the_runner(tmp_path):
    p = subprocess.run([PYTHON, RUN_PY, "--no-discover", "--exe", KVECRUN, "--option", "KSP",
                        "--no-profile", "--impl", "reference", "--reports", str(tmp_path),
                        "--no-progress"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    with open(os.path.join(str(tmp_path), "conformance.json")) as f:
        doc = json.load(f)
    ksp = {r["id"]: r["result"] for r in doc["rules"] if r["id"].startswith("KSP-")}
    assert sorted(ksp) == sorted("KSP-%d" % n for n in range(1, 26))
    assert set(ksp.values()) == {"PASS"}, ksp


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
