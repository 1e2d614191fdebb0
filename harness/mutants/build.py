# SPDX-License-Identifier: MIT
"""Building "vendor" implementations from copies of the reference, and the
conformance tests against them, for the vendor-mode tests
(harness/tests/test_vendor_mode.py).  reference/ is never modified.

    impl = Implementation(repo, workdir)            # a copy of reference/ + include/
    impl.edit(edits)                                  # mutants.apply_edits
    impl.write_header(text)                           # a variant <trace.h>
    lib = impl.build()                                # workdir/lib/libposixtrace.a
    so = impl.build_shared()                          # workdir/lib/libposixtrace-vendor.so

    progs = TestPrograms(repo, include_dir, objdir)   # tests compiled once per header
    progs.link(lib, build_dir)      # build_dir/conformance/<name>, profile, preflight
    doc = run_harness(repo, build_dir, reports_dir)   # reports/conformance.json as a dict
"""

import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from std_cflags import STD_CFLAGS                  # noqa: E402  (mk/std.mk)

CC = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or "cc"
JOBS = max(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2)
BASE_CFLAGS = [*STD_CFLAGS, "-pthread", "-O1", "-g0"]
# The library's sources: every folder of reference/ but its tools, tests and
# benches (the Makefile's LIB_DIRS, by the same rule).
LIB_DIRS = sorted(d for d in os.listdir(os.path.join(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))), "reference"))
    if d not in ("tools", "tests", "bench") and not d.endswith(".md"))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


class BuildError(Exception):
    pass


