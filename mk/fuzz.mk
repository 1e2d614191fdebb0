# SPDX-License-Identifier: MIT
# mk/fuzz.mk -- every libFuzzer target, run together (fuzz/README.md):
#
#   make fuzz [FUZZ_SECONDS=15]  each target for FUZZ_SECONDS (with -j2, two at
#                            a time); fails on any finding (crash, leak,
#                            sanitizer report, assertion, time-out over 10 s)
#   make fuzz-NAME           one target: slot_decoder, log_reader, exporters,
#                            vec_parser, kvec_parser, tool_args
#   make fuzz-log            the log reader's (the same as fuzz-log_reader)
#   make fuzz-targets        build them all (build/fuzz/fuzz_NAME)
#   make fuzz-merge          adds to fuzz/corpus/NAME/ what the runs found
#                            (build/fuzz/corpus/NAME/) that adds coverage
#   make fuzz-seed-corpora   rebuilds the new targets' corpora from the
#                            committed vectors and traces (fuzz/make_seeds.py)
#
# Built with clang -fsanitize=fuzzer,address,undefined.  The slot decoder's
# and the log reader's targets are compiled from the sources (mk/ksp.mk,
# mk/log.mk); the harness's parsers and the tools' command lines are compiled
# from theirs and linked with the library for the rest (they do not call it).
# The committed corpus fuzz/corpus/NAME/ is read, never written.

FUZZ_SECONDS ?= 15
FUZZ_NAMES    = slot_decoder log_reader exporters vec_parser kvec_parser tool_args
FUZZ_MK      := $(lastword $(MAKEFILE_LIST))
FUZZ_CFLAGS   = $(STD_CFLAGS) -Iinclude -Ireference -g -O1 -pthread \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -Wall -Wextra -Werror

# Per target: the longest input, and options of its own.
FUZZ_MAXLEN_slot_decoder = 16384
FUZZ_MAXLEN_log_reader   = 131072
FUZZ_MAXLEN_exporters    = 32768
FUZZ_MAXLEN_vec_parser   = 8192
FUZZ_MAXLEN_kvec_parser  = 8192
FUZZ_MAXLEN_tool_args    = 512
FUZZ_OPTS_slot_decoder   = -dict=fuzz/slot_decoder.dict

FUZZ_EXPORTERS_SRCS = fuzz/fuzz_exporters.c reference/slot/slot_decode.c reference/slot/slot_encode.c \
                      reference/slot/trace_file.c reference/slot/trace_file_qnx.c \
                      $(wildcard reference/dump/*.c) $(LOG_READER_SRCS)
FUZZ_VEC_SRCS       = fuzz/fuzz_vec_parser.c fuzz/input_file.c $(sort $(wildcard harness/vec/vec_*.c)) \
                      harness/common/vec_rule_results.c
FUZZ_KVEC_SRCS      = fuzz/fuzz_kvec_parser.c fuzz/input_file.c \
                      $(filter-out harness/kvec/kvecrun.c,$(sort $(wildcard harness/kvec/kvec_*.c))) \
                      harness/common/vec_rule_results.c
FUZZ_TOOL_SRCS      = fuzz/fuzz_tool_args.c fuzz/tool_args_tracedump.c fuzz/tool_args_tracesim.c \
                      $(wildcard reference/kernel/*.c)

FUZZ_BINS = $(FUZZ_NAMES:%=build/fuzz/fuzz_%)

.PHONY: fuzz fuzz-targets fuzz-log fuzz-merge fuzz-seed-corpora $(FUZZ_NAMES:%=fuzz-%)

fuzz-targets: $(FUZZ_BINS)

fuzz_need_clang = $(if $(CLANG),,@echo "error: fuzzing needs clang (with libFuzzer: \
    libclang-rt-dev): install it and run ./configure again."; exit 1)
# The targets that link the library need it built without gcc's sanitizers
# (their runtime is not clang's).
fuzz_need_plain_lib = $(if $(filter yes,$(SANITIZERS)),@echo "error: $@ links $(LIB_A) built with gcc's sanitizers: run ./configure without --enable-sanitizers"; exit 1)

build/fuzz/fuzz_exporters: $(FUZZ_EXPORTERS_SRCS) $(wildcard reference/*/*.h) config.mk $(FUZZ_MK)
	$(fuzz_need_clang)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $(FUZZ_EXPORTERS_SRCS)

