# SPDX-License-Identifier: MIT
"""The test protocol between the runner and a test executable.

Every test executable (a portable test program built from
conformance/tests/<name>.c, or the vector interpreter) answers:

    EXE [PREFIX...] --list        one line per test:
                                  <test-id> TAB <rule-id>[,<rule-id>...] TAB <options>
                                  [TAB <function>[,<function>...]]
    EXE [PREFIX...] --run ID      runs that test in this process; exit status 0 PASS,
                                  1 FAIL, 2 UNRESOLVED, 3 UNSUPPORTED, 4 UNTESTED, and
                                  the last line on stdout is RESULT <CODE> <message>

This module parses --list, runs one test in a process (and process group) of
its own with a time limit, and turns what happened into a result and a
one-line message.  Python 3 standard library only.
"""

import errno
import math
import os
import re
import select
import signal
import subprocess
import threading
import time

from runner import stuck, target

CODES = ("PASS", "FAIL", "UNRESOLVED", "UNSUPPORTED", "UNTESTED")
OPTIONS = ("TRC", "TEF", "TRI", "TRL", "KSP")

# Kept of a test's output for the report: the start and the end.
OUTPUT_HEAD = 2048
OUTPUT_TAIL = 2048

_ID_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:/+-]*$")
_FUNC_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# Test processes running now, so that an interrupted run can end them.
_live = set()
_live_lock = threading.Lock()


def kill_running():
    """Kills the process groups of the tests running now (on an interrupt)."""
    with _live_lock:
        procs = list(_live)
    for p in procs:
        _kill_group(p)


class ProtocolError(Exception):
    """An executable broke the protocol (bad --list output, cannot run, ...)."""


class Executable:
    """A test program: its path and the arguments that come before --list/--run."""

    def __init__(self, path, prefix=(), name=None, source=None):
        self.path = os.path.abspath(path)
        self.prefix = list(prefix)
        self.name = name or os.path.basename(path)
        self.source = source        # the .c file it was built from, if known
        self.build_failure = None   # a build_results.BuildFailure: it did not build

    def argv(self, *args):
        # Behind the test wrapper (harness/runner/target.py), if one is set.
        return target.wrapped([self.path] + self.prefix + list(args))

    def __repr__(self):
        return "Executable(%r)" % self.path


class TestCase:
    """One line of --list."""

    def __init__(self, id, rules, options, functions, exe, line):
        self.id = id
        self.rules = rules
        self.options = options
        self.functions = functions
        self.exe = exe
        self.line = line            # its line number in the --list output

    def to_json(self):
        return {"id": self.id, "rules": list(self.rules), "options": list(self.options),
                "functions": list(self.functions), "executable": self.exe.name}


def _split_list(field):
    return [x.strip() for x in field.split(",") if x.strip()]


def parse_list(text, exe):
    """Parses the --list output of exe; raises ProtocolError naming the line."""
    tests = []
    errors = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        where = "%s --list, line %d" % (exe.name, n)
        fields = line.split("\t")
        if len(fields) not in (3, 4):
            errors.append("%s: expected 3 or 4 tab-separated fields (id, rules, options"
                          "[, functions]), got %d: %r" % (where, len(fields), line[:200]))
            continue
        tid = fields[0].strip()
        rules = _split_list(fields[1])
        options = _split_list(fields[2])
        functions = _split_list(fields[3]) if len(fields) == 4 else []
        bad = []
        if not _ID_RE.match(tid):
            bad.append("bad test id %r" % tid)
        if not rules:
            bad.append("no rule id")
        bad += ["bad rule id %r" % r for r in rules if not _ID_RE.match(r)]
        if not options:
            bad.append("no option")
        bad += ["unknown option %r (expected %s)" % (o, ", ".join(OPTIONS))
                for o in options if o not in OPTIONS]
        bad += ["bad function name %r" % f for f in functions if not _FUNC_RE.match(f)]
        if bad:
            errors.append("%s (test %s): %s" % (where, tid or "?", "; ".join(bad)))
            continue
        tests.append(TestCase(tid, rules, options, functions, exe, n))
    if errors:
        raise ProtocolError("\n".join(errors))
    return tests


