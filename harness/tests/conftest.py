# SPDX-License-Identifier: MIT
"""Shared fixtures of the harness's own tests (run: /usr/bin/python3 -m pytest harness/tests)."""

import fcntl
import glob
import json
import os
import pickle
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.dirname(HERE)
REPO = os.path.dirname(HARNESS)
FIXTURES = os.path.join(HERE, "fixtures")
RUN_PY = os.path.join(HARNESS, "run.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

sys.path.insert(0, HARNESS)

from std_cflags import STD_CFLAGS                  # noqa: E402  (mk/std.mk)


def configure_alone(tree):
    """A new folder tree (a pathlib.Path) holding configure and the one file of
    the source tree it reads, mk/std.mk (the compiler flags, spelled once):
    for tests that run configure away from the rest of the tree."""
    (tree / "mk").mkdir(parents=True)
    shutil.copy(os.path.join(REPO, "configure"), str(tree))
    shutil.copy(os.path.join(REPO, "mk", "std.mk"), str(tree / "mk"))
    return tree

# The vector interpreter's sources (as mk/vectors.mk lists them), for tests
# that build it.
VECRUN_SRCS = [os.path.join(HARNESS, "vec", "vecrun.c")] + sorted(
    glob.glob(os.path.join(HARNESS, "vec", "vec_*.c"))) + sorted(
    glob.glob(os.path.join(HARNESS, "common", "*.c")))

# A small catalogue for the fake tests.
FAKE_CATALOGUE = [
    ("r.pass", "TRC", "posix_trace_create", "xsh_fake DESCRIPTION S0001", "yes", "passes"),
    ("r.shared", "TRC", "posix_trace_start", "xsh_fake DESCRIPTION S0002", "yes",
     "two tests, one fails"),
    ("r.fail", "TRC", "posix_trace_start", "xsh_fake DESCRIPTION S0002", "yes", "fails"),
    ("r.crash", "TRC", "posix_trace_stop", "xsh_fake DESCRIPTION S0003", "yes", "crashes"),
    ("r.hang", "TRC", "-", "xsh_fake DESCRIPTION S0003", "yes", "hangs"),
    ("r.badexit", "TRC", "-", "xsh_fake DESCRIPTION S0003", "yes", "breaks the protocol"),
    ("r.unresolved", "TRC", "-", "xsh_fake DESCRIPTION S0003", "yes", "setup fails"),
    ("r.unsup", "TRC", "-", "xsh_fake DESCRIPTION S0003", "yes", "may-fail not detected"),
    ("r.untested", "TRC", "-", "xsh_fake DESCRIPTION S0003", "yes", "test cannot decide"),
    ("r.tef", "TEF", "posix_trace_set_filter", "xsh_fake DESCRIPTION S0003", "yes",
     "needs TEF"),
    ("r.flood", "TRC", "-", "xsh_fake DESCRIPTION S0003", "yes", "floods"),
    ("r.child", "TRC", "-", "xsh_fake DESCRIPTION S0003", "yes", "leaves a child"),
    ("r.notest", "TRC", "posix_trace_clear", "xsh_fake DESCRIPTION S0003", "yes", "no test"),
    ("r.trl", "TRL", "posix_trace_flush", "xsh_fake DESCRIPTION S0003", "yes", "TRL, no test"),
    ("r.never", "TRC", "-", "xsh_fake ERRORS S0003", "no: cannot be provoked portably",
     "not testable"),
]


def write_catalogue(path, rows=FAKE_CATALOGUE):
    with open(path, "w") as f:
        f.write("id\toption\tfunctions\tsources\ttestable\tsummary\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


def write_spec(directory):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "SHALL_STATEMENTS.tsv"), "w") as f:
        f.write("id\tsource\tsection\tstatement\n")
        f.write("S0001\txsh_fake.txt\tDESCRIPTION\tThe fake function shall pass.\n")
        f.write("S0002\txsh_fake.txt\tDESCRIPTION\tThe start function shall record START.\n")
        f.write("S0003\txsh_fake.txt\tDESCRIPTION\tOther things shall hold.\n")


@pytest.fixture
def fake_env(tmp_path):
    """A temporary source tree for the runner: a catalogue, the spec, an empty
    conformance/tests, and the fake program.  Returns a dict of paths."""
    root = tmp_path / "tree"
    (root / "conformance" / "tests").mkdir(parents=True)
    (root / "harness").mkdir()
    cat = tmp_path / "catalogue.tsv"
    write_catalogue(str(cat))
    spec = tmp_path / "spec"
    write_spec(str(spec))
    return {"root": str(root), "catalogue": str(cat), "spec": str(spec),
            "reports": str(tmp_path / "reports"), "log": str(tmp_path / "runs.log"),
            "fake": os.path.join(FIXTURES, "fake_tests.py"), "tmp": str(tmp_path)}


def run_runner(env_paths, *args, extra_env=None, timeout=120):
    """Runs harness/run.py on the fake tree; returns the CompletedProcess."""
    env = dict(os.environ, POSIXTRACE_SPEC_DIR=env_paths["spec"], FAKE_LOG=env_paths["log"])
    env.pop("CT_OPTIONS", None)
    if extra_env:
        env.update(extra_env)
    argv = [PYTHON, RUN_PY, "--root", env_paths["root"], "--catalogue", env_paths["catalogue"],
            "--reports", env_paths["reports"], "--no-discover", "--no-profile",
            "--options", "TRC", "--exe", env_paths["fake"]] + list(args)
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          timeout=timeout, universal_newlines=True)


