# SPDX-License-Identifier: MIT
"""A broken target runner is diagnosed, not blamed (issue 31, item 4).

A test wrapper that runs a plain program but not a threaded one (Debian's
cross C library under qemu-user 7.2: pthread_create dies of SIGSEGV) made 87
rules FAIL against a correct library.  The runner now runs the preflight
(harness/profile/preflight.c, harness/runner/preflight.py) through the wrapper
before any test, and stops with exit status 2 when the wrapper fails where the
program runs without it; configure checks the same.

The broken wrappers are shell scripts that run the program with an
LD_PRELOAD'ed object of their own, built here with cc: one whose
pthread_create dies of SIGSEGV, one whose posix_trace_create fails (ENOSYS).
LD_PRELOAD holds for root too (unlike RLIMIT_NPROC).  The implementation is a
small shared library of the four functions the preflight calls, with the
reference's <trace.h>: one that works, and one whose posix_trace_create
answers EAGAIN, with or without a wrapper (a vendor's failure, not the
wrapper's: the run goes on).  The runner's tests run the fake test programs
(fixtures/fake_tests.py); configure's run in a folder of their own.
"""

import os
import shutil
import stat
import subprocess
import time

import pytest

from conftest import REPO, configure_alone, load, run_runner

from runner import preflight, target

INCLUDE = os.path.join(REPO, "include")
PREFLIGHT_C = os.path.join(REPO, "harness", "profile", "preflight.c")

VENDOR_C = """#include <errno.h>
#include <trace.h>
int posix_trace_attr_init(trace_attr_t *attr) { (void)attr; return 0; }
int posix_trace_attr_destroy(trace_attr_t *attr) { (void)attr; return 0; }
int posix_trace_create(pid_t pid, const trace_attr_t *attr, trace_id_t *trid)
{ (void)pid; (void)attr; (void)trid; return CREATE_ANSWER; }
int posix_trace_shutdown(trace_id_t trid) { (void)trid; return 0; }
"""

# What the broken wrappers preload.
NO_THREADS_C = """#include <pthread.h>
#include <signal.h>
int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
    (void)t; (void)a; (void)f; (void)arg;
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);                     /* as qemu-user 7.2 with Debian's armhf libc */
    return 11;
}
"""
NO_TRACE_C = """#include <errno.h>
#include <trace.h>
int posix_trace_create(pid_t pid, const trace_attr_t *attr, trace_id_t *trid)
{ (void)pid; (void)attr; (void)trid; return ENOSYS; }
"""


