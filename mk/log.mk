# SPDX-License-Identifier: MIT
# mk/log.mk -- fuzzing the trace log reader (reference/log/LOGFORMAT.md section 8,
# fuzz/README.md):
#
#   make fuzz-log-build      build/fuzz/fuzz_log_reader only
#   make fuzz-log-corpus     rewrites the seed corpus fuzz/corpus/log_reader/
#
# The target is compiled from the sources, not linked with the library, like
# the slot decoder's (mk/ksp.mk).

FUZZ_LOG_TARGET  = build/fuzz/fuzz_log_reader
FUZZ_LOG_CORPUS  = fuzz/corpus/log_reader
LOG_MK          := $(lastword $(MAKEFILE_LIST))

# What reading a log takes besides the slot codec and the trace file.
LOG_READER_SRCS  = reference/log/log_reader.c reference/log/log_records.c reference/log/log_events.c reference/stream/event_names.c \
                   reference/shm/shm.c reference/shm/shm_lock.c \
                   reference/stream/attr.c
FUZZ_LOG_SRCS    = fuzz/fuzz_log_reader.c $(LOG_READER_SRCS) reference/slot/slot_decode.c \
                   reference/slot/slot_encode.c reference/slot/trace_file.c reference/slot/trace_file_qnx.c $(wildcard reference/dump/*.c)

# The slot decoder's target (mk/ksp.mk) compiles tracedump's library, whose
# POSIX view (dump_posix.c) reads logs: it needs the log reader too.  Its
# recipe expands FUZZ_SRCS when it runs, after this file is read.
FUZZ_SRCS += $(LOG_READER_SRCS)

.PHONY: fuzz-log-build fuzz-log-corpus

fuzz-log-build: $(FUZZ_LOG_TARGET)

$(FUZZ_LOG_TARGET): $(FUZZ_LOG_SRCS) $(wildcard reference/*/*.h) config.mk $(LOG_MK)
ifeq ($(CLANG),)
	@echo "error: fuzzing needs clang (with libFuzzer: libclang-rt-dev): install it and run ./configure again."; exit 1
endif
	@mkdir -p $(@D)
	$(CLANG) $(STD_CFLAGS) -Iinclude -Ireference -g -O1 -pthread \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -Wall -Wextra -Werror -o $@ $(FUZZ_LOG_SRCS)

# 'make fuzz' and 'make fuzz-log' (mk/fuzz.mk) run it.

build/fuzz/make_log_corpus: fuzz/make_log_corpus.c $(LIB_A) config.mk $(LOG_MK)
	@mkdir -p $(@D)
	$(CC) $(STD_CFLAGS) -D_GNU_SOURCE -Iinclude $(CFLAGS) \
	    -o $@ $< $(LIB_A) -pthread

fuzz-log-corpus: build/fuzz/make_log_corpus
	@mkdir -p $(FUZZ_LOG_CORPUS)
	build/fuzz/make_log_corpus $(FUZZ_LOG_CORPUS)

# The golden trace logs (vectors/trl/logs/, harness/golden/golden_logs.c): the
# reference's log bytes pinned for a few deterministic scenarios.
# 'make check' compares them; 'make bless-logs' rewrites them on purpose
# (with a readable dump beside each, for review).
GOLDEN_LOGS = build/harness/golden_logs

# The FLUSH scenarios are pinned by SHA-256 (vectors/trl/logs/flush-digests.tsv,
# kv_sha256 of the KSP vectors' interpreter).
$(GOLDEN_LOGS): harness/golden/golden_logs.c harness/kvec/kvec_sha256.c harness/kvec/kvec.h \
                $(LIB_A) config.mk mk/log.mk
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) $(CFLAGS_AUTO) -o $@ \
	    harness/golden/golden_logs.c harness/kvec/kvec_sha256.c $(LIB_A) $(LDFLAGS) $(LDFLAGS_AUTO) -pthread

# check-sim-flush: each FLUSH scenario SIM_FLUSH_RUNS times while spinning
# processes load every core (and a thread spins beside the recorder): one
# digest each, the pinned one (issue 32: a FLUSH stream's log on the
# simulated clock must not depend on when its flusher thread runs).
SIM_FLUSH_RUNS ?= 8

.PHONY: check-golden-logs bless-logs check-sim-flush
check-golden-logs: $(GOLDEN_LOGS)
	$(TEST_WRAPPER) $(GOLDEN_LOGS) --dir vectors/trl/logs

check-sim-flush: $(GOLDEN_LOGS)
	$(TEST_WRAPPER) $(GOLDEN_LOGS) --dir vectors/trl/logs --repeat $(SIM_FLUSH_RUNS) --load

bless-logs: $(GOLDEN_LOGS) build/bin/tracedump
	$(GOLDEN_LOGS) --dir vectors/trl/logs --bless
	for f in vectors/trl/logs/*.log; do build/bin/tracedump "$$f" > "$${f%.log}.dump" || true; done

ifeq ($(IMPL),reference)
CHECK_EXTRA += check-golden-logs check-sim-flush
endif
