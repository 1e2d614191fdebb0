# SPDX-License-Identifier: MIT
"""The golden vectors (vectors/) and their interpreter (harness/vec/vecrun.c, harness/vec/vec_*.c)
and harness/tools/bless.py.

The interpreter is built here twice, straight from the sources: against the reference with its
exact checks (-DVECRUN_EXACT, the reference's sources compiled in), and as for a vendor's
library (no exact checks), so that these tests depend on no earlier build.
"""

import glob
import os
import re
import shutil
import subprocess

import pytest

from conftest import HARNESS, PYTHON, REPO

VECTORS = os.path.join(REPO, "vectors")
CATALOGUE = os.path.join(REPO, "conformance", "catalogue.tsv")
BLESS_PY = os.path.join(HARNESS, "tools", "bless.py")
RESULTS = {0: "PASS", 1: "FAIL", 2: "UNRESOLVED", 3: "UNSUPPORTED", 4: "UNTESTED"}
ID_RE = re.compile(r"^vec(\.[a-z0-9_-]+)+$")
FUNC_RE = re.compile(r"^posix_trace_[a-z_]+$")
RULE_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def vector_paths():
    return sorted(glob.glob(os.path.join(VECTORS, "**", "*.vec"), recursive=True))


def vector_id(path):
    rel = os.path.relpath(path, VECTORS)[:-len(".vec")]
    return "vec." + rel.replace(os.sep, ".")


# vecrun and vecrun_vendor (exact checks on, off): fixtures of conftest.py,
# built once a session.


def run(argv, timeout=120, cwd=REPO):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                          timeout=timeout, universal_newlines=True)


def result(p):
    """(code name, message) of a --run or --file: the exit status must agree with the
    last line, RESULT <CODE> <message>."""
    lines = p.stdout.strip().splitlines()
    assert lines, "no output; stderr: " + p.stderr
    m = re.match(r"^RESULT (\S+) ?(.*)$", lines[-1])
    assert m, "last line is not RESULT ...: %r" % lines[-1]
    assert RESULTS.get(p.returncode) == m.group(1), \
        "exit status %d but %s" % (p.returncode, lines[-1])
    return m.group(1), m.group(2)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


# ---- the vectors ------------------------------------------------------------

def test_there_are_enough_vectors():
    assert len(vector_paths()) >= 100


def test_list_is_well_formed_and_ids_unique(vecrun):
    p = run([vecrun, "--dir", VECTORS, "--list"])
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", "a vector is malformed:\n" + p.stderr
    lines = p.stdout.splitlines()
    ids = [line.split("\t")[0] for line in lines]
    assert sorted(ids) == sorted(vector_id(v) for v in vector_paths())
    assert len(set(ids)) == len(ids)
    for line in lines:
        fields = line.split("\t")
        assert len(fields) == 4, line
        tid, rules, options, functions = fields
        assert ID_RE.match(tid), tid
        assert rules and all(RULE_RE.match(r) for r in rules.split(",")), line
        assert options and set(options.split(",")) <= {"TRC", "TEF", "TRI", "TRL"}, line
        assert functions, "%s exercises no function" % tid
        assert all(FUNC_RE.match(f) for f in functions.split(",")), line


def test_rules_exist_in_catalogue(vecrun):
    if not os.path.exists(CATALOGUE):
        pytest.skip("conformance/catalogue.tsv not written yet")
    with open(CATALOGUE) as f:
        known = {line.split("\t")[0] for line in f.read().splitlines()[1:] if line}
    p = run([vecrun, "--dir", VECTORS, "--list"])
    unknown = []
    for line in p.stdout.splitlines():
        tid, rules = line.split("\t")[:2]
        unknown += ["%s: %s" % (tid, r) for r in rules.split(",") if r not in known]
    assert not unknown, "rules not in the catalogue:\n" + "\n".join(unknown)