def list_tests(exe, timeout=30.0):
    """Runs EXE --list; returns its TestCases or raises ProtocolError."""
    argv = exe.argv("--list")
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ProtocolError("%s --list did not finish within %g s" % (exe.name, timeout))
    except OSError as e:
        raise ProtocolError("cannot run %s: %s" % (exe.path, e.strerror or e))
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode != 0:
        how = describe_status(p.returncode)
        raise ProtocolError("%s --list failed (%s)%s" % (
            exe.name, how, (": " + err.splitlines()[-1]) if err else ""))
    return parse_list(out, exe)


def signal_name(num):
    try:
        return signal.Signals(num).name
    except ValueError:
        return "signal %d" % num


def describe_status(returncode):
    if returncode < 0:
        return "killed by signal %s" % signal_name(-returncode)
    return "exit status %d" % returncode


def truncate_output(text, head=OUTPUT_HEAD, tail=OUTPUT_TAIL):
    if len(text) <= head + tail:
        return text
    omitted = len(text) - head - tail
    return "%s\n[... %d characters omitted ...]\n%s" % (text[:head], omitted, text[-tail:])


_RESULT_RE = re.compile(r"^RESULT (\S+)(?: (.*))?$")


def _last_result_line(stdout):
    """The last 'RESULT <CODE> <message>' line of stdout, as (code, message,
    is_last) where is_last says that only blank lines follow it; or None."""
    lines = [x.rstrip("\r") for x in stdout.splitlines()]
    for i in range(len(lines) - 1, -1, -1):
        m = _RESULT_RE.match(lines[i])
        if m:
            is_last = all(not x.strip() for x in lines[i + 1:])
            return m.group(1), (m.group(2) or "").strip(), is_last
    return None


# ---- where a test was: its notes in the CT_PROGRESS file (ct_notes.h) -----------

# The beginning of the message of a test stopped before a call (ct.c, CT_STOP_AT
# and CT_STOP_HUNG_AFTER); after it, the function, then AFTER_WORDS when the
# tests had hung after it returned (CT_STOP_HUNG_AFTER).
STOPPED = "not run to the end: "
AFTER_WORDS = "returned and then the test hung"
NOTE_SIZE = 256         # CT_NOTE of ct_notes.h: the call note, then the check note


class Progress:
    """What a test's last notes say (conformance/tests/ct_notes.h): the trace
    call it was in or had last returned from, the last check that passed."""

    def __init__(self, call_state=None, function=None, call_at=None, check_at=None,
                 checks=None):
        self.call_state, self.function, self.call_at = call_state, function, call_at
        self.check_at, self.checks = check_at, checks

    @property
    def in_call(self):
        """The function the test was in when it was stopped, or None."""
        return self.function if self.call_state == "call" else None

    @property
    def after_call(self):
        """The function the test had last called, and which had returned,
        when it was stopped outside the trace functions; or None."""
        return self.function if self.call_state == "returned" else None

    def where(self):
        """' in posix_trace_start (start.c:40); last check passed: start.c:38
        (5 checks)', or '' when there is no note."""
        parts = []
        if self.call_state == "call":
            text = " in %s (%s)" % (self.function, self.call_at)
        elif self.call_state == "returned":
            text = " outside the trace functions (the last call, %s at %s, had returned)" % (
                self.function, self.call_at)
        else:
            text = ""
        if self.check_at:
            parts.append("last check passed: %s (%s check%s)" % (
                self.check_at, self.checks, "" if self.checks == "1" else "s"))
        elif self.call_state:
            parts.append("no check passed yet")
        return text + ("; " + "; ".join(parts) if parts else "")


