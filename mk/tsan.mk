# SPDX-License-Identifier: MIT
# mk/tsan.mk -- the threaded tests under ThreadSanitizer (issue 20 item 5):
#
#   make check-tsan
#         copies the source tree into build-tsan/ (the native build/ is not
#         touched), configures it there with --enable-tsan --enable-werror,
#         builds, and runs with TSan's default options the Check unit suites
#         that start threads or processes (TSAN_SUITES) and the conformance run
#         against the reference (reports in reports/tsan/); fails on the first
#         report (TSan exits 66) or on any failed test.
#
# TSan's default options are kept on purpose: the fork handler once held 65
# mutexes (one a stream slot), past the 64 TSan tracks a thread holding, and
# every fork aborted (reference/posix/stream_table.c, lock_all).
TSAN_DIR = build-tsan
TSAN_REPORTS = $(CURDIR)/reports/tsan
# The suites whose tests run more than one thread or process: the rest are
# single-threaded and TSan has nothing to say about them.  log_faults and
# log_accounting are left out: their loops over cut files and killed writers
# take 6 and 3 minutes under TSan for little threading; counts runs 1,000
# workloads here (10,000 in make check).
TSAN_SUITES ?= threads record_stress process counts eintr log_stream startstop policy status read create clear
TSAN_ENV = COUNTS_WORKLOADS=1000 COUNTS_LOG_WORKLOADS=30
# TSan makes a program 5 to 15 times slower: the per-test time limits grow too.
TSAN_TIME_FACTOR ?= 10

.PHONY: check-tsan tsan-configure tsan-build tsan-run-unit tsan-run-conformance

tsan-configure:
	@mkdir -p $(TSAN_DIR)
	tar -cf - --exclude='./build*' --exclude=./reports --exclude=./.git \
	    --exclude=./config.mk --exclude=./config.log . | tar -xf - -C $(TSAN_DIR)
	@mkdir -p $(TSAN_DIR)/reports
	cd $(TSAN_DIR) && { test config.mk -nt configure && grep -q '^TSAN = yes$$' config.mk || \
	    ./configure --enable-werror --enable-tsan TIME_FACTOR=$(TSAN_TIME_FACTOR); }

tsan-build: tsan-configure
	$(MAKE) -C $(TSAN_DIR) --no-print-directory all build/tests/check_reference conformance-build

# halt_on_error is left at its default too: a report makes the program exit 66,
# and the suite fails (the conformance runner calls such a test UNRESOLVED, and
# the run fails).  Each suite runs on its own, so that a report names it.
tsan-run-unit: tsan-build
	@failed=; for s in $(TSAN_SUITES); do \
	   $(TSAN_ENV) CK_RUN_SUITE=$$s CK_TIMEOUT_MULTIPLIER=$(TSAN_TIME_FACTOR) \
	       $(TSAN_DIR)/build/tests/check_reference >$(TSAN_DIR)/tsan-$$s.log 2>&1 || { \
	       failed="$$failed $$s"; cat $(TSAN_DIR)/tsan-$$s.log; }; \
	   grep -q 'WARNING: ThreadSanitizer' $(TSAN_DIR)/tsan-$$s.log && { \
	       case " $$failed " in *" $$s "*) ;; *) failed="$$failed $$s"; cat $(TSAN_DIR)/tsan-$$s.log;; esac; }; \
	   echo "tsan: suite $$s: $$(tail -n 1 $(TSAN_DIR)/tsan-$$s.log | cut -c1-80)"; \
	 done; \
	 test -z "$$failed" || { echo "check-tsan: suites failed:$$failed"; exit 1; }

tsan-run-conformance: tsan-build
	@mkdir -p $(TSAN_REPORTS)
	@$(MAKE) -C $(TSAN_DIR) --no-print-directory check-conformance \
	     CONFORMANCE_FLAGS='--reports $(TSAN_REPORTS) --name "posixtrace reference (ThreadSanitizer)" $(CONFORMANCE_FLAGS)'

check-tsan:
	@start=$$(date +%s); failed=; \
	 $(MAKE) --no-print-directory tsan-run-unit || failed="$$failed unit"; \
	 $(MAKE) --no-print-directory tsan-run-conformance || failed="$$failed conformance"; \
	 echo "check-tsan: $$(( $$(date +%s) - start )) s$${failed:+; failed:$$failed}"; \
	 test -z "$$failed"
