# SPDX-License-Identifier: MIT
"""Is a test stuck?  A test is STUCK when every thread of every process of its
session (and of the processes those started, should one have left the
session) is asleep in a system call that has no time limit, and none of them
has run since the previous look: nothing inside the test can wake it any more.
A library that deadlocks or waits for an event nobody will send then ends in
a second, not at its time limit; a test that sleeps (nanosleep) or waits with
a time limit (timedgetnext's abstime, a poll with a timeout) is never stuck,
and neither is one with a thread that runs.

What each thread is doing comes from /proc/PID/task/TID/{stat,schedstat,
syscall}; the system call numbers and which argument makes each one wait
without a limit are the host's (x86_64, or aarch64's asm-generic table): the
runner runs on the host, and under qemu-user the test's process is the host's
emulator, whose waits are the host's.  Any doubt is "not stuck": a thread
that runs, is stopped, is in a system call not in the table or not in one,
a file that cannot be read, a 32-bit process, a thread that came or went.
On another architecture, or without /proc, there is no detection: the time
limit alone.

Blind spots, why --hang-idle is a second by default rather than a tick: a
wake-up from outside the session (a vendor's daemon answering on a socket,
a signal sent from elsewhere, an alarm() the test set: a pending timer is not
visible in /proc) and a socket's SO_RCVTIMEO are not seen.

Python 3 standard library only.
"""

import os
import time

START = 0.2             # seconds before the first look: most tests are over by then


def _always(a):
    return True


def _null(i):
    """Untimed when argument i (a timeout's address) is NULL."""
    return lambda a: a[i] == 0


def _negative(i):
    """Untimed when argument i (an int of milliseconds) is negative."""
    return lambda a: (a[i] & 0xffffffff) >= 0x80000000


FUTEX_CMD = 0x7f        # the op without FUTEX_PRIVATE_FLAG (128), FUTEX_CLOCK_REALTIME (256)
# FUTEX_WAIT, FUTEX_LOCK_PI, FUTEX_WAIT_BITSET, FUTEX_WAIT_REQUEUE_PI, FUTEX_LOCK_PI2:
# the waits of futex(2), their timeout the 4th argument.
FUTEX_WAITS = (0, 6, 9, 11, 13)
F_SETLKW, F_OFD_SETLKW = 7, 38


def _futex(a):
    return (a[1] & FUTEX_CMD) in FUTEX_WAITS and a[3] == 0


def _fcntl(a):
    return a[1] in (F_SETLKW, F_OFD_SETLKW)


# The system calls that can wait for ever, and when they do (arguments from 0).
# nanosleep, clock_nanosleep and restart_syscall are not here: a sleep always
# ends (restart_syscall may restart one).
UNTIMED = {
    "read": _always, "readv": _always, "pread64": _always, "preadv": _always,
    "preadv2": _always, "write": _always, "writev": _always, "pwrite64": _always,
    "pwritev": _always, "pwritev2": _always,
    "poll": _negative(2), "select": _null(4), "pselect6": _null(4), "ppoll": _null(2),
    "epoll_wait": _negative(3), "epoll_pwait": _negative(3), "epoll_pwait2": _null(3),
    "futex": _futex, "futex_waitv": _null(3),
    "wait4": _always, "waitid": _always,
    "pause": _always, "rt_sigsuspend": _always, "rt_sigtimedwait": _null(2),
    "semop": _always, "semtimedop": _null(3), "msgrcv": _always, "msgsnd": _always,
    "mq_timedreceive": _null(4), "mq_timedsend": _null(4),
    "accept": _always, "accept4": _always, "recvfrom": _always, "recvmsg": _always,
    "recvmmsg": _null(4), "sendto": _always, "sendmsg": _always,
    "flock": _always, "fcntl": _fcntl,
}

# The host's numbers: <asm/unistd_64.h> of x86_64; <asm-generic/unistd.h> of
# aarch64 (which has no poll, select, epoll_wait nor pause).
NUMBERS = {
    "x86_64": {
        "read": 0, "write": 1, "poll": 7, "pread64": 17, "pwrite64": 18, "readv": 19,
        "writev": 20, "select": 23, "pause": 34, "accept": 43, "sendto": 44,
        "recvfrom": 45, "sendmsg": 46, "recvmsg": 47, "wait4": 61, "semop": 65,
        "msgsnd": 69, "msgrcv": 70, "fcntl": 72, "flock": 73, "rt_sigtimedwait": 128,
        "rt_sigsuspend": 130, "futex": 202, "semtimedop": 220, "epoll_wait": 232,
        "mq_timedsend": 242, "mq_timedreceive": 243, "waitid": 247, "pselect6": 270,
        "ppoll": 271, "epoll_pwait": 281, "accept4": 288, "preadv": 295, "pwritev": 296,
        "recvmmsg": 299, "preadv2": 327, "pwritev2": 328, "epoll_pwait2": 441,
        "futex_waitv": 449},
    "aarch64": {
        "epoll_pwait": 22, "fcntl": 25, "flock": 32, "read": 63, "write": 64, "readv": 65,
        "writev": 66, "pread64": 67, "pwrite64": 68, "preadv": 69, "pwritev": 70,
        "pselect6": 72, "ppoll": 73, "waitid": 95, "futex": 98, "rt_sigsuspend": 133,
        "rt_sigtimedwait": 137, "mq_timedsend": 182, "mq_timedreceive": 183,
        "msgrcv": 188, "msgsnd": 189, "semtimedop": 192, "semop": 193, "accept": 202,
        "sendto": 206, "recvfrom": 207, "sendmsg": 211, "recvmsg": 212, "accept4": 242,
        "recvmmsg": 243, "wait4": 260, "preadv2": 286, "pwritev2": 287,
        "epoll_pwait2": 441, "futex_waitv": 449},
}


