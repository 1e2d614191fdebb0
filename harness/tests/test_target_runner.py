# SPDX-License-Identifier: MIT
"""The target runner (harness/runner/target.py, issue 14): programs started through a
test wrapper, time limits stretched, and the two wrappers shipped in
harness/wrappers/ -- ssh-board against a fake ssh that runs the command here,
qemu-user where Debian's emulator and cross compiler are installed."""

import os
import shutil
import stat
import subprocess

import pytest

from conftest import HARNESS, REPO, configure_alone, run_runner

from runner import timelimits

# The slow tier ('make check-full'; conftest.py): runs configure and the suite through wrappers.
pytestmark = pytest.mark.slow

WRAPPERS = os.path.join(HARNESS, "wrappers")


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


# ---- the runner with a wrapper ------------------------------------------------------


def test_every_program_runs_through_the_wrapper(fake_env):
    log = os.path.join(fake_env["tmp"], "wrapper.log")
    wrapper = os.path.join(fake_env["tmp"], "wrap")
    write_exe(wrapper, '#!/bin/sh\necho "$* | ${CT_EXEC_WRAPPER:-none}" >> %s\n'
              'shift\nexec "$@"\n' % log)
    p = run_runner(fake_env, "--test", "fake.pass*", "--test-wrapper", wrapper + " --flag")
    assert p.returncode == 0, p.stdout + p.stderr
    with open(log) as f:
        lines = f.read().splitlines()
    fake = fake_env["fake"]
    assert any(l.startswith("--flag %s --list |" % fake) for l in lines), lines
    runs = [l for l in lines if " --run " in l]
    assert runs and all(l.startswith("--flag %s --run fake.pass" % fake) for l in runs), lines
    # A test that execs a new image is told the wrapper (ct_exec.h).
    assert all(l.endswith("| %s --flag" % wrapper) for l in runs), lines
    assert "through %s --flag" % wrapper in p.stdout


def test_the_make_line_wrapper_comes_in_the_environment(fake_env):
    """make exports TEST_WRAPPER (config.mk's or the make line's): the runner
    takes it when --test-wrapper is not given."""
    log = os.path.join(fake_env["tmp"], "wrapper.log")
    wrapper = os.path.join(fake_env["tmp"], "wrap")
    write_exe(wrapper, '#!/bin/sh\necho "$*" >> %s\nexec "$@"\n' % log)
    p = run_runner(fake_env, "--test", "fake.pass*", extra_env={"TEST_WRAPPER": wrapper})
    assert p.returncode == 0, p.stdout + p.stderr
    with open(log) as f:
        assert f.read().startswith(fake_env["fake"] + " --list")


def test_no_wrapper_runs_programs_directly(fake_env):
    log = os.path.join(fake_env["tmp"], "wrapper.log")
    p = run_runner(fake_env, "--test", "fake.pass*", "--test-wrapper", "")
    assert p.returncode == 0, p.stdout + p.stderr
    assert not os.path.exists(log)


def test_time_factor_stretches_every_limit():
    plain = timelimits.Limits({"a": 0.5}, 10.0, factor=10, floor=2)
    slow = timelimits.Limits({"a": 0.5}, 10.0, factor=10, floor=2, stretch=3)
    assert (plain.of("a"), plain.of("b")) == (5.0, 10.0)
    assert (slow.of("a"), slow.of("b")) == (15.0, 30.0)
    assert "all times 3" in slow.describe("t.tsv")


def test_time_factor_reaches_the_report(fake_env):
    import json
    p = run_runner(fake_env, "--test", "fake.pass*", "--no-timings", "--timeout", "4",
                   "--time-factor", "2.5")
    assert p.returncode == 0, p.stdout + p.stderr
    with open(os.path.join(fake_env["reports"], "conformance.json")) as f:
        doc = json.load(f)
    assert {t.get("time_limit_s") for t in doc["tests"]} == {10.0}


# ---- ssh-board against a fake ssh ------------------------------------------------------


