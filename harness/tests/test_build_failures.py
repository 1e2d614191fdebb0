# SPDX-License-Identifier: MIT
"""A vendor's header that a test program does not compile with gives a report,
not a broken build (harness/build_test.sh, harness/unbuilt/build_results.py,
./configure, mk/harness.mk, harness/mutants/build.py).

The vendor is the reference's library under headers of its own, installed in
a folder whose name holds a space:

* "types in <sys/types.h>": its <trace.h> gets the trace types from its own
  <sys/types.h> only (XBD <sys/types.h>; rule sys_types_h.trace-types), and
  calls a member of struct posix_trace_event_info posix_prog_addr instead
  of posix_prog_address (rule trace_h.event_info.posix_prog_address), so that
  conformance/tests/system_events.c does not compile;
* "types in <trace.h>": no <sys/types.h> of its own, so the system's lacks
  the trace types (rules sys_types_h.*).

The first also breaks the vector interpreter's build (harness/vec/vec_steps_read.c
uses posix_prog_address): every vector is then UNRESOLVED BUILD-ERROR.  Two
more cases break the harness's own programs: a vendor whose
struct posix_trace_status_info misnames posix_stream_full_status, which
harness/profile/profile.c uses (the run goes on without the profile, saying so), and
a framework conformance/tests/ct.c that does not compile (every test program
is a BUILD-ERROR).

Each is judged through ./configure and 'make conformance' in a copy of the
tree that keeps only the test programs a case needs (fast: a few programs,
and the vector interpreter only where its build fails), and once through
harness/mutants/build.py, which must build the tests the same way.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import HARNESS, PYTHON, REPO

sys.path.insert(0, os.path.join(HARNESS, "mutants"))
import build as mb          # noqa: E402
from unbuilt import build_results        # noqa: E402

# The slow tier ('make check-full'; conftest.py): each test builds the suite in a copy of the tree.
pytestmark = pytest.mark.slow
from unbuilt import vector_list          # noqa: E402

# A header program for the copy of the tree: it uses the member the vendor
# renamed.  (Not the project's header_trace_h.c, which probes each declaration
# on its own: this one checks the mechanism -- a header program that does not
# compile FAILs its rules, naming the compiler's error.)
FAKE_HEADER_PROGRAM = r'''
#include "ct.h"
static struct posix_trace_event_info ev;
CT_TEST(event_info_prog_address, "trace_h.event_info.posix_prog_address", "TRC", "")
{
    void **p = &ev.posix_prog_address;
    CT_CHECK(p != NULL, "no address");
}
CT_TEST(constants_trc, "trace_h.constants-trc", "TRC", "")
{
    CT_CHECK(POSIX_TRACE_RUNNING != POSIX_TRACE_SUSPENDED, "equal");
}
'''


def by_id(items):
    return {x["id"]: x for x in items}


def sh(argv, cwd, check_status=0, env=None):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=env)
    if check_status is not None:
        assert p.returncode == check_status, "%s exited %d:\n%s" % (
            " ".join(argv), p.returncode, p.stdout[-6000:])
    return p


@pytest.fixture(scope="module")
def vendor_lib(reference_as_vendor):
    """The reference's library, built once for the session (conftest.py; its
    headers are only renamed or rearranged by the vendors below: the same ABI)."""
    return reference_as_vendor["impl"].lib


def make_vendor(base, lib, types_in_sys_types, renames=None):
    """A vendor installation in base ("vendor dir/include", ".../lib"); its
    <trace.h> with the names of renames ({old: new}) renamed."""
    d = os.path.join(base, "vendor dir")
    inc = os.path.join(d, "include")
    shutil.copytree(os.path.join(REPO, "include"), inc)
    os.makedirs(os.path.join(d, "lib"))
    shutil.copy(lib, os.path.join(d, "lib", "libposixtrace.a"))
    trace_h = os.path.join(inc, "trace.h")
    with open(trace_h) as f:
        text = f.read()
    if types_in_sys_types:
        # The types only through <sys/types.h> (include/sys/types.h, found
        # before the system's through -I), and one member misnamed.
        text, n = re.subn(r"^#include <posixtrace_types.h>\n", "", text, flags=re.M)
        assert n == 1, "include/trace.h no longer includes <posixtrace_types.h>: update the test"
        text, n = re.subn(r"\bposix_prog_address\b", "posix_prog_addr", text)
        assert n == 1, "include/trace.h: posix_prog_address not found once"
    else:
        shutil.rmtree(os.path.join(inc, "sys"))
    for old, new in (renames or {}).items():
        text, n = re.subn(r"\b%s\b" % old, new, text)
        assert n >= 1, "include/trace.h: %s not found: update the test" % old
    with open(trace_h, "w") as f:
        f.write(text)
    return d


def copy_tree(dst, keep, extra=None, vecrun=False):
    """A copy of the tree with only the test programs named in keep (and the
    files of extra: {name: text}); no vector interpreter unless vecrun."""
    def ignore(d, names):
        return [n for n in names if n in (".git", "build", "reports", "__pycache__",
                                          ".pytest_cache", "config.mk", "config.log")]
    shutil.copytree(REPO, dst, ignore=ignore)
    tests = os.path.join(dst, "conformance", "tests")
    for name in os.listdir(tests):
        if name.endswith(".c") and name != "ct.c" and name[:-2] not in keep:
            os.remove(os.path.join(tests, name))
    for name, text in (extra or {}).items():
        with open(os.path.join(tests, name + ".c"), "w") as f:
            f.write(text)
    if not vecrun:
        os.remove(os.path.join(dst, "harness", "vec", "vecrun.c"))
    return dst


def make_conformance(tree):
    """'make conformance' (a vendor's failures make it exit non-zero) and the
    report; then run.py again on what was built, for its own exit status."""
    p = sh(["make", "-j2", "conformance",
            "CONFORMANCE_FLAGS=--no-progress -v --timeout 5 -j 2"], tree, check_status=None)
    assert "tests:" in p.stdout and "reports:" in p.stdout, p.stdout[-6000:]
    with open(os.path.join(tree, "reports", "conformance.json")) as f:
        doc = json.load(f)
    rerun = sh([PYTHON, "harness/run.py", "--no-progress", "-j", "2"], tree, check_status=None)
    return doc, p.stdout, rerun


@pytest.fixture(scope="module")
def sys_types_vendor(vendor_lib, tmp_path_factory):
    """The "types in <sys/types.h>" vendor through --with-trace=DIR and
    'make conformance'."""
    base = str(tmp_path_factory.mktemp("one"))
    vendor = make_vendor(base, vendor_lib, types_in_sys_types=True)
    tree = copy_tree(os.path.join(base, "tree"), {"attr_init", "system_events", "sys_types_h"},
                     {"header_trace_h": FAKE_HEADER_PROGRAM}, vecrun=True)
    sh(["sh", "./configure", "--with-trace=" + vendor], tree)
    doc, out, rerun = make_conformance(tree)
    return {"tree": tree, "vendor": vendor, "doc": doc, "out": out, "rerun": rerun}


def test_program_that_does_not_compile_is_unresolved(sys_types_vendor):
    doc = sys_types_vendor["doc"]
    tests = by_id(doc["tests"])
    broken = [t for t in tests.values() if t["executable"] == "system_events"]
    assert broken, "system_events.c's tests are missing from the report"
    with open(os.path.join(REPO, "conformance", "tests", "system_events.c")) as f:
        assert len(broken) == len(re.findall(r"^CT_TEST\(", f.read(), re.M))
    for t in broken:
        assert t["result"] == "UNRESOLVED", t
        assert t["message"].startswith("BUILD-ERROR: conformance/tests/system_events.c does "
                                       "not compile"), t["message"]
        assert "posix_prog_address" in t["message"], t["message"]   # the compiler's line
        assert "error" in t["message"]
    # The rest ran.
    for name in ("attr_init", "sys_types_h"):
        mine = [t for t in tests.values() if t["executable"] == name]
        assert mine and all(t["result"] not in ("FAIL", "UNRESOLVED") for t in mine), mine
    assert doc["implementation"]["impl"] == "vendor"


def test_header_program_that_does_not_compile_fails_naming_it(sys_types_vendor):
    doc = sys_types_vendor["doc"]
    rules = by_id(doc["rules"])
    for rid in ("trace_h.event_info.posix_prog_address", "trace_h.constants-trc"):
        assert rules[rid]["result"] == "FAIL", rules[rid]
        msg = rules[rid]["failures"][0]["message"]
        assert msg.startswith("BUILD-ERROR: ") and "posix_prog_address" in msg, msg
        assert "breaks %s" % rid in msg, msg


def test_types_from_the_vendors_sys_types_h(sys_types_vendor):
    rules = by_id(sys_types_vendor["doc"]["rules"])
    assert rules["sys_types_h.trace-types"]["result"] == "PASS", rules["sys_types_h.trace-types"]
    assert rules["sys_types_h.trace_event_set_t"]["result"] == "PASS"


def test_every_report_says_build_error(sys_types_vendor):
    tree, out = sys_types_vendor["tree"], sys_types_vendor["out"]
    reports = os.path.join(tree, "reports")
    junit = ET.parse(os.path.join(reports, "junit.xml")).getroot()
    errors = [c for c in junit.iter("testcase") if c.get("classname") == "system_events"]
    assert errors and all(c.find("error") is not None and
                          "BUILD-ERROR" in c.find("error").get("message") for c in errors)
    with open(os.path.join(reports, "index.html")) as f:
        html = f.read()
    assert "BUILD-ERROR" in html and "posix_prog_address" in html
    # The text summary (-v): each test with its message, and a warning.
    assert re.search(r"^UNRESOLVED\s+system_events\.\S+ \(0 ms\): BUILD-ERROR", out, re.M), out
    assert "warning: conformance/tests/system_events.c does not compile" in out
    # make said so while building, and kept the compiler's output.
    assert "does not compile against the implementation under test" in out
    log = os.path.join(tree, "build", "conformance", "system_events.build.log")
    with open(log) as f:
        assert re.search(r"^BUILD-ERROR compile \(exit status \d+\):$", f.read(), re.M)
    assert not os.path.exists(os.path.join(tree, "build", "conformance", "system_events"))


def test_vecrun_that_does_not_compile_makes_every_vector_unresolved(sys_types_vendor):
    tree, doc, out = sys_types_vendor["tree"], sys_types_vendor["doc"], sys_types_vendor["out"]
    want = [tid for tid, _ in vector_list.vector_files(os.path.join(tree, "vectors"))]
    assert len(want) > 100
    vectors = by_id(t for t in doc["tests"] if t["executable"] == "vecrun")
    assert sorted(vectors) == sorted(want)
    for t in vectors.values():
        assert t["result"] == "UNRESOLVED", t
        assert t["message"].startswith("BUILD-ERROR: harness/vec/vecrun.c does not compile against "
                                       "the implementation under test"), t["message"]
        assert "posix_prog_address" in t["message"] and "error" in t["message"], t["message"]
    # The rules read from the headers: rules only vectors test are UNRESOLVED.
    rules = by_id(doc["rules"])
    assert vectors["vec.trc.attr.clockres"]["rules"] == \
        vector_list.read_header(os.path.join(tree, "vectors", "trc", "attr", "clockres.vec"))[0]
    only_vectors = {r for t in vectors.values() for r in t["rules"]} - \
        {r for t in doc["tests"] if t["executable"] != "vecrun" for r in t["rules"]}
    assert only_vectors and all(rules[r]["result"] == "UNRESOLVED" for r in only_vectors)
    # Every report, and make went on and kept the compiler's output.
    junit = ET.parse(os.path.join(tree, "reports", "junit.xml")).getroot()
    cases = [c for c in junit.iter("testcase") if c.get("classname") == "vecrun"]
    assert len(cases) == len(want) and all(
        "BUILD-ERROR" in c.find("error").get("message") for c in cases)
    with open(os.path.join(tree, "reports", "index.html")) as f:
        assert "harness/vec/vecrun.c does not compile" in f.read()
    assert re.search(r"^UNRESOLVED\s+vec\.trc\.\S+ \(0 ms\): BUILD-ERROR", out, re.M), out
    assert "warning: harness/vec/vecrun.c does not compile" in out
    assert "harness/vec/vecrun.c does not compile against the implementation under test: the " \
        "report gives every vector BUILD-ERROR" in out
    failure = build_results.read_build_log(os.path.join(tree, "build", "harness",
                                                        "vecrun.build.log"))
    assert failure.step == "compile" and "posix_prog_address" in failure.errors[0]
    assert not os.path.exists(os.path.join(tree, "build", "harness", "vecrun"))


def test_run_goes_on_and_exits_1(sys_types_vendor):
    rerun = sys_types_vendor["rerun"]
    assert rerun.returncode == 1, rerun.stdout
    assert "DOES NOT CONFORM" in rerun.stdout


def test_make_conformance_tells_does_not_conform_from_harness_failed(sys_types_vendor):
    """make can only exit 0 or 2: 'make conformance' writes run.py's status (0
    conforms, 1 does not, 2 the harness failed) to reports/exit-status and says
    which in its last line (mk/harness.mk)."""
    tree = sys_types_vendor["tree"]
    status = os.path.join(tree, "reports", "exit-status")
    assert "make conformance: the implementation does not conform (run.py exit status 1" \
        in sys_types_vendor["out"], sys_types_vendor["out"][-3000:]
    # The harness fails: a catalogue that cannot be read.
    p = sh(["make", "conformance", "CONFORMANCE_FLAGS=--catalogue=/nonexistent"], tree,
           check_status=2)
    assert "make conformance: the harness failed (run.py exit status 2" in p.stdout, p.stdout
    with open(status) as f:
        assert f.read().strip() == "2"
    # The build fails before run.py runs (a program that does not compile is a
    # result, not a failed build: the build step itself is missing here): this
    # run's status still, not the last one's.
    with open(status, "w") as f:
        f.write("1\n")
    step = os.path.join(tree, "harness", "build_test.sh")
    os.rename(step, step + ".away")
    try:
        p = sh(["make", "conformance"], tree, check_status=2)
    finally:
        os.rename(step + ".away", step)
    assert "make conformance: the build failed, nothing was run" in p.stdout, p.stdout
    with open(status) as f:
        assert f.read().strip() == "2"


def test_a_stale_program_is_not_run(sys_types_vendor, tmp_path):
    """A program left from an earlier build that succeeded is not taken for
    this one, whose build failed."""
    tree = sys_types_vendor["tree"]
    stale = os.path.join(tree, "build", "conformance", "system_events")
    shutil.copy(os.path.join(tree, "build", "conformance", "attr_init"), stale)
    try:
        p = sh([PYTHON, "harness/run.py", "--no-progress", "--test", "system_events.*",
                "--reports", str(tmp_path)], tree, check_status=1)
        with open(os.path.join(str(tmp_path), "conformance.json")) as f:
            doc = json.load(f)
        assert doc["tests"] and all(t["message"].startswith("BUILD-ERROR")
                                    for t in doc["tests"]), p.stdout
    finally:
        os.remove(stale)


@pytest.mark.parametrize("how", ["--with-trace", "--with-trace-cflags/libs"])
def test_types_only_in_trace_h_and_spaces_in_paths(vendor_lib, tmp_path, how):
    """./configure --with-trace=DIR, or --with-trace-cflags/--with-trace-libs
    with quoted paths, where DIR holds a space, in a tree whose path holds one;
    the <sys/types.h> the vendor's programs see (the system's) lacks the trace
    types: the <sys/types.h> rules FAIL with the compiler's message, the rest
    of the report is complete (this was exit 2 and no report)."""
    base = str(tmp_path / "two words")
    vendor = make_vendor(base, vendor_lib, types_in_sys_types=False)
    tree = copy_tree(os.path.join(base, "the tree"), {"attr_init", "sys_types_h"})
    if how == "--with-trace":
        sh(["sh", "./configure", "--with-trace=" + vendor], tree)
    else:
        sh(["sh", "./configure", "--with-trace-cflags=-I'%s/include'" % vendor,
            "--with-trace-libs='%s/lib/libposixtrace.a' -pthread" % vendor], tree)
    doc, out, rerun = make_conformance(tree)
    rules = by_id(doc["rules"])
    r = rules["sys_types_h.trace-types"]
    assert r["result"] == "FAIL", r
    assert "trace_attr_t" in r["failures"][0]["message"], r    # the probe's compiler line
    assert "error" in r["failures"][0]["message"]
    assert rules["attr_init.defaults"]["result"] == "PASS"
    assert rerun.returncode == 1, rerun.stdout
    for name in ("conformance.json", "junit.xml", "index.html"):
        assert os.path.getsize(os.path.join(tree, "reports", name)) > 0


def test_mutants_build_the_same_way(sys_types_vendor, vendor_lib, tmp_path):
    """harness/mutants/build.py builds the tests through harness/build_test.sh
    as make does, in folders whose names hold a space: the same results."""
    vendor = sys_types_vendor["vendor"]
    names = ["attr_init", "system_events", "sys_types_h"]
    progs = mb.TestPrograms(REPO, os.path.join(vendor, "include"), str(tmp_path / "obj dir"),
                            names=names)
    build_dir = str(tmp_path / "build dir")
    progs.link(vendor_lib, build_dir)
    doc, _ = mb.run_harness(REPO, build_dir, str(tmp_path / "reports"),
                            programs=progs.programs(build_dir))
    mine = {t["id"]: t["result"] for t in doc["tests"]}
    made = {t["id"]: t["result"] for t in sys_types_vendor["doc"]["tests"]
            if t["executable"] in names}
    assert mine == made
    assert {t["message"].split(" (log: ")[0] for t in doc["tests"]
            if t["executable"] == "system_events"} == \
        {t["message"].split(" (log: ")[0] for t in sys_types_vendor["doc"]["tests"]
         if t["executable"] == "system_events"}


@pytest.fixture(scope="module")
def profile_vendor(vendor_lib, tmp_path_factory):
    """A vendor whose struct posix_trace_status_info misnames
    posix_stream_full_status (XBD <trace.h>), which harness/profile/profile.c reads:
    the profile does not build, the test programs kept here do."""
    base = str(tmp_path_factory.mktemp("profile"))
    vendor = make_vendor(base, vendor_lib, types_in_sys_types=True,
                         renames={"posix_stream_full_status": "posix_stream_full_stat"})
    tree = copy_tree(os.path.join(base, "tree"), {"sys_types_h"})
    sh(["sh", "./configure", "--with-trace=" + vendor], tree)
    doc, out, rerun = make_conformance(tree)
    return {"tree": tree, "doc": doc, "out": out, "rerun": rerun}


def test_profile_that_does_not_build_is_a_warning_in_every_report(profile_vendor):
    tree, doc, out = profile_vendor["tree"], profile_vendor["doc"], profile_vendor["out"]
    said = "the implementation profile did not build: harness/profile/profile.c does not compile"
    warnings = [w for w in doc["summary"]["warnings"] if said in w]
    assert len(warnings) == 1 and "posix_stream_full_status" in warnings[0], \
        doc["summary"]["warnings"]
    assert "warning: implementation profile: " + said in out
    junit = ET.parse(os.path.join(tree, "reports", "junit.xml")).getroot()
    assert any(said in p.get("value") for p in junit.iter("property")
               if p.get("name") == "warning")
    with open(os.path.join(tree, "reports", "index.html")) as f:
        assert said in f.read()
    # The run went on: the options from the header's macros, the tests ran.
    impl = doc["implementation"]
    assert impl["options_source"].startswith("header macros"), impl
    assert impl["options"]["TRC"] is True
    assert {t["executable"] for t in doc["tests"]} == {"sys_types_h"}
    assert all(t["result"] in ("PASS", "UNTESTED") for t in doc["tests"]), doc["tests"]
    assert profile_vendor["rerun"].returncode == 0, profile_vendor["rerun"].stdout
    assert not os.path.exists(os.path.join(tree, "build", "harness", "profile"))


def test_framework_that_does_not_compile_makes_every_program_a_build_error(vendor_lib,
                                                                          tmp_path):
    """conformance/tests/ct.c, which every test program is linked with, does
    not compile: make goes on, every test is UNRESOLVED BUILD-ERROR (the
    header programs too: their declarations are not what failed), naming
    ct.c's first error."""
    vendor = make_vendor(str(tmp_path), vendor_lib, types_in_sys_types=True)
    tree = copy_tree(str(tmp_path / "tree"), {"attr_init", "sys_types_h"})
    with open(os.path.join(tree, "conformance", "tests", "ct.c"), "a") as f:
        f.write("int ct_broken_for_the_test = ct_undeclared_for_the_test;\n")
    sh(["sh", "./configure", "--with-trace=" + vendor], tree)
    doc, out, rerun = make_conformance(tree)
    assert rerun.returncode == 1, rerun.stdout
    assert {t["executable"] for t in doc["tests"]} == {"attr_init", "sys_types_h"}
    for t in doc["tests"]:
        assert t["result"] == "UNRESOLVED", t
        assert t["message"].startswith("BUILD-ERROR: conformance/tests/%s.c cannot be built"
                                       % t["executable"]), t["message"]
        assert "conformance/tests/ct.c" in t["message"], t["message"]
        assert "ct_undeclared_for_the_test" in t["message"], t["message"]
    assert "warning: conformance/tests/attr_init.c cannot be built" in out


