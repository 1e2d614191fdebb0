# mk/harness.mk -- the conformance harness: builds the portable tests
# (conformance/tests/NAME.c, one program per file, with the framework ct.c) and
# the implementation profile (harness/profile.c) against the implementation
# under test, and runs them with harness/run.py.  See harness/README.md.
#
# Included by the Makefile; reads config.mk: CC, CFLAGS, CFLAGS_AUTO,
# LDFLAGS, LDFLAGS_AUTO, IMPL (reference|vendor), TRACE_CFLAGS, TRACE_LIBS,
# TRACE_OPTIONS_OVERRIDE, PYTHON.  Targets:
#
#   make conformance          build, run every test, write reports/ (exit 1 if a
#                             rule of a supported option FAILs or is UNRESOLVED)
#   make check-conformance    the same, as the gate of 'make check' against the
#                             reference (--expect-reference; a plain run in
#                             vendor mode)
#   make conformance-build    build the test programs and the profile only
#
# CONFORMANCE_FLAGS passes options to the runner, e.g.
#   make conformance CONFORMANCE_FLAGS='--rule "create.*" -v'

CT_DIR     = conformance/tests
CT_SRCS    = $(filter-out $(CT_DIR)/ct.c,$(wildcard $(CT_DIR)/*.c))
CT_BINS    = $(CT_SRCS:$(CT_DIR)/%.c=build/conformance/%)
CT_OBJ     = build/harness/obj/ct.o
PROFILE    = build/harness/profile
VECRUN    ?= build/harness/vecrun
HARNESS_MK := $(lastword $(MAKEFILE_LIST))

# Defaults for when this file is used without the project's Makefile.
LIB_A      ?= build/lib/libposixtrace.a
TRACE_DEPS ?= $(if $(filter reference,$(IMPL)),$(LIB_A))
PYTHON     ?= python3

# The vector interpreter is the vector helper's (harness/vecrun.c and its own
# rule in mk/vectors.mk), built against the implementation under test like
# the tests.
HARNESS_VECRUN = $(if $(and $(wildcard harness/vecrun.c),$(wildcard mk/vectors.mk)),$(VECRUN))

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
HARNESS_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -pthread -Wall -Wextra \
    $(CFLAGS) \
    $(if $(filter reference,$(IMPL)),$(CFLAGS_AUTO) -DCT_HAVE_POSIX_TRACE_SYSCONF=1,$(filter-out -Werror,$(CFLAGS_AUTO))) \
    $(HARNESS_OPTION_FLAGS) $(TRACE_CFLAGS)
HARNESS_LDFLAGS = $(LDFLAGS) $(LDFLAGS_AUTO)
HARNESS_DEPFLAGS = -MMD -MP -MF build/harness/deps/$(notdir $@).d

# The runner's arguments from the configuration.
HARNESS_RUN_FLAGS = --impl $(IMPL) \
    $(if $(harness_opts),--options $(strip $(TRACE_OPTIONS_OVERRIDE)))

.PHONY: conformance check-conformance conformance-build

conformance-build: $(CT_BINS) $(PROFILE) $(HARNESS_VECRUN)

# Against the reference, the reference's known gaps (conformance/
# reference_gaps.tsv: rules it fails for a documented reason) are reported as
# FAIL but do not fail the run.
conformance: conformance-build
	$(PYTHON) harness/run.py $(if $(filter reference,$(IMPL)),--expect-reference) \
	    $(HARNESS_RUN_FLAGS) $(CONFORMANCE_FLAGS)

# Against a vendor's implementation there is no reference to expect: the
# plain run.
check-conformance: conformance-build
	$(PYTHON) harness/run.py $(if $(filter reference,$(IMPL)),--expect-reference) \
	    $(HARNESS_RUN_FLAGS) $(CONFORMANCE_FLAGS)

$(CT_OBJ): $(CT_DIR)/ct.c $(CT_DIR)/ct.h config.mk $(HARNESS_MK)
	@mkdir -p $(@D) build/harness/deps
	$(CC) $(HARNESS_CFLAGS) $(HARNESS_DEPFLAGS) -c -o $@ $<

build/conformance/%: $(CT_DIR)/%.c $(CT_OBJ) $(TRACE_DEPS) config.mk $(HARNESS_MK)
	@mkdir -p $(@D) build/harness/deps
	$(CC) $(HARNESS_CFLAGS) $(HARNESS_DEPFLAGS) -o $@ $< $(CT_OBJ) $(HARNESS_LDFLAGS) $(TRACE_LIBS) -pthread

$(PROFILE): harness/profile.c $(TRACE_DEPS) config.mk $(HARNESS_MK)
	@mkdir -p $(@D) build/harness/deps
	$(CC) $(HARNESS_CFLAGS) $(HARNESS_DEPFLAGS) -o $@ $< $(HARNESS_LDFLAGS) $(TRACE_LIBS) -pthread

-include $(wildcard build/harness/deps/*.d)

# 'make check' includes the conformance run against the reference (it fails if
# any rule the reference implements fails) and the harness's own pytest suite;
# 'make coverage' counts the conformance run too.
CHECK_EXTRA    += check-conformance check-pytest
COVERAGE_EXTRA += check-conformance

# The Python tooling and the harness end to end.  The mutant runs of the
# vendor-mode tests take minutes: 'make check-mutants' runs them (CI does).
.PHONY: check-pytest check-mutants
check-pytest: conformance-build
	POSIXTRACE_SKIP_MUTANTS=1 $(PYTHON) -m pytest -q harness/tests

check-mutants: conformance-build
	$(PYTHON) -m pytest -q harness/tests/test_vendor_mode.py

# Tests with a compile probe (conformance/probes/NAME.c for conformance/tests/
# NAME.c: the header rules, conformance/tests/ct_probe.h): harness/probe.sh
# compiles each part of the probe on its own and says with which flags and
# objects the test program is built.
PROBE_DIR      = build/harness/probes
CT_PROBE_SRCS  = $(wildcard conformance/probes/*.c)
CT_PROBED_BINS = $(CT_PROBE_SRCS:conformance/probes/%.c=build/conformance/%)

$(CT_PROBED_BINS): build/conformance/%: $(CT_DIR)/%.c conformance/probes/%.c \
                   harness/probe.sh $(CT_OBJ) $(TRACE_DEPS) config.mk $(HARNESS_MK)
	@mkdir -p $(@D) build/harness/deps
	@out=$$(sh harness/probe.sh $* "$(PROBE_DIR)" $(CC) $(HARNESS_CFLAGS)) || exit 1; \
	flags=$$(echo "$$out" | sed -n 1p); objs=$$(echo "$$out" | sed -n 2p); \
	echo "$(CC) ... $$flags -o $@"; \
	eval "$(CC) $(HARNESS_CFLAGS) $(HARNESS_DEPFLAGS) $$flags -o $@ $< $$objs $(CT_OBJ) \
	    $(HARNESS_LDFLAGS) $(TRACE_LIBS) -pthread"
