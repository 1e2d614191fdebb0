# SPDX-License-Identifier: MIT
"""The target runner: how the harness starts a program built for another machine.

A test wrapper (./configure --with-test-wrapper='CMD', TEST_WRAPPER= on the
make line, run.py --test-wrapper) is a command put before every program the
runner starts: `CMD program args`.  It is an emulator (harness/wrappers/
qemu-user) or a script that runs the program on a board (harness/wrappers/
ssh-board).  A test that execs a new image (exec.* rules) execs it through the
same wrapper: the runner gives it in CT_EXEC_WRAPPER (conformance/tests/
ct_exec.h), since an image built for the target does not run here without it.

Time limits stretch by a factor the user gives (TIME_FACTOR, --time-factor):
an emulator or a small board is slower than the machine the limits were
measured on (harness/runner/timelimits.py).

Python 3 standard library only.
"""

import os
import shlex

# The wrapper's words; [] runs programs directly.
_wrapper = []


class WrapperError(Exception):
    pass


def parse(text):
    """The words of a wrapper command ('' or None: no wrapper)."""
    try:
        return shlex.split(text or "")
    except ValueError as e:
        raise WrapperError("test wrapper %r: %s" % (text, e))


def set_wrapper(words):
    global _wrapper
    _wrapper = list(words)


def wrapper():
    return list(_wrapper)


def wrapped(argv):
    """argv as the runner starts it: behind the test wrapper, if any."""
    return _wrapper + list(argv)


def runs_here():
    """Whether the programs run in processes of this machine that the runner
    can look at (runner/stuck.py): with no wrapper, or an emulator (a wrapper
    named qemu*: harness/wrappers/qemu-user execs the emulator, whose process
    is the program's).  Through a board runner (ssh-board) what runs here only
    waits for the board."""
    return not _wrapper or os.path.basename(_wrapper[0]).startswith("qemu")


def exec_env(env):
    """env with CT_EXEC_WRAPPER for the tests that exec a new image (its words
    joined by blanks: ct_exec.h splits it at blanks, without quotes)."""
    env = dict(env)
    if _wrapper:
        env["CT_EXEC_WRAPPER"] = " ".join(_wrapper)
    else:
        env.pop("CT_EXEC_WRAPPER", None)
    return env


def describe():
    return "through %s" % " ".join(shlex.quote(w) for w in _wrapper) if _wrapper else ""
