# SPDX-License-Identifier: MIT
# mk/coverage.mk -- line and branch coverage of reference/, tier by tier
# (issue 31 item 3).  Needs ./configure --enable-coverage and lcov.
#
#   make coverage    builds everything, runs every tier of tests that runs the
#                    library (COVERAGE_TIERS, below), each with gcov writing its
#                    counts into a folder of its own, captures one lcov
#                    tracefile a tier, and writes reports/coverage/:
#                    index.html and lcov.info (lcov's report of all the tiers
#                    together), tiers.txt and tiers.json (lines and branches
#                    hit/total and percent for each tier and each folder of
#                    reference/, maint/coverage_tiers.py); prints what the
#                    portable suite alone covers, then the table.  The
#                    report is written even when a tier fails; make then fails.
#
# One tier's counts: gcov writes a program's counts when it exits, into
# GCOV_PREFIX/<the object's path less GCOV_PREFIX_STRIP leading folders>:
# every process a tier starts (forks, execs, the harness's children) inherits
# GCOV_PREFIX=build/coverage/gcda/TIER and its counts land in
# build/coverage/gcda/TIER/build/obj/, where the .gcno notes are copied for
# lcov to read them.  The tiers may then run side by side (COVERAGE_JOBS).  A
# program started with an environment of its own would write into build/obj/
# itself: those counts are captured apart ('stray'), counted in 'all' only,
# and the report says so.  A process killed by a signal writes no counts.
#
# The tiers (each a command, run from the top of the tree; its output in
# build/coverage/TIER.log):
#   unit       the Check unit tests (make check-unit)
#   portable   the portable conformance tests through harness/run.py against
#              the reference, without the vectors (its reports in
#              build/coverage/portable-reports/, not reports/)
#   vectors    the golden vectors (vectors/trc), each in a vecrun of its own
#              through harness/run.py, as the conformance run runs them
#   ksp        the KSP vectors through kvecrun, and tracedump as their
#              decoder (make check-ksp)
#   golden     the golden trace logs (make check-golden-logs)
#   tools      the harness's pytest tests that run the tools (tracedump,
#              tracesim) and kvecrun: COVERAGE_PYTEST, the fast tier
#   faults     the fault loop (harness/tests/test_fault_loop.py)
# and two sums: conformance = portable + vectors (what harness/run.py runs
# against any implementation, less the KSP vectors: "the portable suite"),
# all = every tier.

# A process that ends with _exit (the children the tests, the vector
# interpreter, the golden logs and the library fork) skips gcov's writing of
# its counts: in a coverage build every program and the shared library are
# linked with -Wl,--wrap=_exit and harness/coverage/gcov_exit.c, whose _exit
# writes them first.  The object is made before the library's objects (so
# before any link), and the libraries, which every program links, are made
# again when it changes.
ifeq ($(COVERAGE),yes)
COV_EXIT_OBJ  = build/obj/harness/coverage/gcov_exit.o
LDFLAGS_AUTO += -Wl,--wrap=_exit $(CURDIR)/$(COV_EXIT_OBJ)
$(LIB_OBJS): | $(COV_EXIT_OBJ)
$(LIB_A) build/lib/$(LIB_SO_REAL): $(COV_EXIT_OBJ)
$(COV_EXIT_OBJ): harness/coverage/gcov_exit.c config.mk mk/coverage.mk
	@mkdir -p $(@D)
	$(CC) $(STD_CFLAGS) -fPIC -O2 -Wall -Wextra $(CFLAGS) $(filter-out --coverage -O0,$(CFLAGS_AUTO)) -c -o $@ $<
endif

.PHONY: coverage coverage-report coverage-runs
LCOV_RC      = --rc lcov_branch_coverage=1
COVERAGE_DIR = reports/coverage
COV_BUILD    = build/coverage
COV_GCDA     = $(COV_BUILD)/gcda
# GCOV_PREFIX_STRIP: the folders of $(CURDIR), so that the counts of
# $(CURDIR)/build/obj/x.o go to GCOV_PREFIX/build/obj/x.gcda.
COV_STRIP    = $(words $(subst /, ,$(CURDIR)))
COVERAGE_JOBS ?= $(NPROC)
# Every time limit of the tiers (the unit tests', the conformance tests') is
# stretched this many times: gcov's counting at -O0 is slower, and the tiers
# run side by side (a conformance test killed at its limit loses its counts).
COVERAGE_TIME_FACTOR ?= 5
COV_MAKE = $(MAKE) --no-print-directory TIME_FACTOR=$(COVERAGE_TIME_FACTOR)

COVERAGE_TIERS = unit portable vectors ksp golden tools faults
COVERAGE_SUMS  = conformance all
cov_sum_conformance = portable vectors
cov_sum_all         = $(COVERAGE_TIERS)
# The order of the table's tiers.
COVERAGE_TABLE = unit portable vectors conformance ksp golden tools faults all

