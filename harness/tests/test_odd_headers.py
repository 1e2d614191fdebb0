# SPDX-License-Identifier: MIT
"""The portable tests against odd vendor headers, at compile level (issue 12,
item 2: one missing thing fails its own rule, nothing else).

fixtures/odd_headers/ holds three <trace.h> in the style of real ones, which
differ from the reference's in every implementation-defined way: rtos/ (the
trace types are id_t and come from its own <sys/types.h>, status values from
0, POSIX_TRACE_APPEND == POSIX_TRACE_FLUSH, system events from 512, only the
POSIX_TRACE_UNNAMED_USEREVENT spelling, no TRI and so no
POSIX_TRACE_INHERITED) and libc0/, libc1/ (the 28 listed constants numbered
0..27 and 1..28 alphabetically, only the POSIX_TRACE_UNNAMED_USER_EVENT
spelling, no POSIX_TRACE_ERROR, a pointer trace_id_t in libc1); none defines
a limit, and nominima/ is a <limits.h> without the four _POSIX_TRACE_*_MAX.

Every conformance/tests/*.c, harness/profile/profile.c and preflight.c must compile against each
(-fsyntax-only; the probed ones with harness/probe.sh's flags, as
mk/harness.mk builds them), and the compile probes must find missing exactly
what is missing.  Then a header with one declaration removed or mistyped:
only that probe part fails, and the header programs still compile.
"""

import concurrent.futures
import glob
import os
import re
import shlex
import subprocess

import pytest

from conftest import FIXTURES, REPO, STD_CFLAGS

# The slow tier ('make check-full'; conftest.py): compiles every test file against three headers.
pytestmark = pytest.mark.slow

ODD = os.path.join(FIXTURES, "odd_headers")
TESTS = os.path.join(REPO, "conformance", "tests")
PROBES = os.path.join(REPO, "conformance", "probes")
PROFILE = os.path.join(REPO, "harness", "profile", "profile.c")      # built against the header too
PREFLIGHT = os.path.join(REPO, "harness", "profile", "preflight.c")  # and the wrapper's preflight
CC = os.environ.get("CC", "cc")
CFLAGS = [*STD_CFLAGS, "-pthread", "-Wall", "-Wextra", "-Werror"]
JOBS = max(2, os.cpu_count() or 2)

# The probe parts each header lacks, on purpose.  All other parts must compile.
EXPECTED_MISSING = {
    # TRI is not supported: its constants and prototypes are absent.
    "rtos": {"inherit": {"CONSTANTS_TRI", "PROTOTYPES_TRI"}},
    # The XBD list has no POSIX_TRACE_ERROR; the C library's <sys/types.h>
    # has no trace types.
    "libc0": {"header_trace_h": {"CONST_ERROR"}, "sys_types_h": {"TRC", "TEF"}},
    "libc1": {"header_trace_h": {"CONST_ERROR"}, "sys_types_h": {"TRC", "TEF"}},
}

MINIMA = ["_POSIX_TRACE_EVENT_NAME_MAX", "_POSIX_TRACE_NAME_MAX", "_POSIX_TRACE_SYS_MAX",
          "_POSIX_TRACE_USER_EVENT_MAX"]