def fake_tree(tmp, fake="fake_tests.py"):
    """The paths of fake_env in tmp (a pathlib.Path), for a fixture of a wider
    scope: a source tree, the catalogue, the spec; the fake program is
    fixtures/<fake>."""
    (tmp / "tree" / "conformance" / "tests").mkdir(parents=True)
    env = {"root": str(tmp / "tree"), "catalogue": str(tmp / "cat.tsv"),
           "spec": str(tmp / "spec"), "reports": str(tmp / "reports"),
           "log": str(tmp / "runs.log"), "fake": os.path.join(FIXTURES, fake), "tmp": str(tmp)}
    write_catalogue(env["catalogue"])
    write_spec(env["spec"])
    return env


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    """One run of every fake test, shared by the tests that read its reports."""
    env = fake_tree(tmp_path_factory.mktemp("full"))
    p = run_runner(env, "--timeout", "2", "-j", "4")
    return env, p, load(env)


def load(env):
    """The conformance.json of a run of run_runner(env)."""
    with open(os.path.join(env["reports"], "conformance.json")) as f:
        return json.load(f)


# ---- tiers -------------------------------------------------------------------
# 'make check' runs the fast tier, pytest -m "not slow"; 'make check-full' runs
# every test (README.md, "Make targets").  A test is slow when it builds or runs
# the suite in a tree of its own: it carries @pytest.mark.slow (or its module's
# pytestmark), and every test that needs the reference built as a vendor (the
# fixtures of SLOW_FIXTURES, ~20 s to build) is marked here.
SLOW_FIXTURES = {"reference_as_vendor", "vecrun", "vecrun_vendor"}


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: builds or runs the suite in a tree of its own (seconds to minutes): "
        "'make check-full' runs it, 'make check' does not")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def built_once(tmp_path_factory, name, make):
    """make(folder) for a session fixture, once per run of pytest even when
    pytest-xdist runs it in several workers (make check-pytest: -n): the first
    worker builds in a folder they share, under a lock, and keeps the result
    (pickled); the others wait for it and load it.  A build that fails is
    tried again by the next worker that needs it."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's basetemp is a folder of the run's own.
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / name
    result = root / (name + ".pickle")
    with open(str(root / (name + ".lock")), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if result.exists():
            with open(str(result), "rb") as f:
                return pickle.load(f)
        shutil.rmtree(str(folder), ignore_errors=True)      # a failed worker's half build
        folder.mkdir()
        value = make(str(folder))
        with open(str(result), "wb") as f:
            pickle.dump(value, f)
        return value


@pytest.fixture(scope="session")
def reference_as_vendor(tmp_path_factory):
    """The unmodified reference built as a vendor's implementation
    (harness/mutants/build.py), once for the session: its Implementation
    (a copy of reference/ and include/, the static library built) and the
    portable tests compiled against its headers (TestPrograms, link them with
    any library of the same headers).  Tests that need a variant build it with
    base= this implementation: only the files they change are compiled."""
    sys.path.insert(0, os.path.join(HARNESS, "mutants"))
    import build as mb
    if not shutil.which(mb.CC):
        pytest.skip("no C compiler")

    def make(wd):
        impl = mb.Implementation(REPO, os.path.join(wd, "impl"))
        impl.build()
        progs = mb.TestPrograms(REPO, impl.include, os.path.join(wd, "progobj"))
        return {"impl": impl, "progs": progs}
    return built_once(tmp_path_factory, "reference as vendor", make)


def build_vecrun(out, lib, include, exact):
    """The vector interpreter (mk/vectors.mk's sources) linked with the static
    library lib built against the headers in include; exact checks on
    (-DVECRUN_EXACT, as against the reference) or off (as for a vendor)."""
    argv = ["cc", *STD_CFLAGS, "-pthread", "-O1", "-g0", "-Wall", "-Wextra", "-Werror",
            "-I" + include, "-o", out] + (["-DVECRUN_EXACT"] if exact else []) + \
        VECRUN_SRCS + [lib, "-pthread"]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    assert p.returncode == 0, "building vecrun failed:\n" + p.stdout
    return out


@pytest.fixture(scope="session")
def vecrun(reference_as_vendor, tmp_path_factory):
    """vecrun against the reference (its library of reference_as_vendor), exact checks on."""
    impl = reference_as_vendor["impl"]
    return built_once(tmp_path_factory, "exact", lambda d: build_vecrun(
        os.path.join(d, "vecrun"), impl.lib, impl.include, exact=True))


@pytest.fixture(scope="session")
def vecrun_vendor(reference_as_vendor, tmp_path_factory):
    """vecrun built as for another implementation: exact checks off."""
    impl = reference_as_vendor["impl"]
    return built_once(tmp_path_factory, "vendor", lambda d: build_vecrun(
        os.path.join(d, "vecrun"), impl.lib, impl.include, exact=False))
