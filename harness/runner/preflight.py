# SPDX-License-Identifier: MIT
"""Before any test runs: can the test wrapper run what the tests need?

A test wrapper (harness/runner/target.py) that cannot run a threaded program
-- Debian's cross C library under qemu-user 7.2, where a five-line program
calling pthread_create dies of SIGSEGV -- makes dozens of rules FAIL against
a correct library: the vendor would be blamed for the emulator.  So, with a
wrapper, the runner first runs the preflight program (harness/profile/
preflight.c, built like the profile against the implementation under test):

    preflight thread    a thread writes a file, the program reads it back
    preflight trace     the same, the thread creating and shutting down a
                        trace stream first (posix_trace_create, pid 0)

each in a fresh folder, through the wrapper.  What fails there is run again
without the wrapper (unless the programs are built for another machine):

  thread fails through the wrapper, runs without it (or cannot be run
      here)                                  the wrapper is broken: stop
  trace fails through the wrapper, runs without it
                                             the wrapper is broken: stop
  it fails without the wrapper too           the implementation's (or the
                                             machine's): a warning, the
                                             tests judge it
  trace fails through the wrapper and cannot be run here
                                             cannot be told: a warning

A library whose posix_trace_create fails is thus never taken for a broken
wrapper, and a broken wrapper never for a library that fails.  Two or three
short programs: a few milliseconds natively, well under a second through an
emulator.  Python 3 standard library only.
"""

import os
import shutil
import tempfile

from runner import protocol, target

# The beginning of the message of a run stopped here (run.py exits 2).
BROKEN = "the test wrapper cannot run what the tests need: "
SOURCE = "harness/profile/preflight.c"

WHAT = {"thread": "a program that starts a thread and writes a file (%s thread)" % SOURCE,
        "trace": "a thread that creates and shuts down a trace stream for its process "
                 "(posix_trace_attr_init, posix_trace_create, posix_trace_shutdown: "
                 "%s trace)" % SOURCE}


def _attempt(argv, timeout, hang_idle):
    """Runs argv in a fresh folder: (True, ''), (False, how it failed), or
    (None, why) when it cannot be started at all."""
    work = tempfile.mkdtemp(prefix="posixtrace-preflight.")
    try:
        rc, _, err, how = protocol.run_program(argv, timeout, hang_idle, cwd=work,
                                               env=dict(os.environ, TMPDIR=work))
    except OSError as e:
        return None, "cannot run %s: %s" % (argv[0], e.strerror or e)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if how is not None:
        return False, how
    if rc != 0:
        said = [x for x in err.splitlines() if x.strip()]
        return False, protocol.describe_status(rc) + (": " + said[-1].strip() if said else "")
    return True, ""


def check(path, timeout, hang_idle=0, native=True):
    """Runs the preflight program path through the test wrapper (nothing
    without one).  Returns (stop, warnings): stop is the message to stop the
    run with (it starts with BROKEN) or None.  native: the programs are built
    for this machine (not cross-compiled), so that one that fails through the
    wrapper can be run without it."""
    if not target.wrapper():
        return None, []
    wrapper = " ".join(target.wrapper())
    for part in ("thread", "trace"):
        ok, how = _attempt(target.wrapped([path, part]), timeout, hang_idle)
        if ok:
            continue
        if native:
            alone, how_alone = _attempt([path, part], timeout, hang_idle)
        else:
            alone, how_alone = None, "built for another machine"
        if alone:
            return (BROKEN + "%s fails through '%s' (%s), and runs without it"
                    % (WHAT[part], wrapper, how)), []
        if alone is None and part == "thread":
            # Nothing of the implementation is called: the wrapper's.
            return (BROKEN + "%s fails through '%s' (%s; it cannot run here without the "
                    "wrapper: %s)" % (WHAT[part], wrapper, how, how_alone)), []
        if alone is None:
            return None, ["preflight: %s fails through the test wrapper '%s' (%s) and cannot "
                          "run here without it (%s): whether the wrapper or the implementation "
                          "is to blame cannot be told; the run goes on"
                          % (WHAT[part], wrapper, how, how_alone)]
        return None, ["preflight: %s fails with the test wrapper (%s) and without it (%s): "
                      "not the wrapper's doing; the run goes on and the tests judge it"
                      % (WHAT[part], how, how_alone)]
    return None, []
