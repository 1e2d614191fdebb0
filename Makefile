# SPDX-License-Identifier: MIT
# Makefile -- the one entry point: build, check, coverage, benchmarks, install.
#
# ./configure writes config.mk (toolchain, test tools, implementation under
# test); this file reads it.  Sources are found by wildcard: every
# reference/LAYER/*.c is part of the library, every reference/tools/*.c is a tool,
# every reference/tests/*.c goes into the one Check runner, every
# reference/bench/*.c is a benchmark.  Everything built goes under build/.
#
# Hooks for other parts of the project: fragments mk/*.mk are included below
# (before the rules); one may add targets to CHECK_EXTRA (run by 'make check'
# and 'make check-full') and CHECK_FULL_EXTRA (the slow tier: run by 'make
# check-full' only), e.g.
#     CHECK_EXTRA += conformance
# 'make coverage' counts each tier of tests apart: its tiers are listed in
# mk/coverage.mk.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules

VERSION = 0.1.0
SOVERSION = 0

# A cross build (./configure --host=TRIPLET --with-test-wrapper=CMD) runs every
# program made here through the test wrapper: $(TEST_WRAPPER) program args
# (empty: run it directly; TEST_WRAPPER= on the make line overrides config.mk).
# The runner and the programs that exec others read it from the environment
# (harness/runner/target.py, CT_EXEC_WRAPPER); TIME_FACTOR stretches time limits.
export TEST_WRAPPER TIME_FACTOR

# Python's compiled modules go under build/, not beside the sources, and are
# kept from one run to the next even where the environment sets
# PYTHONDONTWRITEBYTECODE (an empty value turns it off): the tests start
# Python hundreds of times, and pytest's rewritten test modules are cached
# the same way (make check-pytest: 27 -> 20 s of processor time).
export PYTHONPYCACHEPREFIX := $(CURDIR)/build/pycache
export PYTHONDONTWRITEBYTECODE :=

# Goals that work before ./configure has been run.
NOCONFIG_GOALS = deps deps-cross help clean distclean

