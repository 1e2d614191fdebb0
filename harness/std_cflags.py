# SPDX-License-Identifier: MIT
"""The flags of the language and the system interface every C file of the
project is compiled for (-std=c11 -D_POSIX_C_SOURCE=200809L), as mk/std.mk
spells them once, for the Python tools and tests that run the compiler
themselves (harness/header_options.py, harness/mutants/build.py, the tests
of harness/tests)."""

import os
import shlex

STD_MK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "mk", "std.mk")


def std_cflags(path=STD_MK):
    """The words of the line STD_CFLAGS = ... of mk/std.mk."""
    with open(path) as f:
        for line in f:
            name, eq, value = line.partition("=")
            if eq and name.strip() == "STD_CFLAGS":
                return shlex.split(value)
    raise ValueError("%s: no line STD_CFLAGS = ..." % path)


STD_CFLAGS = std_cflags()
