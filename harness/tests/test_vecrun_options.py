# SPDX-License-Identifier: MIT
"""The vector interpreter builds against a <trace.h> that does not support
TRL and TRI (XBD <unistd.h>: _POSIX_TRACE_LOG and _POSIX_TRACE_INHERIT -1)
and so declares none of their functions (XSH posix_trace_attr_getlogsize ...
are [TRC TRL], posix_trace_attr_getinherited [TRC TRI]); a step that needs
one is UNSUPPORTED, even when --options claims the option
(harness/vec/vec_steps_attr.c)."""

import os
import re
import shutil
import subprocess

import pytest

from conftest import REPO, STD_CFLAGS, VECRUN_SRCS

LIB = os.path.join(REPO, "build", "lib", "libposixtrace.a")

# The slow tier ('make check-full'; conftest.py): builds vecrun against a library without each option.
pytestmark = pytest.mark.slow
OPTIONAL = ("getinherited", "setinherited", "getlogfullpolicy", "setlogfullpolicy",
            "getlogsize", "setlogsize")


@pytest.fixture(scope="module")
def vecrun_without_trl_tri(tmp_path_factory):
    if not os.path.isfile(LIB) or not shutil.which("cc"):
        pytest.skip("no reference library (make) or no cc")
    base = tmp_path_factory.mktemp("vecrun")
    inc = str(base / "include")
    shutil.copytree(os.path.join(REPO, "include"), inc)
    path = os.path.join(inc, "trace.h")
    with open(path) as f:
        text = f.read()
    for macro in ("_POSIX_TRACE_LOG", "_POSIX_TRACE_INHERIT"):
        text, n = re.subn(r"^#define %s\s+\S+" % macro, "#define %s -1" % macro, text, flags=re.M)
        assert n == 1, "include/trace.h: #define %s not found: update the test" % macro
    for fn in OPTIONAL:
        text, n = re.subn(r"\bint\s+posix_trace_attr_%s\([^;]*;" % fn, "", text)
        assert n == 1, "include/trace.h: posix_trace_attr_%s not found: update the test" % fn
    with open(path, "w") as f:
        f.write(text)
    out = str(base / "vecrun")
    srcs = VECRUN_SRCS
    p = subprocess.run(["cc", *STD_CFLAGS, "-pthread", "-Wall",
                        "-Wextra", "-Werror", "-I" + inc] + srcs + [LIB, "-pthread", "-o", out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    assert p.returncode == 0, p.stdout
    return out, base


@pytest.mark.parametrize("field,option", [("logsize 4096", "TRL"), ("logpolicy LOOP", "TRL"),
                                          ("inherited CLOSE_FOR_CHILD", "TRI")])
@pytest.mark.parametrize("how", ["set", "get"])
def test_step_of_an_absent_option_is_unsupported(vecrun_without_trl_tri, field, option, how):
    vecrun, base = vecrun_without_trl_tri
    step = "attr a set %s -> 0" % field if how == "set" else "attr a get %s -> >= 0" % \
        field.split()[0]
    vec = base / ("%s-%s.vec" % (how, field.split()[0]))
    vec.write_text("# the step needs %s\nrules: attr_init.defaults\noptions: TRC, %s\n\n"
                   "attr a\n%s\n" % (option, option, step))
    # Claimed through --options: the build still lacks it.
    p = subprocess.run([vecrun, "--options", "TRC,TEF,TRI,TRL", "--file", str(vec)],
                       stdout=subprocess.PIPE, universal_newlines=True)
    last = p.stdout.strip().splitlines()[-1]
    assert p.returncode == 3 and last.startswith("RESULT UNSUPPORTED"), p.stdout
    assert "option %s" % option in last, last
    # From the header: the vector needs an option it does not support.
    p = subprocess.run([vecrun, "--file", str(vec)], stdout=subprocess.PIPE,
                       universal_newlines=True)
    assert p.returncode == 3, p.stdout