def test_helper_that_does_not_compile_fails_only_the_programs_that_need_it(vendor_lib,
                                                                         tmp_path):
    """A helper of conformance/tests/lib/ (here ct_stream.c, which attr_init.c
    needs) does not compile: it is left out of the helper library, the
    programs that call it fail to link, each UNRESOLVED BUILD-ERROR quoting
    the helper's compiler error first, and a program that needs none of it
    (sys_types_h.c) builds and runs."""
    vendor = make_vendor(str(tmp_path), vendor_lib, types_in_sys_types=True)
    tree = copy_tree(str(tmp_path / "tree"), {"attr_init", "sys_types_h"})
    with open(os.path.join(tree, "conformance", "tests", "lib", "ct_stream.c"), "a") as f:
        f.write("int ct_broken_for_the_test = ct_undeclared_for_the_test;\n")
    sh(["sh", "./configure", "--with-trace=" + vendor], tree)
    doc, out, rerun = make_conformance(tree)
    tests = {t["executable"]: [] for t in doc["tests"]}
    for t in doc["tests"]:
        tests[t["executable"]].append(t)
    assert set(tests) == {"attr_init", "sys_types_h"}
    for t in tests["attr_init"]:
        assert t["result"] == "UNRESOLVED", t
        assert t["message"].startswith("BUILD-ERROR: conformance/tests/attr_init.c does not"
                                       " link"), t["message"]
        quoted = t["message"].split(": ", 2)[2]
        assert quoted.startswith("conformance/tests/lib/ct_stream.c:"), t["message"]
        assert "ct_undeclared_for_the_test" in quoted.split(" | ")[0], t["message"]
    assert all(not t["message"].startswith("BUILD-ERROR") for t in tests["sys_types_h"])


