# SPDX-License-Identifier: MIT
# The Makefile of the installed conformance suite (installed as
# DATADIR/posixtrace/conformance/Makefile; harness/installed/README.md).
# posixtrace-conformance runs it in a work tree of links to that folder, after
# ./configure there has written config.mk for the implementation under test:
# it builds the portable tests, the profile and the vector interpreter
# against that implementation (mk/harness.mk, mk/vectors.mk), as
# 'make conformance-build' does in a source checkout with a vendor's library.

.DEFAULT_GOAL := conformance-build
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules

VERSION = @VERSION@
include mk/std.mk
include config.mk
LFS_CFLAGS = -D_FILE_OFFSET_BITS=64
# The reference is not built here: every implementation is a vendor's.
TRACE_DEPS =

include mk/harness.mk
include mk/vectors.mk