# The harness's pytest files that run the tools (build/bin/tracedump,
# tracesim) or kvecrun, in the fast tier ('not slow').
COVERAGE_PYTEST = $(addprefix harness/tests/, test_tracedump_cli.py test_tools_never_block.py \
    test_export_chrome.py test_export_ctf.py test_export_svg.py test_qnx_header_window.py \
    test_ksp_decoder.py test_kvec_rule_results.py)
# Under gcov the fault loop's 1-byte file size limit kills the process when
# gcov writes its counts at exit (SIGXFSZ, gcov's write, not the library's):
# that one check is left to 'make check'.
COVERAGE_FAULTS_DESELECT = harness/tests/test_fault_loop.py::test_a_file_size_limit_kills_no_process

cov_run_unit     = $(COV_MAKE) check-unit
cov_run_portable = $(PYTHON) harness/run.py $(if $(filter reference,$(IMPL)),--expect-reference) \
                   $(HARNESS_RUN_FLAGS) --no-vectors --no-progress --reports $(COV_BUILD)/portable-reports
cov_run_vectors  = $(PYTHON) harness/run.py $(if $(filter reference,$(IMPL)),--expect-reference) \
                   $(HARNESS_RUN_FLAGS) --test 'vec.*' --no-progress --reports $(COV_BUILD)/vectors-reports
cov_run_ksp      = $(COV_MAKE) check-ksp
cov_run_golden   = $(COV_MAKE) check-golden-logs
cov_run_tools    = $(PYTHON) -m pytest -q $(PYTEST_PARALLEL) -m 'not slow' $(COVERAGE_PYTEST)
cov_run_faults   = $(PYTHON) -m pytest -q $(PYTEST_PARALLEL) harness/tests/test_fault_loop.py \
                   --deselect $(COVERAGE_FAULTS_DESELECT)

cov_about_unit        = the Check unit tests (check-unit)
cov_about_portable    = the portable tests through harness/run.py, no vectors
cov_about_vectors     = the golden vectors through harness/run.py and vecrun
cov_about_conformance = portable + vectors, no unit tests
cov_about_ksp         = the KSP vectors through kvecrun, tracedump decoding (check-ksp)
cov_about_golden      = the golden trace logs (check-golden-logs)
cov_about_tools       = pytest of the tools tracedump, tracesim and of kvecrun (fast tier)
cov_about_faults      = the fault loop (test_fault_loop.py)
cov_about_all         = every tier together

# What the tiers run, built before any counting starts (the tiers' own
# makes then find it all up to date, and may run side by side).
COVERAGE_BUILD = all $(if $(TEST_SRCS),$(TEST_BIN)) conformance-build $(VECRUN) $(KVECRUN) \
                 $(KSP_TRACEDUMP) $(KSP_TRACESIM) $(GOLDEN_LOGS) $(FAULT_LOOP)

coverage:
ifneq ($(COVERAGE),yes)
	@echo "error: 'make coverage' needs an instrumented build: run ./configure --enable-coverage, then make coverage."; exit 1
endif
ifeq ($(LCOV),)
	@echo "error: lcov/genhtml were not found by ./configure: install them ('make deps') and run ./configure again."; exit 1
endif
	$(MAKE) --no-print-directory $(COVERAGE_BUILD)
	rm -rf $(COV_BUILD) $(COVERAGE_DIR)
	$(LCOV) --quiet --zerocounters --directory build/obj
	@mkdir -p $(COV_BUILD)
	@date +%s > $(COV_BUILD)/start
	@$(MAKE) --no-print-directory -j$(COVERAGE_JOBS) -Oline coverage-runs
	@$(MAKE) --no-print-directory coverage-report
	@failed=; for t in $(COVERAGE_TIERS); do \
	   test "$$(cat $(COV_BUILD)/$$t.status)" = 0 || failed="$$failed $$t"; done; \
	 echo "coverage: the tiers and the report took $$(( $$(date +%s) - $$(cat $(COV_BUILD)/start) )) s"; \
	 if [ -n "$$failed" ]; then \
	   echo "coverage: tests failed in tier(s)$$failed (report written all the same; logs: $(COV_BUILD)/TIER.log)"; \
	   exit 1; fi

# Each tier in a recipe of its own (the longest, unit, first), its exit
# status in build/coverage/TIER.status; a failed tier does not stop the others.
coverage-runs: $(COVERAGE_TIERS:%=coverage-run-%)
coverage-run-%:
	@mkdir -p $(COV_GCDA)/$*
	+@t0=$$(date +%s); st=0; \
	 GCOV_PREFIX='$(CURDIR)/$(COV_GCDA)/$*' GCOV_PREFIX_STRIP=$(COV_STRIP) TIME_FACTOR=$(COVERAGE_TIME_FACTOR) \
	     $(cov_run_$*) > $(COV_BUILD)/$*.log 2>&1 || st=$$?; \
	 echo $$st > $(COV_BUILD)/$*.status; \
	 if [ $$st = 0 ]; then r=ok; else r="FAILED (exit $$st)"; fi; \
	 echo "coverage: tier $* ran in $$(( $$(date +%s) - t0 )) s: $$r (log: $(COV_BUILD)/$*.log)"; \
	 if [ $$st != 0 ]; then tail -n 30 $(COV_BUILD)/$*.log; fi

