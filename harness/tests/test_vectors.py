"""The golden vectors (vectors/) and their interpreter (harness/vecrun.c, harness/vec_*.c)
and harness/bless.py.

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
BLESS_PY = os.path.join(HARNESS, "bless.py")
RESULTS = {0: "PASS", 1: "FAIL", 2: "UNRESOLVED", 3: "UNSUPPORTED", 4: "UNTESTED"}
ID_RE = re.compile(r"^vec(\.[a-z0-9_-]+)+$")
FUNC_RE = re.compile(r"^posix_trace_[a-z_]+$")
RULE_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def vector_paths():
    return sorted(glob.glob(os.path.join(VECTORS, "**", "*.vec"), recursive=True))


def vector_id(path):
    rel = os.path.relpath(path, VECTORS)[:-len(".vec")]
    return "vec." + rel.replace(os.sep, ".")


def build(out, exact):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    srcs = [os.path.join(HARNESS, "vecrun.c")] + sorted(glob.glob(os.path.join(HARNESS, "vec_*.c")))
    lib = sorted(glob.glob(os.path.join(REPO, "reference", "*.c")))
    argv = [cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-pthread", "-O1", "-Wall", "-Wextra",
            "-Werror", "-I" + os.path.join(REPO, "include"), "-I" + os.path.join(REPO, "reference"),
            "-o", out] + (["-DVECRUN_EXACT"] if exact else []) + srcs + lib + ["-pthread"]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    assert p.returncode == 0, "building vecrun failed:\n" + p.stdout
    return out


@pytest.fixture(scope="module")
def vecrun(tmp_path_factory):
    """vecrun built against the reference, exact checks on."""
    return build(str(tmp_path_factory.mktemp("exact") / "vecrun"), exact=True)


@pytest.fixture(scope="module")
def vecrun_vendor(tmp_path_factory):
    """vecrun built as for another implementation: exact checks off."""
    return build(str(tmp_path_factory.mktemp("vendor") / "vecrun"), exact=False)


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
