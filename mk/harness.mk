# SPDX-License-Identifier: MIT
# mk/harness.mk -- the conformance harness: builds the portable tests
# (conformance/tests/NAME.c, one program per file, with the framework ct.c) and
# the implementation profile (harness/profile/profile.c) and the preflight
# (harness/profile/preflight.c: whether the test wrapper runs what the tests
# need) against the implementation under test, and runs them with
# harness/run.py.  See harness/README.md.
#
# Included by the Makefile; reads config.mk: CC, CFLAGS, CFLAGS_AUTO,
# LDFLAGS, LDFLAGS_AUTO, IMPL (reference|vendor), TRACE_CFLAGS, TRACE_LIBS,
# TRACE_OPTIONS_OVERRIDE, PYTHON.  Targets:
#
#   make conformance          build, run every test, write reports/; run.py's exit
#                             status (0 conforms, 1 does not, 2 the harness
#                             failed) in reports/exit-status and the last line
#   make check-conformance    the same, as the gate of 'make check' against the
#                             reference (--expect-reference; a plain run in
#                             vendor mode)
#   make conformance-build    build the test programs, the profile and the preflight only
#
# A test program that does not build against the implementation under test
# does not stop the build: see the rule of build/conformance/% below.
#
# CONFORMANCE_FLAGS passes options to the runner, e.g.
#   make conformance CONFORMANCE_FLAGS='--rule "create.*" -v'

