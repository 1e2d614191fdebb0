# SPDX-License-Identifier: MIT
# mk/ksp.mk -- the kernel slot protocol's vectors, fuzzing and acceptance run
# (vectors/ksp/README.md, fuzz/README.md, reference/kernel/KERNEL.md).
#
#   make check-ksp           every KSP vector against the reference (any result
#                            but PASS fails), then the decoder vectors against
#                            tracedump --json as "another decoder" (FAIL or
#                            UNRESOLVED fails); part of 'make check'.  The
#                            decoder-contract test with a partial decoder,
#                            harness/tests/test_ksp_decoder.py, runs with the
#                            other pytest files ('make check-pytest')
#   make kvecrun             build build/harness/kvecrun only
#   make fuzz-build          the slot decoder's fuzz target ('make fuzz',
#                            mk/fuzz.mk, runs it with the others)
#   make ksp-acceptance      10 million events on 4 CPUs with wraps, drops and
#                            straddling combine events, written and read back
#
# kvecrun is the reference's own test program: it links the reference library
# and is never built into the portable conformance tests.  It is compiled
# against the public headers only (<posixtrace_codec.h>, <posixtrace_kernel.h>,
# <posixtrace_dump.h>), never the reference's internal ones.  It finds the
# vectors by the absolute path compiled in (KSP_VECTORS overrides it), so the
# runner may start it in any folder.

KVECRUN       = build/harness/kvecrun
KVECRUN_SRCS  = harness/kvec/kvecrun.c $(sort $(wildcard harness/kvec/kvec_*.c)) harness/common/vec_rule_results.c
KVECRUN_HDRS  = harness/kvec/kvec.h harness/common/vec_rule_results.h
KSP_MK       := $(lastword $(MAKEFILE_LIST))
KSP_TRACEDUMP = build/bin/tracedump
KSP_TRACESIM  = build/bin/tracesim

CHECK_EXTRA += check-ksp

.PHONY: kvecrun check-ksp fuzz-build ksp-acceptance

kvecrun: $(KVECRUN)

$(KVECRUN): $(KVECRUN_SRCS) $(KVECRUN_HDRS) $(LIB_A) config.mk $(KSP_MK)
	@mkdir -p $(@D)
	$(CC) $(STD_CFLAGS) $(LFS_CFLAGS) -Iinclude -Iharness -pthread \
	    -Wall -Wextra $(CFLAGS) $(CFLAGS_AUTO) '-DKVECRUN_VECTORS="$(CURDIR)/vectors/ksp"' \
	    -o $@ $(KVECRUN_SRCS) $(LDFLAGS) $(LDFLAGS_AUTO) $(LIB_A) -pthread

check-ksp: $(KVECRUN) $(KSP_TRACEDUMP)
	$(TEST_WRAPPER) $(KVECRUN) --run-all
	CT_EXEC_WRAPPER='$(TEST_WRAPPER)' $(TEST_WRAPPER) $(KVECRUN) --run-all \
	    --decoder '$${CT_EXEC_WRAPPER} $(CURDIR)/$(KSP_TRACEDUMP) --json {file}'

# ---- fuzzing --------------------------------------------------------------------

FUZZ_TARGET   = build/fuzz/fuzz_slot_decoder
FUZZ_CORPUS   = fuzz/corpus/slot_decoder
FUZZ_SRCS     = fuzz/fuzz_slot_decoder.c fuzz/slot_mutator.c reference/slot/slot_decode.c reference/slot/slot_encode.c \
                reference/slot/trace_file.c reference/slot/trace_file_qnx.c $(wildcard reference/dump/*.c)

fuzz-build: $(FUZZ_TARGET)

$(FUZZ_TARGET): $(FUZZ_SRCS) $(wildcard reference/*/*.h) config.mk $(KSP_MK)
ifeq ($(CLANG),)
	@echo "error: fuzzing needs clang (with libFuzzer: libclang-rt-dev): install it and run ./configure again."; exit 1
endif
	@mkdir -p $(@D)
	$(CLANG) $(STD_CFLAGS) -Iinclude -Ireference -g -O1 \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -Wall -Wextra -Werror -o $@ $(FUZZ_SRCS)

# 'make fuzz' (mk/fuzz.mk) runs it with the other targets.

# ---- the acceptance run ------------------------------------------------------

KSP_ACCEPT_FLAGS = --cpus 4 --events 10000000 --seed 7 --mode linear --buffers 8 \
    --logger-every 700 --logger-lanes 2 --logger-jitter 80 --wrap-early

ksp-acceptance: $(KSP_TRACESIM)
	@mkdir -p build/ksp
	time $(KSP_TRACESIM) $(KSP_ACCEPT_FLAGS) --verify -o build/ksp/acceptance.kev
	@rm -f build/ksp/acceptance.kev

# The conformance run against the reference includes the KSP vectors: kvecrun
# is built with the other test programs (harness/run.py must discover it as
# build/harness/kvecrun; until it does: CONFORMANCE_FLAGS='--exe build/harness/kvecrun'),
# and tracedump, which harness/tests/test_ksp_decoder.py uses.
ifeq ($(IMPL),reference)
conformance-build: $(KVECRUN) $(KSP_TRACEDUMP)
endif