def _cc(args, what):
    p = subprocess.run([CC] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0:
        raise BuildError("%s failed:\n$ %s %s\n%s" % (what, CC, " ".join(args), p.stdout[-4000:]))


def _parallel(jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as pool:
        for f in [pool.submit(fn, *a) for fn, *a in jobs]:
            f.result()


class Implementation:
    """A copy of the reference (reference/*.c, *.h and include/*.h) in workdir."""

    def __init__(self, repo, workdir, base=None):
        self.repo, self.dir = repo, workdir
        self.src = os.path.join(workdir, "src")
        self.include = os.path.join(workdir, "include")
        self.obj = os.path.join(workdir, "obj")
        self.lib = os.path.join(workdir, "lib", "libposixtrace.a")
        self.base = base            # an Implementation whose objects can be reused
        self.changed = set()
        self.rebuilt = []           # the objects (basenames) the last build compiled
        for d in (self.src, self.include, self.obj, os.path.dirname(self.lib)):
            os.makedirs(d, exist_ok=True)
        # The library's layer folders, kept as folders: its includes name them.
        for d in LIB_DIRS:
            shutil.copytree(os.path.join(repo, "reference", d), os.path.join(self.src, d),
                            ignore=shutil.ignore_patterns("*.md"))
        shutil.copytree(os.path.join(repo, "include"), self.include, dirs_exist_ok=True)

    def edit(self, edits, label="edit"):
        from mutants import apply_edits
        apply_edits(self.src, edits, label)
        self.changed |= {name for name, _, _ in edits}

    def write_header(self, text, name="trace.h"):
        with open(os.path.join(self.include, name), "w") as f:
            f.write(text)
        self.changed.add("*")

    def _including(self, headers):
        """The files of the copy (as the edits name them: "posix/record.c")
        that include one of headers, directly or through other headers: the
        reference includes its own headers as "dir/name.h" from its root."""
        found, grew = set(headers), bool(headers)
        texts = {}
        for path in glob.glob(os.path.join(self.src, "*", "*.[ch]")):
            with open(path, encoding="utf-8", errors="replace") as f:
                texts[os.path.relpath(path, self.src)] = set(
                    re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M))
        while grew:
            grew = False
            for name, incs in texts.items():
                if name not in found and incs & found:
                    found.add(name)
                    grew = True
        return found - set(headers)

    def sources(self):
        return sorted(glob.glob(os.path.join(self.src, "*", "*.c")))

    def _compile(self, objdir, base_objdir, flags=()):
        """Compiles the sources into objdir, copying the base's objects (from
        base_objdir) of the files this copy did not change."""
        os.makedirs(objdir, exist_ok=True)
        jobs = []
        self.rebuilt = []
        # A changed header reaches every file that includes it, directly or not.
        changed = self.changed | self._including({n for n in self.changed if n.endswith(".h")})
        for src in self.sources():
            name = os.path.relpath(src, self.src)          # as the edits name it
            obj = os.path.join(objdir, name[:-2].replace(os.sep, "_") + ".o")
            base_obj = base_objdir and os.path.join(base_objdir, os.path.basename(obj))
            if base_obj and "*" not in changed and name not in changed \
                    and os.path.exists(base_obj):
                shutil.copy(base_obj, obj)
                continue
            self.rebuilt.append(os.path.basename(obj))
            jobs.append((_cc, BASE_CFLAGS + list(flags) + ["-I" + self.include, "-I" + self.src,
                                                           "-c", "-o", obj, src],
                         "compiling %s" % name))
        _parallel(jobs)
        return sorted(glob.glob(os.path.join(objdir, "*.o")))

    def build(self):
        """Compiles the library (reusing the base's objects of unchanged files)."""
        objs = self._compile(self.obj, self.base and self.base.obj)
        if os.path.exists(self.lib):
            os.remove(self.lib)
        subprocess.run(["ar", "rcs", self.lib] + objs, check=True)
        return self.lib

    # The shared library's name is the same for every implementation: programs
    # linked once against one of them run against another through
    # LD_LIBRARY_PATH (the mutant proof links the tests once, not per mutant).
    SONAME = "libposixtrace-vendor.so"

    def build_shared(self, extra_flags=()):
        """The library as a shared object (position-independent objects in
        obj-pic/, the base's reused for unchanged files): workdir/lib/SONAME.
        extra_flags go to the files compiled (not to the base's reused)."""
        objs = self._compile(os.path.join(self.dir, "obj-pic"),
                             self.base and os.path.join(self.base.dir, "obj-pic"),
                             ["-fPIC", *extra_flags])
        so = os.path.join(os.path.dirname(self.lib), self.SONAME)
        _cc(["-shared", "-Wl,-soname," + self.SONAME, "-o", so] + objs + ["-pthread"],
            "linking %s" % self.SONAME)
        return so


def _build_test(repo, step, name, *args):
    """One step of harness/build_test.sh, as mk/harness.mk runs it: a test
    program that does not build is a result (its build log), not an error."""
    p = subprocess.run(["sh", os.path.join("harness", "build_test.sh"), step, name] +
                       list(args), cwd=repo, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        raise BuildError("harness/build_test.sh %s %s failed:\n%s" % (step, name, p.stdout))


class TestPrograms:
    """The portable tests (all, or those named), ct.c, the profile and the preflight compiled
    against one header directory; linked with any library built against that
    header.  The tests are built by harness/build_test.sh, as mk/harness.mk
    builds them: one that does not compile or link leaves no program but a
    build log, and the runner reports its tests BUILD-ERROR."""

    def __init__(self, repo, include_dir, objdir, cflags=(), names=None):
        self.repo, self.objdir = repo, objdir
        os.makedirs(objdir, exist_ok=True)
        tests_dir = os.path.join(repo, "conformance", "tests")
        self.flags = BASE_CFLAGS + list(cflags) + ["-I" + include_dir, "-I" + tests_dir]
        self.tests = [s for s in sorted(glob.glob(os.path.join(tests_dir, "*.c")))
                      if os.path.basename(s) != "ct.c" and
                      (names is None or os.path.basename(s)[:-2] in names)]
        if names is not None and len(self.tests) != len(set(names)):
            raise BuildError("no such tests: %s" % sorted(
                set(names) - {os.path.basename(s)[:-2] for s in self.tests}))
        # The source as make names it, so that the compiler's messages are the same.
        jobs = [(_build_test, repo, "compile", self._name(s), os.path.relpath(s, repo),
                 self._obj(s), CC, *self.flags) for s in self.tests]
        # The framework too: if it does not compile, every test program is a
        # BUILD-ERROR (its link step reads ct.o.log).
        ct = os.path.join(tests_dir, "ct.c")
        jobs.append((_build_test, repo, "compile", "ct", os.path.relpath(ct, repo),
                     os.path.join(objdir, "ct.o"), CC, *self.flags))
        # The helpers the tests share, each on its own (one that does not
        # compile fails only the programs that need it: the archive step).
        helpers = sorted(glob.glob(os.path.join(tests_dir, "lib", "*.c")))
        self.helper_objs = [os.path.join(objdir, "lib", self._name(s) + ".o") for s in helpers]
        jobs += [(_build_test, repo, "compile", self._name(s), os.path.relpath(s, repo), o, CC,
                  *self.flags) for s, o in zip(helpers, self.helper_objs)]
        for prog in ("profile", "preflight"):
            src = os.path.join(repo, "harness", "profile", prog + ".c")
            jobs.append((_cc, self.flags + ["-c", "-o", os.path.join(objdir, prog + ".o"), src],
                         "compiling %s" % src))
        _parallel(jobs)
        _build_test(repo, "archive", os.path.join(objdir, "libct.a"), "ar", "--",
                    *self.helper_objs)

    @staticmethod
    def _name(src):
        return os.path.basename(src)[:-2]

    def _obj(self, src):
        return os.path.join(self.objdir, "tests", self._name(src) + ".o")

    def programs(self, build_dir):
        """The test programs link() makes in build_dir."""
        return [os.path.join(build_dir, "conformance", self._name(s)) for s in self.tests]

    def link(self, lib, build_dir):
        """build_dir/conformance/<name> for each test, build_dir/harness/profile and
        build_dir/harness/preflight."""
        conf = os.path.join(build_dir, "conformance")
        harness = os.path.join(build_dir, "harness")
        os.makedirs(conf, exist_ok=True)
        os.makedirs(harness, exist_ok=True)
        ct = os.path.join(self.objdir, "ct.o")
        jobs = [(_build_test, self.repo, "link", self._name(s), self._obj(s),
                 os.path.join(conf, self._name(s)), CC, "--", ct,
                 os.path.join(self.objdir, "libct.a"), lib, "-pthread")
                for s in self.tests]
        jobs += [(_cc, ["-o", os.path.join(harness, prog),
                        os.path.join(self.objdir, prog + ".o"), lib, "-pthread"],
                  "linking the %s" % prog) for prog in ("profile", "preflight")]
        _parallel(jobs)


# A test stuck this long ends as hung (run.py --hang-idle): the implementations
# here are the reference and its mutants, which talk to no daemon, so nothing
# outside a test's processes can wake it; a mutant that deadlocks is seen in
# a fraction of a second, not at the time limit.
HANG_IDLE = 0.25


def run_harness(repo, build_dir, reports_dir, *args, timeout=5, env=None, programs=None,
                hang_idle=HANG_IDLE, vectors=False):
    """Runs harness/run.py on the programs of build_dir as a vendor's (only
    those listed in programs, if given: the tree may have gained test files
    since they were built; the vectors too, with vectors, through
    build_dir/harness/vecrun); returns (the report document, the
    CompletedProcess)."""
    only = []
    if programs is not None:
        only = ["--no-discover"]
        for p in programs:
            only += ["--exe", p]
    argv = [PYTHON, os.path.join(repo, "harness", "run.py"), "--root", repo,
            "--build", build_dir, "--reports", reports_dir, "--impl", "vendor",
            *([] if vectors else ["--no-vectors"]), "--allow-fail", "--no-progress",
            "--timeout", str(timeout),
            "--hang-idle", str(hang_idle),
            "-j", str(JOBS),
            "--profile", os.path.join(build_dir, "harness", "profile")] + only + list(args)
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env)
    if p.returncode != 0:
        raise BuildError("run.py exited %d:\n%s\n%s" % (p.returncode, p.stdout[-3000:],
                                                        p.stderr[-3000:]))
    with open(os.path.join(reports_dir, "conformance.json")) as f:
        return json.load(f), p


# ---- a <trace.h> with other values and representations ----------------------------

# Event ids of the variant: system events far above the user ids, the unnamed
# user event low, so that nothing that assumed the reference's values holds.
VARIANT_EVENT_IDS = {1: 300, 2: 301, 3: 302, 4: 303, 5: 304, 6: 305, 7: 306, 8: 307, 16: 7}


def variant_headers(trace_h, types_h):
    """<trace.h> with every POSIX_TRACE_* constant renumbered and other event
    ids, and <posixtrace_types.h> (where the reference defines the types) with
    trace_event_id_t unsigned short and trace_id_t unsigned int.  Returns the
    two texts.  Raises BuildError if a header no longer has what is
    rewritten."""
    out = trace_h
    n_const = 0

    def constant(m):
        nonlocal n_const
        n_const += 1
        return "%s%d" % (m.group(1), 1000 + 37 * int(m.group(2)))
    out = re.sub(r"^(#define\s+POSIX_TRACE_[A-Z_]+\s+)(\d+)\b", constant, out, flags=re.M)

    n_ids = 0

    def event_id(m):
        nonlocal n_ids
        n_ids += 1
        return "((trace_event_id_t)%d)" % VARIANT_EVENT_IDS[int(m.group(1))]
    out = re.sub(r"\(\(trace_event_id_t\)(\d+)\)", event_id, out)
    if n_const < 20 or n_ids < 9:
        raise BuildError("variant <trace.h>: only %d constants and %d event ids rewritten"
                         % (n_const, n_ids))

    types = types_h
    subs = [
        (r"typedef\s+unsigned\s+int\s+trace_event_id_t;", "typedef unsigned short trace_event_id_t;"),
        (r"typedef\s+unsigned\s+long\s+trace_id_t;", "typedef unsigned int trace_id_t;"),
        (r"(#define\s+__POSIXTRACE_EVENT_ID_LIMIT\s+)\(16u \+ __POSIXTRACE_USER_EVENT_MAX\)",
         r"\g<1>(64u + __POSIXTRACE_USER_EVENT_MAX)"),
    ]
    for pat, rep in subs:
        types, n = re.subn(pat, rep, types)
        if n != 1:
            raise BuildError("variant headers: %r not found once in include/posixtrace_types.h: "
                             "update harness/mutants/build.py" % pat)
    return out, types


# The reference's table of system events, if it spells the ids as numbers,
# is rewritten to use the constants, so that it follows the header.
SYSTEM_EVENT_NAMES = {1: "POSIX_TRACE_START", 2: "POSIX_TRACE_STOP", 3: "POSIX_TRACE_FILTER",
                      4: "POSIX_TRACE_OVERFLOW", 5: "POSIX_TRACE_RESUME",
                      6: "POSIX_TRACE_FLUSH_START", 7: "POSIX_TRACE_FLUSH_STOP",
                      8: "POSIX_TRACE_ERROR", 16: "POSIX_TRACE_UNNAMED_USEREVENT"}


def constants_in_reference_tables(src_dir):
    """Rewrites '{ 1, "posix_trace_start"' into '{ POSIX_TRACE_START, ...' in
    event_names.c of src_dir (a copy).  Returns how many entries changed."""
    path = os.path.join(src_dir, "event_names.c")
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        text = f.read()
    text, n = re.subn(r'\{\s*(\d+)\s*,(\s*"posix_trace_)',
                      lambda m: "{ %s,%s" % (SYSTEM_EVENT_NAMES.get(int(m.group(1)),
                                                                   m.group(1)), m.group(2)),
                      text)
    with open(path, "w") as f:
        f.write(text)
    return n