def table(machine=None):
    """{number: (name, untimed(args))} of the host (or of machine), or None."""
    numbers = NUMBERS.get(machine or os.uname().machine)
    if numbers is None:
        return None
    return {nr: (name, UNTIMED[name]) for name, nr in numbers.items()}


def untimed_wait(syscall_line, calls):
    """The name of the untimed wait a /proc/PID/task/TID/syscall line shows
    ('202 0x7f.. 0x80 0x0 0x0 ... sp pc'), or None ('running', '-1 sp pc': not
    in a system call, a call not in calls or one with a time limit)."""
    fields = syscall_line.split()
    if len(fields) < 7 or not fields[0].isdigit():
        return None
    call = calls.get(int(fields[0]))
    if call is None:
        return None
    args = [int(x, 16) for x in fields[1:7]]
    return call[0] if call[1](args) else None


def _read(path, size=4096):
    with open(path, "rb") as f:
        return f.read(size).decode("ascii", "replace")


def _stat_fields(text):
    """The fields of a stat line after 'pid (comm)': [state, ppid, pgrp, sid, ...]."""
    return text[text.rindex(")") + 2:].split()


def session_processes(sid):
    """The pids of the processes of session sid and of every process one of
    them started (a child that called setsid() is still the test's)."""
    children, members = {}, []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            f = _stat_fields(_read("/proc/%s/stat" % name))
        except (OSError, ValueError):
            continue                    # gone meanwhile
        pid = int(name)
        children.setdefault(int(f[1]), []).append(pid)
        if int(f[3]) == sid:
            members.append(pid)
    seen = set(members)
    todo = list(members)
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def _is_64_bit(pid):
    """Whether the process runs a 64-bit program (a 32-bit one has the other
    table of system calls)."""
    with open("/proc/%d/exe" % pid, "rb") as f:
        head = f.read(5)
    return head[:4] == b"\x7fELF" and head[4] == 2


def sample(sid, calls):
    """What the session is doing now: (waits, activity) when every live
    thread is asleep in an untimed wait -- waits the set of their system
    calls' names, activity {(pid, tid): how much it has run} -- or None."""
    waits, activity = set(), {}
    try:
        for pid in session_processes(sid):
            if not _is_64_bit(pid):
                return None
            for t in os.listdir("/proc/%d/task" % pid):
                base = "/proc/%d/task/%s/" % (pid, t)
                f = _stat_fields(_read(base + "stat"))
                if f[0] in ("Z", "X"):
                    continue            # a thread that has ended waits for nothing
                if f[0] not in ("S", "D"):
                    return None         # runs, or is stopped: not stuck
                wait = untimed_wait(_read(base + "syscall"), calls)
                if wait is None:
                    return None
                try:
                    # Time on the processor and the times it was scheduled:
                    # any wake-up, however short.
                    ran = _read(base + "schedstat")
                except OSError:
                    ran = " ".join(f[11:13])         # utime, stime: in ticks
                waits.add(wait)
                activity[(pid, t)] = ran
    except (OSError, ValueError, IndexError):
        return None                     # a process or thread went: not stuck
    return (waits, activity) if activity else None


class Watch:
    """Looks at a test's session now and then; says when it has been STUCK
    for idle seconds without a break."""

    def __init__(self, sid, idle, calls, started=None):
        self.sid, self.idle, self.calls = sid, idle, calls
        self.every = min(0.1, max(0.02, idle / 4.0))
        self.due = (time.monotonic() if started is None else started) + START
        self.since, self.last = None, None

    def check(self, now):
        """Looks if it is time to: the sorted names of the waits once the test
        has been stuck for idle seconds, else None."""
        if now < self.due:
            return None
        self.due = now + self.every
        s = sample(self.sid, self.calls)
        if s is None:
            self.since, self.last = None, None
            return None
        if self.last is None or s[1] != self.last[1]:
            self.since = now            # stuck from now on, if nothing moves
        self.last = s
        if now - self.since >= self.idle:
            return sorted(s[0])
        return None


def watch(pid, idle, started=None):
    """A Watch of the test whose process (a session leader) is pid, or None
    when there is no detection (idle 0, an unknown architecture, no /proc)."""
    if not idle or not os.path.isdir("/proc/self/task"):
        return None
    calls = table()
    return Watch(pid, idle, calls, started) if calls else None