# Debian 12's geninfo (lcov 1.16-1) warns 'Subroutine ... redefined' on every
# run (a packaging defect, harmless): those lines are filtered out, with bash's
# pipefail keeping lcov's exit status.
coverage-report: SHELL = /bin/bash
coverage-report: .SHELLFLAGS = -o pipefail -c
LCOV_QUIET = 2>&1 | { grep -v '^Subroutine .* redefined at .*geninfo' || true; }
# A tier's tracefile: its counts (TIER.run.info, none if it wrote none) added
# to the initial capture (base.info: every line and branch with count 0), so
# that a file it never ran counts whole; a sum adds its tiers' counts.
cov_add = $(LCOV) --quiet $(LCOV_RC) --add-tracefile $(COV_BUILD)/base.info \
    $(foreach t,$(1),$$(test -s $(COV_BUILD)/$(t).run.info && echo --add-tracefile $(COV_BUILD)/$(t).run.info)) \
    --output-file $(COV_BUILD)/$(2).info
coverage-report:
	@mkdir -p $(COVERAGE_DIR)
	$(LCOV) --quiet $(LCOV_RC) --capture --initial --directory build/obj \
	    --base-directory . --output-file $(COV_BUILD)/base.info $(LCOV_QUIET)
	@for t in $(COVERAGE_TIERS) stray; do \
	   if [ $$t = stray ]; then d=build/obj; else d=$(COV_GCDA)/$$t/build/obj; fi; \
	   rm -f $(COV_BUILD)/$$t.run.info; \
	   test -n "$$(find $$d -name '*.gcda' -print -quit 2>/dev/null)" || continue; \
	   if [ $$t = stray ]; then \
	     echo "coverage: $$(find $$d -name '*.gcda' | wc -l) .gcda files were written into build/obj by a program that" \
	          "lost GCOV_PREFIX (an environment of its own): counted in 'all' only"; \
	   else (cd build/obj && find . -name '*.gcno' -exec cp --parents -t '$(CURDIR)'/$$d {} +); fi; \
	   echo "$(LCOV) --capture --directory $$d -o $(COV_BUILD)/$$t.run.info"; \
	   $(LCOV) --quiet $(LCOV_RC) --capture --directory $$d --base-directory . \
	       --output-file $(COV_BUILD)/$$t.run.info $(LCOV_QUIET) || exit 1; \
	 done
	@echo "$(LCOV) --add-tracefile base.info --add-tracefile TIER.run.info: $(COVERAGE_TABLE:%=$(COV_BUILD)/%.info)"
	@$(foreach t,$(COVERAGE_TIERS),$(call cov_add,$(t),$(t)) && ) true
	@$(call cov_add,$(cov_sum_conformance),conformance)
	@$(call cov_add,$(cov_sum_all) stray,all)
	$(LCOV) --quiet $(LCOV_RC) --extract $(COV_BUILD)/all.info '$(CURDIR)/reference/*' \
	    --output-file $(COV_BUILD)/reference.info
	$(LCOV) --quiet $(LCOV_RC) --remove $(COV_BUILD)/reference.info \
	    '$(CURDIR)/reference/tests/*' '$(CURDIR)/reference/bench/*' \
	    --output-file $(COVERAGE_DIR)/lcov.info
	$(GENHTML) --quiet --branch-coverage --legend --title "libposixtrace" \
	    --prefix $(CURDIR) --output-directory $(COVERAGE_DIR) $(COVERAGE_DIR)/lcov.info
	@echo "coverage report (all the tiers together): $(COVERAGE_DIR)/index.html"
	@$(LCOV) $(LCOV_RC) --summary $(COVERAGE_DIR)/lcov.info
	@echo
	@$(PYTHON) maint/coverage_tiers.py --root . --exclude tests,bench \
	    --txt $(COVERAGE_DIR)/tiers.txt --json $(COVERAGE_DIR)/tiers.json \
	    --headline 'conformance=The portable suite alone' \
	    --headline 'portable=The portable tests without the vectors' \
	    --headline-folders posix,stream,log,shm \
	    $(foreach t,$(COVERAGE_TABLE), \
	        --tier $(t) $(COV_BUILD)/$(t).info '$(cov_about_$(t))')
	@echo
	@echo "the table, with hit/total: $(COVERAGE_DIR)/tiers.txt (and tiers.json)"