build/fuzz/fuzz_vec_parser: $(FUZZ_VEC_SRCS) $(wildcard harness/vec/*.h fuzz/*.h) $(LIB_A) config.mk $(FUZZ_MK)
	$(fuzz_need_clang)
	$(fuzz_need_plain_lib)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -DVECRUN_EXACT -DVECRUN_VERSION=\"fuzz\" -o $@ $(FUZZ_VEC_SRCS) $(LIB_A)

build/fuzz/fuzz_kvec_parser: $(FUZZ_KVEC_SRCS) $(wildcard harness/kvec/*.h fuzz/*.h) $(LIB_A) config.mk $(FUZZ_MK)
	$(fuzz_need_clang)
	$(fuzz_need_plain_lib)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $(FUZZ_KVEC_SRCS) $(LIB_A)

build/fuzz/fuzz_tool_args: $(FUZZ_TOOL_SRCS) reference/tools/tracedump.c reference/tools/tracesim.c \
                           $(wildcard reference/kernel/*.h fuzz/*.h) $(LIB_A) config.mk $(FUZZ_MK)
	$(fuzz_need_clang)
	$(fuzz_need_plain_lib)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $(FUZZ_TOOL_SRCS) $(LIB_A)

# One run: new inputs go to build/fuzz/corpus/NAME, findings to
# build/fuzz/artifacts/NAME/ (replay: build/fuzz/fuzz_NAME FILE).
define fuzz_run
fuzz-$(1): build/fuzz/fuzz_$(1)
	@mkdir -p build/fuzz/corpus/$(1) build/fuzz/artifacts/$(1)
	build/fuzz/fuzz_$(1) -max_total_time=$$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -max_len=$$(FUZZ_MAXLEN_$(1)) $$(FUZZ_OPTS_$(1)) -print_final_stats=1 \
	    -artifact_prefix=build/fuzz/artifacts/$(1)/ build/fuzz/corpus/$(1) fuzz/corpus/$(1) \
	    > build/fuzz/$(1).log 2>&1 || { tail -n 40 build/fuzz/$(1).log; exit 1; }
	@grep -h "^stat::number_of_executed_units\|^stat::average_exec_per_sec" build/fuzz/$(1).log \
	    | tr '\n' ' ' | sed 's/^/fuzz-$(1): /; s/$$$$/\n/'; \
	 grep -o "cov: [0-9]*" build/fuzz/$(1).log | tail -n 1 | sed 's/^/fuzz-$(1): /'
endef
$(foreach n,$(FUZZ_NAMES),$(eval $(call fuzz_run,$(n))))

fuzz: $(FUZZ_NAMES:%=fuzz-%)
fuzz-log: fuzz-log_reader

# After a long run: what it found that adds coverage joins the committed
# corpus fuzz/corpus/NAME/ (libFuzzer's -merge=1 into a folder keeps what is
# there and adds only inputs that reach new edges: -use_counters=0, so that
# hit counts alone do not bloat it), to review and commit.
fuzz-merge: $(FUZZ_BINS)
	@for n in $(FUZZ_NAMES); do \
	    mkdir -p build/fuzz/corpus/$$n && \
	    build/fuzz/fuzz_$$n -merge=1 -use_counters=0 -max_len=131072 fuzz/corpus/$$n build/fuzz/corpus/$$n \
	        > build/fuzz/merge_$$n.log 2>&1 || { tail build/fuzz/merge_$$n.log; exit 1; }; \
	    echo "fuzz/corpus/$$n: $$(ls fuzz/corpus/$$n | wc -l) files, $$(du -sk --apparent-size fuzz/corpus/$$n | cut -f1) KB"; \
	done

fuzz-seed-corpora: $(FUZZ_BINS) build/bin/tracedump
	$(PYTHON) fuzz/make_seeds.py build/fuzz/seeds
	@for n in exporters vec_parser kvec_parser tool_args; do \
	    mkdir -p fuzz/corpus/$$n && rm -f fuzz/corpus/$$n/* && \
	    build/fuzz/fuzz_$$n -merge=1 -use_counters=0 -max_len=131072 fuzz/corpus/$$n \
	        build/fuzz/seeds/$$n > build/fuzz/seeds/$$n.log 2>&1 || { tail build/fuzz/seeds/$$n.log; exit 1; }; \
	    echo "fuzz/corpus/$$n: $$(ls fuzz/corpus/$$n | wc -l) files, $$(du -sk --apparent-size fuzz/corpus/$$n | cut -f1) KB"; \
	done