def _run(argv):
    p = subprocess.run(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout


def _probe(name, cflags, outdir):
    """harness/probe.sh for one test: (test flags, the parts that did not compile).
    -fsyntax-only: nothing is linked here, so the parts need no objects."""
    rc, out = _run(["sh", "harness/probe.sh", name, outdir, CC] + cflags + ["-fsyntax-only"])
    assert rc == 0, "harness/probe.sh %s failed:\n%s" % (name, out)
    flags = shlex.split(out.splitlines()[0])
    missing = {m.group(1) for f in flags for m in [re.match(r"-DCT_PROBE_(\w+)=0$", f)] if m}
    return flags, missing


def compile_suite(include_dirs, outdir, only=None, werror=True):
    """Runs every probe and compiles ct.c, the tests' helpers (lib/), every test, the profile and the preflight (or those
    named in only) against include_dirs.  Returns (failures: {test file: first error
    lines}, missing: {probed test: parts that did not compile}).  werror=False
    compiles as for a vendor (mk/harness.mk drops -Werror there)."""
    cflags = [f for f in CFLAGS if werror or f != "-Werror"] + ["-I" + d for d in include_dirs]
    probed = sorted(os.path.basename(p)[:-2] for p in glob.glob(os.path.join(PROBES, "*.c")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        probes = dict(zip(probed, pool.map(
            lambda n: _probe(n, cflags, os.path.join(outdir, "probes")), probed)))
        sources = sorted(s for s in glob.glob(os.path.join(TESTS, "*.c")) + [PROFILE, PREFLIGHT] +
                         glob.glob(os.path.join(TESTS, "lib", "*.c"))
                         if only is None or os.path.basename(s) in only)

        def compile_one(src):
            name = os.path.basename(src)[:-2]
            extra = probes[name][0] if name in probes else []
            return _run([CC] + cflags + extra + ["-fsyntax-only", src])
        results = list(pool.map(compile_one, sources))
    failures = {}
    for src, (rc, out) in zip(sources, results):
        if rc != 0:
            errors = [l for l in out.splitlines() if "error" in l] or out.splitlines()
            failures[os.path.basename(src)] = "\n".join(errors[:3])
    return failures, {name: missing for name, (_, missing) in probes.items()}


def odd_dirs(style):
    return [os.path.join(ODD, style), os.path.join(ODD, "nominima")]


@pytest.fixture(scope="module", params=sorted(EXPECTED_MISSING))
def odd(request, tmp_path_factory):
    style = request.param
    failures, missing = compile_suite(odd_dirs(style), str(tmp_path_factory.mktemp(style)))
    return style, failures, missing


def test_every_test_file_compiles(odd):
    style, failures, _ = odd
    assert not failures, "against the %s header, these do not compile:\n%s" % (
        style, "\n".join("%s: %s" % kv for kv in sorted(failures.items())))


def test_probes_find_missing_exactly_what_is_missing(odd):
    style, _, missing = odd
    want = EXPECTED_MISSING[style]
    got = {name: parts for name, parts in missing.items() if parts}
    assert got == want


@pytest.mark.parametrize("style", sorted(EXPECTED_MISSING))
def test_limits_minima_are_found_missing(style):
    """unistd_limits.c decides the limits._POSIX_TRACE_* rules by #ifdef: with
    the minima removed each rule sees its macro undefined (and FAILs alone),
    where the reference's headers give the fixed values."""
    def minima_seen(include_dirs):
        rc, out = _run([CC] + CFLAGS + ["-I" + d for d in include_dirs] +
                       ["-E", os.path.join(TESTS, "unistd_limits.c")])
        assert rc == 0, out[-2000:]
        seen = {}
        for name in MINIMA:
            m = re.search(r'minimum_macro\("%s", (\d), ([^,]*),' % name, out)
            assert m, "unistd_limits.c no longer calls minimum_macro for %s" % name
            seen[name] = m.group(1) == "1"
        return seen
    assert minima_seen(odd_dirs(style)) == {name: False for name in MINIMA}
    assert minima_seen([os.path.join(REPO, "include")]) == {name: True for name in MINIMA}


# ---- one declaration removed or mistyped ---------------------------------------------------

# (what is changed in the shared declarations, the text, its replacement, the
# probe part that must fail)
VARIANTS = [
    ("member removed", "    void            *posix_prog_address;\n", "",
     ("header_trace_h", "EVENT_INFO_PROG_ADDRESS")),
    ("member mistyped", "    int              posix_truncation_status;\n",
     "    long             posix_truncation_status;\n",
     ("header_trace_h", "EVENT_INFO_TRUNCATION_STATUS")),
    ("prototype mistyped", "int  posix_trace_rewind(trace_id_t);",
     "long posix_trace_rewind(trace_id_t);", ("log_misc", "PROTOTYPES_TRL")),
]


def variant_header(tmp_path, old, new):
    """The libc0 header with the shared declarations inlined and changed."""
    with open(os.path.join(ODD, "common", "decls.h")) as f:
        decls = f.read()
    assert decls.count(old) == 1, "fixture changed: %r not found once in decls.h" % old
    with open(os.path.join(ODD, "libc0", "trace.h")) as f:
        header = f.read()
    include = '#include "../common/decls.h"\n'
    assert include in header
    d = tmp_path / "variant"
    d.mkdir()
    (d / "trace.h").write_text(header.replace(include, decls.replace(old, new)))
    return str(d)


@pytest.mark.parametrize("what,old,new,part", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_one_declaration_fails_its_own_probe_only(tmp_path, what, old, new, part):
    """Every probe part but the changed one keeps its result, and the header
    programs still compile (as for a vendor: without -Werror).  Other test
    files are not compiled: one that does not use the name cannot be
    affected, and one that does may fail to build (a BUILD-ERROR result)."""
    variant = variant_header(tmp_path, old, new)
    programs = {"header_trace_h.c", "sys_types_h.c", part[0] + ".c"}
    failures, missing = compile_suite([variant, os.path.join(ODD, "nominima")],
                                      str(tmp_path / "build"), only=programs, werror=False)
    want = {k: set(v) for k, v in EXPECTED_MISSING["libc0"].items()}
    want.setdefault(part[0], set()).add(part[1])
    assert {k: v for k, v in missing.items() if v} == want, what
    assert not failures, "%s: the header programs do not compile:\n%s" % (
        what, "\n".join("%s: %s" % kv for kv in sorted(failures.items())))