def test_probe_takes_the_compilers_error_line(tmp_path):
    """harness/probe.sh: a failed part's message is the compiler's "error:"
    line, not the first line holding the word (here "In function
    'probe_error'")."""
    probes = tmp_path / "conformance" / "probes"
    probes.mkdir(parents=True)
    (probes / "x.c").write_text("#ifdef CT_PROBE_PART_a\n"
                                "int probe_error(void) { return undeclared_in_probe; }\n"
                                "#endif\n")
    p = sh(["sh", os.path.join(HARNESS, "probe.sh"), "x", "out", mb.CC], str(tmp_path))
    assert "-DCT_PROBE_a=0" in p.stdout, p.stdout
    header = (tmp_path / "out" / "x_probe.h").read_text()
    assert re.search(r'\{ "a", "[^"]*error:[^"]*undeclared_in_probe', header), header


# ---- the pieces ----------------------------------------------------------------------


def test_configure_probe_failure_says_which_why_and_where(tmp_path):
    tree = copy_tree(str(tmp_path / "tree"), set())
    p = sh(["sh", "./configure", "--with-trace-cflags=-I%s" % (tmp_path / "nowhere"),
            "--with-trace-libs=-lnothing"], tree, check_status=1)
    assert "probe: checking whether <trace.h>" in p.stdout, p.stdout
    assert re.search(r"why: .*trace\.h.*No such file", p.stdout), p.stdout
    assert "log:   %s/config.log" % os.path.realpath(tree) in p.stdout, p.stdout


