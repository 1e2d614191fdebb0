# SPDX-License-Identifier: MIT
"""A test that is stuck ends as hung, fast; one that sleeps, waits with a time
limit or has a process at work does not (harness/runner/stuck.py, run.py
--hang-idle; issue 16, item 4: "a hang mutant is detected as such, fast").

The fake program fixtures/fake_hangs.py blocks for ever in read(2), in a
lock's futex(2) and in waitpid(2) for a blocked child; sleeps longer than
--hang-idle; waits on a futex with a time limit; waits for a busy child; waits
for a thread that sleeps first; and spins, which only the time limit ends.
Run: /usr/bin/python3 -m pytest harness/tests/test_hang_detection.py
"""

import os
import re

import pytest

from conftest import FIXTURES, fake_tree, load, run_runner

from runner import protocol, stuck, target

HANGS = os.path.join(FIXTURES, "fake_hangs.py")

# The slow tier ('make check-full'; conftest.py): each test waits for fake tests that hang.
pytestmark = pytest.mark.slow
IDLE, LIMIT, NAP = 0.5, 3, 1.5          # NAP: longer than IDLE, shorter than LIMIT
needs_detection = pytest.mark.skipif(
    stuck.table() is None or not os.path.isdir("/proc/self/task"),
    reason="no detection of stuck tests on %s (the time limit alone)" % os.uname().machine)


def by_id(doc):
    return {t["id"]: t for t in doc["tests"]}


def run_hangs(fake_env, *args):
    env = dict(fake_env, fake=HANGS)
    p = run_runner(env, "--no-timings", "--timeout", str(LIMIT), "-j", "4", "--allow-fail",
                   *args, extra_env={"FAKE_NAP": str(NAP)})
    assert p.returncode == 0, p.stdout + p.stderr
    return by_id(load(env))


@pytest.fixture(scope="module")
def hangs(tmp_path_factory):
    return run_hangs(fake_tree(tmp_path_factory.mktemp("hangs")), "--hang-idle", str(IDLE))


@needs_detection
@pytest.mark.parametrize("tid,waits", [("hang.read", "read"), ("hang.lock", "futex"),
                                       ("hang.waitpid", "read, wait4")])
def test_a_stuck_test_ends_as_hung_well_before_its_limit(hangs, tid, waits):
    t = hangs[tid]
    assert t["result"] == "UNRESOLVED" and t["status"] == {"hung": IDLE}, t
    assert t["message"] == "hung: every process of the test blocked with no time limit " \
        "for %g s (%s)" % (IDLE, waits)
    # Stuck from its start: ended after the first look (0.2 s) and IDLE,
    # with room for a loaded 2-core machine (CI runs valgrind and the
    # mutants beside this tier: 1.7-2.0 s seen), still half a second before
    # the limit a timed-out test would take.
    assert t["duration_ms"] < 1000 * (LIMIT - 0.5), t
    assert 1000 * (stuck.START + IDLE) < 1000 * (LIMIT - 0.5)


@needs_detection
@pytest.mark.parametrize("tid", ["ok.nap", "ok.timed_wait", "ok.busy_child",
                                 "ok.sleep_then_wake"])
def test_sleeping_timed_waits_and_work_are_not_stuck(hangs, tid):
    t = hangs[tid]
    assert t["result"] == "PASS" and t["status"] == {"exit": 0}, t
    assert t["duration_ms"] >= 1000 * NAP * 0.9, t           # it did wait that long


def test_a_spinning_hang_reaches_the_time_limit(hangs):
    t = hangs["hang.spin"]
    assert t["result"] == "UNRESOLVED" and t["status"] == {"timeout": LIMIT}, t
    assert t["message"] == "timed out after %g s" % LIMIT


def test_hang_idle_0_leaves_the_time_limit_alone(fake_env):
    t = run_hangs(fake_env, "--hang-idle", "0", "--test", "hang.read")["hang.read"]
    assert t["status"] == {"timeout": LIMIT} and t["message"].startswith("timed out after")


def test_through_a_wrapper_that_runs_elsewhere_no_detection(fake_env):
    """env(1) stands for a board runner (ssh-board): what runs here only waits."""
    t = run_hangs(fake_env, "--hang-idle", str(IDLE), "--test", "hang.read",
                  "--test-wrapper", "env")["hang.read"]
    assert t["status"] == {"timeout": LIMIT}, t


def test_which_wrappers_run_here():
    try:
        for words, here in (([], True), (["/src/harness/wrappers/qemu-user"], True),
                            (["qemu-aarch64-static", "-L", "/x"], True),
                            (["/src/harness/wrappers/ssh-board"], False), (["env"], False)):
            target.set_wrapper(words)
            assert target.runs_here() is here, words
    finally:
        target.set_wrapper([])