def cc():
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def build(*argv):
    subprocess.run([cc()] + list(argv), check=True)


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The two vendors (lib/good/, lib/eagain/), the preflight built against
    each (good/preflight, eagain/preflight: the same header, so either runs
    with either library by its rpath), and the wrappers: 'plain' (exec),
    'no-threads' and 'no-trace'."""
    if not cc():
        pytest.skip("no C compiler")
    d = tmp_path_factory.mktemp("preflight")
    k = {"dir": str(d)}
    for name, answer in (("good", "0"), ("eagain", "EAGAIN")):
        lib = d / name
        lib.mkdir()
        (lib / "v.c").write_text(VENDOR_C)
        build("-shared", "-fPIC", "-I" + INCLUDE, "-DCREATE_ANSWER=" + answer,
              "-Wl,-soname,libvtrace.so", "-o", str(lib / "libvtrace.so"), str(lib / "v.c"))
        build("-std=c11", "-D_POSIX_C_SOURCE=200809L", "-pthread", "-Wall", "-Wextra", "-Werror",
              "-I" + INCLUDE, "-o", str(lib / "preflight"), PREFLIGHT_C, "-L" + str(lib),
              "-Wl,-rpath," + str(lib), "-lvtrace", "-pthread")
        k[name] = str(lib / "preflight")
    for name, src in (("no-threads", NO_THREADS_C), ("no-trace", NO_TRACE_C)):
        c = d / (name + ".c")
        c.write_text(src)
        so = d / (name + ".so")
        build("-shared", "-fPIC", "-I" + INCLUDE, "-o", str(so), str(c))
        k[name] = str(d / name)
        write_exe(k[name], '#!/bin/sh\nLD_PRELOAD=%s exec "$@"\n' % so)
    k["plain"] = str(d / "plain")
    write_exe(k["plain"], '#!/bin/sh\nexec "$@"\n')
    return k


# ---- the preflight program and harness/runner/preflight.py --------------------------


def test_the_preflight_runs_and_says_what_failed(kit, tmp_path):
    def run(argv):
        return subprocess.run(argv, cwd=str(tmp_path), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
    for part in ("thread", "trace"):
        start = time.monotonic()
        p = run([kit["good"], part])
        assert p.returncode == 0 and not p.stderr, p.stderr
        assert time.monotonic() - start < 1.0
    assert run([kit["eagain"], "thread"]).returncode == 0
    p = run([kit["eagain"], "trace"])
    assert p.returncode == 3 and "posix_trace_create (pid 0): " in p.stderr, p.stderr
    assert run([kit["no-threads"], kit["good"], "thread"]).returncode == -11
    p = run([kit["no-trace"], kit["good"], "trace"])
    assert p.returncode == 3 and "posix_trace_create" in p.stderr
    assert not os.listdir(str(tmp_path)), "the preflight left its file behind"


@pytest.fixture
def wrapper():
    """Sets the runner's wrapper for a test (harness/runner/target.py)."""
    def use(path):
        target.set_wrapper([path])
    yield use
    target.set_wrapper([])


def test_a_wrapper_that_breaks_threads_is_named(kit, wrapper):
    wrapper(kit["no-threads"])
    stop, warnings = preflight.check(kit["good"], 10)
    assert stop == (preflight.BROKEN + "a program that starts a thread and writes a file "
                    "(harness/profile/preflight.c thread) fails through '%s' (killed by signal "
                    "SIGSEGV), and runs without it" % kit["no-threads"]), stop
    assert warnings == []
    # Built for another machine: nothing of the implementation is called,
    # so the wrapper is still to blame.
    stop, _ = preflight.check(kit["good"], 10, native=False)
    assert stop.startswith(preflight.BROKEN) and "cannot run here without the wrapper" in stop


def test_a_wrapper_that_breaks_trace_calls_is_named(kit, wrapper):
    wrapper(kit["no-trace"])
    stop, _ = preflight.check(kit["good"], 10)
    assert stop.startswith(preflight.BROKEN + "a thread that creates and shuts down a trace "
                           "stream for its process"), stop
    assert "fails through '%s' (exit status 3: preflight: posix_trace_create (pid 0): " \
        % kit["no-trace"] in stop and stop.endswith(", and runs without it"), stop
    # Built for another machine, it cannot be told: a warning, the run goes on.
    stop, warnings = preflight.check(kit["good"], 10, native=False)
    assert stop is None and len(warnings) == 1 and "cannot be told" in warnings[0], warnings


def test_a_vendor_whose_create_fails_is_not_a_broken_wrapper(kit, wrapper):
    wrapper(kit["plain"])
    assert preflight.check(kit["good"], 10) == (None, [])
    stop, warnings = preflight.check(kit["eagain"], 10)
    assert stop is None, stop
    assert len(warnings) == 1 and "fails with the test wrapper (exit status 3: " in warnings[0] \
        and "not the wrapper's doing" in warnings[0], warnings


def test_no_wrapper_no_preflight(kit):
    assert preflight.check(os.path.join(kit["dir"], "absent"), 10) == (None, [])


# ---- run.py ---------------------------------------------------------------------------