@pytest.mark.parametrize("path", vector_paths(), ids=vector_id)
def test_vector_passes_against_the_reference(vecrun, path):
    p = run([vecrun, "--dir", VECTORS, "--run", vector_id(path)])
    code, msg = result(p)
    if code == "UNSUPPORTED":
        assert "needs option" in msg, msg        # an option the reference lacks, nothing else
    else:
        assert code == "PASS", msg


def test_vendor_mode_skips_exact_checks(vecrun_vendor):
    """Built without VECRUN_EXACT (as against a vendor's library, here the reference's):
    the portable checks pass, an exact-only vector is UNTESTED, none is FAIL or UNRESOLVED."""
    p = run([vecrun_vendor, "--dir", VECTORS, "--run-all"], timeout=600)
    bad = [l for l in p.stdout.splitlines() if re.match(r"^vec\S*\s+(FAIL|UNRESOLVED)\s", l)]
    assert not bad, "\n".join(bad)
    assert p.returncode == 0, p.stdout[-2000:]
    line = [l for l in p.stdout.splitlines() if "exact-list" in l][0]
    assert "UNTESTED exact expectations apply to the reference only" in line


def test_run_all_summary(vecrun):
    p = run([vecrun, "--dir", VECTORS, "--run-all"], timeout=600)
    assert p.returncode == 0, p.stdout[-3000:]
    assert re.search(r"^\d+ passed, 0 failed, \d+ skipped$", p.stdout, re.M), p.stdout[-500:]


# ---- failures are reported, not hidden ----------------------------------------

def test_wrong_portable_value_fails_naming_the_line(vecrun, vecrun_vendor, tmp_path):
    src = os.path.join(VECTORS, "trc", "event", "records.vec")
    with open(src) as f:
        lines = f.read().splitlines(True)
    n = next(i for i, l in enumerate(lines) if 'data "hello, world"' in l)
    lines[n] = lines[n].replace('"hello, world"', '"hello, World"')
    bad = write(str(tmp_path / "records.vec"), "".join(lines))
    for exe in (vecrun, vecrun_vendor):
        code, msg = result(run([exe, "--file", bad]))
        assert code == "FAIL", msg
        assert "records.vec:%d:" % (n + 1) in msg, msg
        assert '"hello, World"' in msg and '"hello, world"' in msg, msg  # expected and got
        assert "event.records" in msg, msg                                # the rule


ALTERNATIVES = """# t
rules: x.y
options: TRC
open e "x"
create t null
start t
event e u8:5
let $kept 0
getnext t -> event STOP or event START ts $kept
check $kept != 0
let $kept 0
getnext t -> event STOP or event e data u8:{data} ts $kept
when $kept != 0 trygetnext t -> none
"""


def test_read_alternatives_pick_by_event_and_check_its_clauses(vecrun, vecrun_vendor, tmp_path):
    """'event A ... or event B ...': the event read picks the alternative, whose
    clauses are checked (vectors/README.md: a point the implementation decides)."""
    good = write(str(tmp_path / "alt.vec"), ALTERNATIVES.format(data=5))
    bad = write(str(tmp_path / "alt-bad.vec"), ALTERNATIVES.format(data=6))
    for exe in (vecrun, vecrun_vendor):
        code, msg = result(run([exe, "--file", good]))
        assert code == "PASS", msg
        code, msg = result(run([exe, "--file", bad]))
        assert code == "FAIL", msg
        assert "alt-bad.vec:12:" in msg and "expected data" in msg, msg


