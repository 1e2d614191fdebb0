# SPDX-License-Identifier: MIT
"""Test programs that did not build against the implementation under test:
their tests, read from the source, and their results.

harness/build_test.sh builds each conformance/tests/NAME.c; when the compiler
fails it removes the program and ends build/conformance/NAME.build.log with

    BUILD-ERROR <compile|link> (exit status N):
      <the compiler's first error lines, indented>

or "BUILD-ERROR framework (...)" when the framework ct.c, which every test
program is linked with, did not compile.  The vector interpreter
build/harness/vecrun is built the same way (its tests are read from the .vec
files, harness/unbuilt/vector_list.py).

Such a program cannot answer --list, so its tests are read from its
registrations, CT_TEST(name, "rules", "options", "functions") (ct.h), and
each is reported without being run: UNRESOLVED, the message starting
BUILD-ERROR -- the implementation could not be judged on it.  The header
programs are the exception: they use nothing but the declarations their rules
require, so when one does not compile, a declaration is missing or wrong and
its rules FAIL, the message naming the compiler's first error.
"""

import os
import re

from runner.protocol import Executable, ProtocolError, parse_list

# The programs that check the headers' declarations (XBD <trace.h>,
# <sys/types.h>, <unistd.h>, <limits.h>) and nothing else.
HEADER_PROGRAMS = ("header_trace_h", "sys_types_h", "unistd_limits")

# How many characters of the log the report keeps as the tests' output.
LOG_KEPT = 4000


class BuildFailure:
    """What harness/build_test.sh recorded of a build that failed."""

    def __init__(self, step, status, errors, log_path, log_text):
        self.step = step            # "compile" or "link"
        self.status = status        # "exit status 1", or what went wrong
        self.errors = errors        # the compiler's first error lines
        self.log_path = log_path
        self.log_text = log_text


_FAILED_RE = re.compile(r"^BUILD-ERROR (\S+) \((.*)\):\s*$")


def read_build_log(path):
    """The BuildFailure a build log records, or None (no log, or a build that
    succeeded)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _FAILED_RE.match(line)
        if m:
            errors = []
            for x in lines[i + 1:]:
                if not x.startswith("  "):
                    break
                errors.append(x.strip())
            return BuildFailure(m.group(1), m.group(2), errors, path, text)
    return None


# CT_TEST(name, "rules", "options", "functions"), each string possibly split
# into adjacent literals ("a," "b") over several lines.
_STRINGS = r'((?:\s*"(?:[^"\\\n]|\\.)*")+)'
_CT_TEST_RE = re.compile(r'^CT_TEST\(\s*([A-Za-z_]\w*)\s*,' + _STRINGS + r'\s*,' + _STRINGS +
                         r'\s*,' + _STRINGS + r'\s*\)', re.M)
_LITERAL_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def _joined(literals):
    return "".join(_LITERAL_RE.findall(literals))


def tests_in_source(src, exe):
    """The TestCases that conformance/tests/NAME.c registers, as its program's
    --list would give them (ids NAME.name).  Raises ProtocolError if a
    registration cannot be read."""
    with open(src, encoding="utf-8", errors="replace") as f:
        text = f.read()
    lines = []
    for m in _CT_TEST_RE.finditer(text):
        fields = ["%s.%s" % (exe.name, m.group(1))] + [_joined(m.group(k)) for k in (2, 3, 4)]
        if not fields[3]:
            fields.pop()
        lines.append("\t".join(fields))
    found = len(re.findall(r"^CT_TEST\(", text, re.M))
    if found != len(lines):
        raise ProtocolError("%s: %d of its %d CT_TEST registrations cannot be read (the "
                            "program did not build, so its tests are read from the source)"
                            % (os.path.basename(src), found - len(lines), found))
    return parse_list("\n".join(sorted(lines)), exe)


def failed_program(path, name, src, root, lister=None):
    """The Executable of the program at path if its last build failed (its
    build log, path.build.log, says BUILD-ERROR), its tests to be read from
    src (its source file's path) below root, or given by lister(exe) (the
    vector interpreter's, harness/unbuilt/vector_list.py); else None.  Its
    list_statically() gives its tests."""
    failure = read_build_log(path + ".build.log")
    if failure is None:
        return None
    exe = Executable(path, name=name, source=os.path.relpath(src, root))
    exe.source_path = src
    exe.build_failure = failure
    exe.list_statically = (lambda: lister(exe)) if lister else (lambda: tests_in_source(src, exe))
    return exe


def result(test, failure):
    """The run dict of one test of a program that did not build."""
    program = test.exe.source or test.exe.name
    log = _shown(failure.log_path)
    errors = failure.errors or ["(no error line in the log)"]
    if failure.step == "framework":
        code = "UNRESOLVED"
        message = ("BUILD-ERROR: %s cannot be built, its tests cannot run: %s: %s (log: %s)"
                   % (program, failure.status, " | ".join(errors), log))
    elif test.exe.name in HEADER_PROGRAMS and failure.step == "compile":
        code = "FAIL"
        message = ("BUILD-ERROR: %s (breaks %s; %s does not compile against the "
                   "implementation under test: a declaration it uses is missing or wrong; "
                   "log: %s)" % (errors[0], ",".join(test.rules), program, log))
    else:
        code = "UNRESOLVED"
        message = ("BUILD-ERROR: %s does not %s against the implementation under test, so "
                   "its tests cannot run: %s (log: %s)" % (program, failure.step,
                                                           " | ".join(errors), log))
    text = failure.log_text
    if len(text) > LOG_KEPT:
        text = text[:LOG_KEPT] + "\n[... see %s ...]\n" % log
    return {"result": code, "message": message, "duration_ms": 0,
            "status": {"build_error": failure.step}, "output": text}


def _shown(path):
    """path relative to the current folder if it is below it, else as it is."""
    rel = os.path.relpath(path)
    return path if rel.startswith(os.pardir) else rel


def warning(exe, n_tests):
    """The report's warning about a program that did not build."""
    f = exe.build_failure
    if f.step == "framework":
        why = "cannot be built (%s)" % f.status
    else:
        why = "does not %s against the implementation under test (%s)" % (f.step, f.status)
    return ("%s %s: its %d test%s reported BUILD-ERROR; the compiler's output is in %s"
            % (exe.source or exe.name, why, n_tests, " is" if n_tests == 1 else "s are",
               _shown(f.log_path)))