def test_the_run_stops_before_any_test(kit, fake_env):
    p = run_runner(fake_env, "--test-wrapper", kit["no-threads"], "--preflight", kit["good"])
    assert p.returncode == 2, p.stdout + p.stderr
    assert ("run.py: error: the test wrapper cannot run what the tests need: a program that "
            "starts a thread and writes a file (harness/profile/preflight.c thread) fails "
            "through '%s' (killed by signal SIGSEGV), and runs without it; no test was run"
            % kit["no-threads"]) in p.stderr, p.stderr
    # No test ran, no rule was reported.
    assert not os.path.exists(fake_env["log"]) or " --run " not in open(fake_env["log"]).read()
    assert not os.path.exists(os.path.join(fake_env["reports"], "conformance.json"))


def test_the_run_goes_on_against_a_vendor_whose_create_fails(kit, fake_env):
    p = run_runner(fake_env, "--test", "fake.pass*", "--test-wrapper", kit["plain"],
                   "--preflight", kit["eagain"])
    assert p.returncode == 0, p.stdout + p.stderr
    warnings = load(fake_env)["summary"]["warnings"]
    assert any(w.startswith("preflight: a thread that creates and shuts down a trace stream")
               and "not the wrapper's doing" in w for w in warnings), warnings


def test_without_the_preflight_program_the_run_warns(fake_env):
    absent = os.path.join(fake_env["tmp"], "no-preflight")
    p = run_runner(fake_env, "--test", "fake.pass*", "--test-wrapper", "env",
                   "--preflight", absent)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no preflight program (%s): the test wrapper was not checked" % absent in \
        " ".join(load(fake_env)["summary"]["warnings"])


# ---- configure ---------------------------------------------------------------------------


def configure(tmp_path, *args):
    tree = configure_alone(tmp_path / "tree")
    return subprocess.run(["sh", "./configure"] + list(args), cwd=str(tree),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)


def vendor_args(kit, name):
    lib = os.path.dirname(kit[name])
    return ["--with-trace-cflags=-I" + INCLUDE,
            "--with-trace-libs=-L%s -Wl,-rpath,%s -lvtrace" % (lib, lib)]


@pytest.mark.slow
def test_configure_names_a_wrapper_that_breaks_threads(kit, tmp_path):
    p = configure(tmp_path, "--with-test-wrapper=" + kit["no-threads"])
    assert p.returncode == 1, p.stdout
    assert "checking whether a threaded program runs through '%s'... no (killed by signal " \
        "SIGSEGV)" % kit["no-threads"] in p.stdout, p.stdout
    assert "error: the test wrapper cannot run what the tests need: a program that starts a " \
        "thread and writes a file fails through it (killed by signal SIGSEGV), and it runs " \
        "without the wrapper" in p.stdout, p.stdout
    assert not os.path.exists(str(tmp_path / "tree" / "config.mk"))


@pytest.mark.slow
def test_configure_names_a_wrapper_that_breaks_trace_calls(kit, tmp_path):
    p = configure(tmp_path, "--with-test-wrapper=" + kit["no-trace"], *vendor_args(kit, "good"))
    assert p.returncode == 1, p.stdout
    assert "checking whether a threaded program runs through '%s'... yes" % kit["no-trace"] \
        in p.stdout, p.stdout
    assert "error: the test wrapper cannot run what the tests need: a thread that creates and " \
        "shuts down a trace stream (posix_trace_create for its process) fails through it " \
        "(exit status 4), and it runs without the wrapper" in p.stdout, p.stdout
    assert "why:   posix_trace_create failed" in p.stdout, p.stdout


@pytest.mark.slow
def test_configure_leaves_a_failing_create_to_the_run(kit, tmp_path):
    p = configure(tmp_path, "--with-test-wrapper=" + kit["plain"], *vendor_args(kit, "eagain"))
    assert p.returncode == 0, p.stdout
    assert "checking whether a thread creates and shuts down a trace stream through '%s'... " \
        "no, with the wrapper (exit status 4) and without it (exit status 4): the " \
        "implementation's answer" % kit["plain"] in p.stdout, p.stdout
