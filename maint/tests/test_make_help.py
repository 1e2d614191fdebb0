# SPDX-License-Identifier: MIT
"""'make help' lists every target of the Makefile and mk/*.mk (issue 18 item
2): the targets make's database holds (maint/make_targets.sh) are exactly
those of mk/help.tsv, and help prints each with its description."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_targets():
    out = subprocess.check_output(["sh", "maint/make_targets.sh"], cwd=ROOT, text=True)
    return set(out.split())


def described():
    """{target: description} of mk/help.tsv ("-": plumbing, not printed)."""
    table = {}
    with open(os.path.join(ROOT, "mk", "help.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or "\t" not in line:
                continue
            target, desc = line.rstrip("\n").split("\t", 1)
            assert target not in table, "mk/help.tsv: %s twice" % target
            table[target] = desc
    return table


def help_output():
    return subprocess.check_output(["make", "--no-print-directory", "help"], cwd=ROOT, text=True)


def test_make_knows_the_usual_targets():
    assert {"all", "check", "conformance", "check-ksp", "install", "help"} <= make_targets()


def test_every_target_is_described_and_nothing_else():
    known, table = make_targets(), described()
    assert not known - set(table), "targets missing from mk/help.tsv: %s" % sorted(known - set(table))
    assert not set(table) - known, "mk/help.tsv names no such target: %s" % sorted(set(table) - known)


def test_help_prints_every_described_target():
    out = help_output()
    shown = {line.split()[1] for line in out.splitlines() if line.startswith("  make ")}
    listed = {t for t, d in described().items() if d != "-"}
    assert listed == shown, "help leaves out %s" % sorted(listed - shown)
    assert "Other targets" not in out
