# SPDX-License-Identifier: MIT
"""Per-test time limits, and stopping early on a library that hangs.

Time limits.  conformance/timings.tsv (written by harness/tools/calibrate_timings.py,
'make calibrate-timings') holds each test's wall time measured on the
reference.  A test's limit is that time times FACTOR, at least FLOOR seconds,
so that a slow target, a loaded machine or valgrind does not make a correct
test time out; a test not in the table has the default limit (--timeout).
A library that hangs then costs each test seconds, not the old 10 s; one
that deadlocks (every process of the test blocked with no time limit,
runner/stuck.py) costs HANG_IDLE (--hang-idle) before it is ended as hung.

Stopping early.  When STOP_AFTER tests in a row (in the order they finish)
hang in the same trace function (time out, or are ended as stuck:
runner/stuck.py; protocol.Progress.in_call), the tests
started afterwards are told not to call it (CT_STOP_AT, read by ct.c): one
that is about to call it ends UNRESOLVED at once, saying so, and those that
never call it run as usual.  A library that hangs in posix_trace_start then
costs a few time limits in all, not one per test.  The same when STOP_AFTER
tests in a row hang outside the trace functions and the last trace call
each had made, and which had returned, was the same function (a library
whose posix_trace_create leaves the process to block afterwards): the
tests started afterwards are told not to call that function (CT_STOP_HUNG_AFTER),
and the message says that the tests hung after it returned.

Python 3 standard library only.
"""

import os
import threading

from runner.protocol import AFTER_WORDS, STOPPED

HANG_IDLE = 1.0         # seconds stuck (runner/stuck.py) before a test ends as hung
FACTOR = 10.0           # times the measured time
FLOOR = 2.0             # seconds, at least
STOP_AFTER = 3          # hangs in a row in one function


class TimingsError(Exception):
    pass


def read_timings(path):
    """{test id: measured seconds} from a timings table ('id TAB ms' a line,
    '#' comments); {} if there is no such file."""
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                fields = line.split("\t")
                try:
                    ms = float(fields[1])
                except (IndexError, ValueError):
                    raise TimingsError("%s:%d: expected 'test-id TAB milliseconds', got %r"
                                       % (path, n, line[:100]))
                out[fields[0]] = ms / 1000.0
    except FileNotFoundError:
        pass
    except OSError as e:
        raise TimingsError("cannot read %s: %s" % (path, e.strerror or e))
    return out


def write_timings(path, seconds):
    """Writes the table: {test id: seconds}, sorted by id."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("# Wall time of each conformance test against the reference, in ms (the\n"
                "# most of several runs).  harness/run.py gives each test %g times this,\n"
                "# at least %g s (harness/runner/timelimits.py); regenerate with\n"
                "# 'make calibrate-timings' (harness/tools/calibrate_timings.py).\n"
                % (FACTOR, FLOOR))
        for tid in sorted(seconds):
            f.write("%s\t%d\n" % (tid, max(1, round(seconds[tid] * 1000))))
    os.replace(tmp, path)


class Limits:
    """The time limit of each test."""

    def __init__(self, timings, default, factor=FACTOR, floor=FLOOR, stretch=1.0):
        self.timings, self.default = timings, default
        self.factor, self.floor = factor, floor
        # The user's time factor (TIME_FACTOR, --time-factor): a slow target
        # or an emulator (harness/runner/target.py) stretches every limit.
        self.stretch = stretch

    def of(self, test_id):
        measured = self.timings.get(test_id)
        if measured is None:
            return round(self.stretch * self.default, 1)
        return round(self.stretch * max(self.floor, self.factor * measured), 1)

    def describe(self, origin):
        times = "; all times %g" % self.stretch if self.stretch != 1.0 else ""
        if not self.timings:
            return "%g s time limit%s" % (self.default, times)
        return ("time limits %g x the reference's (%s), at least %g s; %g s for tests not in "
                "it%s" % (self.factor, origin, self.floor, self.default, times))


class HangWatch:
    """Counts hangs in a row in the same function, or after the same function
    had returned (a hang outside the trace functions: Progress.after_call);
    past STOP_AFTER, the function is one the tests started afterwards must
    not call."""

    def __init__(self, stop_after=STOP_AFTER):
        self.stop_after = stop_after
        self.lock = threading.Lock()
        self.streak_function, self.streak = None, []
        self.stopped = {}            # function -> the test ids that hung in it
        self.stopped_after = {}      # function -> the test ids that hung after it returned

    def stop_at(self):
        """The value of CT_STOP_AT for a test starting now ('' for none)."""
        with self.lock:
            return ",".join(sorted(self.stopped))

    def stop_hung_after(self):
        """The value of CT_STOP_HUNG_AFTER for a test starting now ('' for none):
        the functions after whose return tests hung, not already in
        CT_STOP_AT."""
        with self.lock:
            return ",".join(sorted(set(self.stopped_after) - set(self.stopped)))

    def finished(self, test_id, run):
        """Takes the result of a test (a protocol.run_test dict)."""
        if not self.stop_after:
            return
        # ("in", f): hung in f; ("after", f): hung outside the trace
        # functions, f the last call, which had returned.
        if run.get("hung_in") is not None:
            hung = ("in", run["hung_in"])
        elif run.get("hung_after") is not None:
            hung = ("after", run["hung_after"])
        else:
            hung = None
        with self.lock:
            if hung is None:
                self.streak_function, self.streak = None, []
                return
            if hung != self.streak_function:
                self.streak_function, self.streak = hung, []
            self.streak.append(test_id)
            stopped = self.stopped if hung[0] == "in" else self.stopped_after
            if len(self.streak) >= self.stop_after and hung[1] not in stopped:
                stopped[hung[1]] = list(self.streak)

    def explain(self, run):
        """Adds to the message of a test that ct.c stopped before a call
        (CT_STOP_AT, CT_STOP_HUNG_AFTER) the tests that had hung in the function
        or after it returned."""
        msg = run.get("message", "")
        if run.get("result") != "UNRESOLVED" or not msg.startswith(STOPPED):
            return
        function, rest = (msg[len(STOPPED):].split(" ", 1) + [""])[:2]
        if rest.startswith(AFTER_WORDS):
            hung, how = self.stopped_after.get(function), "after %s returned" % function
        else:
            hung, how = self.stopped.get(function), "in %s" % function
        if hung:
            run["message"] = msg + " [%s hung %s]" % (", ".join(hung), how)

    def warnings(self):
        return ["%d tests in a row hung in %s (%s): the tests started afterwards "
                "stopped before calling it (UNRESOLVED)" % (len(ids), f, ", ".join(ids))
                for f, ids in sorted(self.stopped.items())] + \
            ["%d tests in a row hung outside the trace functions after %s had returned (%s): "
             "the tests started afterwards stopped before calling it (UNRESOLVED)"
             % (len(ids), f, ", ".join(ids)) for f, ids in sorted(self.stopped_after.items())]
