# SPDX-License-Identifier: MIT
"""make install (mk/install.mk) and configure's install options (issue 18
item 2), run by 'make check-install':

* make install into a DESTDIR stages everything, runs no ldconfig, and the
  installed posixtrace-conformance, run from there against the installed
  reference, says it conforms, writing its reports where it is told and
  nothing into the install tree;
* as root without DESTDIR, make install runs ldconfig;
* ./configure takes the GNU directories with autoconf's defaults;
* --disable-static and --disable-shared build and install no such library.
"""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IS_ROOT = os.geteuid() == 0


def make(*args, cwd=ROOT, env=None):
    r = subprocess.run(["make", "--no-print-directory"] + list(args), cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout[-3000:]
    return r.stdout


def fake_ldconfig(tmp_path):
    """An ldconfig that only notes it was run."""
    marker = tmp_path / "ldconfig-ran"
    prog = tmp_path / "fake-ldconfig"
    prog.write_text("#!/bin/sh\necho \"$@\" >> '%s'\n" % marker)
    prog.chmod(0o755)
    return str(prog), marker


def files_under(top):
    out = set()
    for d, _, names in os.walk(top):
        out |= {os.path.join(d, n) for n in names}
    return out


def test_destdir_install_and_the_installed_suite_conforms(tmp_path):
    ldconfig, marker = fake_ldconfig(tmp_path)
    dest = tmp_path / "dest"
    make("install", "DESTDIR=%s" % dest, "PREFIX=/usr", "LDCONFIG=%s" % ldconfig)
    assert not marker.exists(), "make install with DESTDIR ran ldconfig"
    usr = dest / "usr"
    for f in ("bin/tracedump", "bin/tracesim", "bin/posixtrace-conformance",
              "lib/libposixtrace.so.0", "lib/libposixtrace.a", "include/trace.h",
              "share/man/man1/posixtrace-conformance.1", "share/man/man7/posixtrace.7",
              "share/man/man3/posixtrace_sim_now.3", "share/doc/posixtrace/CHOICES.md",
              "share/posixtrace/conformance/harness/run.py"):
        assert (usr / f).exists(), f
    for cmd in ("tracedump", "tracesim", "posixtrace-conformance"):
        out = subprocess.check_output([str(usr / "bin" / cmd), "--version"], text=True)
        assert out.startswith("%s (posixtrace) " % cmd), out
    before = files_under(dest)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = subprocess.run([str(usr / "bin" / "posixtrace-conformance"), "--reports", "out",
                        "--", "--no-progress"], cwd=str(elsewhere),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = r.stdout.strip().splitlines()
    summary = [l for l in lines if l.startswith(("CONFORMS", "DOES NOT CONFORM"))]
    print("\n".join(lines[-4:]))
    assert r.returncode == 0 and summary and summary[-1].startswith("CONFORMS"), r.stdout[-3000:]
    for f in ("conformance.json", "junit.xml", "index.html", "summary.txt"):
        assert (elsewhere / "out" / f).is_file(), f
    assert files_under(dest) == before, "the run wrote into the install tree"
    # The same install as a vendor's would be given (--with-trace=DIR, as
    # ./configure --with-trace): the tests of a few rules, into the current folder.
    r = subprocess.run([str(usr / "bin" / "posixtrace-conformance"), "--with-trace=%s" % usr,
                        "--", "--no-progress", "--rule", "create.*"], cwd=str(elsewhere),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0 and "\nCONFORMS" in r.stdout, r.stdout[-3000:]
    assert (elsewhere / "conformance.json").is_file()


def test_the_suite_refuses_to_write_into_the_install_tree(tmp_path):
    dest = tmp_path / "dest"
    make("install-suite", "DESTDIR=%s" % dest, "PREFIX=/usr")
    suite = dest / "usr" / "share" / "posixtrace" / "conformance"
    r = subprocess.run([str(dest / "usr" / "bin" / "posixtrace-conformance"), "--reports",
                        str(suite / "reports")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 2 and "inside the installed suite" in r.stdout
    assert not (suite / "reports").exists()


@pytest.mark.skipif(not IS_ROOT, reason="ldconfig runs only as root")
def test_install_as_root_without_destdir_runs_ldconfig(tmp_path):
    ldconfig, marker = fake_ldconfig(tmp_path)
    out = make("install", "PREFIX=%s" % (tmp_path / "prefix"),
               "LDCONFIG=%s" % ldconfig)
    assert marker.exists(), "make install as root without DESTDIR did not run ldconfig:\n" + out


def configure_in(tmp_path, *args):
    """configure run alone in a folder of its own (it reads mk/std.mk only);
    the make variables of config.mk it writes, expanded."""
    tree = tmp_path / "tree"
    (tree / "mk").mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, "configure"), str(tree))
    shutil.copy(os.path.join(ROOT, "mk", "std.mk"), str(tree / "mk"))
    r = subprocess.run(["sh", "./configure"] + list(args), cwd=str(tree),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        return r.returncode, r.stdout
    names = ("prefix exec_prefix bindir libdir libexecdir includedir sysconfdir datarootdir "
             "datadir mandir docdir ENABLE_SHARED ENABLE_STATIC").split()
    out = subprocess.check_output(
        ["make", "-s", "-f", "config.mk", "--eval",
         "show:; @printf '%s\\n' " + " ".join("'%s=$(%s)'" % (n, n) for n in names), "show"],
        cwd=str(tree), text=True)
    return 0, dict(line.split("=", 1) for line in out.splitlines())


def test_configure_gnu_directories_default_as_autoconf_does(tmp_path):
    st, v = configure_in(tmp_path, "--prefix=/opt/pt")
    assert st == 0, v
    assert v == {"prefix": "/opt/pt", "exec_prefix": "/opt/pt", "bindir": "/opt/pt/bin",
                 "libdir": "/opt/pt/lib", "libexecdir": "/opt/pt/libexec",
                 "includedir": "/opt/pt/include", "sysconfdir": "/opt/pt/etc",
                 "datarootdir": "/opt/pt/share", "datadir": "/opt/pt/share",
                 "mandir": "/opt/pt/share/man", "docdir": "/opt/pt/share/doc/posixtrace",
                 "ENABLE_SHARED": "yes", "ENABLE_STATIC": "yes"}


def test_configure_takes_each_directory(tmp_path):
    st, v = configure_in(tmp_path, "--prefix=/p", "--datarootdir=/d", "--mandir=/m",
                         "--docdir=/doc", "--sysconfdir=/etc", "--libexecdir=/lx",
                         "--exec-prefix=/e", "--disable-static")
    assert st == 0, v
    assert (v["datadir"], v["mandir"], v["docdir"], v["sysconfdir"], v["libexecdir"],
            v["bindir"], v["libdir"], v["ENABLE_STATIC"]) == \
        ("/d", "/m", "/doc", "/etc", "/lx", "/e/bin", "/e/lib", "no")
    st, out = configure_in(tmp_path / "again", "--disable-static", "--disable-shared")
    assert st != 0 and "no library" in out


@pytest.mark.parametrize("switch,absent,present", [
    ("--disable-static", "libposixtrace.a", "libposixtrace.so.0"),
    ("--disable-shared", "libposixtrace.so.0", "libposixtrace.a")])
def test_a_disabled_library_is_neither_built_nor_installed(tmp_path, switch, absent, present):
    tree = tmp_path / "src"
    tree.mkdir()
    subprocess.check_call("tar -cf - --exclude=./build --exclude='./build-*' --exclude=./reports "
                          "--exclude=./.git --exclude=./config.mk . | tar -xf - -C '%s'" % tree,
                          shell=True, cwd=ROOT)
    subprocess.check_call(["sh", "./configure", switch], cwd=str(tree), stdout=subprocess.DEVNULL)
    make("-j2", "all", cwd=str(tree))
    assert not (tree / "build" / "lib" / absent).exists()
    assert (tree / "build" / "lib" / present).exists()
    dest = tmp_path / "dest"
    make("install-lib", "install-tools", "DESTDIR=%s" % dest, cwd=str(tree))
    lib = dest / "usr" / "local" / "lib"
    assert not (lib / absent).exists() and (lib / present).exists()
    # The tools work as installed: linked with the library that is there.
    out = subprocess.check_output([str(dest / "usr" / "local" / "bin" / "tracedump"), "--version"],
                                  text=True)
    assert out.startswith("tracedump (posixtrace)")
