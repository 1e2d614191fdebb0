# SPDX-License-Identifier: MIT
# mk/odd-vendor.mk -- the odd vendor (harness/vendors/odd/README.md): a fixture
# that plays a vendor whose every implementation-defined choice differs from
# the reference's, built as a thin adapter over the reference.  The suite (the
# portable tests, the profile, the vector interpreter) is built against it
# exactly as for a vendor, by ./configure
# --with-trace-cflags/--with-trace-libs in a tree of its own (links to this
# one, build/odd-vendor/tree), and judged: no FAIL and no UNRESOLVED beyond
# the reference's known gaps and the fixture's deliberate ones
# (harness/vendors/odd/expected_gaps.tsv).
#
#   make check-odd-vendor     build, run into build/odd-vendor/reports, check
#
# Part of 'make check-full' (CHECK_FULL_EXTRA: a minute from a clean tree).
# For variants of the fixture
# (harness/tests/test_odd_vendor.py), all on the command line:
#   ODD_BUILD=DIR            where the adapter is built [build/odd-vendor]
#   ODD_RUN=DIR              the configured tree and the reports [ODD_BUILD]
#   ODD_TRACE_INCLUDE=DIR    the headers the tests are built with (the adapter
#                            always uses the fixture's) [harness/vendors/odd/include]
#   ODD_EXPECTED=TSV         the deliberate gaps [harness/vendors/odd/expected_gaps.tsv]

ODD_DIR      = harness/vendors/odd
ODD_BUILD   ?= build/odd-vendor
ODD_RUN     ?= $(ODD_BUILD)
ODD_TREE     = $(ODD_RUN)/tree
ODD_REPORTS  = $(ODD_RUN)/reports
ODD_EXPECTED ?= $(ODD_DIR)/expected_gaps.tsv
ODD_TRACE_INCLUDE ?= $(abspath $(ODD_DIR)/include)
ODD_MK      := $(lastword $(MAKEFILE_LIST))

# The adapter's two sides: one sees only the odd <trace.h>, the other only the
# reference's (oddref_bridge.h says why).
ODD_SIDE_SRCS = $(addprefix $(ODD_DIR)/adapter/,odd_api.c odd_ids.c odd_sysconf.c)
ODD_SIDE_OBJS = $(ODD_SIDE_SRCS:$(ODD_DIR)/adapter/%.c=$(ODD_BUILD)/obj/%.o)
ODD_REF_OBJ   = $(ODD_BUILD)/obj/ref_side.o
ODD_LIB       = $(ODD_BUILD)/lib/libodd.a
ODD_REF_LIB   = $(ODD_BUILD)/lib/liboddref.a
ODD_SYMS      = $(ODD_BUILD)/ref-renames.txt
ODD_HEADERS   = $(wildcard $(ODD_DIR)/include/*.h $(ODD_DIR)/include/sys/*.h \
                           $(ODD_DIR)/adapter/*.h)

ODD_CFLAGS = $(STD_CFLAGS) -pthread -Wall -Wextra $(CFLAGS) $(CFLAGS_AUTO)

$(ODD_BUILD)/obj/%.o: $(ODD_DIR)/adapter/%.c $(ODD_HEADERS) $(ODD_MK)
	@mkdir -p $(@D)
	$(CC) $(ODD_CFLAGS) -I$(ODD_DIR)/include -c -o $@ $<

$(ODD_REF_OBJ): $(ODD_DIR)/adapter/ref_side.c $(ODD_HEADERS) include/trace.h $(ODD_MK)
	@mkdir -p $(@D)
	$(CC) $(ODD_CFLAGS) -Iinclude -c -o $@ $<

# The reference's posix_trace_* symbols, defined in its library, become
# oddref_posix_trace_* in a copy of it, with ref_side.o, which calls them.
$(ODD_SYMS): $(LIB_A) $(ODD_MK)
	@mkdir -p $(@D)
	nm -g --defined-only $(LIB_A) | awk '$$3 ~ /^posix_trace_/ { print $$3, "oddref_" $$3 }' \
	    | sort -u > $@
	@test -s $@ || { echo "$@: no posix_trace_ symbol in $(LIB_A)"; exit 1; }

$(ODD_REF_LIB): $(LIB_A) $(ODD_REF_OBJ) $(ODD_SYMS)
	@mkdir -p $(@D)
	rm -f $@ $@.tmp
	cp $(LIB_A) $@.tmp
	ar rs $@.tmp $(ODD_REF_OBJ)
	objcopy --redefine-syms=$(ODD_SYMS) $@.tmp $@
	rm -f $@.tmp

$(ODD_LIB): $(ODD_SIDE_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# The vendor's flags, as its user would give them to ./configure.  The
# libraries are built like the reference (--enable-sanitizers, --enable-coverage):
# a program that links them needs the same link flags.
ODD_TRACE_CFLAGS = -I$(ODD_TRACE_INCLUDE)
ODD_TRACE_LIBS   = $(abspath $(ODD_LIB)) $(abspath $(ODD_REF_LIB)) -pthread $(LDFLAGS_AUTO)

# The tests' own flags in that tree: quick to compile, as the mutant runs build
# them (harness/mutants/build.py).
ODD_TEST_CFLAGS ?= -O1 -g0

# A tree of links to this one (its own config.mk, config.log and build/),
# configured for the odd vendor; what `make conformance` builds is built in it.
ODD_TREE_ENTRIES = $(filter-out build reports config.mk config.log,$(notdir $(wildcard $(CURDIR)/*)))

$(ODD_TREE)/config.mk: configure $(ODD_LIB) $(ODD_REF_LIB) $(ODD_MK)
	@mkdir -p $(@D)
	cd $(ODD_TREE) && for e in $(ODD_TREE_ENTRIES); do ln -sfn $(CURDIR)/$$e $$e; done
	cd $(ODD_TREE) && ./configure CC='$(CC)' CFLAGS='$(ODD_TEST_CFLAGS)' \
	    --with-trace-cflags='$(ODD_TRACE_CFLAGS)' --with-trace-libs='$(ODD_TRACE_LIBS)' \
	    > configure.out || { cat configure.out; exit 1; }
	@grep -q '^IMPL = vendor' $@ || { echo "$@: not configured for a vendor"; exit 1; }

.PHONY: check-odd-vendor odd-vendor-build
odd-vendor-build: $(ODD_TREE)/config.mk
	$(MAKE) -C $(ODD_TREE) --no-print-directory conformance-build

# The run, from the configured tree (its config.mk says what was built and how:
# vendor mode), as 'make conformance' there would run it; then the judgement.
check-odd-vendor: odd-vendor-build
	rm -rf $(ODD_REPORTS)
	$(PYTHON) harness/run.py --root $(ODD_TREE) --name 'odd vendor (harness/vendors/odd)' \
	    --reports $(ODD_REPORTS) --allow-fail --no-progress
	$(PYTHON) $(ODD_DIR)/check_report.py $(ODD_REPORTS)/conformance.json \
	    conformance/reference_gaps.tsv $(ODD_EXPECTED)

CHECK_FULL_EXTRA += check-odd-vendor