CT_DIR     = conformance/tests
CT_SRCS    = $(filter-out $(CT_DIR)/ct.c,$(wildcard $(CT_DIR)/*.c))
CT_BINS    = $(CT_SRCS:$(CT_DIR)/%.c=build/conformance/%)
CT_OBJ     = build/harness/obj/ct.o
# The helpers shared by the tests (conformance/tests/README.md).
CT_LIB_SRCS = $(wildcard $(CT_DIR)/lib/*.c)
CT_LIB_OBJS = $(CT_LIB_SRCS:$(CT_DIR)/lib/%.c=build/harness/obj/lib/%.o)
CT_LIB     = build/harness/obj/libct.a
CT_OBJDIR  = build/harness/obj/tests
# Tests with a compile probe (conformance/probes/NAME.c, see harness/probe.sh).
CT_PROBED  = $(patsubst conformance/probes/%.c,build/conformance/%,$(wildcard conformance/probes/*.c))
PROFILE    = build/harness/profile
PREFLIGHT  = build/harness/preflight
VECRUN    ?= build/harness/vecrun
HARNESS_MK := $(lastword $(MAKEFILE_LIST))

# Defaults for when this file is used without the project's Makefile.
LIB_A      ?= build/lib/libposixtrace.a
TRACE_DEPS ?= $(if $(filter reference,$(IMPL)),$(LIB_A))
PYTHON     ?= python3

# The vector interpreter is the vector helper's (harness/vec/vecrun.c and its own
# rule in mk/vectors.mk), built against the implementation under test like
# the tests.
HARNESS_VECRUN = $(if $(and $(wildcard harness/vec/vecrun.c),$(wildcard mk/vectors.mk)),$(VECRUN))

# configure --trace-options=LIST: the options taken as supported, at compile
# time too (ct.h's CT_HAVE_TEF, ...).
harness_comma := ,
harness_opts   = $(subst $(harness_comma), ,$(strip $(TRACE_OPTIONS_OVERRIDE)))
harness_have   = -DCT_HAVE_$(1)=$(if $(filter $(1),$(harness_opts)),1,0)
HARNESS_OPTION_FLAGS = $(if $(harness_opts),$(foreach o,TEF TRI TRL,$(call harness_have,$(o))))

# The tests are compiled like the project's code, against the implementation
# under test's header only (never -Iinclude -Ireference); -Werror is for the
# project's own headers, so a vendor's header does not break the build with a
# warning.  The reference has posix_trace_sysconf(): the C library's sysconf()
# knows nothing of it.
HARNESS_CFLAGS = $(STD_CFLAGS) -pthread -Wall -Wextra \
    $(CFLAGS) \
    $(if $(filter reference,$(IMPL)),$(CFLAGS_AUTO) -DCT_HAVE_POSIX_TRACE_SYSCONF=1,$(filter-out -Werror,$(CFLAGS_AUTO))) \
    $(HARNESS_OPTION_FLAGS) $(TRACE_CFLAGS)
HARNESS_LDFLAGS = $(LDFLAGS) $(LDFLAGS_AUTO)
HARNESS_DEPFLAGS = -MMD -MP -MF build/harness/deps/$(notdir $@).d

# The runner's arguments from the configuration.
HARNESS_RUN_FLAGS = --impl $(IMPL) \
    $(if $(harness_opts),--options $(strip $(TRACE_OPTIONS_OVERRIDE)))

.PHONY: conformance check-conformance conformance-build

conformance-build: $(CT_BINS) $(PROFILE) $(PREFLIGHT) $(HARNESS_VECRUN)

# Against the reference, the reference's known gaps (conformance/
# reference_gaps.tsv: rules it fails for a documented reason) are reported as
# FAIL but do not fail the run.
#
# The exit status.  run.py exits 0 (conforms), 1 (does not conform) or 2 (the
# harness failed).  make itself can only exit 0 or 2, so the recipe writes
# run.py's status to reports/exit-status (2 if the build fails before run.py
# runs: the file always holds this run's status; CI reads it) and ends with a
# line that says which.  'make conformance-build && harness/run.py' exits
# with it directly.
conformance:
	@mkdir -p reports && rm -f reports/exit-status
	@$(MAKE) --no-print-directory conformance-build || { echo 2 > reports/exit-status; \
	    echo "make conformance: the build failed, nothing was run (exit status 2: the harness failed)"; exit 2; }
	@st=0; $(PYTHON) harness/run.py $(if $(filter reference,$(IMPL)),--expect-reference) \
	    $(HARNESS_RUN_FLAGS) $(CONFORMANCE_FLAGS) || st=$$?; \
	echo $$st > reports/exit-status; \
	case $$st in \
	0) ;; \
	1) echo "make conformance: the implementation does not conform (run.py exit status 1, in reports/exit-status)"; exit 1 ;; \
	*) echo "make conformance: the harness failed (run.py exit status $$st, in reports/exit-status): no verdict"; exit 2 ;; \
	esac

# Against a vendor's implementation there is no reference to expect: the
# plain run.
check-conformance: conformance-build
	$(PYTHON) harness/run.py $(if $(filter reference,$(IMPL)),--expect-reference) \
	    $(HARNESS_RUN_FLAGS) $(CONFORMANCE_FLAGS)

# The table the runner's per-test time limits come from (harness/runner/timelimits.py):
# each test's wall time on the reference, the longest of three runs.  Run it
# when tests are added or become slower, and commit conformance/timings.tsv.
.PHONY: calibrate-timings
calibrate-timings: conformance-build
	@test "$(IMPL)" = reference || { echo "calibrate-timings measures the reference: ./configure without --with-trace" >&2; exit 2; }
	$(PYTHON) harness/tools/calibrate_timings.py -- $(HARNESS_RUN_FLAGS)

# The framework: when it does not compile against the implementation under
# test, harness/build_test.sh keeps the compiler's output in $(CT_OBJ).log and
# every test program's link step makes it a BUILD-ERROR of its own.
$(CT_OBJ): $(CT_DIR)/ct.c $(CT_DIR)/ct.h $(CT_DIR)/ct_calls.h $(CT_DIR)/ct_notes.h config.mk $(HARNESS_MK) harness/build_test.sh
	@mkdir -p $(@D) build/harness/deps
	sh harness/build_test.sh compile ct $< $@ $(CC) $(HARNESS_CFLAGS) -- $(HARNESS_DEPFLAGS)

# The helpers shared by the tests (lib/ct_stream.c, ct_tef.c, ct_log.c), compiled
# once into one archive.  A helper that does not compile against the
# implementation under test is left out of the archive (its log says why,
# harness/build_test.sh archive): only the programs that call it then fail
# to link, each a BUILD-ERROR of its own quoting the helper's errors.
build/harness/obj/lib/%.o: $(CT_DIR)/lib/%.c $(CT_DIR)/%.h $(CT_DIR)/ct.h $(CT_DIR)/ct_calls.h \
                           config.mk $(HARNESS_MK) harness/build_test.sh
	@mkdir -p $(@D) build/harness/deps
	sh harness/build_test.sh compile $* $< $@ $(CC) $(HARNESS_CFLAGS) -- $(HARNESS_DEPFLAGS)

$(CT_LIB): $(CT_LIB_OBJS) harness/build_test.sh
	sh harness/build_test.sh archive $@ $(AR) -- $(CT_LIB_OBJS)

# A test program that does not compile or link against the implementation
# under test does not stop the build: harness/build_test.sh keeps the
# compiler's output in build/conformance/NAME.build.log, ending with a line
# BUILD-ERROR, and removes the program; the runner then reports its tests
# BUILD-ERROR (harness/unbuilt/build_results.py).  The dependency file names the
# program (-MT), which the object is made for.
build/conformance/%: $(CT_DIR)/%.c $(CT_OBJ) $(CT_LIB) $(TRACE_DEPS) config.mk $(HARNESS_MK) \
                     harness/build_test.sh
	@mkdir -p $(@D) $(CT_OBJDIR) build/harness/deps
	sh harness/build_test.sh compile $* $< $(CT_OBJDIR)/$*.o $(CC) $(HARNESS_CFLAGS) \
	    -- $(HARNESS_DEPFLAGS) -MT $@
	sh harness/build_test.sh link $* $(CT_OBJDIR)/$*.o $@ $(CC) \
	    -- $(CT_OBJ) $(CT_LIB) $(HARNESS_LDFLAGS) $(TRACE_LIBS) -pthread

# The compile probes: harness/build_test.sh compiles each part on its own
# (harness/probe.sh) and builds the test program with the result.
$(CT_PROBED): build/conformance/%: conformance/probes/%.c harness/probe.sh

# The profile: when it does not build against the implementation under test,
# the run goes on without it (harness/run.py says so in every report, and
# takes the options from configure's --trace-options or the header's macros).
$(PROFILE): harness/profile/profile.c $(TRACE_DEPS) config.mk $(HARNESS_MK) harness/build_test.sh
	@mkdir -p $(@D) build/harness/deps
	sh harness/build_test.sh program $< $@ 'the run goes on without the implementation profile' \
	    $(CC) $(HARNESS_CFLAGS) $(HARNESS_DEPFLAGS) $< $(HARNESS_LDFLAGS) $(TRACE_LIBS) -pthread

# The preflight, built like the profile: without it, a run through a test
# wrapper goes on without checking the wrapper first (run.py warns).
$(PREFLIGHT): harness/profile/preflight.c $(TRACE_DEPS) config.mk $(HARNESS_MK) harness/build_test.sh
	@mkdir -p $(@D) build/harness/deps
	sh harness/build_test.sh program $< $@ 'the run goes on without checking the test wrapper first' \
	    $(CC) $(HARNESS_CFLAGS) $(HARNESS_DEPFLAGS) $< $(HARNESS_LDFLAGS) $(TRACE_LIBS) -pthread

-include $(wildcard build/harness/deps/*.d)

# 'make check' includes the conformance run against the reference (it fails if
# any rule the reference implements fails) and the harness's own pytest suite
# ('make coverage' runs the conformance tests as a tier of its own: mk/coverage.mk).
CHECK_EXTRA    += check-conformance check-pytest

# The Python tooling and the harness end to end, in two tiers: 'make check'
# runs the fast tests (pytest -m "not slow"), 'make check-full' the slow ones
# too (check-pytest-slow: the tests marked slow, harness/tests/conftest.py).
# Each in PYTEST_JOBS workers of pytest-xdist (Debian's python3-pytest-xdist;
# without it, one process).  The mutant proof takes minutes: 'make
# check-mutants' runs it (CI does; harness/mutants/proof.py).
.PHONY: check-pytest check-pytest-slow check-mutants
PYTEST_JOBS ?= auto
PYTEST_PARALLEL = $$($(PYTHON) -c 'import xdist' 2>/dev/null && echo '-n $(PYTEST_JOBS)')
# The fast tests need no report and start at once, beside the conformance
# run; the slow ones come after it: some read the report it leaves in reports/.
check-pytest: all conformance-build
	$(PYTHON) -m pytest -q $(PYTEST_PARALLEL) -m "not slow" harness/tests
check-pytest-slow: all conformance-build | check-conformance
	$(PYTHON) -m pytest -q $(PYTEST_PARALLEL) -m slow harness/tests
CHECK_FULL_EXTRA += check-pytest-slow

# MUTANTS_FLAGS=--quick (CI): each mutant's own rule's tests first, the whole
# suite only for a mutant they do not catch and blame.
MUTANTS_FLAGS ?=
check-mutants: conformance-build
	$(PYTHON) harness/mutants/proof.py $(MUTANTS_FLAGS)

# The random sample (harness/mutants/README.md): mutants nobody chose, drawn
# by a seed from the reference's <trace.h> implementation, judged by the
# portable tests and the vectors; every survivor judged in
# harness/mutants/triage.tsv, the kill rate over observable mutants >= 95%.
# MUTATION_SEED and MUTATION_COUNT choose the sample, or MUTATION_KEYS names
# a file of pinned mutants instead (CI: harness/mutants/ci_sample.tsv, which
# an edit of the reference does not redraw); MUTATION_FLAGS adds sample.py's
# other options (--rejudge, --min-rate, --list).
MUTATION_SEED ?= 1
MUTATION_COUNT ?= 40
MUTATION_KEYS ?=
MUTATION_FLAGS ?=
.PHONY: check-mutation
check-mutation: conformance-build
	$(PYTHON) harness/mutants/sample.py $(if $(MUTATION_KEYS),--keys $(MUTATION_KEYS),--seed $(MUTATION_SEED) --count $(MUTATION_COUNT)) $(MUTATION_FLAGS)
