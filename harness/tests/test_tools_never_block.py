# SPDX-License-Identifier: MIT
"""The tools never block on what they cannot read (issue 20 item 6): given a
FIFO nobody writes to, a socket or a device, tracedump says so at once and
exits 2; tracesim --verify refuses such an output before it runs.  Each run
has a short time limit: a tool that opens the FIFO without O_NONBLOCK hangs
in open() and the test fails on the timeout instead of hanging itself.
"""

import os
import socket
import subprocess

import pytest

from conftest import REPO

BIN = os.path.join(REPO, "build", "bin")
TRACEDUMP = os.path.join(BIN, "tracedump")
TRACESIM = os.path.join(BIN, "tracesim")
LIMIT = 10          # seconds: the answer must come at once; this only ends a hang

pytestmark = pytest.mark.skipif(not os.access(TRACEDUMP, os.X_OK),
                                reason="build/bin/tracedump is not built ('make')")


def run(*cmd):
    try:
        return subprocess.run(list(cmd), capture_output=True, text=True, timeout=LIMIT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{cmd[0]} blocked for {LIMIT} s on {cmd[-1]}")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return str(path)


@pytest.fixture
def sock(tmp_path):
    path = str(tmp_path / "sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(1)
    yield path
    s.close()


def refused(out, kind):
    assert out.returncode == 2, out.stderr
    assert kind in out.stderr and "not a regular file" in out.stderr, out.stderr
    assert out.stdout == ""


def test_tracedump_fifo_nobody_writes_to(fifo):
    refused(run(TRACEDUMP, fifo), "a FIFO")


def test_tracedump_socket(sock):
    refused(run(TRACEDUMP, sock), "a socket")


@pytest.mark.parametrize("dev", ["/dev/null", "/dev/zero"])
def test_tracedump_device(dev):
    if not os.path.exists(dev):
        pytest.skip(f"{dev} does not exist here")
    refused(run(TRACEDUMP, dev), "a character device")


def test_tracedump_directory(tmp_path):
    refused(run(TRACEDUMP, str(tmp_path)), "a directory")


def test_tracesim_verify_refuses_a_fifo_output(fifo):
    out = run(TRACESIM, "-q", "--events", "10", "--verify", "-o", fifo)
    assert out.returncode == 2, out.stderr
    assert "not a regular file" in out.stderr