ifneq ($(wildcard config.mk),)
include config.mk
else ifneq ($(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error config.mk not found: run ./configure first (./configure --help lists the options; 'make deps' installs the tools))
endif

# 'make install PREFIX=/opt/x' overrides configure's --prefix.
ifeq ($(origin PREFIX),command line)
prefix = $(PREFIX)
endif

# ---- flags -------------------------------------------------------------------

# 64-bit file offsets and inode numbers on a 32-bit target too: without them
# readdir fails (EOVERFLOW) on a file system with 64-bit inode numbers, and a
# log could not pass 2 GiB.  The reference's own programs and the vector
# interpreters; the portable tests are built as a vendor's users would.
LFS_CFLAGS = -D_FILE_OFFSET_BITS=64
BASE_CFLAGS = $(STD_CFLAGS) $(LFS_CFLAGS) -Iinclude $(INTERNAL_CFLAGS) \
              -fPIC -pthread -Wall -Wextra -MMD -MP
# The reference's internal headers (reference/LAYER/*.h) are for the library,
# its unit tests and benches; the tools see the public headers only.
INTERNAL_CFLAGS = -Ireference
ALL_CFLAGS = $(BASE_CFLAGS) $(CFLAGS) $(CFLAGS_AUTO)
ALL_LDFLAGS = $(LDFLAGS) $(LDFLAGS_AUTO)

# ---- what there is to build -----------------------------------------------

# The library: every folder of reference/ but its tools, tests and benches
# (reference/DESIGN.md maps the folders; the same rule in harness/mutants/build.py).
LIB_DIRS   = $(filter-out tools tests bench,$(patsubst reference/%/.,%,$(wildcard reference/*/.)))
LIB_SRCS   = $(foreach d,$(LIB_DIRS),$(wildcard reference/$(d)/*.c))
TOOL_SRCS  = $(wildcard reference/tools/*.c)
TEST_SRCS  = $(wildcard reference/tests/*.c)
BENCH_SRCS = $(wildcard reference/bench/*.c)

LIB_OBJS   = $(LIB_SRCS:%.c=build/obj/%.o)
TOOL_OBJS  = $(TOOL_SRCS:%.c=build/obj/%.o)
TEST_OBJS  = $(TEST_SRCS:%.c=build/obj/%.o)
BENCH_OBJS = $(BENCH_SRCS:%.c=build/obj/%.o)
ALL_OBJS   = $(LIB_OBJS) $(TOOL_OBJS) $(TEST_OBJS) $(BENCH_OBJS)

LIB_A       = build/lib/libposixtrace.a
LIB_SO      = build/lib/libposixtrace.so
LIB_SONAME  = libposixtrace.so.$(SOVERSION)
LIB_SO_REAL = libposixtrace.so.$(VERSION)
LIB_MAP     = include/libposixtrace.map
PC_FILE     = build/posixtrace.pc
TOOLS       = $(TOOL_SRCS:reference/tools/%.c=build/bin/%)
BENCHES     = $(BENCH_SRCS:reference/bench/%.c=build/bench/%)
TEST_BIN    = build/tests/check_reference

# The public headers (README.md "Public headers"): the standard API, the
# simulation control, and the kernel slot protocol with its codec, simulator
# and dumper; everything the shared library exports is declared here
# (harness/tests/test_exports.py).
INSTALL_HEADERS = include/trace.h include/posixtrace_types.h include/posixtrace_api.h \
                  include/posixtrace_counts.h \
                  include/posixtrace_sim.h include/posixtrace_slot.h include/posixtrace_codec.h \
                  include/posixtrace_kernel.h include/posixtrace_dump.h
# The <sys/types.h> that adds the trace types goes into a directory of its own,
# which only programs built with 'pkg-config --cflags posixtrace' search.
SYSTYPES_DIR = $(includedir)/posixtrace/sys

# What a program of the conformance harness needs before it links with
# TRACE_LIBS: the reference's static library, or nothing for a vendor's.
TRACE_DEPS = $(if $(filter reference,$(IMPL)),$(LIB_A))

# Hooks (see the top of this file).
CHECK_EXTRA ?=
CHECK_FULL_EXTRA ?=

include $(sort $(wildcard mk/*.mk))

# ---- build -------------------------------------------------------------------

.PHONY: all lib tools
all: lib tools
# ./configure --disable-static / --disable-shared: that library is neither
# built by 'make' nor installed (the unit tests, the conformance run against
# the reference and the other test programs still build libposixtrace.a, which
# they link).  Config files older than these options build both.
BUILT_LIBS = $(if $(filter no,$(ENABLE_STATIC)),,$(LIB_A)) $(if $(filter no,$(ENABLE_SHARED)),,$(LIB_SO))
lib: $(BUILT_LIBS) $(PC_FILE)
tools: $(TOOLS)

# Every object is rebuilt when the configuration or this file changes.
build/obj/%.o: %.c config.mk Makefile
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The library's own functions are hidden: only what the public headers
# declare (they mark it with the default visibility) is exported from the
# shared library, and the version script LIB_MAP names it again, under one
# version node (harness/tests/test_exports.py checks the two agree).
$(LIB_OBJS): ALL_CFLAGS += -fvisibility=hidden
$(TOOL_OBJS): INTERNAL_CFLAGS =
build/obj/reference/tests/%.o: ALL_CFLAGS += $(CHECK_CFLAGS)
build/obj/reference/bench/%.o: ALL_CFLAGS += -O2
$(TEST_OBJS) $(TEST_BIN): | require-check

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

build/lib/$(LIB_SO_REAL): $(LIB_OBJS) $(LIB_MAP)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script,$(LIB_MAP) $(ALL_LDFLAGS) \
	    -o $@ $(LIB_OBJS) -pthread

build/lib/$(LIB_SONAME): build/lib/$(LIB_SO_REAL)
	ln -sf $(LIB_SO_REAL) $@

$(LIB_SO): build/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $@

# The tools link the static library; without it (--disable-static), the
# shared one, found beside them in build/ and in libdir once installed.
ifeq ($(ENABLE_STATIC),no)
TOOL_LIB_DEP = $(LIB_SO)
TOOL_LIBS = -Lbuild/lib -Wl,-rpath,'$$ORIGIN/../lib:$(libdir)' -lposixtrace
else
TOOL_LIB_DEP = $(LIB_A)
TOOL_LIBS = $(LIB_A)
endif
$(TOOLS): build/bin/%: build/obj/reference/tools/%.o $(TOOL_LIB_DEP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(TOOL_LIBS) -pthread

$(BENCHES): build/bench/%: build/obj/reference/bench/%.o $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB_A) -pthread

$(TEST_BIN): $(TEST_OBJS) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $(TEST_OBJS) $(LIB_A) $(CHECK_LIBS) -pthread

# pkg-config file: a libdir or includedir under prefix is written relative to
# ${prefix}, so that the file stays right if the tree is moved.  Remade on
# every run (and replaced only when it changes) so that 'make install
# PREFIX=...' gets the right paths.
pc_rel = $(patsubst $(prefix)/%,$${prefix}/%,$(1))
$(PC_FILE): posixtrace.pc.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@prefix@|$(prefix)|g' \
	     -e 's|@libdir@|$(call pc_rel,$(libdir))|g' \
	     -e 's|@includedir@|$(call pc_rel,$(includedir))|g' \
	     -e 's|@VERSION@|$(VERSION)|g' posixtrace.pc.in > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; echo "wrote $@ (prefix $(prefix))"; fi

.PHONY: FORCE
FORCE:

-include $(ALL_OBJS:.o=.d)

# ---- tests -------------------------------------------------------------------

.PHONY: check check-all check-full check-full-all check-unit check-counts-full check-valgrind require-check

# Two tiers (README.md, "Make targets").  'make check' is the fast one, run
# after each change (11-12 s on 2 cores idle, 30 s at most): the unit tests and CHECK_EXTRA
# (the conformance gate with its vectors, the golden logs, the KSP vectors,
# the layering, the fast pytest tests).  'make check-full' runs everything:
# that and CHECK_FULL_EXTRA (the slow pytest tests, the odd vendor's run);
# CI and a newcomer run it.  Each runs its parts side by side, CHECK_JOBS at a
# time (one a processor), each line of their output whole (-Oline);
# 'make check-all' and 'make check-full-all' run them as make is told (one at
# a time without -j).
# The processors, asked once: the default of every *_JOBS below.
NPROC := $(shell nproc 2>/dev/null || echo 2)
CHECK_JOBS ?= $(NPROC)
check:
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) -Oline check-all
check-all: check-unit $(CHECK_EXTRA)
check-full:
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) -Oline check-full-all
check-full-all: check-all $(CHECK_FULL_EXTRA)

require-check:
ifneq ($(HAVE_CHECK),yes)
	@echo "error: Check (the C unit test library) was not found by ./configure."; \
	 echo "Install it ('make deps', or apt-get install check pkg-config) and run ./configure again."; \
	 exit 1
endif

ifeq ($(TEST_SRCS),)
check-unit check-valgrind:
	@echo "$@: no unit tests yet (reference/tests/*.c)"
else
# Each suite in a process of its own, UNIT_JOBS at a time (reference/tests/run_suites.sh).
UNIT_JOBS ?= $(NPROC)
# The counts suite's invariant runs 2,000 seeded workloads and 60 with a
# log here; check-counts-full (the slow tier) its 10,000 and 300.
check-unit: all $(TEST_BIN)
	CK_TIMEOUT_MULTIPLIER=$(or $(TIME_FACTOR),1) \
	COUNTS_WORKLOADS=$${COUNTS_WORKLOADS:-2000} COUNTS_LOG_WORKLOADS=$${COUNTS_LOG_WORKLOADS:-60} \
	sh reference/tests/run_suites.sh $(UNIT_JOBS) build/tests/suites $(TEST_WRAPPER) $(TEST_BIN)
check-counts-full: all $(TEST_BIN)
	CK_RUN_SUITE=counts CK_TIMEOUT_MULTIPLIER=$(or $(TIME_FACTOR),1) $(TEST_WRAPPER) $(TEST_BIN)
CHECK_FULL_EXTRA += check-counts-full

# Each suite in a valgrind of its own, VALGRIND_JOBS at a time (one a
# processor).  The multi-process stress test writes 20,000 events a thread
# there (100,000 in the plain run), and the counts suite's invariant 1,000
# seeded workloads and 30 with a log (10,000 and 300 in the plain run): the
# same checks on shorter runs, as memory errors do not need the long ones.
VALGRIND_JOBS ?= $(NPROC)
check-valgrind: all $(TEST_BIN)
ifeq ($(VALGRIND),)
	@echo "error: valgrind was not found by ./configure: install it ('make deps') and run ./configure again."; exit 1
endif
ifeq ($(SANITIZERS),yes)
	@echo "error: a sanitizer build cannot run under valgrind: run ./configure without --enable-sanitizers."; exit 1
endif
	CK_FORK=no CK_DEFAULT_TIMEOUT=120 POSIXTRACE_STRESS_EVENTS=$${POSIXTRACE_STRESS_EVENTS:-20000} \
	COUNTS_WORKLOADS=$${COUNTS_WORKLOADS:-1000} COUNTS_LOG_WORKLOADS=$${COUNTS_LOG_WORKLOADS:-30} \
	    sh reference/tests/run_suites.sh $(VALGRIND_JOBS) build/tests/valgrind \
	    $(VALGRIND) --error-exitcode=1 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect --track-fds=no $(TEST_BIN)
endif

# ---- coverage: mk/coverage.mk -------------------------------------------------

# ---- benchmarks --------------------------------------------------------------

.PHONY: bench
bench: $(BENCHES)
ifeq ($(BENCHES),)
	@echo "bench: no benchmarks yet (reference/bench/*.c)"
else
	@for b in $(BENCHES); do echo "== $$b"; $(TEST_WRAPPER) ./$$b || exit 1; done
endif

# ---- install: mk/install.mk ----------------------------------------------------

# ---- housekeeping ------------------------------------------------------------

.PHONY: clean distclean deps help

clean:
	rm -rf build $(wildcard build-*/)
	find reports -mindepth 1 ! -name .gitkeep -exec rm -rf {} + 2>/dev/null || true

distclean: clean
	rm -f config.mk config.log

# Installs, with apt-get, the Debian packages of the toolchain and the test
# tools that are not installed yet, then the cross compilers, qemu-user and
# the targets' Check (deps-cross, mk/cross.mk).  Works before ./configure.
DEPS_PACKAGES = build-essential pkg-config check lcov valgrind python3 python3-pytest \
                python3-pytest-xdist clang \
                python3-junitparser libxml2-utils \
                libclang-rt-14-dev
# The report page's test (harness/tests/test_report_page.py): headless Chromium
# loads reports/index.html, and xmllint checks it is well-formed.
DEPS_PACKAGES += chromium libxml2-utils
# tracedump's exports (issue 17; harness/tests/test_export_*.py): babeltrace2 reads
# the CTF, rsvg-convert renders the timeline SVG.
DEPS_PACKAGES += babeltrace2 librsvg2-bin
# The man pages' test (maint/tests/test_man_pages.py): groff and mandoc lint
# them.  The Debian packages (mk/deb.mk): make deb builds them with debhelper,
# lintian checks them, make check-deb installs them into a clean mmdebstrap root.
DEPS_PACKAGES += groff-base mandoc debhelper lintian mmdebstrap fakeroot dpkg-dev
SUDO = $(if $(filter 0,$(shell id -u)),,sudo)
deps:
	@command -v dpkg-query >/dev/null && command -v apt-get >/dev/null || { \
	   echo "deps: this needs Debian's dpkg and apt-get; install by hand: $(DEPS_PACKAGES)"; exit 1; }; \
	 missing=; \
	 for p in $(DEPS_PACKAGES); do \
	   case "$$(dpkg-query -W -f='$${Status}' $$p 2>/dev/null)" in \
	     *" installed") ;; \
	     *) missing="$$missing $$p" ;; \
	   esac; \
	 done; \
	 if [ -z "$$missing" ]; then echo "deps: all installed ($(DEPS_PACKAGES))"; else \
	 echo "deps: installing$$missing"; \
	 set -x; \
	 $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update && \
	 $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	 fi
	@$(MAKE) --no-print-directory deps-cross

# The targets with what they do (mk/help.tsv), and any target not described
# there (maint/tests/test_make_help.py fails on one).
help:
	@sh maint/make_help.sh