def test_wrong_exact_value_fails_on_the_reference_only(vecrun, vecrun_vendor, tmp_path):
    src = os.path.join(VECTORS, "trc", "policy", "loop", "overflow-sim.vec")
    with open(src) as f:
        lines = f.read().splitlines(True)
    n = next(i for i, l in enumerate(lines) if "event RESUME" in l)
    assert "@ts 100.000000040" in lines[n]
    lines[n] = lines[n].replace("@ts 100.000000040", "@ts 100.000000050")
    bad = write(str(tmp_path / "overflow.vec"), "".join(lines))
    code, msg = result(run([vecrun, "--file", bad]))
    assert code == "FAIL", msg
    assert "overflow.vec:%d:" % (n + 1) in msg, msg
    assert "expected 100.000000050, got 100.000000040" in msg, msg
    code, msg = result(run([vecrun_vendor, "--file", bad]))
    assert code == "PASS", msg


def test_failed_setup_is_unresolved(vecrun, tmp_path):
    bad = write(str(tmp_path / "setup.vec"),
                "# setup that cannot succeed\nrules: create.suspended\noptions: TRC\n\n"
                "create t null\nshutdown t\nstart t\nstatus t -> EINVAL\n")
    code, msg = result(run([vecrun, "--file", bad]))
    assert code == "UNRESOLVED", msg
    assert "setup.vec:7:" in msg and "setup failed" in msg and "EINVAL" in msg, msg


HDR = "# t\nrules: x.y\noptions: TRC\n"