def test_negative_hang_idle_is_refused(fake_env):
    p = run_runner(dict(fake_env, fake=HANGS), "--hang-idle", "-1")
    assert p.returncode == 2 and "--hang-idle must be 0 or more" in p.stderr


# ---- the table of untimed waits -----------------------------------------------------------


def line(nr, *args):
    args = list(args) + [0] * (6 - len(args))
    return "%d %s 0x7ffc0000 0x7f000000\n" % (nr, " ".join("0x%x" % a for a in args))


X86, ARM = stuck.table("x86_64"), stuck.table("aarch64")
NULL, PTR, FOREVER = 0, 0x7ffd1234, 0xffffffffffffffff


@pytest.mark.parametrize("calls,text,wait", [
    (X86, line(202, PTR, 0x80, 2, NULL), "futex"),              # FUTEX_WAIT|PRIVATE
    (X86, line(202, PTR, 0x89, 2, NULL), "futex"),              # FUTEX_WAIT_BITSET|PRIVATE
    (X86, line(202, PTR, 0x189, 2, PTR), None),                 # ... with an abstime
    (X86, line(202, PTR, 0x81, 1, NULL), None),                 # FUTEX_WAKE
    (X86, line(0, 3, PTR, 1), "read"),
    (X86, line(61, FOREVER, PTR, 0), "wait4"),
    (X86, line(7, PTR, 1, 0xffffffff), "poll"),                 # timeout -1 (32 bits)
    (X86, line(7, PTR, 1, FOREVER), "poll"),                    # ... sign-extended
    (X86, line(7, PTR, 1, 100), None),
    (X86, line(271, PTR, 1, NULL), "ppoll"),
    (X86, line(271, PTR, 1, PTR), None),
    (X86, line(232, 4, PTR, 8, FOREVER), "epoll_wait"),
    (X86, line(34), "pause"),
    (X86, line(128, PTR, PTR, NULL), "rt_sigtimedwait"),
    (X86, line(128, PTR, PTR, PTR), None),
    (X86, line(72, 3, 7, PTR), "fcntl"),                        # F_SETLKW
    (X86, line(72, 3, 6, PTR), None),                           # F_SETLK
    (X86, line(243, 3, PTR, 8, PTR, NULL), "mq_timedreceive"),
    (X86, line(35, PTR, NULL), None),                           # nanosleep
    (X86, line(230, 1, 1, PTR, NULL), None),                    # clock_nanosleep
    (X86, line(219), None),                                     # restart_syscall
    (X86, "running\n", None),
    (X86, "-1 0x7ffc0000 0x7f000000\n", None),                  # blocked, not in a call
    (ARM, line(98, PTR, 0x80, 2, NULL), "futex"),
    (ARM, line(63, 3, PTR, 1), "read"),
    (ARM, line(73, NULL, 0, NULL, NULL, 8), "ppoll"),           # pause() on aarch64
    (ARM, line(260, FOREVER, PTR, 0), "wait4"),
    (ARM, line(101, PTR, NULL), None),                          # nanosleep
    (ARM, line(115, 1, 1, PTR, NULL), None),                    # clock_nanosleep
    (ARM, line(0), None),                                       # io_setup, not x86's read
])
def test_untimed_waits(calls, text, wait):
    assert stuck.untimed_wait(text, calls) == wait


def test_no_table_for_other_architectures():
    assert stuck.table("riscv64") is None and stuck.table("s390x") is None


@pytest.mark.parametrize("machine,header,prefix", [
    ("x86_64", "/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "__NR_"),
    ("aarch64", "/usr/include/asm-generic/unistd.h", "__NR(?:3264)?_")])
def test_numbers_match_the_kernel_headers(machine, header, prefix):
    if not os.path.exists(header):
        pytest.skip("no %s" % header)
    with open(header) as f:
        text = f.read()
    for name, nr in stuck.NUMBERS[machine].items():
        m = re.search(r"#define\s+%s%s\s+(\d+)\b" % (prefix, name), text)
        assert m and int(m.group(1)) == nr, (machine, name, nr)


@needs_detection
def test_a_program_outside_the_tests_too():
    """protocol.run_program: how run.py runs the profile program."""
    rc, out, _, how = protocol.run_program([HANGS, "--run", "hang.read"], LIMIT, IDLE)
    assert how == "hung: every process of the test blocked with no time limit for %g s (read)" \
        % IDLE and rc < 0
    rc, out, _, how = protocol.run_program([HANGS, "--run", "hang.spin"], 1, IDLE)
    assert how == "timed out after 1 s"
    rc, out, _, how = protocol.run_program([HANGS, "--run", "ok.timed_wait"], LIMIT, 0.05)
    assert how is None and rc == 0 and "RESULT PASS" in out
