# SPDX-License-Identifier: MIT
# mk/bench.mk -- the reference side by side with LTTng-UST (issue 19 item 5;
# bench/compare.py, bench/lttng/, reference/bench/bench_compare.c):
#
#   make bench-compare    the same workloads against both tracers in one run,
#                         alternating, medians of BENCH_RUNS (9): prints the
#                         ratio table, writes reports/bench.json and
#                         reports/bench.svg (ns per event against 1, 2, 4
#                         threads).  Without LTTng-UST it says how to get it
#                         and exits 0.  BENCH_COMPARE_FLAGS passes options
#                         (bench/compare.py --help), e.g. '--events 1000000'
#   make bench-deps       the Debian packages it needs (apt-get, as root)

BENCH_RUNS ?= 9
BENCH_DEPS_PACKAGES = liblttng-ust-dev lttng-tools babeltrace2

.PHONY: bench-compare bench-deps
bench-compare: build/bench/bench_compare
	$(PYTHON) bench/compare.py --cc '$(CC)' --runs $(BENCH_RUNS) $(BENCH_COMPARE_FLAGS)

bench-deps:
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	    $(BENCH_DEPS_PACKAGES)