MALFORMED = {
    "no-title": ("rules: create.suspended\noptions: TRC\ncreate t null -> 0\n", 1),
    "no-rules": ("# t\noptions: TRC\ncreate t null -> 0\n", 3),
    "bad-option": ("# t\nrules: x.y\noptions: TRC, XYZ\ncreate t null -> 0\n", 3),
    "unterminated": ('# t\nrules: x.y\noptions: TRC\nopen e "abc -> 0\n', 4),
    "bad-escape": ('# t\nrules: x.y\noptions: TRC\nopen e "a\\qb" -> 0\n', 4),
    "unknown-verb": ("# t\nrules: x.y\noptions: TRC\n\nfrobnicate t -> 0\n", 5),
    "unknown-stream": ("# t\nrules: x.y\noptions: TRC\nstart t -> 0\n", 4),
    "bad-expectation": ("# t\nrules: x.y\noptions: TRC\ncreate t null -> maybe\n", 4),
    "unknown-var": ("# t\nrules: x.y\noptions: TRC\nrepeat $n create t null\ncheck 1 == 1\n", 4),
    "stray-annotation": ("# t\nrules: x.y\noptions: TRC\ncreate t null -> 0 @ts 1.0\n", 4),
    "rule-not-in-header": ("# t\nrules: x.y\noptions: TRC\ncreate t null -> 0 [a.b]\n", 4),
    "open-block": ("# t\nrules: x.y\noptions: TRC\nrepeat 2 {\ncreate t null -> 0\n", 4),
    "lone-brace": ("# t\nrules: x.y\noptions: TRC\ncreate t null -> 0\n}\n", 5),
    "checks-nothing": ("# t\nrules: x.y\noptions: TRC\ncreate t null\n", 0),
    "never-joined": ("# t\nrules: x.y\noptions: TRC\ncreate t null\nstart t\n"
                     "bg r getnext t -> event START\n", 6),
    "huge-number": ("# t\nrules: x.y\noptions: TRC\nrepeat 99999999999999999999999 "
                    "create t null\ncheck 1 == 1\n", 4),
    "header-after-steps": ("# t\nrules: x.y\noptions: TRC\ncreate t null -> 0\nrules: a.b\n", 5),
    # process steps: checked by the dry pass against what each process knows
    "in-unknown-process": (HDR + "fork c\nin d check 1 == 1\n", 5),
    "in-nested": (HDR + "fork c\nfork d\nin c in d check 1 == 1\n", 6),
    "in-missing-step": (HDR + "fork c\nin c\ncheck 1 == 1\n", 5),
    "in-bad-step": (HDR + "fork c\nin c frobnicate\n", 5),
    "in-fork": (HDR + "fork c\nin c fork d\ncheck 1 == 1\n", 5),
    "in-exit": (HDR + "fork c\nin c exit c\ncheck 1 == 1\n", 5),
    "in-ended": (HDR + "fork c\nexit c\nin c check 1 == 1\n", 6),
    "in-before-fork": (HDR + "in c check 1 == 1\nfork c\n", 4),
    "fork-twice": (HDR + "fork c\nfork c\ncheck 1 == 1\n", 5),
    "fork-bad-name": (HDR + "fork C\ncheck 1 == 1\n", 4),
    "fork-expectation": (HDR + "fork c -> 0\n", 4),
    "child-var-in-parent": (HDR + "fork c\nin c let $v 1\ncheck $v == 1\n", 6),
    "parent-object-after-fork": (HDR + "fork c\nopen e \"n\"\nin c event e \"x\"\n"
                                 "check 1 == 1\n", 6),
    "object-lost-at-exec": (HDR + "open e \"n\"\nfork c\nin c event e \"x\"\nexec c\n"
                            "in c event e \"x\"\ncheck 1 == 1\n", 8),
    "pid-of-nobody": (HDR + "create t null pid c\ncheck 1 == 1\n", 4),
    "exit-status-range": (HDR + "fork c\nexit c 256\ncheck 1 == 1\n", 5),
    "or-bad-clause": (HDR + "create t null\nstart t\n"
                      "getnext t -> event STOP or event START colour red\n", 6),
    "too-many-processes": (HDR + "".join("fork p%d\n" % i for i in range(9)) + "check 1 == 1\n",
                           12),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_vector_is_unresolved_with_its_line(vecrun, tmp_path, name):
    text, line = MALFORMED[name]
    path = write(str(tmp_path / (name + ".vec")), text)
    p = run([vecrun, "--file", path])
    code, msg = result(p)
    assert code == "UNRESOLVED", msg
    where = "%s.vec:%d:" % (name, line) if line else "%s.vec:" % name
    assert where in msg, msg


def test_runtime_error_is_unresolved(vecrun, tmp_path):
    path = write(str(tmp_path / "div.vec"),
                 "# t\nrules: x.y\noptions: TRC\nlet $z 0\ncheck 1/$z == 1\n")
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "UNRESOLVED" and "div.vec:5:" in msg and "division by zero" in msg, msg


def test_binary_garbage_is_unresolved(vecrun, tmp_path):
    path = str(tmp_path / "garbage.vec")
    with open(path, "wb") as f:
        f.write(bytes(range(256)) * 8)
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "UNRESOLVED", msg


def test_hung_step_times_out_unresolved(vecrun, tmp_path):
    path = write(str(tmp_path / "hang.vec"),
                 "# t\nrules: getnext.blocks\noptions: TRC\ncreate t null\n"
                 "getnext t -> event START\n")
    p = run([vecrun, "--timeout", "1", "--file", path], timeout=30)
    code, msg = result(p)
    assert code == "UNRESOLVED" and "hang.vec:5:" in msg and "timed out" in msg, msg


# ---- processes ------------------------------------------------------------------

PROC_HEAD = "# t\nrules: fork.inherited\noptions: TRC\n"


def test_failure_in_a_process_names_it_and_the_line(vecrun, vecrun_vendor, tmp_path):
    """A portable FAIL inside a child is the vector's FAIL: the line, the step, 'in c:', what
    came back and the rule; the same for a check, with $i of a repeat."""
    head = "# t\nrules: fork.inherited, create.EINVAL-child-trid\noptions: TRC\n"
    path = write(str(tmp_path / "f.vec"), head + "create t null\nfork c\n"
                 "in c status t -> RUNNING [create.EINVAL-child-trid]\n")
    for exe in (vecrun, vecrun_vendor):
        code, msg = result(run([exe, "--file", path]))
        assert code == "FAIL", msg
        assert "f.vec:6: 'in c status t -> RUNNING" in msg and "in c: " in msg, msg
        assert "EINVAL" in msg and "create.EINVAL-child-trid" in msg, msg
    path = write(str(tmp_path / "g.vec"), PROC_HEAD + "fork c\nrepeat 3 in c check $i < 2\n")
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "FAIL" and "g.vec:5:" in msg and "in c: " in msg and "$i = 2" in msg, msg


def test_exact_mismatch_in_a_process_fails_on_the_reference_only(vecrun, vecrun_vendor,
                                                                tmp_path):
    path = write(str(tmp_path / "x.vec"), PROC_HEAD + "fork c\nexec c\n"
                 "in c open e \"n\" -> 0 @value 99\n")
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "FAIL" and "x.vec:6:" in msg and "in c: exact @value: expected 99, got 17" \
        in msg, msg
    code, msg = result(run([vecrun_vendor, "--file", path]))
    assert code == "PASS", msg


def test_setup_failure_in_a_process_is_unresolved(vecrun, tmp_path):
    path = write(str(tmp_path / "s.vec"), PROC_HEAD + "create t null\nfork c\nin c start t\n"
                 "check 1 == 1\n")
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "UNRESOLVED" and "s.vec:6:" in msg and "in c: setup failed" in msg, msg


def test_hung_step_in_a_process_times_out(vecrun, tmp_path):
    path = write(str(tmp_path / "h.vec"), PROC_HEAD + "fork c\nin c create u null\n"
                 "in c getnext u -> event START\n")
    p = run([vecrun, "--timeout", "1", "--file", path], timeout=30)
    code, msg = result(p)
    assert code == "UNRESOLVED" and "h.vec:6:" in msg and "timed out" in msg, msg


def _children(pid):
    """The children of process pid (Linux /proc), or None where /proc cannot say."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return None


def test_process_killed_from_outside_is_unresolved(vecrun, tmp_path):
    """A process that dies while it runs a step: UNRESOLVED at once, with its wait status."""
    import signal
    import time
    path = write(str(tmp_path / "k.vec"), PROC_HEAD + "fork c\nin c sleep 20000\n"
                 "check 1 == 1\n")
    p = subprocess.Popen([vecrun, "--file", path], stdout=subprocess.PIPE,
                         universal_newlines=True)
    try:
        deadline = time.time() + 10
        kids = []
        while not kids and time.time() < deadline:
            kids = _children(p.pid)
            if kids is None:
                pytest.skip("no /proc/PID/task/PID/children here")
            time.sleep(0.05)
        assert kids, "vecrun forked no process"
        time.sleep(0.2)                  # let it reach the sleep step
        start = time.time()
        os.kill(kids[0], signal.SIGKILL)
        out, _ = p.communicate(timeout=10)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert time.time() - start < 5
    assert p.returncode == 2, out
    assert "RESULT UNRESOLVED" in out and "k.vec:5:" in out and \
        "process c died while it ran the step (signal 9)" in out, out


# Runs argv as a child subreaper (Linux): processes orphaned by vecrun become this script's
# children, so a process vecrun left behind (running, or a zombie it did not reap) is seen.
SUBREAPER = r"""
import ctypes, os, signal, subprocess, sys, time
if ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
    print("SKIP"); sys.exit(0)
kill_after = float(sys.argv[1])
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, universal_newlines=True)
if kill_after > 0:
    time.sleep(kill_after); p.kill()