def test_build_step_removes_an_earlier_program(tmp_path):
    """harness/build_test.sh: a program whose build now fails is removed, and
    its log ends with the BUILD-ERROR line and the compiler's first errors."""
    src = tmp_path / "prog.c"
    src.write_text("int main(void) { return 0; }\n")
    obj, out = str(tmp_path / "o" / "prog.o"), str(tmp_path / "prog")
    script = os.path.join(HARNESS, "build_test.sh")
    for step in (["compile", "prog", str(src), obj, mb.CC],
                 ["link", "prog", obj, out, mb.CC, "--"]):
        sh(["sh", script] + step, str(tmp_path))
    assert os.path.exists(out)
    assert build_results.read_build_log(out + ".build.log") is None
    src.write_text("int main(void) { return undeclared_thing; }\n")
    p = sh(["sh", script, "compile", "prog", str(src), obj, mb.CC], str(tmp_path))
    assert "does not compile against the implementation under test" in p.stdout
    sh(["sh", script, "link", "prog", obj, out, mb.CC, "--"], str(tmp_path))
    assert not os.path.exists(out) and not os.path.exists(obj)
    failure = build_results.read_build_log(out + ".build.log")
    assert failure.step == "compile" and "undeclared_thing" in failure.errors[0]


def test_link_failure_is_a_link_build_error(tmp_path):
    src = tmp_path / "prog.c"
    src.write_text("int missing_function(void);\nint main(void) { return missing_function(); }\n")
    obj, out = str(tmp_path / "prog.o"), str(tmp_path / "prog")
    script = os.path.join(HARNESS, "build_test.sh")
    sh(["sh", script, "compile", "prog", str(src), obj, mb.CC], str(tmp_path))
    sh(["sh", script, "link", "prog", obj, out, mb.CC, "--"], str(tmp_path))
    failure = build_results.read_build_log(out + ".build.log")
    assert failure.step == "link" and "missing_function" in " ".join(failure.errors)


def test_tests_read_from_the_source_match_list():
    """The registrations read from each source are what its program lists
    (for the programs built here)."""
    built = 0
    tests_dir = os.path.join(REPO, "conformance", "tests")
    for name in sorted(os.listdir(tests_dir)):
        exe_path = os.path.join(REPO, "build", "conformance", name[:-2])
        if not name.endswith(".c") or name == "ct.c" or not os.access(exe_path, os.X_OK):
            continue
        exe = build_results.Executable(exe_path, name=name[:-2])
        listed = subprocess.run([exe_path, "--list"], stdout=subprocess.PIPE,
                                universal_newlines=True).stdout
        want = sorted(listed.splitlines())
        got = sorted("\t".join([t.id, ",".join(t.rules), ",".join(t.options)] +
                               ([",".join(t.functions)] if t.functions else []))
                     for t in build_results.tests_in_source(os.path.join(tests_dir, name), exe))
        assert got == want, name
        built += 1
    if not built:
        pytest.skip("no test program built (make conformance-build)")