def _note(data, n):
    return data[n * NOTE_SIZE:(n + 1) * NOTE_SIZE].split(b"\0", 1)[0].decode(
        "utf-8", "replace").split(" ", 2)         # the place may hold a space


def read_progress(path):
    """The Progress in the file a test kept its notes in (an empty one if
    there is none: a program that keeps no notes, or made no trace call)."""
    try:
        with open(path, "rb") as f:
            data = f.read(2 * NOTE_SIZE)
    except OSError:
        return Progress()
    call, check = _note(data, 0), _note(data, 1)
    p = Progress()
    if len(call) == 3 and call[0] in ("call", "returned", "stopped", "stopped-after"):
        p.call_state, p.function, p.call_at = call
    if len(check) == 3 and check[0] == "check":
        p.check_at, p.checks = check[1], check[2]
    return p


_RULE_RESULT_RE = re.compile(r"^RULE-RESULT (\S+) (\S+)(?: (.*))?$")
_RANK = {"FAIL": 0, "UNRESOLVED": 1, "PASS": 2, "UNSUPPORTED": 3, "UNTESTED": 4}


def rule_results(stdout, rules, result):
    """The test's result for each of its rules, from its 'RULE-RESULT <rule>
    <CODE> <message>' lines ({rule: {"result", "message"}}), or {} when it
    printed none or they cannot be trusted: then its RESULT holds for every
    rule.  A failure blames the rule its check names, and only that rule; so
    the lines count only when the test ended by itself (result from its RESULT
    line) and the worst of them is that result."""
    found = {}
    for line in stdout.splitlines():
        m = _RULE_RESULT_RE.match(line.rstrip("\r"))
        if m and m.group(1) in rules and m.group(2) in CODES:
            found[m.group(1)] = {"result": m.group(2), "message": (m.group(3) or "").strip()}
    if not found:
        return {}
    worst = min((v["result"] for v in found.values()), key=lambda c: _RANK[c])
    if result not in ("PASS", "FAIL", "UNRESOLVED") or worst != result:
        return {}
    return found


# The beginning of the message of a test ended as stuck (runner/stuck.py).
HUNG = "hung: every process of the test blocked with no time limit for "


def interpret(returncode, stdout, timed_out, timeout, progress=None, hung=None):
    """What a test's process did -> (result code, one-line message).  A test
    that timed out, hung (hung: (idle seconds, the names of its waits)) or was
    killed by a signal is placed by its notes."""
    where = progress.where() if progress is not None else ""
    if hung:
        return "UNRESOLVED", "%s%g s (%s)%s" % (HUNG, hung[0], ", ".join(hung[1]), where)
    if timed_out:
        return "UNRESOLVED", "timed out after %g s%s" % (timeout, where)
    found = _last_result_line(stdout)
    if returncode < 0:
        msg = "killed by signal %s%s" % (signal_name(-returncode), where)
        if found:
            msg += " (after printing RESULT %s %s)" % (found[0], found[1])
        return "FAIL", msg
    if found is None:
        if 0 <= returncode <= 4:
            return "UNRESOLVED", ("exited with status %d (%s) without printing a RESULT line"
                                  % (returncode, CODES[returncode]))
        return "UNRESOLVED", "exited with status %d without printing a RESULT line" % returncode
    code, message, last = found
    if code not in CODES:
        return "UNRESOLVED", "bad RESULT line: unknown code %r (exit status %d)" % (
            code, returncode)
    if not 0 <= returncode <= 4:
        return "UNRESOLVED", "exited with status %d after RESULT %s %s" % (
            returncode, code, message)
    if CODES[returncode] != code:
        return "UNRESOLVED", ("exit status %d (%s) contradicts its RESULT line: %s %s"
                              % (returncode, CODES[returncode], code, message))
    if not last:
        message += " [output followed the RESULT line]"
    return code, message


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