out = p.communicate()[0]
left, deadline = [], time.time() + 5
while True:
    try:
        pid, st = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if pid == 0:
        if time.time() > deadline:
            left.append("running"); break
        time.sleep(0.05); continue
    left.append(pid if kill_after > 0 else "zombie %d" % pid)
print("LEFT %r" % left)
print(out.strip().splitlines()[-1] if out.strip() else "no output")
"""


def _run_reaped(vecrun, path, extra=(), kill_after=0):
    p = run([PYTHON, "-c", SUBREAPER, str(kill_after), vecrun] + list(extra) + ["--file", path],
            timeout=60)
    if p.stdout.startswith("SKIP"):
        pytest.skip("no child subreaper here (Linux prctl)")
    lines = p.stdout.splitlines()
    assert len(lines) == 2, p.stdout + p.stderr
    return lines


def test_no_process_left_behind(vecrun, tmp_path):
    """Passing, failing, or timed out, vecrun ends and reaps every process it made, forked or
    exec'd; none is left running or as a zombie."""
    body = ("fork a\nfork b\nexec b\nfork c\nin c event UNNAMED_USEREVENT \"x\"\n"
            "in b create u null\n")
    cases = [(body + "check 1 == 1\n", "RESULT PASS", ()),
             (body + "check 1 == 2\n", "RESULT FAIL", ()),
             (body + "in b getnext u -> event START\n", "RESULT UNRESOLVED", ("--timeout", "1"))]
    for i, (text, want, extra) in enumerate(cases):
        path = write(str(tmp_path / ("n%d.vec" % i)), PROC_HEAD + text)
        left, last = _run_reaped(vecrun, path, extra)
        assert last.startswith(want), last
        assert left == "LEFT []", (left, last)