@pytest.fixture
def board(tmp_path):
    """A tree with build/prog, a 'board' folder, and a fake ssh on PATH that
    logs its calls and runs the remote command here with sh."""
    root = tmp_path / "tree"
    (root / "build").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "data" / "input.txt").write_text("on the board\n")
    prog = root / "build" / "prog"
    write_exe(str(prog), '#!/bin/sh\n'
              'echo "argv0=$0"\necho "args=$*"\necho "pwd=$(pwd)"\n'
              'echo "opts=${CT_OPTIONS-unset} exec=${CT_EXEC_WRAPPER-unset} home=${HOME:+set}"\n'
              'cat "$1"\necho "to stderr" >&2\nexit 3\n')
    bindir = tmp_path / "bin"
    bindir.mkdir()
    calls = tmp_path / "ssh.log"
    # The fake ssh: options, then the host, then the command (sh -c, as sshd
    # runs it with the user's shell), with an empty environment but PATH, as
    # a login over ssh has none of the caller's variables.
    write_exe(str(bindir / "ssh"), '#!/bin/sh\n'
              'while [ "${1#-}" != "$1" ]; do shift 2; done\n'
              'host=$1; shift\n'
              'printf "%%s\\n" "$host $*" | head -1 >> %s\n'
              'exec env -i PATH="$PATH" sh -c "$*"\n' % calls)
    env = dict(os.environ, PATH=str(bindir) + os.pathsep + os.environ["PATH"],
               SSH_BOARD="tester@board", SSH_BOARD_DIR=str(tmp_path / "board"),
               CT_OPTIONS="TRC,TEF", CT_EXEC_WRAPPER="qemu-arm")
    return {"root": root, "prog": prog, "env": env, "calls": calls,
            "remote": tmp_path / "board", "cwd": tmp_path}


def ssh_board(b, *args):
    return subprocess.run([os.path.join(WRAPPERS, "ssh-board"), str(b["prog"])] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, env=b["env"], cwd=str(b["cwd"]), timeout=60)


def test_ssh_board_runs_the_copy_and_brings_back_output_and_status(board):
    p = ssh_board(board, str(board["root"] / "data" / "input.txt"))
    remote = board["remote"]
    assert p.returncode == 3, p.stderr
    assert p.stderr == "to stderr\n"
    lines = p.stdout.splitlines()
    assert lines[0] == "argv0=%s" % (remote / "build" / "prog")
    # Paths under the tree are the board's; the caller's folder exists there too.
    assert lines[1] == "args=%s" % (remote / "data" / "input.txt")
    assert lines[2] == "pwd=%s" % board["cwd"]
    # The test's variables are passed on, but not the exec wrapper: on the
    # board a new image runs natively.  Nothing else of the caller's is.
    assert lines[3] == "opts=TRC,TEF exec=unset home="
    assert lines[4] == "on the board"
    assert (remote / "data" / "input.txt").exists()


def test_ssh_board_copies_once_and_again_after_a_rebuild(board):
    def copies():
        with open(str(board["calls"])) as f:
            return sum("tar -xf -" in l for l in f)
    assert ssh_board(board).returncode == 3
    assert ssh_board(board).returncode == 3
    assert copies() == 1
    newer = board["root"] / "build" / "new-program"
    newer.write_text("rebuilt\n")
    st = os.stat(str(board["root"] / "build"))
    os.utime(str(newer), (st.st_mtime + 5, st.st_mtime + 5))
    assert ssh_board(board).returncode == 3
    assert copies() == 2
    assert (board["remote"] / "build" / "new-program").read_text() == "rebuilt\n"


def test_ssh_board_needs_a_board(board):
    env = dict(board["env"])
    del env["SSH_BOARD"]
    p = subprocess.run([os.path.join(WRAPPERS, "ssh-board"), str(board["prog"])],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       env=env)
    assert p.returncode == 125 and "SSH_BOARD" in p.stderr


# ---- qemu-user --------------------------------------------------------------------------


def test_qemu_user_runs_a_script_as_it_is(tmp_path):
    script = tmp_path / "s"
    write_exe(str(script), "#!/bin/sh\necho \"ran $*\"; exit 4\n")
    p = subprocess.run([os.path.join(WRAPPERS, "qemu-user"), str(script), "a", "b"],
                       stdout=subprocess.PIPE, universal_newlines=True)
    assert (p.returncode, p.stdout) == (4, "ran a b\n")


@pytest.mark.parametrize("arch,cc,word", [("armhf", "arm-linux-gnueabihf-gcc", "4 little"),
                                          ("s390x", "s390x-linux-gnu-gcc", "8 big")])