class _Capture(threading.Thread):
    """Reads a pipe to its end, keeping its first and last bytes only, so that
    a test that floods its output costs no memory."""

    def __init__(self, pipe, head=64 * 1024, tail=64 * 1024):
        super().__init__(daemon=True)
        self.pipe, self.head_max, self.tail_max = pipe, head, tail
        self.head, self.tail, self.dropped = bytearray(), bytearray(), 0
        self.start()

    def run(self):
        try:
            while True:
                chunk = self.pipe.read1(65536) if hasattr(self.pipe, "read1") \
                    else self.pipe.read(65536)
                if not chunk:
                    break
                room = self.head_max - len(self.head)
                if room > 0:
                    self.head += chunk[:room]
                    chunk = chunk[room:]
                if chunk:
                    self.tail += chunk
                    if len(self.tail) > self.tail_max:
                        cut = len(self.tail) - self.tail_max
                        self.dropped += cut
                        del self.tail[:cut]
        except (OSError, ValueError):
            pass

    def text(self):
        h = self.head.decode("utf-8", "replace")
        t = self.tail.decode("utf-8", "replace")
        if self.dropped:
            return "%s\n[... %d bytes omitted ...]\n%s" % (h, self.dropped, t)
        return h + t


# Waiting for a process: on its pidfd (Linux 5.3, Python 3.9), which wakes
# when it ends; where there is none, Popen.wait's polling (its sleeps grow to
# 50 ms: a test of 3 ms was seen ending at 6).
_pidfd_works = hasattr(os, "pidfd_open") and hasattr(select, "poll")


def _open_pidfd(pid):
    global _pidfd_works
    if not _pidfd_works:
        return None
    try:
        return os.pidfd_open(pid)
    except OSError as e:
        if e.errno in (errno.ENOSYS, errno.EPERM, errno.EACCES, errno.EINVAL):
            _pidfd_works = False        # this kernel, or its sandbox, has none
        return None


def _ended(proc, pidfd, seconds):
    """Waits at most seconds for proc to end (and reaps it): whether it did."""
    if pidfd is None:
        try:
            proc.wait(timeout=seconds)
            return True
        except subprocess.TimeoutExpired:
            return False
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    if not poller.poll(max(0, math.ceil(seconds * 1000))):
        return False
    proc.wait()
    return True


def wait_test(proc, timeout, hang_idle=0, started=None):
    """Waits for a test's process, a session leader, to end: None if it did,
    "timeout" after timeout seconds, or (hang_idle, waits) once it has been
    stuck (runner/stuck.py) for hang_idle seconds (0: never)."""
    started = time.monotonic() if started is None else started
    deadline = started + timeout
    watch = stuck.watch(proc.pid, hang_idle, started)
    pidfd = _open_pidfd(proc.pid)
    try:
        while True:
            now = time.monotonic()
            if now >= deadline:
                return "timeout"
            step = deadline - now
            if watch is not None:
                step = min(step, max(0.0, watch.due - now))
            if _ended(proc, pidfd, step):
                return None
            if watch is not None:
                waits = watch.check(time.monotonic())
                if waits:
                    return (hang_idle, waits)
    finally:
        if pidfd is not None:
            os.close(pidfd)