def test_processes_end_when_the_vector_process_dies(vecrun, tmp_path):
    """vecrun killed: its idle processes read end of file and end, the busy one ends after
    its step; all within a few seconds, none lingering."""
    path = write(str(tmp_path / "d.vec"), PROC_HEAD + "fork a\nfork b\nexec b\n"
                 "in a sleep 1500\ncheck 1 == 1\n")
    left, _ = _run_reaped(vecrun, path, kill_after=0.7)
    assert left.startswith("LEFT [") and "running" not in left, left


def test_bless_fills_annotations_from_processes(vecrun, tmp_path):
    """Blessing runs the annotations of "in C" steps in C, before and after exec."""
    d = str(tmp_path / "v")
    text = ("# t\nrules: fork.inherited\noptions: TRC, TRI\n"
            "attr a\nattr a set inherited INHERITED\nattr a set simclock 5.000000000 step 7\n"
            "attr a set simorigin 40\nopen e \"x\"\ncreate t a\nstart t\nfork c\n"
            "in c open e2 \"x\" @value ?\nin c event e \"c\"\nexec c\n"
            "in c open f \"y\" @value ?\nin c event f \"c2\"\n"
            "trygetnext t -> event START @pid ?\n"
            "trygetnext t -> event e data \"c\" @ts ? @pid ?\n"
            "trygetnext t -> event any data \"c2\" @ts ? @pid ?\n")
    path = write(os.path.join(d, "b.vec"), text)
    p = run([PYTHON, BLESS_PY, "--vecrun", vecrun, "--dir", d, "--write"])
    assert p.returncode == 0, p.stdout + p.stderr
    with open(path) as f:
        blessed = f.read()
    assert 'in c open e2 "x" @value 17\n' in blessed
    assert 'in c open f "y" @value 18\n' in blessed        # traced: the stream's names
    assert "event START @pid 40\n" in blessed
    assert 'data "c" @ts 5.000000007 @pid 41\n' in blessed
    assert 'data "c2" @ts 5.000000014 @pid 41\n' in blessed
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "PASS", msg


def test_missing_option_is_unsupported(vecrun, tmp_path):
    path = write(str(tmp_path / "tef.vec"),
                 "# t\nrules: x.y\noptions: TRC, TEF\ncreate t null -> 0\n")
    code, msg = result(run([vecrun, "--options", "TRC", "--file", path]))
    assert code == "UNSUPPORTED" and "TEF" in msg, msg


