# SPDX-License-Identifier: MIT
"""configure runs its vendor probe program (issue 13, item 5): a library that
links but cannot be loaded at run time stops configure with the dynamic
loader's message and what to do, not later with every test exiting 127.

The vendor here is a shared library of one function (configure's probe calls
posix_trace_attr_init only) with the reference's <trace.h>, built in a
temporary folder; configure runs in a folder of its own (it needs nothing
else of the tree to probe but mk/std.mk, the compiler flags).
"""

import os
import shutil
import subprocess

import pytest

from conftest import REPO, configure_alone

# The slow tier ('make check-full'; conftest.py): runs configure and builds shared libraries in copies of the tree.
pytestmark = pytest.mark.slow

VENDOR_C = """#include <trace.h>
int posix_trace_attr_init(trace_attr_t *attr) { (void)attr; return 0; }
"""


def cc():
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


@pytest.fixture(scope="module")
def vendor(tmp_path_factory):
    """lib/libvtrace.so (soname libvtrace.so) and lib/libwrong.so, whose
    soname is libwrong.so.1, a file that is not there."""
    if not cc():
        pytest.skip("no C compiler")
    d = tmp_path_factory.mktemp("vendor")
    src = d / "v.c"
    src.write_text(VENDOR_C)
    lib = d / "lib"
    lib.mkdir()
    for name, soname in (("libvtrace.so", "libvtrace.so"), ("libwrong.so", "libwrong.so.1")):
        subprocess.run([cc(), "-shared", "-fPIC", "-I" + os.path.join(REPO, "include"),
                        "-Wl,-soname," + soname, "-o", str(lib / name), str(src)], check=True)
    return str(lib)


def configure(tmp_path, libs, *args, env=None):
    tree = configure_alone(tmp_path / "tree")
    e = dict(os.environ)
    e.pop("LD_LIBRARY_PATH", None)
    e.update(env or {})
    return subprocess.run(["sh", "./configure", "--with-trace-cflags=-I" +
                           os.path.join(REPO, "include"), "--with-trace-libs=" + libs] +
                          list(args), cwd=str(tree), env=e, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def test_no_rpath_says_why_and_what_to_do(vendor, tmp_path):
    p = configure(tmp_path, "-L%s -lvtrace" % vendor)
    assert p.returncode == 1, p.stdout
    out = p.stdout
    assert "checking whether that program loads and runs... no: it cannot be loaded" in out
    assert "error: the implementation under test links but cannot be loaded at run time" in out
    assert "why:   " in out and "libvtrace.so: cannot open shared object file" in out, out
    assert "-Wl,-rpath,%s" % vendor in out and "LD_LIBRARY_PATH=%s" % vendor in out, out
    assert "config.log" in out and not os.path.exists(str(tmp_path / "tree" / "config.mk"))


def test_loads_with_ld_library_path_or_rpath(vendor, tmp_path):
    p = configure(tmp_path, "-L%s -lvtrace" % vendor, env={"LD_LIBRARY_PATH": vendor})
    assert p.returncode == 0, p.stdout
    assert "checking whether that program loads and runs... yes" in p.stdout


def test_wrong_soname_is_named(vendor, tmp_path):
    p = configure(tmp_path, "-L%s -Wl,-rpath,%s -lwrong" % (vendor, vendor))
    assert p.returncode == 1, p.stdout
    assert "libwrong.so.1: cannot open shared object file" in p.stdout, p.stdout
    assert "the dynamic loader must find libwrong.so.1" in p.stdout
    assert "soname" in p.stdout


def test_cross_compiling_skips_the_run_or_uses_target_run(vendor, tmp_path):
    p = configure(tmp_path, "-L%s -lvtrace" % vendor, "CROSS_COMPILING=yes")
    assert p.returncode == 0, p.stdout
    assert "loads and runs... not run (cross-compiling, no test wrapper): assumed" in p.stdout
    shutil.rmtree(str(tmp_path / "tree"))
    # TARGET_RUN is put before the command: here a wrapper that makes it load.
    p = configure(tmp_path, "-L%s -lvtrace" % vendor, "CROSS_COMPILING=yes",
                  "TARGET_RUN=env LD_LIBRARY_PATH=%s" % vendor)
    assert p.returncode == 0, p.stdout
    assert "checking whether that program loads and runs... yes" in p.stdout