def run_program(argv, timeout, hang_idle=0, cwd=None, env=None):
    """Runs argv in a session of its own, as a test is run (its output read as
    it comes, ended at timeout or once stuck for hang_idle seconds); returns
    (returncode, stdout, stderr, how): how is None if it ended by itself,
    else the beginning of a message ("timed out after 5 s", "hung: ...").
    Raises OSError if it cannot be started."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True, cwd=cwd,
                            env=env)
    out, err = _Capture(proc.stdout, head=1 << 22), _Capture(proc.stderr)
    ended = wait_test(proc, timeout, hang_idle)
    if ended is not None:
        _kill_group(proc)
        proc.wait()
    for c in (out, err):
        c.join(5)
        c.pipe.close()
    how = None if ended is None else interpret(0, "", True, timeout, hung=(
        ended if isinstance(ended, tuple) else None))[1]
    return proc.returncode, out.text(), err.text(), how


def run_test(test, timeout, env=None, cwd=None, progress_path=None, hang_idle=0):
    """Runs one test in a process group of its own.  Returns a dict:
    result, message, duration_ms, status ({"exit": n} | {"signal": name} |
    {"timeout": s} | {"hung": s} | {"error": text}), output (stdout and
    stderr, truncated), hung_in: the trace function it timed out or hung
    in (or None), and hung_after: the trace function it had last called,
    which had returned, when it timed out or hung outside the trace
    functions (or None).  A test stuck for hang_idle seconds (runner/stuck.py; 0:
    never) ends as hung, before its time limit.  With progress_path, the test
    keeps its notes there (CT_PROGRESS): a test that times out, hangs or
    crashes is reported with where it was."""
    argv = test.exe.argv("--run", test.id)
    if progress_path is not None:
        env = dict(os.environ if env is None else env, CT_PROGRESS=progress_path)
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                                start_new_session=True)
    except OSError as e:
        return {"result": "UNRESOLVED", "message": "cannot run %s: %s" % (
                    test.exe.path, e.strerror or e),
                "duration_ms": 0, "status": {"error": str(e)}, "output": "", "hung_in": None,
                "hung_after": None}
    with _live_lock:
        _live.add(proc)
    try:
        out, err = _Capture(proc.stdout), _Capture(proc.stderr)
        ended = wait_test(proc, timeout, hang_idle)
        timed_out, hung = ended == "timeout", ended if isinstance(ended, tuple) else None
        if ended is not None:
            _kill_group(proc)
            proc.wait()
        # The pipes end when every process holding them has gone.  Processes
        # the test left behind in its group are ended; one that left the
        # group may keep the pipes open: do not wait for it long.
        out.join(0.5)
        err.join(0.5)
        if out.is_alive() or err.is_alive():
            _kill_group(proc)
            out.join(5)
            err.join(5)
    finally:
        with _live_lock:
            _live.discard(proc)
    duration_ms = int(round((time.monotonic() - start) * 1000))
    stdout = out.text()
    stderr = err.text()
    if out.is_alive() or err.is_alive():
        stderr += "\n(output cut: a process left behind by the test kept its pipes open)"
    for pipe in (proc.stdout, proc.stderr):
        try:
            pipe.close()
        except OSError:
            pass
    rc = proc.returncode
    progress = None
    if progress_path is not None and (timed_out or hung or rc != 0):
        progress = read_progress(progress_path)
    result, message = interpret(rc, stdout, timed_out, timeout, progress, hung)
    if progress is not None and progress.call_state in ("stopped", "stopped-after") \
            and not message.startswith(STOPPED):
        # A process the test forked stopped before the call (CT_STOP_AT,
        # CT_STOP_HUNG_AFTER): its parent's message is only the consequence.
        result = "UNRESOLVED"
        why = "hung in several tests in a row" if progress.call_state == "stopped" else \
            AFTER_WORDS + " in several tests in a row"
        message = "%s%s %s, and a process of this test was " \
            "about to call it (%s; stopped before the call), so: %s" % (
                STOPPED, progress.function, why, progress.call_at, message)
    if hung:
        status = {"hung": hung[0]}
    elif timed_out:
        status = {"timeout": timeout}
    elif rc < 0:
        status = {"signal": signal_name(-rc)}
    else:
        status = {"exit": rc}
    output = stdout
    if stderr.strip():
        output += ("\n" if output and not output.endswith("\n") else "") + \
            "--- stderr ---\n" + stderr
    gone = timed_out or hung
    by_rule = {} if gone or rc < 0 else rule_results(stdout, test.rules, result)
    return {"result": result, "message": message, "duration_ms": duration_ms,
            "status": status, "output": truncate_output(output), "rule_results": by_rule,
            "hung_in": progress.in_call if gone and progress is not None else None,
            "hung_after": progress.after_call if gone and progress is not None else None}
