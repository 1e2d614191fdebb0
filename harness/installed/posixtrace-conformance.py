#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""posixtrace-conformance -- the installed conformance suite's command.

Runs the POSIX Tracing conformance suite, as installed by 'make install'
(DATADIR/posixtrace/conformance), against a <trace.h> implementation: a
vendor's (--with-trace=DIR, or --with-trace-cflags/--with-trace-libs, with the
meaning ./configure gives them in a source checkout) or, by default, the
installed reference libposixtrace.  The reports go into the folder named by
--reports, or the current folder; never into the install tree, which is only
read.  man posixtrace-conformance(1); harness/installed/README.md.

How: a work tree of links to the installed suite, configured there by the
suite's ./configure for the implementation, built there with make (the tests
are compiled against the implementation's header and linked with its
library), and run by harness/run.py with --root the work tree.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True

VERSION = "@VERSION@"
# Written by 'make install': where the suite, the headers and the libraries
# are, relative to the folder this command is installed in.
SUITE_REL = "@SUITE_REL@"
INCLUDE_REL = "@INCLUDE_REL@"
LIB_REL = "@LIB_REL@"

# The suite's parts the work tree links to (make install-suite installs them).
SUITE_ENTRIES = ("Makefile", "configure", "conformance", "harness", "mk", "spec", "vectors")
EXIT_HARNESS = 2


def installed(rel):
    here = os.path.dirname(os.path.realpath(__file__))
    return os.path.normpath(os.path.join(here, rel))


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="posixtrace-conformance",
        description="Runs the installed POSIX Tracing (<trace.h>) conformance suite against an "
        "implementation and writes its reports (conformance.json, junit.xml, index.html, "
        "summary.txt).",
        epilog="Exit status: 0 conforms, 1 does not conform, 2 the suite could not run. "
        "Arguments after '--' go to the runner (harness/run.py --help), e.g. "
        "-- --rule 'create.*' -v.")
    p.add_argument("--version", action="version",
                   version="posixtrace-conformance (posixtrace) " + VERSION)
    p.add_argument("--with-trace", metavar="DIR",
                   help="the implementation in DIR: DIR/include/trace.h and DIR/lib/libposixtrace "
                   "(or libtrace), as ./configure --with-trace (default: the installed reference)")
    p.add_argument("--with-trace-cflags", metavar="FLAGS",
                   help="compiler flags for the implementation (override --with-trace's)")
    p.add_argument("--with-trace-libs", metavar="FLAGS",
                   help="linker flags for the implementation (override --with-trace's)")
    p.add_argument("--trace-options", metavar="LIST",
                   help="take these options as supported (comma-separated from TRC,TEF,TRI,TRL) "
                   "instead of reading the header")
    p.add_argument("--with-test-wrapper", metavar="CMD",
                   help="run every test program as 'CMD program args' (an emulator, a board)")
    p.add_argument("--reports", "-o", metavar="DIR", default=None,
                   help="where to write the reports (default: the current folder)")
    p.add_argument("--build-dir", metavar="DIR", default=None,
                   help="where to build the tests, kept afterwards (default: a temporary "
                   "folder, removed at the end)")
    p.add_argument("--name", default=None, help="the implementation's name in the reports")
    p.add_argument("-j", "--jobs", type=int, default=None,
                   help="programs built and tests run at once (default: the processors)")
    p.add_argument("--cc", metavar="CC", default=None, help="the C compiler (default: cc)")
    p.add_argument("runner_args", nargs="*", metavar="-- RUNNER-ARGS",
                   help="passed to harness/run.py")
    return p.parse_args(argv)


def inside(path, folder):
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def configure_args(args, suite_inc, lib):
    """./configure's arguments for the implementation under test."""
    out = []
    vendor = args.with_trace or args.with_trace_cflags or args.with_trace_libs
    if args.with_trace:
        out.append("--with-trace=" + os.path.abspath(args.with_trace))
    if args.with_trace_cflags:
        out.append("--with-trace-cflags=" + args.with_trace_cflags)
    if args.with_trace_libs:
        out.append("--with-trace-libs=" + args.with_trace_libs)
    if not vendor:
        # The installed reference, as its users build against it (posixtrace.pc):
        # its <sys/types.h> folder, the library by its path; posix_trace_sysconf()
        # is the reference's answer to the _SC_TRACE* names.
        out.append("--with-trace-cflags=-I'%s/posixtrace' -I'%s' -DCT_HAVE_POSIX_TRACE_SYSCONF=1"
                   % (suite_inc, suite_inc))
        out.append("--with-trace-libs=-L'%s' -Wl,-rpath,'%s' -lposixtrace -pthread" % (lib, lib))
    if args.trace_options:
        out.append("--trace-options=" + args.trace_options)
    if args.with_test_wrapper:
        out.append("--with-test-wrapper=" + args.with_test_wrapper)
    if args.cc:
        out.append("CC=" + args.cc)
    return out


def step(what, cmd, cwd, log):
    """Runs cmd in cwd, its output into log; on failure says so and shows the end."""
    with open(log, "w") as f:
        st = subprocess.call(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    if st != 0:
        with open(log, errors="replace") as f:
            tail = f.readlines()[-25:]
        sys.stderr.write("".join(tail))
        sys.stderr.write("posixtrace-conformance: %s failed (exit status %d; the whole output: %s)\n"
                         % (what, st, log))
    return st


def run(args):
    suite = installed(SUITE_REL)
    if not os.path.isfile(os.path.join(suite, "harness", "run.py")):
        sys.stderr.write("posixtrace-conformance: the suite is not installed in %s\n" % suite)
        return EXIT_HARNESS
    reports = os.path.abspath(args.reports or os.getcwd())
    if inside(reports, suite) or (args.build_dir and inside(args.build_dir, suite)):
        sys.stderr.write("posixtrace-conformance: %s is inside the installed suite (%s): "
                         "name another folder with --reports / --build-dir\n" % (reports, suite))
        return EXIT_HARNESS
    if args.build_dir:
        work = os.path.abspath(args.build_dir)
        os.makedirs(work, exist_ok=True)
    else:
        work = tempfile.mkdtemp(prefix="posixtrace-conformance.")
    try:
        for e in SUITE_ENTRIES:
            link = os.path.join(work, e)
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.join(suite, e), link)
        cfg = ["./configure"] + configure_args(args, installed(INCLUDE_REL), installed(LIB_REL))
        if step("./configure " + " ".join(cfg[1:]), ["sh"] + cfg, work,
                os.path.join(work, "configure.out")):
            return EXIT_HARNESS
        jobs = args.jobs or os.cpu_count() or 1
        if step("building the tests", ["make", "-j%d" % jobs, "conformance-build"], work,
                os.path.join(work, "build.out")):
            return EXIT_HARNESS
        os.makedirs(reports, exist_ok=True)
        cmd = [sys.executable, os.path.join(work, "harness", "run.py"), "--root", work,
               "--reports", reports, "-j", str(jobs)]
        if args.name:
            cmd += ["--name", args.name]
        elif not (args.with_trace or args.with_trace_cflags or args.with_trace_libs):
            cmd += ["--name", "posixtrace %s (installed reference)" % VERSION]
        return subprocess.call(cmd + args.runner_args)
    finally:
        if not args.build_dir:
            shutil.rmtree(work, ignore_errors=True)


def main(argv):
    args = parse_args(argv)
    try:
        return run(args)
    except OSError as e:
        sys.stderr.write("posixtrace-conformance: %s\n" % e)
        return EXIT_HARNESS


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
