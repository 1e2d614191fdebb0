# SPDX-License-Identifier: MIT
"""Every source file of the repository states its license on its first line
(after a script's #! line): README.md, "License"."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CODE_SUFFIXES = (".c", ".h", ".map", ".py", ".sh", ".mk", ".in", ".xsd")
CODE_NAMES = ("Makefile", "configure", "run", "qemu-user", "ssh-board")
TAG = "SPDX-License-Identifier: MIT"


def source_files():
    out = subprocess.check_output(["git", "-C", ROOT, "ls-files"], text=True)
    for path in out.split():
        name = os.path.basename(path)
        if name.endswith(CODE_SUFFIXES) or name in CODE_NAMES:
            yield path


def license_line(path):
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        first = f.readline()
        if first.startswith(("#!", "<?xml")):
            return f.readline()
        return first


def test_every_source_file_names_its_license():
    missing = [p for p in source_files() if TAG not in license_line(p)]
    assert not missing, "no %r line at the top of: %s" % (TAG, ", ".join(missing))


def test_the_license_file_is_there():
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        assert f.readline().strip() == "MIT License"