def test_list_keeps_a_malformed_vector(vecrun, tmp_path):
    d = tmp_path / "v"
    write(str(d / "a" / "good.vec"), "# t\nrules: x.y\noptions: TRC\ncreate t null -> 0\n")
    write(str(d / "a" / "bad.vec"), "# t\nrules: x.y\noptions: TRC\nfrobnicate\n")
    p = run([vecrun, "--dir", str(d), "--list"])
    assert p.returncode == 0
    lines = p.stdout.splitlines()
    assert [l.split("\t")[0] for l in lines] == ["vec.a.bad", "vec.a.good"]
    assert all(len(l.split("\t")) == 4 for l in lines)
    assert "bad.vec:4" in p.stderr
    code, _ = result(run([vecrun, "--dir", str(d), "--run", "vec.a.bad"]))
    assert code == "UNRESOLVED"
    code, _ = result(run([vecrun, "--dir", str(d), "--run", "vec.a.nothere"]))
    assert code == "UNRESOLVED"


# ---- bless -----------------------------------------------------------------

def test_bless_round_trip_leaves_vectors_unchanged(vecrun, tmp_path):
    copy = str(tmp_path / "vectors")
    shutil.copytree(VECTORS, copy)
    p = run([PYTHON, BLESS_PY, "--vecrun", vecrun, "--dir", copy, "--check"], timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    p = run([PYTHON, BLESS_PY, "--vecrun", vecrun, "--dir", copy, "--write"], timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    for path in vector_paths():
        with open(path) as a, open(os.path.join(copy, os.path.relpath(path, VECTORS))) as b:
            assert a.read() == b.read(), path


def test_bless_fills_placeholders_and_shows_a_diff(vecrun, tmp_path):
    d = str(tmp_path / "v")
    text = ("# t\nrules: x.y\noptions: TRC\n\nattr a\n"
            "attr a set simclock 5.000000000 step 7\nopen e \"b\"\ncreate t a\nstart t\n"
            "event e u8:1\ngetnext t -> event START      @ts ?\n"
            "getnext t -> event e data u8:1  @ts 9.999999999 @pid self\n")
    path = write(os.path.join(d, "b.vec"), text)
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "FAIL" and "b.vec:11:" in msg and "not blessed yet" in msg, msg
    p = run([PYTHON, BLESS_PY, "--vecrun", vecrun, "--dir", d])
    assert p.returncode == 0
    assert "-getnext t -> event START      @ts ?" in p.stdout
    assert "+getnext t -> event START      @ts 5.000000000" in p.stdout
    with open(path) as f:
        assert f.read() == text                  # shown, not written
    p = run([PYTHON, BLESS_PY, "--vecrun", vecrun, "--dir", d, "--check"])
    assert p.returncode == 1
    p = run([PYTHON, BLESS_PY, "--vecrun", vecrun, "--dir", d, "--write"])
    assert p.returncode == 0
    with open(path) as f:
        blessed = f.read()
    assert blessed == text.replace("@ts ?", "@ts 5.000000000").replace(
        "@ts 9.999999999", "@ts 5.000000007")
    code, msg = result(run([vecrun, "--file", path]))
    assert code == "PASS", msg


def test_bless_refuses_a_vector_whose_portable_checks_fail(vecrun, tmp_path):
    d = str(tmp_path / "v")
    text = ("# t\nrules: x.y\noptions: TRC\ncreate t null\nstatus t -> RUNNING\n"
            "attr a\nattr a get streamsize -> > 0 @value 1\n")
    path = write(os.path.join(d, "r.vec"), text)
    p = run([PYTHON, BLESS_PY, "--vecrun", vecrun, "--dir", d, "--write"])
    assert p.returncode == 1
    assert "r.vec:5" in p.stderr
    with open(path) as f:
        assert f.read() == text


def test_bless_needs_the_reference_build(vecrun_vendor):
    p = run([vecrun_vendor, "--bless", os.path.join(VECTORS, "trc", "attr", "init-defaults.vec")])
    assert p.returncode == 2 and "VECRUN_EXACT" in p.stderr