def test_qemu_user_picks_the_emulator_from_the_elf_header(tmp_path, arch, cc, word):
    if not shutil.which(cc) or not shutil.which("qemu-" + ("arm" if arch == "armhf" else arch)):
        pytest.skip("%s or qemu-user not installed (make deps-cross)" % cc)
    src = tmp_path / "t.c"
    src.write_text('#include <stdio.h>\n#include <stdint.h>\n'
                   'int main(int c, char **v) { const uint16_t one = 1;\n'
                   '  printf("%d %s %s\\n", (int)sizeof(long), *(const char *)&one ? "little" : '
                   '"big", v[c - 1]); return 7; }\n')
    exe = tmp_path / "t"
    subprocess.run([cc, "-o", str(exe), str(src)], check=True)
    p = subprocess.run([os.path.join(WRAPPERS, "qemu-user"), str(exe), "hello"],
                       stdout=subprocess.PIPE, universal_newlines=True)
    assert (p.returncode, p.stdout) == (7, "%s hello\n" % word)


# ---- configure --host and --with-test-wrapper ---------------------------------------


def configure(tmp_path, *args):
    """configure alone in a folder of its own (the reference's header for the
    options it reads); returns (CompletedProcess, config.mk's text)."""
    tree = configure_alone(tmp_path / "tree")
    p = subprocess.run(["sh", "./configure"] + list(args), cwd=str(tree),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    mk = tree / "config.mk"
    return p, mk.read_text() if mk.exists() else ""


def fake_cross_gcc(tmp_path, triplet):
    """TRIPLET-gcc and TRIPLET-ar on PATH: the host's own tools under those
    names (the programs then run here, as through an emulator)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for tool, real in (("gcc", shutil.which("cc") or shutil.which("gcc")), ("ar", "ar")):
        write_exe(str(bindir / ("%s-%s" % (triplet, tool))), '#!/bin/sh\nexec %s "$@"\n' % real)
    os.environ["PATH"] = str(bindir) + os.pathsep + os.environ["PATH"]


@pytest.fixture
def cross_path(tmp_path):
    saved = os.environ["PATH"]
    fake_cross_gcc(tmp_path, "fake-linux-gnu")
    yield
    os.environ["PATH"] = saved


def test_host_takes_the_triplets_tools_and_says_what_it_assumed(tmp_path, cross_path):
    p, mk = configure(tmp_path, "--host=fake-linux-gnu")
    assert p.returncode == 0, p.stdout
    assert "fake-linux-gnu is another machine... yes" in p.stdout
    assert "CC = fake-linux-gnu-gcc\n" in mk and "AR = fake-linux-gnu-ar\n" in mk
    assert "CROSS_COMPILING = yes\n" in mk
    assert "run... not run (cross-compiling, no test wrapper): assumed" in p.stdout
    assert "assumed, not checked (no program could run): programs-run" in p.stdout


def test_cc_still_wins_over_host(tmp_path, cross_path):
    p, mk = configure(tmp_path, "--host=fake-linux-gnu", "CC=" + (shutil.which("cc") or "gcc"))
    assert p.returncode == 0, p.stdout
    assert "CC = fake-linux-gnu-gcc" not in mk and "AR = fake-linux-gnu-ar\n" in mk


def test_the_test_wrapper_runs_the_probe_and_is_written(tmp_path, cross_path):
    log = tmp_path / "wrapper.log"
    wrapper = tmp_path / "wrap"
    write_exe(str(wrapper), '#!/bin/sh\necho "$@" >> %s\nexec "$@"\n' % log)
    p, mk = configure(tmp_path, "--host=fake-linux-gnu", "--with-test-wrapper=%s" % wrapper,
                      "TIME_FACTOR=4")
    assert p.returncode == 0, p.stdout
    assert "TEST_WRAPPER = %s\n" % wrapper in mk and "TIME_FACTOR = 4\n" in mk
    assert log.read_text().strip(), "the probe did not run through the wrapper"
    assert "assumed" not in p.stdout


def test_a_wrapper_that_cannot_run_programs_stops_configure(tmp_path, cross_path):
    p, _ = configure(tmp_path, "--host=fake-linux-gnu", "--with-test-wrapper=false")
    assert p.returncode == 1
    assert "does not run through 'false'" in p.stdout
