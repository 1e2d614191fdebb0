# SPDX-License-Identifier: MIT
# mk/std.mk -- the language and the system interface every C file of the
# project is compiled for, spelled here once: C11 and POSIX.1-2008.  Read by
# the Makefile (which includes mk/*.mk), configure (its compile checks) and
# the Python tools and tests that run the compiler themselves
# (harness/std_cflags.py): keep the definition on one line.
STD_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L
